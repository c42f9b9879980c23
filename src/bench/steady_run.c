/* fio's steadystate_check wired into a running job (see steady_run.h). */
#include "bench/steady_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SEC 1000000000ULL

int sb_ss_run_start(struct sb_ss_run *r, const struct sb_job_opts *o, struct worker *ws, unsigned n,
		    uint64_t t0, struct sb_err *err)
{
	struct sb_ss_spec sp = o->ss;
	unsigned i;
	int rc;

	memset(r, 0, sizeof(*r));
	/* fio keeps ss_dur in whole seconds: under one is none (off) */
	if (o->ss_dur_ns < SEC || !n)
		return 0;
	sp.dur_s = o->ss_dur_ns / SEC;   /* fio keeps whole seconds */
	sp.ramp_ns = o->ss_ramp_ns;
	sp.interval_ms = 1000;           /* fio 3.33: one sample a second */
	r->nss = o->group_reporting ? 1 : n;
	r->ss = calloc(r->nss, sizeof(*r->ss));
	r->prev_b = calloc(n, sizeof(uint64_t));
	r->prev_i = calloc(n, sizeof(uint64_t));
	if (!r->ss || !r->prev_b || !r->prev_i) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < r->nss; i++)
		if ((rc = sb_ss_init(&r->ss[i], &sp, err)) < 0)
			goto fail;
	r->ws = ws;
	r->n = n;
	r->t0 = r->prev_t = t0;
	return 0;
fail:
	for (i = 0; r->ss && i < r->nss; i++)
		sb_ss_free(&r->ss[i]);
	free(r->ss);
	free(r->prev_b);
	free(r->prev_i);
	memset(r, 0, sizeof(*r));
	return rc;
}

void sb_ss_run_tick(struct sb_ss_run *r, uint64_t now)
{
	uint64_t ms = (now - r->prev_t) / 1000000ULL, bw = 0, iops = 0;
	bool collect;
	unsigned i;

	if (!r->nss || now - r->prev_t < SEC || !ms)
		return;
	collect = sb_ss_collecting(&r->ss[0].spec, now - r->t0);
	r->prev_t = now;
	for (i = 0; i < r->n; i++) {
		struct worker *w = &r->ws[i];
		uint64_t b = atomic_load_explicit(&w->prog_bytes, memory_order_relaxed);
		uint64_t io = atomic_load_explicit(&w->prog_ios, memory_order_relaxed);
		struct sb_ss *ss = &r->ss[r->nss == 1 ? 0 : i];
		bool done = atomic_load(&w->done) || atomic_load(&w->ss_stop);

		/* fio: 1000 x the change since the last check / its ms, in integers */
		if (r->nss > 1)
			bw = iops = 0;
		if (!done && collect) {
			bw += 1000 * (b - r->prev_b[i]) / ms;
			iops += 1000 * (io - r->prev_i[i]) / ms;
		}
		r->prev_b[i] = b;
		r->prev_i[i] = io;
		if (r->nss > 1 && !done && collect && sb_ss_add(ss, iops, bw, 0))
			atomic_store(&w->ss_stop, 1);
	}
	if (r->nss == 1 && collect && !r->ss[0].attained && sb_ss_add(&r->ss[0], iops, bw, 0))
		for (i = 0; i < r->n; i++)
			atomic_store(&r->ws[i].ss_stop, 1);
}

void sb_ss_run_end(struct sb_ss_run *r)
{
	unsigned i;

	for (i = 0; i < r->nss; i++) {
		struct sb_ss *ss = malloc(sizeof(*ss));

		if (!ss) {   /* the block is left out, never the run */
			sb_ss_free(&r->ss[i]);
			continue;
		}
		*ss = r->ss[i];
		r->ws[i].res.ss = ss;
	}
	free(r->ss);
	free(r->prev_b);
	free(r->prev_i);
	memset(r, 0, sizeof(*r));
}

void sb_ss_run_result(struct worker *ws, unsigned n, struct sb_job_result *res)
{
	unsigned i;

	if (!res->nthread && n) {
		res->ss = ws[0].res.ss;
		ws[0].res.ss = NULL;
	}
	for (i = 0; i < n; i++) {
		if (res->nthread || !ws[i].res.ss)
			continue;
		sb_ss_free(ws[i].res.ss);
		free(ws[i].res.ss);
		ws[i].res.ss = NULL;
	}
}
