#include "bench/engine.h"
#include "bench/iolog.h"
#include "util/clock.h"

#include <fcntl.h>
#include <libaio.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "bench/data.h"
#include "bench/engine_int.h"
#include "bench/fileset.h"
#include "bench/filelayout.h"
#include "bench/jobnuma.h"
#include "bench/steady_run.h"
#include "sys/sysfs.h"
#include "bench/verifyio.h"
#include "util/log.h"
#include "util/units.h"

/* A job thread's per-slot arrays. */
struct wio {
	struct slot *slots;
	struct io_event *events;
	struct iocb **batch;
};

/* One region for every slot's buffer, each aligned for O_DIRECT. Plain
 * pages unless iomem asks for huge ones, as fio (iomem=malloc): a 1 MiB
 * direct io in 4 KiB pages can have more segments than the device takes
 * (loop: 128), so the block layer splits it into several requests; in a
 * huge page it is one request, and moves more bytes per request than fio
 * does with the same command line (tests/bench/README.md). */
static int alloc_bufs(struct worker *w, struct slot *slots)
{
	const struct sb_job_opts *o = w->o;
	uint64_t align = w->lbs < 4096 ? 4096 : w->lbs, stride = (o->bs + align - 1) / align * align;
	unsigned i;

	w->buf_len = stride * o->iodepth;
	w->bufs = mmap(NULL, (size_t)w->buf_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->bufs == MAP_FAILED) {
		w->bufs = NULL;
		return sb_err_sys(&w->err, -errno, "allocating %llu bytes of I/O buffers",
				  (unsigned long long)w->buf_len);
	}
	if (o->huge_buffers)
		madvise(w->bufs, (size_t)w->buf_len, MADV_HUGEPAGE);
	for (i = 0; i < o->iodepth; i++) {
		slots[i].buf = (char *)w->bufs + (uint64_t)i * stride;
		fill_random(&w->rng, slots[i].buf, (size_t)o->bs);  /* bs fits: sb_engine_check_memory */
	}
	return 0;
}

static int worker_setup(struct worker *w, struct wio *io)
{
	const struct sb_job_opts *o = w->o;
	unsigned i;
	int rc;

	for (i = 0; i < 2; i++) {
		sb_hist_init(&w->res.dir[i].clat);
		sb_hist_init(&w->res.dir[i].slat);
		sb_hist_init(&w->res.dir[i].lat);
	}
	io->slots = calloc(o->iodepth, sizeof(*io->slots));
	io->events = calloc(o->iodepth, sizeof(*io->events));
	io->batch = calloc(o->iodepth, sizeof(*io->batch));
	if (!io->slots || !io->events || !io->batch)
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	if ((rc = alloc_bufs(w, io->slots)) < 0)
		return rc;
	if (w->ioe->setup && (rc = w->ioe->setup(w, io->slots, o->iodepth)) < 0)
		return rc;
	/* verify + randwrite, or fio's random map: every block exactly once
	 * per pass, in a random order */
	if ((o->verify && o->rw == SB_RW_RANDWRITE) || (o->randommap && sb_rw_random(o->rw))) {
		perm_init(&w->perm, w->len / o->bs, &w->rng);
		w->use_perm = true;
	}
	return sb_fvw_init(w);
}

/* CPU, context switches and faults of the thread, as fio's usr/sys_cpu, ctx, majf, minf */
static void worker_usage(struct worker *w)
{
	struct rusage ru;
	double u1, s1;

	sb_engine_rusage(&u1, &s1);
	w->res.usr_sec = u1 - w->ru0;
	w->res.sys_sec = s1 - w->rs0;
	getrusage(RUSAGE_THREAD, &ru);
	w->res.ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
	w->res.majf = (uint64_t)ru.ru_majflt;
	w->res.minf = (uint64_t)ru.ru_minflt;
}

