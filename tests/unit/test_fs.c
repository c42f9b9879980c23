/* util/fs.c: which copy of a shipped file belongs to this binary. The test
 * binary runs from the build tree, so the built copy comes first. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "util/fs.h"

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fclose(f);
}

static void test_own_copy(void **state)
{
	char dir[] = "/tmp/sb-test-fs-XXXXXX", built[PATH_MAX], inst[PATH_MAX], out[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(built, sizeof(built), "%s/built", dir);
	snprintf(inst, sizeof(inst), "%s/installed", dir);

	assert_int_equal(sb_fs_own_copy(out, sizeof(out), built, inst, R_OK), -ENOENT);
	touch(inst);
	assert_int_equal(sb_fs_own_copy(out, sizeof(out), built, inst, R_OK), 0);
	assert_string_equal(out, inst);     /* the built one is missing: the other */
	touch(built);
	assert_int_equal(sb_fs_own_copy(out, sizeof(out), built, inst, R_OK), 0);
	assert_string_equal(out, built);    /* a build-tree binary prefers the built one */
	/* neither is executable */
	assert_int_equal(sb_fs_own_copy(out, sizeof(out), built, inst, X_OK), -ENOENT);

	unlink(built);
	unlink(inst);
	rmdir(dir);
}

/* The output helper (report -o, --chart, fleet's log): a link at the path
 * is replaced, its target untouched; the fd is close-on-exec (fleet's log
 * stays open while it runs ansible-playbook); a failed write leaves the old
 * file whole. */
static void test_out_helper(void **state)
{
	char dir[] = "/tmp/sb-test-fs-out.XXXXXX", path[256], target[256], tmp[300], buf[16] = "";
	struct sb_err err = { 0 };
	struct stat st;
	int fd;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fleet-ansible.log", dir);
	snprintf(target, sizeof(target), "%s/victim", dir);
	f = fopen(target, "w");
	assert_non_null(f);
	fputs("keep", f);
	fclose(f);
	assert_int_equal(symlink(target, path), 0);
	fd = sb_fs_out_begin(path, tmp, sizeof(tmp), "test", &err);
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_int_equal(write(fd, "new", 3), 3);
	assert_int_equal(sb_fs_out_end(tmp, path, 0, "test", &err), 0);
	close(fd);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	f = fopen(target, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "keep");
	/* a failed write: the temporary file goes, the old file stays */
	fd = sb_fs_out_begin(path, tmp, sizeof(tmp), "test", &err);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sb_fs_out_end(tmp, path, -EIO, "test", &err), -EIO);
	assert_int_equal(access(tmp, F_OK), -1);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "new");
	unlink(path);
	unlink(target);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_copy),
		cmocka_unit_test(test_out_helper),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
