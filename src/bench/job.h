/* One I/O job, as fio's: options, parsing of `stackbench job` arguments,
 * and the result the engine fills in. */
#ifndef SB_BENCH_JOB_H
#define SB_BENCH_JOB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/cmdprio.h"
#include "bench/fioverify.h"
#include "bench/hist.h"
#include "bench/steady.h"
#include "bench/jobbs.h"
#include "util/err.h"

#define SB_JOB_MAX_WATCH 32
#define SB_JOB_MAX_THREADS 64

enum sb_rw { SB_RW_READ, SB_RW_WRITE, SB_RW_RANDREAD, SB_RW_RANDWRITE, SB_RW_RW, SB_RW_RANDRW };
enum sb_dir { SB_DIR_READ = 0, SB_DIR_WRITE = 1 };
enum sb_output_format { SB_OUT_TEXT, SB_OUT_JSON, SB_OUT_JSONPLUS };
/* fio's ioengine: libaio, psync (pread/pwrite; fio's default), sync (lseek +
 * read/write), null (no I/O: every io completes at once, as fio's) */
enum sb_ioengine { SB_IOENGINE_LIBAIO, SB_IOENGINE_PSYNC, SB_IOENGINE_SYNC, SB_IOENGINE_NULL,
	/* the engines family (src/bench/engines/) */
	SB_IOENGINE_VSYNC, SB_IOENGINE_PVSYNC, SB_IOENGINE_PVSYNC2, SB_IOENGINE_POSIXAIO,
	SB_IOENGINE_FTRUNCATE, SB_IOENGINE_CPUIO, SB_IOENGINE_IO_URING, SB_IOENGINE_EXEC,
	/* the files family (src/bench/engines/fileops.c, falloc.c) */
	SB_IOENGINE_FILECREATE, SB_IOENGINE_FILESTAT, SB_IOENGINE_FILEDELETE, SB_IOENGINE_FALLOC,
	SB_IOENGINE_NET, SB_IOENGINE_E4DEFRAG, /* engines/net.c, engines/e4defrag.c */
	SB_IOENGINE_COUNT };

