#include "util/json.h"

#include <stdarg.h>

struct json_object *sb_json_strings(const char *key, ...)
{
	struct json_object *o = json_object_new_object();
	const char *v;
	va_list ap;

	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *)) {
		v = va_arg(ap, const char *);
		json_object_object_add(o, key, json_object_new_string(v ? v : ""));
	}
	va_end(ap);
	return o;
}
