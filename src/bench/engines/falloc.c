/* fio's falloc engine (engines/falloc.c): no data moves; each io is a
 * fallocate of its range on the job's file: a read with
 * FALLOC_FL_KEEP_SIZE, a write with mode 0 (the file grows), as fio's.
 * fio opens the file O_CREAT | O_RDWR whatever direct= says: the job runs
 * without O_DIRECT. (fio's trims punch holes; stackbench job refuses trims.) */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>

#include "bench/engine_int.h"

static int falloc_check(struct sb_job_opts *o, struct sb_err *err)
{
	(void)err;
	o->direct = false;
	return 0;
}

static long falloc_queue(struct worker *w, struct iocb *cb)
{
	int mode = cb->aio_lio_opcode == IO_CMD_PWRITE ? 0 : FALLOC_FL_KEEP_SIZE;

	if (fallocate(w->fd, mode, (off_t)cb->u.c.offset, (off_t)cb->u.c.nbytes) < 0)
		return -errno;
	return (long)cb->u.c.nbytes;
}

const struct sb_ioengine_ops sb_ioe_falloc = {
	.name = "falloc",
	.id = SB_IOENGINE_FALLOC,
	.flags = SB_IOF_SYNC | SB_IOF_FAKEIO,
	.check = falloc_check,
	.queue = falloc_queue,
};