/* The measured pass (and a verify job's read-back). */
static int worker_measure(struct worker *w, struct wio *io)
{
	const struct sb_job_opts *o = w->o;
	struct pass p = { .rw = o->rw };
	uint64_t t0, measure_start;
	unsigned i;
	int rc;

	sb_engine_rusage(&w->ru0, &w->rs0);
	t0 = measure_start = sb_clock_ns();
	if (o->runtime_ns) {
		p.end_ns = t0 + o->ramp_ns + o->runtime_ns;
		p.ramp_end = o->ramp_ns ? t0 + o->ramp_ns : 0;
	}
	if (!o->runtime_ns || o->runtime_limit)
		/* fio without time_based: size, or io_size (loops times), or runtime if sooner */
		p.nios = (o->sub.io_size ? o->sub.io_size : w->len) / o->bs * (o->loops ? o->loops : 1);
	if (sb_iolog_replay_ios())
		p.nios = sb_iolog_replay_ios(); /* read_iolog: the log's ios (fio's size: their bytes) */
	if (p.nios && o->number_ios && o->number_ios * (o->loops ? o->loops : 1) < p.nios)
		p.nios = o->number_ios * (o->loops ? o->loops : 1); /* fio's exceeds_number_ios */
	p.loop_invalidate = w->fd >= 0 && sb_fl_loop_invalidate(o, p.nios); /* bench/filelayout.c */
	p.check = o->verify && (o->rw == SB_RW_READ || o->rw == SB_RW_RANDREAD);
	sb_fvw_pass_setup(w, &p);
	rc = sb_engine_pass(w, io->slots, io->events, io->batch, &p, &measure_start);
	/* fio's end_fsync (the suites: buffered writes too, bench/filelayout.c) */
	if (rc == 0 && w->fd >= 0 && w->res.dir[SB_DIR_WRITE].ios && sb_fl_end_fsync(o) &&
	    fsync(w->fd) < 0 && errno != EINVAL)  /* EINVAL: a special file (/dev/null) has nothing to sync */
		rc = sb_err_sys(&w->err, -errno, "fsync %s", w->path);
	w->res.elapsed_ns = sb_clock_ns() - measure_start;
	worker_usage(w);
	for (i = 0; i < 2; i++)
		w->res.dir[i].runtime_ns = w->res.dir[i].io_bytes ? w->res.elapsed_ns : 0;
	if (rc == 0)
		rc = sb_fvw_phase(w, io->slots, io->events, io->batch);
	if (rc == 0 && o->verify && (o->rw == SB_RW_WRITE || o->rw == SB_RW_RANDWRITE)) {
		/* read everything back and check it (counted as reads, outside the write runtime) */
		struct pass v = { .rw = SB_RW_READ, .nios = w->len / o->bs, .check = true };
		uint64_t ms = 0, tv = sb_clock_ns();

		if (!o->direct && posix_fadvise(w->fd, (off_t)w->start, (off_t)w->len, POSIX_FADV_DONTNEED) < 0)
			sb_debug("fadvise DONTNEED failed on %s", w->path);
		rc = sb_engine_pass(w, io->slots, io->events, io->batch, &v, &ms);
		w->res.dir[SB_DIR_READ].runtime_ns = sb_clock_ns() - tv;
	}
	return rc;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct wio io = { 0 };
	int rc = sb_jobctl_thread(w->o, w->o->log_base + w->idx, &w->err); /* fio's ioprio_set and nice (bench/jobctl.c) */

	if (rc == 0)
		rc = sb_numa_thread(w->o, &w->err); /* fio's numa_* (bench/jobnuma.c) */

	if (rc == 0)
		rc = worker_setup(w, &io);

	/* start gate: every thread sets up first, then all start together; a
	 * failed one still reports ready so nobody waits for it */
	atomic_store(&w->ready, 1);
	while (atomic_load(w->go) == 0)
		usleep(100);
	if (rc == 0 && atomic_load(w->go) > 0) {
		sb_pace_start(&w->pace, w->o, w->o->rw, (w->o->randrepeat ? 0x5eedULL : sb_clock_ns()) + w->idx);
		rc = sb_iolog_begin(w->o, w->idx, w->ioe_flags & SB_IOF_NOFILE ? NULL : w->path, &w->err);
		if (rc == 0)
			rc = worker_measure(w, &io);
		sb_iolog_end();
		sb_pace_end(&w->pace, rc);
	}
	if (w->ioe->cleanup)
		w->ioe->cleanup(w);
	sb_fvw_free(w);
	if (w->bufs)
		munmap(w->bufs, (size_t)w->buf_len);
	w->bufs = NULL;
	free(io.slots);
	free(io.events);
	free(io.batch);
	w->rc = rc;
	atomic_store(&w->done, 1);
	return NULL;
}

