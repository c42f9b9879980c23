/* `stackbench job`'s text output against what fio 3.33 (Debian's) printed.
 * Each expected string below is copied from a real fio run, and the inputs
 * are that run's exact figures (from the same run's JSON: fio
 * --output-format=normal,json prints both). The runs, on this project's
 * build host (an 8 MiB file on ext4, page cache dropped by fio's invalidate):
 *   [A] fio --name=u --filename=u.dat --size=8m --rw=randread --bs=4k
 *       --output-format=normal,json
 *   [B] fio --name=d --filename=u.dat --size=8m --rw=randread --bs=4k --direct=1
 *       --output-format=normal,json
 *   [C] fio --name=b --filename=u.dat --size=8m --rw=randread --bs=4k --direct=1
 *       --time_based --runtime=2 --output-format=normal,json
 *   [D] fio --name=t --filename=t.dat --size=4m --rw=randread --bs=4k
 *       --group_reporting --numjobs=2 (cached: nanosecond latencies; its
 *       percentile values are printed unscaled, so the text gives them) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/output.h"

static const double pcts[17] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

static void expect_n2s(uint64_t v, int maxlen, int base, bool pow2, const char *unit, const char *want)
{
	char buf[64];

	assert_string_equal(sb_fio_num2str(v, maxlen, base, pow2, unit, buf, sizeof(buf)), want);
}

/* num2str as fio's read/group lines and display_lat used it */
static void test_num2str(void **state)
{
	(void)state;
	/* [A] "read: IOPS=4633, BW=18.1MiB/s (19.0MB/s)(8192KiB/442msec)":
	 * 2048 ios, 8388608 bytes, 442 ms; fio's integers 1000 x n / ms */
	expect_n2s(1000ULL * 2048 / 442, 4, 1, false, "", "4633");
	expect_n2s(1000ULL * 8388608 / 442, 4, 1, true, "B/s", "18.1MiB/s");
	expect_n2s(1000ULL * 8388608 / 442, 4, 1, false, "B/s", "19.0MB/s");
	expect_n2s(8388608, 4, 1, true, "B", "8192KiB");
	/* [A] "io=8192KiB (8389kB)" */
	expect_n2s(8388608, 4, 1, false, "B", "8389kB");
	/* [C] "IOPS=3618, BW=14.1MiB/s (14.8MB/s)(28.3MiB/2001msec)", "io=28.3MiB (29.7MB)":
	 * 7241 ios, 29659136 bytes, 2001 ms */
	expect_n2s(1000ULL * 7241 / 2001, 4, 1, false, "", "3618");
	expect_n2s(1000ULL * 29659136 / 2001, 4, 1, true, "B/s", "14.1MiB/s");
	expect_n2s(1000ULL * 29659136 / 2001, 4, 1, false, "B/s", "14.8MB/s");
	expect_n2s(29659136, 4, 1, true, "B", "28.3MiB");
	expect_n2s(29659136, 4, 1, false, "B", "29.7MB");
	/* [D] "IOPS=21.1k, BW=82.5MiB/s (86.5MB/s)(8192KiB/97msec)" */
	expect_n2s(1000ULL * 2048 / 97, 4, 1, false, "", "21.1k");
	expect_n2s(1000ULL * 8388608 / 97, 4, 1, true, "B/s", "82.5MiB/s");
	expect_n2s(1000ULL * 8388608 / 97, 4, 1, false, "B/s", "86.5MB/s");
	/* display_lat's min/max (6 digits): [A] "clat (usec): min=56, max=25542"
	 * (25542012 ns / 1000); [D] "max=4570.8k" for a max of 4570750..4570849 ns */
	expect_n2s(25542012 / 1000, 6, 1, false, "", "25542");
	expect_n2s(4570803, 6, 1, false, "", "4570.8k");
	/* the job header's block size: "bs=(R) 4096B-4096B" */
	expect_n2s(4096, 4, 1, true, "B", "4096B");
}

static char *capture_pct(const uint64_t v[17])
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	sb_fio_pct_text(f, "clat", pcts, v, 17);
	fclose(f);
	return text;
}

/* show_clat_percentiles: usec because the smallest listed value is above
 * 2000 ns and the largest above 99999; values rounded UP into usec
 * (59136 ns -> 60, 25559040 -> 25560); four to a line */
