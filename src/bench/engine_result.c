/* A job's result from its threads' results: merged (sums, histograms,
 * the threads' bandwidth samples added up), fio's log files written, and
 * each thread's own result kept when the job reports them one by one. */
#include "bench/engine.h"
#include "bench/engine_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the squared deviations' sum (fio's S) */
static double stat_s(const struct sb_stat *s)
{
	return s->n ? s->sumsq - s->sum * s->sum / (double)s->n : 0.0;
}

static void stat_merge(struct sb_stat *d, const struct sb_stat *s)
{
	/* threads run side by side: the job's bandwidth is their sum - fio's
	 * group_reporting (sum_stat's pure sum): min, max, mean and S added,
	 * the samples counted together */
	double mean, S;

	if (!s->n)
		return;
	if (!d->n) {
		*d = *s;
		return;
	}
	mean = d->sum / (double)d->n + s->sum / (double)s->n;
	S = stat_s(d) + stat_s(s);
	d->min += s->min;
	d->max += s->max;
	d->n += s->n;
	d->sum = mean * (double)d->n;
	d->sumsq = S + d->sum * d->sum / (double)d->n;
}

/* res += one thread's result */
void sb_engine_merge_thread(struct sb_job_result *res, const struct sb_job_result *r)
{
	unsigned d;

	for (d = 0; d < 2; d++) {
		res->dir[d].io_bytes += r->dir[d].io_bytes;
		res->dir[d].ios += r->dir[d].ios;
		if (r->dir[d].runtime_ns > res->dir[d].runtime_ns)
			res->dir[d].runtime_ns = r->dir[d].runtime_ns;
		sb_hist_merge(&res->dir[d].clat, &r->dir[d].clat);
		sb_hist_merge(&res->dir[d].slat, &r->dir[d].slat);
		sb_hist_merge(&res->dir[d].lat, &r->dir[d].lat);
		stat_merge(&res->dir[d].bw_kib, &r->dir[d].bw_kib);
		stat_merge(&res->dir[d].iops, &r->dir[d].iops);
	}
	for (d = 0; d < 7; d++) {
		res->depth_level[d] += r->depth_level[d];
		res->submit_batch[d] += r->submit_batch[d];
		res->complete_batch[d] += r->complete_batch[d];
	}
	if (r->elapsed_ns > res->elapsed_ns)
		res->elapsed_ns = r->elapsed_ns;
	res->run_sum_ns += r->elapsed_ns;
	res->usr_sec += r->usr_sec;
	res->sys_sec += r->sys_sec;
	res->ctx += r->ctx;
	res->majf += r->majf;
	res->minf += r->minf;
	res->verify_errors += r->verify_errors;
	res->verified_blocks += r->verified_blocks;
	(void)sb_cprio_merge(res, r); /* out of memory: no per-priority figures */
	if (r->lat_depth && !res->lat_depth)
		res->lat_depth = r->lat_depth; /* latency_target: the first thread's */
}

void sb_job_result_merge(struct sb_job_result *into, const struct sb_job_result *r)
{
	uint64_t sum = (into->run_sum_ns ? into->run_sum_ns : into->elapsed_ns) +
		       (r->run_sum_ns ? r->run_sum_ns : r->elapsed_ns);

	sb_engine_merge_thread(into, r);
	into->run_sum_ns = sum;
}

static int write_log(const struct sb_job_opts *o, unsigned thread, enum sb_log_kind k,
		     const struct sb_log *l, struct sb_err *err)
{
	static const char *const kind[] = { "bw", "iops", "slat", "clat", "lat" };
	const char *prefix = k == SB_LOG_BW ? o->log_bw : k == SB_LOG_IOPS ? o->log_iops : o->log_lat;
	char path[512];
	FILE *f;
	size_t i;

	if (!prefix[0] || sb_measure_off(o, k))
		return 0;
	/* fio's numjobs clones are named after the section, not name= */
	if (thread > 0 && o->section[0] &&
	    (o->log_jobname & (k == SB_LOG_BW ? 1u : k == SB_LOG_IOPS ? 2u : 4u)))
		prefix = o->section;
	/* fio's gen_log_name; without per_job_logs every thread appends to one file */
	if (o->per_job_logs)
		snprintf(path, sizeof(path), "%s_%s.%u.log", prefix, kind[k], o->log_base + thread + 1);
	else
		snprintf(path, sizeof(path), "%s_%s.log", prefix, kind[k]);
	if (!(f = fopen(path, o->per_job_logs ? "w" : "a")))
		return sb_err_sys(err, -errno, "log %s", path);
	/* fio 3.33's log line: time (ms), value, direction, block size,
	 * [offset with log_offset,] priority (0/1 or with log_prio its value;
	 * fio's ioprio_value_is_class_rt: 1 for a realtime io) */
	for (i = 0; i < l->n; i++) {
		fprintf(f, "%llu, %llu, %u, %u, ", (unsigned long long)l->e[i].t_ms,
			(unsigned long long)l->e[i].value, l->e[i].dir, l->e[i].bs);
		if (o->log_offset)
			fprintf(f, "%llu, ", (unsigned long long)l->e[i].off);
		if (o->log_prio)
			fprintf(f, "0x%04x\n", l->e[i].prio);
		else
			fprintf(f, "%u\n", (l->e[i].prio >> SB_IOPRIO_CLASS_SHIFT) == 1);
	}
	if (fclose(f) != 0)
		return sb_err_sys(err, -errno, "writing %s", path);
	return 0;
}

/* The logs, and (per_thread) each thread's result, handed over to res;
 * the threads' own copies are released either way. */
int sb_engine_keep_threads(const struct sb_job_opts *o, struct worker *ws, struct sb_job_result *res,
			struct sb_err *err)
{
	unsigned i, k;
	int rc = 0;

	for (i = 0; i < o->numjobs; i++)
		for (k = 0; k < SB_LOG_NKIND && rc == 0; k++)
			rc = write_log(o, i, (enum sb_log_kind)k, &ws[i].res.log[k], err);
	if (rc == 0 && o->per_thread && o->numjobs > 1) {
		res->thread = calloc(o->numjobs, sizeof(*res->thread));
		if (!res->thread)
			rc = sb_err_set(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < o->numjobs; i++) {
		if (res->thread) {
			res->thread[i] = ws[i].res;
			ws[i].res.cprio = NULL; /* the thread's result owns it now */
			memset(res->thread[i].log, 0, sizeof(res->thread[i].log));
			snprintf(res->thread[i].jobname, sizeof(res->thread[i].jobname), "%s",
				 i > 0 && o->section[0] ? o->section : o->name);
		}
		for (k = 0; k < SB_LOG_NKIND; k++)
			free(ws[i].res.log[k].e);
	}
	if (res->thread)
		res->nthread = o->numjobs;
	return rc;
}

