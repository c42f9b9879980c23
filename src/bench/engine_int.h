/* The engine's inside, shared by engine.c (set-up, threads, results) and
 * pass.c (the hot loop: prepare, submit, reap, account). Not for other
 * modules. */
#ifndef SB_BENCH_ENGINE_INT_H
#define SB_BENCH_ENGINE_INT_H

#include <libaio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "bench/data.h"
#include "bench/ioengine.h"
#include "bench/job.h"
#include "bench/rate.h"

struct slot {
	struct iocb cb;
	void *buf;
	uint64_t t_start;             /* before io_submit (fio's start_time) */
	uint64_t t_issue;             /* io_submit returned (fio's issue_time) */
	uint64_t off;
	uint64_t len;                 /* bytes of this io (o->bs unless the job varies them) */
	int dir;
	void *ioe_data;               /* the engine's per-io state (posixaio's aiocb) */
	uint16_t ioprio;              /* its priority (fio's io_u->ioprio; bench/cmdprio.c) */
	uint8_t prio_idx;             /* its priority's clat histogram (fio's clat_prio_index) */
};

struct worker {
	const struct sb_job_opts *o;
	unsigned idx;
	int fd;
	char path[600];
	bool created;
	uint64_t start, len;          /* region in the file/device */
	uint64_t lbs;
	struct rng rng;
	struct perm perm;             /* verify + random: every block exactly once */
	bool use_perm;
	pthread_t tid;
	bool started;
	struct sb_job_result res;
	int rc;
	struct sb_err err;
	_Atomic int *go;              /* 0 wait, 1 run, -1 give up (start gate) */
	_Atomic int ready;
	/* written by the worker (relaxed), read by the progress loop */
	_Atomic uint64_t prog_bytes __attribute__((aligned(64)));
	_Atomic int done;
	_Atomic uint64_t prog_ios;    /* ios completed, as prog_bytes (steady state) */
	_Atomic int ss_stop;          /* steady state attained: issue no more (steady_run.c) */
	uint64_t stamp;
	double ru0, rs0;              /* thread CPU at the start of measuring */
	unsigned batch;               /* most iocbs per io_submit */
	void *bufs;                   /* every slot's buffer, one mapping */
	uint64_t buf_len;
	uint64_t t0;                  /* pass start: log times count from here */
	struct sb_fvw *fv;            /* fio's verify=<type> (bench/verifyio.c), or NULL */
	/* the engines family (bench/ioengine.h) */
	const struct sb_ioengine_ops *ioe;
	unsigned ioe_flags;           /* sb_ioengine_job_flags */
	void *ioe_data;               /* the engine's per-thread state (libaio's context) */
	uint64_t ioe_pos;             /* where the file offset is (fio's engine_pos: sync's lseek) */
	struct sb_pace pace;          /* rate, thinktime, flow (bench/rate.c) */
};

struct pass {
	enum sb_rw rw;
	uint64_t nios;                /* size-based: ios to issue; 0 = time-based */
	uint64_t end_ns;              /* time-based: stop issuing at */
	uint64_t ramp_end;            /* 0 = no ramp */
	bool check;                   /* verify reads */
	bool loop_invalidate;         /* fio's loops: drop the cache before each loop after the first */
	bool fv_pass;                 /* fio's verify phase: the blocks sb_fvw_next gives */
	bool fv_check;                /* reads checked as fio's verify=<type> */
};

/* One pass over the region (or until end_ns); every io drained before it
 * returns. 0 or -errno with w->err set. */
int sb_engine_pass(struct worker *w, struct slot *slots, struct io_event *events, struct iocb **batch,
		   const struct pass *p, uint64_t *measure_start);
/* res += one thread's result */
void sb_engine_merge_thread(struct sb_job_result *res, const struct sb_job_result *r);
/* Write the threads' logs; with o->per_thread, hand their results to res->thread. */
int sb_engine_keep_threads(const struct sb_job_opts *o, struct worker *ws, struct sb_job_result *res,
			   struct sb_err *err);
/* This thread's CPU time so far. */
void sb_engine_rusage(double *usr, double *sys);

#endif
