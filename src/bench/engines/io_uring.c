/* fio's io_uring engine (engines/io_uring.c) with its defaults: a ring of
 * iodepth (rounded up to a power of two) with CQSIZE = that, COOP_TASKRUN,
 * SINGLE_ISSUER + DEFER_TASKRUN, each dropped in fio's order when the
 * kernel refuses it; the opcode probe (READ/WRITE, else READV/WRITEV);
 * commit: one io_uring_enter for the ios queued (with GETEVENTS, so the
 * completions are posted); getevents: what the
 * completion ring holds, io_uring_enter waiting for the rest of min. Its
 * options (hipri, fixedbufs, registerfiles, sqthread_poll, ...) stay
 * refused by name. Built only with liburing (meson: optional). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine_int.h"
#include "util/log.h"

#if SB_HAVE_IO_URING
#include <liburing.h>

struct ur {
	struct io_uring ring;
	bool vectored;
	struct iovec *iov;    /* one a slot (READV/WRITEV) */
	struct slot *slots;
};

static int ur_init(struct ur *u, unsigned depth)
{
	struct io_uring_params p;
	unsigned entries = 1;
	int rc;

	while (entries < depth)
		entries <<= 1;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
		  IORING_SETUP_DEFER_TASKRUN;
	p.cq_entries = entries;
	for (;;) {
		rc = io_uring_queue_init_params(entries, &u->ring, &p);
		if (rc != -EINVAL)
			return rc;
		if (p.flags & IORING_SETUP_DEFER_TASKRUN)
			p.flags &= ~(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER);
		else if (p.flags & IORING_SETUP_COOP_TASKRUN)
			p.flags &= ~IORING_SETUP_COOP_TASKRUN;
		else if (p.flags & IORING_SETUP_CQSIZE)
			p.flags &= ~IORING_SETUP_CQSIZE;
		else
			return rc;
		memset(&p.sq_off, 0, sizeof(p) - offsetof(struct io_uring_params, sq_off));
	}
}

static int ur_setup(struct worker *w, struct slot *slots, unsigned depth)
{
	struct ur *u = calloc(1, sizeof(*u));
	struct io_uring_probe *probe;
	int rc;

	if (!u || !(u->iov = calloc(depth, sizeof(*u->iov)))) {
		free(u);
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	}
	if ((rc = ur_init(u, depth)) < 0) {
		free(u->iov);
		free(u);
		if (rc != -ENOSYS)
			return sb_err_sys(&w->err, rc, "io_uring_setup(%u)", depth);
		/* as libaio's: a kernel (or qemu-user) without io_uring runs psync, and says so */
		if (w->idx == 0)
			sb_warn("this kernel has no io_uring (io_uring_setup: %s): job %s runs with "
				"ioengine=psync instead", strerror(-rc), w->o->name);
		w->ioe = &sb_ioe_psync;
		w->ioe_flags = sb_ioe_psync.flags;
		return w->ioe->setup ? w->ioe->setup(w, slots, depth) : 0;
	}
	/* fio's nonvectored=-1: READ/WRITE when the kernel has them */
	probe = io_uring_get_probe_ring(&u->ring);
	u->vectored = !probe || !io_uring_opcode_supported(probe, IORING_OP_READ) ||
		      !io_uring_opcode_supported(probe, IORING_OP_WRITE);
	if (probe)
		io_uring_free_probe(probe);
	u->slots = slots;
	w->ioe_data = u;
	return 0;
}

static void ur_cleanup(struct worker *w)
{
	struct ur *u = w->ioe_data;

	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u->iov);
	free(u);
	w->ioe_data = NULL;
}

static int ur_commit(struct worker *w, struct iocb **cbs, unsigned n)
{
	struct ur *u = w->ioe_data;
	unsigned i;
	int r;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
		struct slot *sl = cbs[i]->data;
		bool wr = cbs[i]->aio_lio_opcode == IO_CMD_PWRITE;
		struct iovec *iov = &u->iov[sl - u->slots];

		if (!sqe)
			break;
		if (u->vectored) {
			iov->iov_base = cbs[i]->u.c.buf;
			iov->iov_len = cbs[i]->u.c.nbytes;
			if (wr)
				io_uring_prep_writev(sqe, w->fd, iov, 1, cbs[i]->u.c.offset);
			else
				io_uring_prep_readv(sqe, w->fd, iov, 1, cbs[i]->u.c.offset);
		} else if (wr) {
			io_uring_prep_write(sqe, w->fd, cbs[i]->u.c.buf, (unsigned)cbs[i]->u.c.nbytes,
					    cbs[i]->u.c.offset);
		} else {
			io_uring_prep_read(sqe, w->fd, cbs[i]->u.c.buf, (unsigned)cbs[i]->u.c.nbytes,
					   cbs[i]->u.c.offset);
		}
		sqe->ioprio = sl->ioprio; /* fio: the job's priority, or cmdprio's (bench/cmdprio.c) */
		io_uring_sqe_set_data(sqe, sl);
	}
	if (!i)
		return 0;
	do
		r = io_uring_submit_and_get_events(&u->ring); /* fio: submit with GETEVENTS */
	while (r == -EINTR);
	if (r == -EAGAIN || r == -EBUSY)
		return 0;
	if (r < 0)
		return sb_err_sys(&w->err, r, "io_uring_enter (submit) on %s", w->path);
	return r;
}

static int ur_getevents(struct worker *w, long min, long max, struct io_event *ev)
{
	struct ur *u = w->ioe_data;
	long got = 0;

	while (got < max) {
		struct io_uring_cqe *cqe;
		int r = io_uring_peek_cqe(&u->ring, &cqe);

		if (r == -EAGAIN) {
			if (got >= min)
				break;
			r = io_uring_wait_cqe_nr(&u->ring, &cqe, (unsigned)(min - got));
			if (r == -EINTR || r == -EAGAIN)
				continue;
		}
		if (r < 0)
			return sb_err_sys(&w->err, r, "io_uring_enter (wait) on %s", w->path);
		ev[got].data = io_uring_cqe_get_data(cqe);
		ev[got].obj = &((struct slot *)ev[got].data)->cb;
		ev[got].res = (unsigned long)(long)cqe->res;
		ev[got].res2 = 0;
		got++;
		io_uring_cqe_seen(&u->ring, cqe);
	}
	return (int)got;
}

const struct sb_ioengine_ops sb_ioe_io_uring = {
	.name = "io_uring",
	.id = SB_IOENGINE_IO_URING,
	.setup = ur_setup,
	.cleanup = ur_cleanup,
	.commit = ur_commit,
	.getevents = ur_getevents,
};
#endif
