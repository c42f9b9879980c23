/* fio's write_iolog (bench/iolog.c): a real job on a temp file writes
 * fio's version 3 log: the header, add and open of the job's file, one
 * line per io in issue order with its offset and length (rw=read:8k
 * skips as fio's), the close; times never go back; a second run appends;
 * with fsync (fio would log its syncs) the option is refused by name;
 * read_iolog replays version 3 (its times kept unless replay_no_stall)
 * and version 2 logs (waits), and refuses what it cannot replay. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/engine.h"
#include "bench/job.h"
#include "fixture.h"

static void run(const char *target, const char *log)
{
	struct sb_job_opts o;
	struct sb_job_result res;
	struct sb_err err;

	assert_int_equal(sb_t_job_parse(&o, &err, "--name=foo", "--size=64k", "--bs=4k", "--rw=read:8k",
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
	assert_int_not_equal(sb_t_job_parse(&o, &err, "--name=foo", "--size=64k", "--rw=write", "--fsync=4",
				   "--filename", target, "--write_iolog", log, NULL), 0);
	assert_non_null(strstr(err.msg, "write_iolog"));
	unlink(log);
	unlink(target);
	rmdir(dir);
}

/* replay target's log: 0 or -errno; res filled */
static int replay(const char *target, const char *log, bool no_stall, struct sb_job_result *res, struct sb_err *err)
{
	struct sb_job_opts o;

	assert_int_equal(sb_t_job_parse(&o, err, "--name=foo", "--size=64k", "--bs=8k", "--filename", target,
			       "--read_iolog", log, no_stall ? "--replay_no_stall=1" : "--replay_no_stall=0", NULL), 0);
	memset(res, 0, sizeof(*res));
	return sb_engine_run(&o, res, err);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_read_iolog(void **state)
{
	char dir[] = "/tmp/sb-iolog-XXXXXX", target[64], log[64], text[1024];
	struct sb_job_result res;
	struct sb_err err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/f", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	run(target, log); /* makes the 64 KiB file (and a log of 6 reads) */
	/* version 3: two reads, a write, 300 ms apart: kept, or not (no_stall) */
	snprintf(text, sizeof(text), "fio version 3 iolog\n0 %s add\n0 %s open\n10 %s read 8192 4096\n"
		 "300010 %s read 0 8192\n600010 %s write 4096 512\n600020 %s close\n",
		 target, target, target, target, target, target);
	put(log, text);
	assert_int_equal(replay(target, log, false, &res, &err), 0);
	assert_int_equal(res.dir[0].ios, 2);
	assert_int_equal(res.dir[0].io_bytes, 4096 + 8192);
	assert_int_equal(res.dir[1].ios, 1);
	assert_int_equal(res.dir[1].io_bytes, 512);
	assert_true(res.elapsed_ns >= 590000000ULL);
	sb_job_result_release(&res);
	assert_int_equal(replay(target, log, true, &res, &err), 0);
	assert_int_equal(res.dir[0].ios + res.dir[1].ios, 3);
	assert_true(res.elapsed_ns < 500000000ULL);
	sb_job_result_release(&res);
	/* version 2, with a wait, file named as fio names it */
	snprintf(text, sizeof(text), "fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s wait 0 0\n"
		 "%s write 8192 8192\nbad line\n%s close\n", target, target, target, target, target, target);
	put(log, text);
	assert_int_equal(replay(target, log, true, &res, &err), 0);
	assert_int_equal(res.dir[0].ios, 1);
	assert_int_equal(res.dir[1].ios, 1);
	sb_job_result_release(&res);
	/* refused: another file, syncs, a larger io than bs, version 1 */
	snprintf(text, sizeof(text), "fio version 2 iolog\n/elsewhere add\n/elsewhere read 0 4096\n");
	put(log, text);
	assert_int_not_equal(replay(target, log, true, &res, &err), 0);
	assert_non_null(strstr(err.msg, "read_iolog"));
	sb_job_result_release(&res);
	snprintf(text, sizeof(text), "fio version 2 iolog\n%s sync 0 0\n", target);
	put(log, text);
	assert_int_not_equal(replay(target, log, true, &res, &err), 0);
	assert_non_null(strstr(err.msg, "sync"));
	sb_job_result_release(&res);
	snprintf(text, sizeof(text), "fio version 2 iolog\n%s read 0 65536\n", target);
	put(log, text);
	assert_int_not_equal(replay(target, log, true, &res, &err), 0);
	sb_job_result_release(&res);
	put(log, "0 read 0 4096\n");
	assert_int_not_equal(replay(target, log, true, &res, &err), 0);
	assert_non_null(strstr(err.msg, "version"));
	sb_job_result_release(&res);
	unlink(log);
	unlink(target);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_iolog),
		cmocka_unit_test(test_read_iolog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
