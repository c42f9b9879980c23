/* fio's e4defrag engine (engines/e4defrag.c): every write io is an
 * EXT4_IOC_MOVE_EXT of its blocks (the donor file's blocks at the same
 * place take theirs), a defragmenter's work on a live file. The donor is
 * donorname (in directory= when given), opened (created) for writing by
 * each thread; with inplace=0 it is allocated once over the file's size
 * (fio: fallocate from the start offset to the file's size), with
 * inplace=1 each io allocates its range first and truncates the donor to
 * nothing after. A read io fails with EINVAL, as fio's. The job's own file
 * is allocated over its region when it is shorter (fio's extend_file for a
 * write job: ftruncate and fallocate), since blocks that are not there
 * cannot move. Only ext4 (and a kernel with the ioctl) can run it. */
#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/engine_int.h"
#include "bench/jobopt.h"

#ifndef EXT4_IOC_MOVE_EXT
struct move_extent {
	__u32 reserved;    /* zero */
	__u32 donor_fd;
	__u64 orig_start;  /* in blocks */
	__u64 donor_start;
	__u64 len;         /* blocks to move */
	__u64 moved_len;   /* blocks moved */
};
#define EXT4_IOC_MOVE_EXT _IOWR('f', 15, struct move_extent)
#endif

const struct jopt sb_jopts_e4defrag[] = {
	{ "donorname", NULL, JT_STR, F(e4d.donorname), 0, 0, NULL, "e4defrag: the file whose blocks are swapped in", NULL },
	{ "inplace", NULL, JT_U32, F(e4d.inplace), 0, 1, "0",
	  "e4defrag: 1: allocate the donor's range at each io and free it after", NULL },
	{ NULL, NULL, 0, NOF, 0, 0, NULL, NULL, NULL },
};

struct e4d {
	int donor;
	uint64_t bsz;
};

static int e4d_check(struct sb_job_opts *o, struct sb_err *err)
{
	if (!o->e4d.donorname[0])
		return sb_err_set(err, -EINVAL, "job %s: 'donorname' options required", o->name);
	return 0;
}

static int e4d_setup(struct worker *w, struct slot *slots, unsigned depth)
{
	const struct sb_job_opts *o = w->o;
	struct e4d *e = calloc(1, sizeof(*e));
	char path[sizeof(o->directory) + sizeof(o->e4d.donorname) + 2];
	uint64_t fsize = o->filesize ? o->filesize : o->size;
	struct stat st;

	(void)slots;
	(void)depth;
	if (!e)
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	w->ioe_data = e;
	snprintf(path, sizeof(path), "%s%s%s", o->directory, o->directory[0] ? "/" : "", o->e4d.donorname);
	if ((e->donor = open(path, O_CREAT | O_WRONLY, 0644)) < 0)
		return sb_err_sys(&w->err, -errno, "e4defrag: can't open donor file %s", path);
	if (!o->e4d.inplace && fsize > o->offset &&
	    fallocate(e->donor, 0, (off_t)o->offset, (off_t)(fsize - o->offset)) < 0)
		return sb_err_sys(&w->err, -errno, "e4defrag: fallocate donor %s", path);
	if (fstat(e->donor, &st) < 0)
		return sb_err_sys(&w->err, -errno, "e4defrag: stat %s", path);
	e->bsz = (uint64_t)st.st_blksize;
	/* the job's file: its region's blocks allocated (fio's extend_file) */
	if (fstat(w->fd, &st) < 0)
		return sb_err_sys(&w->err, -errno, "stat %s", w->path);
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < w->start + w->len &&
	    (ftruncate(w->fd, (off_t)(w->start + w->len)) < 0 ||
	     fallocate(w->fd, 0, (off_t)w->start, (off_t)w->len) < 0))
		return sb_err_sys(&w->err, -errno, "e4defrag: allocating %s", w->path);
	return 0;
}

static long e4d_queue(struct worker *w, struct iocb *cb)
{
	struct e4d *e = w->ioe_data;
	uint64_t off = (uint64_t)cb->u.c.offset, len = cb->u.c.nbytes, moved;
	struct move_extent me = { 0 };
	long r;

	/* moving blocks changes the layout, not the data: writes only, as fio */
	if (cb->aio_lio_opcode != IO_CMD_PWRITE)
		return -EINVAL;
	if (w->o->e4d.inplace && fallocate(e->donor, 0, (off_t)off, (off_t)len) < 0)
		return -errno;
	me.donor_fd = (__u32)e->donor;
	me.orig_start = me.donor_start = off / e->bsz;
	me.len = (off + len + e->bsz - 1) / e->bsz - me.orig_start;
	r = ioctl(w->fd, EXT4_IOC_MOVE_EXT, &me) < 0 ? -errno : 0;
	moved = me.moved_len * e->bsz < len ? me.moved_len * e->bsz : len;
	if (r == 0)
		r = moved ? (long)moved : -EINVAL; /* nothing moved: beyond the file's end */
	if (w->o->e4d.inplace && ftruncate(e->donor, 0) < 0 && r >= 0)
		r = -errno;
	return r;
}

static void e4d_cleanup(struct worker *w)
{
	struct e4d *e = w->ioe_data;

	if (!e)
		return;
	if (e->donor >= 0)
		close(e->donor);
	free(e);
	w->ioe_data = NULL;
}

const struct sb_ioengine_ops sb_ioe_e4defrag = {
	.name = "e4defrag",
	.id = SB_IOENGINE_E4DEFRAG,
	.flags = SB_IOF_SYNC,
	.options = sb_jopts_e4defrag,
	.check = e4d_check,
	.setup = e4d_setup,
	.cleanup = e4d_cleanup,
	.queue = e4d_queue,
};
