/* The I/O error family: fio 3.33's fill_device (fill_fs): a write that
 * finds the filesystem full (ENOSPC, EDQUOT) ends the job as done, not
 * failed (fio's backend.c io_queue_event and do_io: td_clear_error and
 * terminate). fio sets an unsized fill_device job's size to "unlimited";
 * stackbench takes that on a block device (its whole size, as fio's, since
 * a device never returns ENOSPC) and refuses it by name on a file, where it
 * would need an unbounded region. continue_on_error, ignore_error and
 * error_dump stay refused (bench/jobfio.c). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/engine_int.h"
#include "bench/joberr.h"
#include "bench/jobopt.h"

const struct jopt jopts_err[] = {
	{ "fill_device", "fill_fs", JT_BOOL, F(fill_device), 0, 0, "0",
	  "writes end at ENOSPC/EDQUOT (a full filesystem) without an error; needs size= on a file", NULL },
	{ NULL },
};

int sb_joberr_check(const struct sb_job_opts *o, struct sb_err *err)
{
	struct stat st;

	if (!o->fill_device || o->size || !o->target[0])
		return 0;
	if (stat(o->target, &st) == 0 && S_ISBLK(st.st_mode))
		return 0;
	return sb_err_set(err, -EINVAL, "not supported by stackbench job: fill_device without size= on a file "
			  "or directory (fio writes until the filesystem is full); give size=");
}

bool sb_joberr_fill_end(struct worker *w, const struct slot *sl, long ev)
{
	/* the net engine's peer is done: so is the job (fio's td->done) */
	if (ev == -ESHUTDOWN && w->o->ioengine == SB_IOENGINE_NET)
		return true;
	if (!w->o->fill_device || sl->dir != SB_DIR_WRITE)
		return false;
	if (ev >= 0 && ev < (long)sl->len) {
		/* a short write: the space ran out in it (fio writes the rest, which
		 * then fails with ENOSPC); its bytes are written */
		w->res.dir[SB_DIR_WRITE].io_bytes += (uint64_t)ev;
		return true;
	}
	return ev == -ENOSPC || ev == -EDQUOT;
}
