/* `stackbench bonnie`'s command line read as bonnie++ 2.00a reads it
 * (cmd/bonnie_args.c), and the file tests' spread over -n ...:DIRS
 * directories (bench/suites/bonnie_files.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "bench/suites/bonnie.h"
#include "cmd/bonnie_args.h"

static int parse(const char *line, struct sb_bonnie_args *a, struct sb_err *err)
{
	static char buf[512];
	char *argv[32], *save = NULL, *t;
	int argc = 0;

	snprintf(buf, sizeof(buf), "bonnie %s", line);
	for (t = strtok_r(buf, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	memset(err, 0, sizeof(*err));
	return sb_bonnie_args_parse(argc, argv, a, err);
}

static void test_n_fields(void **state)
{
	struct sb_bonnie_args a;
	struct sb_err err;

	(void)state;
	assert_int_equal(parse("-d /x -s 0 -n 1:4096:1024:4:4k", &a, &err), 0);
	assert_true(a.no_io);
	assert_int_equal(a.files, 1);
	assert_int_equal(a.fmax, 4096);
	assert_int_equal(a.fmin, 1024);
	assert_int_equal(a.dirs, 4);
	assert_int_equal(a.fchunk, 4096);
	/* size_from_str: k, m, g are x1024^1..3 of bytes; -n's own "m" is x1024 files */
	assert_int_equal(parse("-d /x -n 2m:1m:2k", &a, &err), 0);
	assert_int_equal(a.files, 2048);
	assert_int_equal(a.fmax, 1 << 20);
	assert_int_equal(a.fmin, 2048);
	/* strtok skips the empty field: "1:4k::4" is MAX 4k and MIN 4, as in bonnie++ */
	assert_int_equal(parse("-d /x -n 1:4k::4", &a, &err), 0);
	assert_int_equal(a.fmin, 4);
	assert_int_equal(a.dirs, 0);
	assert_int_equal(parse("-d /x -n 1:-1", &a, &err), 0);
	assert_int_equal(a.fmax, -1);
	assert_int_equal(parse("-d /x -n 0 -s 48", &a, &err), 0);
	assert_int_equal(a.files, 0);
	assert_false(a.no_io);
	/* the default: 16 x 1024 empty files in one directory */
	assert_int_equal(parse("-d /x", &a, &err), 0);
	assert_int_equal(a.files, 16);
	assert_int_equal(a.fmax, 0);
}

static void test_s_fields(void **state)
{
	struct sb_bonnie_args a;
	struct sb_err err;

	(void)state;
	assert_int_equal(parse("-d /x -s 1g:16k:2k:3 -r 512", &a, &err), 0);
	assert_int_equal(a.size, 1ull << 30);
	assert_int_equal(a.chunk, 16384);
	assert_int_equal(a.seeks, 2048);
	assert_int_equal(a.procs, 3);
	assert_int_equal(a.ram, 512ull << 20);
	assert_int_equal(parse("-d /x -s 2t -f -f0 -b -q -c 1", &a, &err), 0);
	assert_int_equal(a.size, 2ull << 40);
	assert_true(a.sync && a.quiet);
}

static void refused(const char *line, const char *msg)
{
	struct sb_bonnie_args a;
	struct sb_err err;

	assert_int_equal(parse(line, &a, &err), -EINVAL);
	if (!strstr(err.msg, msg))
		fail_msg("%s: '%s' lacks '%s'", line, err.msg, msg);
}

static void test_refused(void **state)
{
	(void)state;
	refused("-d /x -x 2", "not supported by stackbench bonnie: -x");
	refused("-d /x -p 3", "not supported by stackbench bonnie: -p");
	refused("-d /x -y s", "not supported by stackbench bonnie: -y");
	refused("-d /x -z 42", "not supported by stackbench bonnie: -z");
	refused("-d /x -Z /dev/urandom", "not supported by stackbench bonnie: -Z");
	refused("-d /x -D", "not supported by stackbench bonnie: -D");
	refused("-d /x -f3", "not supported by stackbench bonnie: -f SIZE");
	refused("-d /x -c 2", "not supported by stackbench bonnie: -c above 1");
	refused("-d /x -s 0 -n 0", "no test left");
	refused("-d /x -n 1:10:20", "below MIN");
	refused("-d /x -s 16:1000", "not a power of two");
	refused("-d /x -n 1:0:0:0", "directories is out of range 1..99999");
	refused("-d /x -n 30000", "not enough RAM");
	refused("-d /x -n 1:4q", "unknown unit");
	refused("-d /x -s 16 -r 16", "double RAM");
	refused("-s 16", "-d DIR is required");
}

/* bonnie++'s make_names loop: names_in_dir++, and past n / dirs the next
 * directory - so n / dirs + 1 names to each */
static void test_dir_of(void **state)
{
	static const unsigned cases[][2] = { { 1024, 1 }, { 1024, 4 }, { 1024, 3 }, { 2048, 7 }, { 1024, 2000 } };

	(void)state;
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unsigned n = cases[c][0], dirs = cases[c][1], in_dir = 0, dir = 0;

		for (unsigned i = 0; i < n; i++) {
			assert_int_equal(sb_bonnie_dir_of(i, n, dirs), dir);
			assert_true(dir < dirs);
			if (++in_dir > n / dirs) {
				in_dir = 0;
				dir++;
			}
		}
	}
	assert_int_equal(sb_bonnie_dir_of(256, 1024, 4), 0);
	assert_int_equal(sb_bonnie_dir_of(257, 1024, 4), 1);
	assert_int_equal(sb_bonnie_dir_of(1023, 1024, 3), 2);
}

/* sizes past 2^63 bytes once scaled: refused naming the option, not
 * shifted into a small number */
static void test_overflow(void **state)
{
	struct sb_bonnie_args a;
	struct sb_err err;

	(void)state;
	assert_int_equal(parse("-d /x -s 17592186044416", &a, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "-s: "));
	assert_int_equal(parse("-d /x -s 17179869184g", &a, &err), -EINVAL);
	assert_int_equal(parse("-d /x -r 17592186044416", &a, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "-r: "));
	assert_int_equal(parse("-d /x -n 9007199254740992m", &a, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "-n: "));
	assert_int_equal(parse("-d /x -n 1:9007199254740992g", &a, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "-n: "));
	assert_int_equal(parse("-d /x -n 1:8388608g", &a, &err), 0);
	assert_int_equal(a.fmax, 8388608LL << 30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_n_fields),
		cmocka_unit_test(test_s_fields),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_dir_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
