/* The cmdprio family: fio 3.33's per-io priorities of the libaio and
 * io_uring engines (engines/cmdprio.c, options.c split_parse_prio_ddir and
 * parse_cmdprio_bssplit_entry, stat.c's clat_prio stats), as described in
 * bench/cmdprio.h. Written from fio's documentation and behaviour; none of
 * its code. */
#include "bench/cmdprio.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine_int.h"
#include "bench/jobfio.h"
#include "bench/jobopt.h"

#define IOPRIO_CLASS_RT 1
#define IOPRIO_CLASS_BE 2
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1) /* linux/aio_abi.h */
#endif

static uint16_t ioprio_value(unsigned cls, unsigned level)
{
	/* fio's ioprio_value: no class is best effort */
	return (uint16_t)(((cls ? cls : IOPRIO_CLASS_BE) << SB_IOPRIO_CLASS_SHIFT) | level);
}

uint16_t sb_cprio_default(const struct sb_job_opts *o)
{
	return o->ioprio ? ioprio_value(o->prioclass, o->prio) : 0;
}

bool sb_cprio_active(const struct sb_job_opts *o)
{
	return o->cprio.bssplit || o->cprio.perc[0] || o->cprio.perc[1];
}

/* the priority of cmdprio_class/cmdprio (fio: realtime when no class) */
static int32_t implicit_prio(const struct sb_cprio_opts *c, int d)
{
	return ioprio_value(c->cls[d] ? c->cls[d] : IOPRIO_CLASS_RT, c->level[d]);
}

static int32_t ent_prio(const struct sb_cprio_opts *c, int d, const struct sb_cprio_ent *e)
{
	return e->prio < 0 ? implicit_prio(c, d) : e->prio;
}

/* fio's td_read / td_write */
static bool dir_on(const struct sb_job_opts *o, int d)
{
	if (o->rw == SB_RW_RW || o->rw == SB_RW_RANDRW)
		return true;
	return (o->rw == SB_RW_WRITE || o->rw == SB_RW_RANDWRITE) == (d == SB_DIR_WRITE);
}

/* fio's FIO_OPT_INT with off1/off2: "R", "R,W" (or R:W, R-W); one value
 * is both directions'; an empty part leaves its direction */
static int cb_dir_int(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_cprio_opts *c = &j->cprio;
	uint8_t *f = !strcmp(o->name, "cmdprio_percentage") ? c->perc : !strcmp(o->name, "cmdprio") ? c->level : c->cls;
	unsigned long got[2] = { 0, 0 };
	bool set[2] = { false, false };
	const char *p = v;
	int d;

	for (d = 0; d < 2 && *p; d++) {
		char *end;
		size_t n = strcspn(p, ",:-");

		if (n) {
			if (!isdigit((unsigned char)*p))
				goto bad;
			errno = 0;
			got[d] = strtoul(p, &end, 10);
			if (errno || end != p + n || got[d] < o->min || got[d] > o->max)
				goto bad;
			set[d] = true;
		}
		p += n;
		if (*p)
			p++;
	}
	if (!set[0] && !set[1])
		goto bad;
	if (set[0])
		f[0] = f[1] = (uint8_t)got[0];
	if (set[1])
		f[1] = (uint8_t)got[1];
	return 0;
bad:
	return sb_err_set(err, -EINVAL, "--%s: '%s' is not a whole number in %llu..%llu (or READ,WRITE)", o->name,
			  v, (unsigned long long)o->min, (unsigned long long)o->max);
}

