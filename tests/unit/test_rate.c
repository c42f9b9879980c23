/* fio's pacing in stackbench job (bench/rate.c): the rate's arithmetic
 * (fio's usec_for_io), the poisson process against the exponential
 * distribution, rate_ddir's switch and quiesce, thinktime, flow weights,
 * rate_min, and the options as fio spells them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/job.h"
#include "bench/jobargs.h"
#include "bench/rate.h"
#include "util/clock.h"
#include "fixture.h"

static void test_linear(void **state)
{
	(void)state;
	/* 4 KiB at 1 MiB/s: 3906.25 us, rounded down as fio's integer maths */
	assert_int_equal(sb_rate_linear_us(4096, 1048576), 3906);
	assert_int_equal(sb_rate_linear_us(3 * 1000 + 1, 1000), 3001000);
	assert_int_equal(sb_rate_linear_us(0, 1000), 0);
	assert_int_equal(sb_rate_linear_us(4096, 0), 0);
	/* no overflow: 1 TiB at 3 B/s is 366503875925 s */
	assert_true(sb_rate_linear_us(1ULL << 40, 3) == (1ULL << 40) / 3 * 1000000ULL + (1ULL << 40) % 3 * 1000000ULL / 3);
	/* fio's integer quotient: 1000000 / 3 = 333333, times -ln u */
	assert_int_equal(sb_rate_poisson_gap_us(3, 1.0), 0);
	assert_int_equal(sb_rate_poisson_gap_us(3, 0.5), (uint64_t)(333333 * 0.6931471805599453));
}

/* 200000 gaps at 50 IOPS from a fixed seed: an exponential distribution of
 * mean 20000 us has variance mean^2 and P(gap > mean) = 1/e */
static void test_poisson(void **state)
{
	struct rng r;
	double sum = 0, sumsq = 0, mean, var;
	unsigned i, n = 200000, above = 0;

	(void)state;
	rng_seed(&r, 42);
	for (i = 0; i < n; i++) {
		double g = (double)sb_rate_poisson_gap_us(50, sb_rate_unit(&r));

		sum += g;
		sumsq += g * g;
		above += g > 20000;
	}
	mean = sum / n;
	var = sumsq / n - mean * mean;
	assert_true(mean > 19800 && mean < 20200);
	assert_true(var > 0.97 * 4e8 && var < 1.03 * 4e8);
	assert_true((double)above / n > 0.3629 && (double)above / n < 0.3729);
	for (i = 0; i < 1000; i++) {
		double u = sb_rate_unit(&r);

		assert_true(u > 0 && u <= 1);
	}
}

static void job(struct sb_job_opts *o, enum sb_rw rw)
{
	sb_job_opts_init(o);
	o->rw = rw;
	o->bs = 4096;
}

/* fio's rate_ddir: an io not due waits for those in flight, then sleeps;
 * a mixed job takes the direction that is due */
static void test_gate(void **state)
{
	struct sb_job_opts o;
	struct sb_pace p;
	uint64_t now;

	(void)state;
	job(&o, SB_RW_READ);
	o.rate[0] = 4096 * 200; /* 200 ios/s: 5 ms apart */
	sb_pace_start(&p, &o, o.rw, 1);
	now = sb_clock_ns();
	assert_true(p.on && p.rated);
	assert_int_equal(sb_pace_gate(&p, 0, &now, 0), SB_PACE_GO);
	assert_int_equal(sb_pace_dir(&p, 0, now), 0);
	assert_int_equal(p.next_us[0], 5000);
	assert_int_equal(sb_pace_gate(&p, 1, &now, 0), SB_PACE_DRAIN);
	assert_int_equal(sb_pace_gate(&p, 0, &now, 0), SB_PACE_GO);
	assert_true(now - p.epoch >= 5000000ULL);
	/* the runtime ends before the next io is due (0.5 s on): stop at the end */
	for (int i = 0; i < 100; i++)
		sb_pace_dir(&p, 0, now);
	assert_int_equal(sb_pace_gate(&p, 0, &now, now + 1000000ULL), SB_PACE_STOP);

	/* rw with only writes capped: a write not due becomes a read */
	job(&o, SB_RW_RW);
	o.rate[1] = 4096; /* one write a second */
	sb_pace_start(&p, &o, o.rw, 1);
	now = sb_clock_ns();
	assert_int_equal(sb_pace_dir(&p, 1, now), 1);
	assert_int_equal(sb_pace_dir(&p, 1, now), 0);
	assert_int_equal(sb_pace_gate(&p, 0, &now, 0), SB_PACE_GO);
	sb_pace_end(&p, 0);

	/* no rate, no thinktime, no flow: the hook is off */
	job(&o, SB_RW_READ);
	sb_pace_start(&p, &o, o.rw, 1);
	assert_false(p.on);

	/* exitall: a terminated job stops, also out of a rate's sleep */
	_Atomic int term = 0;

	o.terminate = &term;
	o.rate[0] = 4096; /* one io a second */
	sb_pace_start(&p, &o, o.rw, 1);
	assert_true(p.on);
	now = sb_clock_ns();
	assert_int_equal(sb_pace_gate(&p, 0, &now, 0), SB_PACE_GO);
	sb_pace_dir(&p, 0, now);
	atomic_store(&term, 1);
	assert_int_equal(sb_pace_gate(&p, 0, &now, 0), SB_PACE_STOP);
}

