#include "bench/hist.h"

#include <math.h>
#include <string.h>

void sb_hist_init(struct sb_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned sb_hist_index(uint64_t ns)
{
	unsigned msb, shift, idx;

	if (ns < SB_HIST_SUB)
		return (unsigned)ns;
	msb = 63 - (unsigned)__builtin_clzll(ns);
	if (msb > SB_HIST_MAX_MSB)
		return SB_HIST_NBUCKETS - 1;
	shift = msb - SB_HIST_SUB_BITS;
	/* group 1 is [64,128) with width 1, group g has width 2^(g-1) */
	idx = (msb - SB_HIST_SUB_BITS + 1) * SB_HIST_SUB + (unsigned)((ns >> shift) & (SB_HIST_SUB - 1));
	return idx;
}

uint64_t sb_hist_bucket_low(unsigned idx)
{
	unsigned group = idx / SB_HIST_SUB, sub = idx % SB_HIST_SUB;

	if (group == 0)
		return sub;
	return (uint64_t)(SB_HIST_SUB + sub) << (group - 1);
}

uint64_t sb_hist_bucket_width(unsigned idx)
{
	unsigned group = idx / SB_HIST_SUB;

	return group == 0 ? 1 : (uint64_t)1 << (group - 1);
}

uint64_t sb_hist_bucket_value(unsigned idx)
{
	return sb_hist_bucket_low(idx) + sb_hist_bucket_width(idx) / 2;
}

void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src)
{
	unsigned i;

	if (!src->n)
		return;
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	for (i = 0; i < SB_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

double sb_hist_mean(const struct sb_hist *h)
{
	return h->n ? (double)h->sum / (double)h->n : 0.0;
}

double sb_hist_stddev(const struct sb_hist *h)
{
	long double n, mean, var;

	if (h->n < 2)
		return 0.0;
	n = (long double)h->n;
	mean = (long double)h->sum / n;
	var = (long double)h->sumsq / n - mean * mean;
	return var > 0 ? (double)sqrtl(var) : 0.0;
}

uint64_t sb_hist_percentile_bucket(const struct sb_hist *h, double pct)
{
	/* fio's calc_clat_percentiles, to the sample: the running sum is
	 * compared with pct / 100 * n in long double (in double, 60% of 25
	 * samples is 15 exactly; in long double just above, so fio takes the
	 * 16th), and fio's last bucket (FIO_IO_U_PLAT_NR - 1) holds every
	 * sample at or beyond it, so its value stands for them. */
	long double want = (long double)pct / 100.0 * (long double)h->n;
	uint64_t cum = 0;
	unsigned i;

	for (i = 0; i < SB_HIST_NBUCKETS; i++) {
		cum += h->buckets[i];
		if (h->buckets[i] && (long double)cum >= want)
			return sb_hist_bucket_value(i < SB_HIST_FIO_NR ? i : SB_HIST_FIO_NR - 1);
	}
	return 0;
}

uint64_t sb_hist_percentile(const struct sb_hist *h, double pct)
{
	uint64_t want, cum = 0, v;
	unsigned i;

	if (!h->n)
		return 0;
	want = (uint64_t)ceil(pct / 100.0 * (double)h->n);
	if (want < 1)
		want = 1;
	if (want > h->n)
		want = h->n;
	for (i = 0; i < SB_HIST_NBUCKETS; i++) {
		cum += h->buckets[i];
		if (cum >= want)
			break;
	}
	if (i == SB_HIST_NBUCKETS)
		i--;
	v = sb_hist_bucket_value(i);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}
