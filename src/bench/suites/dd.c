/* dd: sequential 1 MiB writes of one file, then reading it back with the
 * page cache dropped, as `dd bs=1M conv=fdatasync` and `dd bs=1M` of
 * the posts (buffered; the final fsync is part of the write time).
 *
 * Each figure is the median of several such passes (write, drop, read,
 * remove), every pass kept in "passes" and in the jobs. Why: one pass of
 * 256 MiB is a 0.3-2.5 s window, and where the stack is bound by a CPU (an
 * encrypted stack in the throwaway kernel: generic AES on its one CPU) its
 * figure follows how much CPU the machine gave it in that window. The
 * Helios4 run's own device statistics showed the dm-crypt mapping taking
 * 1.33 to 2.04 ms per 128 KiB read request for the same work in passes
 * next to each other (docs/sandbox.md, "dd in the throwaway kernel"); the
 * median drops the passes a burst of other work landed on.
 *
 * How many: DD_MIN_PASSES, and two more at a time (an odd count, so the
 * median is one pass) while the writes measured so far took under
 * DD_MIN_WRITE_NS, up to DD_MAX_PASSES. A fast stack's pass is a window
 * short enough for one hiccup of the machine to move it by a third; a
 * CPU-bound stack's pass (2-2.5 s) follows the machine's own CPU, which
 * drifts by ±15-30 % between seconds here: its median wants five of them
 * (docs/sandbox.md, "dd passes").
 *
 * Every write starts, like every read, after a sync and with the page
 * cache dropped: the previous pass's file removal (its journal commit, the
 * freed blocks) and its cached pages are settled before the clock starts,
 * not inside the next write. */
#include <stdlib.h>

#include "bench/output.h"
#include "bench/suites/suites.h"

#define DD_MIN_PASSES 3
#define DD_MAX_PASSES 9
#define DD_MIN_WRITE_NS (8ULL * 1000000000ULL)
#define DD_DEFAULT_SIZE (1ULL << 30)

struct dd_fig {
	double mbs[DD_MAX_PASSES], cpu[DD_MAX_PASSES];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median pass's value and CPU share (n is odd), and every pass in "passes". */
static void dd_figure(struct sb_suite_ctx *c, const char *name, const struct dd_fig *f, unsigned n)
{
	double sorted[DD_MAX_PASSES], cpu = -1;
	struct json_object *fig, *arr = json_object_new_array();
	unsigned i;

	for (i = 0; i < n; i++) {
		sorted[i] = f->mbs[i];
		json_object_array_add(arr, json_object_new_double(round(f->mbs[i] * 1000.0) / 1000.0));
	}
	qsort(sorted, n, sizeof(sorted[0]), cmp_double);
	for (i = 0; i < n; i++)
		if (f->mbs[i] == sorted[n / 2])
			cpu = f->cpu[i];
	sb_suite_figure(c, name, sorted[n / 2], "MB/s", cpu, 0);
	if (json_object_object_get_ex(c->figures, name, &fig))
		json_object_object_add(fig, "passes", arr);
	else
		json_object_put(arr);
}

/* The pass rule, for the run and its estimate alike: after k passes whose
 * writes took write_ns in all, two more? */
static bool dd_two_more(unsigned k, uint64_t write_ns)
{
	return k + 2 <= DD_MAX_PASSES && write_ns < DD_MIN_WRITE_NS;
}

/* One pass: write the file (fsync'd), read it back with caches dropped;
 * adds the write's measured time to *write_ns. */
static int dd_pass(struct sb_suite_ctx *c, struct sb_job_opts *o, struct sb_job_result *r,
		   unsigned k, struct dd_fig *w, struct dd_fig *rd, uint64_t *write_ns,
		   struct sb_err *err)
{
	int rc;