static void test_thinktime(void **state)
{
	struct sb_job_opts o;
	struct sb_pace p;
	uint64_t now, t0;

	(void)state;
	job(&o, SB_RW_READ);
	o.thinktime_us = 3000;
	o.thinktime_blocks = 2;
	sb_pace_start(&p, &o, o.rw, 1);
	now = sb_clock_ns();
	assert_int_equal(sb_pace_gate(&p, 0, &now, 0), SB_PACE_GO);
	sb_pace_dir(&p, 0, now);
	assert_int_equal(sb_pace_gate(&p, 1, &now, 0), SB_PACE_GO);   /* one issued: not yet */
	sb_pace_dir(&p, 0, now);
	assert_int_equal(sb_pace_gate(&p, 1, &now, 0), SB_PACE_GO);   /* 2 issued, 1 complete */
	assert_int_equal(sb_pace_gate(&p, 0, &now, 0), SB_PACE_GO);   /* 2 complete: pause */
	t0 = sb_clock_ns();
	assert_true(p.think_last == 2);
	o.thinktime_issue = true; /* counted at issue: the pause waits for the drain */
	sb_pace_dir(&p, 0, now);
	sb_pace_dir(&p, 0, now);
	assert_int_equal(sb_pace_gate(&p, 2, &now, 0), SB_PACE_DRAIN);
	assert_int_equal(sb_pace_gate(&p, 0, &now, 0), SB_PACE_GO);
	assert_true(sb_clock_ns() - t0 >= 3000000ULL);
}

/* two jobs in one flow_id, weights 1 and 3: their ios in that ratio */
static void test_flow(void **state)
{
	struct sb_job_opts o[2];
	struct sb_pace p[2];
	struct sb_err err = { 0 };
	uint64_t now = sb_clock_ns(), go[2] = { 0 };
	int i, k;

	(void)state;
	for (k = 0; k < 2; k++) {
		job(&o[k], SB_RW_READ);
		o[k].flow_id = 7;
		o[k].flow = k ? 3 : 1;
	}
	assert_int_equal(sb_flow_setup(o, 2, &err), 0);
	for (k = 0; k < 2; k++)
		sb_pace_start(&p[k], &o[k], o[k].rw, 1);
	for (i = 0; i < 4000; i++)
		for (k = 0; k < 2; k++)
			if (sb_pace_gate(&p[k], 0, &now, 0) == SB_PACE_GO)
				go[k]++;
	assert_true(go[1] > 2.9 * go[0] && go[1] < 3.1 * go[0]);
	/* once job 1 is done, job 0 runs alone */
	sb_pace_end(&p[1], 0);
	go[0] = 0;
	for (i = 0; i < 100; i++)
		go[0] += sb_pace_gate(&p[0], 0, &now, 0) == SB_PACE_GO;
	assert_int_equal(go[0], 100);
	sb_pace_end(&p[0], 0);
	sb_flow_teardown();
}

