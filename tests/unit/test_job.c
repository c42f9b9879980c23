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

#include "config.h"
#include "bench/engine.h"
#include "bench/iostat.h"
#include "bench/job.h"
#include "bench/jobargs.h"
#include "bench/output.h"

/* `job ARGS...` (up to a NULL) parsed into o. */
static int vparse(struct sb_job_opts *o, struct sb_err *err, va_list ap)
{
	char *argv[64];
	enum sb_output_format fmt;
	int argc = 0;
	const char *a;

	argv[argc++] = "job";
	while ((a = va_arg(ap, const char *)) && argc < 63)
		argv[argc++] = (char *)a;
	argv[argc] = NULL;
	sb_err_clear(err);
	return sb_job_parse_args(argc, argv, o, &fmt, err);
}

static int parse(struct sb_job_opts *o, struct sb_err *err, ...)
{
	va_list ap;
	int r;

	va_start(ap, err);
	r = vparse(o, err, ap);
	va_end(ap);
	return r;
}

static void test_parse_ok(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	assert_int_equal(parse(&o, &err, "--target", "/dev/null", "--rw", "randrw", "--bs", "4k",
			       "--iodepth", "32", "--numjobs", "2", "--runtime", "5s", "--rwmixread", "70",
			       "--ramp", "1s", "--fsync", "8", "--buffered", "--ioengine=libaio", NULL), 0);
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
	assert_false(o.direct);  /* fio: direct=0 */
	assert_int_equal(o.rw, SB_RW_READ);
	assert_int_equal(o.iodepth, 1);
}

static int cli(struct sb_job_cli *c, struct sb_err *err, ...)
{
	char *argv[64];
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
	return sb_job_cli_parse(argc, argv, c, err);
}

