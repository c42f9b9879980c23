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

int sb_suite_fio_matrix(struct sb_suite_ctx *c, struct sb_err *err)
{
	static const unsigned qds[] = { 1, 32 }, njs[] = { 1, 2, 4 };
	struct sb_job_opts o;
	uint64_t total = sb_suite_size(c);
	struct sb_job_result *r;
	int rc = 0;

	if (!(r = sb_suite_begin(c, total, &rc, err)))
		return rc;
	for (unsigned q = 0; q < 2; q++) {
		for (unsigned j = 0; j < 3; j++) {
			char name[32];

			snprintf(name, sizeof(name), "qd%u_j%u", qds[q], njs[j]);
			sb_suite_job_init(c, &o, name);
			o.bs = MATRIX_BS;
			o.iodepth = qds[q];
			o.numjobs = njs[j];
			o.size = total / njs[j];
			o.size -= o.size % o.bs;
			if (o.size < o.bs)
				o.size = o.bs;
			o.keep_files = true;
			o.rw = SB_RW_WRITE;
			snprintf(o.phase, sizeof(o.phase), "fio-matrix write %s", name);
			if ((rc = sb_suite_job(c, &o, r, err)) < 0)
				goto out_rm;
			snprintf(name, sizeof(name), "write_qd%u_j%u", qds[q], njs[j]);
			sb_suite_figure(c, name, sb_dir_bw(&r->dir[SB_DIR_WRITE]) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
			o.rw = SB_RW_READ;
			snprintf(o.phase, sizeof(o.phase), "fio-matrix read qd%u_j%u", qds[q], njs[j]);
			if ((rc = sb_suite_job(c, &o, r, err)) < 0)
				goto out_rm;
			snprintf(name, sizeof(name), "read_qd%u_j%u", qds[q], njs[j]);
			sb_suite_figure(c, name, sb_dir_bw(&r->dir[SB_DIR_READ]) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
			sb_suite_remove_files(&o);
		}
	}
	goto out;
out_rm:
	sb_suite_remove_files(&o);
out:
	free(r);
	return rc;
}
