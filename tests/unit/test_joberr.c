/* The I/O error family (bench/joberr.c): fio's fill_device on a real
 * full filesystem (a 256 KiB tmpfs; needs root to mount it, skipped
 * otherwise): the writes end at ENOSPC and the job succeeds with what
 * fitted, where without fill_device the job is refused for want of room;
 * fill_device without size= on a file is refused by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/engine.h"
#include "bench/job.h"
#include "fixture.h"

static void test_refused(void **state)
{
	struct sb_job_opts *o = malloc(sizeof(*o));
	struct sb_err err = { 0 };

	(void)state;
	assert_non_null(o);
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=/tmp/sb-test-fill-nosize", "--rw=write", "--fill_device=1", NULL),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: fill_device"));
	/* fio's alias, and with a size it is taken */
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=/tmp/sb-test-fill-nosize", "--rw=write", "--fill_fs=1",
			       "--size=64k", NULL), 0);
	assert_true(o->fill_device);
	free(o);
}

static int run(const char *dir, const char *engine, bool fill, uint64_t *bytes, struct sb_err *err)
{
	struct sb_job_opts o;
	struct sb_job_result res;
	int rc;

	if (sb_t_job_parse(&o, err, "--name=f", "--directory", dir, "--size=1m", "--rw=write", "--ioengine", engine,
		  "--iodepth=4", fill ? "--fill_device=1" : "--fill_device=0", NULL) < 0)
		fail_msg("%s", err->msg);
	o.no_progress = true;
	rc = sb_engine_run(&o, &res, err);
	*bytes = res.dir[SB_DIR_WRITE].io_bytes;
	sb_job_result_release(&res);
	return rc;
}

static void test_full(void **state)
{
	char dir[] = "/tmp/sb-test-fill.XXXXXX", path[64];
	static const char *const engines[] = { "psync", "libaio" };
	struct sb_err err = { 0 };
	uint64_t b;
	unsigned i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	if (mount("tmpfs", dir, "tmpfs", 0, "size=256k") < 0) {
		rmdir(dir);
		skip();
	}
	snprintf(path, sizeof(path), "%s/f.0.0", dir);
	for (i = 0; i < 2; i++) {
		if (run(dir, engines[i], true, &b, &err) < 0)
			fail_msg("%s: fill_device: %s", engines[i], err.msg);
		if (b == 0 || b > (256 << 10))
			fail_msg("%s: fill_device wrote %llu bytes on a 256 KiB tmpfs", engines[i], (unsigned long long)b);
		unlink(path);
	}
	/* without it, the job does not fit */
	assert_int_equal(run(dir, "psync", false, &b, &err), -ENOSPC);
	unlink(path);
	assert_int_equal(umount(dir), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
