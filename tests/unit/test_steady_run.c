/* fio's steadystate_check in a running job (bench/steady_run.c), driven by
 * hand: workers' completed ios and bytes set directly, the check called at
 * chosen times. Expected values from fio's rules (steadystate.c):
 * a sample is 1000 x (change since the previous check) / its ms, summed
 * over the group with group_reporting; samples start a second after
 * ss_ramp; once the window is full and the criterion holds, the threads
 * judged are told to stop (fio_mark_td_terminate). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/steady_run.h"

#define MS 1000000ULL

static void set(struct worker *w, uint64_t ios)
{
	atomic_store(&w->prog_ios, ios);
	atomic_store(&w->prog_bytes, ios * 4096);
}

static void opts(struct sb_job_opts *o, const char *crit, uint64_t dur_s, uint64_t ramp_s, bool group)
{
	struct sb_err err = { 0 };

	sb_job_opts_init(o);
	assert_int_equal(sb_ss_parse(crit, &o->ss, &err), 0);
	o->ss_dur_ns = dur_s * 1000 * MS;
	o->ss_ramp_ns = ramp_s * 1000 * MS;
	o->group_reporting = group;
	o->numjobs = 2;
}

/* group_reporting: one window of the summed threads; both stop together */
static void test_group(void **state)
{
	struct worker ws[2];
	struct sb_job_opts o;
	struct sb_ss_run r;
	struct sb_job_result res = { 0 };
	struct sb_err err = { 0 };

	(void)state;
	memset(ws, 0, sizeof(ws));
	opts(&o, "iops:10%", 2, 0, true);
	assert_int_equal(sb_ss_run_start(&r, &o, ws, 2, 0, &err), 0);
	assert_int_equal(r.nss, 1);
	set(&ws[0], 500);
	set(&ws[1], 500);
	sb_ss_run_tick(&r, 500 * MS);            /* under a second: no sample */
	assert_int_equal(r.ss[0].filled, 0);
	set(&ws[0], 1000);
	set(&ws[1], 1100);
	sb_ss_run_tick(&r, 1000 * MS);           /* 1000 x 2100 / 1000 ms */
	assert_int_equal(r.ss[0].filled, 1);
	assert_int_equal(r.ss[0].iops[0], 2100);
	assert_int_equal(r.ss[0].bw[0], 2100 * 4096);
	assert_int_equal(atomic_load(&ws[0].ss_stop), 0);
	set(&ws[0], 2000);
	set(&ws[1], 2100);
	sb_ss_run_tick(&r, 2000 * MS);           /* 2000: mean 2050, max dev 50 = 2.4 % < 10 % */
	assert_int_equal(r.ss[0].iops[1], 2000);
	assert_true(r.ss[0].attained);
	assert_int_equal(atomic_load(&ws[0].ss_stop), 1);
	assert_int_equal(atomic_load(&ws[1].ss_stop), 1);
	sb_ss_run_end(&r);
	assert_non_null(ws[0].res.ss);
	assert_null(ws[1].res.ss);
	sb_ss_run_result(ws, 2, &res);
	assert_non_null(res.ss);
	assert_true(res.ss->attained);
	sb_job_result_release(&res);
}

/* without group_reporting each thread is judged alone and stops alone;
 * with ss_ramp the first sample is of the check a second after it */
static void test_per_thread_ramp(void **state)
{
	struct worker ws[2];
	struct sb_job_opts o;
	struct sb_ss_run r;
	struct sb_err err = { 0 };
	uint64_t t;

	(void)state;
	memset(ws, 0, sizeof(ws));
	opts(&o, "iops:5%", 2, 1, false);
	assert_int_equal(sb_ss_run_start(&r, &o, ws, 2, 0, &err), 0);
	assert_int_equal(r.nss, 2);
	for (t = 1; t <= 4; t++) {
		set(&ws[0], 1000 * t);                      /* steady: 1000 a second */
		set(&ws[1], 1000 * t * t);                  /* 1000, 3000, 5000, 7000: not steady */
		sb_ss_run_tick(&r, t * 1000 * MS);
		if (t == 1)   /* before ss_ramp + 1 s: nothing recorded */
			assert_int_equal(r.ss[0].filled + r.ss[1].filled, 0);
	}
	/* samples from t = 2 s on: thread 0 {1000, 1000, 1000} attained at 3 s */
	assert_true(r.ss[0].attained);
	assert_int_equal(r.ss[0].iops[0], 1000);
	assert_int_equal(atomic_load(&ws[0].ss_stop), 1);
	assert_false(r.ss[1].attained);
	assert_int_equal(atomic_load(&ws[1].ss_stop), 0);
	assert_int_equal(r.ss[1].iops[0], 5000);
	assert_int_equal(r.ss[1].iops[1], 7000);
	sb_ss_run_end(&r);
	for (t = 0; t < 2; t++) {
		sb_ss_free(ws[t].res.ss);
		free(ws[t].res.ss);
	}
}

/* no ss_dur: nothing is set up */
static void test_off(void **state)
{
	struct worker ws[1];
	struct sb_job_opts o;
	struct sb_ss_run r;
	struct sb_err err = { 0 };

	(void)state;
	memset(ws, 0, sizeof(ws));
	sb_job_opts_init(&o);
	assert_int_equal(sb_ss_run_start(&r, &o, ws, 1, 0, &err), 0);
	assert_int_equal(r.nss, 0);
	sb_ss_run_tick(&r, 5000 * MS);
	sb_ss_run_end(&r);
	assert_null(ws[0].res.ss);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_per_thread_ramp),
		cmocka_unit_test(test_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
