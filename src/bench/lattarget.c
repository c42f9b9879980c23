/* fio 3.33's latency target (see lattarget.h). */
#include "bench/lattarget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/jobfio.h"
#include "bench/jobopt.h"

void sb_lat_cycle(struct sb_lat *l, uint64_t now, uint64_t ios)
{
	l->ts = now;
	l->ios0 = ios;
	l->failed = 0;
}

void sb_lat_init(struct sb_lat *l, const struct sb_job_opts *o, uint64_t now, uint64_t ios)
{
	memset(l, 0, sizeof(*l));
	l->o = o;
	l->on = o->lat.target_ns != 0;
	l->qd = l->on ? 1 : o->iodepth;
	l->qd_high = o->iodepth;
	l->qd_low = 1;
	sb_lat_cycle(l, now, ios);
}

/* fio's __lat_target_failed: true at depth 1 (give up) */
static bool failed(struct sb_lat *l, uint64_t now, uint64_t ios)
{
	if (l->qd == 1)
		return true;
	l->qd_high = l->qd;
	if (l->qd == l->qd_low)
		l->qd_low--;
	l->qd = (l->qd + l->qd_low) / 2;
	l->stable = 0;
	sb_lat_cycle(l, now, ios);
	return false;
}

int sb_lat_io(struct sb_lat *l, uint64_t lat_ns, uint64_t now, uint64_t ios)
{
	if (!l->on || lat_ns <= l->o->lat.target_ns)
		return SB_LAT_GO;
	if (l->o->lat.percentile != 100.0) {
		l->failed++;
		return SB_LAT_GO;
	}
	if (failed(l, now, ios))
		return SB_LAT_FATAL;
	l->drain = l->drain ? l->drain : 1;
	return SB_LAT_DRAIN;
}

/* fio's lat_target_success */
static int success(struct sb_lat *l, uint64_t now, uint64_t ios)
{
	unsigned qd = l->qd, depth = l->o->iodepth;

	l->qd_low = l->qd;
	if (l->qd + 1 == l->qd_high && ++l->stable >= 3) {
		l->qd_high++; /* stable: creep the ceiling up (fio's heuristic) */
		l->stable = 0;
	}
	if (l->qd_high != depth)
		l->qd = (l->qd + l->qd_high) / 2;
	else
		l->qd *= 2;
	if (l->qd > depth)
		l->qd = depth;
	if (!l->o->lat.run && l->qd == qd) {
		if (l->end_run)
			return SB_LAT_DONE;
		l->end_run = true;
		return SB_LAT_RESET; /* the caller drains, resets, starts the window */
	}
	sb_lat_cycle(l, now, ios);
	return SB_LAT_GO;
}

int sb_lat_check(struct sb_lat *l, uint64_t now, uint64_t ios)
{
	double ok;

	if (!l->on || now - l->ts < l->o->lat.window_us * 1000ULL)
		return SB_LAT_GO;
	/* no io done in the window: fio's 0/0 is NaN, below any percentile */
	ok = ios > l->ios0 ? (double)(ios - l->ios0 - l->failed) / (double)(ios - l->ios0) * 100.0 : 0.0;
	if (ok >= l->o->lat.percentile)
		return success(l, now, ios);
	return failed(l, now, ios) ? SB_LAT_GO : SB_LAT_DRAIN;
}

int sb_lat_after(struct sb_lat *l, int inflight, uint64_t now, uint64_t ios)
{
	int r;

	if (!l->on)
		return SB_LAT_GO;
	if (!l->drain) {
		r = sb_lat_check(l, now, ios);
		if (r == SB_LAT_DONE)
			return SB_LAT_DONE;
		l->drain = r == SB_LAT_RESET ? 2 : r == SB_LAT_DRAIN ? 1 : 0;
	}
	if (!l->drain || inflight > 0)
		return SB_LAT_GO;
	/* drained (maybe at once: nothing was in flight) */
	r = l->drain == 2 ? SB_LAT_RESET : SB_LAT_GO;
	l->drain = 0;
	if (r == SB_LAT_GO)
		sb_lat_cycle(l, now, ios);
	return r;
}

static int cb_target(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	uint64_t us;
	int rc = sb_jobfio_usec(o->name, v, UINT64_MAX, &us, err);

	if (rc == 0)
		j->lat.target_ns = us * 1000ULL; /* fio's init.c: nanoseconds inside */
	return rc;
}

static int cb_window(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	return sb_jobfio_usec(o->name, v, UINT64_MAX, &j->lat.window_us, err);
}

/* fio's FIO_OPT_FLOAT_LIST of one value, 0..100 */
static int cb_pct(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	char *end;
	double d = strtod(v, &end);

	if (end == v || *end || !(d >= 0.0 && d <= 100.0))
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not a percentage 0..100", o->name, v);
	j->lat.percentile = d;
	return 0;
}

const struct jopt jopts_lat[] = {
	{ "latency_target", NULL, JT_CB, NOF, 0, 0, "0",
	  "find the deepest queue whose ios finish within this (bare number: us)", cb_target },
	{ "latency_window", NULL, JT_CB, NOF, 0, 0, "0", "latency_target: the window judged (bare: us)", cb_window },
	{ "latency_percentile", NULL, JT_CB, NOF, 0, 0, "100",
	  "latency_target: % of a window's ios that must be within it", cb_pct },
	{ "latency_run", NULL, JT_BOOL, F(lat.run), 0, 0, "0",
	  "latency_target: keep adjusting the depth, never settle", NULL },
	{ NULL },
};
