#include "bench/job.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/filelayout.h"
#include "bench/joberr.h"
#include "bench/jobargs.h"
#include "util/units.h"

static const char *const rw_names[] = {
	[SB_RW_READ] = "read", [SB_RW_WRITE] = "write", [SB_RW_RANDREAD] = "randread",
	[SB_RW_RANDWRITE] = "randwrite", [SB_RW_RW] = "rw", [SB_RW_RANDRW] = "randrw",
};

int sb_rw_parse(const char *s, enum sb_rw *out)
{
	unsigned i;

	for (i = 0; i < sizeof(rw_names) / sizeof(rw_names[0]); i++)
		if (!strcmp(s, rw_names[i])) {
			*out = (enum sb_rw)i;
			return 0;
		}
	/* fio spells rw also as readwrite */
	if (!strcmp(s, "readwrite")) {
		*out = SB_RW_RW;
		return 0;
	}
	return -EINVAL;
}

const char *sb_rw_name(enum sb_rw rw)
{
	return rw_names[rw];
}

void sb_job_opts_init(struct sb_job_opts *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->name, sizeof(o->name), "job");
	o->rw = SB_RW_READ;
	o->rwmixread = 50;
	o->bs = 4096;
	o->iodepth = 1;
	o->numjobs = 1;
	o->loops = 1;
	o->lat.percentile = 100.0; /* fio's latency_percentile */
	/* fio 3.33's defaults (options.c): buffered psync, one io per submit,
	 * the cache invalidated on open, a random map, files kept */
	o->ioengine = SB_IOENGINE_PSYNC;
	o->iodepth_batch = 1;
	o->batch_cmin = 1;
	o->invalidate = true;
	o->randommap = true;
	o->keep_files = true;
	/* output family: fio's steadystate default (off until ss_dur), per_job_logs=1 */
	o->ss.what = SB_SS_IOPS;
	o->ss.slope = true;
	o->ss.pct = true;
	o->ss.limit = 0.01;
	o->per_job_logs = true;
	sb_jobbs_init(&o->bsd);
	o->eng.cpuchunks = 50000; /* fio's cpuio */
	o->eng.grace_time = 1;    /* fio's exec */
	o->eng.std_redirect = true;
	o->rate_cycle_ms = 1000;
	o->thinktime_blocks = 1;
	sb_fl_init(o);  /* file layout family (bench/filelayout.c) */
}

void sb_job_opts_suite(struct sb_job_opts *o)
{
	o->direct = true;
	o->ioengine = SB_IOENGINE_LIBAIO;
	o->iodepth_batch = 0;
	o->batch_cmax = UINT32_MAX;  /* reap whatever is done, up to the whole depth */
	o->invalidate = false;
	o->randommap = false;
	o->keep_files = false;
	o->fl.suite = true;
}

int sb_job_parse_args(int argc, char **argv, struct sb_job_opts *o,
		      enum sb_output_format *fmt, struct sb_err *err)
{
	struct sb_job_cli c;
	int rc = sb_job_cli_parse(argc, argv, &c, err);

	if (rc == 0 && c.njobs != 1)
		rc = sb_err_set(err, -EINVAL, "%u jobs; this caller runs one", c.njobs);
	if (rc == 0) {
		*o = c.jobs[0];
		*fmt = c.fmt;
	}
	sb_job_cli_free(&c);
	return rc;
}

int sb_job_opts_check(const struct sb_job_opts *o, struct sb_err *err)
{
	int rc;

	if (o->bs < 512 || o->bs % 512)
		return sb_err_set(err, -EINVAL, "--bs: %llu is not a multiple of 512 bytes",
				  (unsigned long long)o->bs);
	if (o->bs > (64u << 20))
		return sb_err_set(err, -EINVAL, "--bs: at most 64 MiB");
	if (o->size && o->size < o->bs)
		return sb_err_set(err, -EINVAL, "--size: smaller than --bs");
	if (o->ramp_ns && !o->runtime_ns)
		return sb_err_set(err, -EINVAL, "--ramp needs --runtime (a time-based job)");
	if (o->verify && o->loops > 1)
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --loops with --verify");
	if (o->verify && o->runtime_ns)
		return sb_err_set(err, -EINVAL, "--verify works on size-based jobs; drop --runtime");
	if (o->verify && (o->rw == SB_RW_RW || o->rw == SB_RW_RANDRW))
		return sb_err_set(err, -EINVAL, "--verify: use write/randwrite (write, then read back) "
				  "or read/randread (check data written earlier)");
	if (o->verify && o->bs < 4096 && o->bs % 512)
		return sb_err_set(err, -EINVAL, "--verify: bs must be a multiple of 512");
	if ((rc = sb_cprio_check(o, err)) < 0)
		return rc;
	return sb_joberr_check(o, err);
}

void sb_stat_add(struct sb_stat *s, double v)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (!s->n || v > s->max)
		s->max = v;
	s->n++;
	s->sum += v;
	s->sumsq += v * v;
}

double sb_stat_mean(const struct sb_stat *s)
{
	return s->n ? s->sum / (double)s->n : 0.0;
}

double sb_stat_dev(const struct sb_stat *s)
{
	double n = (double)s->n, var;

	if (s->n < 2)
		return 0.0;
	var = (s->sumsq - s->sum * s->sum / n) / (n - 1.0);
	return var > 0 ? sqrt(var) : 0.0;
}

void sb_job_result_release(struct sb_job_result *r)
{
	unsigned i;

	for (i = 0; i < SB_LOG_NKIND; i++) {
		free(r->log[i].e);
		r->log[i].e = NULL;
		r->log[i].n = r->log[i].cap = 0;
	}
	for (i = 0; i < r->nthread; i++)
		sb_job_result_release(&r->thread[i]);
	free(r->thread);
	r->thread = NULL;
	r->nthread = 0;
	sb_cprio_free(r);
	if (r->ss) {
		sb_ss_free(r->ss);
		free(r->ss);
		r->ss = NULL;
	}
}
