/* The shape of a results file, checked once when it is read: its size, how
 * many values it holds, and every key's type against docs/results-schema.json
 * (compiled in). A file from another machine may be anything; after this
 * check the renderers can take a layer name for a string and a figure for
 * a number. */
#include "report/results.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "util/jschema.h"

extern const char sb_results_schema_text[];

static struct json_object *schema;
static pthread_once_t schema_once = PTHREAD_ONCE_INIT;

static void schema_load(void)
{
	schema = json_tokener_parse(sb_results_schema_text);
}

/* Values in the whole document, stopping past limit. */
static size_t count_values(struct json_object *o, size_t n, size_t limit)
{
	size_t i, len;

	n++;
	if (n > limit)
		return n;
	if (json_object_is_type(o, json_type_array)) {
		len = json_object_array_length(o);
		for (i = 0; i < len && n <= limit; i++)
			n = count_values(json_object_array_get_idx(o, i), n, limit);
	} else if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v) {
			(void)k;
			if (n > limit)
				break;
			n = count_values(v, n, limit);
		}
	}
	return n;
}

/* The keys the readers cannot do without. The schema's other "required"
 * keys are left out: files of older stackbench versions lack some that
 * were added since, and a reader that finds one absent shows no figure. */
static int need(struct json_object *o, const char *key, const char *where, size_t i,
		const char *what, struct sb_err *err)
{
	if (json_object_object_get_ex(o, key, NULL))
		return 0;
	if (i == (size_t)-1)
		return sb_err_set(err, -EINVAL, "%s: %s%shas no \"%s\"", what, where, *where ? " " : "the top level ", key);
	return sb_err_set(err, -EINVAL, "%s: %s[%zu] has no \"%s\"", what, where, i, key);
}

static int need_each(struct json_object *a, const char *where, const char *const *keys,
		     const char *what, struct sb_err *err)
{
	size_t i, k, n = a ? json_object_array_length(a) : 0;
	int r;

	for (i = 0; i < n; i++)
		for (k = 0; keys[k]; k++)
			if ((r = need(json_object_array_get_idx(a, i), keys[k], where, i, what, err)) < 0)
				return r;
	return 0;
}

static int need_keys(struct json_object *res, const char *what, struct sb_err *err)
{
	static const char *const top[] = { "schema", "stackbench_version", "started", "host", "stack",
					   "suites", NULL };
	static const char *const suite[] = { "suite", "figures", NULL };
	static const char *const layer[] = { "layer", NULL };
	static const char *const row[] = { "layer", "device", "figures", NULL };
	struct json_object *stack;
	size_t k;
	int r;

	for (k = 0; top[k]; k++)
		if ((r = need(res, top[k], "", (size_t)-1, what, err)) < 0)
			return r;
	json_object_object_get_ex(res, "stack", &stack);
	if ((r = need(stack, "name", "stack", (size_t)-1, what, err)) < 0 ||
	    (r = need(stack, "requested", "stack", (size_t)-1, what, err)) < 0 ||
	    (r = need_each(json_object_object_get(res, "suites"), "suites", suite, what, err)) < 0 ||
	    (r = need_each(sb_results_built(res), "stack.built", layer, what, err)) < 0)
		return r;
	return need_each(sb_results_per_layer(res), "per_layer", row, what, err);
}

static int bound_array(struct json_object *a, const char *key, size_t max, const char *what,
		       struct sb_err *err)
{
	size_t n = a ? json_object_array_length(a) : 0;

	if (n > max)
		return sb_err_set(err, -EINVAL, "%s: %s: %zu entries, more than the %zu a results file "
				  "may hold", what, key, n, max);
	return 0;
}

int sb_results_shape_check(struct json_object *res, const char *what, struct sb_err *err)
{
	int r;

	pthread_once(&schema_once, schema_load);
	if (!schema)
		return sb_err_set(err, -EINVAL, "%s: the compiled-in results schema does not parse", what);
	if (count_values(res, 0, SB_RESULTS_MAX_VALUES) > SB_RESULTS_MAX_VALUES)
		return sb_err_set(err, -EINVAL, "%s: more than %d JSON values, more than a results file "
				  "may hold", what, SB_RESULTS_MAX_VALUES);
	r = sb_jschema_validate(schema, res, SB_JSCHEMA_NO_REQUIRED, what, err);
	if (r == 0)
		r = need_keys(res, what, err);
	if (r < 0)
		return r;
	if ((r = bound_array(sb_results_per_layer(res), "per_layer", SB_RESULTS_MAX_ROWS, what, err)) < 0 ||
	    (r = bound_array(sb_results_built(res), "stack.built", SB_RESULTS_MAX_ROWS, what, err)) < 0)
		return r;
	return bound_array(json_object_object_get(res, "suites"), "suites", SB_RESULTS_MAX_SUITES, what, err);
}
