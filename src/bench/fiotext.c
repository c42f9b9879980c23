/* `stackbench job` default output: fio 3's "normal" text, line for line
 * where stackbench measures the same thing (job header, IOPS/BW, slat, clat,
 * lat, clat percentiles, lat buckets, cpu, IO depths, run status per group,
 * disk stats), then stackbench's iostat -x table of the watched devices. */
#include "bench/output.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "bench/ioengine.h"

static const double fio_pcts[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

/* fio's num2str with 4 characters: as is when it fits, else scaled by base
 * (1000 or 1024) with as many decimals as fit. */
static const char *num(double v, int base, char *buf, size_t len)
{
	static const char *const dec[] = { "", "k", "M", "G", "T", "P" };
	static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	unsigned u = 0;
	int digits, decimals;

	while (v >= 9999.5 && u < 5) {
		v /= base;
		u++;
	}
	digits = v < 1 ? 1 : (int)floor(log10(v)) + 1;
	decimals = u ? 4 - digits - 1 : 0;
	if (decimals < 0)
		decimals = 0;
	snprintf(buf, len, "%.*f%s", decimals, v, base == 1024 ? bin[u] : dec[u]);
	return buf;
}

static const char *const dirname_lc[] = { "read", "write" };
static const char *const dirname_uc[] = { "READ", "WRITE" };

/* fio's display_lat: nsec, or usec/msec when every figure is large */
static void lat_line(FILE *f, const char *name, const struct sb_hist *h)
{
	double min = h->n ? (double)h->min : 0, max = (double)h->max, mean = sb_hist_mean(h),
	       dev = sb_hist_stddev(h), div = 1;
	const char *base = "nsec";

	if (!h->n)
		return;
	if (min > 1e7 && max > 1e7 && mean > 1e7 && dev > 1e7) {
		div = 1e6;
		base = "msec";
	} else if (min > 1e4 && max > 1e4 && mean > 1e4 && dev > 1e4) {
		div = 1e3;
		base = "usec";
	}
	fprintf(f, "    %4s (%s): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f\n", name, base,
		floor(min / div), floor(max / div), mean / div, dev / div);
}

static void pct_lines(FILE *f, const struct sb_hist *h)
{
	uint64_t v[sizeof(fio_pcts) / sizeof(fio_pcts[0])], div = 1;
	unsigned i, n = sizeof(fio_pcts) / sizeof(fio_pcts[0]);
	const char *base = "nsec";

	if (!h->n)
		return;
	for (i = 0; i < n; i++)
		v[i] = sb_hist_percentile_bucket(h, fio_pcts[i]);
	if (v[n - 1] > 9999999) {
		div = 1000000;
		base = "msec";
	} else if (v[n - 1] > 9999) {
		div = 1000;
		base = "usec";
	}
	fprintf(f, "    clat percentiles (%s):\n", base);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%5.2fth=[%5llu]%s", i % 4 == 0 ? "     | " : "", fio_pcts[i],
			(unsigned long long)(v[i] / div), i == n - 1 ? "\n" : i % 4 == 3 ? ",\n" : ", ");
}

static void dir_lines(FILE *f, int d, const struct sb_dir_result *r, bool aio)
{
	char a[32], b[32], c[32], e[32];
	double bw = sb_dir_bw(r);

	if (!r->ios)
		return;
	fprintf(f, "  %s: IOPS=%s, BW=%sB/s (%sB/s)(%sB/%llumsec)\n", dirname_lc[d],
		num(sb_dir_iops(r), 1000, a, sizeof(a)), num(bw, 1024, b, sizeof(b)),
		num(bw, 1000, c, sizeof(c)), num((double)r->io_bytes, 1024, e, sizeof(e)),
		(unsigned long long)(r->runtime_ns / 1000000));
	if (aio)
		lat_line(f, "slat", &r->slat);
	lat_line(f, "clat", &r->clat);
	lat_line(f, "lat", &r->lat);
	pct_lines(f, &r->clat);
	if (r->bw_kib.n)
		fprintf(f, "   bw (  KiB/s): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f, samples=%llu\n",
			r->bw_kib.min, r->bw_kib.max, sb_stat_mean(&r->bw_kib), sb_stat_dev(&r->bw_kib),
			(unsigned long long)r->bw_kib.n);
	if (r->iops.n)
		fprintf(f, "   iops        : min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f, samples=%llu\n",
			r->iops.min, r->iops.max, sb_stat_mean(&r->iops), sb_stat_dev(&r->iops),
			(unsigned long long)r->iops.n);
}

/* "lat (usec)   : 50=64.45%, 100=33.98%": the total latency buckets */
static void lat_buckets(FILE *f, const struct sb_job_result *r)
{
	const uint64_t *lim = sb_fio_lat_limits;
	static const char *const unit[] = { "nsec", "usec", "msec" };
	double cnt[3][12] = { { 0 } }, total = (double)(r->dir[0].lat.n + r->dir[1].lat.n);
	unsigned u, k;

	sb_fio_lat_count(r, cnt);
	for (u = 0; u < 3; u++) {
		bool any = false;

		for (k = 0; k < 12; k++) {
			double pct = total > 0 ? cnt[u][k] / total * 100.0 : 0;

			if (pct < 0.01)
				continue;
			fprintf(f, "%s", any ? ", " : "");
			if (!any)
				fprintf(f, "  lat (%s)   : ", unit[u]);
			any = true;
			if (k == 11)
				fprintf(f, ">=2000=%.2f%%", pct);
			else
				fprintf(f, "%llu=%.2f%%", (unsigned long long)lim[k], pct);
		}
		if (any)
			fputc('\n', f);
	}
}

