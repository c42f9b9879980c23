/* The options of fio's rate, thinktime, startdelay and flow family, as
 * fio 3.33's options.c spells them (per direction: "R[,W[,T]]", a value
 * alone for every direction, an empty one left as it was; stackbench has
 * no trims, so T sets nothing). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/jobfio.h"
#include "bench/jobopt.h"
#include "bench/rate.h"

static int whole(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v > max ? -EINVAL : 0;
}

/* "a[,b[,c]]" into out[0..1] (bytes with units, or whole numbers) as
 * fio's FIO_OPT_ULL/INT with off1..off3: the last value given goes on to
 * the directions after it. */
static int per_dir(const struct jopt *o, const char *v, bool bytes, uint64_t out[2], struct sb_err *err)
{
	char buf[128], *part;
	uint64_t val[3] = { 0 };
	bool set[3] = { false };
	int i = 0, last = -1;
	struct sb_err e = { 0 };

	if (strlen(v) >= sizeof(buf))
		return sb_err_set(err, -EINVAL, "--%s: '%s' is too long", o->name, v);
	snprintf(buf, sizeof(buf), "%s", v);
	for (part = buf; part && i < 3; i++) {
		char *comma = strchr(part, ',');

		if (comma)
			*comma = '\0';
		if (*part) {
			if (bytes ? sb_jobfio_size(part, &val[i], &e) < 0 : whole(part, UINT32_MAX, &val[i]) < 0)
				return sb_err_set(err, -EINVAL, "--%s: '%s' is not %s", o->name, part,
						  bytes ? "a rate in bytes/s (with k, m, g)" : "a whole number");
			set[i] = true;
			last = i;
		}
		part = comma ? comma + 1 : NULL;
	}
	if (part)
		return sb_err_set(err, -EINVAL, "--%s: at most three values (read,write,trim) in '%s'", o->name, v);
	for (i = 0; i < 2; i++)
		if (set[i])
			out[i] = val[i];
		else if (last >= 0 && last < i)
			out[i] = val[last];
	return 0;
}

static int cb_rate(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	uint64_t *f = (uint64_t *)((char *)j + o->off);

	return per_dir(o, v, true, f, err);
}

static int cb_iops(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	uint32_t *f = (uint32_t *)((char *)j + o->off);
	uint64_t d[2] = { f[0], f[1] };
	int rc = per_dir(o, v, false, d, err);

	f[0] = (uint32_t)d[0];
	f[1] = (uint32_t)d[1];
	return rc;
}

static int cb_process(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	if (strcmp(v, "linear") && strcmp(v, "poisson"))
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not linear or poisson", o->name, v);
	j->rate_poisson = !strcmp(v, "poisson");
	return 0;
}

/* fio's is_time ints: a bare number is microseconds */
static int cb_usec(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	return sb_jobfio_usec(o->name, v, UINT32_MAX, (uint64_t *)((char *)j + o->off), err);
}

static int cb_ttype(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	if (strcmp(v, "complete") && strcmp(v, "issue"))
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not complete or issue", o->name, v);
	j->thinktime_issue = !strcmp(v, "issue");
	return 0;
}

static int cb_startdelay(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_err e = { 0 };

	if (strchr(v, '-'))
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --%s=%s (a range)", o->name, v);
	if (sb_jobfio_duration(v, &j->startdelay_ns, &e) < 0)
		return sb_err_set(err, -EINVAL, "--%s: %s", o->name, e.msg);
	return 0;
}

static int cb_deprecated(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	(void)v; (void)j; (void)err;
	fprintf(stderr, "Option %s is deprecated\n", o->name); /* fio's words; it has no effect there */
	return 0;
}

/* fio's str_gtod_reduce_cb: 1 disables every measurement that reads the
 * clock per io; 0 leaves them as they are */
static int cb_gtod(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not 0 or 1", o->name, v);
	if (v[0] == '1')
		j->disable_lat = j->disable_clat = j->disable_slat = j->disable_bw = true;
	return 0;
}

const struct jopt jopts_rate[] = {
	{ "rate", NULL, JT_CB, F(rate), 0, 0, "0", "cap bandwidth, bytes/s per direction (R,W,T)", cb_rate },
	{ "rate_iops", NULL, JT_CB, F(rate_iops), 0, 0, "0", "cap IOPS per direction (R,W,T)", cb_iops },
	{ "rate_min", "ratemin", JT_CB, F(rate_min), 0, 0, "0", "fail when bandwidth falls below, per rate_cycle", cb_rate },
	{ "rate_iops_min", NULL, JT_CB, F(rate_iops_min), 0, 0, "0", "fail when IOPS fall below, per rate_cycle", cb_iops },
	{ "rate_process", NULL, JT_CB, NOF, 0, 0, "linear", "linear, or poisson (exponential gaps)", cb_process },
	{ "rate_cycle", NULL, JT_U32, F(rate_cycle_ms), 0, UINT32_MAX, "1000", "window of rate_min, ms", NULL },
	{ "rate_ignore_thinktime", NULL, JT_BOOL, F(rate_ign_think), 0, 0, "0", "the rate does not count thinktime", NULL },
	{ "thinktime", NULL, JT_CB, F(thinktime_us), 0, 0, "0", "pause between ios (bare number: us)", cb_usec },
	{ "thinktime_spin", NULL, JT_CB, F(thinktime_spin_us), 0, 0, "0", "of the pause, busy-wait this long", cb_usec },
	{ "thinktime_blocks", NULL, JT_U32, F(thinktime_blocks), 1, UINT32_MAX, "1", "ios between pauses", NULL },
	{ "thinktime_blocks_type", NULL, JT_CB, NOF, 0, 0, "complete", "count completed or issued ios", cb_ttype },
	{ "startdelay", NULL, JT_CB, NOF, 0, 0, "0", "start the job this long after the others (bare: s)", cb_startdelay },
	{ "flow_id", NULL, JT_U32, F(flow_id), 0, UINT32_MAX, "0", "jobs of one flow_id share flow control", NULL },
	{ "flow", NULL, JT_U32, F(flow), 0, 1000, "0", "weight of the job's ios in its flow_id", NULL },
	{ "flow_sleep", NULL, JT_U32, F(flow_sleep_us), 0, UINT32_MAX, "0", "us to sleep when held back by flow", NULL },
	{ "flow_watermark", NULL, JT_CB, NOF, 0, 0, NULL, "deprecated in fio; no effect", cb_deprecated },
	{ "gtod_reduce", NULL, JT_CB, NOF, 0, 0, "0", "no latency measurement (disable_lat, clat, slat, bw)", cb_gtod },
	{ "disable_lat", NULL, JT_BOOL, F(disable_lat), 0, 0, "0", "no total latency (lat) figures or log", NULL },
	{ "disable_clat", NULL, JT_BOOL, F(disable_clat), 0, 0, "0", "no completion latency figures, percentiles or log", NULL },
	{ "disable_slat", NULL, JT_BOOL, F(disable_slat), 0, 0, "0", "no submission latency figures or log", NULL },
	{ "disable_bw_measurement", "disable_bw", JT_BOOL, F(disable_bw), 0, 0, "0", "no per-io bandwidth log", NULL },
	{ NULL },
};
