/* fio's ftruncate engine (engines/ftruncate.c): a write io sets the file's
 * size to its offset (ftruncate); a read is an error (EINVAL), as fio's. */
#include <errno.h>
#include <libaio.h>
#include <unistd.h>

#include "bench/engine_int.h"

static long ftruncate_queue(struct worker *w, struct iocb *cb)
{
	if (cb->aio_lio_opcode != IO_CMD_PWRITE)
		return -EINVAL;
	if (ftruncate(w->fd, (off_t)cb->u.c.offset) < 0)
		return -errno;
	return (long)cb->u.c.nbytes;
}

const struct sb_ioengine_ops sb_ioe_ftruncate = {
	.name = "ftruncate",
	.id = SB_IOENGINE_FTRUNCATE,
	.flags = SB_IOF_SYNC | SB_IOF_FAKEIO,
	.queue = ftruncate_queue,
};
