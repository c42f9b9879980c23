/* bonnie's file tests, as bonnie++ 2.00a's COpenTest (bon_file.cpp) does
 * them with -n NUMBER (empty files, one directory - its defaults):
 * - names: a 10-digit hex number and 0..12 random characters after it
 *   (sequential: names sort in creation order) or before it (random);
 * - create: open(O_CREAT|O_EXCL|O_WRONLY), with -b fsync the file and the
 *   directory, close; in index order both times (the random test's names
 *   scatter it in the directory); then sync(), inside the timing;
 * - stat: sequential walks the directory with readdir and stat()s each
 *   entry; random stat()s in a shuffled order;
 * - delete: sequential unlinks in readdir order, random in a shuffled
 *   order, each with -b followed by an fsync of the directory; the
 *   directory is removed and sync() called, inside the timing.
 * Names are looked up relative to the directory (bonnie++ chdir()s into
 * it; we use the *at() calls, which resolve the same one component). The
 * shuffles happen before the clock starts, as bonnie++'s random_sort.
 * files/s = files / elapsed. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/suites/bonnie.h"
#include "util/log.h"

#define RAND_EXTRA 12                 /* bonnie++'s RandExtraLen */
#define NAME_MAX_LEN (10 + RAND_EXTRA)

struct ftest {
	struct sb_bonnie *bn;
	char dir[700];
	unsigned n;
	int dfd;                      /* the test directory */
	char (*names)[NAME_MAX_LEN + 1];
	uint64_t seed;
};

struct fclock {
	struct sb_bonnie_timer t;
	uint64_t lmax, prev;
};

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
		char extra[RAND_EXTRA + 1];
		unsigned len = (unsigned)(sb_bonnie_rnd(&f->seed) % (RAND_EXTRA + 1)), j;

		for (j = 0; j < len; j++)
			extra[j] = rc[sb_bonnie_rnd(&f->seed) % (sizeof(rc) - 1)];
		extra[j] = '\0';
		if (random)
			snprintf(f->names[i], sizeof(f->names[i]), "%s%010x", extra, i);
		else
			snprintf(f->names[i], sizeof(f->names[i]), "%010x%s", i, extra);
	}
}

static void shuffle(struct ftest *f)
{
	char t[NAME_MAX_LEN + 1];

	for (unsigned i = f->n - 1; i > 0; i--) {
		unsigned k = (unsigned)(sb_bonnie_rnd(&f->seed) % (i + 1));

		memcpy(t, f->names[i], sizeof(t));
		memcpy(f->names[i], f->names[k], sizeof(t));
		memcpy(f->names[k], t, sizeof(t));
	}
}

static int make_dir(struct ftest *f, struct sb_err *err)
{
	if (mkdir(f->dir, 0700) < 0)
		return sb_err_sys(err, -errno, "bonnie: mkdir %s", f->dir);
	if ((f->dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		int rc = -errno;

		rmdir(f->dir);
		return sb_err_sys(err, rc, "bonnie: open %s", f->dir);
	}
	return 0;
}

/* the directory is empty: close and remove it, then sync() (in the timing) */
static int remove_dir(struct ftest *f, struct sb_err *err)
{
	close(f->dfd);
	f->dfd = -1;
	if (rmdir(f->dir) < 0)
		return sb_err_sys(err, -errno, "bonnie: rmdir %s", f->dir);
	sync();
	return 0;
}

static int create_files(struct ftest *f, const char *fig, struct sb_err *err)
{
	struct fclock k;

	fc_start(&k);
	for (unsigned i = 0; i < f->n; i++) {
		int fd = openat(f->dfd, f->names[i], O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);

		if (fd < 0)
			return sb_err_sys(err, -errno, "bonnie: create %s/%s", f->dir, f->names[i]);
		if (f->bn->sync && (fsync(fd) < 0 || fsync(f->dfd) < 0)) {
			int e = -errno;

			close(fd);
			return sb_err_sys(err, e, "bonnie: fsync %s/%s", f->dir, f->names[i]);
		}
		close(fd);
		sb_bonnie_lmax_step(&k.lmax, &k.prev);
	}
	sync();
	fc_figure(f, &k, fig);
	return 0;
}

static int stat_or_delete(struct ftest *f, const char *name, bool del, struct sb_err *err)
{
	struct stat st;

	if ((del ? unlinkat(f->dfd, name, 0) : fstatat(f->dfd, name, &st, 0)) < 0 ||
	    (del && f->bn->sync && fsync(f->dfd) < 0))
		return sb_err_sys(err, -errno, "bonnie: %s %s/%s", del ? "unlink" : "stat", f->dir, name);
	return 0;
}

/* sequential: readdir order, as bonnie++'s opendir(".") walk */
static int walk_files(struct ftest *f, bool del, const char *fig, struct sb_err *err)
{
	struct fclock k;
	struct dirent *e;
	unsigned done = 0;
	int rc = 0, fd;
	DIR *dh;

	fc_start(&k);
	fd = openat(f->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(dh = fdopendir(fd))) {
		rc = sb_err_sys(err, -errno, "bonnie: opendir %s", f->dir);
		if (fd >= 0)
			close(fd);
		return rc;
	}
	while (rc == 0 && (e = readdir(dh))) {
		if (e->d_name[0] == '.')
			continue;
		if ((rc = stat_or_delete(f, e->d_name, del, err)) == 0)
			done++;
		sb_bonnie_lmax_step(&k.lmax, &k.prev);
	}
	closedir(dh);
	if (rc < 0)
		return rc;
	if (done != f->n)
		return sb_err_set(err, -EIO, "bonnie: found %u files of %u in %s", done, f->n, f->dir);
	if (del && (rc = remove_dir(f, err)) < 0)
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
		if ((rc = stat_or_delete(f, f->names[i], del, err)) < 0)
			return rc;
		sb_bonnie_lmax_step(&k.lmax, &k.prev);
	}
	if (del && (rc = remove_dir(f, err)) < 0)
		return rc;
	fc_figure(f, &k, fig);
	return 0;
}

/* after a failure: whatever is left of the tree */
static void cleanup(struct ftest *f)
{
	if (f->dfd < 0)
		return;
	for (unsigned i = 0; i < f->n; i++)
		unlinkat(f->dfd, f->names[i], 0);
	close(f->dfd);
	rmdir(f->dir);
}

static int one_round(struct ftest *f, bool random, struct sb_err *err)
{
	int rc;

	make_names(f, random);
	sb_suite_phase(f->bn->c, NULL);
	sb_progress("files: create/stat/delete of %u files in %s order", f->n, random ? "random" : "name");
	if ((rc = make_dir(f, err)) < 0 ||
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
	struct ftest f = { .bn = bn, .dfd = -1, .seed = sb_now_ns() | 1 };
	int rc;

	f.n = bn->c->b->files * 1024;
	snprintf(f.dir, sizeof(f.dir), "%s/Bonnie.%d.files", bn->c->target, (int)getpid());
	if (!(f.names = calloc(f.n, sizeof(*f.names))))
		return sb_err_set(err, -ENOMEM, "out of memory");
	if ((rc = one_round(&f, false, err)) == 0)
		rc = one_round(&f, true, err);
	if (rc < 0)
		cleanup(&f);
	free(f.names);
	return rc;
}
