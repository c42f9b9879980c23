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

/* fio's num2str: num in units of base (1, or 1024 for KiB...), divided by
 * 1000 (1024 with pow2) until it has at most maxlen digits; the remainder
 * gives as many decimals as fit (rounded half up), or rounds the number
 * when none fit. unit: "", "B", "B/s"... */
const char *sb_fio_num2str(uint64_t num, int maxlen, int base, bool pow2, const char *unit,
			   char *buf, size_t len)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const unsigned thousand = pow2 ? 1024 : 1000;
	unsigned post = 0, modulo = UINT32_MAX;
	bool carry = false;
	char tmp[32];
	int room;

	for (; base > 1; post++)
		base /= (int)thousand;
	while (post < 7) {
		snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
		if ((int)strlen(tmp) <= maxlen)
			break;
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= 7)
		post = 0;
	snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
	room = maxlen - (int)strlen(tmp);
	if (modulo == UINT32_MAX || room <= 1) {
		if (modulo != UINT32_MAX && carry)
			num++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, (pow2 ? iec : si)[post], unit);
		return buf;
	}
	snprintf(tmp, sizeof(tmp), "%.*f", room - 1, (double)modulo / (double)thousand);
	if (tmp[0] == '1')
		num++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, tmp + 2, (pow2 ? iec : si)[post], unit);
	return buf;
}

static const char *num(uint64_t v, bool pow2, const char *unit, char *buf, size_t len)
{
	return sb_fio_num2str(v, 4, 1, pow2, unit, buf, len);
}

static const char *const dirname_lc[] = { "read", "write" };

/* fio's display_lat: nsec, or usec/msec when min, max and stdev are all
 * large (integer division of min and max); min and max as num2str(6) */
static void lat_line(FILE *f, const char *name, const struct sb_hist *h)
{
	unsigned long long min = h->n ? h->min : 0, max = h->max;
	double mean = sb_hist_mean(h), dev = sb_hist_stddev(h);
	const char *base = "nsec";
	char a[32], b[32];

	if (!h->n)
		return;
	if (min > 2000000 && max > 99999999ULL && dev > 1000000.0) {
		min /= 1000000, max /= 1000000, mean /= 1e6, dev /= 1e6;
		base = "msec";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		min /= 1000, max /= 1000, mean /= 1e3, dev /= 1e3;
		base = "usec";
	}
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base,
		sb_fio_num2str(min, 6, 1, false, "", a, sizeof(a)),
		sb_fio_num2str(max, 6, 1, false, "", b, sizeof(b)), mean, dev);
}

/* fio's show_clat_percentiles (precision 2): usec/msec when the smallest
 * and largest of the listed values are large; values rounded up into the
 * unit; as many per line as fit in 80 columns. */
void sb_fio_pct_text(FILE *f, const char *pre, const double *pct, const uint64_t *val, unsigned n)
{
	uint64_t minv = UINT64_MAX, maxv = 0, div = 1;
	unsigned i, k, per_line, scale = 0;
	int width;

	if (!n)
		return;
	for (i = 0; i < n; i++) {
		minv = val[i] < minv ? val[i] : minv;
		maxv = val[i] > maxv ? val[i] : maxv;
	}
	if (minv > 2000000 && maxv > 99999999ULL)
		scale = 2, div = 1000000;
	else if (minv > 2000 && maxv > 99999)
		scale = 1, div = 1000;
	fprintf(f, "    %s percentiles (%s):\n     |", pre, scale == 2 ? "msec" : scale ? "usec" : "nsec");
	width = maxv / div ? (int)(log10((double)(maxv / div)) + 1) : 5;
	if (width < 5)
		width = 5;
	per_line = (unsigned)((80 - 7) / (2 + 10 + width));
	for (i = 0; i < n; i++) {
		uint64_t v = val[i];

		if (i && i % per_line == 0)
			fputs("     |", f);
		for (k = 0; k < scale; k++)
			v = (v + 999) / 1000;
		fprintf(f, " %5.2fth=[%*llu]%c", pct[i], width, (unsigned long long)v, i == n - 1 ? '\n' : ',');
		if (i != n - 1 && i % per_line == per_line - 1)
			fputc('\n', f);
	}
}

static void pct_lines_named(FILE *f, const struct sb_hist *h, const char *name)
{
	uint64_t v[sizeof(fio_pcts) / sizeof(fio_pcts[0])];
	unsigned i, n = sizeof(fio_pcts) / sizeof(fio_pcts[0]);

	if (!h->n)
		return;
	for (i = 0; i < n; i++)
		v[i] = sb_hist_percentile_bucket(h, fio_pcts[i]);
	sb_fio_pct_text(f, name, fio_pcts, v, n);
}

