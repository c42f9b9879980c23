/* dd: sequential 1 MiB writes of one file, then reading it back with the
 * page cache dropped, as `dd bs=1M conv=fdatasync` and `dd bs=1M` of
 * the posts (buffered; the final fsync is part of the write time). */
#include <stdlib.h>

#include "bench/output.h"
#include "bench/suites/suites.h"

#define DD_DEFAULT_SIZE (1ULL << 30)

int sb_suite_dd(struct sb_suite_ctx *c, struct sb_err *err)
{
	struct sb_job_opts o;
	struct sb_job_result *r = malloc(sizeof(*r));
	int rc;

	if (!r)
		return sb_err_set(err, -ENOMEM, "out of memory");
	sb_suite_job_init(c, &o, "dd");
	o.rw = SB_RW_WRITE;
	o.bs = 1 << 20;
	o.size = sb_suite_size(c);
	o.size -= o.size % o.bs;
	o.runtime_ns = o.ramp_ns = 0;    /* dd moves a size, not a time */
	o.direct = false;
	o.keep_files = true;
	if ((rc = sb_suite_check_room(c, o.size, err)) < 0)
		goto out;
	snprintf(o.phase, sizeof(o.phase), "dd write");
	if ((rc = sb_suite_job(c, &o, r, err)) < 0)
		goto out_rm;
	sb_suite_figure(c, "write", sb_dir_bw(&r->dir[SB_DIR_WRITE]) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
	o.rw = SB_RW_READ;
	snprintf(o.phase, sizeof(o.phase), "dd read");
	if ((rc = sb_suite_job(c, &o, r, err)) < 0)
		goto out_rm;
	sb_suite_figure(c, "read", sb_dir_bw(&r->dir[SB_DIR_READ]) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
out_rm:
	sb_suite_remove_files(&o);
out:
	free(r);
	return rc;
}