static void test_min(void **state)
{
	struct sb_job_opts o;
	struct sb_pace p;
	struct sb_dir_result d[2];
	struct sb_err err = { 0 };
	uint64_t t;

	(void)state;
	memset(d, 0, sizeof(d));
	job(&o, SB_RW_READ);
	o.rate_min[0] = 1000000;
	sb_pace_start(&p, &o, o.rw, 1);
	t = p.start + 2500000000ULL; /* after the 2 s settling */
	d[0].io_bytes = 4096;
	assert_int_equal(sb_pace_check_min(&p, d, p.start + 1000000000ULL, &err), 0);
	assert_int_equal(sb_pace_check_min(&p, d, t, &err), 0);   /* first check: the base */
	d[0].io_bytes += 2000000;  /* 2 MB in 1 s: met */
	assert_int_equal(sb_pace_check_min(&p, d, t + 1000000000ULL, &err), 0);
	d[0].io_bytes += 500000;   /* 0.5 MB in the next 1 s: not met */
	assert_int_equal(sb_pace_check_min(&p, d, t + 1500000000ULL, &err), 0); /* inside rate_cycle */
	assert_int_equal(sb_pace_check_min(&p, d, t + 2000000000ULL, &err), -EIO);
	assert_non_null(strstr(err.msg, "rate_min=1000000B/s not met, got 500000B/s"));
}

static void test_options(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	(void)state;
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--rate=1m,512k", "--rate_iops=300,300,300",
			       "--ratemin=1k", "--thinktime=2000", "--thinktime_spin=1ms",
			       "--rate_process=poisson", "--startdelay=2", "--flow=8", "--flow_id=1",
			       "--thinktime_blocks_type=issue", NULL), 0);
	assert_int_equal(o.rate[0], 1048576);
	assert_int_equal(o.rate[1], 524288);
	assert_int_equal(o.rate_iops[0], 300);
	assert_int_equal(o.rate_iops[1], 300);
	assert_int_equal(o.rate_min[0], 1024);
	assert_int_equal(o.rate_min[1], 1024);
	assert_int_equal(o.thinktime_us, 2000);
	assert_int_equal(o.thinktime_spin_us, 1000);
	assert_true(o.rate_poisson && o.thinktime_issue);
	assert_int_equal(o.startdelay_ns, 2000000000ULL);
	assert_int_equal(o.flow, 8);
	assert_int_equal(o.rate_cycle_ms, 1000);
	assert_int_equal(o.thinktime_blocks, 1);
	/* an empty value leaves its direction as it was */
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--rate=,1m", NULL), 0);
	assert_int_equal(o.rate[0], 0);
	assert_int_equal(o.rate[1], 1048576);
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--rate_process=bursty", NULL), -EINVAL);
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--startdelay=1-4", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--flow=1001", NULL), -EINVAL);
	/* fio's gtod_reduce callback: all four off; a later option turns one back on */
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--gtod_reduce=1", "--disable_lat=0", NULL), 0);
	assert_true(o.disable_clat && o.disable_slat && o.disable_bw && !o.disable_lat);
	assert_true(sb_measure_off(&o, SB_LOG_CLAT) && !sb_measure_off(&o, SB_LOG_LAT));
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--disable_clat", "--gtod_reduce=0", NULL), 0);
	assert_true(o.disable_clat && !o.disable_slat);
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--rate=1m,1m,1m,1m", NULL), -EINVAL);
}

static int cli(struct sb_job_cli *c, struct sb_err *err, ...)
{
	char *argv[32];
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
	return sb_job_cli_parse(argc, argv, c, err);
}

/* fio's add_job: stonewall and new_group start a reporting group, only
 * stonewall a wave; wait_for as fio's wait_for_ok; exitall given at all */
