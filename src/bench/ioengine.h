/* I/O engines as a table of operations, as fio's struct ioengine_ops: the
 * hot loop (pass.c) and the set-up (engine.c) call an engine only through
 * these. One file per engine under src/bench/engines/. Not for modules
 * outside src/bench. */
#ifndef SB_BENCH_IOENGINE_H
#define SB_BENCH_IOENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/job.h"

struct worker;
struct slot;
struct iocb;
struct io_event;
struct jopt;

enum {
	SB_IOF_SYNC = 1 << 0,   /* fio's FIO_SYNCIO: one io in flight, done in .queue, no slat */
	SB_IOF_NOFILE = 1 << 1, /* fio's FIO_DISKLESSIO: no file is opened */
	SB_IOF_FAKEIO = 1 << 2, /* fio's FIO_FAKEIO: no data moves */
	SB_IOF_NOIO = 1 << 3,   /* fio's FIO_NOIO: ios are counted, no bytes (cpuio) */
	SB_IOF_NOSTATS = 1 << 4, /* fio's FIO_NOSTATS: no latency per io (the engine adds its own) */
};

struct sb_ioengine_ops {
	const char *name;
	enum sb_ioengine id;
	unsigned flags;
	const struct jopt *options;   /* its own options (fio's .options), or NULL */
	/* the job as parsed: -EINVAL with a message if the engine cannot run it */
	int (*check)(struct sb_job_opts *o, struct sb_err *err);
	/* per job thread, after its file is open: the engine's state in
	 * w->ioe_data; it may hand the thread to another engine (w->ioe: libaio
	 * on a kernel without AIO runs with psync) */
	int (*setup)(struct worker *w, struct slot *slots, unsigned depth);
	void (*cleanup)(struct worker *w);
	/* open thread w's file and set its region (NULL: the generic open) */
	int (*open_file)(const struct sb_job_opts *o, struct worker *w, struct sb_err *err);
	/* synchronous engines: do one io now; bytes moved or -errno */
	long (*queue)(struct worker *w, struct iocb *cb);
	/* asynchronous engines: hand n ios to the kernel; how many it took
	 * (0: none now, reap first) or -errno */
	int (*commit)(struct worker *w, struct iocb **cbs, unsigned n);
	/* at least min, at most max completions into ev; their count or -errno */
	int (*getevents)(struct worker *w, long min, long max, struct io_event *ev);
	/* after each reap (cpuio, exec: fio's thinktime, which they set) */
	void (*reaped)(struct worker *w);
};

/* The engine called name (fio's spelling), NULL if stackbench has none. */
const struct sb_ioengine_ops *sb_ioengine_find(const char *name);
/* The engine of a job (never NULL). */
const struct sb_ioengine_ops *sb_ioengine_get(enum sb_ioengine id);
const char *sb_ioengine_name(enum sb_ioengine id);
/* The engine's flags for this job: fio's null is synchronous at iodepth 1. */
unsigned sb_ioengine_job_flags(const struct sb_job_opts *o);
/* fio reports submission latency for every engine but the synchronous ones. */
bool sb_ioengine_has_slat(const struct sb_job_opts *o);
/* Sleep us microseconds (interrupted sleeps go on). */
void sb_ioengine_sleep_us(uint64_t us);
/* "psync, sync, ..." for messages and help. */
const char *sb_ioengine_list(void);

/* the engines (src/bench/engines/) */
extern const struct sb_ioengine_ops sb_ioe_libaio, sb_ioe_posixaio, sb_ioe_null, sb_ioe_ftruncate, sb_ioe_cpuio, sb_ioe_exec;
extern const struct sb_ioengine_ops sb_ioe_io_uring; /* with liburing (SB_HAVE_IO_URING) */
extern const struct sb_ioengine_ops sb_ioe_filecreate, sb_ioe_filestat, sb_ioe_filedelete; /* engines/fileops.c */
extern const struct sb_ioengine_ops sb_ioe_falloc; /* engines/falloc.c */
extern const struct sb_ioengine_ops sb_ioe_net, sb_ioe_e4defrag;
extern const struct sb_ioengine_ops sb_ioe_sync, sb_ioe_psync, sb_ioe_vsync, sb_ioe_pvsync, sb_ioe_pvsync2;

#endif
