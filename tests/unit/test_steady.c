/* fio's steady state criteria (bench/steady.c) against fio's definitions
 * (HOWTO "Steady state", steadystate.c, stat.c's JSON block), every
 * expected value computed by hand below:
 *   deviation: max |y_i - mean| (or 100 x that / mean), attained when < limit;
 *   slope: (Σxy - Σx·Σy/n) / (Σx² - (Σx)²/n), x = 0..n-1 oldest first,
 *     with N% 100 x slope / (Σy / n in integers, as fio), attained when
 *     |criterion| < limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/steady.h"
#include "bench/steady_pts.h"

static struct sb_ss make(const char *crit, uint64_t dur_s, uint64_t interval_ms)
{
	struct sb_ss_spec sp = { .dur_s = dur_s, .interval_ms = interval_ms };
	struct sb_err err = { 0 };
	struct sb_ss ss;

	assert_int_equal(sb_ss_parse(crit, &sp, &err), 0);
	assert_int_equal(sb_ss_init(&ss, &sp, &err), 0);
	return ss;
}

static const char *jstr(struct json_object *o, const char *k)
{
	return json_object_get_string(json_object_object_get(o, k));
}

static void test_parse(void **state)
{
	struct sb_ss_spec sp = { 0 };
	struct sb_err err = { 0 };

	assert_int_equal(sb_ss_parse("iops_slope:0.1%", &sp, &err), 0);
	assert_true(sp.what == SB_SS_IOPS && sp.slope && sp.pct);
	assert_float_equal(sp.limit, 0.1, 1e-12);
	assert_int_equal(sb_ss_parse("bw:1048576", &sp, &err), 0);
	assert_true(sp.what == SB_SS_BW && !sp.slope && !sp.pct);
	assert_int_equal(sb_ss_parse("lat_slope:50", &sp, &err), 0);
	assert_true(sp.what == SB_SS_LAT && sp.slope);
	assert_int_equal(sb_ss_parse("iops", &sp, &err), -EINVAL);
	assert_string_equal(err.msg, "steadystate threshold must be specified in addition to criterion");
	memset(&err, 0, sizeof(err));
	assert_int_equal(sb_ss_parse("clat:5", &sp, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'clat' is not a criterion"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(sb_ss_parse("bw:x%", &sp, &err), -EINVAL);
	memset(&err, 0, sizeof(err));
	assert_int_equal(sb_ss_parse("iops:-1", &sp, &err), -EINVAL);
}

static void test_window(void **state)
{
	struct sb_ss_spec sp = { .what = SB_SS_IOPS, .slope = true, .limit = 1, .dur_s = 10, .interval_ms = 2000 };
	struct sb_err err = { 0 };
	struct sb_ss ss;

	assert_int_equal(sb_ss_init(&ss, &sp, &err), 0);
	assert_int_equal(ss.n, 5);   /* 10 s every 2 s */
	sb_ss_free(&ss);
	sp.dur_s = 3;                /* one sample: no line */
	assert_int_equal(sb_ss_init(&ss, &sp, &err), -EINVAL);
	sp.dur_s = 0;
	memset(&err, 0, sizeof(err));
	assert_int_equal(sb_ss_init(&ss, &sp, &err), -EINVAL);
	/* ss_ramp: collected from one second after it */
	sp.ramp_ns = 5000000000ULL;
	assert_false(sb_ss_collecting(&sp, 5500000000ULL));
	assert_true(sb_ss_collecting(&sp, 6000000000ULL));
	sp.ramp_ns = 0;
	assert_true(sb_ss_collecting(&sp, 0));
}

