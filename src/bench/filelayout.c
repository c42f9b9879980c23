/* A job's file: the room check and fio's extend_file (bench/filelayout.h). */
#include "bench/filelayout.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/jobopt.h"
#include "util/log.h"
#include "util/units.h"

void sb_fl_init(struct sb_job_opts *o)
{
	o->fl.fallocate = SB_FALLOC_NATIVE;  /* fio's default where fallocate(2) exists */
	o->fl.overwrite = false;
	o->fl.create_fsync = true;
}

static bool rw_reads(enum sb_rw rw)
{
	return rw != SB_RW_WRITE && rw != SB_RW_RANDWRITE;
}

bool sb_fl_writes_out(const struct sb_job_opts *o)
{
	return rw_reads(o->rw) || o->fl.overwrite;  /* fio's fixup_options: td_read sets overwrite */
}

/* -ENOSPC unless `need` bytes fit in the free space of the filesystem
 * that holds `at` (the job's target, named `what`). */
static int check_free(const struct sb_job_opts *o, const char *at, const char *what, uint64_t need,
		      struct sb_err *err)
{
	struct statvfs vfs;
	char a[32], b[32];
	uint64_t avail;

	/* fio's fill_device: the space running out ends the job (bench/joberr.c) */
	if (o->fill_device || statvfs(at, &vfs) < 0)
		return 0;
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	sb_size_format_human(need, a, sizeof(a));
	sb_size_format_human(avail, b, sizeof(b));
	sb_debug("%s: %s free, job wants %s", what, b, a);
	if (avail >= need)
		return 0;
	return sb_err_set(err, -ENOSPC, "%s: %s free, the job needs %s", what, b, a);
}

/* The directory a path's file is in ("." for a bare name). */
static const char *dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	snprintf(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return buf;
}

/* Bytes the job's files in a directory target hold already, at most need. */
static uint64_t dir_files_have(const struct sb_job_opts *o, uint64_t need)
{
	uint64_t have = 0, each = o->size ? o->size : SB_FL_DEFAULT_FILE_SIZE;
	char path[600];
	struct stat st;
	unsigned i;

	for (i = 0; i < o->numjobs; i++) {
		sb_engine_job_file(o, i, path, sizeof(path));
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			have += (uint64_t)st.st_size < each ? (uint64_t)st.st_size : each;
	}
	return have < need ? have : need;
}

/* The bytes a regular-file target holds: size per thread, or one region
 * shared by all (UINT64_MAX when that does not fit in 64 bits). */
static uint64_t file_want(const struct sb_job_opts *o)
{
	uint64_t want, incr;

	/* plus the last thread's start (fio's offset, offset_increment) */
	if (__builtin_mul_overflow(o->size, o->shared_region ? 1 : o->numjobs, &want) ||
	    __builtin_mul_overflow((uint64_t)(o->numjobs - 1), o->offset_increment, &incr) ||
	    __builtin_add_overflow(want, o->offset, &want) || __builtin_add_overflow(want, incr, &want))
		return UINT64_MAX;
	return want;
}

/* What a regular file of `have` bytes grows by: all of it when it is
 * written out (the suites, fio's reads and overwrite=1); else what the
 * job writes, its regions: fio's write job leaves the rest of a new file
 * sparse (an offset=1G job on a small filesystem runs). */
static uint64_t file_need(const struct sb_job_opts *o, uint64_t have)
{
	uint64_t want = file_want(o), regions;

	if (want <= have)
		return 0;
	if (o->fl.suite || sb_fl_writes_out(o))
		return want - have;
	if (__builtin_mul_overflow(o->size, o->shared_region ? 1 : o->numjobs, &regions))
		return UINT64_MAX;
	return regions;
}

