/* stackbench validate [--set K=V]... [--keys] FILE...: parse, override,
 * expand and validate every file; one line per stack on stdout, every bad
 * file reported on stderr; fails (exit 2) if any file was bad. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bench/sizing.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "spec/spec.h"
#include "util/log.h"
#include "util/units.h"

/* A bench.size no larger than the devices (check.c refuses that) can still
 * not fit in the filesystem once md, LVM, LUKS and ext4 took their share:
 * say so now rather than after the build. */
static void warn_fit(const char *file, const struct sb_stack_spec *s)
{
	uint64_t fs = sb_spec_fs_free_estimate(s);
	char a[32], b[32];

	if (!s->bench.size || !fs || s->bench.size <= sb_sizing_room(fs))
		return;
	sb_size_format_human(s->bench.size, a, sizeof(a));
	sb_size_format_human(fs, b, sizeof(b));
	sb_warn("%s: %s: bench.size %s will not fit: this stack's filesystem will have about %s free "
		"(estimated); use a smaller bench.size or 0 (automatic: what fits)", file, s->name, a, b);
}

/* --json: every stack's effective description (the results' "requested"
 * object) with its summary line and, on loop devices, the smallest
 * devices.loop.size it accepts, so tests and scripts read the defaults
 * from here instead of restating them. */
static void add_json(struct json_object *all, const struct sb_stack_spec *s, const char *sum)
{
	struct json_object *o = NULL;

	if (sb_spec_to_json(s, &o) < 0)
		return;
	json_object_object_add(o, "summary", json_object_new_string(sum));
	if (s->devices.kind == SB_DEVICES_LOOP)
		json_object_object_add(o, "min_loop_size", json_object_new_int64((int64_t)sb_spec_min_loop_size(s)));
	json_object_array_add(all, o);
}

/* The options, with the words `stackbench help validate` shows for each. */
static const struct sb_optdef opts[] = {
	{ "set", 0, true, 's', "KEY=VALUE", "override a stack key for this run (repeatable)" },
	{ "keys", 0, false, 'k', NULL, "print every key with its type, allowed values and default" },
	{ "json", 0, false, 'j', NULL, "a JSON array of every stack's keys, effective values and summary" },
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_validate(int argc, char **argv, struct sb_err *err)
{
	struct sb_err last = { 0 };
	struct sb_args a;
	const char **sets = NULL, *val;
	unsigned nsets = 0, i;
	int c, rc = 0, keys = 0, nbad = 0, k;
	struct json_object *all = NULL;

	sets = calloc((size_t)argc, sizeof(*sets));
	if (!sets || (rc = sb_args_init(&a, argc, argv, 1, opts, "validate", err)) < 0) {
		free(sets);
		return sb_err_set(err, -ENOMEM, "out of memory");
	}
	while ((c = sb_args_next(&a, &val, err)) > 0) {
		if (c == 's')
			sets[nsets++] = val;
		else if (c == 'j')
			all = all ? all : json_object_new_array();
		else
			keys = 1;
	}
	if (c < 0) {
		rc = c;
		goto out;
	}
	if (keys) {
		sb_spec_print_keys(stdout);
		if (!a.npos)
			goto out;
	}
	if (!a.npos) {
		rc = sb_args_usage_error("validate", err, "no stack file given");
		goto out;
	}
	for (k = 0; k < a.npos; k++) {
		struct sb_err e = { 0 };
		struct sb_spec_list l;
		char sum[512];

		if (sb_spec_load(a.pos[k], sets, nsets, &l, &e) < 0) {
			/* keep the order: the last bad file's message goes back to
			 * main.c, every earlier one is printed as the next arrives */
			if (nbad++) {
				fflush(stdout);
				fprintf(stderr, "stackbench: %s\n", last.msg);
			}
			last = e;
			continue;
		}
		for (i = 0; i < l.n; i++) {
			sb_spec_summary(&l.items[i], sum, sizeof(sum));
			if (all)
				add_json(all, &l.items[i], sum);
			else
				printf("ok %s: %s: %s\n", a.pos[k], l.items[i].name, sum);
			fflush(stdout);
			warn_fit(a.pos[k], &l.items[i]);
		}
		sb_spec_list_free(&l);
	}
	if (all)
		printf("%s\n", json_object_to_json_string_ext(all, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	if (nbad)
		rc = sb_err_set(err, last.code, "%s", last.msg);
out:
	json_object_put(all);
	sb_args_free(&a);
	free(sets);
	return rc;
}

const struct sb_cmd sb_cmd_validate_row = {
	.name = "validate",
	.fn = sb_cmd_validate,
	.flags = 0,
	.opts = opts,
	.summary = "check stack descriptions and print what they expand to",
	.usage =
	  "usage: stackbench validate [--set KEY=VALUE]... [--json] STACK.yml...\n"
	  "       stackbench validate --keys\n"
	  "  Parses, applies --set overrides, expands any matrix and validates.\n"
	  "  --keys prints every key with its type, allowed values and default.\n"
	  "  Prints one line per stack (--json: a JSON array of every stack's keys with their\n"
	  "  effective values, sizes in bytes, and its summary); errors name FILE:LINE:COL.\n"
	  "  Exit 0 if all are valid, 2 if not.\n"
	  "  Warns (exit 0) when bench.size will not fit in the stack's filesystem.\n",
};
