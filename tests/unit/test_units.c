/* Units: every unit, fio suffixes, strict rejections, overflow, durations,
 * formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/units.h"

typedef int (*parse_fn)(const char *s, uint64_t *out, struct sb_err *err);

/* s parses (fails the test with the message if not); its value. */
static uint64_t parse_ok(parse_fn parse, const char *s)
{
	struct sb_err e = { 0 };
	uint64_t v = 0;

	if (parse(s, &v, &e) != 0)
		fail_msg("'%s' rejected: %s", s, e.msg);
	return v;
}

static uint64_t size_ok(const char *s)
{
	return parse_ok(sb_size_parse, s);
}

static int size_bad(const char *s)
{
	struct sb_err e = { 0 };
	uint64_t v = 12345;
	int rc = sb_size_parse(s, &v, &e);

	if (rc == 0)
		fail_msg("'%s' accepted as %llu", s, (unsigned long long)v);
	assert_int_equal(v, 12345);      /* untouched on error */
	assert_int_equal(e.code, rc);
	assert_true(e.msg[0] != '\0');
	return rc;
}

static void test_binary_units(void **st)
{
	(void)st;
	assert_int_equal(size_ok("0"), 0);
	assert_int_equal(size_ok("512"), 512);
	assert_int_equal(size_ok("512B"), 512);
	assert_int_equal(size_ok("1KiB"), 1024);
	assert_int_equal(size_ok("512KiB"), 512 * 1024);
	assert_int_equal(size_ok("4MiB"), 4ULL << 20);
	assert_int_equal(size_ok("2GiB"), 2ULL << 30);
	assert_int_equal(size_ok("3TiB"), 3ULL << 40);
	assert_int_equal(size_ok("1.5GiB"), 3ULL << 29);
	assert_int_equal(size_ok("0.5KiB"), 512);
	assert_int_equal(size_ok("64 MiB"), 64ULL << 20);
}

static void test_decimal_units(void **st)
{
	(void)st;
	assert_int_equal(size_ok("1KB"), 1000);
	assert_int_equal(size_ok("100MB"), 100000000ULL);
	assert_int_equal(size_ok("4GB"), 4000000000ULL);
	assert_int_equal(size_ok("2TB"), 2000000000000ULL);
	assert_int_equal(size_ok("1.5KB"), 1500);
}

static void test_fio_suffixes(void **st)
{
	(void)st;
	assert_int_equal(size_ok("4k"), 4096);
	assert_int_equal(size_ok("4K"), 4096);
	assert_int_equal(size_ok("1m"), 1ULL << 20);
	assert_int_equal(size_ok("1M"), 1ULL << 20);
	assert_int_equal(size_ok("1g"), 1ULL << 30);
	assert_int_equal(size_ok("2G"), 2ULL << 30);
	assert_int_equal(size_ok("1t"), 1ULL << 40);
}

static void test_rejections(void **st)
{
	(void)st;
	assert_int_equal(size_bad(""), -EINVAL);
	assert_int_equal(size_bad("GiB"), -EINVAL);
	assert_int_equal(size_bad("-1"), -EINVAL);
	assert_int_equal(size_bad("-1GiB"), -EINVAL);
	assert_int_equal(size_bad("+1GiB"), -EINVAL);
	assert_int_equal(size_bad(" 1GiB"), -EINVAL);
	assert_int_equal(size_bad("1GiB "), -EINVAL);
	assert_int_equal(size_bad("1gib"), -EINVAL);   /* binary units are case-exact */
	assert_int_equal(size_bad("1kb"), -EINVAL);
	assert_int_equal(size_bad("1Kib"), -EINVAL);
	assert_int_equal(size_bad("1PiB"), -EINVAL);
	assert_int_equal(size_bad("1 GiB GiB"), -EINVAL);
	assert_int_equal(size_bad("0x10"), -EINVAL);
	assert_int_equal(size_bad("1e3"), -EINVAL);
	assert_int_equal(size_bad("inf"), -EINVAL);
	assert_int_equal(size_bad("nan"), -EINVAL);
	assert_int_equal(size_bad("1."), -EINVAL);
	assert_int_equal(size_bad(".5GiB"), -EINVAL);
	assert_int_equal(size_bad("1,5GiB"), -EINVAL);
	assert_int_equal(size_bad("0.3B"), -EINVAL);     /* not a whole number of bytes */
	assert_int_equal(size_bad("1.1KiB"), -EINVAL);   /* 1126.4 bytes */
	assert_int_equal(size_bad("4kk"), -EINVAL);
}

