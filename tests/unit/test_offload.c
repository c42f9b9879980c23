/* fio's io_submit_mode=offload and serialize_overlap (bench/offload.c):
 * the options as fio spells them and what is refused by name; iodepth
 * submitters issue ios at once (a test engine whose io takes 100 ms counts
 * how many are in flight together); serialize_overlap holds overlapping
 * ios back, across two jobs too (fio compares offsets only); and real
 * offloaded jobs (null, libaio on a temp file) do every io of the job;
 * io_size sets the bytes of I/O apart from the region (size). */
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
#include "bench/engine_int.h"
#include "bench/job.h"
#include "bench/offload.h"
#include "util/clock.h"
#include "fixture.h"

static void test_options(void **state)
{
	struct sb_job_opts o;
	struct sb_err err;

	(void)state;
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=null", "--size=1m", "--iodepth=16",
			       "--io_submit_mode=offload", NULL), 0);
	assert_true(o.sub.offload);
	assert_int_equal(o.iodepth, 16);
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=null", "--size=1m",
			       "--io_submit_mode=inline", NULL), 0);
	assert_false(o.sub.offload);
	assert_int_not_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=null", "--size=1m",
				   "--io_submit_mode=later", NULL), 0);
	/* fio: io_uring refuses offload (FIO_NO_OFFLOAD) */
	assert_int_not_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=io_uring", "--size=1m",
				   "--io_submit_mode=offload", NULL), 0);
	/* fio runs iodepth psync workers; stackbench does not: refused by name */
	assert_int_not_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=psync", "--size=1m", "--iodepth=4",
				   "--io_submit_mode=offload", NULL), 0);
	assert_non_null(strstr(err.msg, "io_submit_mode=offload"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=null", "--size=4k", "--bs=4k",
			       "--io_submit_mode=offload", "--serialize_overlap=1", NULL), 0);
	assert_true(o.sub.serialize_overlap);
	/* inline, fio holds an overlapping write back: refused by name */
	assert_int_not_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=libaio", "--size=1m", "--rw=randwrite",
				   "--iodepth=8", "--serialize_overlap=1", NULL), 0);
	assert_non_null(strstr(err.msg, "serialize_overlap"));
	/* inline reads, or iodepth 1: fio drops it (no effect) */
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=t", "--ioengine=libaio", "--size=1m", "--rw=randread",
			       "--iodepth=8", "--serialize_overlap=1", NULL), 0);
	assert_true(sb_offload_overlap(0, 4096, 4095, 1));
	assert_false(sb_offload_overlap(0, 4096, 4096, 4096));
	assert_false(sb_offload_overlap(8192, 4096, 4096, 4096));
}

/* a test engine: each io takes 100 ms; the most in flight at once */
static _Atomic int busy, most;

static long slow_queue(struct worker *w, struct iocb *cb)
{
	int now = atomic_fetch_add(&busy, 1) + 1, m = atomic_load(&most);

	(void)w;
	while (now > m && !atomic_compare_exchange_weak(&most, &m, now))
		;
	usleep(100000);
	atomic_fetch_sub(&busy, 1);
	return (long)cb->u.c.nbytes;
}

static const struct sb_ioengine_ops slow = { .name = "slow", .queue = slow_queue };

