/* Small json-c helpers shared across modules. */
#ifndef SB_UTIL_JSON_H
#define SB_UTIL_JSON_H

#include <json-c/json.h>

/* A new object of string members: key, value, ..., NULL (a NULL value
 * after a key is ""). */
struct json_object *sb_json_strings(const char *key, ...) __attribute__((sentinel));

/* The readers of results files (which the schema checked, but whose
 * optional members may be missing or null): o's member key, or NULL when
 * o is NULL, not an object, or has no such member. */
struct json_object *sb_json_get(struct json_object *o, const char *key);
/* o's member key as text (a number as its digits), "" when absent or null. */
const char *sb_json_text(struct json_object *o, const char *key);
/* o's member key when it is a string, else dflt. */
const char *sb_json_str(struct json_object *o, const char *key, const char *dflt);
/* o's member key when it is a finite number: 1 and *v set, else 0. */
int sb_json_num(struct json_object *o, const char *key, double *v);

#endif
