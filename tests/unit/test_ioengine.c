/* The engines' table (bench/ioengine.h): every engine found by fio's name,
 * fio's flags (slat only for the asynchronous ones; null synchronous at
 * iodepth 1), the engines' own options, and a real tiny job with each
 * file engine on a regular file in a temp directory. */
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

#include "config.h"
#include "bench/engine.h"
#include "bench/ioengine.h"
#include "bench/job.h"
#include "fixture.h"

static void test_table(void **state)
{
	static const char *const names[] = { "libaio", "psync", "sync", "null", "vsync", "pvsync", "pvsync2",
					     "posixaio", "ftruncate", "cpuio", "io_uring", "exec" };
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct sb_ioengine_ops *e = sb_ioengine_find(names[i]);

		if (!e) {
			assert_false(SB_HAVE_IO_URING && !strcmp(names[i], "io_uring"));
			continue;
		}
		assert_string_equal(e->name, names[i]);
		assert_ptr_equal(sb_ioengine_get(e->id), e);
		assert_string_equal(sb_ioengine_name(e->id), names[i]);
		/* synchronous engines do it in queue; the others commit and reap */
		assert_true(e->queue ? !e->commit && !e->getevents : e->commit && e->getevents);
	}
	assert_null(sb_ioengine_find("rdma"));
	assert_null(sb_ioengine_find(""));
	assert_null(sb_ioengine_find("PSYNC"));
}

static void test_slat(void **state)
{
	struct sb_job_opts o;
	static const struct { enum sb_ioengine e; unsigned depth; bool slat; } cases[] = {
		{ SB_IOENGINE_PSYNC, 1, false }, { SB_IOENGINE_SYNC, 1, false }, { SB_IOENGINE_VSYNC, 1, false },
		{ SB_IOENGINE_PVSYNC, 1, false }, { SB_IOENGINE_PVSYNC2, 1, false },
		{ SB_IOENGINE_FTRUNCATE, 1, false }, { SB_IOENGINE_CPUIO, 1, false }, { SB_IOENGINE_EXEC, 1, false },
		{ SB_IOENGINE_LIBAIO, 1, true }, { SB_IOENGINE_POSIXAIO, 1, true },
		{ SB_IOENGINE_NULL, 1, false }, { SB_IOENGINE_NULL, 8, true },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sb_job_opts_init(&o);
		o.ioengine = cases[i].e;
		o.iodepth = cases[i].depth;
		assert_int_equal(sb_ioengine_has_slat(&o), cases[i].slat);
	}
}

static void test_options(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	(void)state;
	/* fio's cpuio: cpuload is needed, above 100 is 100, no size needed */
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=c", "--ioengine=cpuio", "--runtime=1", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "cpuload"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=c", "--ioengine=cpuio", "--cpuload=150", "--runtime=1", NULL), 0);
	assert_int_equal(o.eng.cpuload, 100);
	assert_int_equal(o.eng.cpuchunks, 50000);
	assert_int_equal(sb_t_job_parse(&o, &err, "--ioengine=cpuio", "--cpuload=5", "--cpumode=bogus", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "cpumode"));
	/* synchronous engines have one io in flight; the asynchronous keep theirs */
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--ioengine=vsync", "--iodepth=8", NULL), 0);
	assert_int_equal(o.iodepth, 1);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--ioengine=posixaio", "--iodepth=8", NULL), 0);
	assert_int_equal(o.iodepth, 8);
	assert_int_equal(o.ioengine, SB_IOENGINE_POSIXAIO);
	/* fio's exec: a program is mandatory; grace_time 1 and std_redirect 1 by default */
	assert_int_equal(sb_t_job_parse(&o, &err, "--ioengine=exec", "--runtime=1", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "no program is defined"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--ioengine=exec", "--program=/bin/true", "--arguments=-x %r", NULL), 0);
	assert_string_equal(o.eng.arguments, "-x %r");
	assert_int_equal(o.eng.grace_time, 1);
	assert_true(o.eng.std_redirect);
	/* the options of fio's engines that stackbench's do not take: refused by name */
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--ioengine=io_uring", "--fixedbufs", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: --fixedbufs"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--ioengine=cpuio", "--cpuload=5", "--exit_on_io_done=1", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: --exit_on_io_done"));
}

/* one 64 KiB job of rw with engine e in dir; the result's bytes */
static uint64_t run(const char *dir, const char *e, const char *rw, uint64_t *ios)
{
	struct sb_job_opts o;
	struct sb_job_result res;
	struct sb_err err = { 0 };
	uint64_t b;

	if (sb_t_job_parse(&o, &err, "--name=t", "--directory", dir, "--size=64k", "--ioengine", e, "--rw", rw,
		  "--iodepth=4", NULL) < 0)
		fail_msg("%s %s: %s", e, rw, err.msg);
	o.no_progress = true;
	if (sb_engine_run(&o, &res, &err) < 0)
		fail_msg("%s %s: %s", e, rw, err.msg);
	b = res.dir[0].io_bytes + res.dir[1].io_bytes;
	*ios = res.dir[0].ios + res.dir[1].ios;
	sb_job_result_release(&res);
	return b;
}

static void test_run(void **state)
{
	static const char *const engines[] = { "sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "posixaio",
					       "io_uring", "null" };
	char dir[] = "/tmp/sb-test-ioe.XXXXXX", path[64];
	struct stat st;
	uint64_t ios;
	unsigned i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		if (!sb_ioengine_find(engines[i]))
			continue;
		assert_int_equal(run(dir, engines[i], "write", &ios), 65536);
		assert_int_equal(ios, 16);
		assert_int_equal(run(dir, engines[i], "randread", &ios), 65536);
		assert_int_equal(ios, 16);
	}
	/* ftruncate: each write sets the size to its offset; the last is 60 KiB */
	snprintf(path, sizeof(path), "%s/t.0.0", dir);
	unlink(path);
	assert_int_equal(run(dir, "ftruncate", "write", &ios), 65536);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 60 << 10);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_slat),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