int sb_fl_stat_target(const struct sb_job_opts *o, struct stat *st, struct sb_err *err)
{
	char dir[sizeof(o->target)];
	int fd, rc;

	if (stat(o->target, st) == 0)
		return 0;
	if (errno != ENOENT || !o->create)
		return sb_err_set(err, errno == ENOENT ? -EINVAL : -errno, "target %s: %s", o->target,
				  strerror(errno));
	if (!o->size)
		return sb_err_set(err, -EINVAL, "%s does not exist: --size is needed to create it", o->target);
	if ((rc = check_free(o, dir_of(o->target, dir, sizeof(dir)), o->target, file_need(o, 0), err)) < 0)
		return rc;
	fd = open(o->target, O_RDWR | O_CREAT | O_EXCL, 0644);
	/* another job of the same wave with the same filename made it first
	 * (fio's jobs share such a file): as a file that was there before */
	if (fd < 0 && errno == EEXIST && stat(o->target, st) == 0)
		return 0;
	if (fd < 0)
		return sb_err_sys(err, errno == ENOENT ? -EINVAL : -errno, "create %s", o->target);
	close(fd);
	if (stat(o->target, st) < 0)
		return sb_err_sys(err, -errno, "stat %s", o->target);
	return 0;
}

/* a regular file or block device: its size (a file: at least what the job wants) */
static int file_room(const struct sb_job_opts *o, const struct stat *tst, uint64_t *dev_size,
		     struct sb_err *err)
{
	int fd, rc;

	fd = open(o->target, O_RDONLY);
	if (fd < 0)
		return sb_err_sys(err, -errno, "open %s", o->target);
	if (S_ISBLK(tst->st_mode) && ioctl(fd, BLKGETSIZE64, dev_size) < 0) {
		rc = sb_err_sys(err, -errno, "BLKGETSIZE64 %s", o->target);
		close(fd);
		return rc;
	}
	close(fd);
	if (S_ISREG(tst->st_mode)) {
		uint64_t want = file_want(o), need = file_need(o, (uint64_t)tst->st_size);

		*dev_size = (uint64_t)tst->st_size < want ? want : (uint64_t)tst->st_size;
		/* what the file grows by must fit, as a directory's files */
		if (need && (rc = check_free(o, o->target, o->target, need, err)) < 0)
			return rc;
	}
	if (*dev_size < o->bs * (o->shared_region ? 1 : o->numjobs))
		return sb_err_set(err, -ENOSPC, "%s: %llu bytes, too small for %u x %llu-byte blocks",
				  o->target, (unsigned long long)*dev_size, o->numjobs,
				  (unsigned long long)o->bs);
	return 0;
}

int sb_fl_target_room(const struct sb_job_opts *o, const struct stat *tst, uint64_t *dev_size,
		      struct sb_err *err)
{
	if (S_ISBLK(tst->st_mode) || S_ISREG(tst->st_mode))
		return file_room(o, tst, dev_size, err);
	/* a character device (fio's examples read /dev/zero, write /dev/null):
	 * no size of its own, the job's size is the region, as fio's */
	if (S_ISCHR(tst->st_mode)) {
		if (!o->size)
			return sb_err_set(err, -EINVAL, "%s is a character device: --size is needed", o->target);
		*dev_size = file_want(o);
		return *dev_size == UINT64_MAX ? sb_err_set(err, -EINVAL, "%s: the job's regions do not fit in "
							    "64 bits", o->target) : 0;
	}
	if (S_ISDIR(tst->st_mode)) {
		uint64_t need;

		if (__builtin_mul_overflow(o->size ? o->size : SB_FL_DEFAULT_FILE_SIZE, o->numjobs, &need))
			need = UINT64_MAX;
		/* files already laid out (an earlier phase, a kept job) count as room */
		if (o->verify && rw_reads(o->rw))
			return 0;
		return check_free(o, o->target, o->target, need - dir_files_have(o, need), err);
	}
	return sb_err_set(err, -EINVAL, "target %s is not a block device, file or directory", o->target);
}