static void test_overflow(void **st)
{
	(void)st;
	assert_int_equal(size_ok("18446744073709551615"), UINT64_MAX);
	assert_int_equal(size_bad("18446744073709551616"), -ERANGE);
	assert_int_equal(size_bad("16777216TiB"), -ERANGE);   /* 2^64 */
	assert_int_equal(size_ok("16777215TiB"), 16777215ULL << 40);
	assert_int_equal(size_bad("99999999999999999999999999GB"), -ERANGE);
	assert_int_equal(size_bad("1000000000000000000000000000000000000000000000000000000000000000000000"), -ERANGE);
}

static void dur_bad_range(const char *s)
{
	struct sb_err e = { 0 };
	uint64_t v = 7;

	assert_int_equal(sb_duration_parse(s, &v, &e), -ERANGE);
	assert_int_equal(v, 7);
}

/* Decimal fractions are exact, whatever the width of long double (64 bits
 * on armhf, 80 on amd64, 128 on arm64): 4.1TB is 4.1 * 10^12 bytes, not
 * "not whole" because 4.1 has no binary form; 2^64 is too large even where
 * (double)UINT64_MAX rounds up to it. */
static void test_exact(void **st)
{
	(void)st;
	assert_int_equal(size_ok("4.1TB"), 4100000000000ULL);
	assert_int_equal(size_ok("2.2TB"), 2200000000000ULL);
	assert_int_equal(size_ok("0.1KB"), 100);
	assert_int_equal(size_ok("16777215.5TiB"), (16777215ULL << 40) + (1ULL << 39));
	/* 2^-40 TiB, 44 decimals: one byte */
	assert_int_equal(size_ok("0.0000000000009094947017729282379150390625TiB"), 1);
	assert_int_equal(size_bad("0.0000000000009094947017729282379150390624TiB"), -EINVAL);
	assert_int_equal(size_bad("1.00000000000000000001KB"), -EINVAL);
	assert_int_equal(size_bad("18446744073709551615.5"), -EINVAL);
	assert_int_equal(size_bad("18446744073709551616B"), -ERANGE);
	assert_int_equal(size_bad("18446744073709551616.0"), -ERANGE);
	assert_int_equal(size_bad("18446744073709.551616MB"), -ERANGE);
	assert_int_equal(size_ok("18446744073709.551615MB"), UINT64_MAX);
}

static void test_exact_durations(void **st)
{
	(void)st;
	assert_int_equal(parse_ok(sb_duration_parse, "0.0000000005s"), 1);      /* half a ns: up */
	assert_int_equal(parse_ok(sb_duration_parse, "0.00000000049999999999s"), 0);
	assert_int_equal(parse_ok(sb_duration_parse, "0.1"), 100000000ULL);
	assert_int_equal(parse_ok(sb_duration_parse, "18446744073.709551615"), UINT64_MAX);
	dur_bad_range("18446744073.7095516155");   /* rounds to 2^64 */
	dur_bad_range("18446744073.709551616s");
}

static uint64_t dur_ok(const char *s)
{
	return parse_ok(sb_duration_parse, s);
}

static void dur_bad(const char *s, int code)
{
	struct sb_err e = { 0 };
	uint64_t v = 7;

	assert_int_equal(sb_duration_parse(s, &v, &e), code);
	assert_int_equal(v, 7);
	assert_true(e.msg[0] != '\0');
}

