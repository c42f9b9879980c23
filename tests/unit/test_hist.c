/* Histogram bucket math, percentiles on known distributions, merging. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bench/hist.h"

static struct sb_hist *new_hist(void)
{
	struct sb_hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	sb_hist_init(h);
	return h;
}

/* every bucket's low value maps back to it, and so does its last value */
static void test_index_roundtrip(void **state)
{
	for (unsigned i = 0; i < SB_HIST_NBUCKETS; i++) {
		uint64_t lo = sb_hist_bucket_low(i), w = sb_hist_bucket_width(i);

		assert_int_equal(sb_hist_index(lo), i);
		assert_int_equal(sb_hist_index(lo + w - 1), i);
		if (i + 1 < SB_HIST_NBUCKETS)
			assert_int_equal(sb_hist_bucket_low(i + 1), lo + w); /* contiguous */
	}
	assert_int_equal(sb_hist_index(0), 0);
	assert_int_equal(sb_hist_index(63), 63);
	assert_int_equal(sb_hist_index(64), 64);
	assert_int_equal(sb_hist_index(UINT64_MAX), SB_HIST_NBUCKETS - 1);
}

/* reported value within 1% of any value from 1 ns to 100 s */
static void test_relative_error(void **state)
{
	double worst = 0;

	for (uint64_t v = 1; v <= 100000000000ULL; v = v + v / 97 + 1) {
		uint64_t r = sb_hist_bucket_value(sb_hist_index(v));
		double e = (double)(r > v ? r - v : v - r) / (double)v;

		if (e > worst)
			worst = e;
		assert_true(e < 0.01);
	}
	assert_true(worst > 0); /* the loop did cover bucketed values */
}

static void test_constant(void **state)
{
	struct sb_hist *h = new_hist();

	for (int i = 0; i < 1000; i++)
		sb_hist_add(h, 123456);
	assert_int_equal(h->n, 1000);
	assert_int_equal(h->min, 123456);
	assert_int_equal(h->max, 123456);
	assert_true(sb_hist_mean(h) == 123456.0);
	assert_true(sb_hist_stddev(h) == 0.0);
	/* clamped to [min,max], so exact */
	assert_int_equal(sb_hist_percentile(h, 50), 123456);
	assert_int_equal(sb_hist_percentile(h, 99.99), 123456);
	free(h);
}

static void test_uniform(void **state)
{
	struct sb_hist *h = new_hist();
	const double pcts[] = { 50, 90, 99, 99.9, 99.99 };

	/* 1000..1000000 ns step 1: percentile p is near 1000 + p% of the range */
	for (uint64_t v = 1000; v <= 1000000; v++)
		sb_hist_add(h, v);
	for (unsigned i = 0; i < 5; i++) {
		double want = 1000 + (1000000 - 1000) * pcts[i] / 100.0;
		double got = (double)sb_hist_percentile(h, pcts[i]);

		assert_true(got > want * 0.99 && got < want * 1.01);
	}
	/* exact mean and stddev of a discrete uniform: n = 999001, sd = sqrt((n^2-1)/12) */
	assert_true(sb_hist_mean(h) == 500500.0);
	{
		double n = 999001.0, sd = sqrt((n * n - 1) / 12.0);

		assert_true(fabs(sb_hist_stddev(h) - sd) / sd < 1e-9);
	}
	free(h);
}

/* 90% at 10 us, 10% at 10 ms */
static void test_two_point(void **state)
{
	struct sb_hist *h = new_hist();

	for (int i = 0; i < 900; i++)
		sb_hist_add(h, 10000);
	for (int i = 0; i < 100; i++)
		sb_hist_add(h, 10000000);
	assert_true(llabs((long long)sb_hist_percentile(h, 50) - 10000) <= 100);
	assert_true(llabs((long long)sb_hist_percentile(h, 90) - 10000) <= 100);
	assert_true(llabs((long long)sb_hist_percentile(h, 90.1) - 10000000) <= 100000);
	assert_true(llabs((long long)sb_hist_percentile(h, 99) - 10000000) <= 100000);
	assert_int_equal(h->min, 10000);
	assert_int_equal(h->max, 10000000);
	assert_true(sb_hist_mean(h) == (900.0 * 10000 + 100.0 * 10000000) / 1000);
	free(h);
}

