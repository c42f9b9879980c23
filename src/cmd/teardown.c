/* stackbench teardown NAME... | --all: remove everything the state files
 * record, top down, verified; works when the stack files are gone. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "core/stack.h"
#include "util/log.h"

int sb_cmd_teardown(int argc, char **argv, struct sb_err *err)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	int c, all = 0, rc = 0;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		if (c != 'a')
			return sb_err_set(err, -EINVAL, "usage: stackbench teardown STACK-NAME... | --all");
		all = 1;
	}
	if (all == (optind < argc))
		return sb_err_set(err, -EINVAL, "teardown: give stack names or --all (not both, not neither); "
				  "`stackbench status` lists the stacks");
	if (all)
		return sb_stack_teardown_all(err);
	for (; optind < argc; optind++) {
		struct sb_err e = { 0 };
		int r = sb_stack_teardown_name(argv[optind], &e);

		if (!r)
			continue;
		/* keep going: every stack named gets its teardown */
		if (rc)
			sb_warn("%s", e.msg);
		else
			rc = sb_err_set(err, r, "%s", e.msg);
	}
	return rc;
}
