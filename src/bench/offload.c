/* fio 3.33's io_submit_mode=offload and serialize_overlap (see offload.h).
 *
 * fio (rate-submit.c io_workqueue_fn, workqueue.c) starts iodepth workers
 * per job, each a copy of the job's engine at iodepth 1: a worker takes an
 * io from the job's queue, issues it (td_io_queue) and reaps it (at
 * iodepth 1: io_u_queued_complete(1)), so up to iodepth ios are in flight
 * while the job thread keeps preparing them on time. With libaio the
 * submitters here share the job's context: each io_submit()s one io and
 * io_getevents() one, whichever completed first (every submitter reaps as
 * many as it issued). serialize_overlap: before a submitter issues, it
 * waits while an io of any offloaded, serializing job of the run is in
 * flight over one of its bytes (fio's check_overlap walks every thread's
 * in-flight ios and compares offsets only, not files). */
#include "bench/offload.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine_int.h"
#include "bench/jobopt.h"
#include "util/clock.h"

struct sb_offload {
	struct worker *w;
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct slot **todo;            /* ring of depth: prepared, not yet taken */
	struct io_event *fin;          /* ring of depth: reaped, not yet accounted */
	uint64_t *fin_t;               /* ... and when (sb_clock_ns) */
	unsigned depth, todo_head, todo_n, fin_head, fin_n, nthreads;
	bool quit, serialize;
	/* serialize_overlap: this job's ios in flight (NULL: a free entry) */
	struct slot **flight;
	struct sb_offload *next;       /* in the run's list of serializing jobs */
	pthread_t *threads;
};

static pthread_mutex_t ovl_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ovl_cv = PTHREAD_COND_INITIALIZER;
static struct sb_offload *ovl_jobs;

bool sb_offload_overlap(uint64_t off, uint64_t len, uint64_t off2, uint64_t len2)
{
	return off < off2 + len2 && off2 < off + len;
}

static bool ovl_busy(const struct slot *sl)
{
	const struct sb_offload *q;
	unsigned i;

	for (q = ovl_jobs; q; q = q->next)
		for (i = 0; i < q->depth; i++)
			if (q->flight[i] && sb_offload_overlap(sl->off, sl->len, q->flight[i]->off, q->flight[i]->len))
				return true;
	return false;
}

/* wait until no io in flight overlaps sl, then count sl as in flight */
static void ovl_enter(struct sb_offload *q, struct slot *sl)
{
	unsigned i;

	pthread_mutex_lock(&ovl_mu);
	while (ovl_busy(sl))
		pthread_cond_wait(&ovl_cv, &ovl_mu);
	for (i = 0; i < q->depth && q->flight[i]; i++)
		;
	if (i < q->depth)
		q->flight[i] = sl;
	pthread_mutex_unlock(&ovl_mu);
}

static void ovl_leave(struct sb_offload *q, const struct slot *sl)
{
	unsigned i;

	pthread_mutex_lock(&ovl_mu);
	for (i = 0; i < q->depth; i++)
		if (q->flight[i] == sl)
			q->flight[i] = NULL;
	pthread_cond_broadcast(&ovl_cv);
	pthread_mutex_unlock(&ovl_mu);
}

/* Issue sl through the engine and reap one io: its event in *ev, the
 * time it was reaped the result. sl->t_start is the job thread's (fio's
 * start_time, set in get_io_u): slat and lat count the wait in the queue,
 * which is offload's point (no coordinated omission). */
