#include "util/jschema.h"
#include "util/json.h"

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define PATH_MAX_LEN 512
#define DEPTH_MAX 64

struct vctx {
	struct json_object *root; /* the schema, for $ref */
	char path[PATH_MAX_LEN];  /* "stack.built[2].name" of the value at hand */
	char msg[SB_ERR_MSG_MAX];
	int quiet;                /* inside an "if": no message */
	int flags;
	int depth;
};

static int check(struct vctx *c, struct json_object *s, struct json_object *d);

static int fail(struct vctx *c, const char *fmt, const char *a, const char *b)
{
	if (!c->quiet && !c->msg[0]) {
		char m[SB_ERR_MSG_MAX - PATH_MAX_LEN - 8];

		snprintf(m, sizeof(m), fmt, a, b);
		snprintf(c->msg, sizeof(c->msg), "%s: %s", c->path[0] ? c->path : "the top level", m);
	}
	return -1;
}

static const char *type_name(struct json_object *d)
{
	switch (json_object_get_type(d)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a number";
	case json_type_int: return "an integer";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	}
	return "?";
}

static const char *a_type(const char *t)
{
	static const char *const names[][2] = {
		{ "object", "an object" }, { "array", "an array" }, { "string", "a string" },
		{ "number", "a number" }, { "integer", "an integer" }, { "boolean", "a boolean" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(t, names[i][0]))
			return names[i][1];
	return t;
}

static bool type_is(const char *t, struct json_object *d)
{
	enum json_type jt = json_object_get_type(d);

	if (!strcmp(t, "number"))
		return jt == json_type_int || jt == json_type_double;
	if (!strcmp(t, "integer"))
		return jt == json_type_int;
	return !strcmp(t, json_type_to_name(jt));
}

static int check_type(struct vctx *c, struct json_object *t, struct json_object *d)
{
	char want[128] = "";
	size_t i, n;

	/* json-c saturates an integer past 64 bits (a 400-digit "value" read
	 * back as 2^64): refuse it rather than render a number nobody wrote */
	if (json_object_is_type(d, json_type_int) &&
	    (json_object_get_uint64(d) == UINT64_MAX || json_object_get_int64(d) == INT64_MIN))
		return fail(c, "a number out of range (past 64 bits)%s%s", "", "");

	if (json_object_is_type(t, json_type_string)) {
		if (type_is(json_object_get_string(t), d))
			return 0;
		snprintf(want, sizeof(want), "%s", a_type(json_object_get_string(t)));
	} else if (json_object_is_type(t, json_type_array)) {
		n = json_object_array_length(t);
		for (i = 0; i < n; i++) {
			const char *one = json_object_get_string(json_object_array_get_idx(t, i));

			if (type_is(one, d))
				return 0;
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", i ? " or " : "", a_type(one));
		}
	} else {
		return 0;
	}
	return fail(c, "expected %s, got %s", want, type_name(d));
}

/* "#/$defs/layer" -> that part of the root schema. */
static struct json_object *resolve(struct vctx *c, const char *ref)
{
	struct json_object *s = c->root;
	char buf[256], *p, *save = NULL;

	if (strncmp(ref, "#/", 2) || strlen(ref) >= sizeof(buf))
		return NULL;
	snprintf(buf, sizeof(buf), "%s", ref + 2);
	for (p = strtok_r(buf, "/", &save); p && s; p = strtok_r(NULL, "/", &save))
		s = sb_json_get(s, p);
	return s;
}

/* Validate d as c->path + suffix. */
static int check_at(struct vctx *c, struct json_object *s, struct json_object *d, const char *fmt,
		    const char *key, size_t idx)
{
	size_t len = strlen(c->path);
	int r;

	if (key)
		snprintf(c->path + len, sizeof(c->path) - len, fmt, len ? "." : "", key);
	else
		snprintf(c->path + len, sizeof(c->path) - len, "[%zu]", idx);
	r = check(c, s, d);
	c->path[len] = '\0';
	return r;
}

static int check_object(struct vctx *c, struct json_object *s, struct json_object *d)
{
	struct json_object *props = sb_json_get(s, "properties"), *req = sb_json_get(s, "required");
	struct json_object *add = sb_json_get(s, "additionalProperties"), *sub;
	size_t i;

	if (!json_object_is_type(d, json_type_object))
		return 0;
	for (i = 0; req && !(c->flags & SB_JSCHEMA_NO_REQUIRED) && json_object_is_type(req, json_type_array) && i < json_object_array_length(req); i++) {
		const char *k = json_object_get_string(json_object_array_get_idx(req, i));

		if (k && !json_object_object_get_ex(d, k, NULL))
			return fail(c, "has no \"%s\"%s", k, "");
	}
	json_object_object_foreach(d, key, val) {
		sub = props ? sb_json_get(props, key) : NULL;
		if (!sub && json_object_is_type(add, json_type_boolean) && !json_object_get_boolean(add))
			return fail(c, "unexpected key \"%s\"%s", key, "");
		if (!sub && json_object_is_type(add, json_type_object))
			sub = add;
		if (sub && check_at(c, sub, val, "%s%s", key, 0) < 0)
			return -1;
	}
	return 0;
}

static int check_array(struct vctx *c, struct json_object *s, struct json_object *d)
{
	struct json_object *items = sb_json_get(s, "items"), *v;
	size_t i, n;
	char num[32];

	if (!json_object_is_type(d, json_type_array))
		return 0;
	n = json_object_array_length(d);
	if ((v = sb_json_get(s, "minItems")) && n < (size_t)json_object_get_int64(v)) {
		snprintf(num, sizeof(num), "%lld", (long long)json_object_get_int64(v));
		return fail(c, "expected at least %s item%s", num, "s");
	}
	if ((v = sb_json_get(s, "maxItems")) && n > (size_t)json_object_get_int64(v)) {
		snprintf(num, sizeof(num), "%lld", (long long)json_object_get_int64(v));
		return fail(c, "expected at most %s item%s", num, "s");
	}
	for (i = 0; items && json_object_is_type(items, json_type_object) && i < n; i++)
		if (check_at(c, items, json_object_array_get_idx(d, i), NULL, NULL, i) < 0)
			return -1;
	return 0;
}

static int check_pattern(struct vctx *c, const char *pat, struct json_object *d)
{
	regex_t re;
	int m;

	if (!json_object_is_type(d, json_type_string) || regcomp(&re, pat, REG_EXTENDED | REG_NOSUB))
		return 0;
	m = regexec(&re, json_object_get_string(d), 0, NULL, 0);
	regfree(&re);
	return m ? fail(c, "\"%s\" does not match %s", json_object_get_string(d), pat) : 0;
}

static int check_scalar(struct vctx *c, struct json_object *s, struct json_object *d)
{
	struct json_object *v;
	size_t i;
	char num[64];

	if ((v = sb_json_get(s, "const")) && !json_object_equal(v, d))
		return fail(c, "expected %s%s", json_object_to_json_string(v), "");
	if ((v = sb_json_get(s, "enum")) && json_object_is_type(v, json_type_array)) {
		for (i = 0; i < json_object_array_length(v); i++)
			if (json_object_equal(json_object_array_get_idx(v, i), d))
				break;
		if (i == json_object_array_length(v))
			return fail(c, "expected one of %s%s", json_object_to_json_string(v), "");
	}
	if ((v = sb_json_get(s, "minimum")) && (json_object_is_type(d, json_type_int) ||
				       json_object_is_type(d, json_type_double)) &&
	    !(json_object_get_double(d) >= json_object_get_double(v))) {
		snprintf(num, sizeof(num), "%g", json_object_get_double(v));
		return fail(c, "expected at least %s%s", num, "");
	}
	if ((v = sb_json_get(s, "minLength")) && json_object_is_type(d, json_type_string) &&
	    (size_t)json_object_get_string_len(d) < (size_t)json_object_get_int64(v))
		return fail(c, "expected a longer string%s%s", "", "");
	if ((v = sb_json_get(s, "pattern")) && json_object_is_type(v, json_type_string))
		return check_pattern(c, json_object_get_string(v), d);
	return 0;
}

static int check_cond(struct vctx *c, struct json_object *s, struct json_object *d)
{
	struct json_object *v = sb_json_get(s, "allOf"), *branch;
	size_t i;
	int r;

	for (i = 0; v && json_object_is_type(v, json_type_array) && i < json_object_array_length(v); i++)
		if (check(c, json_object_array_get_idx(v, i), d) < 0)
			return -1;
	if (!(v = sb_json_get(s, "if")))
		return 0;
	c->quiet++;
	r = check(c, v, d);
	c->quiet--;
	branch = sb_json_get(s, r == 0 ? "then" : "else");
	return branch ? check(c, branch, d) : 0;
}

static int check(struct vctx *c, struct json_object *s, struct json_object *d)
{
	struct json_object *v;
	int r;

	if (!json_object_is_type(s, json_type_object))
		return 0;
	if (++c->depth > DEPTH_MAX) {
		c->depth--;
		return fail(c, "nested too deep%s%s", "", "");
	}
	if ((v = sb_json_get(s, "$ref"))) {
		struct json_object *target = resolve(c, json_object_get_string(v));

		r = target ? check(c, target, d) : 0;
	} else {
		r = (v = sb_json_get(s, "type")) ? check_type(c, v, d) : 0;
		if (r == 0)
			r = check_scalar(c, s, d);
		if (r == 0)
			r = check_object(c, s, d);
		if (r == 0)
			r = check_array(c, s, d);
		if (r == 0)
			r = check_cond(c, s, d);
	}
	c->depth--;
	return r;
}

int sb_jschema_validate(struct json_object *schema, struct json_object *doc, int flags,
			const char *what, struct sb_err *err)
{
	struct vctx c = { .root = schema, .flags = flags };

	if (check(&c, schema, doc) == 0)
		return 0;
	return sb_err_set(err, -EINVAL, "%s: %s", what, c.msg);
}
