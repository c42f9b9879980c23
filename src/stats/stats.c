/* Confidence intervals of ratios (log scale, Student t from GSL) and the
 * MAD outlier rule. See stats.h and docs/statistics.md. */
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort.h>

/* ln of every value, or -EINVAL when one is not > 0 and finite. */
static int logs(const double *v, unsigned n, double *out)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]))
			return -EINVAL;
		out[i] = log(v[i]);
	}
	return 0;
}

static void fill(struct sb_stats_ci *ci, double est, double se, double df, double level)
{
	double t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, df), h = t * se;

	ci->df = df;
	ci->diff_pct = 100 * expm1(est);
	ci->lo_pct = 100 * expm1(est - h);
	ci->hi_pct = 100 * expm1(est + h);
	ci->half_pct = 100 * expm1(h);
}

int sb_stats_paired_ci(const double *a, const double *b, unsigned n, double level,
		       struct sb_stats_ci *ci)
{
	double *d, *lb, m, sd;
	unsigned i;
	int r = -EINVAL;

	if (n < 2)
		return -EINVAL;
	d = malloc(2 * n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	lb = d + n;
	if (logs(a, n, d) < 0 || logs(b, n, lb) < 0)
		goto out;
	for (i = 0; i < n; i++)
		d[i] = lb[i] - d[i];
	m = gsl_stats_mean(d, 1, n);
	sd = gsl_stats_sd_m(d, 1, n, m);
	memset(ci, 0, sizeof(*ci));
	ci->method = SB_STATS_PAIRED;
	ci->na = ci->nb = n;
	fill(ci, m, sd / sqrt(n), n - 1, level);
	r = 0;
out:
	free(d);
	return r;
}

int sb_stats_welch_ci(const double *a, unsigned na, const double *b, unsigned nb, double level,
		      struct sb_stats_ci *ci)
{
	double *la, *lb, ma, mb, va, vb, se2, df;
	int r = -EINVAL;

	if (na < 2 || nb < 2)
		return -EINVAL;
	la = malloc((na + nb) * sizeof(*la));
	if (!la)
		return -ENOMEM;
	lb = la + na;
	if (logs(a, na, la) < 0 || logs(b, nb, lb) < 0)
		goto out;
	ma = gsl_stats_mean(la, 1, na);
	mb = gsl_stats_mean(lb, 1, nb);
	va = gsl_stats_variance_m(la, 1, na, ma) / na;
	vb = gsl_stats_variance_m(lb, 1, nb, mb) / nb;
	se2 = va + vb;
	/* Welch-Satterthwaite; both variances 0 (identical values): df of the pooled case */
	df = se2 > 0 ? se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1)) : na + nb - 2;
	memset(ci, 0, sizeof(*ci));
	ci->method = SB_STATS_WELCH;
	ci->na = na;
	ci->nb = nb;
	fill(ci, mb - ma, sqrt(se2), df, level);
	r = 0;
out:
	free(la);
	return r;
}

double sb_stats_half_pct(const double *v, unsigned n, double level)
{
	double *l, m, sd, h = NAN;

	if (n < 2 || !(l = malloc(n * sizeof(*l))))
		return NAN;
	if (logs(v, n, l) == 0) {
		m = gsl_stats_mean(l, 1, n);
		sd = gsl_stats_sd_m(l, 1, n, m);
		h = 100 * expm1(gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, n - 1) * sd / sqrt(n));
	}
	free(l);
	return h;
}

int sb_stats_ci_sign(const struct sb_stats_ci *ci)
{
	if (ci->lo_pct > 0)
		return 1;
	if (ci->hi_pct < 0)
		return -1;
	return 0;
}

double sb_stats_scaled_mad(const double *v, unsigned n)
{
	double *c, *w, med, mad;
	unsigned i;

	if (!n || !(c = malloc(2 * n * sizeof(*c))))
		return NAN;
	w = c + n;
	memcpy(c, v, n * sizeof(*c));
	gsl_sort(c, 1, n);
	med = gsl_stats_median_from_sorted_data(c, 1, n);
	for (i = 0; i < n; i++)
		w[i] = fabs(v[i] - med);
	gsl_sort(w, 1, n);
	mad = gsl_stats_median_from_sorted_data(w, 1, n);
	free(c);
	return 1.4826 * mad;
}

unsigned sb_stats_outliers(const double *v, unsigned n, double k, bool *out)
{
	double *c, med, mad;
	unsigned i, cnt = 0;

	memset(out, 0, n * sizeof(*out));
	if (n < 3 || !(c = malloc(n * sizeof(*c))))
		return 0;
	memcpy(c, v, n * sizeof(*c));
	gsl_sort(c, 1, n);
	med = gsl_stats_median_from_sorted_data(c, 1, n);
	free(c);
	mad = sb_stats_scaled_mad(v, n);
	if (!(mad > 0))
		return 0; /* more than half the values equal: no scale to judge by */
	for (i = 0; i < n; i++)
		if (fabs(v[i] - med) > k * mad)
			cnt += out[i] = true;
	return cnt;
}

const char *sb_stats_method_name(enum sb_stats_method m)
{
	switch (m) {
	case SB_STATS_PAIRED: return "paired t on log ratios";
	case SB_STATS_WELCH: return "Welch t on log values";
	}
	return "?";
}
