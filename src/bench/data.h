/* Data the engine writes and checks: a fast PRNG for offsets and
 * incompressible buffers, and the per-block verify checksum. Header-only
 * (static inline): all of it sits in the I/O hot path. */
#ifndef SB_BENCH_DATA_H
#define SB_BENCH_DATA_H

#include <stddef.h>
#include <stdint.h>

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
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
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
