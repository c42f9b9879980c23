/* fio-matrix: the home-NAS study: 512 KiB blocks, direct, `write` then
 * `read`, iodepth {1, 32} x numjobs {1, 2, 4}. Each numjobs setting moves
 * bench.size in total (default 1 GiB), split over its threads' files, or
 * runs bench.runtime per phase when that is set. */
#include <stdio.h>

#include <stdlib.h>

#include "bench/output.h"
#include "bench/suites/suites.h"

#define MATRIX_DEFAULT_SIZE (1ULL << 30)
#define MATRIX_BS (512u << 10)

/* One cell: write, then read, of qds[q] x njs[j]; the files go after. */
static int matrix_cell(struct sb_suite_ctx *c, unsigned q, unsigned j, uint64_t total, struct sb_job_opts *o,
		       struct sb_job_result *r, struct sb_err *err)
{
	static const unsigned qds[] = { 1, 32 }, njs[] = { 1, 2, 4 };
	char name[32];
	int rc;

	snprintf(name, sizeof(name), "qd%u_j%u", qds[q], njs[j]);
	sb_suite_job_init(c, o, name);
	o->bs = MATRIX_BS;
	o->iodepth = qds[q];
	o->numjobs = njs[j];
	o->size = total / njs[j];
	o->size -= o->size % o->bs;
	if (o->size < o->bs)
		o->size = o->bs;
	o->keep_files = true;
	o->rw = SB_RW_WRITE;
	snprintf(o->phase, sizeof(o->phase), "fio-matrix write %s", name);
	if ((rc = sb_suite_job(c, o, r, err)) < 0)
		return rc;
	snprintf(name, sizeof(name), "write_qd%u_j%u", qds[q], njs[j]);
	sb_suite_figure(c, name, sb_dir_bw(&r->dir[SB_DIR_WRITE]) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
	o->rw = SB_RW_READ;
	snprintf(o->phase, sizeof(o->phase), "fio-matrix read qd%u_j%u", qds[q], njs[j]);
	if ((rc = sb_suite_job(c, o, r, err)) < 0)
		return rc;
	snprintf(name, sizeof(name), "read_qd%u_j%u", qds[q], njs[j]);
	sb_suite_figure(c, name, sb_dir_bw(&r->dir[SB_DIR_READ]) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
	sb_suite_remove_files(o);
	return rc;
}

static int sb_suite_fio_matrix(struct sb_suite_ctx *c, struct sb_err *err)
{
	return sb_suite_grid(c, 2, 3, matrix_cell, err);
}

/* 6 cells, each writes then reads the total (or runs bench.runtime). */
static double matrix_estimate(double size, const struct sb_bench_spec *b, const struct sb_sizing_rates *r)
{
	return sb_suite_timed(b, 12, 12 * size / r->seq_bps);
}

const struct sb_suite_ops sb_suite_fio_matrix_ops = {
	.name = "fio-matrix",
	.run = sb_suite_fio_matrix,
	.default_size = MATRIX_DEFAULT_SIZE,
	.estimate = matrix_estimate,
	.phases = 12,
	.columns = "",
};