struct sb_job_opts {
	char name[64];            /* jobname; also names the files in a directory target */
	char target[512];         /* block device, regular file or directory */
	enum sb_rw rw;
	uint32_t rwmixread;       /* % reads for rw/randrw (default 50) */
	uint64_t bs;              /* bytes (default 4KiB) */
	uint32_t iodepth;         /* default 1 */
	uint32_t numjobs;         /* threads (default 1) */
	uint32_t iodepth_batch;   /* most ios per io_submit (fio's iodepth_batch_submit, default 1); 0 = iodepth */
	uint32_t batch_cmin;      /* fio's iodepth_batch_complete_min (default 1) */
	uint32_t batch_cmax;      /* fio's iodepth_batch_complete_max; below the min: the min (fio's) */
	uint64_t size;            /* bytes per job; 0 = whole device / 1GiB file default */
	uint64_t runtime_ns;      /* 0 = size-based */
	uint64_t ramp_ns;         /* I/O during the ramp is not counted */
	bool direct;              /* O_DIRECT (default false, as fio) */
	bool invalidate;          /* fio's invalidate: drop the file's cached pages when opened (default true) */
	bool randommap;           /* random I/O covers every block once per pass (fio's default; norandommap) */
	uint64_t filesize;        /* fio's filesize (one file a job): the file's size; the job's size at most this */
	uint64_t offset;          /* fio's offset: where the job's region starts in its file */
	uint64_t offset_increment; /* fio's offset_increment: thread i starts at offset + i x this */
	uint32_t loops;           /* fio's loops: the size-based job this many times (default 1) */
	bool thread;              /* fio's thread: as given; stackbench's job threads are always threads */
	uint32_t fsync_every;     /* fsync after every N writes (0 = never) */
	bool verify;              /* write: write then read back and check; read: check only */
	uint64_t verify_seed;     /* generation stamped in every block and checked on reads */
	bool verify_seed_set;
	bool keep_files;          /* leave the files (fio's unlink=0, the default); false: remove them */
	bool random_data_once;    /* internal: layout */
	char phase[128];           /* label of the progress line */
	/* fio's semantics, set by `stackbench job` (suites leave them zero) */
	bool runtime_limit;       /* runtime caps a size-based job (fio without time_based) */
	bool time_based;          /* as given (runtime alone is time-based for the suites) */
	bool randrepeat;          /* same random offsets every run (a fixed seed) */
	bool end_fsync;           /* fsync when the job's writes are done */
	bool group_reporting;     /* report numjobs threads as one job */
	bool stonewall;           /* wait for the jobs before this one (new group) */
	bool create;              /* fio's filename: create a missing regular file */
	bool no_progress;         /* several jobs run at once: no progress line */
	bool shared_region;       /* fio: all threads on the same region (not for directories) */
	enum sb_ioengine ioengine;
	bool huge_buffers;        /* fio's iomem=mmaphuge/shmhuge: buffers in huge pages (default: plain, as fio) */
	uint32_t groupid;         /* fio's groupid: stonewall groups, counted from 0 */
	char directory[256];      /* fio's directory (the CLI joins it with filename into target) */
	char log_bw[256];         /* write_bw_log prefix ("" = none) */
	char log_iops[256];       /* write_iops_log prefix */
	char log_lat[256];        /* write_lat_log prefix */
	uint32_t log_avg_msec;    /* log averaging window (0 = every io) */
	uint32_t log_base;        /* logs are PREFIX_bw.N.log, N = log_base + thread + 1 */
	bool per_thread;          /* keep every thread's result (res->thread) */
	char description[256];    /* fio's description= */
	char given[4096];         /* options as written: "key=value\n"..., fio's "job options" */
	/* output family (jobout.c, steady_run.c): fio 3.33's steadystate/ss
	 * (criterion and limit; default iops_slope:0.01%), ss_dur (0: off),
	 * ss_ramp; and the logs' log_offset, per_job_logs, log_prio */
	struct sb_ss_spec ss;
	uint64_t ss_dur_ns, ss_ramp_ns;
	bool log_offset;          /* a log line has the offset (column 5; the priority moves to 6) */
	bool per_job_logs;        /* PREFIX_bw.N.log (default); 0: every thread appends to PREFIX_bw.log */
	bool log_prio;            /* the priority column as fio's ioprio value (0x%04x), not 0/1 */
	/* VERIFY family: fio's verify=<type>, do_verify, verify_* (bench/jobverify.c) */
	struct sb_fv_opts fv;
	/* block size / offset / distribution family (bench/jobbs.c, bench/dist.c) */
	struct sb_job_bs bsd;
	/* engines family (src/bench/engines/): the engines' own options, fio's .options */
	struct {
		uint32_t cpuload;         /* cpuio: % of a CPU to burn (1..100) */
		uint32_t cpuchunks;       /* cpuio: usecs a burn cycle (default 50000) */
		uint32_t cpumode;         /* cpuio: 0 noop (spin), 1 qsort */
		char program[256];        /* exec: the program */
		char arguments[512];      /* exec: its arguments */
		uint32_t grace_time;      /* exec: seconds from SIGTERM to the next io (default 1) */
		bool std_redirect;        /* exec: output to NAME.stdout/.stderr (default 1) */
	} eng;
	/* rate / submission / flow / job control (bench/rate.c): fio's, per direction [read, write] */
	uint64_t rate[2];         /* fio's rate: bytes/s (0 = no cap) */
	uint32_t rate_iops[2];    /* fio's rate_iops (rate wins when both are set) */
	uint64_t rate_min[2];     /* fio's rate_min (ratemin): the job fails below it */
	uint32_t rate_iops_min[2];
	uint32_t rate_cycle_ms;   /* fio's rate_cycle: the window of the minimum (default 1000) */
	bool rate_poisson;        /* fio's rate_process=poisson (default linear) */
	bool rate_ign_think;      /* fio's rate_ignore_thinktime */
	uint64_t thinktime_us, thinktime_spin_us;
	uint32_t thinktime_blocks; /* ios between thinktimes (default 1) */
	bool thinktime_issue;     /* thinktime_blocks_type=issue (default complete) */
	uint64_t startdelay_ns;
	uint32_t flow_id, flow, flow_sleep_us;
	bool disable_lat, disable_clat, disable_slat, disable_bw; /* fio's; gtod_reduce sets all four */
	bool new_group;           /* fio's new_group: a new reporting group, run with the others */
	char wait_for[64];        /* fio's wait_for: start once that job has finished */
	uint32_t wave;            /* jobs of one wave run at once (stonewall starts a new one) */
	bool exitall;             /* fio's exitall (given at all, as fio's callback) */
	bool exitall_on_error;
	uint8_t exit_what;        /* 0 group, 1 stonewall, 2 all (fio's exit_what) */
	_Atomic int *terminate;   /* set by `job`: the job stops issuing (fio's td->terminate) */
	struct sb_wave_gate *wave_gate; /* set by `job`: the wave's jobs start together, as fio's */
	_Atomic int *wave_arrived;
	void (*on_exit)(void *arg, int rc); /* set by `job`: a job thread ended (exitall) */
	void *on_exit_arg;
	uint64_t number_ios;      /* fio's number_ios: a size-based job stops after this many (x loops) */
	int32_t nice;             /* fio's nice: every job thread's nice() increment */
	uint8_t prio, prioclass;  /* fio's prio (0-7), prioclass (0-3; 0: best effort) */
	bool ioprio;              /* prio or prioclass given: the threads' ioprio_set */
	uint64_t cpus[4];         /* fio's cpus_allowed: CPUs 0..255 (none set: any) */
	bool cpus_split;          /* cpus_allowed_policy=split: thread N takes the (N mod count)th */
	/* job-file forms (issue 29, the corpus): write_bw_log, write_iops_log,
	 * write_lat_log without a value (bits 1, 2, 4): the prefix is the job's
	 * name, as fio's make_log_name */
	unsigned log_jobname;
	/* fio's jobname: the [section] (or --name) names the job's files
	 * NAME.N.0; name= inside a section renames the job, not its files
	 * ("" = name) */
	char section[64];
	/* files family (bench/fileset.c): fio's file set of a job thread */
	struct {
		uint32_t nrfiles;         /* fio's nrfiles (0 or 1: one file) */
		uint32_t openfiles;       /* fio's openfiles: most open at once (0: nrfiles) */
		bool create_on_open;      /* fio's create_on_open: made when opened, not laid out */
		uint8_t service;          /* fio's file_service_type: SB_FSERV_* */
		uint32_t service_nr;      /* its ':N': ios to a file before the next one (default 1) */
		double service_val, service_center; /* zipf/pareto/normal: theta, h or deviation; center (-1: none) */
		uint8_t stat_type;        /* filestat's stat_type: 0 stat, 1 lstat, 2 statx */
		char format[256];         /* fio's filename_format ("": $jobname.$jobnum.$filenum) */
		char list[512];           /* fio's filename=A:B:...: several names, as written ("": one) */
	} files;
	/* file layout family (bench/filelayout.c): how fio's extend_file lays
	 * out a job's file that is shorter than its region */
	struct {
		uint8_t fallocate;        /* enum sb_falloc: fio's fallocate= (Linux default native) */
		bool overwrite;           /* fio's overwrite: a write job's file is written out first */
		bool create_fsync;        /* fio's create_fsync: fsync the laid-out file (default 1) */
		bool suite;               /* stackbench's suites: the region written with random data
					   * (pwrite) and synced before reads and random writes,
					   * buffered writes synced at the end; not fio's */
	} fl;
	/* cmdprio family (bench/cmdprio.c): the libaio and io_uring engines'
	 * cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit */
	struct sb_cprio_opts cprio;
	/* I/O error family (bench/joberr.c): fio's fill_device */
	bool fill_device;
	/* the net engine's options (engines/net.c) */
	struct {
		char hostname[256];
		uint32_t port;            /* + the thread's number (fio's subjob_number) */
		uint8_t proto;            /* tcp, tcpv6, udp, udpv6 */
		bool listen;
	} net;
	/* the e4defrag engine's options (engines/e4defrag.c) */
	struct {
		char donorname[256];
		uint32_t inplace;
	} e4d;
	/* NUMA family (bench/jobnuma.c): numa_cpu_nodes, numa_mem_policy */
	struct {
		char cpunodes[64];        /* node list ("" = not given) */
		char memnodes[64];        /* the policy's node list */
		uint8_t mode;             /* default, prefer, bind, interleave, local */
		bool mpol;                /* numa_mem_policy given */
	} numa;
	/* submission family (bench/offload.c): fio's io_submit_mode=offload
	 * and serialize_overlap */
	struct {
		bool offload;             /* iodepth submitter threads issue the ios */
		bool serialize_overlap;   /* offload: no two overlapping ios in flight */
		uint64_t io_size;         /* fio's io_size (io_limit): bytes of I/O a loop, over the size's region (0: size) */
	} sub;
	/* io log family (bench/iolog.c): fio's write_iolog */
	struct {
		char write[256];          /* append the issued ios here ("" = no log) */
		char read[256];           /* replay this log's ios instead ("" = none) */
		bool no_stall;            /* replay_no_stall: as fast as possible, no v3 timing */
	} iolog;
	/* latency target family (bench/lattarget.c): fio's latency_target,
	 * latency_window, latency_percentile, latency_run */
	struct {
		uint64_t target_ns;       /* 0: no target */
		uint64_t window_us;
		double percentile;        /* default 100 */
		bool run;
	} lat;
};

