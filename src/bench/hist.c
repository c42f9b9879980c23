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
	dst->sumsq = sb_u128_add(dst->sumsq, src->sumsq);
	for (i = 0; i < SB_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

double sb_hist_mean(const struct sb_hist *h)
{
	return h->n ? (double)h->sum / (double)h->n : 0.0;
}

double sb_hist_stddev(const struct sb_hist *h)
{
	/* With m = sum / n and r = sum % n (integers), the sum of (x - m)^2 is
	 * D = sumsq - n m^2 - 2 m r, exact and >= 0, and the variance is
	 * D / n - (r / n)^2: integers to the last step, so no cancellation and
	 * no dependence on the width of long double. */
	uint64_t m, r;
	struct sb_u128 d, mr;
	double var, f;

	if (h->n < 2)
		return 0.0;
	m = h->sum / h->n;
	r = h->sum % h->n;
	mr = sb_u128_mul64(m, r);
	d = sb_u128_sub(h->sumsq, sb_u128_mul(sb_u128_mul64(m, m), h->n));
	d = sb_u128_sub(sb_u128_sub(d, mr), mr);
	f = (double)r / (double)h->n;
	var = sb_u128_to_double(d) / (double)h->n - f * f;
	return var > 0 ? sqrt(var) : 0.0;
}

/* x rounded to nearest-even at 64 significant bits, as x87's extended
 * precision does: x = p, returns the significand and adds the dropped bits
 * to *exp. */
static uint64_t round64(struct sb_u128 p, int *exp)
{
	unsigned k;
	uint64_t w, rem, half;

	if (!p.hi)
		return p.lo;
	k = 64 - (unsigned)__builtin_clzll(p.hi);
	w = k == 64 ? p.hi : (p.hi << (64 - k)) | (p.lo >> k);
	rem = k == 64 ? p.lo : p.lo & ((1ULL << k) - 1);
	half = 1ULL << (k - 1);
	*exp += (int)k;
	if (rem > half || (rem == half && (w & 1))) {
		if (!++w) {
			w = 1ULL << 63;
			(*exp)++;
		}
	}
	return w;
}

/* The least integer count that fio's `sum >= (long double)pct / 100.0 * n`
 * accepts, with amd64's long double (64-bit significand, round to nearest
 * even), computed in integers; UINT64_MAX when no count can. */
static uint64_t fio_threshold(double pct, uint64_t n)
{
	int e2, exp;
	uint64_t m, q, r, w;

	/* pct = m 2^(e2 - 53), m < 2^53 exactly */
	m = (uint64_t)ldexp(frexp(pct, &e2), 53);
	exp = e2 - 53;
	/* pct / 100: long division until q has 64 bits, then round */
	q = m / 100;
	r = m % 100;
	while (q < (1ULL << 63)) {
		q = 2 * q + (2 * r >= 100);
		r = 2 * r >= 100 ? 2 * r - 100 : 2 * r;
		exp--;
	}
	if (2 * r > 100 || (2 * r == 100 && (q & 1))) {
		if (!++q) {
			q = 1ULL << 63;
			exp++;
		}
	}
	/* times n, rounded again; then the ceiling of w 2^exp */
	w = round64(sb_u128_mul64(q, n), &exp);
	if (exp >= 0)
		return exp >= 64 || w > (UINT64_MAX >> exp) ? UINT64_MAX : w << exp;
	if (exp <= -64)
		return w ? 1 : 0;
	return (w >> -exp) + ((w & ((1ULL << -exp) - 1)) != 0);
}

uint64_t sb_hist_percentile_bucket(const struct sb_hist *h, double pct)
{
	/* fio's calc_clat_percentiles, to the sample: the running sum is
	 * compared with pct / 100 * n in (amd64's) long double (in double,
	 * 60% of 25 samples is 15 exactly; in x87's long double just above, so
	 * fio takes the 16th), and fio's last bucket (FIO_IO_U_PLAT_NR - 1)
	 * holds every sample at or beyond it, so its value stands for them. */
	uint64_t want, cum = 0;
	unsigned i;

	if (!h->n || !(pct > 0))
		return 0;
	want = fio_threshold(pct, h->n);
	for (i = 0; i < SB_HIST_NBUCKETS; i++) {
		cum += h->buckets[i];
		if (h->buckets[i] && cum >= want)
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
