/* fio job files and spellings as fio 3.33 reads them (bench/jobfile.c,
 * jobfio.c): lines of any length, ';'/'#' comments also after a value,
 * ${VAR}, name=/description= in a section, fio's units and aliases,
 * filename a:b, fio's cap on jobs, runtimes that do not fit, and job
 * options of any length recorded without overflow; bare write_*_log,
 * $pagesize/$mb_memory/$ncpus sums, include. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/job.h"
#include "bench/jobargs.h"

static char path[] = "/tmp/sb-test-jobfile.XXXXXX";

/* Parse `job [ARGS...] FILE` where FILE holds text. */
static int parse_file(struct sb_job_cli *c, struct sb_err *err, const char *text, const char *arg)
{
	char *argv[4] = { "job", NULL, NULL, NULL };
	int argc = 1, fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	if (arg)
		argv[argc++] = (char *)arg;
	argv[argc++] = path;
	memset(err, 0, sizeof(*err));
	fd = sb_job_cli_parse(argc, argv, c, err);
	unlink(path);
	strcpy(path + strlen(path) - 6, "XXXXXX");
	return fd;
}

static int parse_args(struct sb_job_cli *c, struct sb_err *err, const char *a1, const char *a2)
{
	char *argv[] = { "job", "--target=/dev/null", (char *)a1, (char *)a2, NULL };

	memset(err, 0, sizeof(*err));
	return sb_job_cli_parse(a2 ? 4 : 3, argv, c, err);
}

/* A comment longer than any buffer: its tail is not an option. */
static void test_long_lines(void **state)
{
	struct sb_job_cli c;
	struct sb_err err;
	size_t n = 5000;
	char *text = malloc(n + 200);

	(void)state;
	strcpy(text, "[j]\nfilename=/dev/null\n#");
	memset(text + strlen(text), 'x', n);
	strcpy(text + 24 + n, "rw=write\nsize=1m\n");
	if (parse_file(&c, &err, text, NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.jobs[0].rw, SB_RW_READ);
	sb_job_cli_free(&c);
	free(text);
}

/* options as long as they may be, one set twice: each is recorded once,
 * the record never overrun (d0beed9 cut the last one short of its newline
 * in a 1536-byte record and crashed on setting it again); past the record,
 * refused by name */
static void test_long_values(void **state)
{
	static const char *const keys[] = { "filename", "directory", "write_bw_log", "write_iops_log",
					    "write_lat_log" };
	char text[16384] = "[j]\nioengine=libaio\nsize=1m\n", v[256], zeros[256];
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	memset(v, 'a', 250);
	v[250] = '\0';
	memset(zeros, '0', 250);
	zeros[250] = '\0';
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s=/%s%u\n", keys[i], v, i);
	for (unsigned i = 0; i < 2; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "iodepth=%s16\n", zeros);
	if (parse_file(&c, &err, text, NULL) < 0)
		fail_msg("%s", err.msg);
	assert_non_null(strstr(c.jobs[0].given, "write_lat_log=/aaa"));
	assert_non_null(strstr(c.jobs[0].given, "016\n"));
	assert_int_equal(c.jobs[0].iodepth, 16);
	sb_job_cli_free(&c);
	{
		static const char *const nums[] = { "fsync", "log_avg_msec", "rwmixread", "iodepth_batch" };

		for (unsigned i = 0; i < 4; i++)   /* 1000-digit numbers */
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s=%s%s%s%s1\n",
				 nums[i], zeros, zeros, zeros, zeros);
	}
	assert_int_equal(parse_file(&c, &err, text, NULL), -EINVAL);
	if (!strstr(err.msg, "longer than"))
		fail_msg("'%s'", err.msg);
	sb_job_cli_free(&c);
}

