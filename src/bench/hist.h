/* Completion-latency histogram, log-linear as fio's (stat.h FIO_IO_U_PLAT_*):
 * values below 64 ns get one bucket each; above, every power of two is split
 * into 64 equal buckets, so a bucket's width is at most 1/64 of its lower
 * bound and the midpoint we report is within 0.78% of any value in it.
 * Histograms of several threads merge by adding arrays. Count, min, max, sum
 * and sum of squares are kept exactly (sum of squares in 128 bits), so
 * mean and stddev are exact; only percentiles come from the buckets, and
 * only when reporting. */
#ifndef SB_BENCH_HIST_H
#define SB_BENCH_HIST_H

#include <stdint.h>

#include "util/u128.h"

#define SB_HIST_SUB_BITS 6                       /* 64 buckets per power of two */
#define SB_HIST_SUB (1u << SB_HIST_SUB_BITS)
#define SB_HIST_MAX_MSB 47                        /* up to 2^48 ns (~78 hours) */
#define SB_HIST_NBUCKETS ((SB_HIST_MAX_MSB - SB_HIST_SUB_BITS + 2) * SB_HIST_SUB)
/* fio's FIO_IO_U_PLAT_NR (29 groups of 64): its buckets end at 2^34 ns */
#define SB_HIST_FIO_NR (29 * SB_HIST_SUB)

struct sb_hist {
	uint64_t n;
	uint64_t min, max;              /* ns; min is UINT64_MAX while n == 0 */
	uint64_t sum;                   /* ns */
	struct sb_u128 sumsq;           /* ns^2 */
	uint64_t buckets[SB_HIST_NBUCKETS];
};

void sb_hist_init(struct sb_hist *h);
/* Bucket of a value (values past the last bucket land in the last). */
unsigned sb_hist_index(uint64_t ns);
/* Lowest value of a bucket and its width. */
uint64_t sb_hist_bucket_low(unsigned idx);
uint64_t sb_hist_bucket_width(unsigned idx);
/* The value a bucket stands for when reporting: its midpoint. */
uint64_t sb_hist_bucket_value(unsigned idx);

static inline void sb_hist_add(struct sb_hist *h, uint64_t ns)
{
	h->n++;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->sum += ns;
	h->sumsq = sb_u128_add(h->sumsq, sb_u128_mul64(ns, ns));
	h->buckets[sb_hist_index(ns)]++;
}

/* dst += src */
void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src);
double sb_hist_mean(const struct sb_hist *h);
/* Population standard deviation, as fio reports. */
double sb_hist_stddev(const struct sb_hist *h);
/* pct in (0, 100]: the smallest bucket value v such that at least pct% of
 * samples are <= v's bucket, clamped to [min, max]. 0 when empty. */
uint64_t sb_hist_percentile(const struct sb_hist *h, double pct);
/* As fio computes its percentiles (stat.c calc_clat_percentiles): the value
 * of the first bucket at which the running count reaches pct% of n, that
 * product in long double; samples past fio's last bucket (2^34 ns, ~17 s)
 * count as in it; not clamped to min/max. fio computes pct / 100 * n in
 * long double, whose width is the architecture's (x87's 64-bit significand
 * on amd64, 53 bits on armhf, 113 on arm64), so fio's own answer differs
 * across them at exact boundaries (p60 of 25 samples). Here that product is
 * rounded as on amd64's x87, in integers, so every architecture gives
 * fio-on-amd64's answer. */
uint64_t sb_hist_percentile_bucket(const struct sb_hist *h, double pct);

#endif