static void test_empty(void **state)
{
	struct sb_hist *h = new_hist();

	assert_int_equal(sb_hist_percentile(h, 50), 0);
	assert_true(sb_hist_mean(h) == 0.0);
	free(h);
}

/* merge = sum of arrays; min/max/mean as if all were in one */
/* fio's stat.c, as documented there: values below 128 ns are their own
 * bucket; above, the bucket of v is ((msb - 6 + 1) << 6) + ((v >> (msb - 6)) & 63)
 * and a bucket stands for base + (k + 0.5) * 2^error_bits. json+ "bins"
 * keys are those values: ours must be the same numbers. */
static uint64_t fio_idx(uint64_t v)
{
	unsigned msb = v ? 63 - (unsigned)__builtin_clzll(v) : 0, eb;

	if (msb <= 6)
		return v;
	eb = msb - 6;
	return ((uint64_t)(eb + 1) << 6) + ((v >> eb) & 63);
}

static uint64_t fio_val(uint64_t idx)
{
	unsigned eb;
	uint64_t base, k;

	if (idx < 128)
		return idx;
	eb = (unsigned)(idx >> 6) - 1;
	base = 1ULL << (eb + 6);
	k = idx % 64;
	return base + (uint64_t)((k + 0.5) * (double)(1ULL << eb));
}

static void test_fio_bins(void **state)
{
	static const uint64_t v[] = { 0, 1, 63, 64, 127, 128, 129, 255, 256, 13888, 17536, 30848,
				      1000000, 123456789, 4000000000ULL };
	unsigned i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(sb_hist_index(v[i]), fio_idx(v[i]));
		assert_int_equal(sb_hist_bucket_value(sb_hist_index(v[i])), fio_val(fio_idx(v[i])));
	}
	/* a fio json+ key is its own bucket's value */
	assert_int_equal(sb_hist_bucket_value(sb_hist_index(13888)), 13888);
}

/* fio's percentile of a known histogram, worked out by hand from stat.c:
 * 1000 ns is bucket 317, value 512 + 61.5 * 8 = 1004; 5000 ns bucket 462,
 * value 4096 + 14.5 * 64 = 5024; 2^35 ns is past fio's last bucket (1855),
 * so it reads 2^33 + 63.5 * 2^27. p60 of 25 samples needs the 16th (the
 * long double 15.000000000000000001), not the 15th. */
static void test_fio_percentiles(void **state)
{
	struct sb_hist *h = malloc(sizeof(*h));
	unsigned i;

	(void)state;
	sb_hist_init(h);
	for (i = 0; i < 15; i++)
		sb_hist_add(h, 1000);
	for (i = 0; i < 10; i++)
		sb_hist_add(h, 5000);
	assert_int_equal(sb_hist_percentile_bucket(h, 50.0), 1004);
	assert_int_equal(sb_hist_percentile_bucket(h, 60.0), 5024);
	assert_int_equal(sb_hist_percentile_bucket(h, 59.0), 1004);
	sb_hist_init(h);
	for (i = 0; i < 98; i++)
		sb_hist_add(h, 1000);
	sb_hist_add(h, 5000);
	sb_hist_add(h, 1ULL << 35);
	assert_int_equal(sb_hist_percentile_bucket(h, 99.0), 5024);
	assert_int_equal(sb_hist_percentile_bucket(h, 99.5), 17112760320ULL);
	assert_int_equal(sb_hist_percentile_bucket(h, 99.5), fio_val(29 * 64 - 1));
	free(h);
}

/* Variance in integers: two samples 2 apart near 2^40 ns have stddev 1
 * exactly; sumsq / n - mean^2 in any floating type loses it (2^81 - 2^80
 * with a 64-bit significand is off by 2^17). */
static void test_stddev_exact(void **state)
{
	struct sb_hist *h = new_hist();

	sb_hist_add(h, 1ULL << 40);
	sb_hist_add(h, (1ULL << 40) + 2);
	assert_true(sb_hist_stddev(h) == 1.0);
	sb_hist_add(h, (1ULL << 40) + 1);
	assert_true(sb_hist_stddev(h) == sqrt(2.0 / 3.0));
	free(h);
}

