/* bonnie's file tests, as bonnie++ 2.00a's COpenTest (bon_file.cpp) does
 * them with -n NUMBER[:MAX[:MIN][:DIRS[:CHUNK]]]:
 * - names: a 10-digit hex number and 0..12 random characters after it
 *   (sequential: names sort in creation order) or before it (random);
 *   with DIRS > 1 each name is "%05d/NAME", the files handed out in index
 *   order, n / DIRS + 1 to a directory (bonnie++'s count: the last one
 *   gets fewer, some none) - sb_bonnie_dir_of;
 * - create: open(O_CREAT|O_EXCL|O_WRONLY), MAX bytes written in CHUNK
 *   pieces (MIN..MAX at random when MIN differs), with -b fsync the file
 *   and its directory, close; in index order both times (the random test's
 *   names scatter it in the directory); then sync(), inside the timing.
 *   MAX -1 / -2: the first file is created empty, every other one is a
 *   hard link to it / a symlink to its name;
 * - stat: sequential walks each directory with readdir and stat()s each
 *   entry, reading a non-empty file back in CHUNK pieces; random does so
 *   in a shuffled order, by the path from the top directory;
 * - delete: sequential unlinks in readdir order, random in a shuffled
 *   order, each with -b followed by an fsync of its directory; the
 *   directories are removed and sync() called, inside the timing.
 * Names are looked up relative to the directory (bonnie++ chdir()s into
 * it; we use the *at() calls, which resolve the same components). The
 * subdirectories are made, and with -b opened, before the create clock
 * starts; the shuffles happen before the clock starts, as bonnie++'s
 * random_sort. files/s = files / elapsed. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/engine.h"
#include "util/clock.h"
#include "bench/suites/bonnie.h"
#include "util/log.h"

#define RAND_EXTRA 12                 /* bonnie++'s RandExtraLen */
#define NAME_MAX_LEN (6 + 10 + RAND_EXTRA)

struct fname {
	char s[NAME_MAX_LEN + 1];     /* from the top directory */
	unsigned dir;
};

struct ftest {
	struct sb_bonnie *bn;
	char dir[700];
	unsigned n, ndirs;
	int64_t max, min;             /* bytes; max < 0: links */
	size_t fchunk;
	int dfd;                      /* the test directory */
	int *subfd;                   /* with -b: each file directory, for fsync */
	bool made;                    /* the tree exists (for cleanup) */
	struct fname *names;
	char *data;
	uint64_t seed;
};

struct fclock {
	struct sb_bonnie_timer t;
	uint64_t lmax, prev;
};

unsigned sb_bonnie_dir_of(unsigned i, unsigned n, unsigned dirs)
{
	return dirs > 1 ? i / (n / dirs + 1) : 0;
}

static void fc_start(struct fclock *k)
{
	sb_bonnie_timer_start(&k->t);
	k->lmax = 0;
	k->prev = k->t.t0;
}

static void fc_figure(struct ftest *f, struct fclock *k, const char *fig)
{
	double cpu, el = sb_bonnie_timer_stop(&k->t, &cpu);

	sb_bonnie_figure(f->bn, fig, el > 0 ? f->n / el : 0, "/s", el, cpu, k->lmax);
}

