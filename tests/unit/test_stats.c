/* The statistics of verdicts (src/stats) against values computed
 * independently, their coverage by simulation, and verdicts in the table
 * model (report/verdict.c). Expected values: python3 with numpy 1.24 and
 * scipy 1.10 (Debian 12's python3-scipy), the commands quoted by each test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <json-c/json.h>

#include "stats/stats.h"
#include "report/table.h"
#include "report/html.h"
#include "report/render.h"
#include "run/auto.h"

static const double A[] = { 100, 104, 98, 101, 103 };
static const double B[] = { 90, 95, 88, 92, 94 };
static const double B2[] = { 90, 97, 85, 93 };

#define near(x, want) assert_true(fabs((x) - (want)) < 1e-9 * (1 + fabs(want)))

/* d = np.log(B/A); stats.ttest_rel(np.log(B), np.log(A)).confidence_interval(0.95),
 * exp()'ed: -10.219633298661208, -8.378540255334634; mean -9.303758327105934;
 * half 100*expm1(stats.t.ppf(0.975, 4) * d.std(ddof=1) / sqrt(5)) = 1.020128347884809 */
static void test_paired(void **state)
{
	struct sb_stats_ci ci;

	assert_int_equal(sb_stats_paired_ci(A, B, 5, 0.95, &ci), 0);
	assert_int_equal(ci.method, SB_STATS_PAIRED);
	near(ci.diff_pct, -9.303758327105934);
	near(ci.lo_pct, -10.219633298661208);
	near(ci.hi_pct, -8.378540255334634);
	near(ci.half_pct, 1.020128347884809);
	near(ci.df, 4.0);
	assert_int_equal(sb_stats_ci_sign(&ci), -1);
}

/* la, lb = np.log(A), np.log(B2); va, vb = la.var(ddof=1)/5, lb.var(ddof=1)/4;
 * df = (va+vb)**2/(va**2/4 + vb**2/3) = 3.8655788927125707 (the t statistic
 * matches stats.ttest_ind(lb, la, equal_var=False)); h = stats.t.ppf(0.975,
 * df)*sqrt(va+vb): 100*expm1(m -/+ h) = -17.16422896391602, -2.0345507117797643 */
static void test_welch(void **state)
{
	struct sb_stats_ci ci;

	assert_int_equal(sb_stats_welch_ci(A, 5, B2, 4, 0.95, &ci), 0);
	assert_int_equal(ci.method, SB_STATS_WELCH);
	near(ci.df, 3.8655788927125707);
	near(ci.diff_pct, -9.916463620225766);
	near(ci.lo_pct, -17.16422896391602);
	near(ci.hi_pct, -2.0345507117797643);
	near(ci.half_pct, 8.749559825468472);
	assert_int_equal(sb_stats_ci_sign(&ci), -1);
	/* against itself: 0 inside */
	assert_int_equal(sb_stats_welch_ci(A, 5, A, 5, 0.95, &ci), 0);
	near(ci.diff_pct, 0.0);
	assert_int_equal(sb_stats_ci_sign(&ci), 0);
}

/* 100*expm1(stats.t.ppf(0.975, 4) * np.log(A).std(ddof=1) / sqrt(5)) */
static void test_half_and_bad_input(void **state)
{
	const double bad[] = { 100, 0, 98 }, nan3[] = { 1, NAN, 2 };
	struct sb_stats_ci ci;

	near(sb_stats_half_pct(A, 5, 0.95), 2.9778932928322064);
	assert_true(isnan(sb_stats_half_pct(A, 1, 0.95)));
	assert_int_equal(sb_stats_paired_ci(A, bad, 3, 0.95, &ci), -EINVAL);
	assert_int_equal(sb_stats_welch_ci(nan3, 3, A, 3, 0.95, &ci), -EINVAL);
	assert_int_equal(sb_stats_paired_ci(A, B, 1, 0.95, &ci), -EINVAL);
}

/* stats.median_abs_deviation(v, scale='normal') = 0.14826022185055968
 * (1/Phi^-1(3/4); stackbench's 1.4826 differs in the 7th digit) */
static void test_outliers(void **state)
{
	const double v[] = { 10, 10.2, 9.9, 10.1, 10.0, 14 }, same[] = { 5, 5, 5, 9 };
	bool out[6];

	assert_true(fabs(sb_stats_scaled_mad(v, 6) - 0.14826022185055968) < 1e-6);
	assert_int_equal(sb_stats_outliers(v, 6, SB_STATS_OUTLIER_K, out), 1);
	assert_true(out[5] && !out[0] && !out[1]);
	assert_int_equal(sb_stats_outliers(v, 2, SB_STATS_OUTLIER_K, out), 0);
	assert_int_equal(sb_stats_outliers(same, 4, SB_STATS_OUTLIER_K, out), 0); /* MAD 0 */
}