/* iops:2 over 3 s: 100, 103, 101 -> mean 101.333, max |dev| 1.667 < 2. */
static void test_deviation(void **state)
{
	struct sb_ss ss = make("iops:2", 3, 0);
	struct json_object *j, *d;

	assert_false(sb_ss_add(&ss, 100, 409600, 0));
	/* not full: not judged; fio's block shows the zeros not yet filled */
	j = sb_ss_json(&ss);
	d = json_object_object_get(j, "data");
	assert_string_equal(json_object_to_json_string(json_object_object_get(d, "iops")), "[ 100, 0, 0 ]");
	assert_int_equal(json_object_get_int(json_object_object_get(d, "iops_mean")), 33);   /* 100 / 3 */
	json_object_put(j);
	assert_false(sb_ss_add(&ss, 103, 421888, 0));
	assert_true(sb_ss_add(&ss, 101, 413696, 0));
	assert_float_equal(ss.deviation, 5.0 / 3, 1e-9);
	assert_float_equal(ss.criterion, 5.0 / 3, 1e-9);
	j = sb_ss_json(&ss);
	assert_string_equal(jstr(j, "ss"), "iops:2.000000");
	assert_int_equal(json_object_get_int(json_object_object_get(j, "duration")), 3);
	assert_int_equal(json_object_get_int(json_object_object_get(j, "attained")), 1);
	assert_string_equal(jstr(j, "criterion"), "1.666667");
	d = json_object_object_get(j, "data");
	assert_string_equal(json_object_to_json_string(json_object_object_get(d, "iops")), "[ 100, 103, 101 ]");
	assert_int_equal(json_object_get_int(json_object_object_get(d, "iops_mean")), 101);
	assert_int_equal(json_object_get_int(json_object_object_get(d, "bw_mean")), 415061);   /* 1245184 / 3 */
	assert_null(json_object_object_get(d, "lat_ns"));
	json_object_put(j);
	sb_ss_free(&ss);

	/* iops:1%: 100*1.667/101.333 = 1.645 % no; then 103, 101, 102: mean
	 * 102, max |dev| 1 -> 0.980392 % < 1 % */
	ss = make("iops:1%", 3, 1000);
	sb_ss_add(&ss, 100, 0, 0);
	sb_ss_add(&ss, 103, 0, 0);
	assert_false(sb_ss_add(&ss, 101, 0, 0));
	assert_float_equal(ss.criterion, 100 * (5.0 / 3) / (304.0 / 3), 1e-9);
	assert_true(sb_ss_add(&ss, 102, 0, 0));
	assert_float_equal(ss.criterion, 100.0 / 102, 1e-9);
	j = sb_ss_json(&ss);
	assert_string_equal(jstr(j, "ss"), "iops:1.000000%");
	assert_string_equal(jstr(j, "criterion"), "0.980392%");
	json_object_put(j);
	sb_ss_free(&ss);
}

/* bw_slope:0.5% over 4 samples: 100, 102, 104, 106: Σy 412, Σxy 628,
 * Σx 6, Σx² 14: slope (628 - 6·412/4) / (14 - 36/4) = 2, 100·2/103 =
 * 1.9417 %; then ..., 104, 106, 106, 106: slope 0.6 over the integer mean
 * 105 (not 105.5): 0.571429 %; then all 106: slope 0, attained. */
