/* stackbench plan [--set K=V]... FILE...: for every stack each file
 * expands to, the ordered build steps (bottom up) and teardown steps (top
 * down) it would take, and what the run costs: disk space and where, the
 * benchmark sizes, an estimated time (run/cost.h). Touches nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/args.h"
#include "run/cost.h"
#include "core/stack.h"
#include "spec/spec.h"
#include "util/log.h"

static int plan_one(const struct sb_stack_spec *spec, const char *file, struct sb_err *err)
{
	struct sb_stack *s;
	struct sb_plan *p;
	struct sb_cost cost;
	unsigned i;
	int rc;

	s = calloc(1, sizeof(*s));
	p = calloc(1, sizeof(*p));
	if (!s || !p) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	rc = sb_stack_init(s, spec, err);
	if (!rc)
		rc = sb_stack_plan(s, p, err);
	if (rc)
		goto out;
	printf("stack %s (%s)%s%s\n", spec->name, file, spec->description[0] ? ": " : "", spec->description);
	printf("build:\n");
	for (i = 0; i < p->nbuild; i++)
		printf("  %2u. %s\n", i + 1, p->build[i]);
	printf("teardown:\n");
	for (i = 0; i < p->nteardown; i++)
		printf("  %2u. %s\n", i + 1, p->teardown[i]);
	sb_cost_compute(spec, 0, sb_globals.sandbox, sb_globals.in_sandbox, &cost);
	sb_cost_print(stdout, spec, &cost);
	{
		struct sb_err pe = { 0 };

		/* a plan touches nothing: said, and a build would refuse it */
		if (sb_stack_check_programs(spec, &pe))
			printf("missing: %s; build and build-and-test refuse it before building anything\n",
			       pe.msg);
	}
out:
	free(p);
	free(s);
	return rc;
}

/* The options, with the words `stackbench help plan` shows for each. */
static const struct sb_optdef opts[] = {
	{ "set", 0, true, 's', "KEY=VALUE", "override a stack key (repeatable)" },
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_plan(int argc, char **argv, struct sb_err *err)
{
	const char **sets, *val;
	struct sb_args a;
	unsigned nsets = 0, i, nstacks = 0;
	int c, k, rc = 0;

	sets = calloc((size_t)argc, sizeof(*sets));
	if (!sets || sb_args_init(&a, argc, argv, 1, opts, "plan", err) < 0) {
		free(sets);
		return sb_err_set(err, -ENOMEM, "out of memory");
	}
	while ((c = sb_args_next(&a, &val, err)) > 0)
		sets[nsets++] = val;
	if (c < 0) {
		rc = c;
		goto out;
	}
	if (!a.npos) {
		rc = sb_args_usage_error("plan", err, "no stack file given");
		goto out;
	}
	for (k = 0; k < a.npos; k++) {
		struct sb_spec_list l;
		struct sb_err e = { 0 };
		int r;

		r = sb_spec_load(a.pos[k], sets, nsets, &l, &e);
		if (!r) {
			for (i = 0; !r && i < l.n; i++) {
				if (nstacks++)
					printf("\n");
				r = plan_one(&l.items[i], a.pos[k], &e);
			}
			sb_spec_list_free(&l);
		}
		if (r) {
			/* report every bad file; the first error decides the exit code */
			fflush(stdout);
			if (rc)
				fprintf(stderr, "stackbench: %s\n", e.msg);
			else
				rc = sb_err_set(err, r, "%s", e.msg);
		}
	}
	fflush(stdout);
out:
	sb_args_free(&a);
	free(sets);
	return rc;
}

const struct sb_cmd sb_cmd_plan_row = {
	.name = "plan",
	.fn = sb_cmd_plan,
	.flags = 0,
	.opts = opts,
	.summary = "print the build and teardown steps and what the run costs (dry run)",
	.usage =
	  "usage: stackbench plan [--set KEY=VALUE]... STACK.yml...\n"
	  "  Prints every build step, bottom up, then every teardown step, top down, then what\n"
	  "  the run costs: the disk space and where, each suite's file size (bench.size, or the\n"
	  "  default from the RAM of the machine that runs it, capped to what the filesystem will\n"
	  "  hold) and the estimated time. Touches nothing.\n",
};