/* one bs/perc[/class/level] entry (fio's parse_cmdprio_bssplit_entry) */
static int bss_entry(const char *s, size_t len, struct sb_cprio_ent *e, struct sb_err *err)
{
	char buf[96], *f[4];
	unsigned long v[3] = { 0, 0, 0 };
	int n = 0, i;
	uint64_t bs;

	if (len >= sizeof(buf))
		return sb_err_set(err, -EINVAL, "--cmdprio_bssplit: entry '%.*s' is too long", (int)len, s);
	memcpy(buf, s, len);
	buf[len] = '\0';
	for (char *p = buf; n < 4; n++) {
		f[n] = p;
		if (!(p = strchr(p, '/')))
			break;
		*p++ = '\0';
	}
	n = n < 4 ? n + 1 : 4;
	/* "bs/" is bs with 0%, as "bs" */
	if (n == 2 && !*f[1])
		n = 1;
	if (n == 3 || strchr(f[n - 1], '/'))
		return sb_err_set(err, -EINVAL, "--cmdprio_bssplit: '%s' is not bs/percentage or "
				  "bs/percentage/class/level", buf);
	if (sb_jobfio_size(f[0], &bs, err) < 0)
		return -EINVAL;
	for (i = 1; i < n; i++) {
		char *end;

		errno = 0;
		v[i - 1] = strtoul(f[i], &end, 10);
		if (!isdigit((unsigned char)*f[i]) || *end || errno)
			return sb_err_set(err, -EINVAL, "--cmdprio_bssplit: '%s': '%s' is not a whole number",
					  buf, f[i]);
	}
	e->bs = bs;
	e->perc = (uint8_t)(v[0] > 100 ? 100 : v[0]);
	/* fio clamps the class to 3 and the level to 7 */
	e->prio = n == 4 ? ioprio_value(v[1] > 3 ? 3 : (unsigned)v[1], v[2] > 7 ? 7 : (unsigned)v[2]) : -1;
	return 0;
}

/* one direction's ':' list: the non-zero entries, sorted by bs (stable) */
static int bss_dir(const char *s, size_t len, struct sb_cprio_opts *c, int d, struct sb_err *err)
{
	const char *end = s + len;
	unsigned n = 0, i, k;
	int rc;

	while (s < end && *s != ':') {
		size_t l = strcspn(s, ":");
		struct sb_cprio_ent e;

		l = s + l > end ? (size_t)(end - s) : l;
		if (n == SB_CPRIO_MAX)
			return sb_err_set(err, -EINVAL, "--cmdprio_bssplit: more than %d entries", SB_CPRIO_MAX);
		if ((rc = bss_entry(s, l, &e, err)) < 0)
			return rc;
		if (e.perc) {
			for (i = n; i > 0 && c->bss[d][i - 1].bs > e.bs; i--)
				c->bss[d][i] = c->bss[d][i - 1];
			c->bss[d][i] = e;
			n++;
		}
		s += l;
		if (s < end)
			s++;
	}
	for (i = 0; i < n; i = k) {
		unsigned tot = 0;

		for (k = i; k < n && c->bss[d][k].bs == c->bss[d][i].bs; k++)
			tot += c->bss[d][k].perc;
		if (tot > 100)
			return sb_err_set(err, -EINVAL, "--cmdprio_bssplit: the percentages of bs %llu add up "
					  "to %u (more than 100)", (unsigned long long)c->bss[d][i].bs, tot);
	}
	c->nbss[d] = (uint8_t)n;
	return 0;
}

/* fio's str_split_parse: "READ,WRITE[,TRIM]", or one list for all */
static int cb_bssplit(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_cprio_opts *c = &j->cprio;
	const char *comma;
	size_t rlen, wlen;
	int rc;

	(void)o;
	while (isspace((unsigned char)*v))
		v++;
	comma = strchr(v, ',');
	rlen = comma ? (size_t)(comma - v) : strlen(v);
	wlen = comma ? strcspn(comma + 1, ",") : rlen;
	if ((rc = bss_dir(v, rlen, c, SB_DIR_READ, err)) < 0 ||
	    (rc = bss_dir(comma ? comma + 1 : v, wlen, c, SB_DIR_WRITE, err)) < 0)
		return rc;
	c->bssplit = *v != '\0';
	return 0;
}