static void test_slope(void **state)
{
	struct sb_ss ss = make("bw_slope:0.5%", 4, 1000);
	const uint64_t y[] = { 100, 102, 104, 106, 106, 106 };
	unsigned i;

	for (i = 0; i < 4; i++)
		assert_false(sb_ss_add(&ss, 0, y[i], 0));
	assert_float_equal(ss.slope, 2, 1e-12);
	assert_float_equal(ss.criterion, 200.0 / 103, 1e-9);
	sb_ss_add(&ss, 0, y[4], 0);
	assert_float_equal(ss.slope, 1.4, 1e-12);
	assert_false(sb_ss_add(&ss, 0, y[5], 0));
	assert_float_equal(ss.slope, 0.6, 1e-12);
	assert_float_equal(ss.criterion, 60.0 / 105, 1e-9);
	assert_true(sb_ss_add(&ss, 0, 106, 0));
	assert_float_equal(ss.slope, 0, 1e-12);
	sb_ss_free(&ss);

	/* lat_slope:60 (ns per interval): 1000, 900, 800 -> slope -100, |-100|
	 * is not below 60; the latencies are in the block */
	ss = make("lat_slope:60", 3, 1000);
	sb_ss_add(&ss, 0, 0, 1000);
	sb_ss_add(&ss, 0, 0, 900);
	assert_false(sb_ss_add(&ss, 0, 0, 800));
	assert_float_equal(ss.criterion, -100, 1e-9);
	{
		struct json_object *j = sb_ss_json(&ss), *d = json_object_object_get(j, "data");

		assert_string_equal(jstr(j, "ss"), "lat_slope:60.000000");
		assert_int_equal(json_object_get_int(json_object_object_get(j, "attained")), 0);
		assert_string_equal(json_object_to_json_string(json_object_object_get(d, "lat_ns")),
				    "[ 1000, 900, 800 ]");
		assert_int_equal(json_object_get_int(json_object_object_get(d, "lat_mean")), 900);
		json_object_put(j);
	}
	/* 900, 800, 780: (Σxy 2360 - 3·2480/3) / (5 - 3) = -60, not below 60
	 * (strictly); 800, 780, 770: (2320 - 2350) / 2 = -15: attained, and
	 * judged no more (fio stops the job) */
	assert_false(sb_ss_add(&ss, 0, 0, 780));
	assert_float_equal(ss.slope, -60, 1e-12);
	assert_true(sb_ss_add(&ss, 0, 0, 770));
	assert_float_equal(ss.slope, -15, 1e-12);
	assert_true(sb_ss_add(&ss, 0, 0, 5000));
	assert_float_equal(ss.slope, -15, 1e-12);
	assert_int_equal(ss.lat[2], 770);   /* the window as attained */
	sb_ss_free(&ss);
}

/* SNIA PTS: 100, 90, 95, 100, 98: mean 96.6, range 10 (10.35 % <= 20),
 * slope (Σxy 972 - 10·483/5) / (30 - 100/5) = 0.6, excursion 0.6·4 =
 * 2.4 (2.48 % <= 10): steady at round 5. A ramp of +10 per round never is. */
static void test_pts(void **state)
{
	const double y[] = { 100, 90, 95, 100, 98 };
	struct sb_pts p = { 0 }, ramp = { 0 };
	struct json_object *j;
	unsigned i;

	for (i = 0; i < 4; i++)
		assert_false(sb_pts_add(&p, y[i]));
	assert_true(sb_pts_add(&p, y[4]));
	assert_float_equal(p.range_pct, 1000 / 96.6, 1e-9);
	assert_float_equal(p.excursion_pct, 240 / 96.6, 1e-9);
	assert_true(sb_pts_done(&p));
	assert_float_equal(sb_pts_mean(&p), 96.6, 1e-9);
	j = sb_pts_json(&p);
	assert_true(json_object_get_boolean(json_object_object_get(j, "attained")));
	assert_non_null(strstr(jstr(j, "why"), "attained at round 5: over rounds 1-5 max - min is 10.4 %"));
	json_object_put(j);
	for (i = 0; !sb_pts_done(&ramp); i++)
		assert_false(sb_pts_add(&ramp, 100 + 10.0 * i));
	assert_int_equal(ramp.n, 25);
	/* the last window 300..340: mean 320, range 40 (12.5 %), excursion 40 (12.5 % > 10) */
	assert_float_equal(ramp.excursion_pct, 12.5, 1e-9);
	j = sb_pts_json(&ramp);
	assert_false(json_object_get_boolean(json_object_object_get(j, "attained")));
	assert_non_null(strstr(jstr(j, "why"), "not attained in 25 rounds"));
	assert_string_equal(json_object_to_json_string(json_object_object_get(j, "window")),
			    "[ 300.0, 310.0, 320.0, 330.0, 340.0 ]");
	json_object_put(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_deviation),
		cmocka_unit_test(test_slope),
		cmocka_unit_test(test_pts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
