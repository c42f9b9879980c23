/* fio's posixaio engine (engines/posixaio.c): libc's aio_read/aio_write
 * per io (no commit of its own), completions found by polling aio_error
 * over the ios in flight, aio_suspend on (at most 8 of) those still
 * running until at least min are done. */
#include <aio.h>
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine_int.h"

#define SUSPEND_ENTRIES 8

struct pa {
	struct aiocb *cbs;      /* one a slot */
	struct slot **flight;   /* the slots in flight */
	unsigned nflight;
};

static int pa_setup(struct worker *w, struct slot *slots, unsigned depth)
{
	struct pa *pa = calloc(1, sizeof(*pa));
	unsigned i;

	if (!pa || !(pa->cbs = calloc(depth, sizeof(*pa->cbs))) || !(pa->flight = calloc(depth, sizeof(*pa->flight)))) {
		if (pa)
			free(pa->cbs);
		free(pa);
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < depth; i++)
		slots[i].ioe_data = &pa->cbs[i];
	w->ioe_data = pa;
	return 0;
}

static void pa_cleanup(struct worker *w)
{
	struct pa *pa = w->ioe_data;

	if (!pa)
		return;
	free(pa->cbs);
	free(pa->flight);
	free(pa);
	w->ioe_data = NULL;
}

static int pa_commit(struct worker *w, struct iocb **cbs, unsigned n)
{
	struct pa *pa = w->ioe_data;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct slot *sl = cbs[i]->data;
		struct aiocb *a = sl->ioe_data;
		int r;

		memset(a, 0, sizeof(*a));
		a->aio_fildes = w->fd;
		a->aio_buf = cbs[i]->u.c.buf;
		a->aio_nbytes = cbs[i]->u.c.nbytes;
		a->aio_offset = (off_t)cbs[i]->u.c.offset;
		a->aio_sigevent.sigev_notify = SIGEV_NONE;
		r = cbs[i]->aio_lio_opcode == IO_CMD_PWRITE ? aio_write(a) : aio_read(a);
		if (r < 0 && errno == EAGAIN)
			break; /* fio's FIO_Q_BUSY: reap, then the rest */
		if (r < 0)
			return sb_err_sys(&w->err, -errno, "aio_%s on %s",
					  cbs[i]->aio_lio_opcode == IO_CMD_PWRITE ? "write" : "read", w->path);
		pa->flight[pa->nflight++] = sl;
	}
	return (int)i;
}

static int pa_getevents(struct worker *w, long min, long max, struct io_event *ev)
{
	struct pa *pa = w->ioe_data;
	const struct aiocb *susp[SUSPEND_ENTRIES];
	long r = 0;

	for (;;) {
		unsigned i = 0, ns = 0;

		while (i < pa->nflight && r < max) {
			struct slot *sl = pa->flight[i];
			struct aiocb *a = sl->ioe_data;
			int err = aio_error(a);

			if (err == EINPROGRESS) {
				if (ns < SUSPEND_ENTRIES)
					susp[ns++] = a;
				i++;
				continue;
			}
			ev[r].data = sl;
			ev[r].obj = &sl->cb;
			ev[r].res = err == 0 ? (unsigned long)aio_return(a) : (unsigned long)(long)-err;
			ev[r].res2 = 0;
			r++;
			pa->flight[i] = pa->flight[--pa->nflight];
		}
		if (r >= min || !ns)
			return (int)r;
		(void)aio_suspend(susp, (int)ns, NULL);
	}
}

const struct sb_ioengine_ops sb_ioe_posixaio = {
	.name = "posixaio",
	.id = SB_IOENGINE_POSIXAIO,
	.setup = pa_setup,
	.cleanup = pa_cleanup,
	.commit = pa_commit,
	.getevents = pa_getevents,
};
