/* Statistics for verdicts: confidence intervals of a ratio between two
 * sets of measurements, and a robust outlier rule. Pure functions over
 * arrays of doubles (no JSON, no rendering); the quantiles are GSL's.
 * docs/statistics.md says which method is used when, and why. */
#ifndef SB_STATS_STATS_H
#define SB_STATS_STATS_H

#include <stdbool.h>

#define SB_STATS_LEVEL 0.95      /* every interval stackbench prints */
#define SB_STATS_MIN_N 3         /* fewer samples on a side: no verdict */
#define SB_STATS_OUTLIER_K 3.5   /* outlier: more than K scaled MADs from the median */

enum sb_stats_method {
	SB_STATS_PAIRED = 1,     /* t interval of the mean of ln(b_r / a_r), rounds paired */
	SB_STATS_WELCH,          /* Welch t interval of mean(ln b) - mean(ln a) */
};

/* Where "b" stands against "a", as a ratio b/a: the point estimate and the
 * interval are exp() of the log-scale ones, given here as % differences. */
struct sb_stats_ci {
	enum sb_stats_method method;
	unsigned na, nb;         /* samples used (paired: na == nb == pairs) */
	double df;               /* degrees of freedom of the t quantile */
	double diff_pct;         /* 100 * (exp(est) - 1) */
	double lo_pct, hi_pct;   /* 100 * (exp(est -/+ h) - 1) */
	double half_pct;         /* 100 * (exp(h) - 1): the smallest difference this data could see */
};

/* Paired: n rounds, a[r] and b[r] measured in round r; all values > 0.
 * Returns 0, or -EINVAL (n < 2, a value <= 0 or not finite). */
int sb_stats_paired_ci(const double *a, const double *b, unsigned n, double level,
		       struct sb_stats_ci *ci);

/* Unpaired (Welch-Satterthwaite on log values); na, nb >= 2; values > 0. */
int sb_stats_welch_ci(const double *a, unsigned na, const double *b, unsigned nb, double level,
		      struct sb_stats_ci *ci);

/* One sample's interval of its geometric mean: half-width in % (the
 * precision --repeat auto waits for). n >= 2, values > 0; NAN otherwise. */
double sb_stats_half_pct(const double *v, unsigned n, double level);

/* -1: the interval lies wholly below 0 % (b lower than a), +1 wholly
 * above, 0: it holds 0 (no detectable difference). */
int sb_stats_ci_sign(const struct sb_stats_ci *ci);

/* Median absolute deviation scaled by 1.4826 (the normal's sigma). */
double sb_stats_scaled_mad(const double *v, unsigned n);

/* Flags (out[i] = true) every v[i] further than k scaled MADs from the
 * median; returns how many. n < 3 or MAD 0 with all equal: none. */
unsigned sb_stats_outliers(const double *v, unsigned n, double k, bool *out);

const char *sb_stats_method_name(enum sb_stats_method m);

#endif
