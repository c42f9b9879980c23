/* Small json-c helpers shared across modules. */
#ifndef SB_UTIL_JSON_H
#define SB_UTIL_JSON_H

#include <json-c/json.h>

/* A new object of string members: key, value, ..., NULL (a NULL value
 * after a key is ""). */
struct json_object *sb_json_strings(const char *key, ...) __attribute__((sentinel));

#endif
