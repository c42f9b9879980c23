/* 128-bit unsigned arithmetic in two 64-bit halves, the same code on every
 * target: 32-bit ARM has no `unsigned __int128`, and results (histogram sums
 * of squares, the multiply-high of the offset generator) must be bit-for-bit
 * the same on armhf, arm64 and amd64. Header-only: it sits in the I/O path. */
#ifndef SB_UTIL_U128_H
#define SB_UTIL_U128_H

#include <stdint.h>

struct sb_u128 { uint64_t hi, lo; };

/* a * b, the full 128-bit product (four 32x32 partial products) */
static inline struct sb_u128 sb_u128_mul64(uint64_t a, uint64_t b)
{
	uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
	struct sb_u128 r;

	r.lo = (mid << 32) | (ll & 0xffffffffu);
	r.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return r;
}

/* the high 64 bits of a * b */
static inline uint64_t sb_mulhi64(uint64_t a, uint64_t b)
{
	return sb_u128_mul64(a, b).hi;
}

static inline struct sb_u128 sb_u128_add(struct sb_u128 a, struct sb_u128 b)
{
	struct sb_u128 r = { a.hi + b.hi, a.lo + b.lo };

	r.hi += r.lo < a.lo;
	return r;
}

/* a - b; a >= b */
static inline struct sb_u128 sb_u128_sub(struct sb_u128 a, struct sb_u128 b)
{
	struct sb_u128 r = { a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo };

	return r;
}

/* a * b modulo 2^128 */
static inline struct sb_u128 sb_u128_mul(struct sb_u128 a, uint64_t b)
{
	struct sb_u128 r = sb_u128_mul64(a.lo, b);

	r.hi += a.hi * b;
	return r;
}

static inline int sb_u128_eq(struct sb_u128 a, struct sb_u128 b)
{
	return a.hi == b.hi && a.lo == b.lo;
}

/* Nearest double (hi * 2^64 correctly rounded, then + lo: exact to within
 * double's precision and the same on every IEEE-754 target). */
static inline double sb_u128_to_double(struct sb_u128 a)
{
	return (double)a.hi * 18446744073709551616.0 + (double)a.lo;
}

#endif