const struct jopt jopts_cmdprio[] = {
	{ "cmdprio_percentage", NULL, JT_CB, NOF, 0, 100, "0",
	  "libaio, io_uring: % of the ios (READ,WRITE) sent with cmdprio_class/cmdprio's priority", cb_dir_int },
	{ "cmdprio_class", NULL, JT_CB, NOF, 1, 3, "1",
	  "libaio, io_uring: the class of those ios: 1 realtime, 2 best effort, 3 idle (READ,WRITE)", cb_dir_int },
	{ "cmdprio", NULL, JT_CB, NOF, 0, 7, "0", "libaio, io_uring: their level in the class, 0-7 (READ,WRITE)",
	  cb_dir_int },
	{ "cmdprio_bssplit", NULL, JT_CB, NOF, 0, 0, NULL,
	  "libaio, io_uring: bs/perc[/class/level]:... per block size (READ,WRITE lists)", cb_bssplit },
	{ NULL },
};

int sb_cprio_check(const struct sb_job_opts *o, struct sb_err *err)
{
	if (!sb_cprio_active(o))
		return 0;
	if (o->ioengine != SB_IOENGINE_LIBAIO && o->ioengine != SB_IOENGINE_IO_URING)
		return sb_err_set(err, -EINVAL, "--cmdprio_percentage/--cmdprio_bssplit: options of the libaio "
				  "and io_uring engines (ioengine=%s)", sb_ioengine_name(o->ioengine));
	if (o->cprio.bssplit && (o->cprio.perc[0] || o->cprio.perc[1]))
		return sb_err_set(err, -EINVAL, "%s: cmdprio_percentage and cmdprio_bssplit options are "
				  "mutually exclusive", o->name);
	return 0;
}

static void add_val(struct sb_cprio_res *c, int d, uint16_t v)
{
	unsigned i;

	for (i = 0; i < c->n[d]; i++)
		if (c->val[d][i] == v)
			return;
	if (c->n[d] < SB_CPRIO_NVAL)
		c->val[d][c->n[d]++] = v;
}

/* fio's fio_cmdprio_gen_perc / _parse_and_gen_bssplit: per direction that
 * runs and has cmdprio ios, the job's priority first, then the others */
static struct sb_cprio_res *cprio_new(const struct sb_job_opts *o, struct rng *seed)
{
	const struct sb_cprio_opts *c = &o->cprio;
	struct sb_cprio_res *r = calloc(1, sizeof(*r));
	unsigned i;
	int d;

	if (!r)
		return NULL;
	rng_seed(&r->rng, rng_next(seed));
	for (d = 0; d < 2; d++) {
		if (!dir_on(o, d) || (c->bssplit ? !c->nbss[d] : !c->perc[d]))
			continue;
		add_val(r, d, sb_cprio_default(o));
		if (c->bssplit)
			for (i = 0; i < c->nbss[d]; i++)
				add_val(r, d, (uint16_t)ent_prio(c, d, &c->bss[d][i]));
		else
			add_val(r, d, (uint16_t)implicit_prio(c, d));
		if (!(r->h[d] = malloc(r->n[d] * sizeof(*r->h[d])))) {
			free(r->h[0]);
			free(r);
			return NULL;
		}
		for (i = 0; i < r->n[d]; i++)
			sb_hist_init(&r->h[d][i]);
	}
	return r;
}

/* fio's fio_cmdprio_set_ioprio: a number in 0..99 below the direction's
 * (or the block size's) percentage picks a cmdprio priority */
static bool pick(const struct sb_cprio_opts *c, int d, uint64_t len, struct rng *r, int32_t *prio)
{
	unsigned i, tot = 0, rnd;

	if (!c->bssplit) {
		if ((unsigned)rng_below(r, 100) >= c->perc[d])
			return false;
		*prio = implicit_prio(c, d);
		return true;
	}
	for (i = 0; i < c->nbss[d]; i++)
		if (c->bss[d][i].bs == len)
			tot += c->bss[d][i].perc;
	if (!tot || (rnd = (unsigned)rng_below(r, 100)) >= tot)
		return false;
	for (i = 0, tot = 0; i < c->nbss[d]; i++)
		if (c->bss[d][i].bs == len && rnd < (tot += c->bss[d][i].perc)) {
			*prio = ent_prio(c, d, &c->bss[d][i]);
			return true;
		}
	return false;
}

