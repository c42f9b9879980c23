/* fio's cpuio engine (engines/cpu.c): no file, no data; each io burns the
 * CPU for cpuchunks microseconds (cpumode=noop: a busy loop on the clock;
 * qsort: four sorts of 256 Ki pseudo-random int32, the chunk then being
 * what they took), and after it the thread sleeps so that the burn is
 * cpuload % of the time (fio's thinktime = chunk x (100 - load) / load). Ios are counted (clat, lat, total
 * ios), bytes are not: fio's FIO_NOIO. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/engine_int.h"
#include "bench/jobopt.h"
#include "util/clock.h"
#include "util/log.h"

#define QSORT_N (256u << 10)

enum { CPU_NOOP, CPU_QSORT };

struct cpuio {
	uint64_t cycle_us;      /* the burn of one io */
	uint64_t think_us;      /* the sleep after it */
	int32_t *data;          /* qsort's */
};

static int set_cpumode(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	(void)o;
	if (!strcmp(v, "noop"))
		j->eng.cpumode = CPU_NOOP;
	else if (!strcmp(v, "qsort"))
		j->eng.cpumode = CPU_QSORT;
	else
		return sb_err_set(err, -EINVAL, "--cpumode: '%s' is neither noop nor qsort", v);
	return 0;
}

const struct jopt sb_jopts_cpuio[] = {
	{ "cpuload", NULL, JT_U32, F(eng.cpuload), 0, UINT32_MAX, NULL, "cpuio: % of a CPU each thread burns", NULL },
	{ "cpuchunks", NULL, JT_U32, F(eng.cpuchunks), 1, UINT32_MAX, "50000", "cpuio: usecs of one burn", NULL },
	{ "cpumode", NULL, JT_CB, F(eng.cpumode), 0, 0, "noop", "cpuio: noop (busy loop) or qsort", set_cpumode },
	{ NULL, NULL, 0, NOF, 0, 0, NULL, NULL, NULL },
};

static int cpu_check(struct sb_job_opts *o, struct sb_err *err)
{
	if (!o->eng.cpuload)
		return sb_err_set(err, -EINVAL, "job %s: cpu thread needs rate (cpuload=)", o->name);
	if (o->eng.cpuload > 100)
		o->eng.cpuload = 100;
	return 0;
}

static int cpu_open(const struct sb_job_opts *o, struct worker *w, struct sb_err *err)
{
	(void)err;
	snprintf(w->path, sizeof(w->path), "cpuio");
	w->fd = -1;
	w->lbs = 512;
	w->start = 0;
	/* without a size, until the runtime is over */
	w->len = o->size ? o->size - o->size % o->bs : UINT64_MAX - UINT64_MAX % o->bs;
	return 0;
}

/* Marsaglia's multiply-with-carry, seeded as fio's qsort_init */
static void fill_mwc(int32_t *d, size_t n)
{
	uint32_t z = 521288629u, w = 362436069u;
	size_t i;

	for (i = 0; i < n; i++) {
		z = 36969u * (z & 65535u) + (z >> 16);
		w = 18000u * (w & 65535u) + (w >> 16);
		d[i] = (int32_t)((z << 16) + w);
	}
}

static int cpu_setup(struct worker *w, struct slot *slots, unsigned depth)
{
	const struct sb_job_opts *o = w->o;
	struct cpuio *c = calloc(1, sizeof(*c));

	(void)slots;
	(void)depth;
	if (!c)
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	c->cycle_us = o->eng.cpuchunks;
	c->think_us = c->cycle_us * (100 - o->eng.cpuload) / o->eng.cpuload;
	if (o->eng.cpumode == CPU_QSORT) {
		if (!(c->data = calloc(QSORT_N, sizeof(*c->data)))) {
			free(c);
			return sb_err_set(&w->err, -ENOMEM, "out of memory");
		}
		fill_mwc(c->data, QSORT_N);
	}
	if (w->idx == 0)
		sb_info("%s (%s): ioengine=cpuio, cpuload=%u, cpucycle=%u", o->name,
			o->eng.cpumode == CPU_QSORT ? "qsort" : "noop", o->eng.cpuload, o->eng.cpuchunks);
	w->ioe_data = c;
	return 0;
}

static void cpu_cleanup(struct worker *w)
{
	struct cpuio *c = w->ioe_data;

	if (c)
		free(c->data);
	free(c);
	w->ioe_data = NULL;
}

static int cmp_up(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x > y ? 1 : x < y ? -1 : 0;
}

static int cmp_down(const void *a, const void *b)
{
	return cmp_up(b, a);
}

static int cmp_byte(const void *a, const void *b)
{
	return *(const int8_t *)a - *(const int8_t *)b;
}

static long cpu_queue(struct worker *w, struct iocb *cb)
{
	struct cpuio *c = w->ioe_data;
	uint64_t t0 = sb_clock_ns();

	if (w->o->eng.cpumode == CPU_QSORT) {
		qsort(c->data, QSORT_N, sizeof(*c->data), cmp_up);
		qsort(c->data, QSORT_N, sizeof(*c->data), cmp_down);
		qsort(c->data, QSORT_N * 4, 1, cmp_byte);
		qsort(c->data, QSORT_N, sizeof(*c->data), cmp_down);
		/* the next sleep follows what this burn took (fio's do_qsort) */
		c->cycle_us = (sb_clock_ns() - t0) / 1000;
		c->think_us = c->cycle_us * (100 - w->o->eng.cpuload) / w->o->eng.cpuload;
	} else {
		while (sb_clock_ns() - t0 < c->cycle_us * 1000)
			;
	}
	return (long)cb->u.c.nbytes;
}

/* fio's handle_thinktime (thinktime_blocks=1, no spin): sleep */
static void cpu_reaped(struct worker *w)
{
	struct cpuio *c = w->ioe_data;

	sb_ioengine_sleep_us(c->think_us);
}

const struct sb_ioengine_ops sb_ioe_cpuio = {
	.name = "cpuio",
	.id = SB_IOENGINE_CPUIO,
	.flags = SB_IOF_SYNC | SB_IOF_NOFILE | SB_IOF_NOIO,
	.options = sb_jopts_cpuio,
	.check = cpu_check,
	.open_file = cpu_open,
	.setup = cpu_setup,
	.cleanup = cpu_cleanup,
	.queue = cpu_queue,
	.reaped = cpu_reaped,
};
