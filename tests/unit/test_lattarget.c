/* fio's latency target (bench/lattarget.c): the depth doubles while the
 * windows succeed, bisects down on a failed one, settles, runs a final
 * window and ends, as fio's io_u.c lat_target_*; percentile 100 ramps down
 * on one slow io and fails at depth 1; the options as fio spells them
 * (bare numbers microseconds, kept in ns); and a real job against a
 * target no io can miss reports the depth it settled on. */
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
#include "bench/lattarget.h"
#include "fixture.h"

#define W 1000000ULL /* a 1 ms window, in ns */

static void test_options(void **state)
{
	struct sb_job_opts o;
	struct sb_err err;

	(void)state;
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=null", "--size=1m", NULL), 0);
	assert_true(o.lat.percentile == 100.0);
	assert_int_equal(o.lat.target_ns, 0);
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=null", "--size=1m", "--latency_target=500000",
			       "--latency_window=5s", "--latency_percentile=99.9", NULL), 0);
	assert_int_equal(o.lat.target_ns, 500000000ULL);
	assert_int_equal(o.lat.window_us, 5000000ULL);
	assert_true(o.lat.percentile == 99.9);
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=null", "--size=1m", "--latency_target=2ms", NULL), 0);
	assert_int_equal(o.lat.target_ns, 2000000ULL);
	assert_int_not_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=null", "--size=1m",
				   "--latency_percentile=101", NULL), 0);
}

static void test_search(void **state)
{
	struct sb_job_opts o;
	struct sb_lat l;
	uint64_t now = 0, ios = 0;
	unsigned seen[16], n = 0, i;

	(void)state;
	sb_job_opts_init(&o);
	o.iodepth = 32;
	o.lat.target_ns = 1000;
	o.lat.window_us = 1000;
	o.lat.percentile = 90.0;
	sb_lat_init(&l, &o, now, ios);
	assert_int_equal(sb_lat_depth(&l, 32), 1);
	/* a window not over yet: nothing */
	assert_int_equal(sb_lat_check(&l, now + W - 1, 10), SB_LAT_GO);
	/* good windows: 1, 2, 4, 8, 16 (doubling) */
	for (i = 0; i < 4; i++) {
		now += W;
		ios += 100;
		assert_int_equal(sb_lat_check(&l, now, ios), SB_LAT_GO);
		seen[n++] = l.qd;
	}
	assert_int_equal(seen[0], 2);
	assert_int_equal(seen[3], 16);
	/* at 16, 20 of 100 over the target: 80% < 90%: bisect down to (16 + 8) / 2 */
	for (i = 0; i < 20; i++)
		assert_int_equal(sb_lat_io(&l, 5000, now, ios), SB_LAT_GO);
	now += W;
	ios += 100;
	assert_int_equal(sb_lat_check(&l, now, ios), SB_LAT_DRAIN);
	assert_int_equal(l.qd, 12);
	assert_int_equal(l.qd_high, 16);
	/* good again: up between 12 and 16: 14, 15, then 15 stays: the final window */
	now += W; ios += 100;
	assert_int_equal(sb_lat_check(&l, now, ios), SB_LAT_GO);
	assert_int_equal(l.qd, 14);
	now += W; ios += 100;
	assert_int_equal(sb_lat_check(&l, now, ios), SB_LAT_GO);
	assert_int_equal(l.qd, 15);
	now += W; ios += 100;
	assert_int_equal(sb_lat_check(&l, now, ios), SB_LAT_RESET);
	assert_int_equal(l.qd, 15);
	sb_lat_cycle(&l, now, 0);
	now += W;
	assert_int_equal(sb_lat_check(&l, now, 100), SB_LAT_DONE);
	/* latency_run: never settles */
	o.lat.run = true;
	sb_lat_init(&l, &o, 0, 0);
	for (i = 1; i < 20; i++)
		assert_int_equal(sb_lat_check(&l, i * W, i * 100), SB_LAT_GO);
	assert_int_equal(l.qd, 32);
}

static void test_percentile_100(void **state)
{
	struct sb_job_opts o;
	struct sb_lat l;

	(void)state;
	sb_job_opts_init(&o);
	o.iodepth = 8;
	o.lat.target_ns = 1000;
	o.lat.window_us = 1000;
	sb_lat_init(&l, &o, 0, 0);
	assert_int_equal(sb_lat_check(&l, W, 10), SB_LAT_GO); /* 2 */
	assert_int_equal(sb_lat_check(&l, 2 * W, 20), SB_LAT_GO); /* 4 */
	assert_int_equal(l.qd, 4);
	/* one io over: down at once, to (4 + 2) / 2 */
	assert_int_equal(sb_lat_io(&l, 1000, 2 * W, 20), SB_LAT_GO); /* at the target: fine */
	assert_int_equal(sb_lat_io(&l, 1001, 2 * W, 21), SB_LAT_DRAIN);
	assert_int_equal(l.qd, 3);
	assert_int_equal(sb_lat_io(&l, 1001, 2 * W, 22), SB_LAT_DRAIN);
	assert_int_equal(l.qd, 2);
	assert_int_equal(sb_lat_io(&l, 1001, 2 * W, 23), SB_LAT_DRAIN);
	assert_int_equal(l.qd, 1);
	assert_int_equal(sb_lat_io(&l, 1001, 2 * W, 24), SB_LAT_FATAL);
}

/* a real job: a target of 10 s no io misses, 1 ms windows: the depth
 * climbs to iodepth, settles there, runs its final window and
 * ends the job long before its runtime; the JSON's latency_depth */
static void test_job(void **state)
{
	char dir[] = "/tmp/sb-lat-XXXXXX", target[64];
	struct sb_job_opts o;
	struct sb_job_result res;
	struct sb_err err;

	(void)state;
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=lt", "--ioengine=null",
			       "--size=64m", "--iodepth=8", "--latency_target=10s", "--latency_window=1ms",
			       "--runtime=2", "--time_based", NULL), 0);
	memset(&res, 0, sizeof(res));
	assert_int_equal(sb_engine_run(&o, &res, &err), 0);
	assert_int_equal(res.lat_depth, 8);
	assert_true(res.dir[0].ios > 0);
	sb_job_result_release(&res);
	/* ...and an impossible one (1 us for a direct read from disk,
	 * percentile 100) fails at depth 1 */
	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/f", dir);
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=lt", "--filename", target, "--direct=1",
			       "--size=1m", "--latency_target=1", NULL), 0);
	memset(&res, 0, sizeof(res));
	assert_int_not_equal(sb_engine_run(&o, &res, &err), 0);
	assert_non_null(strstr(err.msg, "max latency exceeded"));
	sb_job_result_release(&res);
	unlink(target);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_percentile_100),
		cmocka_unit_test(test_job),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
