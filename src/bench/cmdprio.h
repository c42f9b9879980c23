/* fio 3.33's per-io priorities (engines/cmdprio.c, the libaio and io_uring
 * engines' cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit):
 * a share of the ios carries another I/O priority than the job's own
 * (prio/prioclass, or none), through libaio's IOCB_FLAG_IOPRIO or
 * io_uring's sqe->ioprio; the completion latency is then kept per priority
 * (fio's clat_prio stats: JSON "prios", the text's "clat prio C/L"), and
 * the logs' priority column carries each io's priority. */
#ifndef SB_BENCH_CMDPRIO_H
#define SB_BENCH_CMDPRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/hist.h"
#include "bench/data.h"

#define SB_CPRIO_MAX 64            /* fio's BSSPLIT_MAX: cmdprio_bssplit entries per direction */
#define SB_CPRIO_NVAL (SB_CPRIO_MAX + 1) /* distinct priorities per direction (+ the default) */
#define SB_IOPRIO_CLASS_SHIFT 13

/* one cmdprio_bssplit entry: bs/perc[/class/level]; prio -1: the
 * cmdprio_class/cmdprio one */
struct sb_cprio_ent {
	uint64_t bs;
	int32_t prio;
	uint8_t perc;
};

/* the options, per direction [read, write] (fio's off1/off2) */
struct sb_cprio_opts {
	uint8_t perc[2];            /* cmdprio_percentage (0..100) */
	uint8_t cls[2];             /* cmdprio_class (1..3; 0: not given, realtime) */
	uint8_t level[2];           /* cmdprio (0..7) */
	bool bssplit;               /* cmdprio_bssplit given (not empty) */
	uint8_t nbss[2];            /* its non-zero entries, sorted by bs */
	struct sb_cprio_ent bss[2][SB_CPRIO_MAX];
};

struct sb_job_opts;
struct sb_job_result;
struct slot;
struct worker;
struct sb_err;

/* a job thread's (or a job's merged) per-priority completion latencies;
 * val[d][0] is the job's own priority (fio's td->ioprio) */
struct sb_cprio_res {
	unsigned n[2];
	uint16_t val[2][SB_CPRIO_NVAL];
	struct sb_hist *h[2];       /* n[d] histograms */
	struct rng rng;             /* fio's prio_state: which ios get which priority */
};

/* The job's cmdprio options make sense (fio's fio_cmdprio_init and the
 * engines that have them); -EINVAL with a message. */
int sb_cprio_check(const struct sb_job_opts *o, struct sb_err *err);
/* fio's ioprio_value of the job's prio/prioclass (0 when neither is given). */
uint16_t sb_cprio_default(const struct sb_job_opts *o);
/* Some direction of the job has ios with another priority. */
bool sb_cprio_active(const struct sb_job_opts *o);

/* pass.c hooks. A prepared io: its priority (slot's ioprio, prio_idx), and
 * for a cmdprio one the iocb's; allocates w->res.cprio the first time. */
int sb_cprio_prep(struct worker *w, struct slot *sl);
/* A reaped io's completion latency into its priority's histogram. */
void sb_cprio_account(struct worker *w, const struct slot *sl, uint64_t clat);
/* The ramp is over: forget the latencies so far. */
void sb_cprio_reset(struct sb_job_result *r);
/* The log entries from mark on (this io's) carry its priority. */
void sb_cprio_log_mark(const struct sb_job_result *r, size_t mark[]);
void sb_cprio_log_stamp(struct sb_job_result *r, const size_t mark[], uint16_t ioprio);

/* res += one thread's (its priorities by value, fio's sum_clat_prio_stats);
 * -ENOMEM leaves res without them. */
int sb_cprio_merge(struct sb_job_result *res, const struct sb_job_result *r);
void sb_cprio_free(struct sb_job_result *r);
/* How many of direction d's priorities have samples (fio reports them per
 * priority only when at least two have). */
unsigned sb_cprio_with_samples(const struct sb_cprio_res *c, int d);

#endif