/* 128-bit helper: products and sums with carries across the halves */
static void test_u128(void **state)
{
	struct sb_u128 p = sb_u128_mul64(UINT64_MAX, UINT64_MAX), one = { 0, 1 };

	assert_true(p.hi == UINT64_MAX - 1 && p.lo == 1);
	p = sb_u128_add(sb_u128_mul64(1ULL << 63, 2), sb_u128_mul64(UINT64_MAX, 1));
	assert_true(p.hi == 1 && p.lo == UINT64_MAX);
	p = sb_u128_add(p, one);
	assert_true(p.hi == 2 && p.lo == 0);
	p = sb_u128_sub(p, one);
	assert_true(p.hi == 1 && p.lo == UINT64_MAX);
	assert_true(sb_mulhi64(0x123456789abcdef0ULL, 0xfedcba9876543210ULL) == 0x121fa00ad77d7422ULL);
	p = sb_u128_mul(sb_u128_mul64(1ULL << 40, 3), 1ULL << 30);
	assert_true(p.hi == 3ULL << 6 && p.lo == 0);
	assert_true(sb_u128_to_double(sb_u128_mul64(1ULL << 63, 4)) == 0x1p65);
}

/* The fio threshold is x87's `(long double)pct / 100.0 * n` on every
 * target: sample k sits alone in bucket k, so the bucket returned names
 * the count fio stops at. Checked against the hardware where long double
 * is x87's (amd64); elsewhere the cases pinned below stand. */
static void test_fio_threshold(void **state)
{
	static const double pcts[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
				       99.95, 99.99, 33.3, 66.7, 12.5, 0.1, 100 };
	struct sb_hist *h = new_hist();
	unsigned n, i, k;

	if (LDBL_MANT_DIG != 64)
		skip();
	for (n = 1; n <= 1200; n++) {
		h->n = n;
		h->buckets[n - 1] = 1;
		for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
			long double want = (long double)pcts[i] / 100.0 * (long double)n;

			for (k = 1; k < n && (long double)k < want; k++)
				;
			assert_int_equal(sb_hist_percentile_bucket(h, pcts[i]), sb_hist_bucket_value(k - 1));
		}
	}
	free(h);
}

/* Edges pinned on every target (the values x87 gives; see above) */
static void test_fio_threshold_edges(void **state)
{
	struct sb_hist *h = new_hist();
	unsigned k;

	for (k = 0; k < 1000; k++)
		h->buckets[k] = 1;
	h->n = 1000;
	/* 99.9% of 1000: 999.0000000000000000something in x87 -> the 1000th */
	assert_int_equal(sb_hist_percentile_bucket(h, 99.9), sb_hist_bucket_value(999));
	assert_int_equal(sb_hist_percentile_bucket(h, 50.0), sb_hist_bucket_value(499));
	h->n = 10;
	assert_int_equal(sb_hist_percentile_bucket(h, 30.0), sb_hist_bucket_value(2));
	free(h);
}

static void test_merge(void **state)
{
	struct sb_hist *a = new_hist(), *b = new_hist(), *all = new_hist(), *m = new_hist();

	for (uint64_t v = 1; v < 200000; v += 7) {
		sb_hist_add(a, v);
		sb_hist_add(all, v);
	}
	for (uint64_t v = 5000; v < 9000000; v += 1013) {
		sb_hist_add(b, v);
		sb_hist_add(all, v);
	}
	sb_hist_merge(m, a);
	sb_hist_merge(m, b);
	for (unsigned i = 0; i < SB_HIST_NBUCKETS; i++)
		assert_int_equal(m->buckets[i], a->buckets[i] + b->buckets[i]);
	assert_int_equal(m->n, all->n);
	assert_int_equal(m->min, all->min);
	assert_int_equal(m->max, all->max);
	assert_int_equal(m->sum, all->sum);
	assert_true(sb_u128_eq(m->sumsq, all->sumsq));
	assert_int_equal(sb_hist_percentile(m, 99), sb_hist_percentile(all, 99));
	free(a);
	free(b);
	free(all);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_roundtrip),
		cmocka_unit_test(test_relative_error),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_two_point),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_fio_bins),
		cmocka_unit_test(test_fio_percentiles),
		cmocka_unit_test(test_stddev_exact),
		cmocka_unit_test(test_u128),
		cmocka_unit_test(test_fio_threshold),
		cmocka_unit_test(test_fio_threshold_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
