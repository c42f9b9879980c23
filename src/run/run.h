/* The run pipeline behind build-and-test and `bench STACK`: stack files ->
 * specs -> (sandbox?) -> for each stack: build, measure, read back, tear
 * down, results file -> table. One direction; each stage hands its value
 * to the next. The command parses its arguments into a struct sb_run_ctx
 * and calls sb_run(); the pipeline reads nothing of the command otherwise. */
#ifndef SB_RUN_RUN_H
#define SB_RUN_RUN_H

#include <signal.h>
#include <stdbool.h>

#include "report/table.h"
#include "run/auto.h"
#include "util/err.h"

#define SB_RUN_MAX_SETS 64

struct sb_run_ctx {
	/* what to run */
	const char *const *files;
	unsigned nfiles;
	const char *sets[SB_RUN_MAX_SETS];
	unsigned nsets;
	const char *only_stack;       /* --stack NAME: only this expansion of the files */
	bool bench;                   /* run the suites (build-and-test) */
	unsigned repeat;              /* 0: each stack's bench.repeat */
	/* --interleave: repetition r of every stack in round r, each stack
	 * rebuilt per round, so drift of the machine moves all stacks alike */
	bool interleave;
	/* --repeat auto (implies interleave): rounds until the rule of run/auto.h */
	struct sb_run_auto autorep;
	/* what each stack's build may do (its struct sb_build_ctx) */
	const char *destroy_data;     /* --destroy-data=DEV,DEV */
	bool wipe;
	/* The stop flag, owned by the caller (not NULL). The pipeline has
	 * SIGINT/SIGTERM set it while it builds, measures and tears down, and
	 * stops at the next step or suite boundary; not while it loads the
	 * files, waits for the throwaway kernel (which handles them itself)
	 * or prints the table, where they keep their default action. */
	volatile sig_atomic_t *stop;
	/* where it runs: the sandbox choice (-1 auto, 0 --no-sandbox, 1
	 * --sandbox), whether this already is the throwaway kernel, and the
	 * command's own argv (argv[0] = command name) to re-run in it */
	int sandbox;
	bool in_sandbox;
	int argc;
	char **argv;
	/* what it leaves */
	const char *results_dir;
	const struct sb_table_opts *table;
	const char *chart;
	const char *report;           /* --report FILE.html: the HTML report of this run */
};

int sb_run_add_set(struct sb_run_ctx *c, const char *kv, struct sb_err *err);
/* Returns 0, -errno with err set, or a positive exit code carried back from
 * the throwaway kernel. */
int sb_run(const struct sb_run_ctx *c, struct sb_err *err);
/* `bench STACK`: the suites of c->files[0]'s stack (or stack_name of a
 * matrix) on the stack `build` left up; results file and table as above. */
int sb_run_bench_built(const struct sb_run_ctx *c, const char *stack_name, struct sb_err *err);

/* SIGINT/SIGTERM set c->stop from sb_run_listen until sb_run_unlisten
 * (stop.c; the pipeline's, and `stackbench bonnie`'s, which needs only
 * c->stop). */
struct sb_run_signals {
	struct sigaction old_int, old_term;
};
void sb_run_listen(const struct sb_run_ctx *c, struct sb_run_signals *saved);
void sb_run_unlisten(const struct sb_run_signals *saved);

#endif
