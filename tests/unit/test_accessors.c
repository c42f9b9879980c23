/* The one JSON accessor (util/json.c) and the one sysfs attribute reader,
 * kernel name and device size (sys/sysfs.c) the report and the layers
 * share, on what they meet: NULL, the wrong type, a missing member, a
 * file with more than one line or trailing blanks, a node that is not a
 * block device. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sys/sysfs.h"
#include "util/json.h"

static void test_json_get(void **state)
{
	struct json_object *o = json_tokener_parse("{\"s\": \"x\", \"n\": 2.5, \"i\": 3, \"z\": null, "
						   "\"a\": [1], \"o\": {\"k\": \"v\"}}");
	struct json_object *arr = json_tokener_parse("[1, 2]");
	double v = -1;

	(void)state;
	assert_non_null(o);
	assert_null(sb_json_get(NULL, "s"));
	assert_null(sb_json_get(arr, "s"));         /* not an object */
	assert_null(sb_json_get(o, "missing"));
	assert_null(sb_json_get(o, "z"));           /* a null member is no member */
	assert_string_equal(json_object_get_string(sb_json_get(sb_json_get(o, "o"), "k")), "v");
	assert_null(sb_json_get(sb_json_get(o, "nope"), "k"));

	assert_string_equal(sb_json_str(o, "s", "-"), "x");
	assert_string_equal(sb_json_str(o, "n", "-"), "-");   /* not a string */
	assert_string_equal(sb_json_str(NULL, "s", "d"), "d");
	assert_null(sb_json_str(o, "missing", NULL));

	assert_true(sb_json_num(o, "n", &v) && v == 2.5);
	assert_true(sb_json_num(o, "i", &v) && v == 3);
	v = -1;
	assert_false(sb_json_num(o, "s", &v));
	assert_false(sb_json_num(o, "z", &v));
	assert_false(sb_json_num(NULL, "n", &v));
	assert_true(v == -1);                       /* untouched when absent */
	json_object_object_add(o, "inf", json_object_new_double(INFINITY));
	assert_false(sb_json_num(o, "inf", &v));    /* not finite */
	json_object_put(arr);
	json_object_put(o);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_sysfs_read(void **state)
{
	char dir[] = "/tmp/sb-test-accessors.XXXXXX", p[256], buf[64];
	struct sb_err err = { 0 };
	uint64_t u = 7;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/attr", dir);
	/* first line only, trailing blanks off (md's sync_speed, a uevent) */
	write_file(p, "[none] mq-deadline \t\nsecond line\n");
	assert_int_equal(sb_sysfs_read_str(p, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "[none] mq-deadline");
	write_file(p, "");
	assert_int_equal(sb_sysfs_read_str(p, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "");
	/* longer than the buffer: cut, still terminated */
	write_file(p, "0123456789abcdef\n");
	assert_int_equal(sb_sysfs_read_str(p, buf, 5, &err), 0);
	assert_string_equal(buf, "0123");
	write_file(p, "8388608\n");
	assert_int_equal(sb_sysfs_read_u64(p, &u, &err), 0);
	assert_true(u == 8388608);
	assert_int_equal(unlink(p), 0);
	/* gone: -ENOENT, the message names it, and buf is "" (not what was there) */
	snprintf(buf, sizeof(buf), "stale");
	assert_int_equal(sb_sysfs_read_str(p, buf, sizeof(buf), &err), -ENOENT);
	assert_string_equal(buf, "");
	assert_non_null(strstr(err.msg, p));
	assert_int_equal(sb_sysfs_read_str(p, buf, sizeof(buf), NULL), -ENOENT);
	assert_int_equal(rmdir(dir), 0);
}

static void test_dev_kname_size(void **state)
{
	char name[32];

	(void)state;
	snprintf(name, sizeof(name), "stale");
	assert_int_equal(sb_sysfs_dev_kname("/dev/null", name, sizeof(name), NULL), -ENOTBLK);
	assert_string_equal(name, "");
	snprintf(name, sizeof(name), "stale");
	assert_int_equal(sb_sysfs_dev_kname("/nonexistent/dev", name, sizeof(name), NULL), -ENOENT);
	assert_string_equal(name, "");
	assert_true(sb_sysfs_dev_sectors("/dev/null") == 0);
	assert_true(sb_sysfs_dev_sectors("/nonexistent/dev") == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_get),
		cmocka_unit_test(test_sysfs_read),
		cmocka_unit_test(test_dev_kname_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
