/* fio 3.33's random offset distributions and block sizes, per io: see
 * bench/dist.h. The formulas are fio's (lib/zipf.c: Gray et al.'s zipf
 * generator; lib/gauss.c; zone-dist.c; io_u.c get_next_buflen,
 * get_next_seq_offset, mark_random_map); the random numbers are
 * stackbench's own generator, so the sequences differ from fio's, their
 * distribution does not. */
#include "bench/dist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ZIPF_TERMS 10000000ULL    /* fio sums at most 10M terms of zeta(n) */
#define SCATTER 0x9E3779B97F4A7C15ULL /* golden-ratio multiplier: ranks spread over the region */

static double unit01(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

void sb_zipf_init(struct sb_zipf *z, uint64_t n, double theta, uint64_t off, bool scatter)
{
	uint64_t i, terms = n < ZIPF_TERMS ? n : ZIPF_TERMS;

	memset(z, 0, sizeof(*z));
	z->n = n ? n : 1;
	z->off = off;
	z->theta = theta;
	z->scatter = scatter;
	z->zeta2 = 1.0 + pow(0.5, theta);
	for (i = 1; i <= terms; i++)
		z->zetan += pow(1.0 / (double)i, theta);
}

uint64_t sb_zipf_next(const struct sb_zipf *z, double u)
{
	double n = (double)z->n, alpha = 1.0 / (1.0 - z->theta);
	double eta = (1.0 - pow(2.0 / n, 1.0 - z->theta)) / (1.0 - z->zeta2 / z->zetan);
	double rz = u * z->zetan;
	uint64_t v;

	if (rz < 1.0)
		v = 0;
	else if (rz < 1.0 + pow(0.5, z->theta))
		v = 1;
	else
		v = (uint64_t)(n * pow(eta * u - eta + 1.0, alpha));
	if (z->scatter)
		v *= SCATTER;
	return (v + z->off) % z->n;
}

void sb_pareto_init(struct sb_zipf *z, uint64_t n, double h, uint64_t off, bool scatter)
{
	memset(z, 0, sizeof(*z));
	z->n = n ? n : 1;
	z->off = off;
	z->scatter = scatter;
	z->pareto_pow = log(h) / log(1.0 - h);
}

uint64_t sb_pareto_next(const struct sb_zipf *z, double u)
{
	uint64_t v = (uint64_t)((double)(z->n - 1) * pow(u, z->pareto_pow));

	if (z->scatter)
		v *= SCATTER;
	return (v + z->off) % z->n;
}

void sb_gauss_init(struct sb_gauss *g, uint64_t n, double sigma, uint64_t off, bool scatter)
{
	memset(g, 0, sizeof(*g));
	g->n = n ? n : 1;
	g->off = off;
	g->scatter = scatter;
	if (sigma != 0.0) {
		g->stddev = (uint64_t)ceil((double)g->n * sigma / 100.0);
		if (g->stddev > g->n / 2)
			g->stddev = g->n / 2;
	}
}

uint64_t sb_gauss_next(const struct sb_gauss *g, struct rng *r)
{
	uint64_t sum = 0;
	int64_t s, dev;
	int i;

	for (i = 0; i < 12; i++)
		sum += rng_below(r, g->n + 1);
	s = (int64_t)((sum + 11) / 12);
	if (g->stddev) {
		dev = (int64_t)((double)g->stddev * unit01(r)) - (int64_t)(g->stddev / 2);
		while (dev && (s + dev >= (int64_t)g->n || s + dev < 0))
			dev /= 2;
		s += dev;
	}
	if (s >= (int64_t)g->n)
		s = (int64_t)g->n - 1;
	sum = (uint64_t)s;
	if (g->scatter)
		sum *= SCATTER;
	return (sum + g->off) % g->n;
}

/* ---- the map (fio's axmap): one bit a unit ---- */

static bool map_busy(const struct sb_bsgen *g, uint64_t u)
{
	return g->map[u / 64] >> (u % 64) & 1;
}

/* the first free unit at or after u, wrapping; nunits if none */
static uint64_t map_next_free(const struct sb_bsgen *g, uint64_t u)
{
	uint64_t words = (g->nunits + 63) / 64, k;

	for (k = 0; k <= words; k++) {
		uint64_t i = (u / 64 + k) % words, free = ~g->map[i];

		if (k == 0)
			free &= ~0ULL << (u % 64);
		if (free && i * 64 + (uint64_t)__builtin_ctzll(free) < g->nunits)
			return i * 64 + (uint64_t)__builtin_ctzll(free);
	}
	return g->nunits;
}

/* mark len bytes from off; fewer when a busy unit comes first (fio's
 * mark_random_map shortens the io to what was free) */
static uint64_t map_mark(struct sb_bsgen *g, uint64_t off, uint64_t len)
{
	uint64_t u = off / g->unit, n = (len + g->unit - 1) / g->unit, i;

	for (i = 0; i < n && u + i < g->nunits && !map_busy(g, u + i); i++)
		g->map[(u + i) / 64] |= 1ULL << ((u + i) % 64);
	g->mapped += i;
	return i * g->unit < len ? i * g->unit : len;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static void zone_index(struct sb_bsgen *g, int d, uint64_t lastb_bytes)
{
	const struct sb_job_bs *b = g->b;
	uint32_t i, j, a = 0, sp = 0;
	uint64_t sz = 0;

	for (i = 0; i < b->nzone[d]; i++) {
		const struct sb_bs_zone *z = &b->zone[d][i];

		for (j = a; j < a + z->access && j < 100; j++) {
			if (b->dist == SB_DIST_ZONED_ABS) {
				g->zlo[d][j] = sz;
				g->zhi[d][j] = sz + z->size;
			} else {
				g->zlo[d][j] = lastb_bytes * sp / 100;
				g->zhi[d][j] = lastb_bytes * (sp + z->size_perc) / 100;
			}
		}
		a += z->access;
		sp += z->size_perc;
		sz += z->size;
	}
}

int sb_bsgen_init(struct sb_bsgen *g, const struct sb_job_bs *b, uint64_t len, bool at_offset,
		  bool randommap, uint64_t budget, struct rng *rng, struct sb_err *err)
{
	uint64_t range = b->min_bs[0] < b->min_bs[1] ? b->min_bs[0] : b->min_bs[1];
	uint64_t nr = (len + range - 1) / range, off;
	int d;

	memset(g, 0, sizeof(*g));
	g->b = b;
	g->rng = rng;
	g->len = len;
	g->budget = budget;
	g->at_offset = at_offset;
	g->seq_left = 1;
	g->unit = gcd64(gcd64(b->min_bs[0], b->min_bs[1]), gcd64(b->ba[0], b->ba[1]));
	g->nunits = len / g->unit;
	g->last_start[0] = g->last_start[1] = UINT64_MAX;
	/* fio: the map only for the uniform (and zoned) picks; lfsr needs none */
	g->lfsr = b->gen == SB_RGEN_LFSR;
	if (randommap && !g->lfsr && (b->dist == SB_DIST_RANDOM || b->dist == SB_DIST_ZONED ||
				      b->dist == SB_DIST_ZONED_ABS)) {
		g->map = calloc((g->nunits + 63) / 64 + 1, sizeof(uint64_t));
		if (!g->map)
			return sb_err_set(err, -ENOMEM, "out of memory (random map of %llu blocks)",
					  (unsigned long long)g->nunits);
	}
	off = b->center >= 0 ? (uint64_t)((double)nr * b->center) : rng_next(rng) % (nr ? nr : 1);
	if (b->dist == SB_DIST_ZIPF)
		sb_zipf_init(&g->zipf, nr, b->dist_val, off, true);
	else if (b->dist == SB_DIST_PARETO)
		sb_pareto_init(&g->zipf, nr, b->dist_val, off, true);
	else if (b->dist == SB_DIST_GAUSS)
		sb_gauss_init(&g->gauss, nr, b->dist_val,
			      b->center >= 0 ? (uint64_t)((int64_t)((double)nr * (b->center - 0.5)) + (int64_t)nr) : 0, true);
	for (d = 0; d < 2; d++) {
		uint64_t lastb = len - (b->min_bs[d] > b->ba[d] ? b->min_bs[d] - b->ba[d] : 0);

		lastb -= lastb % b->ba[d];
		zone_index(g, d, lastb);
		if (b->dist == SB_DIST_ZONED_ABS && b->nzone[d] && g->zhi[d][99] > lastb)
			return sb_err_set(err, -EINVAL, "random_distribution=zoned_abs: the zones (%llu bytes) "
					  "exceed the job's region (%llu bytes), as fio refuses",
					  (unsigned long long)g->zhi[d][99], (unsigned long long)len);
	}
	return 0;
}

void sb_bsgen_free(struct sb_bsgen *g)
{
	free(g->map);
	g->map = NULL;
}

/* ---- one io ---- */

static double u01(struct sb_bsgen *g)
{
	return unit01(g->rng);
}

/* the region random offsets fall in: fio's last_block, in bytes */
static uint64_t last_bytes(const struct sb_bsgen *g, int d)
{
	const struct sb_job_bs *b = g->b;
	uint64_t m = g->b->strided && b->zonerange && b->zonerange < g->len ? b->zonerange : g->len;

	if (b->min_bs[d] > b->ba[d])
		m = m > b->min_bs[d] - b->ba[d] ? m - (b->min_bs[d] - b->ba[d]) : 0;
	return m - m % b->ba[d];
}

/* every block done: the pass is over, unless time-based or loops are left
 * (fio resets its map and lfsr for each) */
static bool last_loop(const struct sb_bsgen *g)
{
	return g->budget && g->budget - g->issued < g->len;
}

/* a uniform pick, or the lfsr's next block (fio's __get_next_rand_offset
 * before its map check); false when the lfsr has given every block */
static bool uniform_pick(struct sb_bsgen *g, int d, uint64_t lastb, uint64_t *blk)
{
	if (!g->lfsr) {
		*blk = (uint64_t)((double)lastb * u01(g));
		return true;
	}
	if (g->perm_n != lastb || g->perm_i >= g->perm_n) {
		if (g->perm_n == lastb && last_loop(g))
			return false; /* every block once: a size-based pass is over */
		perm_init(&g->perm, lastb, g->rng);
		g->perm_n = lastb;
		g->perm_i = 0;
	}
	(void)d;
	*blk = perm_at(&g->perm, g->perm_i++);
	return true;
}

/* fio's get_next_rand_offset: the distribution's block, then the map's
 * next free one when that is taken. false: no block is left. */
static bool rand_offset(struct sb_bsgen *g, int d, uint64_t *off)
{
	const struct sb_job_bs *b = g->b;
	uint64_t lastb = last_bytes(g, d) / b->ba[d], blk, lo = 0;

	if (!lastb)
		return false;
	switch (b->dist) {
	case SB_DIST_ZIPF:
		*off = sb_zipf_next(&g->zipf, u01(g)) * b->ba[d] % (lastb * b->ba[d]);
		return true;
	case SB_DIST_PARETO:
		*off = sb_pareto_next(&g->zipf, u01(g)) * b->ba[d] % (lastb * b->ba[d]);
		return true;
	case SB_DIST_GAUSS:
		*off = sb_gauss_next(&g->gauss, g->rng) * b->ba[d] % (lastb * b->ba[d]);
		return true;
	case SB_DIST_ZONED:
	case SB_DIST_ZONED_ABS:
		if (b->nzone[d]) {
			unsigned v = (unsigned)rng_below(g->rng, 100);

			lo = g->zlo[d][v] / b->ba[d];
			lastb = g->zhi[d][v] / b->ba[d] - lo;
		}
		break;
	case SB_DIST_RANDOM:
		break;
	}
	if (!uniform_pick(g, d, lastb, &blk))
		return false;
	*off = (lo + blk) * b->ba[d];
	if (!g->map || !map_busy(g, *off / g->unit))
		return true;
	for (uint64_t tries = 0; tries <= g->nunits; tries++) {
		uint64_t u = map_next_free(g, *off / g->unit);

		if (u == g->nunits) {
			if (last_loop(g))
				return false;
			memset(g->map, 0, (g->nunits + 63) / 64 * sizeof(uint64_t)); /* fio_file_reset */
			g->mapped = 0;
			return true;
		}
		*off = (u * g->unit + b->ba[d] - 1) / b->ba[d] * b->ba[d];
		if (*off >= last_bytes(g, d) + b->ba[d])
			*off = 0;
		if (!map_busy(g, *off / g->unit))
			return true;
	}
	return false;
}

/* fio's get_next_seq_offset: after the last io, skipping seq_add bytes
 * (backwards when negative), wrapping at the region's ends. A size-based
 * pass whose last io ended at the region's end is over (that loop of it):
 * false; in a random job (rw=<random>:N, percentage_random) fio then takes
 * a random offset instead. */
static bool seq_offset(struct sb_bsgen *g, int d, bool random, uint64_t *off)
{
	const struct sb_job_bs *b = g->b;
	uint64_t lim = b->strided && b->zonerange && b->zonerange < g->len ? b->zonerange : g->len;
	uint64_t pos = g->last_pos[d];
	int64_t p;

	if (pos >= g->len) {
		if (g->budget && random)
			return false; /* fio: a random one instead */
		if (g->budget) {
			/* fio: the file's end ends this loop; the next loop has its own bytes */
			uint64_t next = (g->issued + g->len - 1) / g->len * g->len;

			if (next >= g->budget)
				return false;
			g->issued = next;
		}
		pos = 0;
	}
	if (pos == 0 && g->at_offset && b->seq_add < 0)
		pos = g->len;
	if (pos && b->seq_add) {
		p = (int64_t)pos + b->seq_add;
		if (p < 0 || (uint64_t)p >= g->len)
			p = b->seq_add > 0 ? 0 : (int64_t)g->len + b->seq_add;
		pos = p < 0 ? 0 : (uint64_t)p;
	}
	*off = pos + b->min_bs[d] > lim ? 0 : pos;
	return true;
}

/* fio's get_next_buflen: bsrange's or bssplit's pick, aligned to the
 * smallest size, one that fits the region */
static uint64_t pick_len(struct sb_bsgen *g, int d, uint64_t off)
{
	const struct sb_job_bs *b = g->b;
	uint64_t minbs = b->min_bs[d], maxbs = b->max_bs[d], room = g->len - off, len = minbs;
	unsigned tries, i;

	if (minbs == maxbs || room < minbs)
		return minbs;
	for (tries = 0; tries < 256; tries++) {
		double u = u01(g);
		uint32_t perc = 0;

		if (!b->nsplit[d]) {
			len = minbs + (uint64_t)((double)maxbs * u);
		} else {
			for (i = 0; i < b->nsplit[d]; i++) {
				if (!b->split[d][i].perc)
					continue;
				len = b->split[d][i].bs;
				perc += b->split[d][i].perc;
				if (u * 100.0 < (double)perc && len <= room)
					break;
			}
		}
		if (!b->unaligned)
			len -= len % minbs;
		if (len > maxbs)
			len = maxbs;
		if (len <= room)
			return len;
	}
	return room - room % minbs;
}

bool sb_bsgen_next(struct sb_bsgen *g, int d, bool random, uint64_t *off, uint64_t *len)
{
	const struct sb_job_bs *b = g->b;
	bool busy_ok = !random;

	if (g->budget && g->issued >= g->budget)
		return false;
	if (b->strided && g->zone_bytes >= b->zonesize) {
		/* fio's zonemode=strided: the next zone, zonerange + zoneskip further */
		g->zone_bytes = 0;
		g->zone_base = (g->zone_base + (b->zonerange ? b->zonerange : b->zonesize) + b->zoneskip) % g->len;
		g->last_pos[0] = g->last_pos[1] = 0;
	}
	/* fio's ddir_seq_nr: the first io is random (the count starts at 1), then
	 * every seq_nr-th; 0: never again */
	if (random && !(b->seq_nr && --g->seq_left == 0)) {
		/* rw=<random>:N: N-1 ios after each random one, where rw_sequencer says */
		busy_ok = true;
		if (b->rw_seq_identical)
			*off = g->last_start[d] == UINT64_MAX ? 0 : g->last_start[d];
		else if (!seq_offset(g, d, true, off) && !rand_offset(g, d, off))
			return false;
	} else if (random && b->perc_rand[d] < 100 && rng_below(g->rng, 100) >= b->perc_rand[d]) {
		g->seq_left = b->seq_nr;
		busy_ok = true; /* percentage_random: this one sequential */
		if (!seq_offset(g, d, true, off) && !rand_offset(g, d, off))
			return false;
	} else if (random) {
		g->seq_left = b->seq_nr;
		if (!rand_offset(g, d, off))
			return false;
	} else if (!seq_offset(g, d, false, off)) {
		return false;
	}
	*len = pick_len(g, d, *off);
	if (g->map && !busy_ok)
		*len = map_mark(g, *off, *len);
	g->last_start[d] = *off;
	g->last_pos[d] = *off + *len;
	g->issued += *len;
	g->zone_bytes += *len;
	*off = (*off + g->zone_base) % g->len;
	if (*off + *len > g->len)
		*off = 0;
	return *len > 0;
}
