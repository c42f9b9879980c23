/* `compare --format fio-matrix`: the home-NAS write-up's table. One row
 * group per fio-matrix cell (512 KiB sequential read or write, QD 1 or 32,
 * 1, 2 or 4 jobs) of every results file: the cell's bandwidth, then one row
 * per device of the stack with the iostat -x columns the write-up shows
 * (r/s, rMB/s, r_await, rareq-sz, w/s, wMB/s, w_await, wareq-sz, aqu-sz,
 * %util) measured during that cell alone. Reads first, as there. A cell
 * run to PTS steady state (bench.fio_matrix.steady: pts) shows its last
 * round, and a line under the table says how its steady state ended. */
#include "report/render.h"
#include "report/results.h"
#include "util/json.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static double dbl(struct json_object *o, const char *key)
{
	struct json_object *v = sb_json_get(o, key);

	return v ? json_object_get_double(v) : NAN;
}

static const char *const dev_keys[] = { "r_per_s", "read_mbps", "r_await_ms", "rareq_kb", "w_per_s",
					"write_mbps", "w_await_ms", "wareq_kb", "aqu_sz", "util_pct" };
#define NDEV (sizeof(dev_keys) / sizeof(dev_keys[0]))
static const int width[NDEV] = { 8, 8, 8, 8, 8, 8, 8, 8, 7, 6 };

static void header(FILE *out)
{
	fprintf(out, "%-20s %-5s %4s %4s %9s  %-10s %8s %8s %8s %8s %8s %8s %8s %8s %7s %6s\n", "stack", "rw",
		"QD", "jobs", "MB/s", "device", "r/s", "rMB/s", "r_await", "rareq-sz", "w/s", "wMB/s",
		"w_await", "wareq-sz", "aqu-sz", "%util");
}

/* one cell: its bandwidth on the first device row, the devices below it */
static void cell(FILE *out, const char *stack, struct json_object *job, const char *rw)
{
	struct json_object *opts = sb_json_get(job, "job options"), *du = sb_json_get(job, "disk_util");
	double mbps = dbl(sb_json_get(job, rw), "bw_bytes") / 1e6;
	size_t i, n = du && json_object_is_type(du, json_type_array) ? json_object_array_length(du) : 0;

	fprintf(out, "%-20.20s %-5s %4.0f %4.0f %9.1f", stack, rw, dbl(opts, "iodepth"), dbl(opts, "numjobs"), mbps);
	if (!n)
		fputc('\n', out);
	for (i = 0; i < n; i++) {
		struct json_object *d = json_object_array_get_idx(du, i);

		if (i)
			fprintf(out, "%-20s %-5s %4s %4s %9s", "", "", "", "", "");
		fprintf(out, "  %-10.10s", sb_json_get(d, "name") ? json_object_get_string(sb_json_get(d, "name")) : "?");
		for (size_t k = 0; k < NDEV; k++) {
			double v = dbl(d, dev_keys[k]);

			if (isnan(v))
				fprintf(out, " %*s", width[k], "-");
			else
				fprintf(out, " %*.2f", width[k], v);
		}
		fputc('\n', out);
	}
}

/* bench.fio_matrix.steady: pts ran each phase in rounds (the jobs carry
 * steady_round): the table shows the last round's job, the steady block
 * says how it ended (steady_lines) */
static struct json_object *steady_of(struct json_object *su, struct json_object *job, const char *rw)
{
	struct json_object *opts = sb_json_get(job, "job options");
	char fig[48];

	snprintf(fig, sizeof(fig), "%s_qd%.0f_j%.0f", rw, dbl(opts, "iodepth"), dbl(opts, "numjobs"));
	return sb_json_get(sb_json_get(sb_json_get(su, "steady"), "figures"), fig);
}

static bool last_round(struct json_object *su, struct json_object *job, const char *rw)
{
	struct json_object *round = sb_json_get(job, "steady_round"), *st = steady_of(su, job, rw);

	return !round || !st || json_object_get_int(round) == json_object_get_int(sb_json_get(st, "rounds"));
}

static void steady_lines(FILE *out, struct json_object *const *results, unsigned n)
{
	struct json_object *su;
	unsigned i;
	size_t s;

	for (i = 0; i < n; i++)
		for (s = 0; (su = sb_results_suite(results[i], s)); s++) {
			struct json_object *figs = sb_json_get(sb_json_get(su, "steady"), "figures");

			if (!figs || strcmp(sb_results_suite_name(su), "fio-matrix"))
				continue;
			json_object_object_foreach(figs, k, v)
				fprintf(out, "%s %s: SNIA PTS steady state %s\n", sb_results_stack_name(results[i]), k,
					sb_json_get(v, "why") ? json_object_get_string(sb_json_get(v, "why")) : "?");
		}
}

static unsigned cells_of(FILE *out, struct json_object *res, const char *rw)
{
	struct json_object *su;
	unsigned found = 0;
	size_t s, j;

	for (s = 0; (su = sb_results_suite(res, s)); s++) {
		struct json_object *jobs = sb_json_get(su, "jobs");

		if (strcmp(sb_results_suite_name(su), "fio-matrix"))
			continue;
		for (j = 0; jobs && json_object_is_type(jobs, json_type_array) &&
			    j < json_object_array_length(jobs); j++) {
			struct json_object *job = json_object_array_get_idx(jobs, j);
			struct json_object *r = sb_json_get(sb_json_get(job, "job options"), "rw");

			if (!r || strcmp(json_object_get_string(r), rw) || !last_round(su, job, rw))
				continue;
			cell(out, sb_results_stack_name(res), job, rw);
			found++;
		}
	}
	return found;
}

int sb_fio_matrix_write(struct json_object *const *results, unsigned n, FILE *out, struct sb_err *err)
{
	static const char *const rws[] = { "read", "write" };
	unsigned i, k, found = 0;

	header(out);
	for (k = 0; k < 2; k++)
		for (i = 0; i < n; i++)
			found += cells_of(out, results[i], rws[k]);
	if (!found)
		return sb_err_set(err, -EINVAL, "fio-matrix: none of the results has a fio-matrix suite run");
	steady_lines(out, results, n);
	if (fflush(out) != 0 || ferror(out))
		return sb_err_sys(err, -EIO, "writing the fio-matrix table");
	return 0;
}
