/* fio's e4defrag engine (engines/e4defrag.c) on a real ext4 (a 64 MiB
 * image on a loop device; needs root, mkfs.ext4 and loop devices, skipped
 * otherwise, and under qemu-user, which lacks the ioctl): the job's writes move the file's blocks (FIBMAP of its first
 * block changes) and leave its data as it was; inplace=1 too; a read job
 * fails with EINVAL as fio's; donorname is required. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/engine.h"
#include "bench/job.h"
#include "fixture.h"

static char dir[] = "/tmp/sb-test-e4d.XXXXXX";
static char img[64];

static int setup(void **state)
{
	char cmd[512];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(img, sizeof(img), "%s.img", dir);
	snprintf(cmd, sizeof(cmd), "truncate -s 64M %s && mkfs.ext4 -q -F %s >/dev/null 2>&1 && "
		 "mount -o loop %s %s 2>/dev/null", img, img, img, dir);
	if (system(cmd) != 0)
		img[0] = '\0'; /* no ext4 here: the runs are skipped */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (img[0]) {
		umount(dir);
		unlink(img);
	}
	rmdir(dir);
	return 0;
}

static int run(const char *rw, const char *inplace, struct sb_err *err, uint64_t *bytes)
{
	struct sb_job_opts o;
	struct sb_job_result res;
	int rc;

	if (sb_t_job_parse(&o, err, "--name=f", "--directory", dir, "--size=1m", "--bs=32k", "--ioengine=e4defrag",
		  "--donorname=file.def", inplace, "--rw", rw, NULL) < 0)
		fail_msg("%s", err->msg);
	o.no_progress = true;
	rc = sb_engine_run(&o, &res, err);
	*bytes = res.dir[SB_DIR_WRITE].io_bytes;
	sb_job_result_release(&res);
	return rc;
}

/* f.0.0: 1 MiB of 0xab, written out; its first block's physical number */
static int first_block(bool fill)
{
	char path[64], buf[4096];
	int fd, blk = 0, i;

	snprintf(path, sizeof(path), "%s/f.0.0", dir);
	fd = open(path, fill ? O_RDWR | O_CREAT | O_TRUNC : O_RDONLY, 0644);
	assert_true(fd >= 0);
	for (i = 0; fill && i < 256; i++) {
		memset(buf, 0xab, sizeof(buf));
		assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	}
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(ioctl(fd, FIBMAP, &blk), 0);
	if (!fill) {
		for (i = 0; i < 256; i++) {
			assert_int_equal(read(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
			assert_int_equal((unsigned char)buf[0], 0xab);
			assert_int_equal((unsigned char)buf[4095], 0xab);
		}
	}
	close(fd);
	return blk;
}

static void test_moves(void **state)
{
	static const char *const modes[] = { "--inplace=0", "--inplace=1" };
	struct sb_err err = { 0 };
	uint64_t b;
	unsigned i;

	(void)state;
	if (!img[0])
		skip();
	for (i = 0; i < 2; i++) {
		int before = first_block(true), after, rc = run("write", modes[i], &err, &b);

		/* qemu-user (the ARM unit runs) does not pass this ioctl on */
		if (rc == -ENOSYS && strstr(err.msg, "Function not implemented"))
			skip();
		if (rc < 0)
			fail_msg("%s: %s", modes[i], err.msg);
		assert_int_equal(b, 1 << 20);
		after = first_block(false);
		if (before == after)
			fail_msg("%s: block 0 still at %d: nothing moved", modes[i], before);
	}
	assert_int_equal(run("read", "--inplace=0", &err, &b), -EINVAL);
}

static void test_refused(void **state)
{
	struct sb_job_opts *o = malloc(sizeof(*o));
	struct sb_err err = { 0 };

	(void)state;
	assert_non_null(o);
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=1m", "--ioengine=e4defrag", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "'donorname' options required"));
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=1m", "--ioengine=e4defrag", "--donorname=d",
			       "--inplace=2", NULL), -EINVAL);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_moves),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