static void test_jobctl(void **state)
{
	struct sb_job_cli c;
	struct sb_err err = { 0 };

	(void)state;
	assert_int_equal(cli(&c, &err, "--target=x", "--name=a", "--name=b", "--new_group", "--wait_for=a",
			     "--name=c", "--stonewall", "--name=d", "--exitall=0", "--exit_what=all", NULL), 0);
	assert_int_equal(c.njobs, 4);
	assert_int_equal(c.jobs[0].groupid, 0);
	assert_int_equal(c.jobs[1].groupid, 1);
	assert_int_equal(c.jobs[2].groupid, 2);
	assert_int_equal(c.jobs[3].groupid, 2);
	assert_int_equal(c.jobs[1].wave, 0);
	assert_int_equal(c.jobs[2].wave, 1);
	assert_int_equal(c.jobs[3].wave, 1);
	assert_string_equal(c.jobs[1].wait_for, "a");
	assert_true(c.jobs[3].exitall && !c.jobs[2].exitall); /* fio: exitall=0 sets it too */
	assert_int_equal(c.jobs[3].exit_what, 2);
	sb_job_cli_free(&c);
	assert_int_equal(cli(&c, &err, "--target=x", "--name=a", "--wait_for=a", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "cannot wait for itself"));
	sb_job_cli_free(&c);
	assert_int_equal(cli(&c, &err, "--target=x", "--name=a", "--wait_for=zz", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "waitee job zz unknown"));
	sb_job_cli_free(&c);
	assert_int_equal(cli(&c, &err, "--target=x", "--name=a", "--name=b", "--name=b", "--name=c",
			     "--wait_for=b", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "multiple waitees"));
	sb_job_cli_free(&c);
	assert_int_equal(cli(&c, &err, "--target=x", "--name=a", "--wait_for=b", "--name=b", "--stonewall", NULL),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: wait_for=b"));
	sb_job_cli_free(&c);
	assert_int_equal(cli(&c, &err, "--target=x", "--exit_what=some", NULL), -EINVAL);
	sb_job_cli_free(&c);
}

struct prio_probe {
	struct sb_job_opts o;
	int rc, nice, ioprio;
	cpu_set_t cpus;
};

static void *prio_thread(void *arg)
{
	struct prio_probe *x = arg;
	struct sb_err err = { 0 };

	x->rc = sb_jobctl_thread(&x->o, 1, &err);
	x->nice = getpriority(PRIO_PROCESS, 0);
	x->ioprio = (int)syscall(SYS_ioprio_get, 1, 0);
	sched_getaffinity(0, sizeof(x->cpus), &x->cpus);
	return NULL;
}

static void probe(struct prio_probe *x, const char *a, const char *b)
{
	struct sb_err err = { 0 };
	pthread_t t;

	assert_int_equal(sb_t_job_parse(&x->o, &err, "--target=x", a, b, NULL), 0);
	assert_int_equal(pthread_create(&t, NULL, prio_thread, x), 0);
	pthread_join(t, NULL);
}

/* fio's thread_main: ioprio_set (no class: best effort), nice(): on the
 * job thread itself, read back from the kernel */
static void test_prio(void **state)
{
	struct prio_probe x;
	int base = getpriority(PRIO_PROCESS, 0);

	(void)state;
	probe(&x, "--prioclass=2", "--prio=6");
	assert_int_equal(x.rc, 0);
	assert_int_equal(x.ioprio, (2 << 13) | 6);
	probe(&x, "--prio=4", "--nice=5");
	assert_int_equal(x.rc, 0);
	assert_int_equal(x.ioprio, (2 << 13) | 4);
	assert_int_equal(x.nice, base + 5 > 19 ? 19 : base + 5);
	assert_int_equal(getpriority(PRIO_PROCESS, 0), base); /* the caller's own is untouched */
	probe(&x, "--prioclass=3", "--nice=0");
	assert_int_equal(x.ioprio >> 13, 3);
	assert_int_equal(x.nice, base);
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--prio=8", NULL), -EINVAL);
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--nice=-21", NULL), -EINVAL);
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--nice=-3", NULL), 0);
	assert_int_equal(o.nice, -3);
	assert_false(o.ioprio);

	/* cpus_allowed: the thread's affinity; split: thread 1 takes the
	 * second CPU of the list (fio's fio_cpus_split) */
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char big[48];

	probe(&x, "--cpus_allowed=0", "--nice=0");
	assert_int_equal(x.rc, 0);
	assert_int_equal(CPU_COUNT(&x.cpus), 1);
	assert_true(CPU_ISSET(0, &x.cpus));
	if (n >= 2) {
		probe(&x, "--cpus_allowed=0-1", "--cpus_allowed_policy=split");
		assert_int_equal(x.rc, 0);
		assert_int_equal(CPU_COUNT(&x.cpus), 1);
		assert_true(CPU_ISSET(1, &x.cpus));
	}
	snprintf(big, sizeof(big), "--cpus_allowed=0-%ld", n);
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", big, NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "too large"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--cpus_allowed=1-0", NULL), -EINVAL);
	assert_int_equal(sb_t_job_parse(&o, &err, "--target=x", "--cpus_allowed_policy=x", NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_poisson),
		cmocka_unit_test(test_gate),
		cmocka_unit_test(test_thinktime),
		cmocka_unit_test(test_flow),
		cmocka_unit_test(test_min),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_jobctl),
		cmocka_unit_test(test_prio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
