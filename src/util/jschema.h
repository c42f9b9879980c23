/* A JSON-Schema (draft-07) subset validator over json-c, for documents that
 * come from other machines (results files): type, const, enum, properties,
 * required, additionalProperties, items, allOf, if/then/else, $ref to
 * "#/..." in the same schema, minimum, minLength, minItems, maxItems and
 * pattern (POSIX extended). Keywords outside this set are ignored, so a
 * schema only ever gets more lenient here than in a full validator. */
#ifndef SB_UTIL_JSCHEMA_H
#define SB_UTIL_JSCHEMA_H

#include <json-c/json.h>

#include "util/err.h"

/* 0 when doc matches schema; else -EINVAL and a message
 * "WHAT: stack.built[2].name: expected a string, got null" in err (what
 * names the document, e.g. its file). */
int sb_jschema_validate(struct json_object *schema, struct json_object *doc, int flags,
			const char *what, struct sb_err *err);
/* flags: skip "required" (a reader that takes older files, which lack keys
 * added since, and names the keys it cannot do without itself). */
#define SB_JSCHEMA_NO_REQUIRED 1

#endif
