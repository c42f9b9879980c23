/* The cmdprio family (bench/cmdprio.c): fio 3.33's cmdprio_percentage,
 * cmdprio_class, cmdprio and cmdprio_bssplit as fio parses them (per
 * direction, entries sorted, zero ones dropped, limits), the combinations
 * fio refuses, and real libaio/io_uring jobs on a temp file: the share of
 * ios sent with the cmdprio priority, the per-priority completion
 * latencies (fio's clat_prio, the job's own priority first) and the logs'
 * priority column (log_prio). */
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
#include "bench/ioengine.h"
#include "bench/job.h"
#include "fixture.h"

static void test_parse(void **state)
{
	struct sb_job_opts *o = malloc(sizeof(*o));
	struct sb_err err = { 0 };

	(void)state;
	assert_non_null(o);
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=64k", "--ioengine=libaio", "--cmdprio_percentage=20", "--cmdprio_class=3",
			       "--cmdprio=5", NULL), 0);
	assert_int_equal(o->cprio.perc[0], 20);
	assert_int_equal(o->cprio.perc[1], 20);
	assert_int_equal(o->cprio.cls[0], 3);
	assert_int_equal(o->cprio.level[1], 5);
	/* fio's off1/off2: READ,WRITE */
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=64k", "--ioengine=io_uring", "--cmdprio_percentage=20,30", NULL), 0);
	assert_int_equal(o->cprio.perc[0], 20);
	assert_int_equal(o->cprio.perc[1], 30);
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=64k", "--ioengine=libaio", "--cmdprio_percentage=,30", NULL), 0);
	assert_int_equal(o->cprio.perc[0], 0);
	assert_int_equal(o->cprio.perc[1], 30);
	/* fio's cmdprio-bssplit.fio: sorted by bs, zero percentages dropped,
	 * bs/perc/class/level is that priority, bs/perc the implicit one */
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=64k", "--ioengine=libaio", "--cmdprio_bssplit=1024k/10:64k/25/1/1:64k/75/3/2:8k/0,"
			       "1024k/0", NULL), 0);
	assert_true(o->cprio.bssplit);
	assert_int_equal(o->cprio.nbss[0], 3);
	assert_int_equal(o->cprio.nbss[1], 0);
	assert_int_equal(o->cprio.bss[0][0].bs, 65536);
	assert_int_equal(o->cprio.bss[0][0].perc, 25);
	assert_int_equal(o->cprio.bss[0][0].prio, (1 << 13) | 1);
	assert_int_equal(o->cprio.bss[0][1].prio, (3 << 13) | 2);
	assert_int_equal(o->cprio.bss[0][2].bs, 1 << 20);
	assert_int_equal(o->cprio.bss[0][2].prio, -1);
	/* one list: every direction's */
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=64k", "--ioengine=libaio", "--cmdprio_bssplit=4k/50", NULL), 0);
	assert_int_equal(o->cprio.nbss[1], 1);
	assert_int_equal(o->cprio.bss[1][0].bs, 4096);
	free(o);
}

static void reject(const char *want, ...)
{
	struct sb_job_opts *o = malloc(sizeof(*o));
	struct sb_err err = { 0 };
	char *argv[16];
	enum sb_output_format fmt;
	int argc = 0;
	const char *a;
	va_list ap;

	assert_non_null(o);
	argv[argc++] = "job";
	argv[argc++] = "--target=x";
	va_start(ap, want);
	while ((a = va_arg(ap, const char *)) && argc < 15)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	assert_int_equal(sb_job_parse_args(argc, argv, o, &fmt, &err), -EINVAL);
	if (!strstr(err.msg, want))
		fail_msg("'%s' not in '%s'", want, err.msg);
	free(o);
}

static void test_reject(void **state)
{
	(void)state;
	reject("0..100", "--ioengine=libaio", "--cmdprio_percentage=101", NULL);
	reject("1..3", "--ioengine=libaio", "--cmdprio_class=0", NULL);
	reject("0..7", "--ioengine=libaio", "--cmdprio=8", NULL);
	reject("mutually exclusive", "--ioengine=libaio", "--cmdprio_percentage=10", "--cmdprio_bssplit=4k/10",
	       NULL);
	reject("libaio and io_uring", "--ioengine=psync", "--cmdprio_percentage=10", NULL);
	reject("more than 100", "--ioengine=libaio", "--cmdprio_bssplit=4k/60:4k/50", NULL);
	reject("bs/percentage", "--ioengine=libaio", "--cmdprio_bssplit=4k/60/1", NULL);
	reject("not a size", "--ioengine=libaio", "--cmdprio_bssplit=x/60", NULL);
}

static bool file_has(const char *path, const char *s)
{
	char line[256];
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, s) != NULL;
	fclose(f);
	return found;
}

/* a 1 MiB randread of 4 KiB with 25% at realtime 3, the job best effort 5 */
static void run_one(const char *dir, const char *engine)
{
	struct sb_job_opts o;
	struct sb_job_result res;
	struct sb_err err = { 0 };
	char logp[128], path[160];
	const struct sb_cprio_res *c;
	uint64_t hi;

	snprintf(logp, sizeof(logp), "%s/p", dir);
	if (sb_t_job_parse(&o, &err, "--name=t", "--directory", dir, "--size=1m", "--ioengine", engine, "--rw=randread",
		  "--iodepth=4", "--prioclass=2", "--prio=5", "--cmdprio_percentage=25", "--cmdprio_class=1",
		  "--cmdprio=3", "--write_lat_log", logp, "--log_prio=1", NULL) < 0)
		fail_msg("%s: %s", engine, err.msg);
	o.no_progress = true;
	if (sb_engine_run(&o, &res, &err) < 0)
		fail_msg("%s: %s", engine, err.msg);
	c = res.cprio;
	assert_non_null(c);
	assert_int_equal(res.dir[0].ios, 256);
	assert_int_equal(c->n[0], 2);
	assert_int_equal(c->n[1], 0); /* no writes: no per-priority figures */
	assert_int_equal(c->val[0][0], (2 << 13) | 5);
	assert_int_equal(c->val[0][1], (1 << 13) | 3);
	assert_int_equal(c->h[0][0].n + c->h[0][1].n, 256);
	/* binomial(256, 0.25): 64 +- 7; 38..90 is beyond 3.5 sigma */
	hi = c->h[0][1].n;
	if (hi < 38 || hi > 90)
		fail_msg("%s: %llu of 256 ios at the cmdprio priority", engine, (unsigned long long)hi);
	snprintf(path, sizeof(path), "%s_clat.1.log", logp);
	assert_true(file_has(path, ", 0x2003\n"));
	assert_true(file_has(path, ", 0x4005\n"));
	unlink(path);
	snprintf(path, sizeof(path), "%s_lat.1.log", logp);
	unlink(path);
	snprintf(path, sizeof(path), "%s_slat.1.log", logp);
	unlink(path);
	sb_job_result_release(&res);
	assert_null(res.cprio);
}

static void test_run(void **state)
{
	char dir[] = "/tmp/sb-test-cprio.XXXXXX", path[64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	run_one(dir, "libaio");
	if (sb_ioengine_find("io_uring"))
		run_one(dir, "io_uring");
	snprintf(path, sizeof(path), "%s/t.0.0", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_reject),
		cmocka_unit_test(test_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