void sb_engine_job_file(const struct sb_job_opts *o, unsigned i, char *buf, size_t len)
{
	/* NAME.i.0, or fio's filename_format (bench/fileset.c) */
	if (sb_fileset_dir_name(o, i, 0, buf, len) < 0)
		snprintf(buf, len, "%s/%s.%u.0", o->target, o->section[0] ? o->section : o->name, i);
}

static bool rw_reads(enum sb_rw rw)
{
	return rw != SB_RW_WRITE && rw != SB_RW_RANDWRITE;
}

/* A directory target: each worker its own job file, laid out (created)
 * first when it is shorter than the region (bench/filelayout.c). */
static int open_dir_worker(const struct sb_job_opts *o, struct worker *w, int flags,
			   struct sb_err *err)
{
	uint64_t len = o->size ? o->size : SB_FL_DEFAULT_FILE_SIZE, have = 0;
	struct stat st;
	int rc;

	sb_engine_job_file(o, w->idx, w->path, sizeof(w->path));
	w->start = o->offset + (uint64_t)w->idx * o->offset_increment;  /* fio's, in the thread's own file */
	w->len = len - len % o->bs;
	if (stat(w->path, &st) == 0)
		have = (uint64_t)st.st_size;
	else if (errno != ENOENT || (o->verify && rw_reads(o->rw)))
		return sb_err_sys(err, -errno, "open %s", w->path);
	if (have < w->start + w->len) {
		if (o->verify && rw_reads(o->rw))
			return sb_err_set(err, -ENOENT, "%s: %llu bytes, the verify read needs %llu "
					  "written by an earlier verify job", w->path,
					  (unsigned long long)have, (unsigned long long)w->len);
		if ((rc = sb_fl_extend(o, w->path, have, w->start, w->len, &w->rng, err)) < 0)
			return rc;
	}
	w->fd = open(w->path, flags | O_CREAT, 0600);  /* the suites' sequential write makes it here */
	if (w->fd < 0 && errno == EINVAL && o->direct)
		return sb_err_sys(err, -EINVAL, "open %s with O_DIRECT (does this filesystem "
				  "support direct I/O? --buffered runs without it)", w->path);
	if (w->fd < 0)
		return sb_err_sys(err, -errno, "open %s", w->path);
	if (fstat(w->fd, &st) < 0)
		return sb_err_sys(err, -errno, "stat %s", w->path);
	w->lbs = sb_sysfs_file_lbs(st.st_dev); /* the kernel's O_DIRECT rule, as fio leaves it to */
	return 0;
}

/* fio's invalidate=1 when a file is opened: its cached pages dropped
 * (posix_fadvise DONTNEED on the region; BLKFLSBUF on a block device) */
static void invalidate(const struct sb_job_opts *o, struct worker *w, bool blk)
{
	if (!o->invalidate)
		return;
	if (blk ? ioctl(w->fd, BLKFLSBUF, 0) < 0
		: posix_fadvise(w->fd, (off_t)w->start, (off_t)w->len, POSIX_FADV_DONTNEED) != 0)
		sb_debug("invalidate %s: the page cache was not dropped", w->path);
}

