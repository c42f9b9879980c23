/* fio 3.33's block size, offset and distribution options for `stackbench
 * job` (options.c str_bssplit_cb / bssplit_ddir / str_split_parse,
 * str_rw_cb, str_random_distribution_cb / zone_split_ddir; init.c
 * fixup_options for min_bs, max_bs and blockalign), parsed into struct
 * sb_job_bs. The per-io generator is bench/dist.c.
 *
 * What fio's random generators mean here: stackbench's offsets come from
 * its own 64-bit generator (xoshiro), so tausworthe and tausworthe64 are
 * accepted and both mean "uniform picks" (fio's random map, when on, keeps
 * every block once per pass). lfsr means what fio's LFSR guarantees: every
 * block once per pass without a map, in a scrambled order; stackbench
 * gets that from a keyed bijection of the block numbers, not a shift
 * register, so the order differs from fio's. */
#include "bench/jobbs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/jobfio.h"
#include "bench/jobopt.h"

#define SB_BS_MAX (64ULL << 20)

void sb_jobbs_init(struct sb_job_bs *b)
{
	memset(b, 0, sizeof(*b));
	b->seq_nr = 1;
	b->center = -1;
	b->perc_rand[0] = b->perc_rand[1] = 100;
}

/* one size of a list, into *out (1 .. 64 MiB) */
static int one_size(const char *opt, const char *s, uint64_t *out, struct sb_err *err)
{
	struct sb_err e = { 0 };

	if (sb_jobfio_size(s, out, &e) < 0)
		return sb_err_set(err, -EINVAL, "--%s: %s", opt, e.msg);
	if (!*out || *out > SB_BS_MAX)
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not a block size of 1 byte to 64 MiB", opt, s);
	return 0;
}

/* fio's R,W[,T]: fields[d] for reads and writes. A last field not ended by
 * a comma applies to the directions after it; an empty one keeps the
 * default (NULL). Trims (the third) are checked, not kept. */
static int per_dir(const char *opt, const char *v, char *buf, size_t len, const char *f[2],
		   const char **trim, struct sb_err *err)
{
	char *p, *fields[3];
	int n = 0, d;

	if (strlen(v) >= len)
		return sb_err_set(err, -EINVAL, "--%s: '%s' is too long", opt, v);
	snprintf(buf, len, "%s", v);
	for (p = buf; n < 3; n++) {
		fields[n] = p;
		if (!(p = strchr(p, ',')))
			break;
		*p++ = '\0';
	}
	if (n == 3)
		return sb_err_set(err, -EINVAL, "--%s: '%s' has more than 3 comma-separated values "
				  "(reads, writes, trims)", opt, v);
	n++;
	for (d = 0; d < 2; d++)
		f[d] = d < n ? fields[d] : fields[n - 1];
	*trim = n == 3 ? fields[2] : fields[n - 1];
	for (d = 0; d < 2; d++)
		if (!*f[d])
			f[d] = NULL;
	if (!**trim)
		*trim = NULL;
	return 0;
}

int sb_jobbs_parse_bs(const char *v, struct sb_job_bs *b, struct sb_err *err)
{
	char buf[256];
	const char *f[2], *t;
	uint64_t u;
	int d, rc;

	if ((rc = per_dir("bs", v, buf, sizeof(buf), f, &t, err)) < 0)
		return rc;
	if (t && (rc = one_size("bs", t, &u, err)) < 0)
		return rc;
	for (d = 0; d < 2; d++)
		if (f[d] && (rc = one_size("bs", f[d], &b->bs[d], err)) < 0)
			return rc;
	return 0;
}

static int one_range(const char *s, uint64_t *lo, uint64_t *hi, struct sb_err *err)
{
	char a[64];
	size_t n = strcspn(s, "-:");
	int rc;

	if (!s[n] || n >= sizeof(a))
		return sb_err_set(err, -EINVAL, "--bsrange: '%s' is not a range LOW-HIGH", s);
	snprintf(a, sizeof(a), "%.*s", (int)n, s);
	if ((rc = one_size("bsrange", a, lo, err)) < 0 || (rc = one_size("bsrange", s + n + 1, hi, err)) < 0)
		return rc;
	if (*lo > *hi) { /* fio's range options take either order */
		uint64_t t = *lo;

		*lo = *hi;
		*hi = t;
	}
	return 0;
}

