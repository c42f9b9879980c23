/* fio's file engines (engines/fileoperations.c): no data moves; the work
 * is done when a file of the job's set (bench/fileset.c) is opened, and
 * its time is the io's completion latency (fio's FIO_NOSTATS: the ios
 * themselves are counted, bytes and all, but give no latency):
 *  - filecreate: open(O_CREAT | O_RDWR, 0600) (the file is made then; no
 *    layout: fio's FIO_DISKLESSIO), closed when its io is done;
 *  - filestat: stat, lstat or statx (stat_type) of the file;
 *  - filedelete: unlink of the file.
 * filestat's and filedelete's files are laid out before the job as fio's
 * setup_files/extend_file does it: stat each, then for each one shorter
 * than its io_size: unlink, open(O_WRONLY | O_CREAT | O_TRUNC), fallocate,
 * ftruncate and write() it whole (a read job; a write job only creates it). */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bench/engine_int.h"
#include "bench/fileset.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/units.h"

struct fops {
	struct sb_fileset fs;
	struct worker *w;
	int dir;                  /* fio's stat_ddir: read unless the job only writes */
};

static bool reads(const struct sb_job_opts *o)
{
	return o->rw != SB_RW_WRITE && o->rw != SB_RW_RANDWRITE;
}

static int op_file(void *arg, struct sb_fsfile *f)
{
	struct fops *d = arg;
	const struct sb_job_opts *o = d->w->o;
	uint64_t t0 = sb_clock_ns();
	struct statx sx;
	struct stat st;
	int rc = 0;

	snprintf(d->w->path, sizeof(d->w->path), "%s", f->name); /* a failure names the file */
	switch (o->ioengine) {
	case SB_IOENGINE_FILECREATE:
		f->fd = open(f->name, O_CREAT | O_RDWR, 0600);
		rc = f->fd < 0 ? -errno : 0;
		break;
	case SB_IOENGINE_FILESTAT:
		if (o->files.stat_type == 2) {
			char *abs = realpath(f->name, NULL); /* fio's statx: of the absolute path */

			rc = !abs || statx(-1, abs, 0, STATX_ALL, &sx) < 0 ? -errno : 0;
			free(abs);
		} else {
			rc = (o->files.stat_type == 1 ? lstat(f->name, &st) : stat(f->name, &st)) < 0 ? -errno : 0;
		}
		break;
	default:
		rc = unlink(f->name) < 0 ? -errno : 0;
		break;
	}
	if (rc == 0 && !o->disable_lat)
		sb_hist_add(&d->w->res.dir[d->dir].clat, sb_clock_ns() - t0);
	return rc;
}

static void close_file(void *arg, struct sb_fsfile *f)
{
	(void)arg;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

static long fops_queue(struct worker *w, struct iocb *cb)
{
	struct fops *d = w->ioe_data;
	int rc = sb_fileset_next(&d->fs, w->o, cb->u.c.nbytes, op_file, close_file, d);

	return rc < 0 ? rc : (long)cb->u.c.nbytes;
}

static int fops_setup(struct worker *w, struct slot *slots, unsigned depth)
{
	struct fops *d = calloc(1, sizeof(*d));
	int rc;

	(void)slots;
	(void)depth;
	if (!d)
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	d->w = w;
	d->dir = reads(w->o) ? SB_DIR_READ : SB_DIR_WRITE;
	if ((rc = sb_fileset_init(&d->fs, w->o, w->idx, (w->o->randrepeat ? 0xf11e5ULL : sb_clock_ns()) + w->idx,
				  &w->err)) < 0) {
		free(d);
		return rc;
	}
	w->ioe_data = d;
	return 0;
}

static void fops_cleanup(struct worker *w)
{
	struct fops *d = w->ioe_data;
	unsigned i;

	if (!d)
		return;
	sb_fileset_close_all(&d->fs, close_file, d);
	/* fio's unlink=1: every file of the set (close_and_free_files) */
	for (i = 0; !w->o->keep_files && i < d->fs.n; i++)
		unlink(d->fs.f[i].name);
	sb_fileset_free(&d->fs);
	free(d);
	w->ioe_data = NULL;
}

/* fio's extend_file of one file of filestat's or filedelete's set */
static int extend(const struct sb_job_opts *o, struct worker *w, const struct sb_fsfile *f, struct sb_err *err)
{
	size_t bs = (size_t)(o->bs < f->io_size ? o->bs : f->io_size);
	uint64_t left = f->io_size;
	char *buf = NULL;
	int fd, rc = 0;

	if (unlink(f->name) < 0 && errno != ENOENT)
		return sb_err_sys(err, -errno, "unlink %s", f->name);
	fd = open(f->name, O_WRONLY | O_CREAT | (reads(o) ? O_TRUNC : 0), 0644);
	if (fd < 0)
		return sb_err_sys(err, -errno, "open %s", f->name);
	/* fio's default fallocate=native; a filesystem without it is written all the same */
	(void)!fallocate(fd, 0, 0, (off_t)f->io_size);
	if (!reads(o))
		goto out; /* fio: a write job's file is created, its blocks written by the job */
	if (ftruncate(fd, (off_t)f->io_size) < 0) {
		rc = sb_err_sys(err, -errno, "ftruncate %s", f->name);
		goto out;
	}
	if (!(buf = malloc(bs ? bs : 1))) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	while (left) {
		size_t n = left < bs ? (size_t)left : bs;
		ssize_t r;

		fill_random(&w->rng, buf, n);
		if ((r = write(fd, buf, n)) <= 0) {
			rc = sb_err_sys(err, r < 0 ? -errno : -EIO, "laying out %s", f->name);
			goto out;
		}
		left -= (uint64_t)r;
	}
out:
	free(buf);
	close(fd);
	return rc;
}

/* The set's layout must fit in the free space of the files' directory
 * (fio would stop with ENOSPC part way) */
static int check_room(const struct sb_job_opts *o, const struct worker *w, const char *file, uint64_t need,
		      unsigned n, struct sb_err *err)
{
	struct statvfs vfs;
	char a[32], b[32], dir[600];
	const char *slash = strrchr(file, '/');
	uint64_t avail;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) + 1 : 1, slash ? file : ".");
	if (!need || statvfs(dir, &vfs) < 0)
		return 0;
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (avail >= need)
		return 0;
	sb_size_format_human(need, a, sizeof(a));
	sb_size_format_human(avail, b, sizeof(b));
	return sb_err_set(err, -ENOSPC, "job %s thread %u: laying out its %u files needs %s, %s free", o->name,
			  w->idx, n, a, b);
}

