#include "bench/output.h"

#include "config.h"
#include "util/units.h"

static const double pcts[] = { 50.0, 90.0, 99.0, 99.9, 99.99 };

double sb_dir_bw(const struct sb_dir_result *d)
{
	return d->runtime_ns ? (double)d->io_bytes * 1e9 / (double)d->runtime_ns : 0.0;
}

double sb_dir_iops(const struct sb_dir_result *d)
{
	return d->runtime_ns ? (double)d->ios * 1e9 / (double)d->runtime_ns : 0.0;
}

double sb_job_cpu_pct(const struct sb_job_result *r)
{
	return r->elapsed_ns ? (r->usr_sec + r->sys_sec) / ((double)r->elapsed_ns / 1e9) * 100.0 : 0.0;
}

static struct json_object *dir_json(const struct sb_dir_result *d)
{
	struct json_object *o = json_object_new_object(), *c = json_object_new_object(),
			   *p = json_object_new_object();
	const struct sb_hist *h = &d->clat;
	double bw = sb_dir_bw(d);
	char key[32];

	json_object_object_add(o, "io_bytes", json_object_new_int64((int64_t)d->io_bytes));
	json_object_object_add(o, "io_kbytes", json_object_new_int64((int64_t)(d->io_bytes >> 10)));
	json_object_object_add(o, "bw_bytes", json_object_new_int64((int64_t)bw));
	json_object_object_add(o, "bw", json_object_new_int64((int64_t)(bw / 1024.0))); /* KiB/s, as fio */
	json_object_object_add(o, "iops", json_object_new_double(sb_dir_iops(d)));
	json_object_object_add(o, "runtime", json_object_new_int64((int64_t)(d->runtime_ns / 1000000)));
	json_object_object_add(o, "total_ios", json_object_new_int64((int64_t)d->ios));
	json_object_object_add(c, "min", json_object_new_int64(h->n ? (int64_t)h->min : 0));
	json_object_object_add(c, "max", json_object_new_int64((int64_t)h->max));
	json_object_object_add(c, "mean", json_object_new_double(sb_hist_mean(h)));
	json_object_object_add(c, "stddev", json_object_new_double(sb_hist_stddev(h)));
	json_object_object_add(c, "N", json_object_new_int64((int64_t)h->n));
	for (unsigned i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		snprintf(key, sizeof(key), "%f", pcts[i]);
		json_object_object_add(p, key, json_object_new_int64((int64_t)sb_hist_percentile(h, pcts[i])));
	}
	json_object_object_add(c, "percentile", p);
	json_object_object_add(o, "clat_ns", c);
	return o;
}

struct json_object *sb_job_result_json(const struct sb_job_opts *o, const struct sb_job_result *r)
{
	struct json_object *j = json_object_new_object(), *opts = json_object_new_object();
	double el = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 0;

	json_object_object_add(j, "jobname", json_object_new_string(r->jobname));
	json_object_object_add(opts, "filename", json_object_new_string(o->target));
	json_object_object_add(opts, "rw", json_object_new_string(sb_rw_name(o->rw)));
	json_object_object_add(opts, "bs", json_object_new_int64((int64_t)o->bs));
	json_object_object_add(opts, "iodepth", json_object_new_int64(o->iodepth));
	json_object_object_add(opts, "numjobs", json_object_new_int64(o->numjobs));
	json_object_object_add(opts, "size", json_object_new_int64((int64_t)o->size));
	json_object_object_add(opts, "runtime_ns", json_object_new_int64((int64_t)o->runtime_ns));
	json_object_object_add(opts, "ramp_time_ns", json_object_new_int64((int64_t)o->ramp_ns));
	json_object_object_add(opts, "direct", json_object_new_int(o->direct));
	json_object_object_add(opts, "fsync", json_object_new_int64(o->fsync_every));
	json_object_object_add(opts, "rwmixread", json_object_new_int64(o->rwmixread));
	json_object_object_add(opts, "verify", json_object_new_boolean(o->verify));
	json_object_object_add(j, "job options", opts);
	json_object_object_add(j, "read", dir_json(&r->dir[SB_DIR_READ]));
	json_object_object_add(j, "write", dir_json(&r->dir[SB_DIR_WRITE]));
	json_object_object_add(j, "elapsed_ns", json_object_new_int64((int64_t)r->elapsed_ns));
	/* percent of one CPU over the measured wall time, summed over the job's threads */
	json_object_object_add(j, "usr_cpu", json_object_new_double(el > 0 ? r->usr_sec / el * 100.0 : 0));
	json_object_object_add(j, "sys_cpu", json_object_new_double(el > 0 ? r->sys_sec / el * 100.0 : 0));
	if (o->verify) {
		json_object_object_add(j, "verified_blocks", json_object_new_int64((int64_t)r->verified_blocks));
		json_object_object_add(j, "verify_errors", json_object_new_int64((int64_t)r->verify_errors));
	}
	return j;
}