/* The suites' layout: random data on [start, start + len) by pwrite, then fsync. */
static int suite_layout(int fd, const char *path, uint64_t start, uint64_t len, struct rng *r,
			struct sb_err *err)
{
	size_t chunk = 1 << 20;
	char *buf = malloc(chunk);
	uint64_t done = 0;
	int rc = 0;

	if (!buf)
		return sb_err_set(err, -ENOMEM, "out of memory");
	fill_random(r, buf, chunk);
	while (done < len) {
		size_t n = len - done < chunk ? (size_t)(len - done) : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)(start + done));

		if (w < 0) {
			rc = sb_err_sys(err, -errno, "laying out %s", path);
			goto out;
		}
		buf[0]++;
		done += (uint64_t)w;
	}
	if (fsync(fd) < 0)
		rc = sb_err_sys(err, -errno, "fsync %s", path);
out:
	free(buf);
	return rc;
}

/* fio's fallocate_file: native and posix failures are not fatal (fio's) */
static int fl_fallocate(const struct sb_job_opts *o, int fd, const char *path, uint64_t size,
			struct sb_err *err)
{
	int r;

	switch (o->fl.fallocate) {
	case SB_FALLOC_NATIVE:
		if (fallocate(fd, 0, 0, (off_t)size) < 0)
			sb_debug("fallocate %s: %s", path, strerror(errno));
		return 0;
	case SB_FALLOC_POSIX:
		if ((r = posix_fallocate(fd, 0, (off_t)size)) > 0)
			sb_warn("posix_fallocate %s fails: %s", path, strerror(r));
		return 0;
	case SB_FALLOC_KEEP:
		return fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)size) < 0 ?
			sb_err_sys(err, -errno, "fallocate %s", path) : 0;
	case SB_FALLOC_TRUNCATE:
		return ftruncate(fd, (off_t)size) < 0 ? sb_err_sys(err, -errno, "ftruncate %s", path) : 0;
	default:
		return 0;
	}
}

/* fio's write-out: [0, size) with write() in blocks of bs, create_fsync */
static int write_out(const struct sb_job_opts *o, int fd, const char *path, uint64_t size, struct rng *r,
		     struct sb_err *err)
{
	uint64_t left = size, bs = o->bs < size ? o->bs : size;
	char *buf;
	int rc = 0;

	if (ftruncate(fd, (off_t)size) < 0 && errno != EFBIG)
		return sb_err_sys(err, -errno, "ftruncate %s", path);
	if (!(buf = calloc(1, (size_t)bs)))
		return sb_err_set(err, -ENOMEM, "out of memory");
	fill_random(r, buf, bs);
	while (left) {
		ssize_t n = write(fd, buf, left < bs ? (size_t)left : (size_t)bs);

		if (n <= 0) {
			rc = sb_err_sys(err, n < 0 ? -errno : -EIO, "laying out %s", path);
			goto out;
		}
		left -= (uint64_t)n;
		buf[0]++;
	}
	if (o->fl.create_fsync && fsync(fd) < 0)
		rc = sb_err_sys(err, -errno, "fsync %s", path);
out:
	free(buf);
	return rc;
}

