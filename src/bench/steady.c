/* fio's steady state criteria and JSON block (see steady.h). */
#include "bench/steady.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = { "iops", "bw", "lat" };

int sb_ss_parse(const char *s, struct sb_ss_spec *sp, struct sb_err *err)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	char *end;
	unsigned i;
	double v;

	sp->slope = len > 6 && !strncmp(s + len - 6, "_slope", 6);
	for (i = 0; i < 3; i++)
		if (strlen(names[i]) == len - (sp->slope ? 6 : 0) && !strncmp(s, names[i], strlen(names[i])))
			break;
	if (i == 3)
		return sb_err_set(err, -EINVAL, "steadystate: '%.*s' is not a criterion; allowed: iops, iops_slope, "
				  "bw, bw_slope, lat, lat_slope", (int)len, s);
	sp->what = (enum sb_ss_what)i;
	if (!colon || !colon[1])
		return sb_err_set(err, -EINVAL, "steadystate threshold must be specified in addition to criterion");
	errno = 0;
	v = strtod(colon + 1, &end);
	sp->pct = *end == '%';
	if (sp->pct)
		end++;
	if (end == colon + 1 || *end || errno || !isfinite(v) || v < 0)
		return sb_err_set(err, -EINVAL, "steadystate: could not parse the threshold '%s' (a number, or N%%)",
				  colon + 1);
	sp->limit = v;
	return 0;
}

int sb_ss_init(struct sb_ss *ss, const struct sb_ss_spec *sp, struct sb_err *err)
{
	uint64_t iv = sp->interval_ms ? sp->interval_ms : 1000, n = sp->dur_s * 1000 / iv;

	memset(ss, 0, sizeof(*ss));
	if (!n || n > SB_SS_MAX_SAMPLES)
		return sb_err_set(err, -EINVAL, "steadystate: ss_dur %llu s over ss_interval %llu ms is %llu samples; "
				  "allowed 1 to %d", (unsigned long long)sp->dur_s, (unsigned long long)iv,
				  (unsigned long long)n, SB_SS_MAX_SAMPLES);
	if (sp->slope && n < 2)
		return sb_err_set(err, -EINVAL, "steadystate: a slope needs at least 2 samples in the window "
				  "(ss_dur %llu s, ss_interval %llu ms)", (unsigned long long)sp->dur_s,
				  (unsigned long long)iv);
	ss->spec = *sp;
	ss->spec.interval_ms = iv;
	ss->n = (unsigned)n;
	ss->iops = calloc(n, sizeof(uint64_t));
	ss->bw = calloc(n, sizeof(uint64_t));
	ss->lat = calloc(n, sizeof(uint64_t));
	if (!ss->iops || !ss->bw || !ss->lat) {
		sb_ss_free(ss);
		return sb_err_set(err, -ENOMEM, "out of memory");
	}
	return 0;
}

void sb_ss_free(struct sb_ss *ss)
{
	free(ss->iops);
	free(ss->bw);
	free(ss->lat);
	ss->iops = ss->bw = ss->lat = NULL;
}

bool sb_ss_collecting(const struct sb_ss_spec *sp, uint64_t elapsed_ns)
{
	return !sp->ramp_ns || elapsed_ns >= sp->ramp_ns + 1000000000ULL;
}

static const uint64_t *judged(const struct sb_ss *ss)
{
	return ss->spec.what == SB_SS_IOPS ? ss->iops : ss->spec.what == SB_SS_BW ? ss->bw : ss->lat;
}

static void push(uint64_t *a, unsigned n, unsigned filled, uint64_t v)
{
	if (filled < n) {
		a[filled] = v;
		return;
	}
	memmove(a, a + 1, (n - 1) * sizeof(*a));
	a[n - 1] = v;
}

/* The window's sums in integers, as fio keeps them. */
static void sums(const struct sb_ss *ss, uint64_t *sum_y, uint64_t *sum_xy)
{
	const uint64_t *y = judged(ss);
	unsigned i;

	*sum_y = *sum_xy = 0;
	for (i = 0; i < ss->n; i++) {
		*sum_y += y[i];
		*sum_xy += (uint64_t)i * y[i];
	}
}

