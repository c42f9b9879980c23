/* What the tables and the report call each built layer: its label and the
 * section of the stack file it comes from, asked of the layer's ops and
 * written into the results' stack.built objects, so that report/ reads
 * them without knowing any layer; and the registry as report/ sees it
 * (sb_report_layer_at: each layer's name, section and report rows). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/layer.h"
#include "report/results.h"
#include "util/json.h"

void sb_layer_label_upper(struct json_object *built, const char *key, const char *fallback,
			  char *out, size_t len)
{
	struct json_object *v = sb_json_get(built, key);
	const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : fallback;
	size_t i;

	for (i = 0; s && s[i] && i + 1 < len; i++)
		out[i] = (char)toupper((unsigned char)s[i]);
	if (len)
		out[i] = '\0';
}

void sb_layer_label_name(struct json_object *built, char *out, size_t len)
{
	sb_layer_label_upper(built, "layer", "", out, len);
}

static const char *section_of(const struct sb_layer_ops *ops)
{
	if (!ops->spec)
		return ops->section;
	if (!strcmp(ops->spec->parent, "fs"))
		return "fs";
	return ops->spec->opts ? ops->spec->opts[0].key : NULL;
}

static void label_one(struct json_object *o)
{
	const struct sb_layer_ops *ops;
	struct json_object *name = sb_json_get(o, "layer");
	const char *sec;
	char word[64] = "";

	json_object_object_del(o, "table_label");
	json_object_object_del(o, "table_label_if_differs");
	json_object_object_del(o, "spec_section");
	ops = json_object_is_type(name, json_type_string) ? sb_layer_find(json_object_get_string(name)) : NULL;
	if (!ops)
		return;
	if (ops->label)
		ops->label(o, word, sizeof(word));
	if (word[0]) {
		json_object_object_add(o, "table_label", json_object_new_string(word));
		if (ops->label_if_differs)
			json_object_object_add(o, "table_label_if_differs", json_object_new_boolean(1));
	}
	if ((sec = section_of(ops)))
		json_object_object_add(o, "spec_section", json_object_new_string(sec));
}

void sb_layer_label_built(struct json_object *built)
{
	size_t i, n;

	if (!json_object_is_type(built, json_type_array))
		return;
	n = json_object_array_length(built);
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(built, i);

		if (json_object_is_type(o, json_type_object))
			label_one(o);
	}
}

/* {layer} for each layer spec wants, in the order a stack puts them (by
 * .order, ties in registry order); labels and sections are added after. */
static struct json_object *planned(const struct sb_stack_spec *spec)
{
	struct json_object *arr = json_object_new_array();
	const struct sb_layer_ops *ops;
	unsigned ord, i;

	for (ord = 0; ord <= SB_ORDER_MOUNT; ord++)
		for (i = 0; (ops = sb_layer_at(i)); i++) {
			struct json_object *o;

			if (ops->order != ord || !sb_layer_wanted(ops, spec))
				continue;
			o = json_object_new_object();
			json_object_object_add(o, "layer", json_object_new_string(ops->name));
			json_object_array_add(arr, o);
		}
	return arr;
}

void sb_layer_label_results(struct json_object *res, const struct sb_stack_spec *spec)
{
	struct json_object *stack = sb_json_get(res, "stack");

	if (spec && json_object_is_type(stack, json_type_object))
		json_object_object_add(stack, "planned", planned(spec));
	sb_layer_label_built(sb_results_built(res));
	sb_layer_label_built(sb_results_planned(res));
}

bool sb_report_layer_at(unsigned i, struct sb_report_layer *out)
{
	const struct sb_layer_ops *ops = sb_layer_at(i);

	if (!ops)
		return false;
	out->name = ops->name;
	out->section = section_of(ops);
	out->r = ops->report;
	return true;
}
