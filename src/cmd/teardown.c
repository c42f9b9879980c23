/* stackbench teardown NAME... | --all: remove everything the state files
 * record, top down, verified; works when the stack files are gone. */
#include <stdio.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "bench/suite.h"
#include "core/stack.h"
#include "util/log.h"

static void swept(const char *path, long pid, void *ctx)
{
	(void)ctx;
	sb_info("removed %s, the copy suite's other directory of a run (pid %ld) that was killed", path, pid);
}

/* The options, with the words `stackbench help teardown` shows for each. */
static const struct sb_optdef opts[] = {
	{ "all", 0, false, 'a', NULL, "every stack with a state file" },
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_teardown(int argc, char **argv, struct sb_err *err)
{
	struct sb_args a;
	const char *val;
	int c, k, all = 0, rc = 0;

	if (sb_args_init(&a, argc, argv, 1, opts, "teardown", err) < 0)
		return -ENOMEM;
	while ((c = sb_args_next(&a, &val, err)) > 0)
		all = 1;
	if (c < 0) {
		rc = c;
		goto out;
	}
	if (all == (a.npos > 0)) {
		rc = sb_args_usage_error("teardown", err, "give stack names or --all (not both, not neither); "
					 "`stackbench status` lists the stacks");
		goto out;
	}
	if (all) {
		rc = sb_stack_teardown_all(err);
		goto out;
	}
	for (k = 0; k < a.npos; k++) {
		struct sb_err e = { 0 };
		int r = sb_stack_teardown_name(a.pos[k], &e);

		if (!r)
			continue;
		/* keep going: every stack named gets its teardown */
		if (rc)
			sb_warn("%s", e.msg);
		else
			rc = sb_err_set(err, r, "%s", e.msg);
	}
out:
	/* the copy suite's other directory is no state object (the suite runs
	 * on any directory): a killed run's is found by its name */
	if (all != (a.npos > 0))
		sb_suite_copy_sweep("/var/tmp", swept, NULL);
	sb_args_free(&a);
	return rc;
}

const struct sb_cmd sb_cmd_teardown_row = {
	.name = "teardown",
	.fn = sb_cmd_teardown,
	.flags = 0,
	.opts = opts,
	.summary = "remove everything a stack created (from its state file)",
	.usage =
	  "usage: stackbench teardown STACK-NAME...\n"
	  "       stackbench teardown --all\n"
	  "  Works from /run/stackbench/<name>.state, so the stack file need not exist.\n",
};
