/* smallfile: 4 KiB `randrw` and `rw` (50% reads), numjobs 4, direct and
 * buffered, as the SSHFS post's fio runs. bench.size (default 256 MiB) is
 * split over the 4 threads' files; bench.runtime, when set, makes every
 * phase time-based. Figures per direction in MB/s and IOPS. */
#include <stdio.h>

#include <stdlib.h>

#include "bench/output.h"
#include "bench/suites/suites.h"

#define SMALL_DEFAULT_SIZE (256ULL << 20)

/* One cell: rws[m], direct (d 0) or buffered (d 1). */
static int small_cell(struct sb_suite_ctx *c, unsigned m, unsigned d, uint64_t total, struct sb_job_opts *o,
		      struct sb_job_result *r, struct sb_err *err)
{
	static const enum sb_rw rws[] = { SB_RW_RANDRW, SB_RW_RW };
	const char *mode = d ? "buffered" : "direct";
	char name[40];
	int rc;

	snprintf(name, sizeof(name), "%s_%s", sb_rw_name(rws[m]), mode);
	sb_suite_job_init(c, o, name);
	o->rw = rws[m];
	o->bs = 4096;
	o->numjobs = 4;
	o->iodepth = 1;
	o->direct = !d;
	o->size = total / 4;
	o->size -= o->size % o->bs;
	snprintf(o->phase, sizeof(o->phase), "smallfile %s", name);
	if ((rc = sb_suite_job(c, o, r, err)) < 0)
		return rc;
	for (unsigned k = 0; k < 2; k++) {
		const struct sb_dir_result *dr = &r->dir[k];
		char fig[128];

		snprintf(fig, sizeof(fig), "%s_%s_%s", sb_rw_name(rws[m]), mode, k ? "write" : "read");
		sb_suite_figure(c, fig, sb_dir_bw(dr) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
		snprintf(fig, sizeof(fig), "%s_%s_%s_iops", sb_rw_name(rws[m]), mode, k ? "write" : "read");
		sb_suite_figure(c, fig, sb_dir_iops(dr), "/s", sb_job_cpu_pct(r), 0);
	}
	return rc;
}

static int sb_suite_smallfile(struct sb_suite_ctx *c, struct sb_err *err)
{
	return sb_suite_grid(c, 2, 2, small_cell, err);
}

/* 4 phases of 4 KiB operations over the whole size (or bench.runtime each). */
static double small_estimate(double size, const struct sb_bench_spec *b, const struct sb_sizing_rates *r)
{
	return sb_suite_timed(b, 4, 4 * size / 4096 / r->iops);
}

const struct sb_suite_ops sb_suite_smallfile_ops = {
	.name = "smallfile",
	.run = sb_suite_smallfile,
	.default_size = SMALL_DEFAULT_SIZE,
	.estimate = small_estimate,
	.phases = 4,
	.columns = "",
};