	o->rw = SB_RW_WRITE;
	snprintf(o->phase, sizeof(o->phase), "dd write, pass %u", k + 1);
	sb_suite_drop_caches(c); /* reads get theirs in sb_suite_job */
	if ((rc = sb_suite_job(c, o, r, err)) < 0)
		return rc;
	w->mbs[k] = sb_dir_bw(&r->dir[SB_DIR_WRITE]) / 1e6;
	w->cpu[k] = sb_job_cpu_pct(r);
	*write_ns += r->elapsed_ns;
	o->rw = SB_RW_READ;
	snprintf(o->phase, sizeof(o->phase), "dd read, pass %u", k + 1);
	if ((rc = sb_suite_job(c, o, r, err)) < 0)
		return rc;
	rd->mbs[k] = sb_dir_bw(&r->dir[SB_DIR_READ]) / 1e6;
	rd->cpu[k] = sb_job_cpu_pct(r);
	/* the next pass writes a new file, as a second dd of the posts would */
	sb_suite_remove_files(o);
	return 0;
}

/* What the results say about how the figures were taken. */
static void dd_params(struct sb_suite_ctx *c, unsigned n, uint64_t write_ns)
{
	char rule[256];

	snprintf(rule, sizeof(rule), "median of %d to %d passes: %d, and two more at a time while "
		 "the writes measured so far took under %.0f s", DD_MIN_PASSES, DD_MAX_PASSES,
		 DD_MIN_PASSES, DD_MIN_WRITE_NS / 1e9);
	json_object_object_add(c->params, "passes", json_object_new_int((int)n));
	json_object_object_add(c->params, "pass_rule", json_object_new_string(rule));
	json_object_object_add(c->params, "pass_prep", json_object_new_string(
		!sb_suite_drops_caches() ?
		"before each write and each read: nothing (STACKBENCH_NO_DROP_CACHES set: no sync, "
		"no cache drop); each pass writes a new file and removes it after its read" :
		"before each write and each read: sync, then the page cache dropped; "
		"each pass writes a new file and removes it after its read"));
	json_object_object_add(c->params, "write_seconds",
			       json_object_new_double(round(write_ns / 1e6) / 1000.0));
}

static int sb_suite_dd(struct sb_suite_ctx *c, struct sb_err *err)
{
	struct sb_job_opts o;
	struct sb_job_result *r = malloc(sizeof(*r));
	struct dd_fig w, rd;
	uint64_t write_ns = 0;
	unsigned k = 0;
	int rc = 0;

	if (!r)
		return sb_err_set(err, -ENOMEM, "out of memory");
	sb_suite_job_init(c, &o, "dd");
	o.bs = 1 << 20;
	o.size = sb_suite_size(c);
	o.size -= o.size % o.bs;
	o.runtime_ns = o.ramp_ns = 0;    /* dd moves a size, not a time */
	o.direct = false;
	o.keep_files = true;
	if ((rc = sb_suite_check_room(c, o.size, err)) < 0)
		goto out;
	while (rc == 0 && k < DD_MIN_PASSES)
		rc = dd_pass(c, &o, r, k++, &w, &rd, &write_ns, err);
	/* two at a time, so the count stays odd */
	while (rc == 0 && dd_two_more(k, write_ns)) {
		c->nphases = 2 * (k + 2);
		rc = dd_pass(c, &o, r, k++, &w, &rd, &write_ns, err);
		if (rc == 0)
			rc = dd_pass(c, &o, r, k++, &w, &rd, &write_ns, err);
	}
	if (rc == 0) {
		dd_figure(c, "write", &w, k);
		dd_figure(c, "read", &rd, k);
		dd_params(c, k, write_ns);
	}
	sb_suite_remove_files(&o);
out:
	free(r);
	return rc;
}

/* The passes the run makes when every write of size bytes takes as long as
 * the rate says, each a write and a read of the size. */
static double dd_estimate(double size, const struct sb_bench_spec *b, const struct sb_sizing_rates *r)
{
	double pass_s = size / r->seq_bps;
	unsigned k = DD_MIN_PASSES;

	while (dd_two_more(k, (uint64_t)fmin(k * pass_s * 1e9, 1e18)))
		k += 2;
	return 2 * k * pass_s;
}

const struct sb_suite_ops sb_suite_dd_ops = {
	.name = "dd",
	.run = sb_suite_dd,
	.default_size = DD_DEFAULT_SIZE,
	.estimate = dd_estimate,
	.phases = 2 * DD_MIN_PASSES,    /* up to 2 * DD_MAX_PASSES: the run says */
	.columns = "",
};