static void test_durations(void **st)
{
	(void)st;
	assert_int_equal(dur_ok("0"), 0);
	assert_int_equal(dur_ok("5"), 5000000000ULL);
	assert_int_equal(dur_ok("5s"), 5000000000ULL);
	assert_int_equal(dur_ok("500ms"), 500000000ULL);
	assert_int_equal(dur_ok("250us"), 250000ULL);
	assert_int_equal(dur_ok("10ns"), 10ULL);
	assert_int_equal(dur_ok("2m"), 120000000000ULL);
	assert_int_equal(dur_ok("1h"), 3600000000000ULL);
	assert_int_equal(dur_ok("1.5s"), 1500000000ULL);
	dur_bad("", -EINVAL);
	dur_bad("s", -EINVAL);
	dur_bad("-1s", -EINVAL);
	dur_bad("5 sec", -EINVAL);
	dur_bad("5S", -EINVAL);
	dur_bad("1e3s", -EINVAL);
	dur_bad("99999999999h", -ERANGE);
}

static void test_format(void **st)
{
	char b[32];

	(void)st;
	sb_size_format(512 * 1024, b, sizeof(b));
	assert_string_equal(b, "512 KiB");
	sb_size_format(1ULL << 30, b, sizeof(b));
	assert_string_equal(b, "1 GiB");
	sb_size_format(1000, b, sizeof(b));
	assert_string_equal(b, "1000 B");
	sb_size_format(0, b, sizeof(b));
	assert_string_equal(b, "0 B");
	sb_size_format(3ULL << 40, b, sizeof(b));
	assert_string_equal(b, "3 TiB");
	sb_size_format_human(3ULL << 29, b, sizeof(b));
	assert_string_equal(b, "1.5 GiB");
	sb_size_format_human(100, b, sizeof(b));
	assert_string_equal(b, "100 B");
	assert_true(sb_mbps(1000000, 1000000000ULL) > 0.999 && sb_mbps(1000000, 1000000000ULL) < 1.001);
	assert_true(sb_mbps(1, 0) == 0.0);
}

/* The messages of both parsers, word for word: one parser serves both. */
static void test_parse_messages(void **state)
{
	static const struct { int dur; const char *in, *msg; int rc; } cases[] = {
		{ 0, "", "empty size; use a number with a unit such as 512KiB, 4GiB or 100MB", -EINVAL },
		{ 0, "x", "'x' is not a size; use a number with a unit such as 512KiB, 4GiB or 100MB", -EINVAL },
		{ 0, "4 QiB", "'4 QiB' has an unknown unit 'QiB'; allowed: B, KiB, MiB, GiB, TiB (binary), KB, MB, "
			      "GB, TB (decimal), or fio's k, m, g, t (binary)", -EINVAL },
		{ 0, "1.5B", "'1.5B' is not a whole number of bytes", -EINVAL },
		{ 0, "99999999TiB", "'99999999TiB' is too large", -ERANGE },
		{ 1, "", "empty duration; use a number with a unit such as 500ms, 5s, 2m or 1h", -EINVAL },
		{ 1, "soon", "'soon' is not a duration; use a number with a unit such as 500ms, 5s, 2m or 1h", -EINVAL },
		{ 1, "5 S", "'5 S' has an unknown unit 'S'; allowed: ns, us, ms, s, m, h", -EINVAL },
		{ 1, "9999999999999h", "'9999999999999h' is too long", -ERANGE },
	};
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sb_err err = { 0 };
		int rc = cases[i].dur ? sb_duration_parse(cases[i].in, &v, &err) : sb_size_parse(cases[i].in, &v, &err);

		assert_int_equal(rc, cases[i].rc);
		assert_string_equal(err.msg, cases[i].msg);
	}
	assert_int_equal(sb_duration_parse("2", &v, NULL), 0);   /* bare: seconds */
	assert_int_equal(v, 2000000000ULL);
	assert_int_equal(sb_size_parse("4k", &v, NULL), 0);      /* fio's suffixes in any case */
	assert_int_equal(v, 4096);
	assert_int_equal(sb_size_parse("4K", &v, NULL), 0);
	assert_int_equal(v, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_messages),
		cmocka_unit_test(test_binary_units),
		cmocka_unit_test(test_decimal_units),
		cmocka_unit_test(test_fio_suffixes),
		cmocka_unit_test(test_rejections),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_exact_durations),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