/* fio's per-priority lines (stat.c show_ddir_status: "clat prio C/L" and
 * its percentiles with the share of the ios), when at least two
 * priorities have samples (cmdprio family, bench/cmdprio.c) */
static void prio_lines(FILE *f, const struct sb_cprio_res *c, int d, uint64_t all, bool pct)
{
	char name[64];
	unsigned i;

	if (sb_cprio_with_samples(c, d) < 2)
		return;
	for (i = 0; i < c->n[d]; i++) {
		if (!c->h[d][i].n)
			continue;
		if (pct)
			snprintf(name, sizeof(name), "clat prio %u/%u (%.2f%% of IOs)",
				 c->val[d][i] >> SB_IOPRIO_CLASS_SHIFT, c->val[d][i] & 7,
				 100.0 * (double)c->h[d][i].n / (double)(all ? all : 1));
		else
			snprintf(name, sizeof(name), "clat prio %u/%u", c->val[d][i] >> SB_IOPRIO_CLASS_SHIFT,
				 c->val[d][i] & 7);
		if (pct)
			pct_lines_named(f, &c->h[d][i], name);
		else
			lat_line(f, name, &c->h[d][i]);
	}
}

static void pct_lines(FILE *f, const struct sb_hist *h)
{
	pct_lines_named(f, h, "clat");
}

/* fio's "bw (  KiB/s)" line: the samples in KiB/s (MiB/s when their mean
 * is above 1 GiB/s), per= the (integer) mean's share of the group's
 * bandwidth (agg, bytes/s) */
void sb_fio_bw_text(FILE *f, const struct sb_stat *st, double agg)
{
	unsigned long long min = (unsigned long long)st->min, max = (unsigned long long)st->max;
	double mean = sb_stat_mean(st), dev = sb_stat_dev(st), per = 100.0;
	const char *unit = "KiB";

	if (!st->n)
		return;
	if (agg > 1024) {
		per = (int)mean * 100.0 / (agg / 1024.0);
		if (per > 100.0)
			per = 100.0;
	}
	if (mean > 1024.0 * 1024.0) {
		min /= 1024, max /= 1024, mean /= 1024, dev /= 1024;
		unit = "MiB";
	}
	fprintf(f, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%llu\n",
		unit, min, max, per, mean, dev, (unsigned long long)st->n);
}

static void dir_lines(FILE *f, int d, const struct sb_dir_result *r, bool aio, double agg,
		      const struct sb_cprio_res *cp)
{
	char a[32], b[32], c[32], e[32];
	uint64_t runt = r->runtime_ns / 1000000, bw, iops;

	if (!r->ios || !runt)
		return;
	/* as fio: integer bytes/s and IOPS over the runtime in ms */
	bw = 1000 * r->io_bytes / runt;
	iops = 1000 * r->ios / runt;
	/* fio (built with zoned block device support, as Debian's) adds its
	 * zone resets to the write line: stackbench resets none */
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", dirname_lc[d], num(iops, false, "", a, sizeof(a)),
		num(bw, true, "B/s", b, sizeof(b)), num(bw, false, "B/s", c, sizeof(c)),
		num(r->io_bytes, true, "B", e, sizeof(e)), (unsigned long long)runt,
		d == SB_DIR_WRITE ? "; 0 zone resets" : "");
	if (aio)
		lat_line(f, "slat", &r->slat);
	lat_line(f, "clat", &r->clat);
	lat_line(f, " lat", &r->lat);
	prio_lines(f, cp, d, r->clat.n, false);
	pct_lines(f, &r->clat);
	prio_lines(f, cp, d, r->clat.n, true);
	sb_fio_bw_text(f, &r->bw_kib, agg);
	if (r->iops.n)
		fprintf(f, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, samples=%llu\n",
			(unsigned long long)r->iops.min, (unsigned long long)r->iops.max, sb_stat_mean(&r->iops),
			sb_stat_dev(&r->iops), (unsigned long long)r->iops.n);
}

/* fio's show_latencies: "lat (usec)   : 2=26.90%, 4=20.36%", every bucket
 * above 0 (at least 0.01 when it has any io), five to a line */
