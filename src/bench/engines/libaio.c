/* fio's libaio engine: io_submit of a batch, io_getevents reaping. */
#include <errno.h>
#include <libaio.h>
#include <string.h>

#include "bench/engine_int.h"
#include "util/log.h"

static int aio_setup(struct worker *w, struct slot *slots, unsigned depth)
{
	io_context_t ctx = 0;
	int rc;

	(void)slots;
	/* a kernel without AIO (CONFIG_AIO off, or qemu-user, which does not
	 * implement io_setup) runs a libaio job with psync, and says so */
	if ((rc = io_setup((int)depth, &ctx)) == -ENOSYS) {
		if (w->idx == 0)
			sb_warn("this kernel has no AIO (io_setup: %s): job %s runs with ioengine=psync "
				"instead of libaio", strerror(-rc), w->o->name);
		w->ioe = &sb_ioe_psync;
		w->ioe_flags = sb_ioe_psync.flags;
		return w->ioe->setup ? w->ioe->setup(w, slots, depth) : 0;
	}
	if (rc < 0)
		return sb_err_sys(&w->err, rc, "io_setup(%u) (see /proc/sys/fs/aio-max-nr)", depth);
	w->ioe_data = ctx;
	return 0;
}

static void aio_cleanup(struct worker *w)
{
	if (w->ioe_data)
		io_destroy((io_context_t)w->ioe_data);
	w->ioe_data = NULL;
}

static int aio_commit(struct worker *w, struct iocb **cbs, unsigned n)
{
	int r = io_submit((io_context_t)w->ioe_data, (long)n, cbs);

	if (r == -EAGAIN)
		return 0;
	if (r < 0)
		return sb_err_sys(&w->err, r, "io_submit on %s", w->path);
	return r;
}

static int aio_getevents(struct worker *w, long min, long max, struct io_event *ev)
{
	int r = io_getevents((io_context_t)w->ioe_data, min, max, ev, NULL);

	if (r < 0 && r != -EINTR)
		return sb_err_sys(&w->err, r, "io_getevents on %s", w->path);
	return r < 0 ? 0 : r;
}

const struct sb_ioengine_ops sb_ioe_libaio = {
	.name = "libaio",
	.id = SB_IOENGINE_LIBAIO,
	.setup = aio_setup,
	.cleanup = aio_cleanup,
	.commit = aio_commit,
	.getevents = aio_getevents,
};
