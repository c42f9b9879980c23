/* Suite object shape (docs/results-schema.md) from a real, tiny `quick`
 * run in a temp directory; unknown suites and bench.* --set parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "bench/sizing.h"
#include "bench/suite.h"
#include "spec/options.h"

static void test_quick_shape(void **state)
{
	char dir[] = "/var/tmp/sb-test-suite.XXXXXX";
	struct sb_bench_spec b;
	struct sb_err err = { 0 };
	struct json_object *s = NULL, *v, *figs;
	const char *keys[] = { "suite", "repetition", "target", "notes", "figures", "jobs", "disk_util" };
	const char *figures[] = { "seq_write", "seq_read", "randread_iops", "randwrite_iops" };

	assert_non_null(mkdtemp(dir));
	assert_int_equal(sb_spec_bench_keys(NULL, 0, &b, NULL), 0);
	b.size = 4 << 20;
	b.runtime_ns = 200000000;
	if (sb_suite_run("quick", &b, dir, NULL, 0, 2, &s, &err) < 0)
		fail_msg("quick: %s", err.msg);
	for (unsigned i = 0; i < 7; i++)
		if (!json_object_object_get_ex(s, keys[i], &v))
			fail_msg("suite object lacks '%s'", keys[i]);
	assert_string_equal(json_object_get_string(json_object_object_get(s, "suite")), "quick");
	assert_int_equal(json_object_get_int(json_object_object_get(s, "repetition")), 2);
	assert_true(json_object_is_type(json_object_object_get(s, "notes"), json_type_array));
	assert_true(json_object_is_type(json_object_object_get(s, "jobs"), json_type_array));
	assert_int_equal(json_object_array_length(json_object_object_get(s, "jobs")), 4);
	assert_true(json_object_is_type(json_object_object_get(s, "disk_util"), json_type_array));
	figs = json_object_object_get(s, "figures");
	for (unsigned i = 0; i < 4; i++) {
		struct json_object *f, *val, *unit;

		if (!json_object_object_get_ex(figs, figures[i], &f))
			fail_msg("figure '%s' missing", figures[i]);
		assert_true(json_object_object_get_ex(f, "value", &val));
		assert_true(json_object_object_get_ex(f, "unit", &unit));
		assert_true(json_object_get_double(val) > 0);
		assert_string_equal(json_object_get_string(unit), i < 2 ? "MB/s" : "/s");
	}
	json_object_put(s);
	assert_int_equal(rmdir(dir), 0); /* nothing left behind */
}

/* dd: passes of write + read, 3 and then two at a time while the writes
 * measured so far took under 8 s (up to 9); each figure is the median
 * pass, every pass kept in "passes" and in the jobs (docs/sandbox.md, dd in
 * the throwaway kernel); how they were taken is recorded. 4 MiB writes
 * take milliseconds: all 9 passes. */
static void test_dd_passes(void **state)
{
	char dir[] = "/var/tmp/sb-test-suite.XXXXXX";
	struct sb_bench_spec b;
	struct sb_err err = { 0 };
	struct json_object *s = NULL, *figs, *jobs, *v;
	const char *names[] = { "write", "read" };
	unsigned n;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(sb_spec_bench_keys(NULL, 0, &b, NULL), 0);
	b.size = 4 << 20;
	if (sb_suite_run("dd", &b, dir, NULL, 0, 1, &s, &err) < 0)
		fail_msg("dd: %s", err.msg);
	assert_true(json_object_object_get_ex(s, "passes", &v));
	n = (unsigned)json_object_get_int(v);
	assert_true(json_object_object_get_ex(s, "write_seconds", &v));
	if (json_object_get_double(v) < 8 && n != 9)
		fail_msg("dd: %u passes, but the writes took %.3f s (< 8 s: 9 passes)", n, json_object_get_double(v));
	assert_int_equal(n, 9);
	assert_true(json_object_object_get_ex(s, "pass_rule", &v));
	assert_non_null(strstr(json_object_get_string(v), "median of 3 to 9 passes"));
	assert_true(json_object_object_get_ex(s, "pass_prep", &v));
	assert_non_null(strstr(json_object_get_string(v), "before each write and each read: sync"));
	jobs = json_object_object_get(s, "jobs");
	assert_int_equal(json_object_array_length(jobs), 2 * n);
	for (unsigned i = 0; i < 2 * n; i++) {
		struct json_object *opt = json_object_object_get(json_object_array_get_idx(jobs, i), "job options");

		assert_string_equal(json_object_get_string(json_object_object_get(opt, "rw")), i % 2 ? "read" : "write");
	}
	figs = json_object_object_get(s, "figures");
	for (unsigned i = 0; i < 2; i++) {
		struct json_object *f = json_object_object_get(figs, names[i]), *p;
		double x, val;
		unsigned below = 0, above = 0;

		assert_non_null(f);
		assert_true(json_object_object_get_ex(f, "passes", &p));
		assert_int_equal(json_object_array_length(p), n);
		val = json_object_get_double(json_object_object_get(f, "value"));
		for (unsigned k = 0; k < n; k++) {
			x = json_object_get_double(json_object_array_get_idx(p, k));
			assert_true(x > 0);
			below += x < val - 0.001;
			above += x > val + 0.001;
		}
		/* the median: at most n/2 passes on each side of it */
		if (below > n / 2 || above > n / 2)
			fail_msg("dd %s: %.3f is not the median of its %u passes (%u below, %u above)",
				 names[i], val, n, below, above);
	}
	json_object_put(s);
	assert_int_equal(rmdir(dir), 0); /* every pass's file removed */
}