static void make_names(struct ftest *f, bool random)
{
	static const char rc[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

	for (unsigned i = 0; i < f->n; i++) {
		char extra[RAND_EXTRA + 1], sub[8] = "";
		unsigned len = (unsigned)(sb_bonnie_rnd(&f->seed) % (RAND_EXTRA + 1)), j;

		for (j = 0; j < len; j++)
			extra[j] = rc[sb_bonnie_rnd(&f->seed) % (sizeof(rc) - 1)];
		extra[j] = '\0';
		f->names[i].dir = sb_bonnie_dir_of(i, f->n, f->ndirs);
		if (f->ndirs > 1)
			snprintf(sub, sizeof(sub), "%05u/", f->names[i].dir);
		if (random)
			snprintf(f->names[i].s, sizeof(f->names[i].s), "%s%s%010x", sub, extra, i);
		else
			snprintf(f->names[i].s, sizeof(f->names[i].s), "%s%010x%s", sub, i, extra);
	}
}

static void shuffle(struct ftest *f)
{
	struct fname t;

	for (unsigned i = f->n - 1; i > 0; i--) {
		unsigned k = (unsigned)(sb_bonnie_rnd(&f->seed) % (i + 1));

		t = f->names[i];
		f->names[i] = f->names[k];
		f->names[k] = t;
	}
}

static void close_subfds(struct ftest *f)
{
	for (unsigned d = 0; f->subfd && d < f->ndirs; d++) {
		if (f->subfd[d] >= 0 && f->subfd[d] != f->dfd)
			close(f->subfd[d]);
		f->subfd[d] = -1;
	}
}

/* the top directory, its subdirectories, and with -b their handles */
static int make_dirs(struct ftest *f, struct sb_err *err)
{
	char sub[12];

	if (mkdir(f->dir, 0700) < 0)
		return sb_err_sys(err, -errno, "bonnie: mkdir %s", f->dir);
	f->made = true;
	if ((f->dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return sb_err_sys(err, -errno, "bonnie: open %s", f->dir);
	for (unsigned d = 0; f->ndirs > 1 && d < f->ndirs; d++) {
		snprintf(sub, sizeof(sub), "%05u", d);
		if (mkdirat(f->dfd, sub, 0700) < 0)
			return sb_err_sys(err, -errno, "bonnie: mkdir %s/%s", f->dir, sub);
	}
	for (unsigned d = 0; f->subfd && d < f->ndirs; d++) {
		snprintf(sub, sizeof(sub), "%05u", d);
		f->subfd[d] = f->ndirs > 1 ? openat(f->dfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : f->dfd;
		if (f->subfd[d] < 0)
			return sb_err_sys(err, -errno, "bonnie: open %s/%s", f->dir, sub);
	}
	return 0;
}

/* the tree is empty: the subdirectories, then the top one, then sync()
 * (in the timing) */
static int remove_dirs(struct ftest *f, struct sb_err *err)
{
	char sub[12];

	close_subfds(f);
	for (unsigned d = 0; f->ndirs > 1 && d < f->ndirs; d++) {
		snprintf(sub, sizeof(sub), "%05u", d);
		if (unlinkat(f->dfd, sub, AT_REMOVEDIR) < 0 && errno != ENOENT)
			return sb_err_sys(err, -errno, "bonnie: rmdir %s/%s", f->dir, sub);
	}
	close(f->dfd);
	f->dfd = -1;
	if (rmdir(f->dir) < 0)
		return sb_err_sys(err, -errno, "bonnie: rmdir %s", f->dir);
	f->made = false;
	sync();
	return 0;
}

static int fsync_dir(struct ftest *f, unsigned dir)
{
	return f->subfd && fsync(f->subfd[dir]) < 0 ? -errno : 0;
}

/* one file of MIN..MAX bytes, or with MAX < 0 a link to the first one */
static int create_one(struct ftest *f, unsigned i)
{
	const struct fname *nm = &f->names[i];
	int64_t size = f->max, left;
	int fd, rc = 0;

	if (sb_bonnie_stopped(f->bn))
		return -EINTR;
	if (f->max < 0 && i > 0) {
		const char *base = strchr(f->names[0].s, '/');

		if (f->max == -1 ? linkat(f->dfd, f->names[0].s, f->dfd, nm->s, 0) :
		    symlinkat(base ? base + 1 : f->names[0].s, f->dfd, nm->s))
			return -errno;
		return fsync_dir(f, nm->dir);
	}
	if (f->max < 0)
		size = 0;
	else if (f->max > f->min)
		size = f->min + (int64_t)(sb_bonnie_rnd(&f->seed) % (uint64_t)(f->max - f->min + 1));
	if ((fd = openat(f->dfd, nm->s, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600)) < 0)
		return -errno;
	for (left = size; left > 0 && rc == 0; left -= (int64_t)f->fchunk) {
		size_t n = left < (int64_t)f->fchunk ? (size_t)left : f->fchunk;
		ssize_t w = write(fd, f->data, n);

		rc = w < 0 ? -errno : (size_t)w != n ? -EIO : 0;
	}
	if (rc == 0 && f->bn->sync && fsync(fd) < 0)
		rc = -errno;
	if (rc == 0 && f->bn->sync)
		rc = fsync_dir(f, nm->dir);
	close(fd);
	return rc;
}

static int create_files(struct ftest *f, const char *fig, struct sb_err *err)
{
	struct fclock k;
	int rc;

	fc_start(&k);
	for (unsigned i = 0; i < f->n; i++) {
		if ((rc = create_one(f, i)) < 0)
			return sb_err_sys(err, rc, "bonnie: create %s/%s", f->dir, f->names[i].s);
		sb_bonnie_lmax_step(&k.lmax, &k.prev);
	}
	sync();
	fc_figure(f, &k, fig);
	return 0;
}

/* bonnie++'s stat_file: stat(), and a file with data is read back */
static int stat_one(struct ftest *f, int at, const char *name)
{
	struct stat st;
	int fd, rc = 0;

	if (fstatat(at, name, &st, 0) < 0)
		return -errno;
	if (!st.st_size)
		return 0;
	if ((fd = openat(at, name, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	/* st_size bytes in CHUNK pieces, no read past the end (as bonnie++) */
	for (off_t i = 0; i < st.st_size && rc == 0; i += (off_t)f->fchunk) {
		size_t n = st.st_size - i < (off_t)f->fchunk ? (size_t)(st.st_size - i) : f->fchunk;
		ssize_t r = read(fd, f->data, n);

		rc = r < 0 ? -errno : (size_t)r != n ? -EIO : 0;
	}
	close(fd);
	return rc;
}

static int stat_or_delete(struct ftest *f, int at, const char *name, unsigned dir, bool del)
{
	if (sb_bonnie_stopped(f->bn))
		return -EINTR;
	if (!del)
		return stat_one(f, at, name);
	if (unlinkat(at, name, 0) < 0)
		return -errno;
	return f->bn->sync ? fsync_dir(f, dir) : 0;
}

/* sequential: each directory in readdir order, as bonnie++'s opendir(".") walk */
static int walk_dir(struct ftest *f, unsigned d, bool del, struct fclock *k, unsigned *done,
		    struct sb_err *err)
{
	char sub[12] = ".";
	struct dirent *e;
	int rc = 0, fd, at;
	DIR *dh;

	if (f->ndirs > 1)
		snprintf(sub, sizeof(sub), "%05u", d);
	fd = openat(f->dfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(dh = fdopendir(fd))) {
		rc = sb_err_sys(err, -errno, "bonnie: opendir %s/%s", f->dir, sub);
		if (fd >= 0)
			close(fd);
		return rc;
	}
	at = dirfd(dh);
	while (rc == 0 && (e = readdir(dh))) {
		if (e->d_name[0] == '.')
			continue;
		if ((rc = stat_or_delete(f, at, e->d_name, d, del)) < 0)
			rc = sb_err_sys(err, rc, "bonnie: %s %s/%s/%s", del ? "unlink" : "stat", f->dir, sub,
					e->d_name);
		else
			(*done)++;
		sb_bonnie_lmax_step(&k->lmax, &k->prev);
	}
	closedir(dh);
	return rc;
}

static int walk_files(struct ftest *f, bool del, const char *fig, struct sb_err *err)
{
	struct fclock k;
	unsigned done = 0;
	int rc;

	fc_start(&k);
	for (unsigned d = 0; d < f->ndirs; d++)
		if ((rc = walk_dir(f, d, del, &k, &done, err)) < 0)
			return rc;
	if (done != f->n)
		return sb_err_set(err, -EIO, "bonnie: found %u files of %u in %s", done, f->n, f->dir);
	if (del && (rc = remove_dirs(f, err)) < 0)
		return rc;
	fc_figure(f, &k, fig);
	return 0;
}

static int random_files(struct ftest *f, bool del, const char *fig, struct sb_err *err)
{
	struct fclock k;
	int rc;

	shuffle(f);
	fc_start(&k);
	for (unsigned i = 0; i < f->n; i++) {
		if ((rc = stat_or_delete(f, f->dfd, f->names[i].s, f->names[i].dir, del)) < 0)
			return sb_err_sys(err, rc, "bonnie: %s %s/%s", del ? "unlink" : "stat", f->dir,
					  f->names[i].s);
		sb_bonnie_lmax_step(&k.lmax, &k.prev);
	}
	if (del && (rc = remove_dirs(f, err)) < 0)
		return rc;
	fc_figure(f, &k, fig);
	return 0;
}

/* after a failure: whatever is left of the tree */
static void cleanup(struct ftest *f)
{
	char sub[12];

	close_subfds(f);
	if (f->made && f->dfd < 0)
		f->dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (f->dfd >= 0) {
		for (unsigned i = 0; i < f->n; i++)
			unlinkat(f->dfd, f->names[i].s, 0);
		for (unsigned d = 0; f->ndirs > 1 && d < f->ndirs; d++) {
			snprintf(sub, sizeof(sub), "%05u", d);
			unlinkat(f->dfd, sub, AT_REMOVEDIR);
		}
		close(f->dfd);
		f->dfd = -1;
	}
	if (f->made)
		rmdir(f->dir);
	f->made = false;
}

static int one_round(struct ftest *f, bool random, struct sb_err *err)
{
	int rc;

	make_names(f, random);
	sb_suite_phase(f->bn->c, NULL);
	sb_progress("files: create/stat/delete of %u files in %s order", f->n, random ? "random" : "name");
	if ((rc = make_dirs(f, err)) < 0 ||
	    (rc = create_files(f, random ? "ran_create" : "seq_create", err)) < 0)
		return rc;
	if (random)
		return (rc = random_files(f, false, "ran_stat", err)) < 0 ? rc :
		       random_files(f, true, "ran_delete", err);
	if ((rc = walk_files(f, false, "seq_stat", err)) < 0)
		return rc;
	return walk_files(f, true, "seq_delete", err);
}

int sb_bonnie_file_tests(struct sb_bonnie *bn, struct sb_err *err)
{
	const struct sb_bench_spec *b = bn->c->b;
	struct ftest f = { .bn = bn, .dfd = -1, .seed = sb_clock_ns() | 1 };
	int rc = -ENOMEM;

	f.n = b->files * 1024;
	f.ndirs = b->bonnie.dirs > 1 ? b->bonnie.dirs : 1;
	f.max = b->bonnie.file_max;
	f.min = b->bonnie.file_min;
	f.fchunk = b->bonnie.file_chunk ? (size_t)b->bonnie.file_chunk : 8192;
	snprintf(f.dir, sizeof(f.dir), "%s/Bonnie.%d.files", bn->c->target, (int)getpid());
	f.names = calloc(f.n, sizeof(*f.names));
	f.data = calloc(1, f.fchunk);
	if (bn->sync && (f.subfd = malloc(f.ndirs * sizeof(*f.subfd))))
		memset(f.subfd, 0xff, f.ndirs * sizeof(*f.subfd));
	if (!f.names || !f.data || (bn->sync && !f.subfd)) {
		sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = one_round(&f, false, err)) == 0)
		rc = one_round(&f, true, err);
out:
	if (rc < 0)
		cleanup(&f);
	free(f.subfd);
	free(f.data);
	free(f.names);
	return rc;
}
