/* fio's synchronous engines (engines/sync.c): every io done in the call
 * that queues it, one in flight.
 *   sync     lseek (only when the file offset is not already there) + read/write
 *   psync    pread/pwrite
 *   vsync    lseek + readv/writev (fio's commit seeks every time; at fio's
 *            depth of one for synchronous engines, one iovec a call)
 *   pvsync   preadv/pwritev of one iovec
 *   pvsync2  preadv2/pwritev2 of one iovec, no flags (hipri, uncached and
 *            nowait stay refused by name) */
#include <errno.h>
#include <libaio.h>
#include <sys/uio.h>
#include <unistd.h>

#include "bench/engine_int.h"

static bool is_write(const struct iocb *cb)
{
	return cb->aio_lio_opcode == IO_CMD_PWRITE;
}

/* fio's fio_io_end: the file offset is past what moved */
static long io_end(struct worker *w, const struct iocb *cb, ssize_t r)
{
	if (r < 0)
		return -errno;
	w->ioe_pos = (uint64_t)cb->u.c.offset + (uint64_t)r;
	return (long)r;
}

static long sync_queue(struct worker *w, struct iocb *cb)
{
	if (w->ioe_pos != (uint64_t)cb->u.c.offset && lseek(w->fd, (off_t)cb->u.c.offset, SEEK_SET) < 0)
		return -errno;
	return io_end(w, cb, is_write(cb) ? write(w->fd, cb->u.c.buf, cb->u.c.nbytes)
					  : read(w->fd, cb->u.c.buf, cb->u.c.nbytes));
}

static long psync_queue(struct worker *w, struct iocb *cb)
{
	off_t off = (off_t)cb->u.c.offset;

	return io_end(w, cb, is_write(cb) ? pwrite(w->fd, cb->u.c.buf, cb->u.c.nbytes, off)
					  : pread(w->fd, cb->u.c.buf, cb->u.c.nbytes, off));
}

static long vsync_queue(struct worker *w, struct iocb *cb)
{
	struct iovec iov = { .iov_base = cb->u.c.buf, .iov_len = cb->u.c.nbytes };

	if (lseek(w->fd, (off_t)cb->u.c.offset, SEEK_SET) < 0)
		return -errno;
	return io_end(w, cb, is_write(cb) ? writev(w->fd, &iov, 1) : readv(w->fd, &iov, 1));
}

static long pvsync_queue(struct worker *w, struct iocb *cb)
{
	struct iovec iov = { .iov_base = cb->u.c.buf, .iov_len = cb->u.c.nbytes };
	off_t off = (off_t)cb->u.c.offset;

	return io_end(w, cb, is_write(cb) ? pwritev(w->fd, &iov, 1, off) : preadv(w->fd, &iov, 1, off));
}

static long pvsync2_queue(struct worker *w, struct iocb *cb)
{
	struct iovec iov = { .iov_base = cb->u.c.buf, .iov_len = cb->u.c.nbytes };
	off_t off = (off_t)cb->u.c.offset;

	return io_end(w, cb, is_write(cb) ? pwritev2(w->fd, &iov, 1, off, 0) : preadv2(w->fd, &iov, 1, off, 0));
}

/* fio's engine_pos starts at 0 when the file is opened */
static int sync_setup(struct worker *w, struct slot *slots, unsigned depth)
{
	(void)slots;
	(void)depth;
	w->ioe_pos = 0;
	return 0;
}

#define SYNC_ENGINE(var, nm, eid, fn)                                                      \
	const struct sb_ioengine_ops var = { .name = nm, .id = eid, .flags = SB_IOF_SYNC, \
					     .setup = sync_setup, .queue = fn }

SYNC_ENGINE(sb_ioe_sync, "sync", SB_IOENGINE_SYNC, sync_queue);
SYNC_ENGINE(sb_ioe_psync, "psync", SB_IOENGINE_PSYNC, psync_queue);
SYNC_ENGINE(sb_ioe_vsync, "vsync", SB_IOENGINE_VSYNC, vsync_queue);
SYNC_ENGINE(sb_ioe_pvsync, "pvsync", SB_IOENGINE_PVSYNC, pvsync_queue);
SYNC_ENGINE(sb_ioe_pvsync2, "pvsync2", SB_IOENGINE_PVSYNC2, pvsync2_queue);
