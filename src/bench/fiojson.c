/* `stackbench job --output-format json|json+`: fio 3's JSON, key for key
 * and with fio's meanings (see tests/integration/host/job_fio_keys.sh for
 * the keys compared with a real fio run, and the differences it lists). */
#include "bench/output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "config.h"

/* fio's default percentile_list */
static const double fio_pcts[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

/* fio's JSON floats: printf's %f */
static struct json_object *jd(double v)
{
	char buf[64];

	if (!isfinite(v))
		v = 0.0;
	snprintf(buf, sizeof(buf), "%f", v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *ji(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

/* {min, max, mean, stddev, N}, zeros when empty, as fio */
static struct json_object *lat_obj(const struct sb_hist *h)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "min", ji(h->n ? h->min : 0));
	json_object_object_add(o, "max", ji(h->max));
	json_object_object_add(o, "mean", jd(sb_hist_mean(h)));
	json_object_object_add(o, "stddev", jd(sb_hist_stddev(h)));
	json_object_object_add(o, "N", ji(h->n));
	return o;
}

/* clat_ns: + 17 percentiles and (json+) every non-empty bucket as fio's
 * bins: key = the bucket's value (sb_hist_bucket_value, which is fio's
 * plat_idx_to_val: the histograms have the same buckets). */
static struct json_object *clat_obj(const struct sb_hist *h, bool plus)
{
	struct json_object *o = lat_obj(h), *p, *b;
	char key[32];
	unsigned i;

	if (!h->n)
		return o;
	p = json_object_new_object();
	for (i = 0; i < sizeof(fio_pcts) / sizeof(fio_pcts[0]); i++) {
		snprintf(key, sizeof(key), "%f", fio_pcts[i]);
		json_object_object_add(p, key, ji(sb_hist_percentile_bucket(h, fio_pcts[i])));
	}
	json_object_object_add(o, "percentile", p);
	if (!plus)
		return o;
	b = json_object_new_object();
	for (i = 0; i < SB_HIST_NBUCKETS; i++)
		if (h->buckets[i]) {
			snprintf(key, sizeof(key), "%llu", (unsigned long long)sb_hist_bucket_value(i));
			json_object_object_add(b, key, ji(h->buckets[i]));
		}
	json_object_object_add(o, "bins", b);
	return o;
}

static struct json_object *dir_obj(const struct sb_dir_result *d, bool plus, double group_bw)
{
	struct json_object *o = json_object_new_object();
	double mean = sb_stat_mean(&d->bw_kib), per = 100.0;
	uint64_t runt = d->runtime_ns / 1000000, bw = runt ? 1000 * d->io_bytes / runt : 0;

	json_object_object_add(o, "io_bytes", ji(d->io_bytes));
	json_object_object_add(o, "io_kbytes", ji(d->io_bytes >> 10));
	/* fio's figures over the runtime in whole ms */
	json_object_object_add(o, "bw_bytes", ji(bw));
	json_object_object_add(o, "bw", ji(bw / 1024)); /* KiB/s */
	json_object_object_add(o, "iops", jd(runt ? 1000.0 * (double)d->ios / (double)runt : 0));
	json_object_object_add(o, "runtime", ji(d->runtime_ns / 1000000));
	json_object_object_add(o, "total_ios", ji(d->ios));
	json_object_object_add(o, "short_ios", ji(0));
	json_object_object_add(o, "drop_ios", ji(0));
	json_object_object_add(o, "slat_ns", lat_obj(&d->slat));
	json_object_object_add(o, "clat_ns", clat_obj(&d->clat, plus));
	json_object_object_add(o, "lat_ns", lat_obj(&d->lat));
	json_object_object_add(o, "bw_min", ji((uint64_t)d->bw_kib.min));
	json_object_object_add(o, "bw_max", ji((uint64_t)d->bw_kib.max));
	/* fio: this job's mean sample as a percentage of its group's bandwidth */
	/* fio's convert_agg_kbytes_percent: the (integer) mean sample's share of
	 * the group's bandwidth, at most 100; 0 without samples */
	if (group_bw > 1024) {
		per = (int)mean * 100.0 / (group_bw / 1024.0);
		per = per > 100.0 ? 100.0 : per;
	}
	json_object_object_add(o, "bw_agg", jd(d->bw_kib.n ? per : 0));
	json_object_object_add(o, "bw_mean", jd(mean));
	json_object_object_add(o, "bw_dev", jd(sb_stat_dev(&d->bw_kib)));
	json_object_object_add(o, "bw_samples", ji(d->bw_kib.n));
	json_object_object_add(o, "iops_min", ji((uint64_t)d->iops.min));
	json_object_object_add(o, "iops_max", ji((uint64_t)d->iops.max));
	json_object_object_add(o, "iops_mean", jd(sb_stat_mean(&d->iops)));
	json_object_object_add(o, "iops_stddev", jd(sb_stat_dev(&d->iops)));
	json_object_object_add(o, "iops_samples", ji(d->iops.n));
	return o;
}

/* fio's "prios" of a direction (stat.c add_ddir_status_json): the
 * completion latency per I/O priority that has samples, when at least two
 * have (cmdprio family, bench/cmdprio.c) */
static void add_prios(struct json_object *dir, const struct sb_cprio_res *c, int d, bool plus)
{
	struct json_object *a;
	unsigned i;

	if (sb_cprio_with_samples(c, d) < 2)
		return;
	a = json_object_new_array();
	for (i = 0; i < c->n[d]; i++) {
		struct json_object *p;

		if (!c->h[d][i].n)
			continue;
		p = json_object_new_object();
		json_object_object_add(p, "prioclass", ji(c->val[d][i] >> SB_IOPRIO_CLASS_SHIFT));
		json_object_object_add(p, "prio", ji(c->val[d][i] & 7));
		json_object_object_add(p, "clat_ns", clat_obj(&c->h[d][i], plus));
		json_object_array_add(a, p);
	}
	json_object_object_add(dir, "prios", a);
}

/* An empty direction (fio's trim: stackbench does no trims) */
static struct json_object *empty_dir(void)
{
	struct sb_dir_result *d = calloc(1, sizeof(*d));
	struct json_object *o;

	if (!d)
		return json_object_new_object();
	sb_hist_init(&d->clat);
	sb_hist_init(&d->slat);
	sb_hist_init(&d->lat);
	o = dir_obj(d, false, 0);
	free(d);
	return o;
}

/* fio's latency_ns / latency_us / latency_ms: % of all ios whose total
 * latency (lat) is below each bound, from the lat histograms. */
const uint64_t sb_fio_lat_limits[11] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };

void sb_fio_lat_count(const struct sb_job_result *r, double cnt[3][12])
{
	const uint64_t *lim = sb_fio_lat_limits;
	unsigned d, i, u, k;

	for (d = 0; d < 2; d++)
		for (i = 0; i < SB_HIST_NBUCKETS; i++) {
			uint64_t v = sb_hist_bucket_value(i), c = r->dir[d].lat.buckets[i];

			if (!c)
				continue;
			u = v < 1000 ? 0 : v < 1000000 ? 1 : 2;
			v = u == 0 ? v : u == 1 ? v / 1000 : v / 1000000;
			for (k = 0; k < (u == 2 ? 11u : 9u) && v >= lim[k]; k++)
				;
			cnt[u][k] += (double)c;
		}
}

static void latency_buckets(struct json_object *job, const struct sb_job_result *r)
{
	const uint64_t *lim = sb_fio_lat_limits;
	static const char *const names[] = { "latency_ns", "latency_us", "latency_ms" };
	double cnt[3][12] = { { 0 } }, total = (double)(r->dir[0].lat.n + r->dir[1].lat.n);
	char key[16];
	unsigned u, k;

	sb_fio_lat_count(r, cnt);
	for (u = 0; u < 3; u++) {
		struct json_object *o = json_object_new_object();

		for (k = 0; k < (u == 2 ? 12u : 10u); k++) {
			if (u == 2 && k == 11)
				snprintf(key, sizeof(key), ">=2000");
			else
				snprintf(key, sizeof(key), "%llu", (unsigned long long)lim[k]);
			double pct = total > 0 ? cnt[u][k] / total * 100.0 : 0;

			/* fio's stat_calc_lat: at least 0.01 where there is any */
			json_object_object_add(o, key, jd(pct < 0.01 && cnt[u][k] > 0 ? 0.01 : pct));
		}
		json_object_object_add(job, names[u], o);
	}
}

/* fio's iodepth_level / iodepth_submit / iodepth_complete, in % */
static struct json_object *dist_obj(const uint64_t c[7], const char *const keys[7])
{
	struct json_object *o = json_object_new_object();
	uint64_t t = 0;
	unsigned i;

	for (i = 0; i < 7; i++)
		t += c[i];
	for (i = 0; i < 7; i++)
		json_object_object_add(o, keys[i], jd(sb_fio_dist_pct(c[i], t)));
	return o;
}

static struct json_object *options_obj(const char *given)
{
	struct json_object *o = json_object_new_object();
	char buf[sizeof(((struct sb_job_opts *)0)->given)], *line, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", given);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		json_object_object_add(o, line, json_object_new_string(eq + 1));
	}
	return o;
}