/* ---- coverage: 2,000 simulated runs of 5 samples, B = 0.9 x A's law ---- */

enum law { NORMAL, LOGNORMAL, STALLS };

static double draw(gsl_rng *r, enum law l)
{
	double x;

	switch (l) {
	case NORMAL: return 100 + gsl_ran_gaussian(r, 5);
	case LOGNORMAL: return gsl_ran_lognormal(r, log(100), 0.1);
	default:
		x = 100 + gsl_ran_gaussian(r, 3);
		return gsl_rng_uniform(r) < 0.05 ? 0.6 * x : x;  /* 5 % of rounds stalled */
	}
}

static double coverage(enum law l, bool paired)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned i, k, hit = 0, runs = 2000;

	gsl_rng_set(r, 20261202 + l * 2 + paired);
	for (i = 0; i < runs; i++) {
		double a[5], b[5];
		struct sb_stats_ci ci;

		for (k = 0; k < 5; k++) {
			/* paired: a drift of the machine per round moves both alike */
			double drift = paired ? 1 + gsl_ran_gaussian(r, 0.05) : 1;

			a[k] = draw(r, l) * drift;
			b[k] = 0.9 * draw(r, l) * drift;
		}
		if (paired)
			assert_int_equal(sb_stats_paired_ci(a, b, 5, 0.95, &ci), 0);
		else
			assert_int_equal(sb_stats_welch_ci(a, 5, b, 5, 0.95, &ci), 0);
		hit += ci.lo_pct <= -10 + 1e-9 && ci.hi_pct >= -10 - 1e-9;
	}
	gsl_rng_free(r);
	return hit / (double)runs;
}

static void test_coverage(void **state)
{
	const char *names[] = { "normal", "lognormal", "5 % stalls" };
	int l, p;

	for (l = NORMAL; l <= STALLS; l++)
		for (p = 0; p <= 1; p++) {
			double c = coverage((enum law)l, p);

			print_message("coverage %s %s: %.3f\n", names[l], p ? "paired" : "Welch", c);
			assert_true(c >= 0.93);
			/* heavy tails widen a t interval: conservative, documented */
			assert_true(c <= (l == STALLS ? 0.99 : 0.97));
		}
}

/* ---- verdicts in the table model ---- */

/* A results object of stack name: suite's figure (unit MB/s) per repetition;
 * interleaved: run_order as build-and-test --interleave writes it. */
static struct json_object *res_of(const char *name, bool interleaved, const char *suite,
				  const char *figure, const double *v, unsigned n)
{
	struct json_object *r = json_object_new_object(), *st = json_object_new_object();
	struct json_object *host = json_object_new_object(), *suites = json_object_new_array();
	unsigned i;

	json_object_object_add(st, "name", json_object_new_string(name));
	json_object_object_add(st, "requested", json_object_new_object());   /* required: the reader's shape */
	json_object_object_add(r, "stack", st);
	json_object_object_add(host, "hostname", json_object_new_string("h"));
	json_object_object_add(r, "host", host);
	for (i = 0; i < n; i++) {
		struct json_object *s = json_object_new_object(), *figs = json_object_new_object();
		struct json_object *f = json_object_new_object();

		json_object_object_add(s, "suite", json_object_new_string(suite));
		json_object_object_add(s, "repetition", json_object_new_int((int)i + 1));
		json_object_object_add(f, "value", json_object_new_double(v[i]));
		json_object_object_add(f, "unit", json_object_new_string("MB/s"));
		json_object_object_add(figs, figure, f);
		json_object_object_add(s, "figures", figs);
		json_object_array_add(suites, s);
	}
	json_object_object_add(r, "suites", suites);
	if (interleaved) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "interleaved", json_object_new_boolean(1));
		json_object_object_add(o, "rounds", json_object_new_int((int)n));
		json_object_object_add(r, "run_order", o);
	}
	return r;
}

static void drop(struct sb_table *t, struct json_object **res, unsigned n)
{
	unsigned i;

	sb_table_free(t);
	for (i = 0; i < n; i++)
		json_object_put(res[i]);
}

static const struct sb_verdict *verdict_of(struct json_object **res, unsigned n, const char *cols,
					   struct sb_table *t)
{
	struct sb_table_opts o = { .format = SB_FMT_TEXT, .baseline = "a", .columns = cols };
	struct sb_err err = { 0 };

