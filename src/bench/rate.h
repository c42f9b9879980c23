/* fio's rate, thinktime and flow control for `stackbench job` (fio 3.33's
 * backend.c usec_for_io / handle_thinktime / __check_min_rate, io_u.c
 * rate_ddir, flow.c): the state of one job thread and the hooks the hot
 * loop (pass.c) calls. Also the options of that family (jopts_rate). */
#ifndef SB_BENCH_RATE_H
#define SB_BENCH_RATE_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/data.h"
#include "bench/job.h"

struct sb_flow;

struct sb_pace {
	bool on;                       /* any of rate, rate_min, thinktime, flow */
	bool rated;                    /* fio's should_check_rate: a rate or a minimum */
	bool mixed;                    /* the job reads and writes: rate_ddir may switch */
	int only;                      /* the one direction of an unmixed job */
	uint64_t epoch, start;         /* ns: fio's td->epoch (reset at ramp end), td->start */
	uint64_t bps[2];               /* fio's rate_bps */
	uint64_t issue_bytes[2];       /* fio's rate_io_issue_bytes */
	uint64_t next_us[2];           /* fio's rate_next_io_time (us since epoch) */
	uint64_t last_us[2];           /* poisson: fio's last_usec */
	struct rng prng[2];            /* poisson: fio's poisson_state */
	uint64_t issued, bs;
	uint64_t think_last;           /* blocks counted at the last thinktime */
	/* rate_min / rate_iops_min: fio's last_rate_check_* */
	uint64_t chk_bytes[2], chk_ios[2], chk_t[2];
	struct sb_flow *flow;
	uint64_t flow_counter;
	const struct sb_job_opts *o;
};

/* Linear rate: when the io after `bytes` issued is due, us after the
 * epoch, at bps bytes/s (fio's usec_for_io). */
uint64_t sb_rate_linear_us(uint64_t bytes, uint64_t bps);
/* Poisson rate: one exponential gap of mean 1e6/iops us (fio's integer
 * 1000000 / iops times -ln u), for u in (0, 1]. */
uint64_t sb_rate_poisson_gap_us(uint64_t iops, double u);
/* A uniform in (0, 1] from r. */
double sb_rate_unit(struct rng *r);

/* Before a job's threads start: every flow_id's total weight, counters at 1
 * (fio registers each job thread's flow weight when it is parsed). */
int sb_flow_setup(const struct sb_job_opts *jobs, unsigned njobs, struct sb_err *err);
void sb_flow_teardown(void);

/* fio starts the jobs of a group together once all are set up: each job
 * arrives once (the engine when its threads are ready; `job` when the
 * engine failed before) and waits for the others. NULL gate: no wait. */
struct sb_wave_gate {
	_Atomic unsigned arrived;
	unsigned expected;
};
void sb_wave_arrive(const struct sb_job_opts *o);
/* counted as arrived, without waiting (a job that will not start) */
void sb_wave_leave(const struct sb_job_opts *o);

/* A job thread's start, as fio's thread_main: its CPUs (cpus_allowed; with
 * split, the (thread mod count)th, thread counted across the run's jobs
 * from 0), ioprio_set(prioclass, prio) when either is given, then
 * nice(nice). 0 or -errno with err set. */
int sb_jobctl_thread(const struct sb_job_opts *o, unsigned thread, struct sb_err *err);

/* Thread start (seed: for poisson) and end (gives its flow weight back). */
void sb_pace_start(struct sb_pace *p, const struct sb_job_opts *o, enum sb_rw rw, uint64_t seed);
/* (rc: the thread's result, for exitall_on_error) */
void sb_pace_end(struct sb_pace *p, int rc);
/* Ramp over: rate counts start again, as fio's reset_io_counters */
void sb_pace_reset(struct sb_pace *p, uint64_t now);

enum { SB_PACE_GO = 0, SB_PACE_DRAIN = 1, SB_PACE_AGAIN = 2, SB_PACE_STOP = 3 };
/* Before the next io: flow control, thinktime and the rate's sleep.
 * DRAIN: wait for what is in flight first (fio's io_u_quiesce); AGAIN: held
 * back by flow control, ask again; STOP: the runtime ends before the io is
 * due. *now is refreshed after any wait; end_ns 0 = no runtime. */
int sb_pace_gate(struct sb_pace *p, int inflight, uint64_t *now, uint64_t end_ns);
/* The io's direction (fio's rate_ddir may switch it) and its accounting. */
int sb_pace_dir(struct sb_pace *p, int dir, uint64_t now);
/* After a reap: rate_min / rate_iops_min over rate_cycle; -EIO with the
 * message fio prints when a minimum is not met. */
int sb_pace_check_min(struct sb_pace *p, const struct sb_dir_result *d, uint64_t now, struct sb_err *err);

/* fio's disable_lat/clat/slat/bw_measurement: that kind is not measured
 * (disable_bw: fio 3.33 drops only the per-io bandwidth log) */
bool sb_measure_off(const struct sb_job_opts *o, enum sb_log_kind k);

#endif
