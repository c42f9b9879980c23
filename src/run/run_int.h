/* Inside the run pipeline: what its files (run.c: the run of every stack
 * file; run_stack.c: one stack, start to finish; run_bench.c: what is
 * measured on a built stack; stop.c: the signals that set the stop flag)
 * share. */
#ifndef SB_RUN_RUN_INT_H
#define SB_RUN_RUN_INT_H

#include <signal.h>

#include <json-c/json.h>

#include "core/stack.h"
#include "run/run.h"
#include "spec/spec.h"

/* SIGINT/SIGTERM set c->stop from sb_run_listen until sb_run_unlisten. */
struct sb_run_signals {
	struct sigaction old_int, old_term;
};
void sb_run_listen(const struct sb_run_ctx *c, struct sb_run_signals *saved);
void sb_run_unlisten(const struct sb_run_signals *saved);

/* c->repeat, or the stack's bench.repeat, or 1 */
unsigned sb_run_repeat(const struct sb_run_ctx *c, const struct sb_stack_spec *spec);
/* The results object for a stack: what was asked, as validated. */
int sb_run_results_begin(const struct sb_stack_spec *spec, struct json_object **res, struct sb_err *err);
void sb_run_results_add_error(struct json_object *res, const char *msg);
/* The stack's layer of that registry name, or NULL. */
const struct sb_layer *sb_run_find_layer(const struct sb_stack *s, const char *name);
/* Finish and write the results file into c->results_dir; on success hand
 * it to *out (if out) and its path to *path_out (if path_out). */
void sb_run_results_end(const struct sb_run_ctx *c, const char *name, int rc, struct json_object **res,
			struct json_object **out, char **path_out, struct sb_err *err);
/* Read back what is built, then (c->bench) run the suites: the part
 * build-and-test and `bench STACK` share. */
int sb_run_measure(const struct sb_run_ctx *c, struct sb_stack *s, struct json_object *res,
		   struct sb_err *err);
/* What the run learned about the machine before the first stack, marked
 * into every results file: each suite's ceiling on a RAM disk (NULL when
 * not measured), and in the throwaway kernel how much of its free memory
 * was touched once (NULL elsewhere; sandbox/memory.c says why). */
struct sb_run_machine {
	struct json_object *ceilings;
	struct json_object *guest_warm;
};
void sb_run_machine_mark(struct json_object *res, const struct sb_run_machine *m);
/* One stack, start to finish. On success out[0] holds its results and,
 * with export, out[1..] the client rows' (*nout in all, paths alike). */
int sb_run_stack(const struct sb_run_ctx *c, const struct sb_stack_spec *spec,
		 const struct sb_run_machine *m, struct json_object **out, char **path_out,
		 unsigned *nout, struct sb_err *err);

#endif