/* fio's setup_files for the thread: every file stat'ed (get_file_sizes),
 * then the short ones laid out (not with create_on_open); no file stays open */
static int layout_set(const struct sb_job_opts *o, struct worker *w, const struct sb_fileset *fs,
		      struct sb_err *err)
{
	struct stat st;
	uint64_t need = 0;
	unsigned i, nextend = 0;
	bool *extend_it;
	int rc = 0;

	if (!(extend_it = calloc(fs->n, sizeof(*extend_it))))
		return sb_err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < fs->n; i++) {
		bool shorter = stat(fs->f[i].name, &st) < 0 || (uint64_t)st.st_size < fs->f[i].io_size;

		extend_it[i] = shorter && !o->files.create_on_open;
		need += extend_it[i] ? fs->f[i].io_size : 0;
		nextend += extend_it[i];
	}
	if ((rc = check_room(o, w, fs->f[0].name, need, fs->n, err)) < 0)
		goto out;
	if (need) /* fio's "Laying out IO files (N files / total M MiB)" */
		sb_info("%s: laying out IO files (%u files / total %llu MiB)", o->name, nextend,
			(unsigned long long)(need >> 20));
	for (i = 0; i < fs->n && rc == 0; i++)
		if (extend_it[i])
			rc = extend(o, w, &fs->f[i], err);
out:
	free(extend_it);
	return rc;
}

/* fio's add_file (get_file_type) when the job is read: each file stat'ed;
 * one that is there and is not a regular file is refused, as fio's file
 * engines refuse it when they open it */
static int check_types(const struct sb_job_opts *o, const struct sb_fileset *fs, struct sb_err *err)
{
	struct stat st;
	unsigned i;

	for (i = 0; i < fs->n; i++)
		if (stat(fs->f[i].name, &st) == 0 && !S_ISREG(st.st_mode))
			return sb_err_set(err, -EINVAL, "%s: only files are supported (ioengine=%s)", fs->f[i].name,
					  sb_ioengine_name(o->ioengine));
	return 0;
}

static int fops_open(const struct sb_job_opts *o, struct worker *w, struct sb_err *err)
{
	struct sb_fileset fs;
	int rc;

	if (sb_fileset_name(o, w->idx, 0, w->path, sizeof(w->path)) < 0)
		return sb_err_set(err, -ENAMETOOLONG, "job %s: a file name is too long", o->name);
	w->fd = -1;
	w->lbs = 512;
	w->start = 0;
	w->len = o->size - o->size % o->bs;
	if (!w->len)
		return sb_err_set(err, -EINVAL, "job %s: blocksize is larger than data set range (as fio)", o->name);
	if ((rc = sb_fileset_init(&fs, o, w->idx, 0, err)) < 0)
		return rc;
	if ((rc = check_types(o, &fs, err)) == 0 && o->ioengine != SB_IOENGINE_FILECREATE)
		rc = layout_set(o, w, &fs, err); /* filecreate: fio's FIO_DISKLESSIO, nothing laid out */
	sb_fileset_free(&fs);
	return rc;
}

/* SB_IOF_NOFILE: the set is the engine's (no target file opened, created or removed by engine.c) */
#define FOPS(nm, ident, fl)                                                                                 \
	{ .name = nm, .id = ident, .flags = SB_IOF_SYNC | SB_IOF_FAKEIO | SB_IOF_NOSTATS | SB_IOF_NOFILE | (fl), \
	  .setup = fops_setup, .cleanup = fops_cleanup, .open_file = fops_open, .queue = fops_queue }

const struct sb_ioengine_ops sb_ioe_filecreate = FOPS("filecreate", SB_IOENGINE_FILECREATE, 0);
const struct sb_ioengine_ops sb_ioe_filestat = FOPS("filestat", SB_IOENGINE_FILESTAT, 0);
const struct sb_ioengine_ops sb_ioe_filedelete = FOPS("filedelete", SB_IOENGINE_FILEDELETE, 0);
