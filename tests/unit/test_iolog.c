/* fio's write_iolog (bench/iolog.c): a real job on a temp file writes
 * fio's version 3 log: the header, add and open of the job's file, one
 * line per io in issue order with its offset and length (rw=read:8k
 * skips as fio's), the close; times never go back; a second run appends;
 * with fsync (fio would log its syncs) the option is refused by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/engine.h"
#include "bench/job.h"

static int parse(struct sb_job_opts *o, struct sb_err *err, ...)
{
	char *argv[32];
	enum sb_output_format fmt;
	int argc = 0;
	const char *a;
	va_list ap;

	argv[argc++] = "job";
	va_start(ap, err);
	while ((a = va_arg(ap, const char *)) && argc < 31)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	sb_err_clear(err);
	return sb_job_parse_args(argc, argv, o, &fmt, err);
}

static void run(const char *target, const char *log)
{
	struct sb_job_opts o;
	struct sb_job_result res;
	struct sb_err err;

	assert_int_equal(parse(&o, &err, "--name=foo", "--size=64k", "--bs=4k", "--rw=read:8k",
			       "--filename", target, "--write_iolog", log, NULL), 0);
	memset(&res, 0, sizeof(res));
	assert_int_equal(sb_engine_run(&o, &res, &err), 0);
	sb_job_result_release(&res);
}

static void test_write_iolog(void **state)
{
	char dir[] = "/tmp/sb-iolog-XXXXXX", target[64], log[64], line[700], f[600], act[16];
	unsigned long long t, last = 0, off, len, want = 0;
	struct sb_job_opts o;
	struct sb_err err;
	FILE *fp;
	int n = 0, ios = 0, headers = 0, k;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/f", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	run(target, log);
	fp = fopen(log, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (!strcmp(line, "fio version 3 iolog\n")) {
			headers++;
			continue;
		}
		k = sscanf(line, "%llu %599s %15s %llu %llu", &t, f, act, &off, &len);

		assert_string_equal(f, target);
		assert_true(t >= last);
		last = t;
		if (n == 2)
			assert_true(k == 3 && !strcmp(act, "add"));
		else if (n == 3)
			assert_true(k == 3 && !strcmp(act, "open"));
		else if (k == 5) {
			/* 4 KiB reads, 8 KiB skipped after each: 0, 12k, 24k, ... */
			assert_string_equal(act, "read");
			assert_int_equal(off, want);
			assert_int_equal(len, 4096);
			want += 12288;
			ios++;
		} else
			assert_true(k == 3 && !strcmp(act, "close"));
	}
	fclose(fp);
	assert_int_equal(headers, 1);
	assert_int_equal(ios, 6); /* 64 KiB / 12 KiB strides: 0..60k */
	assert_int_equal(n, 1 + 2 + ios + 1);
	/* fio's fopen "a": a second run appends its own header */
	run(target, log);
	fp = fopen(log, "r");
	assert_non_null(fp);
	n = 0;
	while (fgets(line, sizeof(line), fp))
		n += !strcmp(line, "fio version 3 iolog\n");
	fclose(fp);
	assert_int_equal(n, 2);
	assert_int_not_equal(parse(&o, &err, "--name=foo", "--size=64k", "--rw=write", "--fsync=4",
				   "--filename", target, "--write_iolog", log, NULL), 0);
	assert_non_null(strstr(err.msg, "write_iolog"));
	unlink(log);
	unlink(target);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_iolog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