static void add_cpu(struct json_object *j, const struct sb_job_result *r)
{
	double el = (double)(sb_fio_job_runtime_ns(r) / 1000000) / 1e3;  /* fio: the ms summed */
	static const char *const lk[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const bk[] = { "0", "4", "8", "16", "32", "64", ">=64" };

	json_object_object_add(j, "usr_cpu", jd(el > 0 ? r->usr_sec / el * 100.0 : 0));
	json_object_object_add(j, "sys_cpu", jd(el > 0 ? r->sys_sec / el * 100.0 : 0));
	json_object_object_add(j, "ctx", ji(r->ctx));
	json_object_object_add(j, "majf", ji(r->majf));
	json_object_object_add(j, "minf", ji(r->minf));
	json_object_object_add(j, "iodepth_level", dist_obj(r->depth_level, lk));
	json_object_object_add(j, "iodepth_submit", dist_obj(r->submit_batch, bk));
	json_object_object_add(j, "iodepth_complete", dist_obj(r->complete_batch, bk));
}

/* One element of fio's "jobs". group_bw: bytes/s of the job's group, per direction. */
static struct json_object *job_obj(const struct sb_job_opts *o, const struct sb_job_result *r,
				   bool plus, const double group_bw[2], int error)
{
	struct json_object *j = json_object_new_object(), *sync = json_object_new_object();
	struct sb_hist *none = malloc(sizeof(*none));

	json_object_object_add(j, "jobname", json_object_new_string(r->jobname[0] ? r->jobname : o->name));
	json_object_object_add(j, "groupid", ji(o->groupid));
	json_object_object_add(j, "error", json_object_new_int(error));
	json_object_object_add(j, "eta", ji(0));
	json_object_object_add(j, "elapsed", ji((r->elapsed_ns + o->ramp_ns + 999999999ULL) / 1000000000ULL));
	if (o->given[0]) /* as fio: no dict for a job that sets no option */
		json_object_object_add(j, "job options", options_obj(o->given));
	json_object_object_add(j, "read", dir_obj(&r->dir[SB_DIR_READ], plus, group_bw[0]));
	json_object_object_add(j, "write", dir_obj(&r->dir[SB_DIR_WRITE], plus, group_bw[1]));
	add_prios(json_object_object_get(j, "read"), r->cprio, SB_DIR_READ, plus);
	add_prios(json_object_object_get(j, "write"), r->cprio, SB_DIR_WRITE, plus);
	json_object_object_add(j, "trim", empty_dir());
	/* sync: fsync calls are not timed one by one (fio times them with fsync=N) */
	if (none)
		sb_hist_init(none);
	json_object_object_add(sync, "total_ios", ji(0));
	json_object_object_add(sync, "lat_ns", none ? lat_obj(none) : json_object_new_object());
	free(none);
	json_object_object_add(j, "sync", sync);
	json_object_object_add(j, "job_runtime", ji(sb_fio_job_runtime_ns(r) / 1000000));
	add_cpu(j, r);
	latency_buckets(j, r);
	json_object_object_add(j, "latency_depth", ji(r->lat_depth ? r->lat_depth : o->iodepth));
	json_object_object_add(j, "latency_target", ji(o->lat.target_ns));
	json_object_object_add(j, "latency_percentile", jd(o->lat.percentile));
	json_object_object_add(j, "latency_window", ji(o->lat.window_us));
	if (o->description[0]) /* fio's description=, after the latency keys as fio's */
		json_object_object_add(j, "desc", json_object_new_string(o->description));
	if (o->verify) {
		json_object_object_add(j, "verified_blocks", ji(r->verified_blocks));
		json_object_object_add(j, "verify_errors", ji(r->verify_errors));
	}
	if (o->ss_dur_ns && r->ss)
		json_object_object_add(j, "steadystate", sb_ss_json(r->ss));
	return j;
}

struct json_object *sb_jobs_report_json(const struct sb_job_opts *global, const struct sb_job_opts *const *o,
					const struct sb_job_result *const *r, unsigned n,
					const struct sb_iostat *io, bool plus)
{
	struct json_object *root = json_object_new_object(), *jobs = json_object_new_array();
	struct timeval tv;
	char tbuf[64];
	unsigned i, k, d;

	gettimeofday(&tv, NULL);
	strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", localtime(&tv.tv_sec));
	json_object_object_add(root, "fio version", json_object_new_string("stackbench-" SB_VERSION));
	json_object_object_add(root, "timestamp", ji((uint64_t)tv.tv_sec));
	json_object_object_add(root, "timestamp_ms", ji((uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000));
	json_object_object_add(root, "time", json_object_new_string(tbuf));
	if (global && global->given[0])
		json_object_object_add(root, "global options", options_obj(global->given));
	for (i = 0; i < n; i++) {
		double gbw[2];

		for (d = 0; d < 2; d++)
			gbw[d] = (double)sb_fio_group_agg(o[i]->groupid, (int)d, o, r, n);
		if (r[i]->nthread)
			for (k = 0; k < r[i]->nthread; k++)
				json_object_array_add(jobs, job_obj(o[i], &r[i]->thread[k], plus, gbw, 0));
		else
			json_object_array_add(jobs, job_obj(o[i], r[i], plus, gbw, 0));
	}
	json_object_object_add(root, "jobs", jobs);
	/* fio writes disk_util only when it has devices (none for no-file engines) */
	if (io && io->n)
		json_object_object_add(root, "disk_util", sb_iostat_json_fio(io));
	/* not fio's (its consumers check the keys): stackbench's iostat -x
	 * figures of the same devices, when --watch asked for them */
	if (io && io->n && io->x_figures)
		json_object_object_add(root, "stackbench_iostat", sb_iostat_json_x(io));
	return root;
}