int sb_jobbs_parse_bsrange(const char *v, struct sb_job_bs *b, struct sb_err *err)
{
	char buf[256];
	const char *f[2], *t;
	uint64_t lo, hi;
	int d, rc;

	if ((rc = per_dir("bsrange", v, buf, sizeof(buf), f, &t, err)) < 0)
		return rc;
	if (t && (rc = one_range(t, &lo, &hi, err)) < 0)
		return rc;
	for (d = 0; d < 2; d++)
		if (f[d] && (rc = one_range(f[d], &b->min_bs[d], &b->max_bs[d], err)) < 0)
			return rc;
	return 0;
}

static int by_perc(const void *a, const void *b)
{
	const struct sb_bs_split *x = a, *y = b;

	return (x->perc > y->perc) - (x->perc < y->perc);
}

/* fio's bssplit_ddir: BS/PERC:BS/PERC...; a missing (or 0) percentage
 * shares what the others leave, evenly, rounded down */
static int split_dir(const char *s, struct sb_job_bs *b, int d, struct sb_err *err)
{
	char buf[1024], *save = NULL, *e;
	uint32_t sum = 0, missing = 0, i, n = 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	int rc;

	snprintf(buf, sizeof(buf), "%s", s);
	for (e = strtok_r(buf, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(e, '/');
		long perc = -1;

		if (n == SB_BS_SPLIT_MAX)
			return sb_err_set(err, -EINVAL, "--bssplit: more than %d sizes (fio's limit)", SB_BS_SPLIT_MAX);
		if (slash) {
			*slash = '\0';
			perc = atol(slash + 1); /* fio's atoi: "" and 0 are "not given" */
			if (perc > 100)
				perc = 100;
			if (perc <= 0)
				perc = -1;
		}
		if ((rc = one_size("bssplit", e, &b->split[d][n].bs, err)) < 0)
			return rc;
		b->split[d][n].perc = perc < 0 ? UINT32_MAX : (uint32_t)perc;
		if (perc < 0)
			missing++;
		else
			sum += (uint32_t)perc;
		lo = b->split[d][n].bs < lo ? b->split[d][n].bs : lo;
		hi = b->split[d][n].bs > hi ? b->split[d][n].bs : hi;
		n++;
	}
	if (!n)
		return 0;
	/* fio errs only when sizes without a share are left to share less than
	 * nothing; over 100 without such sizes it takes the running sums */
	if (sum > 100 && missing)
		return sb_err_set(err, -EINVAL, "--bssplit: the percentages of '%s' add to more than 100", s);
	if (missing == 1 && n == 1)
		sum = 0;
	for (i = 0; i < n; i++)
		if (b->split[d][i].perc == UINT32_MAX)
			b->split[d][i].perc = (100 - sum) / missing;
	b->nsplit[d] = n;
	b->min_bs[d] = lo;
	b->max_bs[d] = hi;
	qsort(b->split[d], n, sizeof(b->split[d][0]), by_perc);
	return 0;
}

int sb_jobbs_parse_bssplit(const char *v, struct sb_job_bs *b, struct sb_err *err)
{
	char buf[2048];
	const char *f[2], *t;
	struct sb_job_bs trim;
	int d, rc;

	if ((rc = per_dir("bssplit", v, buf, sizeof(buf), f, &t, err)) < 0)
		return rc;
	if (t && (rc = split_dir(t, &trim, 0, err)) < 0)
		return rc;
	for (d = 0; d < 2; d++)
		if (f[d] && (rc = split_dir(f[d], b, d, err)) < 0)
			return rc;
	return 0;
}

/* fio's zone_split_ddir: ACCESS/SIZE:... (zoned: SIZE in %, zoned_abs: bytes);
 * the accesses must add to 100 */
static int zone_dir(const char *s, struct sb_job_bs *b, int d, bool abs, struct sb_err *err)
{
	char buf[2048], *save = NULL, *e;
	uint32_t acc = 0, sp = 0, smiss = 0, i, n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (e = strtok_r(buf, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		struct sb_bs_zone *z = &b->zone[d][n];
		char *slash = strchr(e, '/'), *end;
		long a;

		if (n == SB_BS_ZONE_MAX)
			return sb_err_set(err, -EINVAL, "--random_distribution: more than %d zones", SB_BS_ZONE_MAX);
		if (slash)
			*slash = '\0';
		a = strtol(e, &end, 10);
		if (end == e || *end || a < 0 || a > 100)
			return sb_err_set(err, -EINVAL, "--random_distribution: '%s' is not an access %% (0..100)", e);
		z->access = (uint32_t)a;
		acc += z->access;
		if (abs) {
			if (!slash || !slash[1] || sb_jobfio_size(slash + 1, &z->size, err) < 0)
				return sb_err_set(err, -EINVAL, "--random_distribution=zoned_abs: '%s' needs "
						  "ACCESS/SIZE", e);
		} else {
			long p = slash ? atol(slash + 1) : 0; /* fio's atoi: "" and 0 share the rest */

			z->size_perc = p <= 0 ? UINT32_MAX : p > 100 ? 100 : (uint32_t)p;
			if (p <= 0)
				smiss++;
			else
				sp += z->size_perc;
		}
		n++;
	}
	if (!n)
		return 0;
	if (acc != 100 || sp > 100)
		return sb_err_set(err, -EINVAL, "--random_distribution: the access percentages of '%s' "
				  "add to %u; they must add to 100 (as fio)", s, acc);
	if (smiss == 1 && n == 1)
		sp = 0;
	for (i = 0; i < n; i++)
		if (!abs && b->zone[d][i].size_perc == UINT32_MAX)
			b->zone[d][i].size_perc = (100 - sp) / smiss;
	b->nzone[d] = n;
	return 0;
}

/* "V[:CENTER]" of zipf, pareto, normal */
static int dist_value(const char *kind, const char *s, double *val, double *center, struct sb_err *err)
{
	char *end;

	*val = strtod(s, &end);
	if (end == s || (*end && *end != ':'))
		return sb_err_set(err, -EINVAL, "--random_distribution=%s: '%s' is not a number", kind, s);
	if (*end == ':') {
		const char *c = end + 1;

		*center = strtod(c, &end);
		if (end == c || *end || *center < 0 || *center > 1)
			return sb_err_set(err, -EINVAL, "--random_distribution=%s: the center '%s' is not "
					  "in 0..1", kind, c);
	}
	return 0;
}

int sb_jobbs_parse_dist(const char *v, struct sb_job_bs *b, struct sb_err *err)
{
	static const char *const names[] = { "random", "zipf", "pareto", "normal", "zoned", "zoned_abs" };
	static const double def[] = { 0, 1.1, 0.2, 0.0 }; /* fio.h FIO_DEF_ZIPF, FIO_DEF_PARETO */
	size_t n = strcspn(v, ":");
	unsigned i;
	int rc, d;

	for (i = 0; i < 6; i++)
		if (strlen(names[i]) == n && !strncmp(v, names[i], n))
			break;
	if (i == 6)
		return sb_err_set(err, -EINVAL, "--random_distribution: '%s' is not random, zipf, pareto, "
				  "normal, zoned or zoned_abs", v);
	b->dist = (enum sb_dist)i;
	b->center = -1;
	b->nzone[0] = b->nzone[1] = 0;
	if (i == SB_DIST_RANDOM)
		return 0;
	if (i == SB_DIST_ZONED || i == SB_DIST_ZONED_ABS) {
		char buf[2048];
		const char *f[2], *t;
		struct sb_job_bs *tb = malloc(sizeof(*tb));

		if (!tb)
			return sb_err_set(err, -ENOMEM, "out of memory");
		rc = !v[n] ? sb_err_set(err, -EINVAL, "--random_distribution=%s needs its zones", v)
			   : per_dir("random_distribution", v + n + 1, buf, sizeof(buf), f, &t, err);
		if (rc == 0 && t)
			rc = zone_dir(t, tb, 0, i == SB_DIST_ZONED_ABS, err);
		free(tb);
		for (d = 0; rc == 0 && d < 2; d++)
			if (f[d])
				rc = zone_dir(f[d], b, d, i == SB_DIST_ZONED_ABS, err);
		return rc;
	}
	b->dist_val = def[i];
	if (v[n] && (rc = dist_value(names[i], v + n + 1, &b->dist_val, &b->center, err)) < 0)
		return rc;
	if (i == SB_DIST_ZIPF && b->dist_val == 1.0)
		return sb_err_set(err, -EINVAL, "--random_distribution: zipf theta must differ from 1.0 (as fio)");
	if (i == SB_DIST_ZIPF && b->dist_val < 0)
		return sb_err_set(err, -EINVAL, "--random_distribution: zipf theta must not be negative");
	if (i == SB_DIST_PARETO && (b->dist_val <= 0 || b->dist_val >= 1))
		return sb_err_set(err, -EINVAL, "--random_distribution: pareto input out of range (0 < h < 1, as fio)");
	if (i == SB_DIST_GAUSS && (b->dist_val < 0 || b->dist_val >= 100))
		return sb_err_set(err, -EINVAL, "--random_distribution: normal deviation out of range "
				  "(0 <= sigma < 100, as fio)");
	return 0;
}

/* fio's rw=<mode>[:N]: random modes take a new random offset every N ios,
 * sequential ones skip N bytes after each io (backwards when negative) */
int sb_jobbs_rw(const char *opt, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_job_bs *b = &j->bsd;
	size_t n = strcspn(v, ":");
	char mode[32];

	b->seq_nr = 1;
	b->seq_add = 0;
	b->rw_postfix = false;
	snprintf(mode, sizeof(mode), "%.*s", (int)(n < sizeof(mode) ? n : sizeof(mode) - 1), v);
	if (n >= sizeof(mode) || sb_rw_parse(mode, &j->rw) < 0)
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not one of read, write, randread, randwrite, "
				  "rw, readwrite, randrw (with an optional :N)", opt, v);
	if (!v[n])
		return 0;
	b->rw_postfix = true;
	if (sb_rw_random(j->rw)) {
		b->seq_nr = (uint32_t)atoi(v + n + 1); /* fio's atoi */
		return 0;
	}
	const char *num = v + n + 1;
	bool neg = *num == '-';
	uint64_t u;
	struct sb_err e = { 0 };

	if (sb_jobfio_size(num + neg, &u, &e) < 0 || u > INT64_MAX)
		return sb_err_set(err, -EINVAL, "--%s=%s: the skip is not a size (%s)", opt, v, e.msg);
	b->seq_add = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

int sb_jobbs_finish(struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_job_bs *b = &j->bsd;
	bool random = sb_rw_random(j->rw);
	uint64_t top = 0;
	int d;

	for (d = 0; d < 2; d++) {
		uint64_t bs = b->bs[d] ? b->bs[d] : j->bs;

		if (!b->min_bs[d])
			b->min_bs[d] = bs;
		if (!b->max_bs[d])
			b->max_bs[d] = bs;
		/* fio: blockalign is for random I/O; otherwise (and by default) the smallest size */
		if (!b->ba[d] || !random)
			b->ba[d] = b->min_bs[d];
		top = b->max_bs[d] > top ? b->max_bs[d] : top;
		if (b->min_bs[d] != b->max_bs[d] || b->ba[d] != b->min_bs[d])
			b->active = true;
	}
	if (b->min_bs[0] != b->min_bs[1] || b->seq_add || b->seq_nr != 1 || b->dist != SB_DIST_RANDOM ||
	    b->gen == SB_RGEN_LFSR || b->perc_rand[0] < 100 || b->perc_rand[1] < 100 || b->strided)
		b->active = true;
	j->bs = top; /* the buffers hold the largest io */
	if (b->strided && !b->zonesize)
		return sb_err_set(err, -EINVAL, "job %s: zonemode=strided needs zonesize (fio's)", j->name);
	/* stackbench's own verify and fio's verify=<type> (bench/jobverify.c)
	 * both check o->bs-sized blocks over the whole region */
	if (b->active && (j->verify || j->fv.type != SB_FV_NONE))
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --verify with several "
				  "block sizes, rw=<mode>:N, a random_distribution or zonemode (job %s)", j->name);
	return 0;
}

/* ---- the option table ---- */

static int cb_bs(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	(void)o;
	return sb_jobbs_parse_bs(v, &j->bsd, err);
}

static int cb_bsrange(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	(void)o;
	return sb_jobbs_parse_bsrange(v, &j->bsd, err);
}

static int cb_bssplit(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	(void)o;
	return sb_jobbs_parse_bssplit(v, &j->bsd, err);
}

static int cb_dist(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	(void)o;
	return sb_jobbs_parse_dist(v, &j->bsd, err);
}

static int cb_ba(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	char buf[256];
	const char *f[2], *t;
	uint64_t u;
	int d, rc;

	if ((rc = per_dir(o->name, v, buf, sizeof(buf), f, &t, err)) < 0)
		return rc;
	if (t && (rc = one_size(o->name, t, &u, err)) < 0)
		return rc;
	for (d = 0; d < 2; d++)
		if (f[d] && (rc = one_size(o->name, f[d], &j->bsd.ba[d], err)) < 0)
			return rc;
	return 0;
}

/* percentage_random (percentage_sequential: 100 - it), per direction */
static int cb_perc(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	char buf[256], *end;
	const char *f[2], *t;
	int d, rc;

	if ((rc = per_dir(o->name, v, buf, sizeof(buf), f, &t, err)) < 0)
		return rc;
	for (d = 0; d < 2; d++) {
		long p;

		if (!f[d])
			continue;
		p = strtol(f[d], &end, 10);
		if (end == f[d] || *end || p < 0 || p > 100)
			return sb_err_set(err, -EINVAL, "--%s: '%s' is not a percentage 0..100", o->name, f[d]);
		j->bsd.perc_rand[d] = o->name[11] == 's' ? (uint32_t)(100 - p) : (uint32_t)p;
	}
	return 0;
}

static int cb_word(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_job_bs *b = &j->bsd;

	if (!strcmp(o->name, "rw_sequencer")) {
		if (strcmp(v, "sequential") && strcmp(v, "identical"))
			return sb_err_set(err, -EINVAL, "--rw_sequencer: '%s' is not sequential or identical", v);
		b->rw_seq_identical = !strcmp(v, "identical");
	} else if (!strcmp(o->name, "random_generator")) {
		if (!strcmp(v, "tausworthe"))
			b->gen = SB_RGEN_TAUSWORTHE;
		else if (!strcmp(v, "lfsr"))
			b->gen = SB_RGEN_LFSR;
		else if (!strcmp(v, "tausworthe64"))
			b->gen = SB_RGEN_TAUSWORTHE64;
		else
			return sb_err_set(err, -EINVAL, "--random_generator: '%s' is not tausworthe, lfsr or "
					  "tausworthe64", v);
	} else if (!strcmp(v, "zbd")) {
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --zonemode=zbd (a zoned "
				  "block device)");
	} else if (strcmp(v, "none") && strcmp(v, "strided")) {
		return sb_err_set(err, -EINVAL, "--zonemode: '%s' is not none, strided or zbd", v);
	} else {
		b->strided = !strcmp(v, "strided");
	}
	return 0;
}

#define B(f) offsetof(struct sb_job_opts, bsd.f), sizeof(((struct sb_job_opts *)0)->bsd.f)

const struct jopt sb_jobbs_opts[] = {
	{ "bs", "blocksize", JT_CB, NOF, 0, 0, "4k", "block size; R,W for reads and writes (fio's R,W,T)", cb_bs },
	{ "bsrange", "blocksize_range", JT_CB, NOF, 0, 0, NULL,
	  "sizes LOW-HIGH (R,W per direction), multiples of LOW", cb_bsrange },
	{ "bssplit", NULL, JT_CB, NOF, 0, 0, NULL, "sizes by share: BS/PERC:BS/PERC...[,writes]", cb_bssplit },
	{ "blockalign", "ba", JT_CB, NOF, 0, 0, NULL, "random offsets aligned to this (default: the smallest bs)", cb_ba },
	{ "bs_unaligned", "blocksize_unaligned", JT_BOOL, B(unaligned), 0, 0, "0",
	  "bsrange sizes need not be multiples of the smallest", NULL },
	{ "rw_sequencer", NULL, JT_CB, NOF, 0, 0, "sequential",
	  "rw=<random>:N: the ios between random ones: sequential, or identical (the same offset)", cb_word },
	{ "random_distribution", NULL, JT_CB, NOF, 0, 0, "random",
	  "random, zipf[:theta], pareto[:h], normal[:sigma] (each [:center]), zoned:A/S:..., zoned_abs:A/SIZE:...",
	  cb_dist },
	{ "random_generator", NULL, JT_CB, NOF, 0, 0, "tausworthe",
	  "tausworthe, tausworthe64 (uniform picks), lfsr (every block once, no map)", cb_word },
	{ "percentage_random", NULL, JT_CB, NOF, 0, 0, "100", "% of a random job's ios at random offsets (R,W)", cb_perc },
	{ "percentage_sequential", NULL, JT_CB, NOF, 0, 0, "0", "100 - percentage_random", cb_perc },
	{ "zonemode", NULL, JT_CB, NOF, 0, 0, "none", "none, or strided: zonesize bytes in each zonerange, then zoneskip", cb_word },
	{ "zonesize", NULL, JT_SIZE, B(zonesize), 1, 0, NULL, "strided: bytes of I/O in each zone", NULL },
	{ "zonerange", NULL, JT_SIZE, B(zonerange), 1, 0, NULL, "strided: a zone's extent (default zonesize)", NULL },
	{ "zoneskip", NULL, JT_SIZE, B(zoneskip), 0, 0, "0", "strided: bytes skipped after each zone", NULL },
	{ NULL },
};