static void test_unknown_suite(void **state)
{
	struct sb_bench_spec b;
	struct sb_err err = { 0 };
	struct json_object *s = NULL;

	assert_int_equal(sb_spec_bench_keys(NULL, 0, &b, NULL), 0);
	assert_int_equal(sb_suite_run("nope", &b, "/tmp", NULL, 0, 1, &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown suite 'nope'"));
	assert_null(s);
}

/* The registry is the one list: iterating it gives every suite once, each
 * one exists, and the comma list (messages, help) is the same names. */
static void test_registry_names(void **state)
{
	char joined[256] = "";
	const char *n;
	size_t i;

	(void)state;
	for (i = 0; (n = sb_suite_name(i)); i++) {
		assert_true(sb_suite_exists(n));
		snprintf(joined + strlen(joined), sizeof(joined) - strlen(joined), "%s%s", i ? ", " : "", n);
	}
	assert_true(i >= 5);   /* bonnie, fio-matrix, dd, smallfile, quick, and any added since */
	assert_null(sb_suite_name(i + 1));
	assert_string_equal(sb_suite_names(), joined);
	assert_string_equal(sb_suite_name(0), "bonnie");
	assert_false(sb_suite_exists("iozone"));
}

/* A suite is its table (bench/suite.h): every suite of the registry has
 * every member - sizing, the plan's estimate, the progress line and
 * compare's default columns ask it, and a suite lacking one would be
 * sized, estimated or shown by nothing. */
static void test_registry_hooks(void **state)
{
	struct sb_bench_spec b;
	const struct sb_suite_ops *s;
	size_t i;

	(void)state;
	assert_int_equal(sb_spec_bench_keys(NULL, 0, &b, NULL), 0);
	for (i = 0; (s = sb_suite_at(i)); i++) {
		if (!s->name || !*s->name)
			fail_msg("suite %zu has no name", i);
		if (!s->run || !s->default_size || !s->estimate || !s->phases || !s->columns)
			fail_msg("suite %s lacks a member:%s%s%s%s%s", s->name, s->run ? "" : " run",
				 s->default_size ? "" : " default_size", s->estimate ? "" : " estimate",
				 s->phases ? "" : " phases", s->columns ? "" : " columns");
		assert_ptr_equal(sb_suite_find(s->name), s);
		assert_string_equal(sb_suite_name(i), s->name);
		{
			const struct sb_sizing_rates fast = { 150e6, 5000, 0.0003 }, slow = { 25e6, 300, 0.004 };
			double lo = s->estimate(64 << 20, &b, &fast), hi = s->estimate(64 << 20, &b, &slow);

			if (!(lo > 0 && hi >= lo))
				fail_msg("suite %s: estimate %.2f s fast, %.2f s slow", s->name, lo, hi);
		}
	}
	assert_int_equal(sb_suite_name(i), NULL);
	assert_null(sb_suite_find("iozone"));
}

/* bench.suites' allowed names are the registry's (spec/parts.c takes them
 * from it), in its order: what validation accepts and its messages list. */
static void test_spec_allows_the_registry(void **state)
{
	const struct sb_opt_section *sec;
	const struct sb_opt *o = sb_opt_lookup("bench.suites", &sec);
	char allowed[256];

	(void)state;
	assert_non_null(o);
	sb_opt_allowed_list(o->allowed, allowed, sizeof(allowed));
	assert_string_equal(allowed, sb_suite_names());
}

/* bench --target's --set: the bench section's rows, as in a stack file */
static int set1(struct sb_bench_spec *b, const char *kv, struct sb_err *err)
{
	const char *sets[] = { kv };

	sb_err_clear(err);
	return sb_spec_bench_keys(sets, 1, b, err);
}

static void test_bench_set(void **state)
{
	const char *all[] = { "bench.size=64MiB", "bench.runtime=2s", "bench.chunk=16k",
			      "bench.files=0", "bench.fsync=false", "bench.repeat=3" };
	struct sb_bench_spec b;
	struct sb_err err = { 0 };

	assert_int_equal(sb_spec_bench_keys(all, 6, &b, &err), 0);
	assert_int_equal(b.size, 64 << 20);
	assert_int_equal(b.runtime_ns, 2000000000ULL);
	assert_int_equal(b.chunk, 16384);
	assert_int_equal(b.files, 0);
	assert_false(b.fsync);
	assert_int_equal(b.repeat, 3);
	assert_int_equal(set1(&b, "bench.files=1001", &err), -EINVAL);   /* the row's range, 0..1000 */
	assert_non_null(strstr(err.msg, "bench.files"));
	assert_int_equal(set1(&b, "devices.loop.size=1GiB", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "only bench.* keys"));
	assert_int_equal(set1(&b, "bench.suites=[dd]", &err), -EINVAL);
	assert_int_equal(set1(&b, "bench.nosuch=1", &err), -EINVAL);
	assert_int_equal(set1(&b, "bench.size=lots", &err), -EINVAL);
	assert_int_equal(set1(&b, "bench.fsync=maybe", &err), -EINVAL);
	assert_int_equal(set1(&b, "bench.size", &err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quick_shape),
		cmocka_unit_test(test_dd_passes),
		cmocka_unit_test(test_unknown_suite),
		cmocka_unit_test(test_bench_set),
		cmocka_unit_test(test_registry_names),
		cmocka_unit_test(test_registry_hooks),
		cmocka_unit_test(test_spec_allows_the_registry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