static int open_worker(const struct sb_job_opts *o, struct worker *w, const struct stat *tst,
		       uint64_t dev_size, struct sb_err *err)
{
	int rc;

	int flags = O_RDWR | (o->direct ? O_DIRECT : 0);
	uint64_t base;
	struct stat st;

	if (w->ioe->open_file)
		return w->ioe->open_file(o, w, err);
	if (S_ISDIR(tst->st_mode)) {
		if ((rc = open_dir_worker(o, w, flags, err)) == 0)
			invalidate(o, w, false);
		return rc;
	}
	snprintf(w->path, sizeof(w->path), "%s", o->target);
	/* fio: every thread of a job works on the same region of one file or
	 * device; stackbench's own (and verify) jobs give each its own part */
	w->len = o->size ? o->size : o->shared_region ? dev_size : dev_size / o->numjobs;
	/* fio's offset (+ offset_increment per thread): the region starts there;
	 * without a size it runs to the end */
	base = o->offset + (uint64_t)w->idx * o->offset_increment;
	if (!o->size)
		w->len = base < w->len ? w->len - base : 0;
	w->len -= w->len % o->bs;
	if (!w->len)
		return sb_err_set(err, -EINVAL, "%s: offset %llu leaves no room for a block", o->target,
				  (unsigned long long)base);
	w->start = base + (o->shared_region ? 0 : (uint64_t)w->idx * w->len);
	if (base > dev_size || w->start < base || w->start > dev_size || w->len > dev_size - w->start)
		return sb_err_set(err, -ENOSPC, "%s: %u regions of %llu bytes do not fit in its %llu bytes",
				  o->target, o->numjobs, (unsigned long long)w->len,
				  (unsigned long long)dev_size);
	/* a file shorter than the region (fio's filename= just created it):
	 * laid out before it is opened (fio's: once, to the end of the job's
	 * regions; the suites': each thread's region) */
	/* a stat that finds no file is another job's layout between its unlink
	 * and its create: sb_fl_extend looks again under the layout lock */
	if (stat(o->target, &st) < 0)
		st.st_size = 0;
	if (S_ISREG(tst->st_mode) && !(o->verify && rw_reads(o->rw)) &&
	    (uint64_t)st.st_size < w->start + w->len && (o->fl.suite || w->idx == 0) &&
	    (rc = o->fl.suite ? sb_fl_extend(o, w->path, (uint64_t)st.st_size, w->start, w->len, &w->rng, err)
			      : sb_fl_extend(o, w->path, (uint64_t)st.st_size, 0, dev_size, &w->rng, err)) < 0)
		return rc;
	w->fd = open(o->target, flags);
	if (w->fd < 0)
		return sb_err_sys(err, -errno, "open %s", o->target);
	if (S_ISBLK(tst->st_mode)) {
		int ss = 512;

		if (ioctl(w->fd, BLKSSZGET, &ss) < 0)
			return sb_err_sys(err, -errno, "BLKSSZGET %s", o->target);
		w->lbs = (uint64_t)ss;
	} else {
		w->lbs = sb_sysfs_file_lbs(tst->st_dev);
	}
	invalidate(o, w, S_ISBLK(tst->st_mode));
	return 0;
}

/* The live line: MB/s and IOPS over the last interval, percent done and
 * ETA (of the runtime when timed, of the bytes otherwise). */
static void progress(const struct sb_job_opts *o, struct worker *ws, uint64_t t0,
		     uint64_t total, uint64_t *last_b, uint64_t *last_t)
{
	uint64_t now = sb_clock_ns(), b = 0, eta_s = 0;
	double rate, iops, pct = 0;
	unsigned i;

	for (i = 0; i < o->numjobs; i++)
		b += atomic_load_explicit(&ws[i].prog_bytes, memory_order_relaxed);
	rate = sb_mbps(b - *last_b, now - *last_t);
	iops = now > *last_t && o->bs ? (double)(b - *last_b) / (double)o->bs * 1e9 / (double)(now - *last_t) : 0;
	if (o->runtime_ns) {
		uint64_t end = t0 + o->ramp_ns + o->runtime_ns;

		eta_s = end > now ? (end - now) / 1000000000ULL : 0;
		pct = 100.0 * (double)(now - t0) / (double)(o->ramp_ns + o->runtime_ns);
	} else if (b > 0 && total > b) {
		eta_s = (uint64_t)((double)(total - b) / ((double)b / (double)(now - t0))) / 1000000000ULL;
	}
	if (!o->runtime_ns && total)
		pct = 100.0 * (double)b / (double)total;
	sb_progress("%s: %s %s, %.1f MB/s, %.0f IOPS, %.0f%%, ETA %llus", o->phase[0] ? o->phase : o->name,
		    sb_rw_name(o->rw), o->target, rate, iops, pct > 100 ? 100 : pct, (unsigned long long)eta_s);
	*last_b = b;
	*last_t = now;
}