static int extend(const struct sb_job_opts *o, const char *path, uint64_t have, uint64_t start,
		  uint64_t len, struct rng *r, struct sb_err *err)
{
	uint64_t end = start + len;
	bool out = sb_fl_writes_out(o);
	int fd, rc = 0;

	if (o->fl.suite) {
		if (!rw_reads(o->rw) && o->rw != SB_RW_RANDWRITE)
			return 0;  /* a sequential write fills its region itself */
		if ((fd = open(path, O_WRONLY | O_CREAT, 0600)) < 0)
			return sb_err_sys(err, -errno, "open %s", path);
		sb_info("laying out %s (%llu MiB)", path, (unsigned long long)(len >> 20));
		rc = suite_layout(fd, path, start, len, r, err);
		close(fd);
		return rc;
	}
	/* fio's extend_file: a new file (a write job's unless overwrite=1) */
	if (unlink(path) < 0 && errno != ENOENT)
		return sb_err_sys(err, -errno, "unlink %s", path);
	if ((fd = open(path, O_WRONLY | O_CREAT | (out ? O_TRUNC : 0), 0644)) < 0)
		return sb_err_sys(err, -errno, "open %s", path);
	if (out)
		sb_info("laying out %s (%llu MiB)", path, (unsigned long long)(end >> 20));
	if ((rc = fl_fallocate(o, fd, path, end, err)) == 0 && out)
		rc = write_out(o, fd, path, end, r, err);
	/* the new range leaves the page cache, whatever invalidate= says (fio's) */
	if (rc == 0 && posix_fadvise(fd, (off_t)have, (off_t)(end - have), POSIX_FADV_DONTNEED) != 0)
		sb_debug("invalidate %s: the page cache was not dropped", path);
	close(fd);
	return rc;
}

/* one file laid out at a time, its size looked at again first: the jobs
 * of a wave set up side by side, and one that shares the file with
 * another finds it laid out (fio's create_serialize: setup_files in turn) */
static pthread_mutex_t fl_lock = PTHREAD_MUTEX_INITIALIZER;

int sb_fl_extend(const struct sb_job_opts *o, const char *path, uint64_t have, uint64_t start,
		 uint64_t len, struct rng *r, struct sb_err *err)
{
	struct stat st;
	int rc = 0;

	pthread_mutex_lock(&fl_lock);
	if (stat(path, &st) == 0)
		have = (uint64_t)st.st_size;
	else if (errno != ENOENT)
		rc = sb_err_sys(err, -errno, "stat %s", path);
	if (rc == 0 && have < start + len)
		rc = extend(o, path, have, start, len, r, err);
	pthread_mutex_unlock(&fl_lock);
	return rc;
}

bool sb_fl_loop_invalidate(const struct sb_job_opts *o, bool sized)
{
	if (!o->invalidate)
		return false;
	if (sized)
		return o->loops > 1;
	return !o->fl.suite && !o->direct && (!sb_rw_random(o->rw) || o->randommap);
}

bool sb_fl_end_fsync(const struct sb_job_opts *o)
{
	return o->fl.suite ? !o->direct || o->fsync_every || o->end_fsync : o->end_fsync;
}

static int cb_fallocate(const struct jopt *jo, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	static const char *const names[] = { [SB_FALLOC_NATIVE] = "native", [SB_FALLOC_NONE] = "none",
		[SB_FALLOC_POSIX] = "posix", [SB_FALLOC_KEEP] = "keep", [SB_FALLOC_TRUNCATE] = "truncate" };
	unsigned i;

	if (!strcmp(v, "0") || !strcmp(v, "1")) {
		j->fl.fallocate = v[0] == '0' ? SB_FALLOC_NONE : SB_FALLOC_POSIX;  /* fio's aliases */
		return 0;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v, names[i])) {
			j->fl.fallocate = (uint8_t)i;
			return 0;
		}
	return sb_err_set(err, -EINVAL, "--%s: '%s' is none, native, posix, keep, truncate, 0 or 1", jo->name, v);
}

/* the file layout family's options (jobargs.c jopt_tables[]) */
const struct jopt sb_jopts_layout[] = {
	{ "fallocate", NULL, JT_CB, NOF, 0, 0, "native", "preallocate a file when it is laid out: none, "
	  "native, posix, keep, truncate", cb_fallocate },
	{ "overwrite", NULL, JT_BOOL, F(fl.overwrite), 0, 0, "0", "a write job's new file is written out first", NULL },
	{ "create_fsync", NULL, JT_BOOL, F(fl.create_fsync), 0, 0, "1", "fsync a file after laying it out", NULL },
	{ NULL },
};