static void lat_buckets(FILE *f, const struct sb_job_result *r)
{
	const uint64_t *lim = sb_fio_lat_limits;
	static const char *const unit[] = { "nsec", "usec", "msec" };
	double cnt[3][12] = { { 0 } }, total = (double)(r->dir[0].lat.n + r->dir[1].lat.n);
	unsigned u, k, line;

	sb_fio_lat_count(r, cnt);
	for (u = 0; u < 3; u++) {
		line = 0;
		for (k = 0; k < (u == 2 ? 12u : 10u); k++) {
			double pct = total > 0 ? cnt[u][k] / total * 100.0 : 0;

			if (pct < 0.01 && cnt[u][k] > 0)
				pct = 0.01;
			if (pct <= 0)
				continue;
			if (line % 5 == 0)
				fprintf(f, "%s  lat (%s)   : ", line ? "\n" : "", unit[u]);
			else
				fputs(", ", f);
			if (k == 11)
				fprintf(f, ">=2000=%3.2f%%", pct);
			else
				fprintf(f, "%llu=%3.2f%%", (unsigned long long)lim[k], pct);
			line++;
		}
		if (line)
			fputc('\n', f);
	}
}

/* fio's stat_calc_dist: in %, at least 0.1 where there is any */
double sb_fio_dist_pct(uint64_t c, uint64_t total)
{
	double v = total ? (double)c / (double)total * 100.0 : 0;

	return v < 0.1 && c ? 0.1 : v;
}

static void dist_line(FILE *f, const char *name, const uint64_t c[7], const char *const keys[7])
{
	uint64_t t = 0;
	unsigned i;

	for (i = 0; i < 7; i++)
		t += c[i];
	fprintf(f, "%s: ", name);
	for (i = 0; i < 7; i++)
		fprintf(f, "%s=%3.1f%%%s", keys[i], sb_fio_dist_pct(c[i], t), i < 6 ? ", " : "\n");
}

/* fio's show_ss_normal */
static void ss_line(FILE *f, const struct sb_ss *ss)
{
	static const char *const what[] = { "iops", "bw", "lat" };
	uint64_t bw = 0, iops = 0;
	char a[32], b[32], c[32];
	unsigned i;

	for (i = 0; i < ss->n; i++) {
		bw += ss->bw[i];
		iops += ss->iops[i];
	}
	bw /= ss->n;
	iops /= ss->n;
	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n", ss->attained ? "yes" : "no",
		sb_fio_num2str(bw / 1024, 4, 1024, true, "B/s", a, sizeof(a)),
		sb_fio_num2str(bw / 1024, 4, 1024, false, "B/s", b, sizeof(b)),
		sb_fio_num2str(iops, 4, 1, false, "", c, sizeof(c)), what[ss->spec.what],
		ss->spec.slope ? " slope" : " mean dev", (double)(float)ss->criterion, ss->spec.pct ? "%" : "");
}

/* fio's total_run_time: a group_reporting job's threads' runtimes summed */
uint64_t sb_fio_job_runtime_ns(const struct sb_job_result *r)
{
	return r->run_sum_ns ? r->run_sum_ns : r->elapsed_ns;
}

