/* fio's steadystate_check for a running job (engine.c's monitor loop):
 * once a second, each thread's (or with group_reporting the job's summed)
 * IOPS and bytes/s since the previous check go into its window
 * (bench/steady.h); when the criterion holds, the threads judged stop
 * issuing, as fio's fio_mark_td_terminate. Samples start at once, or a
 * second after ss_ramp. Not for other modules. */
#ifndef SB_BENCH_STEADY_RUN_H
#define SB_BENCH_STEADY_RUN_H

#include "bench/engine_int.h"

struct sb_ss_run {
	struct worker *ws;
	unsigned n, nss;           /* threads; windows (1: the job's, else one a thread) */
	struct sb_ss *ss;
	uint64_t t0, prev_t;
	uint64_t *prev_b, *prev_i;
};

/* Nothing to do (r->nss 0) unless o->ss_dur_ns; -errno with err set. */
int sb_ss_run_start(struct sb_ss_run *r, const struct sb_job_opts *o, struct worker *ws, unsigned n,
		    uint64_t t0, struct sb_err *err);
/* Called often; samples when a second has passed since the last one. */
void sb_ss_run_tick(struct sb_ss_run *r, uint64_t now);
/* The windows to the threads' results (ws[i].res.ss; the job's to ws[0]). */
void sb_ss_run_end(struct sb_ss_run *r);
/* After the threads' results are merged: the job's window to res->ss
 * (res->thread[i].ss have theirs already); the rest freed. */
void sb_ss_run_result(struct worker *ws, unsigned n, struct sb_job_result *res);

#endif