/* The reference write-ups' command lines, verbatim but for the size. */
static void test_fio_spellings(void **state)
{
	struct sb_job_cli c;
	struct sb_err err = { 0 };

	if (cli(&c, &err, "--name=myjob", "--randrepeat=0", "--ioengine=libaio", "--direct=1",
		"--size=10M", "--filename=testfile", "--bs=512k", "--iodepth=32", "--rw=read",
		"--numjob=2", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.njobs, 1);
	assert_string_equal(c.jobs[0].name, "myjob");
	assert_string_equal(c.jobs[0].target, "testfile");
	assert_true(c.jobs[0].create);
	assert_false(c.jobs[0].randrepeat);
	assert_true(c.jobs[0].direct);
	assert_int_equal(c.jobs[0].size, 10 << 20);
	assert_int_equal(c.jobs[0].bs, 512 << 10);
	assert_int_equal(c.jobs[0].iodepth, 32);
	assert_int_equal(c.jobs[0].numjobs, 2);
	assert_int_equal(c.jobs[0].rw, SB_RW_READ);
	assert_int_equal(c.jobs[0].ioengine, SB_IOENGINE_LIBAIO);
	sb_job_cli_free(&c);

	if (cli(&c, &err, "--name=stressant", "--group_reporting", "--directory=/srv/osmc",
		"--size=100M", "--readwrite=randrw", "--direct=1", "--numjobs=4", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_string_equal(c.jobs[0].target, "/srv/osmc");
	assert_true(c.jobs[0].group_reporting);
	assert_int_equal(c.jobs[0].rw, SB_RW_RANDRW);
	assert_int_equal(c.jobs[0].numjobs, 4);
	assert_true(c.jobs[0].randrepeat); /* fio's default */
	sb_job_cli_free(&c);

	/* --opt value, bools alone or with 0/1, fio's times (bare = seconds) */
	if (cli(&c, &err, "--filename", "/dev/null", "--rw", "randrw", "--rwmixwrite", "30",
		"--runtime", "5", "--ramp_time", "1", "--direct", "0", "--end_fsync", "--output",
		"out.json", "--output-format", "json+", "--ioengine", "psync", "--iodepth", "8", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.jobs[0].rwmixread, 70);
	assert_int_equal(c.jobs[0].runtime_ns, 5000000000ULL);
	assert_int_equal(c.jobs[0].ramp_ns, 1000000000ULL);
	assert_true(c.jobs[0].runtime_limit); /* not time_based: size or runtime, what comes first */
	assert_false(c.jobs[0].direct);
	assert_true(c.jobs[0].end_fsync);
	assert_string_equal(c.output, "out.json");
	assert_int_equal(c.fmt, SB_OUT_JSONPLUS);
	assert_int_equal(c.jobs[0].ioengine, SB_IOENGINE_PSYNC);
	assert_int_equal(c.jobs[0].iodepth, 1); /* a synchronous engine */
	sb_job_cli_free(&c);

	if (cli(&c, &err, "--target=/dev/null", "--runtime=2s", "--time_based", "--buffered", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_false(c.jobs[0].runtime_limit);
	assert_false(c.jobs[0].direct);
	assert_false(c.jobs[0].create);
	sb_job_cli_free(&c);
}

/* --name starts a job that inherits the options before the first --name
 * (fio's global ones), not those of the job before it. */
static void test_fio_jobs(void **state)
{
	struct sb_job_cli c;
	struct sb_err err = { 0 };

	if (cli(&c, &err, "--filename=/dev/null", "--ioengine=libaio", "--bs=8k", "--name=a", "--iodepth=4",
		"--name=b", "--rw=write", "--stonewall", "--name=c", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.njobs, 3);
	assert_string_equal(c.jobs[0].name, "a");
	assert_int_equal(c.jobs[0].iodepth, 4);
	assert_int_equal(c.jobs[0].bs, 8192);
	assert_string_equal(c.jobs[1].name, "b");
	assert_int_equal(c.jobs[1].iodepth, 1);
	assert_int_equal(c.jobs[1].rw, SB_RW_WRITE);
	assert_int_equal(c.jobs[1].bs, 8192);
	assert_int_equal(c.jobs[2].rw, SB_RW_READ);
	assert_int_equal(c.jobs[0].groupid, 0);
	assert_int_equal(c.jobs[1].groupid, 1);
	assert_int_equal(c.jobs[2].groupid, 1);
	sb_job_cli_free(&c);
}

/* fio's iomem: plain pages by default (a 1 MiB direct io may then be split
 * into several device requests, as fio's are); mmaphuge/shmhuge ask for
 * huge pages; other kinds are refused. */
static void test_fio_iomem(void **state)
{
	struct sb_job_cli c;
	struct sb_err err = { 0 };
	const char *bad[] = { "--iomem=cudamalloc", "--iomem=mal", "--iomem=malloc:x", "--iomem=mmaphuge:", NULL };

	(void)state;
	if (cli(&c, &err, "--filename=/dev/null", "--name=a", "--iomem=mmaphuge:/hugetlbfs/f", "--name=b",
		"--mem=shmhuge", "--name=c", "--iomem=mmap", "--name=d", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_true(c.jobs[0].huge_buffers);
	assert_true(c.jobs[1].huge_buffers);
	assert_false(c.jobs[2].huge_buffers);
	assert_false(c.jobs[3].huge_buffers);
	sb_job_cli_free(&c);
	for (int i = 0; bad[i]; i++) {
		if (cli(&c, &err, "--filename=/dev/null", bad[i], NULL) == 0)
			fail_msg("%s was taken", bad[i]);
		assert_int_equal(err.code, -EINVAL);
	}
}

static void test_fio_job_file(void **state)
{
	char path[] = "/tmp/sb-test-jobfile.XXXXXX";
	struct sb_job_cli c;
	struct sb_err err = { 0 };
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	fputs("; a comment\n[global]\nioengine=libaio\ndirect=1\nfilename=/dev/null\nbs=4k\n\n"
	      "[seq-read]\nrw=read\niodepth = 16\n# another\n[rand-write]\nrw=randwrite\nstonewall\n"
	      "time_based\nruntime=3\n", f);
	fclose(f);
	if (cli(&c, &err, "--output-format=json", path, NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.njobs, 2);
	assert_string_equal(c.jobs[0].name, "seq-read");
	assert_int_equal(c.jobs[0].iodepth, 16);
	assert_string_equal(c.jobs[1].name, "rand-write");
	assert_int_equal(c.jobs[1].rw, SB_RW_RANDWRITE);
	assert_int_equal(c.jobs[1].iodepth, 1);
	assert_true(c.jobs[1].time_based);
	assert_int_equal(c.jobs[1].groupid, 1);
	assert_int_equal(c.fmt, SB_OUT_JSON);
	sb_job_cli_free(&c);

	f = fopen(path, "w");
	fputs("[j]\nfilename=/dev/null\nrate_iops=100\n", f);
	fclose(f);
	assert_int_equal(cli(&c, &err, path, NULL), -EINVAL);
	if (!strstr(err.msg, ":3: not supported by stackbench job: rate_iops"))
		fail_msg("'%s'", err.msg);
	sb_job_cli_free(&c);
	unlink(path);
}

static void expect_reject(const char *want, ...);

/* fio 3.33's defaults (options.c), not stackbench's suites' */
static void test_fio_defaults(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	expect_reject("you need to specify size=", "--rw=read", NULL);
	expect_reject("not supported by stackbench job: --offset=50%", "--size=1m", "--offset=50%", NULL);
	/* fio's rw=<mode>:N (bench/jobbs.c): taken now, a skip of 8k after each io */
	assert_int_equal(parse(&o, &err, "--size=1m", "--rw=read:8k", NULL), 0);
	assert_int_equal(o.bsd.seq_add, 8192);
	assert_true(o.bsd.active);
	expect_reject("not supported by stackbench job: --filesize=1m-2m", "--filesize=1m-2m", NULL);
	expect_reject("not supported by stackbench job: --filesize larger", "--size=1m", "--filesize=2m", NULL);
	assert_int_equal(parse(&o, &err, "--filesize=2m", "--size=8m", NULL), 0);
	assert_int_equal(o.size, 2 << 20);      /* fio caps size at the files' total */
	assert_int_equal(parse(&o, &err, "--filesize=2m", NULL), 0);
	assert_int_equal(o.size, 2 << 20);
	expect_reject("not supported by stackbench job: --ioengine=io_uring", "--size=1m", "--ioengine=io_uring", NULL);
	assert_int_equal(parse(&o, &err, "--rw=randread", "--iodepth=8", "--size=1m", NULL), 0);
	assert_string_equal(o.target, ".");     /* NAME.N.0 in the current directory */
	assert_false(o.direct);
	assert_int_equal(o.ioengine, SB_IOENGINE_PSYNC);
	assert_int_equal(o.iodepth, 1);         /* psync: one in flight */
	assert_int_equal(o.iodepth_batch, 1);
	assert_int_equal(o.batch_cmin, 1);
	assert_int_equal(o.batch_cmax, 0);      /* raised to the min, as fio's fixup */
	assert_true(o.invalidate);
	assert_true(o.randommap);
	assert_true(o.keep_files);
	assert_int_equal(parse(&o, &err, "--size=1m", "--norandommap", "--unlink", "--invalidate=0", "--ioengine=libaio",
			       "--iodepth=8", "--iodepth_batch_complete_min=2",
			       "--iodepth_batch_complete_max=4", NULL), 0);
	assert_false(o.randommap);
	assert_false(o.keep_files);
	assert_false(o.invalidate);
	assert_int_equal(o.iodepth, 8);
	assert_int_equal(o.batch_cmin, 2);
	assert_int_equal(o.batch_cmax, 4);
	assert_int_equal(parse(&o, &err, "--ioengine=null", "--iodepth=8", NULL), 0); /* no files: no size */
	assert_int_equal(o.iodepth, 8);         /* as given (fio's text shows it) */
}

/* fio's null engine: no file at all, every io done at once */
static void test_null_engine(void **state)
{
	struct sb_job_opts o;
	struct sb_job_result *r = calloc(1, sizeof(*r));
	struct sb_err err = { 0 };

	assert_non_null(r);
	assert_int_equal(parse(&o, &err, "--ioengine=null", "--filename=/nonexistent/sb-null", "--rw=randwrite",
			       "--size=1m", "--iodepth=8", NULL), 0);
	if (sb_engine_run(&o, r, &err) < 0)
		fail_msg("engine: %s", err.msg);
	assert_int_equal(r->dir[SB_DIR_WRITE].ios, 256);
	assert_int_equal(r->dir[SB_DIR_WRITE].io_bytes, 1 << 20);
	assert_int_equal(r->depth_level[0], 256); /* one at a time, as fio's null (busy until reaped) */
	assert_int_equal(access("/nonexistent/sb-null", F_OK), -1);
	sb_job_result_release(r);
	free(r);
}

static void expect_reject(const char *want, ...)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };
	va_list ap;
	int r;

	va_start(ap, want);
	r = vparse(&o, &err, ap);
	va_end(ap);
	assert_int_equal(r, -EINVAL);
	if (!strstr(err.msg, want))
		fail_msg("message '%s' lacks '%s'", err.msg, want);
}

static void test_parse_reject(void **state)
{
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
	expect_reject("job file extra: No such file", "--target", "x", "extra", NULL);
	expect_reject("not supported by stackbench job: --rate", "--target", "x", "--rate=1m", NULL);
	expect_reject("not supported by stackbench job: --thinktime", "--thinktime=1", "--target", "x", NULL);
	expect_reject("not supported by stackbench job: --ioengine=posixaio", "--target", "x", "--ioengine=posixaio", NULL);
	expect_reject("not supported by stackbench job: --ioengine=io_uring", "--target", "x",
		      "--ioengine=io_uring", NULL);
	expect_reject("--iodepth needs a value", "--target", "x", "--iodepth", NULL);
	expect_reject("--iodepth needs a value", "--target", "x", "--iodepth", "--bs", "4k", NULL);
	expect_reject("--bs: '0' is not a block size of 1 byte to 64 MiB", "--target", "x", "--bs", "0", NULL);
	expect_reject("--bs: '0' is not a block size", "--target=x", "--bs=0", NULL);
	expect_reject("--bs: '128m' is not a block size", "--target=x", "--bs=128m", NULL);
	/* no abbreviations: --output is fio's output file, not --output-format */
	expect_reject("unknown option '--iodept'", "--target", "x", "--iodept=4", NULL);
	expect_reject("unknown option '--outp'", "--target", "x", "--outp", "json", NULL);
	expect_reject("--direct: '2' is not 0 or 1", "--target", "x", "--direct=2", NULL);
	expect_reject("--time_based needs --runtime", "--target", "x", "--time_based", NULL);
	expect_reject("2 jobs", "--target", "x", "--name=a", "--name=b", NULL);
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


/* fio's json: the keys of a direction ("read", "write") and of its clat_ns */
static const struct { const char *key; json_type type; } rd_keys[] = {
	{ "io_bytes", json_type_int }, { "bw_bytes", json_type_int }, { "bw", json_type_int },
	{ "iops", json_type_double }, { "runtime", json_type_int }, { "clat_ns", json_type_object },
}, clat_keys[] = {
	{ "min", json_type_int }, { "max", json_type_int }, { "mean", json_type_double },
	{ "stddev", json_type_double }, { "percentile", json_type_object },
};

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
			       "--size", "1m", "--iodepth", "4", "--buffered", "--unlink", NULL), 0);
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
		for (size_t k = 0; k < sizeof(rd_keys) / sizeof(rd_keys[0]); k++)
			assert_key(rd, rd_keys[k].key, rd_keys[k].type);
		clat = json_object_object_get(rd, "clat_ns");
		for (size_t k = 0; k < sizeof(clat_keys) / sizeof(clat_keys[0]); k++)
			assert_key(clat, clat_keys[k].key, clat_keys[k].type);
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

/* fio's JSON (sb_jobs_report_json): one entry per thread without
 * group_reporting, fio's keys, 17 percentiles, json+ bins holding every io,
 * and slat + clat = lat per direction (means). */
static void test_fio_json(void **state)
{
	char dir[] = "/tmp/sb-test-fiojson.XXXXXX";
	struct sb_job_cli c;
	struct sb_job_result *r = calloc(1, sizeof(*r));
	struct sb_iostat io = { 0 };
	struct sb_err err = { 0 };
	struct json_object *j, *jobs, *job, *rd, *clat, *bins;
	const struct sb_job_opts *op[1];
	const struct sb_job_result *rp[1];
	static const char *const keys[] = { "jobname", "groupid", "error", "elapsed", "job options",
					    "trim", "sync", "job_runtime", "usr_cpu", "ctx", "latency_us",
					    "latency_ms", "iodepth_level" };
	static const char *const dkeys[] = { "slat_ns", "clat_ns", "lat_ns", "bw_min", "bw_agg",
					     "bw_samples", "iops_stddev", "iops_samples", "short_ios" };
	int64_t n = 0;

	assert_non_null(mkdtemp(dir));
	if (cli(&c, &err, "--name=t", "--directory", dir, "--rw=randread", "--bs=4k", "--size=512k",
		"--iodepth=4", "--numjobs=2", "--buffered", NULL) < 0)
		fail_msg("%s", err.msg);
	if (sb_engine_run(&c.jobs[0], r, &err) < 0)
		fail_msg("engine: %s", err.msg);
	op[0] = &c.jobs[0];
	rp[0] = r;
	j = sb_jobs_report_json(&c.global, op, rp, 1, &io, true);
	assert_string_equal(json_object_get_string(json_object_object_get(j, "fio version")), "stackbench-" SB_VERSION);
	jobs = json_object_object_get(j, "jobs");
	assert_int_equal(json_object_array_length(jobs), 2);
	job = json_object_array_get_idx(jobs, 1);
	for (unsigned k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!json_object_object_get_ex(job, keys[k], NULL))
			fail_msg("job key %s missing", keys[k]);
	assert_string_equal(json_object_get_string(json_object_object_get(json_object_object_get(job, "job options"),
									     "bs")), "4k");
	rd = json_object_object_get(job, "read");
	for (unsigned k = 0; k < sizeof(dkeys) / sizeof(dkeys[0]); k++)
		if (!json_object_object_get_ex(rd, dkeys[k], NULL))
			fail_msg("read key %s missing", dkeys[k]);
	clat = json_object_object_get(rd, "clat_ns");
	assert_int_equal(json_object_object_length(json_object_object_get(clat, "percentile")), 17);
	assert_true(json_object_object_get_ex(json_object_object_get(clat, "percentile"), "99.950000", NULL));
	bins = json_object_object_get(clat, "bins");
	json_object_object_foreach(bins, bk, bv) {
		(void)bk;
		n += json_object_get_int64(bv);
	}
	assert_int_equal(n, 128); /* 512 KiB in 4 KiB reads: every io in one bin */
	assert_int_equal(json_object_get_int64(json_object_object_get(rd, "total_ios")), 128);
	json_object_put(j);
	sb_job_result_release(r);
	free(r);
	sb_job_cli_free(&c);
	/* fio's unlink=0: the files t.0.0 and t.1.0 are kept */
	for (int i = 0; i < 2; i++) {
		char f[64];

		snprintf(f, sizeof(f), "%s/t.%d.0", dir, i);
		assert_int_equal(unlink(f), 0);
	}
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_fio_defaults),
		cmocka_unit_test(test_null_engine),
		cmocka_unit_test(test_parse_reject),
		cmocka_unit_test(test_fio_spellings),
		cmocka_unit_test(test_fio_jobs),
		cmocka_unit_test(test_fio_iomem),
		cmocka_unit_test(test_fio_job_file),
		cmocka_unit_test(test_fio_json),
		cmocka_unit_test(test_json_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