static void test_percentiles_usec(void **state)
{
	/* [A] clat_ns.percentile */
	static const uint64_t a[17] = { 59136, 66048, 67072, 74240, 78336, 83456, 88576, 94720, 103936, 136192,
					230400, 667648, 2801664, 4177920, 6127616, 8585216, 25559040 };
	/* [B] */
	static const uint64_t b[17] = { 67072, 69120, 70144, 72192, 77312, 84480, 93696, 114176, 132096, 164864,
					288768, 651264, 1482752, 2039808, 3358720, 3751936, 11730944 };
	char *t;

	(void)state;
	t = capture_pct(a);
	assert_string_equal(t, "    clat percentiles (usec):\n"
			       "     |  1.00th=[   60],  5.00th=[   67], 10.00th=[   68], 20.00th=[   75],\n"
			       "     | 30.00th=[   79], 40.00th=[   84], 50.00th=[   89], 60.00th=[   95],\n"
			       "     | 70.00th=[  104], 80.00th=[  137], 90.00th=[  231], 95.00th=[  668],\n"
			       "     | 99.00th=[ 2802], 99.50th=[ 4178], 99.90th=[ 6128], 99.95th=[ 8586],\n"
			       "     | 99.99th=[25560]\n");
	free(t);
	t = capture_pct(b);
	assert_string_equal(t, "    clat percentiles (usec):\n"
			       "     |  1.00th=[   68],  5.00th=[   70], 10.00th=[   71], 20.00th=[   73],\n"
			       "     | 30.00th=[   78], 40.00th=[   85], 50.00th=[   94], 60.00th=[  115],\n"
			       "     | 70.00th=[  133], 80.00th=[  165], 90.00th=[  289], 95.00th=[  652],\n"
			       "     | 99.00th=[ 1483], 99.50th=[ 2040], 99.90th=[ 3359], 99.95th=[ 3752],\n"
			       "     | 99.99th=[11731]\n");
	free(t);
}

/* nsec when the smallest value is not above 2000 ns, however large the
 * largest: the column widens to its 7 digits, three to a line [D] */
static void test_percentiles_nsec(void **state)
{
	static const uint64_t d[17] = { 1320, 1528, 1640, 1816, 2160, 2960, 50944, 96768, 110080, 154624,
					199680, 238592, 839680, 1433600, 2277376, 2605056, 4554752 };
	char *t;

	(void)state;
	t = capture_pct(d);
	assert_string_equal(t, "    clat percentiles (nsec):\n"
			       "     |  1.00th=[   1320],  5.00th=[   1528], 10.00th=[   1640],\n"
			       "     | 20.00th=[   1816], 30.00th=[   2160], 40.00th=[   2960],\n"
			       "     | 50.00th=[  50944], 60.00th=[  96768], 70.00th=[ 110080],\n"
			       "     | 80.00th=[ 154624], 90.00th=[ 199680], 95.00th=[ 238592],\n"
			       "     | 99.00th=[ 839680], 99.50th=[1433600], 99.90th=[2277376],\n"
			       "     | 99.95th=[2605056], 99.99th=[4554752]\n");
	free(t);
}

/* the bw line with per= (the mean's share of the group's bandwidth, at
 * most 100) [C]: bw_min 13548, bw_max 19840, bw_mean 16493.0, bw_dev
 * 3165.204417, 3 samples; the group's 14822156 bytes/s */
static void test_bw_line(void **state)
{
	struct sb_stat st = { .n = 3, .min = 13548, .max = 19840, .sum = 3 * 16493.0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	st.sumsq = 3165.204417 * 3165.204417 * 2 + st.sum * st.sum / 3;
	f = open_memstream(&text, &len);
	sb_fio_bw_text(f, &st, 14822156.0);
	fclose(f);
	assert_string_equal(text, "   bw (  KiB/s): min=13548, max=19840, per=100.00%, avg=16493.00, stdev=3165.20, samples=3\n");
	free(text);
	/* one of two equal jobs: half the group (fio: (int)mean x 100 / (agg / 1024)) */
	text = NULL;
	f = open_memstream(&text, &len);
	sb_fio_bw_text(f, &st, 2 * 16493.0 * 1024);
	fclose(f);
	assert_non_null(strstr(text, "per=50.00%"));
	free(text);
}

/* stat_calc_dist: % of the total, at least 0.1 where there is any */
static void test_dist(void **state)
{
	(void)state;
	assert_true(sb_fio_dist_pct(1, 100000) == 0.1);
	assert_true(sb_fio_dist_pct(0, 100000) == 0.0);
	assert_true(sb_fio_dist_pct(5, 10) == 50.0);
	assert_true(sb_fio_dist_pct(0, 0) == 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num2str),
		cmocka_unit_test(test_percentiles_usec),
		cmocka_unit_test(test_percentiles_nsec),
		cmocka_unit_test(test_bw_line),
		cmocka_unit_test(test_dist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