static int open_workers(const struct sb_job_opts *oc, struct worker *ws, const struct stat *tst,
			uint64_t dev_size, struct sb_err *err)
{
	unsigned i;
	int rc;

	for (i = 0; i < oc->numjobs; i++) {
		ws[i].o = oc;
		if ((rc = open_worker(oc, &ws[i], tst, dev_size, err)) < 0)
			return rc;
		if (oc->direct && (oc->bs % ws[i].lbs || ws[i].start % ws[i].lbs))
			return sb_err_set(err, -EINVAL, "--bs %llu is not a multiple of %s's logical block "
					  "size %llu (needed for O_DIRECT)", (unsigned long long)oc->bs,
					  oc->target, (unsigned long long)ws[i].lbs);
	}
	return 0;
}

/* Start every thread, open the gate when all are set up, show progress
 * until all are done, join them. */
static int run_threads(const struct sb_job_opts *oc, struct worker *ws, struct sb_err *err)
{
	_Atomic int go = 0;
	struct sb_ss_run ssr = { 0 };
	uint64_t t0, last_b = 0, last_t, total = 0;
	unsigned i, started = 0;
	int rc = 0;

	for (i = 0; i < oc->numjobs; i++) {
		ws[i].go = &go;
		if ((rc = -pthread_create(&ws[i].tid, NULL, worker_main, &ws[i])) < 0) {
			sb_err_sys(err, rc, "starting job thread");
			break;
		}
		ws[i].started = true;
		started++;
		total += ws[i].len;
	}
	for (i = 0; i < started; i++)
		while (!atomic_load(&ws[i].ready))
			usleep(100);
	sb_wave_arrive(oc); /* the jobs of a wave start together (bench/rate.c) */
	t0 = last_t = sb_clock_ns();
	if (rc == 0 && started == oc->numjobs)
		rc = sb_ss_run_start(&ssr, oc, ws, oc->numjobs, t0, err);
	atomic_store(&go, started < oc->numjobs || rc < 0 ? -1 : 1);
	for (bool all = false; !all && rc == 0;) {
		all = true;
		for (i = 0; i < oc->numjobs; i++)
			if (!atomic_load(&ws[i].done))
				all = false;
		if (all)
			break;
		usleep(200000);
		if (ssr.nss)
			sb_ss_run_tick(&ssr, sb_clock_ns());
		if (!oc->no_progress)
			progress(oc, ws, t0, total, &last_b, &last_t);
	}
	if (!oc->no_progress && rc == 0)
		sb_progress_done();
	for (i = 0; i < started; i++)
		pthread_join(ws[i].tid, NULL);
	sb_ss_run_end(&ssr);
	return rc;
}

int sb_engine_check_memory(const struct sb_job_opts *o, uint64_t space, struct sb_err *err)
{
	/* each thread maps bs (rounded up to 4 KiB, or the logical block
	 * size, which is at most 4 KiB) for each of iodepth slots */
	uint64_t half = space / 2, stride = o->bs > half ? UINT64_MAX : (o->bs + 4095) / 4096 * 4096;
	char a[32], b[32];

	if (!o->iodepth || !o->numjobs || stride <= half / o->numjobs / o->iodepth)
		return 0;
	sb_size_format_human(half, b, sizeof(b));
	if (stride > UINT64_MAX / o->iodepth / o->numjobs)
		snprintf(a, sizeof(a), "more than 2^64 B");
	else
		sb_size_format_human(stride * o->iodepth * o->numjobs, a, sizeof(a));
	return sb_err_set(err, -EINVAL, "--bs %llu x --iodepth %u x --numjobs %u needs %s of I/O buffers; "
			  "this %u-bit build maps at most %s (half its address space): lower --bs, "
			  "--iodepth or --numjobs", (unsigned long long)o->bs, o->iodepth, o->numjobs, a,
			  (unsigned)sizeof(void *) * 8, b);
}