int sb_cprio_prep(struct worker *w, struct slot *sl)
{
	const struct sb_job_opts *o = w->o;
	struct sb_cprio_res *c = w->res.cprio;
	int32_t p;
	unsigned i;

	sl->ioprio = sb_cprio_default(o);
	sl->prio_idx = 0;
	if (!sb_cprio_active(o))
		return 0;
	if (!c && !(c = w->res.cprio = cprio_new(o, &w->rng)))
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	if (!c->n[sl->dir] || !pick(&o->cprio, sl->dir, sl->len, &c->rng, &p))
		return 0;
	for (i = 0; i < c->n[sl->dir] && c->val[sl->dir][i] != (uint16_t)p; i++)
		;
	sl->ioprio = (uint16_t)p;
	sl->prio_idx = (uint8_t)i;
	sl->cb.aio_reqprio = (short)p;
	sl->cb.u.c.flags |= IOCB_FLAG_IOPRIO;
	return 0;
}

void sb_cprio_account(struct worker *w, const struct slot *sl, uint64_t clat)
{
	struct sb_cprio_res *c = w->res.cprio;

	if (c && sl->prio_idx < c->n[sl->dir] && !w->o->disable_clat)
		sb_hist_add(&c->h[sl->dir][sl->prio_idx], clat);
}

void sb_cprio_reset(struct sb_job_result *r)
{
	unsigned i;
	int d;

	for (d = 0; r->cprio && d < 2; d++)
		for (i = 0; i < r->cprio->n[d]; i++)
			sb_hist_init(&r->cprio->h[d][i]);
}

void sb_cprio_log_mark(const struct sb_job_result *r, size_t mark[])
{
	int k;

	for (k = 0; k < SB_LOG_NKIND; k++)
		mark[k] = r->log[k].n;
}

void sb_cprio_log_stamp(struct sb_job_result *r, const size_t mark[], uint16_t ioprio)
{
	size_t i;
	int k;

	for (k = 0; ioprio && k < SB_LOG_NKIND; k++)
		for (i = mark[k]; i < r->log[k].n; i++)
			r->log[k].e[i].prio = ioprio;
}

int sb_cprio_merge(struct sb_job_result *res, const struct sb_job_result *r)
{
	const struct sb_cprio_res *s = r->cprio;
	struct sb_cprio_res *c = res->cprio;
	unsigned i, k;
	int d;

	if (!s)
		return 0;
	if (!c && !(c = res->cprio = calloc(1, sizeof(*c))))
		return -ENOMEM;
	for (d = 0; d < 2; d++)
		for (i = 0; i < s->n[d]; i++) {
			for (k = 0; k < c->n[d] && c->val[d][k] != s->val[d][i]; k++)
				;
			if (k == c->n[d]) {
				struct sb_hist *h = k < SB_CPRIO_NVAL ? realloc(c->h[d], (k + 1) * sizeof(*h)) : NULL;

				if (!h) {
					sb_cprio_free(res);
					return -ENOMEM;
				}
				c->h[d] = h;
				sb_hist_init(&h[k]);
				c->val[d][c->n[d]++] = s->val[d][i];
			}
			sb_hist_merge(&c->h[d][k], &s->h[d][i]);
		}
	return 0;
}

void sb_cprio_free(struct sb_job_result *r)
{
	if (!r->cprio)
		return;
	free(r->cprio->h[0]);
	free(r->cprio->h[1]);
	free(r->cprio);
	r->cprio = NULL;
}

unsigned sb_cprio_with_samples(const struct sb_cprio_res *c, int d)
{
	unsigned i, n = 0;

	for (i = 0; c && i < c->n[d]; i++)
		n += c->h[d][i].n > 0;
	return n;
}