	assert_int_equal(sb_table_build(res, n, &o, t, &err), 0);
	assert_int_equal(t->baseline, 0);
	assert_true(t->any_verdict);
	return &sb_table_cell(t, 1, 1)->verdict;
}

static void test_table_verdicts(void **state)
{
	/* round 3 is slow for both: pairing cancels it, Welch cannot */
	const double a[] = { 100, 104, 70, 101, 103 }, b[] = { 90, 95, 63, 92, 94 };
	struct json_object *res[2];
	const struct sb_verdict *v;
	struct sb_table t;
	char buf[160];

	res[0] = res_of("a", true, "dd", "write", a, 5);
	res[1] = res_of("b", true, "dd", "write", b, 5);
	v = verdict_of(res, 2, "stack,dd.write", &t);
	assert_int_equal(v->state, SB_VERDICT_CI);
	assert_int_equal(v->ci.method, SB_STATS_PAIRED);
	assert_int_equal(v->sign, -1);
	assert_string_equal(sb_verdict_word(v), "slower");
	sb_verdict_format(v, buf, sizeof(buf));
	assert_non_null(strstr(buf, "slower"));
	drop(&t, res, 2);

	res[0] = res_of("a", false, "dd", "write", a, 5);
	res[1] = res_of("b", false, "dd", "write", b, 5);
	v = verdict_of(res, 2, "stack,dd.write", &t);
	assert_int_equal(v->ci.method, SB_STATS_WELCH);
	assert_int_equal(v->sign, 0);
	sb_verdict_format(v, buf, sizeof(buf));
	assert_non_null(strstr(buf, "no detectable difference (\xc2\xb1"));
	drop(&t, res, 2);

	res[0] = res_of("a", true, "dd", "write", a, 2);
	res[1] = res_of("b", true, "dd", "write", b, 2);
	v = verdict_of(res, 2, "stack,dd.write", &t);
	assert_int_equal(v->state, SB_VERDICT_FEW);
	assert_string_equal(sb_verdict_word(v), "n too small for a verdict");
	drop(&t, res, 2);
}

/* One stalled round of b: flagged, kept, and the verdict re-checked without it. */
static void test_table_outliers(void **state)
{
	const double a[] = { 100, 101, 99, 100.5, 99.5, 100.2 };
	const double b[] = { 100.3, 101.2, 99.1, 100.4, 99.8, 40 };
	struct json_object *res[2] = { res_of("a", true, "dd", "write", a, 6),
				       res_of("b", true, "dd", "write", b, 6) };
	const struct sb_verdict *v;
	struct sb_table t;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	v = verdict_of(res, 2, "stack,dd.write", &t);
	assert_int_equal(v->outliers, 1);
	assert_true(v->outlier[5]);
	assert_int_equal(sb_table_cell(&t, 1, 1)->n, 6);   /* kept */
	assert_int_equal(v->sign, 0);        /* the stall widens the interval */
	assert_int_equal(v->without, 0);     /* and without it: still none */
	f = open_memstream(&text, &len);
	sb_verdict_print_notes(&t, false, f);
	fclose(f);
	assert_non_null(strstr(text, "outlier in b, dd.write MB/s: 40 (repetition 6) (kept in every figure)"));
	assert_non_null(strstr(text, "the verdict holds without them"));
	assert_non_null(strstr(text, "paired t on log ratios"));
	free(text);
	drop(&t, res, 2);
}

/* bonnie's figure says slower, dd's says faster: called out. */
static void test_suites_disagree(void **state)
{
	const double a[] = { 100, 101, 99, 100 }, slow[] = { 80, 81, 79, 80 }, fast[] = { 120, 121, 119, 121 };
	struct json_object *res[4] = { res_of("a", false, "bonnie", "block_output", a, 4),
				       res_of("a", false, "dd", "write", a, 4),
				       res_of("b", false, "bonnie", "block_output", slow, 4),
				       res_of("b", false, "dd", "write", fast, 4) };
	struct sb_table_opts o = { .format = SB_FMT_TEXT, .baseline = "a", .columns = "stack,write,dd.write" };
	struct sb_err err = { 0 };
	struct sb_table t;
	char buf[512];

	/* two files per stack: pooled, so Welch */
	assert_int_equal(sb_table_build(res, 4, &o, &t, &err), 0);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(sb_verdict_word(&sb_table_cell(&t, 1, 1)->verdict), "slower");
	assert_string_equal(sb_verdict_word(&sb_table_cell(&t, 1, 2)->verdict), "faster");
	sb_verdict_disagree(&t, 1, buf, sizeof(buf));
	assert_string_equal(buf, "suites disagree on b against a: dd says faster (dd.write MB/s), "
			    "bonnie says slower (write MB/s)");
	sb_verdict_disagree(&t, 0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	{	/* CSV carries it as a field of its own */
		char *csv = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&csv, &len);

		sb_render_csv(&t, f);
		fclose(f);
		assert_non_null(strstr(csv, ",suites_disagree\r\n"));
		assert_non_null(strstr(csv, ",\"suites disagree on b against a: dd says faster (dd.write MB/s), "
				       "bonnie says slower (write MB/s)\"\r\n"));
		assert_non_null(strstr(csv, "\r\na,"));
		free(csv);
	}
	drop(&t, res, 4);
}

