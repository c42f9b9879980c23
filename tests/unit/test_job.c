/* stackbench job option parsing and rejections; JSON shape of a job report
 * (from a real, tiny engine run on a regular file in a temp directory). */
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

#include "bench/engine.h"
#include "bench/iostat.h"
#include "bench/job.h"
#include "bench/output.h"

static int parse(struct sb_job_opts *o, struct sb_err *err, ...)
{
	char *argv[64];
	const char *watch[SB_JOB_MAX_WATCH];
	unsigned nwatch;
	enum sb_output_format fmt;
	int argc = 0;
	va_list ap;
	const char *a;

	argv[argc++] = "job";
	va_start(ap, err);
	while ((a = va_arg(ap, const char *)))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	sb_err_clear(err);
	return sb_job_parse_args(argc, argv, o, watch, &nwatch, &fmt, err);
}

static void test_parse_ok(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	assert_int_equal(parse(&o, &err, "--target", "/dev/null", "--rw", "randrw", "--bs", "4k",
			       "--iodepth", "32", "--numjobs", "2", "--runtime", "5s", "--rwmixread", "70",
			       "--ramp", "1s", "--fsync", "8", "--buffered", NULL), 0);
	assert_string_equal(o.target, "/dev/null");
	assert_int_equal(o.rw, SB_RW_RANDRW);
	assert_int_equal(o.bs, 4096);
	assert_int_equal(o.iodepth, 32);
	assert_int_equal(o.numjobs, 2);
	assert_int_equal(o.runtime_ns, 5000000000ULL);
	assert_int_equal(o.ramp_ns, 1000000000ULL);
	assert_int_equal(o.rwmixread, 70);
	assert_int_equal(o.fsync_every, 8);
	assert_false(o.direct);

	assert_int_equal(parse(&o, &err, "--target", "x", "--bs", "512KiB", "--size", "1g", NULL), 0);
	assert_int_equal(o.bs, 512 * 1024);
	assert_int_equal(o.size, 1ULL << 30);
	assert_true(o.direct);
	assert_int_equal(o.rw, SB_RW_READ);
	assert_int_equal(o.iodepth, 1);
}

static void expect_reject(const char *want, ...)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };
	char *argv[32];
	const char *watch[SB_JOB_MAX_WATCH];
	unsigned nwatch;
	enum sb_output_format fmt;
	int argc = 0;
	va_list ap;
	const char *a;

	argv[argc++] = "job";
	va_start(ap, want);
	while ((a = va_arg(ap, const char *)))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	assert_int_equal(sb_job_parse_args(argc, argv, &o, watch, &nwatch, &fmt, &err), -EINVAL);
	if (!strstr(err.msg, want))
		fail_msg("message '%s' lacks '%s'", err.msg, want);
}

static void test_parse_reject(void **state)
{
	expect_reject("--target PATH is required", "--rw", "read", NULL);
	expect_reject("--rw", "--target", "x", "--rw", "sideways", NULL);
	expect_reject("multiple of 512", "--target", "x", "--bs", "1000", NULL);
	expect_reject("--bs", "--target", "x", "--bs", "4q", NULL);
	expect_reject("--iodepth", "--target", "x", "--iodepth", "0", NULL);
	expect_reject("--iodepth", "--target", "x", "--iodepth", "-3", NULL);
	expect_reject("--numjobs", "--target", "x", "--numjobs", "1000", NULL);
	expect_reject("--rwmixread", "--target", "x", "--rwmixread", "101", NULL);
	expect_reject("--runtime", "--target", "x", "--runtime", "fast", NULL);
	expect_reject("--ramp needs --runtime", "--target", "x", "--ramp", "1s", NULL);
	expect_reject("--verify works on size-based", "--target", "x", "--verify", "--runtime", "1s", NULL);
	expect_reject("--verify", "--target", "x", "--verify", "--rw", "randrw", NULL);
	expect_reject("unknown option", "--target", "x", "--frobnicate", NULL);
	expect_reject("--output-format", "--target", "x", "--output-format", "xml", NULL);
	expect_reject("unexpected argument", "--target", "x", "extra", NULL);
	expect_reject("smaller than --bs", "--target", "x", "--bs", "8k", "--size", "4k", NULL);
}

static void assert_key(struct json_object *o, const char *k, enum json_type t)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v))
		fail_msg("key '%s' missing", k);
	if (!json_object_is_type(v, t))
		fail_msg("key '%s' has type %s", k, json_type_to_name(json_object_get_type(v)));
}

static void test_json_shape(void **state)
{
	char dir[] = "/tmp/sb-test-job.XXXXXX";
	struct sb_job_opts o;
	struct sb_job_result *r = malloc(sizeof(*r));
	struct sb_iostat io = { 0 };
	struct sb_err err = { 0 };
	struct json_object *j, *job, *rd, *clat, *pct;
	const char *dirs[] = { "read", "write" };
	const char *pk[] = { "50.000000", "90.000000", "99.000000", "99.900000", "99.990000" };

	assert_non_null(mkdtemp(dir));
	assert_int_equal(parse(&o, &err, "--target", dir, "--rw", "randrw", "--bs", "4k",
			       "--size", "1m", "--iodepth", "4", "--buffered", NULL), 0);
	if (sb_engine_run(&o, r, &err) < 0)
		fail_msg("engine: %s", err.msg);
	j = sb_job_report_json(&o, r, &io);
	assert_key(j, "stackbench version", json_type_string);
	assert_key(j, "jobs", json_type_array);
	assert_key(j, "disk_util", json_type_array);
	job = json_object_array_get_idx(json_object_object_get(j, "jobs"), 0);
	assert_non_null(job);
	assert_key(job, "jobname", json_type_string);
	assert_key(job, "usr_cpu", json_type_double);
	assert_key(job, "sys_cpu", json_type_double);
	for (int d = 0; d < 2; d++) {
		assert_key(job, dirs[d], json_type_object);
		rd = json_object_object_get(job, dirs[d]);
		assert_key(rd, "io_bytes", json_type_int);
		assert_key(rd, "bw_bytes", json_type_int);
		assert_key(rd, "bw", json_type_int);
		assert_key(rd, "iops", json_type_double);
		assert_key(rd, "runtime", json_type_int);
		assert_key(rd, "clat_ns", json_type_object);
		clat = json_object_object_get(rd, "clat_ns");
		assert_key(clat, "min", json_type_int);
		assert_key(clat, "max", json_type_int);
		assert_key(clat, "mean", json_type_double);
		assert_key(clat, "stddev", json_type_double);
		assert_key(clat, "percentile", json_type_object);
		pct = json_object_object_get(clat, "percentile");
		for (int k = 0; k < 5; k++)
			assert_key(pct, pk[k], json_type_int);
	}
	/* 1 MiB in 4 KiB ios, split between directions */
	assert_int_equal(json_object_get_int64(json_object_object_get(json_object_object_get(job, "read"), "io_bytes")) +
			 json_object_get_int64(json_object_object_get(json_object_object_get(job, "write"), "io_bytes")),
			 1 << 20);
	json_object_put(j);
	free(r);
	assert_int_equal(rmdir(dir), 0); /* the job removed its file */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_reject),
		cmocka_unit_test(test_json_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