/* Defaults as documented in `stackbench help job`: fio 3.33's. */
void sb_job_opts_init(struct sb_job_opts *o);
/* What stackbench's own suites and figures ask for on top of those: O_DIRECT,
 * libaio, the whole depth per io_submit, no invalidate (the suites drop the
 * caches themselves), no random map, their files removed after the job. */
void sb_job_opts_suite(struct sb_job_opts *o);

/* Parse a `stackbench job` argv of exactly one job (argv[0] is the command
 * name; see bench/jobargs.h for several jobs and --watch). -EINVAL with a
 * message on any bad or unknown option. */
int sb_job_parse_args(int argc, char **argv, struct sb_job_opts *o,
		      enum sb_output_format *fmt, struct sb_err *err);

/* Checks combinations (e.g. bs a multiple of 512, verify only on size-based jobs). */
int sb_job_opts_check(const struct sb_job_opts *o, struct sb_err *err);

int sb_rw_parse(const char *s, enum sb_rw *out);
const char *sb_rw_name(enum sb_rw rw);
static inline bool sb_rw_random(enum sb_rw rw)
{
	return rw == SB_RW_RANDREAD || rw == SB_RW_RANDWRITE || rw == SB_RW_RANDRW;
}

/* Running statistics of samples (fio's io_stat): bandwidth and IOPS
 * sampled every 500 ms (fio's bwavgtime/iopsavgtime). */
