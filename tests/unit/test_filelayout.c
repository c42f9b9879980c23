/* How `stackbench job` lays out a job's file, as fio 3.33's extend_file
 * (bench/filelayout.c), on real files in a directory under the build
 * directory: a write job's new file is fallocated, not written; a read
 * job's is written out from offset 0; the room asked for is what the job
 * writes (an offset=1P write job fits); fallocate=, overwrite and
 * create_fsync parse as fio's; loops and time-based passes drop the cache
 * as fio's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "bench/engine.h"
#include "bench/filelayout.h"
#include "bench/job.h"

static char dir[] = "fl-test-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int parse(struct sb_job_opts *o, struct sb_err *err, const char *a, const char *b, const char *c)
{
	char *argv[] = { "job", (char *)a, (char *)b, (char *)c, NULL };
	enum sb_output_format fmt;
	int argc = 1 + (a != NULL) + (b != NULL) + (c != NULL);

	return sb_job_parse_args(argc, argv, o, &fmt, err);
}

static void test_options(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	(void)state;
	assert_int_equal(parse(&o, &err, "--target=/dev/null", "--size=1m", NULL), 0);
	assert_int_equal(o.fl.fallocate, SB_FALLOC_NATIVE);  /* fio's Linux default */
	assert_false(o.fl.overwrite);
	assert_true(o.fl.create_fsync);
	assert_false(o.fl.suite);
	assert_int_equal(parse(&o, &err, "--target=/dev/null", "--fallocate=keep", "--overwrite=1"), 0);
	assert_int_equal(o.fl.fallocate, SB_FALLOC_KEEP);
	assert_true(o.fl.overwrite);
	assert_int_equal(parse(&o, &err, "--target=/dev/null", "--fallocate=0", "--create_fsync=0"), 0);
	assert_int_equal(o.fl.fallocate, SB_FALLOC_NONE);
	assert_false(o.fl.create_fsync);
	assert_int_equal(parse(&o, &err, "--target=/dev/null", "--fallocate=1", NULL), 0);
	assert_int_equal(o.fl.fallocate, SB_FALLOC_POSIX);
	assert_int_equal(parse(&o, &err, "--target=/dev/null", "--fallocate=truncate", NULL), 0);
	assert_int_equal(o.fl.fallocate, SB_FALLOC_TRUNCATE);
	assert_int_equal(parse(&o, &err, "--target=/dev/null", "--fallocate=sometimes", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "fallocate"));
}

/* 4 KiB blocks of the file that are all zero */
static unsigned zero_blocks(const char *path, uint64_t from, uint64_t to)
{
	static const char zero[4096];
	char buf[4096];
	unsigned n = 0;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	assert_int_equal(fseek(f, (long)from, SEEK_SET), 0);
	for (; from < to && fread(buf, 1, sizeof(buf), f) == sizeof(buf); from += sizeof(buf))
		n += !memcmp(buf, zero, sizeof(buf));
	fclose(f);
	return n;
}

/* a write job's new file: fallocated to its size, its blocks left to the
 * job (zeros), whatever the rw; fallocate=none: an empty file */
