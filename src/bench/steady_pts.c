/* SNIA PTS steady state (see steady_pts.h). */
#include "bench/steady_pts.h"

#include <math.h>
#include <stdio.h>

bool sb_pts_add(struct sb_pts *p, double y)
{
	const double *w;
	double mean = 0, lo, hi, sxy = 0, slope;
	unsigned i;

	if (sb_pts_done(p))
		return p->attained;
	p->y[p->n++] = y;
	if (p->n < SB_PTS_WINDOW)
		return false;
	w = p->y + p->n - SB_PTS_WINDOW;
	lo = hi = w[0];
	for (i = 0; i < SB_PTS_WINDOW; i++) {
		mean += w[i] / SB_PTS_WINDOW;
		lo = fmin(lo, w[i]);
		hi = fmax(hi, w[i]);
	}
	/* x = 0..4: Σx = 10, Σx² = 30; slope = Σ(x - 2)(y - mean) / 10 */
	for (i = 0; i < SB_PTS_WINDOW; i++)
		sxy += ((double)i - 2) * (w[i] - mean);
	slope = sxy / 10;
	if (!(mean > 0))
		return false;
	p->range_pct = 100 * (hi - lo) / mean;
	p->excursion_pct = 100 * fabs(slope) * (SB_PTS_WINDOW - 1) / mean;
	p->attained = p->range_pct <= SB_PTS_RANGE_PCT && p->excursion_pct <= SB_PTS_EXCURSION_PCT;
	return p->attained;
}

bool sb_pts_done(const struct sb_pts *p)
{
	return p->attained || p->n >= SB_PTS_MAX_ROUNDS;
}

struct json_object *sb_pts_json(const struct sb_pts *p)
{
	struct json_object *o = json_object_new_object(), *w = json_object_new_array();
	unsigned i, first = p->n > SB_PTS_WINDOW ? p->n - SB_PTS_WINDOW : 0;
	char why[160];

	for (i = first; i < p->n; i++)
		json_object_array_add(w, json_object_new_double(p->y[i]));
	json_object_object_add(o, "attained", json_object_new_boolean(p->attained));
	json_object_object_add(o, "rounds", json_object_new_int((int)p->n));
	json_object_object_add(o, "window", w);
	if (p->n >= SB_PTS_WINDOW) {
		json_object_object_add(o, "range_pct", json_object_new_double(p->range_pct));
		json_object_object_add(o, "excursion_pct", json_object_new_double(p->excursion_pct));
	}
	if (p->n >= SB_PTS_WINDOW)
		json_object_object_add(o, "window_mean", json_object_new_double(sb_pts_mean(p)));
	if (!p->attained)
		snprintf(why, sizeof(why), "not attained in %u round%s (PTS: max - min <= 20 %% and the fit's "
			 "excursion <= 10 %% of the mean over 5 rounds, at most 25)", p->n, p->n == 1 ? "" : "s");
	else
		snprintf(why, sizeof(why), "attained at round %u: over rounds %u-%u max - min is %.1f %% of the mean "
			 "(<= 20 %%), the fit's excursion %.1f %% (<= 10 %%)", p->n, p->n - SB_PTS_WINDOW + 1, p->n,
			 p->range_pct, p->excursion_pct);
	json_object_object_add(o, "why", json_object_new_string(why));
	return o;
}

double sb_pts_mean(const struct sb_pts *p)
{
	unsigned i, first = p->n > SB_PTS_WINDOW ? p->n - SB_PTS_WINDOW : 0;
	double sum = 0;

	for (i = first; i < p->n; i++)
		sum += p->y[i];
	return p->n ? sum / (p->n - first) : 0;
}
