/* bonnie: bonnie++ 2.00a's tests, with its definitions (read off its source,
 * bon_io.cpp and bonnie++.cpp, and checked with strace on Debian's build).
 * - block output: the file is created (after bonnie++'s empty first create:
 *   first_create), then written in chunk-size write()s of a zeroed,
 *   page-aligned buffer with one byte changed per chunk;
 * - rewrite: read a chunk, dirty one byte, lseek back, write it;
 * - block input: read the file in chunks;
 * each of these opens the file before its clock starts and ends with an
 * fsync() and close() inside it: bonnie++ fsyncs on every close, with or
 * without -b.
 * - seeks: bonnie_seeks.c (bonnie++'s tickets down a pipe to 5 seekers);
 * - the file tests: bonnie_files.c.
 * Each figure comes with CPU % = (user + system CPU time) / elapsed, as
 * bonnie++ prints it, the elapsed time (bonnie++ prints "+++++" under half
 * a second) and the worst single operation. Differences from bonnie++: the
 * suite drops the page cache before rewrite, block input and seeks unless
 * STACKBENCH_NO_DROP_CACHES is set (`stackbench bonnie` sets it, as
 * bonnie++ never drops it). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/engine.h"
#include "util/clock.h"
#include "bench/suites/bonnie.h"
#include "util/log.h"
#include "util/units.h"

#define SEEK_PROCS 5                  /* bonnie++'s defaults; -s SIZE:CHUNK:SEEKS:PROCS */
#define SEEKS_TOTAL 8192

