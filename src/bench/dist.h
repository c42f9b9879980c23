/* fio 3.33's random offset distributions (lib/zipf.c, lib/gauss.c,
 * zone-dist.c, io_u.c) and the per-io generator of offsets and lengths
 * for `stackbench job`'s block size / offset / distribution family
 * (bench/jobbs.h). Written from fio's definitions, not its code. */
#ifndef SB_BENCH_DIST_H
#define SB_BENCH_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/data.h"
#include "bench/jobbs.h"
#include "util/err.h"

/* zipf:theta, pareto:h (fio's zipf_state) over n ranges. scatter: spread
 * the ranks over the ranges with a multiplicative hash, as fio (fio's
 * t/genzipf turns it off to show the ranks). u: uniform in [0, 1). */
struct sb_zipf {
	uint64_t n, off;
	double theta, zetan, zeta2, pareto_pow;
	bool scatter;
};
void sb_zipf_init(struct sb_zipf *z, uint64_t n, double theta, uint64_t off, bool scatter);
uint64_t sb_zipf_next(const struct sb_zipf *z, double u);
void sb_pareto_init(struct sb_zipf *z, uint64_t n, double h, uint64_t off, bool scatter);
uint64_t sb_pareto_next(const struct sb_zipf *z, double u);
/* normal:sigma (fio's gauss): the mean of 12 uniform draws in [0, n]
 * moved by a uniform deviation of width ceil(n x sigma / 100) */
struct sb_gauss {
	uint64_t n, stddev, off;
	bool scatter;
};
void sb_gauss_init(struct sb_gauss *g, uint64_t n, double sigma, uint64_t off, bool scatter);
uint64_t sb_gauss_next(const struct sb_gauss *g, struct rng *r);

/* One pass's offsets and lengths. */
struct sb_bsgen {
	const struct sb_job_bs *b;
	struct rng *rng;
	uint64_t len;             /* the region */
	uint64_t unit;            /* random map unit (the smallest bs and alignment) */
	uint64_t *map;            /* fio's random map: one bit a unit, NULL without */
	uint64_t nunits, mapped;
	uint64_t budget, issued;  /* bytes (budget 0: time-based, no end) */
	uint64_t last_pos[2], last_start[2];
	bool at_offset;           /* the region starts past 0 (fio's file_offset): backwards I/O starts at its end */
	uint64_t zone_base, zone_bytes; /* zonemode=strided: where the zone starts, bytes done in it */
	uint32_t seq_left;        /* rw=<random>:N countdown */
	bool lfsr;
	struct perm perm;
	uint64_t perm_n, perm_i;
	struct sb_zipf zipf;
	struct sb_gauss gauss;
	uint64_t zlo[2][100], zhi[2][100];  /* zoned: the zone of each percent of accesses */
};

/* randommap: fio's default (no norandommap); budget: the pass's bytes,
 * 0 for a time-based pass. -ENOMEM, or -EINVAL when zoned_abs zones do not
 * fit the region (as fio: "zoned_abs sizes exceed file size"). */
int sb_bsgen_init(struct sb_bsgen *g, const struct sb_job_bs *b, uint64_t len, bool at_offset,
		  bool randommap, uint64_t budget, struct rng *rng, struct sb_err *err);
/* The next io of direction dir: its offset in the region and its length.
 * false: the pass is over (its bytes are issued, or no block is left). */
bool sb_bsgen_next(struct sb_bsgen *g, int dir, bool random, uint64_t *off, uint64_t *len);
void sb_bsgen_free(struct sb_bsgen *g);

#endif
