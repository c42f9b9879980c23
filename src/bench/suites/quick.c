/* quick: a seconds-long cut for CI: sequential 1 MiB write and read of one
 * file (direct), then 4 KiB random read and write at iodepth 32 for
 * bench.runtime (default 2 s each) on the same file. Default size 64 MiB. */
#include <stdlib.h>

#include "bench/output.h"
#include "bench/suites/suites.h"

#define QUICK_DEFAULT_SIZE (64ULL << 20)
#define QUICK_DEFAULT_RUNTIME 2000000000ULL

static int sb_suite_quick(struct sb_suite_ctx *c, struct sb_err *err)
{
	struct sb_job_opts o;
	struct sb_job_result *r = malloc(sizeof(*r));
	int rc;

	if (!r)
		return sb_err_set(err, -ENOMEM, "out of memory");
	sb_suite_job_init(c, &o, "quick");
	o.bs = 1 << 20;
	o.iodepth = 4;
	o.size = sb_suite_size(c);
	o.size -= o.size % o.bs;
	o.runtime_ns = o.ramp_ns = 0;
	o.keep_files = true;
	if ((rc = sb_suite_check_room(c, o.size, err)) < 0)
		goto out;
	o.rw = SB_RW_WRITE;
	snprintf(o.phase, sizeof(o.phase), "quick seq write");
	if ((rc = sb_suite_job(c, &o, r, err)) < 0)
		goto out_rm;
	sb_suite_figure(c, "seq_write", sb_dir_bw(&r->dir[SB_DIR_WRITE]) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
	o.rw = SB_RW_READ;
	snprintf(o.phase, sizeof(o.phase), "quick seq read");
	if ((rc = sb_suite_job(c, &o, r, err)) < 0)
		goto out_rm;
	sb_suite_figure(c, "seq_read", sb_dir_bw(&r->dir[SB_DIR_READ]) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
	o.bs = 4096;
	o.iodepth = 32;
	o.runtime_ns = c->b->runtime_ns ? c->b->runtime_ns : QUICK_DEFAULT_RUNTIME;
	o.ramp_ns = c->b->ramp_ns;
	o.rw = SB_RW_RANDREAD;
	snprintf(o.phase, sizeof(o.phase), "quick randread");
	if ((rc = sb_suite_job(c, &o, r, err)) < 0)
		goto out_rm;
	sb_suite_figure(c, "randread_iops", sb_dir_iops(&r->dir[SB_DIR_READ]), "/s", sb_job_cpu_pct(r), 0);
	o.rw = SB_RW_RANDWRITE;
	snprintf(o.phase, sizeof(o.phase), "quick randwrite");
	if ((rc = sb_suite_job(c, &o, r, err)) < 0)
		goto out_rm;
	sb_suite_figure(c, "randwrite_iops", sb_dir_iops(&r->dir[SB_DIR_WRITE]), "/s", sb_job_cpu_pct(r), 0);
out_rm:
	sb_suite_remove_files(&o);
out:
	free(r);
	return rc;
}

/* Sequential write and read of the size, then the two timed random phases. */
static double quick_estimate(double size, const struct sb_bench_spec *b, const struct sb_sizing_rates *r)
{
	double rt = (double)(b->runtime_ns ? b->runtime_ns : QUICK_DEFAULT_RUNTIME) / 1e9;

	return 2 * size / r->seq_bps + 2 * (rt + (double)b->ramp_ns / 1e9);
}

const struct sb_suite_ops sb_suite_quick_ops = {
	.name = "quick",
	.run = sb_suite_quick,
	.default_size = QUICK_DEFAULT_SIZE,
	.estimate = quick_estimate,
	.phases = 4,
	.columns = "",
};