int sb_engine_run(const struct sb_job_opts *o, struct sb_job_result *res, struct sb_err *err)
{
	struct worker *ws;
	struct sb_job_opts oc;
	struct stat tst;
	uint64_t dev_size = 0, seed;
	unsigned i;
	int rc, rc2;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < 2; i++) {
		sb_hist_init(&res->dir[i].clat);
		sb_hist_init(&res->dir[i].slat);
		sb_hist_init(&res->dir[i].lat);
	}
	snprintf(res->jobname, sizeof(res->jobname), "%s", o->name);
	memset(&tst, 0, sizeof(tst));
	if ((rc = sb_job_opts_check(o, err)) < 0 || (rc = sb_engine_check_memory(o, SIZE_MAX, err)) < 0)
		return rc;
	if (!(sb_ioengine_get(o->ioengine)->flags & SB_IOF_NOFILE) &&
	    ((rc = sb_fl_stat_target(o, &tst, err)) < 0 || (rc = sb_fl_target_room(o, &tst, &dev_size, err)) < 0))
		return rc;
	ws = calloc(o->numjobs, sizeof(*ws));
	if (!ws)
		return sb_err_set(err, -ENOMEM, "out of memory");
	seed = o->verify_seed_set ? o->verify_seed : sb_clock_ns() ^ ((uint64_t)getpid() << 32);
	/* the verify generation: given, or this run's seed */
	oc = *o;
	if (!oc.verify_seed_set)
		oc.verify_seed = seed;
	for (i = 0; i < o->numjobs; i++) {
		ws[i].idx = i;
		ws[i].fd = -1;
		ws[i].ioe = sb_ioengine_get(oc.ioengine);
		ws[i].ioe_flags = sb_ioengine_job_flags(&oc);
		ws[i].batch = o->iodepth_batch && o->iodepth_batch < o->iodepth ? o->iodepth_batch : o->iodepth;
		/* fio's randrepeat: the same offsets every run, per job thread */
		rng_seed(&ws[i].rng, (o->randrepeat ? 0x5eed5eedULL : seed) + i * 0x1000193ULL + 1);
	}
	if ((rc = open_workers(&oc, ws, &tst, dev_size, err)) < 0 || (rc = run_threads(&oc, ws, err)) < 0)
		goto out;
	for (i = 0; i < o->numjobs; i++) {
		if (ws[i].rc < 0 && rc == 0) {
			rc = ws[i].rc;
			sb_err_set(err, rc, "%s", ws[i].err.msg);
		}
		sb_engine_merge_thread(res, &ws[i].res);
	}
	if ((rc2 = sb_engine_keep_threads(o, ws, res, err)) < 0 && rc == 0)
		rc = rc2;
	sb_ss_run_result(ws, o->numjobs, res);
out:
	for (i = 0; i < o->numjobs; i++) {
		sb_cprio_free(&ws[i].res); /* what res->thread did not take */
		if (ws[i].fd >= 0)
			close(ws[i].fd);
		/* fio's unlink=1 also removes a filename= file (stackbench's target= stays) */
		if ((S_ISDIR(tst.st_mode) || (S_ISREG(tst.st_mode) && o->create && i == 0)) &&
		    ws[i].path[0] && !o->keep_files &&
		    !(o->verify && (o->rw == SB_RW_WRITE || o->rw == SB_RW_RANDWRITE) && rc < 0))
			unlink(ws[i].path);
	}
	free(ws);
	return rc;
}
