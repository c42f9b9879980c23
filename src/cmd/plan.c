/* stackbench plan [--set K=V]... FILE...: for every stack each file
 * expands to, the ordered build steps (bottom up) and teardown steps (top
 * down) it would take, and what the run costs: disk space and where, the
 * benchmark sizes, an estimated time (cmd/cost.h). Touches nothing. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cost.h"
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
	sb_cost_compute(spec, 0, &cost);
	sb_cost_print(stdout, spec, &cost);
out:
	free(p);
	free(s);
	return rc;
}

int sb_cmd_plan(int argc, char **argv, struct sb_err *err)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const char **sets;
	unsigned nsets = 0, i, nstacks = 0;
	int c, rc = 0;

	sets = calloc((size_t)argc, sizeof(*sets));
	if (!sets)
		return sb_err_set(err, -ENOMEM, "out of memory");
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		if (c != 's') {
			rc = sb_err_set(err, -EINVAL, "usage: stackbench plan [--set KEY=VALUE]... STACK.yml...");
			goto out;
		}
		sets[nsets++] = optarg;
	}
	if (optind >= argc) {
		rc = sb_err_set(err, -EINVAL, "plan: no stack file given; usage: stackbench plan [--set KEY=VALUE]... STACK.yml...");
		goto out;
	}
	for (; optind < argc; optind++) {
		struct sb_spec_list l;
		struct sb_err e = { 0 };
		int r;

		r = sb_spec_load(argv[optind], sets, nsets, &l, &e);
		if (!r) {
			for (i = 0; !r && i < l.n; i++) {
				if (nstacks++)
					printf("\n");
				r = plan_one(&l.items[i], argv[optind], &e);
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
	free(sets);
	return rc;
}
