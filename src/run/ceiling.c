/* The machine's own ceiling per suite: the same suite, once, on a RAM disk
 * (tmpfs) in the same kernel. A stack's figure at 80 % of that or more is
 * bound by the machine that measures (its CPU, its per-call cost), not by
 * the stack: such figures are marked "bound_by_machine" in the results and
 * in every table. In the throwaway kernel bonnie++'s 8 KiB calls are the
 * case in point; on real hardware a fast NVMe behind a slow CPU is too. */
#include "run/ceiling.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/suite.h"
#include "core/state.h"
#include "report/results.h"
#include "util/log.h"

#define BOUND_FRACTION 0.8

/* Higher is better for these units: throughput and rates. */
static bool rate_unit(const char *u)
{
	return !strcmp(u, "MB/s") || !strcmp(u, "MiB/s") || !strcmp(u, "/s") || !strcmp(u, "IOPS");
}

static int one_suite(const char *suite, const struct sb_bench_spec *b, const char *dir,
		     struct json_object *out)
{
	struct json_object *obj = NULL, *figs;
	struct sb_err e = { 0 };
	int rc;

	/* (not "suite NAME": that line is the stack's own benchmark starting) */
	sb_info("machine ceiling: %s on a RAM disk (tmpfs) in this kernel", suite);
	rc = sb_suite_run(suite, b, dir, NULL, 0, 1, &obj, &e);
	if (rc < 0) {
		struct json_object *n = json_object_new_object();

		json_object_object_add(n, "error", json_object_new_string(e.msg));
		json_object_object_add(out, suite, n);
		sb_warn("machine ceiling of suite %s not measured: %s", suite, e.msg);
		return 0;
	}
	if (json_object_object_get_ex(obj, "figures", &figs))
		json_object_object_add(out, suite, json_object_get(figs));
	json_object_put(obj);
	return 0;
}

int sb_ceiling_measure(const struct sb_spec_list *lists, unsigned nlists, struct json_object **out,
		       struct sb_err *err)
{
	char dir[4096], opts[64];
	struct json_object *c = json_object_new_object();
	uint64_t biggest = 0;
	unsigned i, j, k;
	int rc = 0;

	*out = NULL;
	for (i = 0; i < nlists; i++)
		for (j = 0; j < lists[i].n; j++)
			if (lists[i].items[j].bench.size > biggest)
				biggest = lists[i].items[j].bench.size;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/ceiling-%d", sb_state_dir(), (int)getpid()) >= sizeof(dir))
		return sb_err_set(err, -ENAMETOOLONG, "machine ceiling: path too long");
	if (mkdir(sb_state_dir(), 0700) < 0 && errno != EEXIST)
		return sb_err_sys(err, -errno, "machine ceiling: cannot create %s", sb_state_dir());
	if (mkdir(dir, 0700) < 0)
		return sb_err_sys(err, -errno, "machine ceiling: cannot create %s", dir);
	/* room for the largest bench.size twice over (bonnie's file and more) */
	snprintf(opts, sizeof(opts), "size=%llum,mode=0700",
		 (unsigned long long)((biggest ? 2 * biggest : 512ULL << 20) >> 20) + 64);
	if (mount("sb-ceiling", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0) {
		rc = sb_err_sys(err, -errno, "machine ceiling: cannot mount a tmpfs on %s", dir);
		rmdir(dir);
		json_object_put(c);
		return rc;
	}
	for (i = 0; i < nlists; i++)
		for (j = 0; j < lists[i].n; j++) {
			const struct sb_bench_spec *b = &lists[i].items[j].bench;

			for (k = 0; k < b->nsuites; k++)
				if (!json_object_object_get_ex(c, b->suites[k], NULL))
					one_suite(b->suites[k], b, dir, c);
		}
	if (umount2(dir, 0) < 0 && umount2(dir, MNT_DETACH) < 0)
		sb_warn("machine ceiling: cannot unmount %s: %s", dir, strerror(errno));
	rmdir(dir);
	*out = c;
	return 0;
}

void sb_ceiling_mark(struct json_object *res, struct json_object *ceilings)
{
	struct json_object *s, *figs, *cfigs;
	size_t i;

	if (!ceilings || !json_object_object_get_ex(res, "suites", NULL))
		return;
	json_object_object_add(res, "machine_ceiling", json_object_get(ceilings));
	for (i = 0; (s = sb_results_suite(res, i)); i++) {
		if (!json_object_object_get_ex(ceilings, sb_results_suite_name(s), &cfigs) ||
		    !(figs = sb_results_suite_figures(s)))
			continue;
		json_object_object_foreach(figs, key, f) {
			struct json_object *v, *u, *cf, *cv;
			double x, c;

			if (!json_object_object_get_ex(f, "value", &v) || !json_object_object_get_ex(f, "unit", &u) ||
			    !rate_unit(json_object_get_string(u)) || !json_object_object_get_ex(cfigs, key, &cf) ||
			    !json_object_object_get_ex(cf, "value", &cv))
				continue;
			x = json_object_get_double(v);
			c = json_object_get_double(cv);
			if (c > 0 && x >= BOUND_FRACTION * c) {
				json_object_object_add(f, "bound_by_machine", json_object_new_boolean(1));
				json_object_object_add(f, "machine_ceiling", json_object_new_double(c));
			}
		}
	}
}
