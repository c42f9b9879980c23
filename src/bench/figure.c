/* One short direct job on a device and its one figure (see engine.h). */
#include <stdio.h>
#include <string.h>

#include "bench/engine.h"

int sb_engine_figure(const char *dev, enum sb_rw rw, uint64_t bs, unsigned qd, uint64_t size,
		     uint64_t runtime_ns, bool iops, double *out, struct sb_err *err)
{
	struct sb_job_opts o;
	struct sb_job_result r;
	const struct sb_dir_result *d;
	int rc;

	sb_job_opts_init(&o);
	sb_job_opts_suite(&o); /* O_DIRECT, libaio, whole-depth batches: asked for */
	snprintf(o.name, sizeof(o.name), "sb-layer-%s", sb_rw_name(rw));
	snprintf(o.phase, sizeof(o.phase), "per-layer %s %s", dev, sb_rw_name(rw));
	snprintf(o.target, sizeof(o.target), "%s", dev);
	o.rw = rw;
	o.bs = bs;
	o.iodepth = qd;
	o.size = size;
	o.runtime_ns = runtime_ns;
	o.direct = true;
	memset(&r, 0, sizeof(r));
	rc = sb_engine_run(&o, &r, err);
	if (rc < 0)
		return rc;
	d = &r.dir[rw == SB_RW_WRITE ? SB_DIR_WRITE : SB_DIR_READ];
	if (!d->runtime_ns)
		return 0;
	*out = iops ? d->ios * 1e9 / d->runtime_ns : d->io_bytes * 1e3 / d->runtime_ns;
	*out = (double)(int64_t)(*out * 10 + 0.5) / 10;
	return 0;
}
