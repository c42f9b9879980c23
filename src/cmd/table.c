#include "cmd/cmd.h"

#include <stdio.h>
#include <string.h>

struct sb_globals sb_globals = { .sandbox = -1 };

/* Usage texts live here, beside the table, so `stackbench help` and each
 * command's --help print the same words. */
const struct sb_cmd sb_cmds[] = {
	{ "validate", sb_cmd_validate, "check stack descriptions and print what they expand to",
	  "usage: stackbench validate [--set KEY=VALUE]... STACK.yml...\n"
	  "       stackbench validate --keys\n"
	  "  Parses, applies --set overrides, expands any matrix and validates.\n"
	  "  --keys prints every key with its type, allowed values and default.\n"
	  "  Prints one line per stack; errors name FILE:LINE:COL. Exit 0 if all are valid, 2 if not.\n" },
	{ "plan", sb_cmd_plan, "print the ordered build and teardown steps (dry run, touches nothing)",
	  "usage: stackbench plan [--set KEY=VALUE]... STACK.yml...\n"
	  "  Prints every build step, bottom up, then every teardown step, top down.\n" },
	{ "build", sb_cmd_build, "build a stack and leave it up",
	  "usage: stackbench build [--set KEY=VALUE]... [--destroy-data=DEV,...] [--wipe] STACK.yml\n"
	  "  Needs root and a kernel with md and device-mapper (see --sandbox).\n" },
	{ "bench", sb_cmd_bench, "run benchmark suites on a built stack, or on any directory or block device",
	  "usage: stackbench bench [--results DIR] [--set bench.KEY=VALUE]... [--stack NAME] STACK.yml\n"
	  "       stackbench bench --suite NAME[,NAME] --target DIR [--set bench.KEY=VALUE]...\n"
	  "                        [--watch DEV]... [--output-format text|json] [--results DIR]\n"
	  "  The first form runs the stack's suites on a stack left up by `stackbench build`.\n"
	  "  Suites: bonnie, fio-matrix, dd, smallfile, quick. bench keys: size, runtime, ramp,\n"
	  "  chunk, files, fsync, repeat.\n" },
	{ "teardown", sb_cmd_teardown, "remove everything a stack created (from its state file)",
	  "usage: stackbench teardown STACK-NAME...\n"
	  "       stackbench teardown --all\n"
	  "  Works from /run/stackbench/<name>.state, so the stack file need not exist.\n" },
	{ "build-and-test", sb_cmd_build_and_test, "build, benchmark and tear down each stack, then print the table",
	  "usage: stackbench build-and-test [--set KEY=VALUE]... [--repeat N] [--results DIR]\n"
	  "                                 [--format text|markdown|csv|json|bonnie-csv] [--chart FILE]\n"
	  "                                 [--columns LIST] [--baseline NAME]\n"
	  "                                 [--destroy-data=DEV,...] [--wipe] STACK.yml...\n"
	  "  Builds each stack (matrix files: each expansion), runs its bench suites, tears it down,\n"
	  "  writes one results file per stack (default ./results) and prints the table.\n"
	  "  Runs in the throwaway kernel when this one lacks md or device-mapper.\n" },
	{ "compare", sb_cmd_compare, "print a comparison table from results files",
	  "usage: stackbench compare [--columns LIST] [--baseline NAME]\n"
	  "                          [--format text|markdown|csv|json|bonnie-csv] [--chart FILE.svg|FILE.png]\n"
	  "                          [--per-layer] RESULTS.json...\n"
	  "  --per-layer: one row per layer device (bench.per_layer figures, expected, % of the\n"
	  "  layer below, the limit of each layer); with --chart, the waterfall of seq reads.\n" },
	{ "status", sb_cmd_status, "list active stacks and their layers",
	  "usage: stackbench status\n" },
	{ "job", sb_cmd_job, "run one I/O job, like fio",
	  "usage: stackbench job --target PATH --rw MODE --bs SIZE [--iodepth N] [--numjobs N]\n"
	  "                      [--runtime DURATION] [--size SIZE] [--rwmixread N] [--ramp DURATION]\n"
	  "                      [--buffered | --direct 0|1] [--fsync N] [--verify [--verify-seed N]]\n"
	  "                      [--keep-files] [--iodepth-batch N] [--name NAME] [--watch DEV]...\n"
	  "                      [--output-format text|json]\n"
	  "  MODE: read, write, randread, randwrite, rw, randrw. Sizes: 4KiB or fio's 4k (binary).\n"
	  "  PATH: a block device, or a directory (one file per job, removed afterwards).\n" },
	{ NULL, NULL, NULL, NULL },
};

const struct sb_cmd *sb_cmd_find(const char *name)
{
	const struct sb_cmd *c;

	for (c = sb_cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void sb_cmd_print_usage(const struct sb_cmd *c)
{
	printf("stackbench %s: %s\n\n%s", c->name, c->summary, c->usage);
}

int sb_cmd_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}