static void test_extend_write(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };
	struct rng r;
	struct stat st;
	char path[64];

	(void)state;
	rng_seed(&r, 1);
	snprintf(path, sizeof(path), "%s/w", dir);
	assert_int_equal(parse(&o, &err, "--target=/dev/null", "--rw=randwrite", NULL), 0);
	assert_int_equal(sb_fl_extend(&o, path, 0, 0, 64 << 10, &r, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 64 << 10);
	assert_int_equal(zero_blocks(path, 0, 64 << 10), 16);
	o.fl.fallocate = SB_FALLOC_NONE;
	assert_int_equal(sb_fl_extend(&o, path, (uint64_t)st.st_size, 0, 128 << 10, &r, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 0);  /* unlinked and made anew, as fio's */
	/* overwrite=1: written out as a read job's */
	o.fl.overwrite = true;
	assert_int_equal(sb_fl_extend(&o, path, 0, 0, 64 << 10, &r, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 64 << 10);
	assert_int_equal(zero_blocks(path, 0, 64 << 10), 0);
}

/* a read job's file is written from 0 to the end of its region (fio's
 * real_file_size = offset + size); the suites' layout writes the region */
static void test_extend_read(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };
	struct rng r;
	struct stat st;
	char path[64];

	(void)state;
	rng_seed(&r, 2);
	snprintf(path, sizeof(path), "%s/r", dir);
	assert_int_equal(parse(&o, &err, "--target=/dev/null", "--rw=read", NULL), 0);
	assert_int_equal(sb_fl_extend(&o, path, 0, 32 << 10, 32 << 10, &r, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 64 << 10);
	assert_int_equal(zero_blocks(path, 0, 64 << 10), 0);
	assert_int_equal(unlink(path), 0);
	o.fl.suite = true;
	assert_int_equal(sb_fl_extend(&o, path, 0, 32 << 10, 32 << 10, &r, &err), 0);
	assert_int_equal(zero_blocks(path, 0, 32 << 10), 8);
	assert_int_equal(zero_blocks(path, 32 << 10, 64 << 10), 0);
	assert_int_equal(unlink(path), 0);
}

/* the room a file target needs: a write job's at offset=1P is its own
 * 1 MiB (fio writes a sparse file); a read job's is the whole file */
static void test_room_sparse(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };
	struct stat st;
	uint64_t dev = 0;
	char path[64];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/sparse", dir);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(parse(&o, &err, "--rw=write", "--size=1m", NULL), 0);
	snprintf(o.target, sizeof(o.target), "%s", path);
	o.offset = 1ULL << 50;
	assert_int_equal(sb_fl_target_room(&o, &st, &dev, &err), 0);
	assert_true(dev == (1ULL << 50) + (1 << 20));
	o.rw = SB_RW_READ;
	assert_int_equal(sb_fl_target_room(&o, &st, &dev, &err), -ENOSPC);
	o.rw = SB_RW_WRITE;
	o.fl.suite = true;  /* the suites lay the whole file out */
	assert_int_equal(sb_fl_target_room(&o, &st, &dev, &err), -ENOSPC);
}

/* a whole randwrite job of one io (number_ios=1) on a new file: the
 * other 15 blocks are the fallocated zeros, not a laid-out file's data */
static void test_engine_write_job(void **state)
{
	struct sb_job_opts o;
	struct sb_job_result res;
	struct sb_err err = { 0 };
	char path[64];

	(void)state;
	assert_int_equal(parse(&o, &err, "--rw=randwrite", "--size=64k", "--number_ios=1"), 0);
	snprintf(o.target, sizeof(o.target), "%s", dir);
	o.no_progress = true;
	assert_int_equal(sb_engine_run(&o, &res, &err), 0);
	assert_int_equal(res.dir[SB_DIR_WRITE].ios, 1);
	sb_engine_job_file(&o, 0, path, sizeof(path));
	assert_int_equal(zero_blocks(path, 0, 64 << 10), 15);
	sb_job_result_release(&res);
	assert_int_equal(unlink(path), 0);
}

/* the cache is dropped before every pass after the first: size-based
 * loops (fio reopens the files), buffered time-based passes (fio's
 * loop_cache_invalidate: sequential, or random with a random map) */
static void test_loop_invalidate(void **state)
{
	struct sb_job_opts o;

	(void)state;
	sb_job_opts_init(&o);
	o.rw = SB_RW_RANDREAD;
	assert_true(sb_fl_loop_invalidate(&o, false));
	assert_false(sb_fl_loop_invalidate(&o, true));  /* loops=1 */
	o.loops = 3;
	assert_true(sb_fl_loop_invalidate(&o, true));
	o.randommap = false;
	assert_false(sb_fl_loop_invalidate(&o, false));
	o.rw = SB_RW_WRITE;
	assert_true(sb_fl_loop_invalidate(&o, false));
	o.direct = true;
	assert_false(sb_fl_loop_invalidate(&o, false));
	assert_true(sb_fl_loop_invalidate(&o, true));
	o.invalidate = false;
	assert_false(sb_fl_loop_invalidate(&o, true));
	/* fio syncs at the end only with end_fsync; the suites' buffered writes too */
	sb_job_opts_init(&o);
	assert_false(sb_fl_end_fsync(&o));
	o.end_fsync = true;
	assert_true(sb_fl_end_fsync(&o));
	sb_job_opts_init(&o);
	sb_job_opts_suite(&o);
	assert_false(sb_fl_end_fsync(&o));
	o.direct = false;
	assert_true(sb_fl_end_fsync(&o));
}

/* fio's option dicts name an option by its .name, not the alias written
 * (readwrite= is "rw", blocksize= "bs", timeout= "runtime") */
static void test_dict_names(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	(void)state;
	char *argv[] = { "job", "--size=1m", "--readwrite=write", "--blocksize=8k", "--timeout=5", NULL };
	enum sb_output_format fmt;

	assert_int_equal(sb_job_parse_args(5, argv, &o, &fmt, &err), 0);
	assert_non_null(strstr(o.given, "rw=write\n"));
	assert_non_null(strstr(o.given, "bs=8k\n"));
	assert_non_null(strstr(o.given, "runtime=5\n"));
	assert_null(strstr(o.given, "readwrite"));
	assert_null(strstr(o.given, "blocksize"));
	assert_null(strstr(o.given, "timeout"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_extend_write),
		cmocka_unit_test(test_extend_read),
		cmocka_unit_test(test_room_sparse),
		cmocka_unit_test(test_loop_invalidate),
		cmocka_unit_test(test_engine_write_job),
		cmocka_unit_test(test_dict_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
