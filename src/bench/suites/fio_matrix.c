/* fio-matrix: the home-NAS study: 512 KiB blocks, direct, `write` then
 * `read`, iodepth {1, 32} x numjobs {1, 2, 4}. Each numjobs setting moves
 * bench.size in total (default 1 GiB), split over its threads' files, or
 * runs bench.runtime per phase when that is set. With
 * bench.fio_matrix.steady: pts each phase runs in rounds to SNIA PTS
 * steady state (matrix_phase). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output.h"
#include "bench/steady_pts.h"
#include "bench/suites/suites.h"
#include "util/json.h"

#define MATRIX_DEFAULT_SIZE (1ULL << 30)
#define MATRIX_BS (512u << 10)

/* The suite's "steady" block (bench.fio_matrix.steady: pts), made at the
 * first cell: the rule, and per figure its rounds (sb_pts_json). */
static struct json_object *steady_block(struct sb_suite_ctx *c)
{
	struct json_object *st = sb_json_get(c->params, "steady");

	if (st)
		return sb_json_get(st, "figures");
	st = json_object_new_object();
	json_object_object_add(st, "rule", json_object_new_string(
		"SNIA PTS steady state: rounds of the cell's job until, over the last 5 rounds, max - min <= "
		"20 % of their mean and the least-squares line's excursion <= 10 % of it; at most 25 rounds; "
		"the figure is the window's mean"));
	json_object_object_add(st, "figures", json_object_new_object());
	json_object_object_add(c->params, "steady", st);
	return sb_json_get(st, "figures");
}

/* One phase of a cell (rw on qd x jobs, figure `fig`): one job, or with
 * bench.fio_matrix.steady: pts, rounds of it until PTS steady state or 25
 * (bench/steady_pts.h); every round's job is kept, marked with its round. */
static int matrix_phase(struct sb_suite_ctx *c, struct sb_job_opts *o, struct sb_job_result *r, enum sb_rw rw,
			const char *fig, struct sb_err *err)
{
	const struct sb_dir_result *d = &r->dir[rw == SB_RW_WRITE ? SB_DIR_WRITE : SB_DIR_READ];
	bool pts = c->b->fio_matrix.steady == SB_MATRIX_STEADY_PTS;
	struct sb_pts p = { 0 };
	struct json_object *job;
	int rc;

	o->rw = rw;
	do {
		snprintf(o->phase, sizeof(o->phase), "fio-matrix %s%s%.0u", fig, pts ? " round " : "", pts ? p.n + 1 : 0);
		if ((rc = sb_suite_job(c, o, r, err)) < 0)
			return rc;
		if (!pts) {
			sb_suite_figure(c, fig, sb_dir_bw(d) / 1e6, "MB/s", sb_job_cpu_pct(r), 0);
			return rc;
		}
		if ((job = json_object_array_get_idx(c->jobs, json_object_array_length(c->jobs) - 1)))
			json_object_object_add(job, "steady_round", json_object_new_int((int)p.n + 1));
		sb_pts_add(&p, sb_dir_bw(d) / 1e6);
	} while (!sb_pts_done(&p));
	sb_suite_figure(c, fig, sb_pts_mean(&p), "MB/s", sb_job_cpu_pct(r), 0);
	json_object_object_add(steady_block(c), fig, sb_pts_json(&p));
	return rc;
}

/* One cell: write, then read, of qds[q] x njs[j]; the files go after. */
static int matrix_cell(struct sb_suite_ctx *c, unsigned q, unsigned j, uint64_t total, struct sb_job_opts *o,
		       struct sb_job_result *r, struct sb_err *err)
{
	static const unsigned qds[] = { 1, 32 }, njs[] = { 1, 2, 4 };
	char name[32], fig[40];
	int rc;

	if (c->b->fio_matrix.cells && !(c->b->fio_matrix.cells & (1u << (q * 3 + j))))
		return 0;   /* not in bench.fio_matrix.cells */
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
	snprintf(fig, sizeof(fig), "write_%s", name);
	if ((rc = matrix_phase(c, o, r, SB_RW_WRITE, fig, err)) < 0)
		return rc;
	snprintf(fig, sizeof(fig), "read_%s", name);
	rc = matrix_phase(c, o, r, SB_RW_READ, fig, err);
	sb_suite_remove_files(o);
	return rc;
}

/* The steady state in one note (the table's and the report's notes):
 * which figures attained it in how many rounds, which did not. */
static void steady_note(struct sb_suite_ctx *c)
{
	struct json_object *figs = sb_json_get(sb_json_get(c->params, "steady"), "figures");
	char yes[512] = "", no[512] = "";

	if (!figs)
		return;
	json_object_object_foreach(figs, k, v) {
		bool ok = json_object_get_boolean(sb_json_get(v, "attained"));
		char *b = ok ? yes : no;

		snprintf(b + strlen(b), sizeof(yes) - strlen(b), "%s%s (%d rounds)", *b ? ", " : "", k,
			 json_object_get_int(sb_json_get(v, "rounds")));
	}
	sb_suite_note(c, "fio-matrix steady state (SNIA PTS, bench.fio_matrix.steady: pts): attained: %s; "
		      "NOT attained: %s", *yes ? yes : "none", *no ? no : "none");
}

static int sb_suite_fio_matrix(struct sb_suite_ctx *c, struct sb_err *err)
{
	int rc = sb_suite_grid(c, 2, 3, matrix_cell, err);

	if (rc >= 0)
		steady_note(c);
	return rc;
}

/* 6 cells, each writes then reads the total (or runs bench.runtime). */
static double matrix_estimate(double size, const struct sb_bench_spec *b, const struct sb_sizing_rates *r)
{
	/* steady: pts: at least 5 rounds of each phase (at most 25) */
	double k = b->fio_matrix.steady == SB_MATRIX_STEADY_PTS ? SB_PTS_WINDOW : 1;

	return k * sb_suite_timed(b, 12, 12 * size / r->seq_bps);
}

const struct sb_suite_ops sb_suite_fio_matrix_ops = {
	.name = "fio-matrix",
	.run = sb_suite_fio_matrix,
	.default_size = MATRIX_DEFAULT_SIZE,
	.estimate = matrix_estimate,
	.phases = 12,
	.columns = "",
};