/* --repeat auto's rule on interleaved results (run/auto.c). */
static void test_auto_rule(void **state)
{
	const double tight[] = { 100, 101, 99, 100.5 }, tight_b[] = { 100.2, 100.8, 99.3, 100.1 };
	const double wide[] = { 100, 150, 70, 120 }, wide_b[] = { 95, 160, 75, 110 };
	const double slow_b[] = { 50, 76, 34, 61 };   /* wide, but half of a every round */
	struct sb_run_auto a = { true, 5, 3, 6, 0 };
	struct sb_table_opts o = { .format = SB_FMT_TEXT, .baseline = "a", .columns = "stack,dd.write" };
	struct json_object *res[2];
	char why[512];

	res[0] = res_of("a", true, "dd", "write", tight, 4);
	res[1] = res_of("b", true, "dd", "write", tight_b, 4);
	assert_null(sb_run_auto_check(&a, &o, res, 2, 2, 10, 5, why, sizeof(why)));  /* < min */
	assert_string_equal(sb_run_auto_check(&a, &o, res, 2, 4, 10, 5, why, sizeof(why)), "precision");
	json_object_put(res[1]);
	res[1] = res_of("b", true, "dd", "write", wide_b, 4);
	assert_null(sb_run_auto_check(&a, &o, res, 2, 4, 10, 5, why, sizeof(why)));
	assert_string_equal(sb_run_auto_check(&a, &o, res, 2, 6, 10, 5, why, sizeof(why)), "max_repeat");
	assert_non_null(strstr(why, "still open: b dd.write MB/s: \xc2\xb1"));
	a.max_time_s = 14;
	assert_string_equal(sb_run_auto_check(&a, &o, res, 2, 4, 10, 5, why, sizeof(why)), "max_time");
	a.max_time_s = 0;
	json_object_put(res[0]);
	json_object_put(res[1]);
	res[0] = res_of("a", true, "dd", "write", wide, 4);
	res[1] = res_of("b", true, "dd", "write", slow_b, 4);
	assert_string_equal(sb_run_auto_check(&a, &o, res, 2, 4, 10, 5, why, sizeof(why)), "verdicts");
	o.baseline = NULL;   /* no baseline: only the precision counts */
	assert_null(sb_run_auto_check(&a, &o, res, 2, 4, 10, 5, why, sizeof(why)));
	sb_run_auto_record(&a, res[0], 4, "verdicts", "why", 61.5);
	assert_string_equal(json_object_get_string(json_object_object_get(
		json_object_object_get(res[0], "run_order"), "stopped")), "verdicts");
	assert_int_equal(json_object_get_int(json_object_object_get(
		json_object_object_get(res[0], "run_order"), "rounds")), 4);
	/* the time to the decision */
	assert_float_equal(json_object_get_double(json_object_object_get(
		json_object_object_get(res[0], "run_order"), "seconds_to_stop")), 61.5, 1e-9);
	{	/* and the report says it */
		struct sb_table_opts ho = { .format = SB_FMT_TEXT, .baseline = "a", .columns = "stack,dd.write" };
		struct sb_err err = { 0 };
		char *html = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&html, &len);

		assert_int_equal(sb_html_render(res, NULL, 2, &ho, f, &err), 0);
		fclose(f);
		assert_non_null(strstr(html, "a: --repeat auto stopped after 4 rounds in 62 s (verdicts): why"));
		free(html);
	}
	json_object_put(res[0]);
	json_object_put(res[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_half_and_bad_input),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_table_verdicts),
		cmocka_unit_test(test_table_outliers),
		cmocka_unit_test(test_suites_disagree),
		cmocka_unit_test(test_auto_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