/* fio's inline comments, name= and description= in a section */
static void test_comments_names(void **state)
{
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	if (parse_file(&c, &err, "[global]\nbs=8k ; the block\nfilename=/dev/null\n[j1]\n"
		       "name=first\ndescription=sequential reads # as the doc says\n"
		       "rw=randwrite # was read\n  ; rw=read\n", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.njobs, 1);
	assert_string_equal(c.jobs[0].name, "first");
	assert_string_equal(c.jobs[0].section, "j1"); /* fio's files: j1.N.0 */
	assert_int_equal(c.jobs[0].bs, 8192);
	assert_int_equal(c.jobs[0].rw, SB_RW_RANDWRITE);
	assert_non_null(strstr(c.jobs[0].given, "description=sequential reads\n"));
	sb_job_cli_free(&c);
}

static void test_env(void **state)
{
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	setenv("SB_TEST_JOBDIR", "/tmp/sbdir", 1);
	unsetenv("SB_TEST_UNSET");
	if (parse_file(&c, &err, "[j]\nfilename=${SB_TEST_JOBDIR}/f${SB_TEST_UNSET}\nsize=${SB_TEST_NO}1m\n",
		       NULL) < 0)
		fail_msg("%s", err.msg);
	assert_string_equal(c.jobs[0].target, "/tmp/sbdir/f");
	assert_int_equal(c.jobs[0].size, 1 << 20);
	sb_job_cli_free(&c);
}

static void test_filename_list(void **state)
{
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	assert_int_equal(parse_file(&c, &err, "[j]\nfilename=/tmp/a:/tmp/b\n", NULL), -EINVAL);
	if (!strstr(err.msg, "several files"))
		fail_msg("'%s'", err.msg);
	sb_job_cli_free(&c);
	if (parse_file(&c, &err, "[j]\nfilename=/tmp/a\\:b\n", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_string_equal(c.jobs[0].target, "/tmp/a:b");
	sb_job_cli_free(&c);
}

static void test_units_aliases(void **state)
{
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	if (parse_file(&c, &err, "[j]\nfilename=/dev/null\nsize=1mb\nbs=4KB\nruntime=1d\nramp_time=2M\n", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.jobs[0].size, 1 << 20);
	assert_int_equal(c.jobs[0].bs, 4096);
	assert_int_equal(c.jobs[0].runtime_ns, 86400ULL * 1000000000ULL);
	assert_int_equal(c.jobs[0].ramp_ns, 120ULL * 1000000000ULL);
	sb_job_cli_free(&c);
	if (parse_args(&c, &err, "--timeout=5", "--iodepth_batch_submit=4") < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.jobs[0].runtime_ns, 5000000000ULL);
	assert_int_equal(c.jobs[0].iodepth_batch, 4);
	sb_job_cli_free(&c);
	/* near 2^64 ns: refused, not wrapped */
	assert_int_equal(parse_args(&c, &err, "--runtime=18446744073", NULL), -EINVAL);
	if (!strstr(err.msg, "too long"))
		fail_msg("'%s'", err.msg);
	sb_job_cli_free(&c);
	assert_int_equal(parse_args(&c, &err, "--ramp_time=20000d", "--runtime=1"), -EINVAL);
	sb_job_cli_free(&c);
}

/* fio caps the jobs (REAL_MAX_JOBS 4096): sections, and their threads */
static void test_job_cap(void **state)
{
	size_t n = 4097 * 16 + 64, len = 0;
	char *text = malloc(n);
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	len += (size_t)snprintf(text, n, "[global]\nfilename=/dev/null\n");
	for (unsigned i = 0; i < 4097; i++)
		len += (size_t)snprintf(text + len, n - len, "[j%u]\n", i);
	assert_int_equal(parse_file(&c, &err, text, NULL), -EINVAL);
	if (!strstr(err.msg, "4096"))
		fail_msg("'%s'", err.msg);
	sb_job_cli_free(&c);
	len = (size_t)snprintf(text, n, "[global]\nfilename=/dev/null\nnumjobs=64\n");
	for (unsigned i = 0; i < 65; i++)
		len += (size_t)snprintf(text + len, n - len, "[j%u]\n", i);
	assert_int_equal(parse_file(&c, &err, text, NULL), -EINVAL);
	if (!strstr(err.msg, "4096"))
		fail_msg("'%s'", err.msg);
	sb_job_cli_free(&c);
	free(text);
}

/* Every option of the installed fio (`fio --cmdhelp=all`, read now) is
 * taken or refused by name, never "unknown": the list in jobfio.c is
 * checked against fio itself. */
static void test_fio_names(void **state)
{
	FILE *p = popen("fio --cmdhelp=all 2>/dev/null", "r");
	char line[512], opt[300];
	struct sb_job_cli c;
	struct sb_err err;
	unsigned n = 0;

	(void)state;
	if (!p)
		skip();
	while (fgets(line, sizeof(line), p)) {
		char *s = line + strspn(line, " ");

		s[strcspn(s, " :")] = '\0';
		if (!*s)
			continue;
		snprintf(opt, sizeof(opt), "--%s=1", s);
		parse_args(&c, &err, opt, "--size=1m");
		if (strstr(err.msg, "unknown option"))
			fail_msg("fio's %s: %s", opt, err.msg);
		sb_job_cli_free(&c);
		n++;
	}
	if (pclose(p) != 0 || n == 0)
		skip();   /* no fio here */
	assert_true(n > 150);
}

/* fio's bare write_*_log: the log is named after the job (make_log_name);
 * the flag leaves the dict present but empty, as fio's */
static void test_bare_logs(void **state)
{
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	if (parse_file(&c, &err, "[global]\nwrite_bw_log\nfilename=/dev/null\n[j1]\nwrite_iops_log=\n"
		       "[j2]\nname=other\nwrite_lat_log\nwrite_bw_log=mine\n[j3]\nwrite_iops_log=x\n"
		       "write_iops_log\n", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.njobs, 3);
	assert_string_equal(c.jobs[0].log_bw, "j1");
	assert_string_equal(c.jobs[0].log_iops, "j1");
	assert_string_equal(c.jobs[0].log_lat, "");
	assert_string_equal(c.jobs[1].log_bw, "mine");
	assert_string_equal(c.jobs[1].log_lat, "other");
	assert_string_equal(c.jobs[2].log_iops, "j3"); /* the last one wins */
	assert_string_equal(c.global.given, "write_bw_log\nfilename=/dev/null\n");
	assert_null(strstr(c.jobs[2].given, "write_iops_log="));
	sb_job_cli_free(&c);
}

/* fio's keywords and bc sums ($pagesize * 4 is fio's 16384 on 4 KiB pages) */
static void test_keywords(void **state)
{
	struct sb_job_cli c;
	struct sb_err err;
	long page = sysconf(_SC_PAGESIZE);
	char want[64];

	(void)state;
	if (parse_file(&c, &err, "[j]\nfilename=/dev/null\nsize=$pagesize*4\nbs=$pagesize\n"
		       "iodepth=($ncpus-$ncpus+3)*2/4\n", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.jobs[0].size, 4 * page);
	assert_int_equal(c.jobs[0].bs, page);
	assert_int_equal(c.jobs[0].iodepth, 1); /* libaio-less psync: 1; the sum was 6/4 = 1 */
	snprintf(want, sizeof(want), "size=%ld\n", 4 * page);
	assert_non_null(strstr(c.jobs[0].given, want));
	assert_non_null(strstr(c.jobs[0].given, "iodepth=1\n"));
	sb_job_cli_free(&c);
	/* not a sum bc would take whole, division by zero, overflow: refused */
	assert_int_equal(parse_file(&c, &err, "[j]\nfilename=/dev/null\nsize=$pagesize*k\n", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "bc"));
	sb_job_cli_free(&c);
	assert_int_equal(parse_file(&c, &err, "[j]\nfilename=/dev/null\nsize=$ncpus/0\n", NULL), -EINVAL);
	sb_job_cli_free(&c);
	assert_int_equal(parse_file(&c, &err, "[j]\nfilename=/dev/null\n"
				    "size=$ncpus*9999999999*9999999999\n", NULL), -EINVAL);
	sb_job_cli_free(&c);
	/* deep nesting is refused, not a stack overflow; a long flat sum is fine */
	{
		char *t = malloc(300000), *q = t;

		assert_non_null(t);
		q += sprintf(q, "[j]\nfilename=/dev/null\nsize=$pagesize");
		for (int i = 0; i < 100000; i++)
			*q++ = '*', *q++ = '(';
		strcpy(q, "1\n");
		assert_int_equal(parse_file(&c, &err, t, NULL), -EINVAL);
		sb_job_cli_free(&c);
		q = t + sprintf(t, "[j]\nfilename=/dev/null\nsize=$pagesize");
		for (int i = 0; i < 1000; i++)
			q += sprintf(q, "+1");
		strcpy(q, "\n");
		if (parse_file(&c, &err, t, NULL) < 0)
			fail_msg("%s", err.msg);
		assert_int_equal(c.jobs[0].size, sysconf(_SC_PAGESIZE) + 1000);
		sb_job_cli_free(&c);
		free(t);
	}
	/* no keyword: no sum (fio leaves "1-2" alone; here bsrange-like text stays) */
	assert_int_equal(parse_file(&c, &err, "[j]\nfilename=/dev/null\nsize=1-2\n", NULL), -EINVAL);
	assert_null(strstr(err.msg, "bc"));
	sb_job_cli_free(&c);
}

/* sizes fio 3.33 reads otherwise (4KiB = 4000 bytes, 1.5m = 1 byte):
 * refused in a job file; fio's own spellings as before */
static void test_fio_size_forms(void **state)
{
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	assert_int_equal(parse_file(&c, &err, "[j]\nfilename=/dev/null\nbs=4KiB\n", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "bs=4KiB: fio 3.33 reads KiB as powers of 1000"));
	sb_job_cli_free(&c);
	assert_int_equal(parse_file(&c, &err, "[j]\nfilename=/dev/null\nsize=1.5m\n", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "(1 bytes)"));
	sb_job_cli_free(&c);
	if (parse_file(&c, &err, "[j]\nfilename=/dev/null\nsize=2MB\nbs=4K\ndescription=4KiB\n", NULL) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.jobs[0].size, 2 << 20);
	assert_int_equal(c.jobs[0].bs, 4096);
	sb_job_cli_free(&c);
}

/* fio's trims are fio's rw values: refused by name, not "not one of" */
static void test_trim_refused(void **state)
{
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	assert_int_equal(parse_file(&c, &err, "[j]\nfilename=/dev/null\nrw=randtrimwrite\n", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: --rw=randtrimwrite"));
	sb_job_cli_free(&c);
}

static void put(const char *dir, const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	assert_non_null(f = fopen(p, "w"));
	fputs(text, f);
	fclose(f);
}

static int parse_at(struct sb_job_cli *c, struct sb_err *err, const char *dir, const char *name)
{
	char p[256], *argv[] = { "job", p, NULL };

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	memset(err, 0, sizeof(*err));
	return sb_job_cli_parse(2, argv, c, err);
}

/* fio's include: the file's options join the section, found beside the
 * including file when not in the current directory, nested; sections in
 * it refused (fio says so, then runs the job without the file's options
 * and exits 0: refused here), a file including itself stops */
static void test_include(void **state)
{
	char dir[] = "/tmp/sb-test-include.XXXXXX", cmd[64];
	struct sb_job_cli c;
	struct sb_err err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "a.fio", "[j]\nfilename=/dev/null\ninclude inc.fio\nbs=16k\n");
	put(dir, "inc.fio", "; options only\nrw=randread\nbs=8k # the included one\ninclude inc2.fio\n");
	put(dir, "inc2.fio", "iodepth=4\nioengine=libaio\n");
	if (parse_at(&c, &err, dir, "a.fio") < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(c.jobs[0].rw, SB_RW_RANDREAD);
	assert_int_equal(c.jobs[0].bs, 16384); /* written after the include: wins */
	assert_int_equal(c.jobs[0].iodepth, 4);
	assert_string_equal(c.jobs[0].given, "filename=/dev/null\nrw=randread\niodepth=4\nioengine=libaio\nbs=16k\n");
	sb_job_cli_free(&c);
	put(dir, "inc2.fio", "iodepth=4\n[k]\n");
	assert_int_equal(parse_at(&c, &err, dir, "a.fio"), -EINVAL);
	assert_non_null(strstr(err.msg, "inc2.fio:2: no new sections"));
	sb_job_cli_free(&c);
	put(dir, "inc2.fio", "include inc2.fio\n");
	assert_int_equal(parse_at(&c, &err, dir, "a.fio"), -ELOOP);
	sb_job_cli_free(&c);
	put(dir, "a.fio", "[j]\nfilename=/dev/null\ninclude missing.fio\n");
	assert_int_equal(parse_at(&c, &err, dir, "a.fio"), -EINVAL);
	assert_non_null(strstr(err.msg, "missing.fio"));
	sb_job_cli_free(&c);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_long_values),
		cmocka_unit_test(test_comments_names),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_filename_list),
		cmocka_unit_test(test_units_aliases),
		cmocka_unit_test(test_job_cap),
		cmocka_unit_test(test_fio_names),
		cmocka_unit_test(test_bare_logs),
		cmocka_unit_test(test_keywords),
		cmocka_unit_test(test_trim_refused),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_fio_size_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
