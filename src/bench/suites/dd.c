/* dd: sequential 1 MiB writes of one file, then reading it back with the
 * page cache dropped, as `dd bs=1M conv=fdatasync` and `dd bs=1M` of
 * the posts (buffered; the final fsync is part of the write time).
 *
 * Each figure is the median of DD_PASSES such passes (write, drop, read,
 * remove), every pass kept in "passes" and in the jobs. Why: one pass of
 * 256 MiB is a 1-2 s window, and where the stack is bound by a CPU (an
 * encrypted stack in the throwaway kernel: generic AES on its one CPU) its
 * figure follows how much CPU the machine gave it in that window. The
 * Helios4 run's own device statistics showed the dm-crypt mapping taking
 * 1.33 to 2.04 ms per 128 KiB read request for the same work in passes
 * next to each other (docs/sandbox.md, "dd in the throwaway kernel"); the
 * median of three drops the pass a burst of other work landed on. */
#include <stdlib.h>

#include "bench/output.h"
#include "bench/suites/suites.h"

#define DD_DEFAULT_SIZE (1ULL << 30)
#define DD_PASSES 3

struct dd_fig {
	double mbs[DD_PASSES], cpu[DD_PASSES];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median pass's value and CPU share, and every pass in "passes". */
static void dd_figure(struct sb_suite_ctx *c, const char *name, const struct dd_fig *f)
{
	double sorted[DD_PASSES], cpu = -1;
	struct json_object *fig, *arr = json_object_new_array();
	unsigned i;

	for (i = 0; i < DD_PASSES; i++) {
		sorted[i] = f->mbs[i];
		json_object_array_add(arr, json_object_new_double(round(f->mbs[i] * 1000.0) / 1000.0));
	}
	qsort(sorted, DD_PASSES, sizeof(sorted[0]), cmp_double);
	for (i = 0; i < DD_PASSES; i++)
		if (f->mbs[i] == sorted[DD_PASSES / 2])
			cpu = f->cpu[i];
	sb_suite_figure(c, name, sorted[DD_PASSES / 2], "MB/s", cpu, 0);
	if (json_object_object_get_ex(c->figures, name, &fig))
		json_object_object_add(fig, "passes", arr);
	else
		json_object_put(arr);
}

/* One pass: write the file (fsync'd), read it back with caches dropped. */
static int dd_pass(struct sb_suite_ctx *c, struct sb_job_opts *o, struct sb_job_result *r,
		   unsigned k, struct dd_fig *w, struct dd_fig *rd, struct sb_err *err)
{
	int rc;

	o->rw = SB_RW_WRITE;
	snprintf(o->phase, sizeof(o->phase), "dd write, pass %u of %u", k + 1, DD_PASSES);
	if ((rc = sb_suite_job(c, o, r, err)) < 0)
		return rc;
	w->mbs[k] = sb_dir_bw(&r->dir[SB_DIR_WRITE]) / 1e6;
	w->cpu[k] = sb_job_cpu_pct(r);
	o->rw = SB_RW_READ;
	snprintf(o->phase, sizeof(o->phase), "dd read, pass %u of %u", k + 1, DD_PASSES);
	if ((rc = sb_suite_job(c, o, r, err)) < 0)
		return rc;
	rd->mbs[k] = sb_dir_bw(&r->dir[SB_DIR_READ]) / 1e6;
	rd->cpu[k] = sb_job_cpu_pct(r);
	/* the next pass writes a new file, as a second dd of the posts would */
	sb_suite_remove_files(o);
	return 0;
}

int sb_suite_dd(struct sb_suite_ctx *c, struct sb_err *err)
{
	struct sb_job_opts o;
	struct sb_job_result *r = malloc(sizeof(*r));
	struct dd_fig w, rd;
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
	for (unsigned k = 0; k < DD_PASSES && rc == 0; k++)
		rc = dd_pass(c, &o, r, k, &w, &rd, err);
	if (rc == 0) {
		dd_figure(c, "write", &w);
		dd_figure(c, "read", &rd);
		json_object_object_add(c->params, "passes", json_object_new_int(DD_PASSES));
	}
	sb_suite_remove_files(&o);
out:
	free(r);
	return rc;
}