double sb_bonnie_cpu(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

void sb_bonnie_timer_start(struct sb_bonnie_timer *t)
{
	t->cpu0 = sb_bonnie_cpu(RUSAGE_SELF);
	t->t0 = sb_clock_ns();
}

double sb_bonnie_timer_stop(const struct sb_bonnie_timer *t, double *cpu_pct)
{
	double el = (double)(sb_clock_ns() - t->t0) / 1e9;

	*cpu_pct = el > 0 ? (sb_bonnie_cpu(RUSAGE_SELF) - t->cpu0) / el * 100.0 : 0;
	return el;
}

void sb_bonnie_lmax_step(uint64_t *lmax, uint64_t *prev)
{
	uint64_t now = sb_clock_ns();

	if (now - *prev > *lmax)
		*lmax = now - *prev;
	*prev = now;
}

uint64_t sb_bonnie_rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

void sb_bonnie_figure(struct sb_bonnie *bn, const char *name, double value, const char *unit,
		      double elapsed_s, double cpu_pct, uint64_t lmax)
{
	struct json_object *f;

	sb_suite_figure(bn->c, name, value, unit, cpu_pct, lmax);
	if (json_object_object_get_ex(bn->c->figures, name, &f))
		json_object_object_add(f, "elapsed_s", json_object_new_double(round(elapsed_s * 1e6) / 1e6));
}

static void show(struct sb_bonnie *bn, const char *phase, uint64_t done, uint64_t total, uint64_t t0)
{
	uint64_t now = sb_clock_ns();
	double rate = sb_mbps(done * bn->chunk, now - t0);
	double eta = done ? (double)(now - t0) / 1e9 * (double)(total - done) / (double)done : 0;
	double iops = now > t0 ? (double)done * 1e9 / (double)(now - t0) : 0;

	sb_progress("%s: %.1f MB/s, %.0f IOPS, %.0f%%, ETA %.0fs", phase, rate, iops,
		    total ? 100.0 * (double)done / (double)total : 0, eta);
}

static int full_io(ssize_t n, size_t want)
{
	if (n < 0)
		return -errno;
	return (size_t)n == want ? 0 : -EIO;
}

/* ---- the three block phases: one loop, one operation per chunk each ---- */

/* bonnie++ writes zeros, one byte changed per chunk so every chunk differs */
static int put_chunk(struct sb_bonnie *bn, int fd, uint64_t i)
{
	bn->buf[i % bn->chunk]++;
	return full_io(write(fd, bn->buf, bn->chunk), bn->chunk);
}

static int rewrite_chunk(struct sb_bonnie *bn, int fd, uint64_t i)
{
	int rc = full_io(read(fd, bn->buf, bn->chunk), bn->chunk);

	if (rc < 0)
		return rc;
	bn->buf[i % bn->chunk]++;          /* dirty it */
	if (lseek(fd, -(off_t)bn->chunk, SEEK_CUR) < 0)
		return -errno;
	return full_io(write(fd, bn->buf, bn->chunk), bn->chunk);
}

static int get_chunk(struct sb_bonnie *bn, int fd, uint64_t i)
{
	(void)i;
	return full_io(read(fd, bn->buf, bn->chunk), bn->chunk);
}

struct block_phase {
	const char *what, *figure;
	bool create;                  /* block output: a new file */
	int (*op)(struct sb_bonnie *bn, int fd, uint64_t i);
};

static const struct block_phase block_phases[] = {
	{ "block output", "block_output", true, put_chunk },
	{ "rewrite", "rewrite", false, rewrite_chunk },
	{ "block input", "block_input", false, get_chunk },
};

/* Before its block output bonnie++ creates the file for its per-char test
 * (which -f skips), fsync()s it empty, closes and unlinks it: an fsync
 * commits the journal, so the previous run's delete of its data file
 * (a large transaction) is on disk before bonnie++'s clock starts. The
 * same calls here (issue 29: without them the block output's timed window
 * carried that commit), outside the timing. */
static int first_create(struct sb_bonnie *bn, struct sb_err *err)
{
	int fd, rc = 0;

	if (unlink(bn->path) < 0 && errno != ENOENT)
		return sb_err_sys(err, -errno, "bonnie: unlink %s", bn->path);
	fd = open(bn->path, O_RDWR | O_CLOEXEC | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return sb_err_sys(err, -errno, "bonnie: open %s", bn->path);
	if (fsync(fd) < 0)
		rc = sb_err_sys(err, -errno, "bonnie: fsync %s", bn->path);
	if (close(fd) < 0 && rc == 0)
		rc = sb_err_sys(err, -errno, "bonnie: close %s", bn->path);
	if (unlink(bn->path) < 0 && rc == 0)
		rc = sb_err_sys(err, -errno, "bonnie: unlink %s", bn->path);
	return rc;
}

static int block_pass(struct sb_bonnie *bn, const struct block_phase *ph, struct sb_err *err)
{
	struct sb_bonnie_timer t;
	uint64_t i, lmax = 0, prev;
	double el, cpu;
	int fd, rc;

	if (!ph->create)
		sb_suite_drop_caches(bn->c);
	sb_suite_phase(bn->c, NULL);
	if (ph->create && (rc = first_create(bn, err)) < 0)
		return rc;
	/* as bonnie++: opened O_RDWR (created afresh) and rewound before the clock starts */
	fd = open(bn->path, O_RDWR | O_CLOEXEC | (ph->create ? O_CREAT | O_EXCL : 0), 0600);
	if (fd < 0)
		return sb_err_sys(err, -errno, "bonnie: open %s", bn->path);
	if (!ph->create && lseek(fd, 0, SEEK_SET) < 0) {
		rc = -errno;
		goto fail;
	}
	sb_bonnie_timer_start(&t);
	prev = t.t0;
	for (i = 0; i < bn->nchunks; i++) {
		if (sb_bonnie_stopped(bn)) {
			rc = -EINTR;
			goto fail;
		}
		if ((rc = ph->op(bn, fd, i)) < 0)
			goto fail;
		sb_bonnie_lmax_step(&lmax, &prev);
		if (bn->progress && (i & 4095) == 0)
			show(bn, ph->what, i, bn->nchunks, t.t0);
	}
	if (fsync(fd) < 0) {
		rc = -errno;
		goto fail;
	}
	if (close(fd) < 0)
		return sb_err_sys(err, -errno, "bonnie: close %s", bn->path);
	el = sb_bonnie_timer_stop(&t, &cpu);
	sb_bonnie_figure(bn, ph->figure, (double)bn->size / el / 1e6, "MB/s", el, cpu, lmax);
	return 0;
fail:
	close(fd);
	return sb_err_sys(err, rc, "bonnie: %s of %s", ph->what, bn->path);
}

static void param(struct json_object *p, const char *key, int64_t v)
{
	json_object_object_add(p, key, json_object_new_int64(v));
}

/* what bonnie++ writes in its CSV line: size, chunk, seeks and seekers
 * (none with -s 0), concurrency, seed, the file tests' count (x1024),
 * sizes and directories */
static void params(struct sb_bonnie *bn)
{
	const struct sb_bench_spec *b = bn->c->b;
	struct json_object *p = bn->c->params;

	if (!b->bonnie.no_io) {
		param(p, "file_size_bytes", (int64_t)bn->size);
		param(p, "chunk_bytes", (int64_t)bn->chunk);
		param(p, "seeks", bn->seeks);
		param(p, "seek_procs", bn->procs);
	}
	param(p, "concurrency", 1);
	param(p, "seed", (int64_t)(sb_clock_ns() % 4000000000ULL));
	param(p, "num_files", b->files);
	if (!b->files)
		return;
	/* -1 and -2: hard links and symlinks, as bonnie++'s "link" and "symlink" */
	param(p, "file_max_bytes", b->bonnie.file_max);
	param(p, "file_min_bytes", b->bonnie.file_min);
	param(p, "num_dirs", b->bonnie.dirs ? b->bonnie.dirs : 1);
	param(p, "file_chunk_bytes", (int64_t)(b->bonnie.file_chunk ? b->bonnie.file_chunk : 8192));
}

/* the file size: bonnie++ refuses files smaller than twice RAM; so is our
 * default, capped to what the filesystem holds (sizing.c) */
static int setup(struct sb_bonnie *bn, struct sb_suite_ctx *c, struct sb_err *err)
{
	char a[32], b[32];
	int rc;

	bn->c = c;
	bn->seeks = c->b->bonnie.seeks ? c->b->bonnie.seeks : SEEKS_TOTAL;
	bn->procs = c->b->bonnie.seek_procs ? c->b->bonnie.seek_procs : SEEK_PROCS;
	bn->chunk = c->b->chunk ? c->b->chunk : 8192;
	bn->sync = c->b->fsync;
	/* asked once, before the first phase: whether stderr is a terminal is an
	 * ioctl, and bonnie++ makes no call but its I/O from the data file's
	 * create to its last close (bonnie_syscalls) */
	bn->progress = sb_log_progress_enabled();
	if (c->b->bonnie.no_io)
		return 0;
	bn->size = sb_suite_size(c);
	bn->size -= bn->size % bn->chunk;
	bn->nchunks = bn->size / bn->chunk;
	if (bn->nchunks == 0)
		return sb_err_set(err, -EINVAL, "bonnie: bench.size is smaller than bench.chunk");
	if ((rc = sb_suite_check_room(c, bn->size, err)) < 0)
		return rc;
	if (bn->size < 2 * c->ram) {
		sb_size_format_human(bn->size, a, sizeof(a));
		sb_size_format_human(2 * c->ram, b, sizeof(b));
		sb_suite_note(c, "file %s < 2x RAM (%s): may be served from cache", a, b);
	}
	if (posix_memalign((void **)&bn->buf, 4096, bn->chunk))
		return sb_err_set(err, -ENOMEM, "out of memory");
	memset(bn->buf, 0, bn->chunk);
	snprintf(bn->path, sizeof(bn->path), "%s/Bonnie.%d", c->target, (int)getpid());
	return 0;
}

static int sb_suite_bonnie(struct sb_suite_ctx *c, struct sb_err *err)
{
	struct sb_bonnie bn = { 0 };
	int rc;
	size_t i;

	c->nphases = (c->b->files ? 2 : 0) + (c->b->bonnie.no_io ? 0 : 4);
	if ((rc = setup(&bn, c, err)) < 0)
		goto out;
	params(&bn);
	/* -s 0: bonnie++ skips its I/O tests (TestFileOps with no size) */
	for (i = 0; !c->b->bonnie.no_io && i < sizeof(block_phases) / sizeof(block_phases[0]) && rc == 0; i++)
		rc = block_pass(&bn, &block_phases[i], err);
	if (rc < 0 || (!c->b->bonnie.no_io && (rc = sb_bonnie_seeks(&bn, err)) < 0))
		goto out;
	if (bn.path[0])
		unlink(bn.path);
	if (c->b->files)
		rc = sb_bonnie_file_tests(&bn, err);
	else
		sb_suite_note(c, "file tests skipped (bench.files = 0)");
out:
	if (bn.path[0])
		unlink(bn.path);
	sb_progress_done();
	free(bn.buf);
	return rc;
}

/* Block output, rewrite (read + write), block input: the file four times;
 * the seeks (10% also write); files*1024 files created, stat()ed and
 * deleted, in name order then in random order. */
static double bonnie_estimate(double size, const struct sb_bench_spec *b, const struct sb_sizing_rates *r)
{
	double seeks = b->bonnie.seeks ? b->bonnie.seeks : SEEKS_TOTAL;

	return 4 * size / r->seq_bps + seeks * 1.1 / r->iops + (double)b->files * 1024 * 6 * r->fileop_s;
}

const struct sb_suite_ops sb_suite_bonnie_ops = {
	.name = "bonnie",
	.run = sb_suite_bonnie,
	.default_size = SB_SUITE_TWICE_RAM,
	.estimate = bonnie_estimate,
	.phases = 6,
	.columns = "write,rewrite,read",   /* the Helios4 write-up's */
};
