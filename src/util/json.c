#include "util/json.h"

#include <math.h>
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

struct json_object *sb_json_get(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v))
		return v;
	return NULL;
}

const char *sb_json_text(struct json_object *o, const char *key)
{
	struct json_object *v = sb_json_get(o, key);

	return v ? json_object_get_string(v) : "";
}

const char *sb_json_str(struct json_object *o, const char *key, const char *dflt)
{
	struct json_object *v = sb_json_get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : dflt;
}

int sb_json_num(struct json_object *o, const char *key, double *v)
{
	struct json_object *x = sb_json_get(o, key);

	if (!x || !(json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)))
		return 0;
	*v = json_object_get_double(x);
	return isfinite(*v);
}