struct sb_stat {
	uint64_t n;
	double min, max, sum, sumsq;
};

void sb_stat_add(struct sb_stat *s, double v);
double sb_stat_mean(const struct sb_stat *s);
/* Sample standard deviation (n - 1), as fio's */
double sb_stat_dev(const struct sb_stat *s);

/* One line of a fio log: "time, value, direction, blocksize, offset". */
struct sb_log_entry {
	uint64_t t_ms, value, off;
	uint32_t bs;
	uint8_t dir;
	uint16_t prio;            /* the io's priority (fio's ioprio value; cmdprio family) */
};

struct sb_log {
	struct sb_log_entry *e;
	size_t n, cap;
};

enum sb_log_kind { SB_LOG_BW, SB_LOG_IOPS, SB_LOG_SLAT, SB_LOG_CLAT, SB_LOG_LAT, SB_LOG_NKIND };

struct sb_dir_result {
	uint64_t io_bytes;
	uint64_t ios;
	uint64_t runtime_ns;      /* time this direction was measured over */
	/* as fio: slat = start -> io_submit returned, clat = io_submit returned
	 * -> reaped, lat = start -> reaped (ns) */
	struct sb_hist clat;
	struct sb_hist slat;
	struct sb_hist lat;
	struct sb_stat bw_kib;    /* KiB/s per 500 ms sample */
	struct sb_stat iops;
};

struct sb_job_result {
	char jobname[64];
	struct sb_dir_result dir[2];
	uint64_t elapsed_ns;      /* wall time of the measured part (after ramp) */
	double usr_sec, sys_sec;  /* CPU time of the job threads */
	uint64_t verify_errors;
	uint64_t verified_blocks;
	uint64_t ctx, majf, minf;  /* context switches, page faults (getrusage) */
	uint64_t depth_level[7];   /* ios in flight at submit: 1 2 4 8 16 32 >=64 */
	uint64_t submit_batch[7];  /* ios per io_submit: 0 <=4 <=8 <=16 <=32 <=64 >64 */
	uint64_t complete_batch[7];
	struct sb_log log[SB_LOG_NKIND];  /* when the job asks for fio's logs */
	/* per job thread (o->per_thread; fio without group_reporting) */
	struct sb_job_result *thread;
	unsigned nthread;
	struct sb_ss *ss;          /* steady state (o->ss_dur_ns): the window as judged; owned */
	uint64_t run_sum_ns;       /* the threads' elapsed summed (fio's group job_runtime); 0: one thread's */
	struct sb_cprio_res *cprio; /* per-priority clat (cmdprio family, bench/cmdprio.c), or NULL; owned */
	uint32_t lat_depth;        /* latency_target: the depth settled on (fio's latency_depth); 0: none */
};

/* Free what the engine allocated in a result (its logs and threads). */
void sb_job_result_release(struct sb_job_result *r);

#endif
