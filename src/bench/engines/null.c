/* fio's null engine (engines/null.c): no file, no data; every io
 * completes as it is queued. */
#include <stdio.h>

#include "bench/engine_int.h"

static int null_open(const struct sb_job_opts *o, struct worker *w, struct sb_err *err)
{
	if (!o->size)
		return sb_err_set(err, -EINVAL, "job %s: ioengine=null needs --size", o->name);
	snprintf(w->path, sizeof(w->path), "null");
	w->fd = -1;
	w->lbs = 512;
	w->start = 0;
	w->len = o->size - o->size % o->bs;
	return 0;
}

static long null_queue(struct worker *w, struct iocb *cb)
{
	(void)w;
	return (long)cb->u.c.nbytes;
}

const struct sb_ioengine_ops sb_ioe_null = {
	.name = "null",
	.id = SB_IOENGINE_NULL,
	.flags = SB_IOF_NOFILE | SB_IOF_FAKEIO,
	.open_file = null_open,
	.queue = null_queue,
};