static uint64_t issue(struct sb_offload *q, struct slot *sl, struct io_event *ev)
{
	struct worker *w = q->w;
	struct iocb *cb = &sl->cb;
	int k;

	memset(ev, 0, sizeof(*ev));
	ev->data = sl;
	ev->obj = cb;
	if (w->ioe->queue) {
		/* synchronous: issued when the call starts (fio's td_io_queue) */
		sl->t_issue = sb_clock_ns();
		ev->res = (unsigned long)w->ioe->queue(w, cb);
		return sb_clock_ns();
	}
	while ((k = w->ioe->commit(w, &cb, 1)) == 0)
		sched_yield(); /* -EAGAIN: the context is full for now */
	sl->t_issue = sb_clock_ns();
	if (k < 0) {
		ev->res = (unsigned long)(long)k;
		return sl->t_issue;
	}
	while ((k = w->ioe->getevents(w, 1, 1, ev)) == 0)
		;
	if (k < 0) {
		/* the context failed: count this io as failed (the run stops) */
		memset(ev, 0, sizeof(*ev));
		ev->data = sl;
		ev->res = (unsigned long)(long)k;
	}
	return sb_clock_ns();
}

static void *submitter(void *arg)
{
	struct sb_offload *q = arg;

	for (;;) {
		struct io_event ev;
		struct slot *sl;
		uint64_t t;

		pthread_mutex_lock(&q->mu);
		while (!q->todo_n && !q->quit)
			pthread_cond_wait(&q->work, &q->mu);
		if (!q->todo_n) {
			pthread_mutex_unlock(&q->mu);
			break;
		}
		sl = q->todo[q->todo_head];
		q->todo_head = (q->todo_head + 1) % q->depth;
		q->todo_n--;
		pthread_mutex_unlock(&q->mu);
		if (q->serialize)
			ovl_enter(q, sl);
		t = issue(q, sl, &ev);
		if (q->serialize)
			ovl_leave(q, ev.data);
		pthread_mutex_lock(&q->mu);
		q->fin[(q->fin_head + q->fin_n) % q->depth] = ev;
		q->fin_t[(q->fin_head + q->fin_n) % q->depth] = t;
		q->fin_n++;
		pthread_cond_signal(&q->done);
		pthread_mutex_unlock(&q->mu);
	}
	return NULL;
}

static void offload_free(struct sb_offload *q)
{
	if (q->serialize) {
		struct sb_offload **p;

		pthread_mutex_lock(&ovl_mu);
		for (p = &ovl_jobs; *p; p = &(*p)->next)
			if (*p == q) {
				*p = q->next;
				break;
			}
		pthread_mutex_unlock(&ovl_mu);
	}
	pthread_cond_destroy(&q->work);
	pthread_cond_destroy(&q->done);
	pthread_mutex_destroy(&q->mu);
	free(q->todo);
	free(q->fin);
	free(q->fin_t);
	free(q->flight);
	free(q->threads);
	free(q);
}

int sb_offload_start(struct sb_offload **out, struct worker *w, unsigned depth)
{
	struct sb_offload *q = calloc(1, sizeof(*q));
	pthread_attr_t attr;
	int rc = 0;

	*out = NULL;
	if (!q)
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	q->w = w;
	q->depth = depth ? depth : 1;
	q->serialize = w->o->sub.serialize_overlap;
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->work, NULL);
	pthread_cond_init(&q->done, NULL);
	q->todo = calloc(q->depth, sizeof(*q->todo));
	q->fin = calloc(q->depth, sizeof(*q->fin));
	q->fin_t = calloc(q->depth, sizeof(*q->fin_t));
	q->flight = calloc(q->depth, sizeof(*q->flight));
	q->threads = calloc(q->depth, sizeof(*q->threads));
	if (!q->todo || !q->fin || !q->fin_t || !q->flight || !q->threads) {
		q->serialize = false;
		offload_free(q);
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	}
	if (q->serialize) {
		pthread_mutex_lock(&ovl_mu);
		q->next = ovl_jobs;
		ovl_jobs = q;
		pthread_mutex_unlock(&ovl_mu);
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 << 10);
	for (; q->nthreads < q->depth; q->nthreads++)
		if ((rc = pthread_create(&q->threads[q->nthreads], &attr, submitter, q)) != 0)
			break;
	pthread_attr_destroy(&attr);
	if (rc) {
		sb_offload_stop(q);
		return sb_err_set(&w->err, -rc, "io_submit_mode=offload: starting submitter %u: %s",
				  q->nthreads, strerror(rc));
	}
	*out = q;
	return 0;
}