static void job_text(FILE *f, const struct sb_job_opts *o, const struct sb_job_result *r, unsigned jobs,
		     const uint64_t agg[2])
{
	static const char *const lk[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const bk[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	double el = (double)(sb_fio_job_runtime_ns(r) / 1000000) / 1e3;
	int d;

	time_t now = time(NULL);
	char tbuf[64];

	strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", localtime(&now));
	fprintf(f, "%s: (groupid=%u, jobs=%u): err= 0: pid=%d: %s\n", o->name, o->groupid, jobs,
		(int)getpid(), tbuf);
	if (o->description[0])
		fprintf(f, "  Description  : [%s]\n", o->description);
	for (d = 0; d < 2; d++)
		dir_lines(f, d, &r->dir[d], sb_ioengine_has_slat(o), (double)agg[d], r->cprio);
	lat_buckets(f, r);
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		el > 0 ? r->usr_sec / el * 100 : 0, el > 0 ? r->sys_sec / el * 100 : 0,
		(unsigned long long)r->ctx, (unsigned long long)r->majf, (unsigned long long)r->minf);
	dist_line(f, "  IO depths    ", r->depth_level, lk);
	dist_line(f, "     submit    ", r->submit_batch, bk);
	dist_line(f, "     complete  ", r->complete_batch, bk);
	fprintf(f, "     issued rwts: total=%llu,%llu,0,0 short=0,0,0,0 dropped=0,0,0,0\n",
		(unsigned long long)r->dir[0].ios, (unsigned long long)r->dir[1].ios);
	fprintf(f, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
		(unsigned long long)o->lat.target_ns, (unsigned long long)o->lat.window_us, o->lat.percentile,
		r->lat_depth ? r->lat_depth : o->iodepth);
	if (o->ss_dur_ns && r->ss)
		ss_line(f, r->ss);
	if (o->verify)
		fprintf(f, "  verify: %llu blocks checked, %llu errors\n",
			(unsigned long long)r->verified_blocks, (unsigned long long)r->verify_errors);
	fputc('\n', f);
}

/* fio's group figures of direction d: io bytes, agg = io x 1000 / the
 * longest runtime (ms), slowest and fastest job (bytes/s), runtimes */
struct grp {
	uint64_t io, agg, lo, hi, rmin, rmax;
};

static void group_dir(unsigned g, int d, const struct sb_job_opts *const *o, const struct sb_job_result *const *r,
		      unsigned n, struct grp *x)
{
	unsigned i, k;

	memset(x, 0, sizeof(*x));
	x->lo = x->rmin = UINT64_MAX;
	for (i = 0; i < n; i++) {
		unsigned nt = r[i]->nthread ? r[i]->nthread : 1;

		if (o[i]->groupid != g)
			continue;
		for (k = 0; k < nt; k++) {
			const struct sb_dir_result *y = r[i]->nthread ? &r[i]->thread[k].dir[d] : &r[i]->dir[d];
			uint64_t ms = y->runtime_ns / 1000000, bw = ms ? y->io_bytes * 1000 / ms : 0;

			if (!y->ios)
				continue;
			x->io += y->io_bytes;
			x->lo = bw < x->lo ? bw : x->lo;
			x->hi = bw > x->hi ? bw : x->hi;
			x->rmin = ms < x->rmin ? ms : x->rmin;
			x->rmax = ms > x->rmax ? ms : x->rmax;
		}
	}
	x->agg = x->rmax ? x->io * 1000 / x->rmax : 0;
}

uint64_t sb_fio_group_agg(unsigned g, int d, const struct sb_job_opts *const *o,
			  const struct sb_job_result *const *r, unsigned n)
{
	struct grp x;

	group_dir(g, d, o, r, n, &x);
	return x.agg;
}

/* "Run status group N (all jobs):" - aggregate, slowest-fastest entry, io, runtimes */
static void group_text(FILE *f, unsigned g, const struct sb_job_opts *const *o,
		       const struct sb_job_result *const *r, unsigned n)
{
	static const char *const name[] = { "   READ", "  WRITE" };
	char s[8][32];
	struct grp x;
	int d;

	fprintf(f, "Run status group %u (all jobs):\n", g);
	for (d = 0; d < 2; d++) {
		group_dir(g, d, o, r, n, &x);
		if (!x.rmax)
			continue;
		fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n", name[d],
			num(x.agg, true, "B/s", s[0], 32), num(x.agg, false, "B/s", s[1], 32),
			num(x.lo, true, "B/s", s[2], 32), num(x.hi, true, "B/s", s[3], 32),
			num(x.lo, false, "B/s", s[4], 32), num(x.hi, false, "B/s", s[5], 32),
			num(x.io, true, "B", s[6], 32), num(x.io, false, "B", s[7], 32),
			(unsigned long long)x.rmin, (unsigned long long)x.rmax);
	}
}

void sb_jobs_report_text(FILE *f, const struct sb_job_opts *const *o,
			 const struct sb_job_result *const *r, unsigned n, const struct sb_iostat *io)
{
	unsigned i, k, g, ngroups = 0, threads = 0, procs = 0;

	for (i = 0; i < n; i++) {
		char bs[32];

		num(o[i]->bs, true, "B", bs, sizeof(bs));
		fprintf(f, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%u\n",
			o[i]->name, o[i]->groupid, sb_rw_name(o[i]->rw), bs, bs, bs, bs, bs, bs,
			sb_ioengine_name(o[i]->ioengine), o[i]->iodepth);
		if (o[i]->numjobs > 1)
			fputs("...\n", f);   /* fio: the job's other numjobs */
		if (o[i]->groupid + 1 > ngroups)
			ngroups = o[i]->groupid + 1;
		*(o[i]->thread ? &threads : &procs) += o[i]->numjobs;
	}
	fprintf(f, "stackbench-%s\n", SB_VERSION);
	/* fio's "Starting 2 processes" (threads with thread=1) */
	fputs("Starting ", f);
	if (threads)
		fprintf(f, "%u thread%s%s", threads, threads > 1 ? "s" : "", procs ? " and " : "");
	if (procs)
		fprintf(f, "%u process%s", procs, procs > 1 ? "es" : "");
	fputs("\n\n", f);
	for (i = 0; i < n; i++) {
		uint64_t agg[2];
		struct grp x;
		int d;

		for (d = 0; d < 2; d++) {
			group_dir(o[i]->groupid, d, o, r, n, &x);
			agg[d] = x.agg;
		}
		if (r[i]->nthread)
			for (k = 0; k < r[i]->nthread; k++)
				job_text(f, o[i], &r[i]->thread[k], 1, agg);
		else
			job_text(f, o[i], r[i], o[i]->numjobs, agg);
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
