/* Data the engine writes and checks: a fast PRNG for offsets and
 * incompressible buffers, and the per-block verify checksum. Header-only
 * (static inline): all of it sits in the I/O hot path. */
#ifndef SB_BENCH_DATA_H
#define SB_BENCH_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "util/u128.h"

#define VERIFY_MAGIC 0x73626e6368766679ULL /* "sbnchvfy" */

/* xoshiro256** (Blackman/Vigna): a few ns per 64 bits, good enough to
 * make data incompressible and offsets uniform. */
struct rng { uint64_t s[4]; };

static inline uint64_t sb_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s, res = sb_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
	s[2] ^= t; s[3] = sb_rotl(s[3], 45);
	return res;
}

static inline void rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	/* splitmix64 to spread the seed over the state */
	for (i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);

		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
		r->s[i] = z ^ (z >> 31);
	}
}

/* Uniform in [0, n) without a division (Lemire's multiply-high). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return sb_mulhi64(rng_next(r), n);
}

/* A random order of [0, n) that needs no table (a table of n offsets is
 * 8 bytes per block: 4 GiB for a 2 TiB region of 4 KiB blocks, and wraps
 * size_t on 32-bit): a keyed bijection of k-bit numbers (2^k >= n: add,
 * odd multiply and xor-shift, each invertible mod 2^k), cycle-walked until
 * it lands inside [0, n). The walk from a value in [0, n) returns to
 * [0, n) before its cycle closes, so each index maps to a distinct block;
 * as 2^k < 2n, fewer than two steps on average. */
struct perm { uint64_t n, mask, add, mul1, mul2; unsigned shift; };

static inline void perm_init(struct perm *p, uint64_t n, struct rng *r)
{
	unsigned k = 0;

	while (k < 64 && (k == 0 ? 1ULL : 1ULL << k) < n)
		k++;
	p->n = n;
	p->mask = k >= 64 ? UINT64_MAX : (1ULL << k) - 1;
	p->shift = k / 2 + 1;
	p->add = rng_next(r);
	p->mul1 = rng_next(r) | 1;
	p->mul2 = rng_next(r) | 1;
}

static inline uint64_t perm_step(const struct perm *p, uint64_t x)
{
	x = (x + p->add) & p->mask;
	x = (x * p->mul1) & p->mask;
	x ^= x >> p->shift;
	x = (x * p->mul2) & p->mask;
	x ^= x >> p->shift;
	return x;
}

/* The i-th block of the order, i < n. */
static inline uint64_t perm_at(const struct perm *p, uint64_t i)
{
	do
		i = perm_step(p, i);
	while (i >= p->n);
	return i;
}

static inline void fill_random(struct rng *r, void *buf, size_t len)
{
	uint64_t *p = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		p[i] = rng_next(r);
}

static inline uint64_t block_sum(const void *buf, size_t len, uint64_t off, uint64_t seed)
{
	const uint64_t *p = buf;
	uint64_t a = off ^ 0x243F6A8885A308D3ULL, b = seed ^ 0x13198A2E03707344ULL;
	size_t i;

	/* two independent lanes so the multiplies overlap; skip word 3 (the sum) */
	for (i = 0; i + 1 < len / 8; i += 2) {
		a = (a ^ p[i]) * 0x9E3779B97F4A7C15ULL;
		a ^= a >> 29;
		b = (b ^ (i + 1 == 3 ? 0 : p[i + 1])) * 0xC2B2AE3D27D4EB4FULL;
		b ^= b >> 31;
	}
	return a ^ sb_rotl(b, 17);
}

#endif