void sb_offload_queue(struct sb_offload *q, struct slot *sl)
{
	pthread_mutex_lock(&q->mu);
	q->todo[(q->todo_head + q->todo_n) % q->depth] = sl;
	q->todo_n++;
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->mu);
}

int sb_offload_reap(struct sb_offload *q, struct io_event *ev, uint64_t *t, unsigned max, bool wait)
{
	unsigned n = 0;

	pthread_mutex_lock(&q->mu);
	while (wait && !q->fin_n)
		pthread_cond_wait(&q->done, &q->mu);
	while (q->fin_n && n < max) {
		t[n] = q->fin_t[q->fin_head];
		ev[n++] = q->fin[q->fin_head];
		q->fin_head = (q->fin_head + 1) % q->depth;
		q->fin_n--;
	}
	pthread_mutex_unlock(&q->mu);
	return (int)n;
}

unsigned sb_offload_stop(struct sb_offload *q)
{
	unsigned i, left;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->mu);
	q->quit = true;
	left = q->todo_n;    /* never issued */
	q->todo_n = 0;
	pthread_cond_broadcast(&q->work);
	pthread_mutex_unlock(&q->mu);
	for (i = 0; i < q->nthreads; i++)
		pthread_join(q->threads[i], NULL);
	left += q->fin_n;    /* reaped, not taken */
	offload_free(q);
	return left;
}

/* fio's io_submit_mode: inline (default) or offload */
static int cb_mode(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	if (strcmp(v, "inline") && strcmp(v, "offload"))
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not inline or offload", o->name, v);
	j->sub.offload = !strcmp(v, "offload");
	return 0;
}

int sb_offload_check(const struct sb_job_opts *o, struct sb_err *err)
{
	enum sb_ioengine e = o->ioengine;
	bool writes = o->rw != SB_RW_READ && o->rw != SB_RW_RANDREAD;

	/* fio's fixup_options drops serialize_overlap inline when nothing is
	 * written or iodepth is 1; inline it holds an io back (FIO_Q_BUSY) */
	if (o->sub.serialize_overlap && !o->sub.offload && writes && o->iodepth > 1 &&
	    !(sb_ioengine_job_flags(o) & SB_IOF_SYNC))
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: serialize_overlap "
				  "without io_submit_mode=offload (job %s writes at iodepth %u)",
				  o->name, o->iodepth);
	if (!o->sub.offload)
		return 0;
	if (e == SB_IOENGINE_IO_URING) /* fio's FIO_NO_OFFLOAD, its words */
		return sb_err_set(err, -EINVAL, "io_uring: can't be used with offloaded submit. Use a sync engine");
	if (e != SB_IOENGINE_LIBAIO && e != SB_IOENGINE_NULL && e != SB_IOENGINE_PSYNC &&
	    e != SB_IOENGINE_PVSYNC && e != SB_IOENGINE_PVSYNC2)
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: io_submit_mode=offload "
				  "with ioengine=%s (offload runs libaio, null, psync, pvsync, pvsync2)",
				  sb_ioengine_name(e));
	if (e != SB_IOENGINE_LIBAIO && e != SB_IOENGINE_NULL && o->iodepth > 1)
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: io_submit_mode=offload "
				  "with the synchronous ioengine=%s at iodepth %u (fio runs iodepth workers)",
				  sb_ioengine_name(e), o->iodepth);
	return 0;
}

const struct jopt jopts_submit[] = {
	{ "io_submit_mode", NULL, JT_CB, NOF, 0, 0, "inline",
	  "inline, or offload (iodepth submitter threads issue the ios prepared on time)", cb_mode },
	{ "serialize_overlap", NULL, JT_BOOL, F(sub.serialize_overlap), 0, 0, "0",
	  "offload: hold an io back while one in flight overlaps it", NULL },
	{ "io_size", "io_limit", JT_SIZE, F(sub.io_size), 1, 0, NULL,
	  "bytes of I/O (times loops) within the region of size (default: size)", NULL },
	{ NULL },
};
