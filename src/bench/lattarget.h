/* fio 3.33's latency target (io_u.c lat_target_init, lat_target_check,
 * lat_target_success, __lat_target_failed, queue_full; backend.c do_io):
 * the job finds the deepest queue, 1..iodepth, at which latency_percentile
 * of the ios of a latency_window finish within latency_target (their total
 * latency, fio's tnsec): it starts at depth 1, doubles while a window
 * succeeds (bisects once one failed), bisects down when one fails; when
 * the depth stops changing, it drains, forgets its figures and runs one
 * more window at that depth, then ends (latency_run: it keeps adjusting).
 * With latency_percentile=100 one io over the target ramps down at once,
 * and at depth 1 fails the job (fio's "max latency exceeded"). The state
 * of one pass, and the options of that family (jopts_lat). */
#ifndef SB_BENCH_LATTARGET_H
#define SB_BENCH_LATTARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/job.h"

struct jopt;

struct sb_lat {
	bool on;
	const struct sb_job_opts *o;
	unsigned qd, qd_low, qd_high, stable;
	uint64_t ts, ios0, failed;      /* the window: start (ns), ios done then, ios over target */
	bool end_run;                   /* the final window at the depth found */
	int drain;                      /* 1: issue none until nothing is in flight; 2: then reset */
};

enum { SB_LAT_GO = 0, SB_LAT_DRAIN, SB_LAT_RESET, SB_LAT_DONE, SB_LAT_FATAL };

/* A pass's start (now: ns; ios: completed so far). */
void sb_lat_init(struct sb_lat *l, const struct sb_job_opts *o, uint64_t now, uint64_t ios);
/* The most ios in flight now (iodepth without a target). */
static inline unsigned sb_lat_depth(const struct sb_lat *l, unsigned iodepth)
{
	return l->on && l->qd < iodepth ? l->qd : iodepth;
}
/* May one more io go when inflight are in flight (fio's queue_full)? */
static inline bool sb_lat_room(const struct sb_lat *l, unsigned inflight)
{
	return !l->on || (!l->drain && inflight < l->qd);
}
/* One completed io's total latency: GO, DRAIN (percentile 100: ramped
 * down), or FATAL (over the target at depth 1). */
int sb_lat_io(struct sb_lat *l, uint64_t lat_ns, uint64_t now, uint64_t ios);
/* After a reap (fio: every round of do_io out of the ramp): GO, DRAIN
 * (ramped down: wait for those in flight), RESET (the final window: drain,
 * forget every figure, then sb_lat_cycle), DONE (the job ends). */
int sb_lat_check(struct sb_lat *l, uint64_t now, uint64_t ios);
/* A new window from now (fio's lat_new_cycle). */
void sb_lat_cycle(struct sb_lat *l, uint64_t now, uint64_t ios);
/* After a reap, out of the ramp: a drain asked for ends once nothing is in
 * flight (RESET: the caller forgets every figure, then sb_lat_cycle), else
 * the window is judged: GO, or DONE (the job ends). */
int sb_lat_after(struct sb_lat *l, int inflight, uint64_t now, uint64_t ios);

#endif