bool sb_ss_add(struct sb_ss *ss, uint64_t iops, uint64_t bw, uint64_t lat_ns)
{
	const uint64_t n = ss->n, sum_x = n * (n - 1) / 2, sum_x2 = (n - 1) * n * (2 * n - 1) / 6;
	const uint64_t *y = judged(ss);
	uint64_t sum_y, sum_xy;
	double mean, d;
	unsigned i;

	if (ss->attained)   /* fio ends the job there: the window stays as it was */
		return true;
	push(ss->iops, ss->n, ss->filled, iops);
	push(ss->bw, ss->n, ss->filled, bw);
	push(ss->lat, ss->n, ss->filled, lat_ns);
	if (ss->filled < ss->n)
		ss->filled++;
	if (ss->filled < ss->n)
		return false;
	sums(ss, &sum_y, &sum_xy);
	if (ss->spec.slope) {
		/* n >= 2 (sb_ss_init) */
		ss->slope = ((double)sum_xy - (double)sum_x * sum_y / n) /
			    ((double)sum_x2 - (double)sum_x * sum_x / n);
		/* fio divides by the integer mean here */
		ss->criterion = ss->spec.pct ? 100.0 * ss->slope / (double)(sum_y / n) : ss->slope;
		ss->attained = fabs(ss->criterion) < ss->spec.limit;
	} else {
		mean = (double)sum_y / n;
		ss->deviation = 0;
		for (i = 0; i < n; i++) {
			d = fabs((double)y[i] - mean);
			if (d > ss->deviation)
				ss->deviation = d;
		}
		ss->criterion = ss->spec.pct ? 100.0 * ss->deviation / mean : ss->deviation;
		ss->attained = ss->criterion < ss->spec.limit;
	}
	return ss->attained;
}

static struct json_object *arr(const uint64_t *a, unsigned n, uint64_t *mean)
{
	struct json_object *o = json_object_new_array();
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		json_object_array_add(o, json_object_new_int64((int64_t)a[i]));
		sum += a[i];
	}
	*mean = sum / n;
	return o;
}

struct json_object *sb_ss_json(const struct sb_ss *ss)
{
	struct json_object *o = json_object_new_object(), *data = json_object_new_object();
	struct json_object *iops, *bw, *lat = NULL;
	uint64_t im, bm, lm = 0;
	char buf[96];

	snprintf(buf, sizeof(buf), "%s%s:%f%s", names[ss->spec.what], ss->spec.slope ? "_slope" : "",
		 (double)(float)ss->spec.limit, ss->spec.pct ? "%" : "");
	json_object_object_add(o, "ss", json_object_new_string(buf));
	json_object_object_add(o, "duration", json_object_new_int((int)ss->spec.dur_s));
	json_object_object_add(o, "attained", json_object_new_int(ss->attained));
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)ss->criterion, ss->spec.pct ? "%" : "");
	json_object_object_add(o, "criterion", json_object_new_string(buf));
	/* fio prints its floats with %f */
	snprintf(buf, sizeof(buf), "%f", ss->deviation);
	json_object_object_add(o, "max_deviation", json_object_new_double_s(ss->deviation, buf));
	snprintf(buf, sizeof(buf), "%f", ss->slope);
	json_object_object_add(o, "slope", json_object_new_double_s(ss->slope, buf));
	iops = arr(ss->iops, ss->n, &im);
	bw = arr(ss->bw, ss->n, &bm);
	if (ss->spec.what == SB_SS_LAT)
		lat = arr(ss->lat, ss->n, &lm);
	json_object_object_add(data, "bw_mean", json_object_new_int64((int64_t)bm));
	json_object_object_add(data, "iops_mean", json_object_new_int64((int64_t)im));
	if (lat) {
		json_object_object_add(data, "lat_mean", json_object_new_int64((int64_t)lm));
		json_object_object_add(data, "lat_ns", lat);
	}
	json_object_object_add(data, "iops", iops);
	json_object_object_add(data, "bw", bw);
	json_object_object_add(o, "data", data);
	return o;
}