static void dist_line(FILE *f, const char *name, const uint64_t c[7], const char *const keys[7])
{
	double t = 0;
	unsigned i;

	for (i = 0; i < 7; i++)
		t += (double)c[i];
	fprintf(f, "%s: ", name);
	for (i = 0; i < 7; i++)
		fprintf(f, "%s=%.1f%%%s", keys[i], t > 0 ? (double)c[i] / t * 100.0 : 0, i < 6 ? ", " : "\n");
}

static void job_text(FILE *f, const struct sb_job_opts *o, const struct sb_job_result *r, unsigned jobs)
{
	static const char *const lk[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const bk[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	double el = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 0;
	int d;

	time_t now = time(NULL);
	char tbuf[64];

	strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", localtime(&now));
	fprintf(f, "%s: (groupid=%u, jobs=%u): err= 0: pid=%d: %s\n", o->name, o->groupid, jobs,
		(int)getpid(), tbuf);
	for (d = 0; d < 2; d++)
		dir_lines(f, d, &r->dir[d], sb_ioengine_has_slat(o));
	lat_buckets(f, r);
	fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		el > 0 ? r->usr_sec / el * 100 : 0, el > 0 ? r->sys_sec / el * 100 : 0,
		(unsigned long long)r->ctx, (unsigned long long)r->majf, (unsigned long long)r->minf);
	dist_line(f, "  IO depths    ", r->depth_level, lk);
	dist_line(f, "     submit    ", r->submit_batch, bk);
	dist_line(f, "     complete  ", r->complete_batch, bk);
	fprintf(f, "     issued rwts: total=%llu,%llu,0,0 short=0,0,0,0 dropped=0,0,0,0\n",
		(unsigned long long)r->dir[0].ios, (unsigned long long)r->dir[1].ios);
	fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, depth=%u\n", o->iodepth);
	if (o->verify)
		fprintf(f, "  verify: %llu blocks checked, %llu errors\n",
			(unsigned long long)r->verified_blocks, (unsigned long long)r->verify_errors);
	fputc('\n', f);
}

/* "Run status group N (all jobs):" - aggregate, slowest-fastest entry, io, runtimes */
static void group_text(FILE *f, unsigned g, const struct sb_job_opts *const *o,
		       const struct sb_job_result *const *r, unsigned n)
{
	char s[6][32];
	int d;

	fprintf(f, "Run status group %u (all jobs):\n", g);
	for (d = 0; d < 2; d++) {
		double agg = 0, lo = -1, hi = 0;
		uint64_t io = 0, rmin = UINT64_MAX, rmax = 0;
		unsigned i;

		for (i = 0; i < n; i++) {
			const struct sb_dir_result *x = &r[i]->dir[d];

			if (o[i]->groupid != g || !x->ios)
				continue;
			agg += sb_dir_bw(x);
			lo = lo < 0 || sb_dir_bw(x) < lo ? sb_dir_bw(x) : lo;
			hi = sb_dir_bw(x) > hi ? sb_dir_bw(x) : hi;
			io += x->io_bytes;
			rmin = x->runtime_ns < rmin ? x->runtime_ns : rmin;
			rmax = x->runtime_ns > rmax ? x->runtime_ns : rmax;
		}
		if (!io)
			continue;
		fprintf(f, "%7s: bw=%sB/s (%sB/s), %sB/s-%sB/s (%sB/s-%sB/s), ", dirname_uc[d],
			num(agg, 1024, s[0], 32), num(agg, 1000, s[1], 32), num(lo, 1024, s[2], 32),
			num(hi, 1024, s[3], 32), num(lo, 1000, s[4], 32), num(hi, 1000, s[5], 32));
		fprintf(f, "io=%sB (%sB), run=%llu-%llumsec\n", num((double)io, 1024, s[0], 32),
			num((double)io, 1000, s[1], 32), (unsigned long long)(rmin / 1000000),
			(unsigned long long)(rmax / 1000000));
	}
}

void sb_jobs_report_text(FILE *f, const struct sb_job_opts *const *o,
			 const struct sb_job_result *const *r, unsigned n, const struct sb_iostat *io)
{
	unsigned i, k, g, ngroups = 0;

	for (i = 0; i < n; i++) {
		char bs[32];

		snprintf(bs, sizeof(bs), "%lluB", (unsigned long long)o[i]->bs);
		fprintf(f, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%u\n",
			o[i]->name, o[i]->groupid, sb_rw_name(o[i]->rw), bs, bs, bs, bs, bs, bs,
			sb_ioengine_name(o[i]->ioengine), o[i]->iodepth);
		if (o[i]->groupid + 1 > ngroups)
			ngroups = o[i]->groupid + 1;
	}
	fprintf(f, "stackbench-%s\n\n", SB_VERSION);
	for (i = 0; i < n; i++) {
		if (r[i]->nthread)
			for (k = 0; k < r[i]->nthread; k++)
				job_text(f, o[i], &r[i]->thread[k], 1);
		else
			job_text(f, o[i], r[i], o[i]->numjobs);
	}
	for (g = 0; g < ngroups; g++)
		group_text(f, g, o, r, n);
	if (io && io->n) {
		fprintf(f, "\nDisk stats (read/write):\n");
		for (i = 0; i < io->n; i++) {
			struct sb_iostat_figs x;

			sb_iostat_compute(&io->dev[i], &x);
			fprintf(f, "  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, util=%.2f%%\n",
				io->dev[i].name, (unsigned long long)x.read_ios, (unsigned long long)x.write_ios,
				(unsigned long long)x.read_merges, (unsigned long long)x.write_merges,
				(unsigned long long)x.read_ticks, (unsigned long long)x.write_ticks,
				(unsigned long long)x.in_queue, x.util_pct);
		}
		fputc('\n', f);
	}
	sb_iostat_text(f, io);
}
