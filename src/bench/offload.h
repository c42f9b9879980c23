/* fio 3.33's io_submit_mode=offload (rate-submit.c, workqueue.c) and
 * serialize_overlap for `stackbench job`: the job thread prepares each io
 * when it is due (the rate's time, never waiting for those in flight: no
 * io_u_quiesce) and hands it to one of iodepth submitter threads, each of
 * which issues one io through the job's engine and waits for it (fio's
 * workers run the engine at iodepth 1). The options of that family
 * (jopts_submit). */
#ifndef SB_BENCH_OFFLOAD_H
#define SB_BENCH_OFFLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/job.h"

struct jopt;
struct worker;
struct slot;
struct io_event;
struct sb_offload;


/* The job as parsed (before a synchronous engine's iodepth becomes 1):
 * what stackbench cannot run as fio does is refused by name. */
int sb_offload_check(const struct sb_job_opts *o, struct sb_err *err);

/* Start depth submitters for thread w (errors into w->err). */
int sb_offload_start(struct sb_offload **out, struct worker *w, unsigned depth);
/* Hand one prepared io to the submitters. */
void sb_offload_queue(struct sb_offload *q, struct slot *sl);
/* Completed ios into ev (at most max): their count; wait: at least one.
 * t[i]: when ev[i] was reaped by its submitter (sb_clock_ns). */
int sb_offload_reap(struct sb_offload *q, struct io_event *ev, uint64_t *t, unsigned max, bool wait);
/* Drop what is not yet issued, wait for what is, join and free; the count
 * of ios handed over that were never reaped (returned to the caller's
 * slots: none is in flight any more). */
unsigned sb_offload_stop(struct sb_offload *q);

/* serialize_overlap (exposed for the unit test): do [off, off + len) and
 * [off2, off2 + len2) share a byte (fio's in_flight_overlap) */
bool sb_offload_overlap(uint64_t off, uint64_t len, uint64_t off2, uint64_t len2);

#endif