struct json_object *sb_job_report_json(const struct sb_job_opts *o, const struct sb_job_result *r,
				       const struct sb_iostat *io)
{
	struct json_object *root = json_object_new_object(), *jobs = json_object_new_array();

	json_object_object_add(root, "stackbench version", json_object_new_string(SB_VERSION));
	json_object_array_add(jobs, sb_job_result_json(o, r));
	json_object_object_add(root, "jobs", jobs);
	json_object_object_add(root, "disk_util", sb_iostat_json(io));
	return root;
}

static void dir_text(FILE *f, const char *name, const struct sb_dir_result *d)
{
	const struct sb_hist *h = &d->clat;

	if (!d->ios)
		return;
	fprintf(f, "  %-5s: IOPS=%.0f, BW=%.1f MB/s (%.1f MiB/s) (%llu bytes in %.3f s)\n", name,
		sb_dir_iops(d), sb_dir_bw(d) / 1e6, sb_dir_bw(d) / 1048576.0,
		(unsigned long long)d->io_bytes, (double)d->runtime_ns / 1e9);
	fprintf(f, "    clat (us): min=%.1f, max=%.1f, avg=%.1f, stdev=%.1f\n",
		h->min / 1e3, h->max / 1e3, sb_hist_mean(h) / 1e3, sb_hist_stddev(h) / 1e3);
	fprintf(f, "    clat percentiles (us):");
	for (unsigned i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		fprintf(f, " %g%%=%.1f", pcts[i], sb_hist_percentile(h, pcts[i]) / 1e3);
	fputc('\n', f);
}

void sb_iostat_text(FILE *f, const struct sb_iostat *io)
{
	if (!io || !io->n)
		return;
	fprintf(f, "Disk stats (iostat -x; MB/s = 10^6 B/s, req-sz in KiB, await in ms):\n");
	fprintf(f, "  %-10s %9s %9s %9s %9s %9s %9s %8s %8s %7s %6s\n", "device", "r/s", "w/s", "rMB/s",
		"wMB/s", "rareq-sz", "wareq-sz", "r_await", "w_await", "aqu-sz", "%util");
	for (unsigned i = 0; i < io->n; i++) {
		struct sb_iostat_figs g;

		sb_iostat_compute(&io->dev[i], &g);
		fprintf(f, "  %-10s %9.1f %9.1f %9.2f %9.2f %9.1f %9.1f %8.2f %8.2f %7.2f %6.1f\n",
			io->dev[i].name, g.r_s, g.w_s, g.rmb_s, g.wmb_s, g.rareq_kb, g.wareq_kb,
			g.r_await_ms, g.w_await_ms, g.aqu_sz, g.util_pct);
	}
}

void sb_job_report_text(FILE *f, const struct sb_job_opts *o, const struct sb_job_result *r,
			const struct sb_iostat *io)
{
	char bs[32];
	double el = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 0;

	sb_size_format(o->bs, bs, sizeof(bs));
	fprintf(f, "%s: rw=%s, bs=%s, iodepth=%u, numjobs=%u, %s, target=%s\n", r->jobname,
		sb_rw_name(o->rw), bs, o->iodepth, o->numjobs, o->direct ? "direct" : "buffered",
		o->target);
	dir_text(f, "read", &r->dir[SB_DIR_READ]);
	dir_text(f, "write", &r->dir[SB_DIR_WRITE]);
	fprintf(f, "  cpu  : usr=%.2f%%, sys=%.2f%% (of one CPU over %.3f s)\n",
		el > 0 ? r->usr_sec / el * 100 : 0, el > 0 ? r->sys_sec / el * 100 : 0, el);
	if (o->verify)
		fprintf(f, "  verify: %llu blocks checked, %llu errors\n",
			(unsigned long long)r->verified_blocks, (unsigned long long)r->verify_errors);
	sb_iostat_text(f, io);
}
