/* The pipeline behind build-and-test: stack files -> specs -> (sandbox?) ->
 * for each stack: build, bench, read back, tear down, results file -> table.
 * One direction; each stage hands its value to the next. */
#ifndef SB_RUN_RUN_H
#define SB_RUN_RUN_H

#include <stdbool.h>

#include "report/table.h"
#include "util/err.h"

#define SB_RUN_MAX_SETS 64

struct sb_run_opts {
	const char *const *files;
	unsigned nfiles;
	const char *sets[SB_RUN_MAX_SETS];
	unsigned nsets;
	unsigned repeat;              /* 0: each stack's bench.repeat */
	const char *results_dir;
	const char *destroy_data;     /* --destroy-data=DEV,DEV */
	bool wipe;
	const char *only_stack;       /* --stack NAME: only this expansion of the files */
	bool bench;                   /* run the suites (build-and-test) */
	const struct sb_table_opts *table;
	const char *chart;
	const char *report;           /* --report FILE.html: the HTML report of this run */
};

int sb_run_opts_add_set(struct sb_run_opts *o, const char *kv, struct sb_err *err);
/* Returns 0, -errno with err set, or a positive exit code carried back from
 * the throwaway kernel. */
int sb_run(const struct sb_run_opts *o, struct sb_err *err);
/* `bench STACK`: the suites of o->files[0]'s stack (or stack_name of a
 * matrix) on the stack `build` left up; results file and table as above. */
int sb_run_bench_built(const struct sb_run_opts *o, const char *stack_name, struct sb_err *err);

#endif
