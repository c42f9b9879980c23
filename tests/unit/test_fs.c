/* util/fs.c: which copy of a shipped file belongs to this binary. The test
 * binary runs from the build tree, so the built copy comes first. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
