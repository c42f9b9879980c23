/* bonnie: bonnie++ 2.0's tests, with its definitions.
 * bench.fsync is bonnie++'s -b. What -b does in bonnie++ 2.00a, read off
 * strace (its man page says "fsync() after every write"): the data file is
 * fsync()ed when closed after block output, rewrite and by every seeker; a
 * seek's write-back is fsync()ed at once; every file created is fsync()ed
 * and so is its directory; every unlink is followed by an fsync of the
 * directory. We do exactly that, and count the fsyncs in the timings.
 * - block output: write the file in chunk-size write()s;
 * - rewrite: read a chunk, dirty it, lseek back, write it;
 * - block input: read the file in chunks;
 * - seeks: 8192 seeks in all, handed out like bonnie++'s tickets to 5
 *   threads (its SeekProcCount; the installed bonnie++ 2.00a reports
 *   "8192,5" in its CSV): lseek to a random chunk and read it; 10% of them
 *   are also dirtied and written back;
 * - file tests: files*1024 empty files in a directory tree (one directory
 *   per 1024 files), created / stat()ed / deleted in sequential (name)
 *   order, then in random order.
 * Each figure comes with CPU % = (user + system CPU time) / elapsed, as
 * bonnie++ prints it, and the data tests with their worst single-operation
 * latency. Differences from bonnie++: one file instead of 1 GiB pieces; the
 * page cache is dropped before rewrite, block input and seeks (issue 4:
 * before every read phase) unless STACKBENCH_NO_DROP_CACHES is set. */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/suites/suites.h"
#include "util/log.h"
#include "util/units.h"

#define SEEK_THREADS 5
#define SEEKS_TOTAL 8192
#define SEEK_UPDATE_PCT 10
#define FILES_PER_DIR 1024

struct btimer {
	uint64_t t0;
	double cpu0;
};

