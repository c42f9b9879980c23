/* Inside the run pipeline: what its files (run.c: the run of every stack
 * file; run_stack.c: one stack, start to finish; run_bench.c: what is
 * measured on a built stack; stop.c: the signals that set the stop flag)
 * share. */
#ifndef SB_RUN_RUN_INT_H
#define SB_RUN_RUN_INT_H

#include <signal.h>
#include <stdbool.h>

#include <json-c/json.h>

#include "core/stack.h"
#include "run/run.h"
#include "spec/spec.h"

/* c->repeat, or the stack's bench.repeat, or 1 */
unsigned sb_run_repeat(const struct sb_run_ctx *c, const struct sb_stack_spec *spec);
/* The results object for a stack: what was asked, as validated. */
int sb_run_results_begin(const struct sb_stack_spec *spec, struct json_object **res, struct sb_err *err);
void sb_run_results_add_error(struct json_object *res, const char *msg);
/* Finish and write the results file into c->results_dir; on success hand
 * it to *out (if out) and its path to *path_out (if path_out). */
void sb_run_results_end(const struct sb_run_ctx *c, const char *name, int rc, struct json_object **res,
			struct json_object **out, char **path_out, struct sb_err *err);
/* Which repetitions of the suites one build of a stack runs: all of them
 * (first 1, last = of = the repeat count), or with --interleave round
 * `first` of `of` (first = last), the stack being rebuilt for each round. */
struct sb_run_reps {
	unsigned first, last, of;
	bool interleaved;             /* results say so: run_order */
	bool keep;                    /* --repeat auto: held after round `of` too (run.c ends them) */
};
/* All repetitions of the stack in one build (c->repeat or bench.repeat). */
struct sb_run_reps sb_run_reps_all(const struct sb_run_ctx *c, const struct sb_stack_spec *spec);
/* Read back what is built (in the first repetition's build only), then
 * (c->bench) run the suites' repetitions reps: the part build-and-test and
 * `bench STACK` share. */
int sb_run_measure(const struct sb_run_ctx *c, struct sb_stack *s, const struct sb_run_reps *reps,
		   struct json_object *res, struct sb_err *err);
/* What the run learned about the machine before the first stack, marked
 * into every results file: each suite's ceiling on a RAM disk (NULL when
 * not measured), and in the throwaway kernel how much of its free memory
 * was touched once (NULL elsewhere; sandbox/memory.c says why). */
struct sb_run_machine {
	struct json_object *ceilings;
	struct json_object *guest_warm;
};
void sb_run_machine_mark(struct json_object *res, const struct sb_run_machine *m);
/* One stack built, measured (repetitions reps) and torn down. *held
 * carries its results between the rounds of --interleave: NULL before the
 * first; the results are written when the last repetition is done or the
 * stack failed, and then, on success, out[0] holds them and, with export,
 * out[1..] the client rows' (*nout in all, paths alike; 0 while held). */
int sb_run_stack(const struct sb_run_ctx *c, const struct sb_stack_spec *spec,
		 const struct sb_run_machine *m, const struct sb_run_reps *reps,
		 struct json_object **held, struct json_object **out, char **path_out,
		 unsigned *nout, struct sb_err *err);

#endif
