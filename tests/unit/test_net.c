/* fio's net engine (engines/net.c) on localhost: a listening reader and a
 * writer job run at once over TCP (every byte arrives, the reader ends by
 * size) and over UDP (the reader starts at fio's link-open message and is
 * done at its link-close: at most what was sent, without an error), and
 * fio's refusals (random, UDP listen, no port). */
#include <pthread.h>
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
#include "fixture.h"

struct side {
	struct sb_job_opts o;
	struct sb_job_result res;
	struct sb_err err;
	int rc;
};

static void *run_side(void *arg)
{
	struct side *s = arg;

	s->rc = sb_engine_run(&s->o, &s->res, &s->err);
	return NULL;
}

static void pair(const char *proto, uint64_t *got, uint64_t *sent)
{
	struct side rx = { 0 }, tx = { 0 };
	char port[32], pr[32];
	pthread_t t;

	snprintf(port, sizeof(port), "--port=%d", 20000 + (int)(getpid() % 20000));
	snprintf(pr, sizeof(pr), "--protocol=%s", proto);
	if (sb_t_job_parse(&rx.o, &rx.err, "--name=rx", "--ioengine=net", port, pr, "--rw=read", "--bs=4k", "--size=256k",
		  strcmp(proto, "tcp") ? "--listen=0" : "--listen", NULL) < 0)
		fail_msg("rx: %s", rx.err.msg);
	if (sb_t_job_parse(&tx.o, &tx.err, "--name=tx", "--ioengine=net", port, pr, "--rw=write", "--bs=4k", "--size=256k",
		  "--hostname=127.0.0.1", NULL) < 0)
		fail_msg("tx: %s", tx.err.msg);
	rx.o.no_progress = tx.o.no_progress = true;
	assert_int_equal(pthread_create(&t, NULL, run_side, &rx), 0);
	usleep(300000); /* the reader's socket is bound */
	run_side(&tx);
	pthread_join(t, NULL);
	if (tx.rc < 0 || rx.rc < 0)
		fail_msg("%s: writer %s, reader %s", proto, tx.err.msg, rx.err.msg);
	*got = rx.res.dir[SB_DIR_READ].io_bytes;
	*sent = tx.res.dir[SB_DIR_WRITE].io_bytes;
	sb_job_result_release(&rx.res);
	sb_job_result_release(&tx.res);
}

static void test_tcp(void **state)
{
	uint64_t got, sent;

	(void)state;
	pair("tcp", &got, &sent);
	assert_int_equal(sent, 256 << 10);
	assert_int_equal(got, 256 << 10);
}

static void test_udp(void **state)
{
	uint64_t got, sent;

	(void)state;
	pair("udp", &got, &sent);
	assert_int_equal(sent, 256 << 10);
	assert_true(got > 0 && got <= sent);
}

static void test_refused(void **state)
{
	struct sb_job_opts *o = malloc(sizeof(*o));
	struct sb_err err = { 0 };

	(void)state;
	assert_non_null(o);
	assert_int_equal(sb_t_job_parse(o, &err, "--ioengine=net", "--port=9", "--rw=randread", "--size=4k", "--listen", NULL),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "can't be random"));
	assert_int_equal(sb_t_job_parse(o, &err, "--ioengine=net", "--port=9", "--protocol=udp", "--rw=read", "--size=4k",
			       "--listen", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "listen only valid for TCP"));
	assert_int_equal(sb_t_job_parse(o, &err, "--ioengine=net", "--rw=write", "--size=4k", "--hostname=localhost", NULL),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "requires port"));
	assert_int_equal(sb_t_job_parse(o, &err, "--ioengine=net", "--protocol=unix", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: protocol=unix"));
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_tcp),
		cmocka_unit_test(test_udp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