static double cpu_self(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void bt_start(struct btimer *t)
{
	t->cpu0 = cpu_self();
	t->t0 = sb_now_ns();
}

/* elapsed seconds; *cpu_pct = CPU time / elapsed * 100 */
static double bt_stop(const struct btimer *t, double *cpu_pct)
{
	double el = (double)(sb_now_ns() - t->t0) / 1e9;

	*cpu_pct = el > 0 ? (cpu_self() - t->cpu0) / el * 100.0 : 0;
	return el;
}

/* a small per-thread PRNG (xorshift64*) for seeks and names */
/* One clock read per operation (it ends one and starts the next): the
 * worst operation so far into *lmax, *prev moved to now. */
static inline void lmax_step(uint64_t *lmax, uint64_t *prev)
{
	uint64_t now = sb_now_ns();

	if (now - *prev > *lmax)
		*lmax = now - *prev;
	*prev = now;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

struct bonnie {
	struct sb_suite_ctx *c;
	char path[600];
	uint64_t size, chunk, nchunks;
	bool sync;
	char *buf;
};

static void show(struct bonnie *bn, const char *phase, uint64_t done, uint64_t total, uint64_t t0)
{
	uint64_t now = sb_now_ns();
	double rate = sb_mbps(done * bn->chunk, now - t0);
	double eta = done ? (double)(now - t0) / 1e9 * (double)(total - done) / (double)done : 0;
	double iops = now > t0 ? (double)done * 1e9 / (double)(now - t0) : 0;

	sb_progress("%s: %.1f MB/s, %.0f IOPS, %.0f%%, ETA %.0fs", phase, rate, iops,
		    total ? 100.0 * (double)done / (double)total : 0, eta);
}

static int full_write(int fd, const char *buf, size_t n)
{
	ssize_t w = write(fd, buf, n);

	if (w < 0)
		return -errno;
	return (size_t)w == n ? 0 : -EIO;
}

static int full_read(int fd, char *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	if (r < 0)
		return -errno;
	return (size_t)r == n ? 0 : -EIO;
}

static int block_output(struct bonnie *bn, struct sb_err *err)
{
	struct btimer t;
	uint64_t i, lmax = 0, seed = sb_now_ns() | 1;
	double el, cpu;
	int fd, rc = 0;

	for (i = 0; i < bn->chunk / 8; i++)
		((uint64_t *)bn->buf)[i] = rnd(&seed);
	sb_suite_phase(bn->c, NULL);
	bt_start(&t);
	fd = open(bn->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return sb_err_sys(err, -errno, "bonnie: create %s", bn->path);
	uint64_t prev = sb_now_ns();
	for (i = 0; i < bn->nchunks; i++) {


		((uint64_t *)bn->buf)[0] = i;      /* every chunk differs */
		((uint64_t *)bn->buf)[1] = rnd(&seed);
		if ((rc = full_write(fd, bn->buf, bn->chunk)) < 0) {
			sb_err_sys(err, rc, "bonnie: writing %s", bn->path);
			close(fd);
			return rc;
		}
		lmax_step(&lmax, &prev);
		if ((i & 4095) == 0)
			show(bn, "block output", i, bn->nchunks, t.t0);
	}
	if (bn->sync && fsync(fd) < 0) {
		rc = sb_err_sys(err, -errno, "bonnie: fsync %s", bn->path);
		close(fd);
		return rc;
	}
	if (close(fd) < 0)
		return sb_err_sys(err, -errno, "bonnie: close %s", bn->path);
	el = bt_stop(&t, &cpu);
	sb_suite_figure(bn->c, "block_output", (double)bn->size / el / 1e6, "MB/s", cpu, lmax);
	return 0;
}

static int rewrite(struct bonnie *bn, struct sb_err *err)
{
	struct btimer t;
	uint64_t i, lmax = 0;
	double el, cpu;
	int fd, rc = 0;

	sb_suite_drop_caches(bn->c);
	sb_suite_phase(bn->c, NULL);
	bt_start(&t);
	fd = open(bn->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "bonnie: open %s", bn->path);
	/* as bonnie++ 2.00a (strace): an lseek to 0 after the open */
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return sb_err_sys(err, -errno, "bonnie: lseek %s", bn->path);
	}
	uint64_t prev = sb_now_ns();
	for (i = 0; i < bn->nchunks; i++) {


		if ((rc = full_read(fd, bn->buf, bn->chunk)) < 0)
			goto fail;
		bn->buf[bn->chunk / 2]++;  /* dirty it */
		if (lseek(fd, -(off_t)bn->chunk, SEEK_CUR) < 0) {
			rc = -errno;
			goto fail;
		}
		if ((rc = full_write(fd, bn->buf, bn->chunk)) < 0)
			goto fail;
		lmax_step(&lmax, &prev);
		if ((i & 4095) == 0)
			show(bn, "rewrite", i, bn->nchunks, t.t0);
	}
	if (bn->sync && fsync(fd) < 0) {
		rc = -errno;
		goto fail;
	}
	close(fd);
	el = bt_stop(&t, &cpu);
	sb_suite_figure(bn->c, "rewrite", (double)bn->size / el / 1e6, "MB/s", cpu, lmax);
	return 0;
fail:
	close(fd);
	return sb_err_sys(err, rc, "bonnie: rewrite of %s", bn->path);
}

static int block_input(struct bonnie *bn, struct sb_err *err)
{
	struct btimer t;
	uint64_t i, lmax = 0;
	double el, cpu;
	int fd, rc;

	sb_suite_drop_caches(bn->c);
	sb_suite_phase(bn->c, NULL);
	bt_start(&t);
	fd = open(bn->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "bonnie: open %s", bn->path);
	/* as bonnie++ 2.00a (strace): an lseek to 0 after the open */
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return sb_err_sys(err, -errno, "bonnie: lseek %s", bn->path);
	}
	uint64_t prev = sb_now_ns();
	for (i = 0; i < bn->nchunks; i++) {


		if ((rc = full_read(fd, bn->buf, bn->chunk)) < 0) {
			close(fd);
			return sb_err_sys(err, rc, "bonnie: reading %s", bn->path);
		}
		lmax_step(&lmax, &prev);
		if ((i & 4095) == 0)
			show(bn, "block input", i, bn->nchunks, t.t0);
	}
	close(fd);
	el = bt_stop(&t, &cpu);
	sb_suite_figure(bn->c, "block_input", (double)bn->size / el / 1e6, "MB/s", cpu, lmax);
	return 0;
}

struct seeker {
	struct bonnie *bn;
	_Atomic int *tickets;
	pthread_t tid;
	uint64_t seed, lmax;
	int rc;
};

static void *seeker_main(void *arg)
{
	struct seeker *s = arg;
	struct bonnie *bn = s->bn;
	char *buf = NULL;
	int fd = -1;
	unsigned nseeks = 0;

	s->rc = -ENOMEM;
	if (posix_memalign((void **)&buf, 4096, bn->chunk))
		return NULL;
	fd = open(bn->path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		s->rc = -errno;
		goto out;
	}
	/* take a ticket per seek, as bonnie++'s children read them from a pipe */
	uint64_t prev = sb_now_ns();
	while (atomic_fetch_sub(s->tickets, 1) > 0) {
		off_t off = (off_t)((rnd(&s->seed) % bn->nchunks) * bn->chunk);

		if (lseek(fd, off, SEEK_SET) < 0 || (s->rc = full_read(fd, buf, bn->chunk)) < 0) {
			s->rc = s->rc < 0 ? s->rc : -errno;
			goto out;
		}
		/* bonnie++: the 1st, 11th, 21st... seek of each seeker updates */
		if (nseeks++ % (100 / SEEK_UPDATE_PCT) == 0) {
			buf[0]++;
			if (lseek(fd, off, SEEK_SET) < 0 || (s->rc = full_write(fd, buf, bn->chunk)) < 0 ||
			    (bn->sync && fsync(fd) < 0)) {
				s->rc = s->rc < 0 ? s->rc : -errno;
				goto out;
			}
		}
		lmax_step(&s->lmax, &prev);
	}
	if (bn->sync && fsync(fd) < 0) {
		s->rc = -errno;
		goto out;
	}
	s->rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static int seeks(struct bonnie *bn, struct sb_err *err)
{
	struct seeker s[SEEK_THREADS];
	_Atomic int tickets = SEEKS_TOTAL;
	struct btimer t;
	uint64_t lmax = 0;
	double el, cpu;
	int i, n = 0, rc = 0;

	sb_suite_drop_caches(bn->c);
	sb_suite_phase(bn->c, NULL);
	sb_progress("seeks: %d seeks by %d threads", SEEKS_TOTAL, SEEK_THREADS);
	bt_start(&t);
	for (i = 0; i < SEEK_THREADS; i++) {
		s[i] = (struct seeker){ .bn = bn, .tickets = &tickets, .seed = sb_now_ns() * (i + 7) | 1 };
		if (pthread_create(&s[i].tid, NULL, seeker_main, &s[i])) {
			rc = sb_err_set(err, -EAGAIN, "bonnie: cannot start seek threads");
			break;
		}
		n++;
	}
	for (i = 0; i < n; i++) {
		pthread_join(s[i].tid, NULL);
		if (s[i].rc < 0 && rc == 0)
			rc = sb_err_sys(err, s[i].rc, "bonnie: seeks on %s", bn->path);
		if (s[i].lmax > lmax)
			lmax = s[i].lmax;
	}
	if (rc < 0)
		return rc;
	el = bt_stop(&t, &cpu);
	sb_suite_figure(bn->c, "seeks", SEEKS_TOTAL / el, "/s", cpu, lmax);
	return 0;
}

/* ---- file creation tests ---- */

struct ftest {
	struct bonnie *bn;
	char dir[600];
	unsigned n, ndirs;
	int *dirfd;                   /* one per directory, for bonnie++ -b's directory fsyncs */
	char (*names)[32];            /* names[i]: "NNNNN/name" relative to dir */
};

static void shuffle(unsigned *a, unsigned n, uint64_t *seed)
{
	for (unsigned i = n - 1; i > 0; i--) {
		unsigned k = (unsigned)(rnd(seed) % (i + 1)), t = a[i];

		a[i] = a[k];
		a[k] = t;
	}
}

/* fsync the directory file i lives in (bonnie++ -b) */
static int fsync_dir_of(struct ftest *f, unsigned i)
{
	return fsync(f->dirfd[strtoul(f->names[i], NULL, 10)]);
}

static int create_files(struct ftest *f, const unsigned *order, const char *fig, struct sb_err *err)
{
	struct btimer t;
	double el, cpu;
	char p[700];

	uint64_t lmax = 0;

	bt_start(&t);
	uint64_t prev = sb_now_ns();
	for (unsigned i = 0; i < f->n; i++) {
		int fd;

		snprintf(p, sizeof(p), "%s/%s", f->dir, f->names[order[i]]);
		fd = open(p, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			return sb_err_sys(err, -errno, "bonnie: create %s", p);
		if (f->bn->sync && (fsync(fd) < 0 || fsync_dir_of(f, order[i]) < 0)) {
			int e = -errno;

			close(fd);
			return sb_err_sys(err, e, "bonnie: fsync %s", p);
		}
		close(fd);
		lmax_step(&lmax, &prev);
	}
	el = bt_stop(&t, &cpu);
	/* with its worst single operation, as bonnie++'s latency row */
	sb_suite_figure(f->bn->c, fig, f->n / el, "/s", cpu, lmax);
	return 0;
}

/* sequential: walk each directory with readdir and stat/unlink in that order */
static int walk_files(struct ftest *f, bool del, const char *fig, struct sb_err *err)
{
	struct btimer t;
	double el, cpu;
	unsigned done = 0;
	char p[1000], dp[640];
	uint64_t lmax = 0;

	bt_start(&t);
	uint64_t prev = sb_now_ns();
	for (unsigned d = 0; d < f->ndirs; d++) {
		DIR *dh;
		struct dirent *e;

		snprintf(dp, sizeof(dp), "%s/%05u", f->dir, d);
		dh = opendir(dp);
		if (!dh)
			return sb_err_sys(err, -errno, "bonnie: opendir %s", dp);
		while ((e = readdir(dh))) {
			struct stat st;

			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", dp, e->d_name);
			if ((del ? unlink(p) : stat(p, &st)) < 0 ||
			    (del && f->bn->sync && fsync(f->dirfd[d]) < 0)) {
				int er = -errno;

				closedir(dh);
				return sb_err_sys(err, er, "bonnie: %s %s", del ? "unlink" : "stat", p);
			}
			done++;
			lmax_step(&lmax, &prev);
		}
		closedir(dh);
	}
	el = bt_stop(&t, &cpu);
	if (done != f->n)
		return sb_err_set(err, -EIO, "bonnie: found %u files of %u in %s", done, f->n, f->dir);
	sb_suite_figure(f->bn->c, fig, f->n / el, "/s", cpu, lmax);
	return 0;
}

static int random_files(struct ftest *f, const unsigned *order, bool del, const char *fig,
			struct sb_err *err)
{
	struct btimer t;
	double el, cpu;
	char p[700];
	uint64_t lmax = 0;

	bt_start(&t);
	uint64_t prev = sb_now_ns();
	for (unsigned i = 0; i < f->n; i++) {
		struct stat st;

		snprintf(p, sizeof(p), "%s/%s", f->dir, f->names[order[i]]);
		if ((del ? unlink(p) : stat(p, &st)) < 0 ||
		    (del && f->bn->sync && fsync_dir_of(f, order[i]) < 0))
			return sb_err_sys(err, -errno, "bonnie: %s %s", del ? "unlink" : "stat", p);
		lmax_step(&lmax, &prev);
	}
	el = bt_stop(&t, &cpu);
	sb_suite_figure(f->bn->c, fig, f->n / el, "/s", cpu, lmax);
	return 0;
}

static void rm_tree(struct ftest *f)
{
	char p[700];

	for (unsigned i = 0; i < f->n; i++) {
		snprintf(p, sizeof(p), "%s/%s", f->dir, f->names[i]);
		unlink(p);
	}
	for (unsigned d = 0; d < f->ndirs; d++) {
		if (f->dirfd && f->dirfd[d] >= 0)
			close(f->dirfd[d]);
		snprintf(p, sizeof(p), "%s/%05u", f->dir, d);
		rmdir(p);
	}
	rmdir(f->dir);
}

static int file_tests(struct bonnie *bn, struct sb_err *err)
{
	static const char an[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	struct ftest f = { .bn = bn };
	unsigned *order = NULL;
	uint64_t seed = sb_now_ns() | 1;
	char p[700];
	int rc = 0;

	f.n = bn->c->b->files * 1024;
	f.ndirs = (f.n + FILES_PER_DIR - 1) / FILES_PER_DIR;
	snprintf(f.dir, sizeof(f.dir), "%s/Bonnie.%d.files", bn->c->target, (int)getpid());
	f.names = calloc(f.n, sizeof(*f.names));
	order = calloc(f.n, sizeof(*order));
	f.dirfd = malloc(f.ndirs * sizeof(*f.dirfd));
	if (f.dirfd)
		for (unsigned d = 0; d < f.ndirs; d++)
			f.dirfd[d] = -1;
	if (!f.names || !order || !f.dirfd) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (mkdir(f.dir, 0700) < 0) {
		rc = sb_err_sys(err, -errno, "bonnie: mkdir %s", f.dir);
		goto out;
	}
	for (unsigned d = 0; d < f.ndirs; d++) {
		snprintf(p, sizeof(p), "%s/%05u", f.dir, d);
		if (mkdir(p, 0700) < 0 || (f.dirfd[d] = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			rc = sb_err_sys(err, -errno, "bonnie: mkdir %s", p);
			goto out_rm;
		}
	}
	/* sequential: names sort in creation order (number first, as bonnie++) */
	for (unsigned i = 0; i < f.n; i++) {
		int k = snprintf(f.names[i], sizeof(f.names[i]), "%05u/%010u", i / FILES_PER_DIR, i);

		for (; k < 22; k++)
			f.names[i][k] = an[rnd(&seed) % (sizeof(an) - 1)];
		f.names[i][k] = 0;
		order[i] = i;
	}
	sb_suite_phase(bn->c, NULL);
	sb_progress("files: create/stat/delete of %u files in name order", f.n);
	if ((rc = create_files(&f, order, "seq_create", err)) < 0 ||
	    (rc = walk_files(&f, false, "seq_stat", err)) < 0 ||
	    (rc = walk_files(&f, true, "seq_delete", err)) < 0)
		goto out_rm;
	/* random: random names (letters first), created, stat()ed and deleted in random orders */
	for (unsigned i = 0; i < f.n; i++) {
		int k = snprintf(f.names[i], sizeof(f.names[i]), "%05u/", i % f.ndirs);

		for (; k < 18; k++)
			f.names[i][k] = an[rnd(&seed) % (sizeof(an) - 1)];
		snprintf(f.names[i] + k, sizeof(f.names[i]) - k, "%07u", i);
	}
	sb_suite_phase(bn->c, NULL);
	sb_progress("files: create/stat/delete of %u files in random order", f.n);
	shuffle(order, f.n, &seed);
	if ((rc = create_files(&f, order, "ran_create", err)) < 0)
		goto out_rm;
	shuffle(order, f.n, &seed);
	if ((rc = random_files(&f, order, false, "ran_stat", err)) < 0)
		goto out_rm;
	shuffle(order, f.n, &seed);
	rc = random_files(&f, order, true, "ran_delete", err);
out_rm:
	rm_tree(&f);
out:
	free(f.names);
	free(f.dirfd);
	free(order);
	return rc;
}

int sb_suite_bonnie(struct sb_suite_ctx *c, struct sb_err *err)
{
	struct bonnie bn = { .c = c };
	char a[32], b[32];
	int rc;

	bn.chunk = c->b->chunk ? c->b->chunk : 8192;
	c->nphases = c->b->files ? 6 : 4;
	/* bonnie++ refuses files smaller than twice RAM; so is our default,
	 * capped to what the filesystem holds (sizing.c) */
	bn.size = sb_suite_size(c);
	bn.size -= bn.size % bn.chunk;
	bn.nchunks = bn.size / bn.chunk;
	bn.sync = c->b->fsync;
	if (bn.nchunks == 0)
		return sb_err_set(err, -EINVAL, "bonnie: bench.size is smaller than bench.chunk");
	if ((rc = sb_suite_check_room(c, bn.size, err)) < 0)
		return rc;
	if (bn.size < 2 * c->ram) {
		sb_size_format_human(bn.size, a, sizeof(a));
		sb_size_format_human(2 * c->ram, b, sizeof(b));
		sb_suite_note(c, "file %s < 2x RAM (%s): may be served from cache", a, b);
	}
	if (posix_memalign((void **)&bn.buf, 4096, bn.chunk))
		return sb_err_set(err, -ENOMEM, "out of memory");
	snprintf(bn.path, sizeof(bn.path), "%s/Bonnie.%d", c->target, (int)getpid());
	/* what bonnie++ writes in its CSV line: size, chunk, seeks and seekers,
	 * concurrency, seed, file count (x1024) */
	json_object_object_add(c->params, "file_size_bytes", json_object_new_int64((int64_t)bn.size));
	json_object_object_add(c->params, "chunk_bytes", json_object_new_int64((int64_t)bn.chunk));
	json_object_object_add(c->params, "seeks", json_object_new_int(SEEKS_TOTAL));
	json_object_object_add(c->params, "seek_procs", json_object_new_int(SEEK_THREADS));
	json_object_object_add(c->params, "concurrency", json_object_new_int(1));
	json_object_object_add(c->params, "seed", json_object_new_int64((int64_t)(sb_now_ns() % 4000000000ULL)));
	json_object_object_add(c->params, "num_files", json_object_new_int((int)c->b->files));
	if ((rc = block_output(&bn, err)) < 0 || (rc = rewrite(&bn, err)) < 0 ||
	    (rc = block_input(&bn, err)) < 0 || (rc = seeks(&bn, err)) < 0)
		goto out;
	unlink(bn.path);
	if (c->b->files)
		rc = file_tests(&bn, err);
	else
		sb_suite_note(c, "file tests skipped (bench.files = 0)");
out:
	unlink(bn.path);
	sb_progress_done();
	free(bn.buf);
	return rc;
}