/* n ios at offset off (4 KiB) through two jobs' submitters of depth 4 */
static int run_two(bool serialize, uint64_t off2)
{
	struct sb_job_opts o;
	struct worker w[2];
	struct slot sl[8];
	struct io_event ev[8];
	uint64_t t[8];
	struct sb_offload *q[2];
	int i, got = 0;

	sb_job_opts_init(&o);
	o.iodepth = 4;
	o.sub.offload = true;
	o.sub.serialize_overlap = serialize;
	memset(w, 0, sizeof(w));
	memset(sl, 0, sizeof(sl));
	atomic_store(&busy, 0);
	atomic_store(&most, 0);
	for (i = 0; i < 2; i++) {
		w[i].o = &o;
		w[i].ioe = &slow;
		assert_int_equal(sb_offload_start(&q[i], &w[i], 4), 0);
	}
	for (i = 0; i < 8; i++) {
		sl[i].off = i < 4 ? 0 : off2;
		sl[i].len = 4096;
		io_prep_pread(&sl[i].cb, -1, NULL, 4096, (long long)sl[i].off);
		sl[i].cb.data = &sl[i];
		sb_offload_queue(q[i / 4], &sl[i]);
	}
	while (got < 8)
		for (i = 0; i < 2 && got < 8; i++) {
			int r = sb_offload_reap(q[i], ev, t, 8, false), k;

			for (k = 0; k < r; k++) {
				struct slot *s = ev[k].data;

				assert_int_equal((long)ev[k].res, 4096);
				assert_true(t[k] >= s->t_issue);
			}
			got += r;
			if (!r)
				usleep(1000);
		}
	for (i = 0; i < 2; i++)
		assert_int_equal(sb_offload_stop(q[i]), 0);
	return atomic_load(&most);
}

static void test_submitters(void **state)
{
	(void)state;
	/* iodepth submitters per job: 4 + 4 at once */
	assert_int_equal(run_two(false, 0), 8);
	/* serialize_overlap: the 8 ios at offset 0 of two jobs one at a time */
	assert_int_equal(run_two(true, 0), 1);
	/* the second job's ios at 4096 overlap only each other */
	assert_int_equal(run_two(true, 4096), 2);
}

/* real jobs: every io done, slat and clat measured per io */
static void test_jobs(void **state)
{
	char dir[] = "/tmp/sb-offload-XXXXXX", target[64];
	struct sb_job_opts o;
	struct sb_job_result res;
	struct sb_err err;

	(void)state;
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=t0010", "--ioengine=null", "--size=16m", "--bs=4k",
			       "--iodepth=16", "--io_submit_mode=offload", NULL), 0);
	memset(&res, 0, sizeof(res));
	assert_int_equal(sb_engine_run(&o, &res, &err), 0);
	assert_int_equal(res.dir[0].ios, 4096);
	assert_int_equal(res.dir[0].io_bytes, 16 << 20); /* fio counts a null engine's bytes */
	sb_job_result_release(&res);

	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/f", dir);
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=fr", "--ioengine=libaio", "--size=1m", "--bs=4k",
			       "--rw=randwrite", "--iodepth=8", "--io_submit_mode=offload",
			       "--serialize_overlap=1", "--filename", target, NULL), 0);
	memset(&res, 0, sizeof(res));
	assert_int_equal(sb_engine_run(&o, &res, &err), 0);
	assert_int_equal(res.dir[1].ios, 256);
	assert_int_equal(res.dir[1].io_bytes, 1 << 20);
	/* slat of every io; none where libaio runs as psync (no AIO: qemu-user, cross-test) */
	assert_true(res.dir[1].slat.n == 256 || res.dir[1].slat.n == 0);
	sb_job_result_release(&res);

	/* io_size: three passes over a 64 KiB region, or a quarter of one */
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=is", "--size=64k", "--io_size=192k", "--bs=4k",
			       "--rw=write", "--filename", target, NULL), 0);
	memset(&res, 0, sizeof(res));
	assert_int_equal(sb_engine_run(&o, &res, &err), 0);
	assert_int_equal(res.dir[1].ios, 48);
	assert_int_equal(res.dir[1].io_bytes, 192 << 10);
	sb_job_result_release(&res);
	assert_int_equal(sb_t_job_parse(&o, &err, "--name=is", "--size=64k", "--io_limit=16k", "--bs=4k",
			       "--rw=randread", "--filename", target, NULL), 0);
	memset(&res, 0, sizeof(res));
	assert_int_equal(sb_engine_run(&o, &res, &err), 0);
	assert_int_equal(res.dir[0].ios, 4);
	sb_job_result_release(&res);
	unlink(target);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_submitters),
		cmocka_unit_test(test_jobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
