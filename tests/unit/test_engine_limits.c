/* What the engine holds in memory: the verify order is a permutation with
 * no table (every block exactly once, at any region size), and the I/O
 * buffers (bs x iodepth x numjobs) are refused when the address space
 * cannot map them. The same tests run on amd64, armhf and arm64. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/data.h"
#include "bench/engine.h"

/* perm_at is a bijection on [0, n), and not the identity */
static void check_perm(uint64_t n, uint64_t seed)
{
	struct rng r;
	struct perm p;
	unsigned char *seen = calloc((size_t)(n + 7) / 8, 1);
	uint64_t i, moved = 0;

	assert_non_null(seen);
	rng_seed(&r, seed);
	perm_init(&p, n, &r);
	for (i = 0; i < n; i++) {
		uint64_t b = perm_at(&p, i);

		assert_true(b < n);
		assert_false(seen[b / 8] & (1u << (b % 8)));
		seen[b / 8] |= (unsigned char)(1u << (b % 8));
		moved += b != i;
	}
	if (n > 16)
		assert_true(moved > n / 2);
	free(seen);
}

static void test_perm_bijection(void **state)
{
	static const uint64_t ns[] = { 1, 2, 3, 5, 64, 1000, 4097, 65537, 1000003, (1 << 22) + 3 };

	for (unsigned i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		check_perm(ns[i], 7 + i);
}

/* 2 TiB of 4 KiB blocks (2^29) and 4 TB of 512-byte blocks: no table, so
 * nothing to allocate; the order stays inside the region and is spread */
static void test_perm_huge(void **state)
{
	static const uint64_t ns[] = { 1ULL << 29, 4000000000000ULL / 512, UINT64_MAX / 4096 };
	struct rng r;
	struct perm p;

	rng_seed(&r, 1);
	for (unsigned i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		uint64_t hi = 0, prev = UINT64_MAX;

		perm_init(&p, ns[i], &r);
		for (uint64_t j = 0; j < 100000; j++) {
			uint64_t b = perm_at(&p, j);

			assert_true(b < ns[i]);
			assert_true(b != prev);
			prev = b;
			if (b > hi)
				hi = b;
		}
		assert_true(hi > ns[i] / 2);
	}
}

static void opts(struct sb_job_opts *o, uint64_t bs, unsigned iodepth, unsigned numjobs)
{
	sb_job_opts_init(o);
	o->bs = bs;
	o->iodepth = iodepth;
	o->numjobs = numjobs;
}

/* 64 MiB x 65 on 32-bit was mapped as 64 MiB (the length wrapped) and the
 * fill wrote past it; 64 MiB x 64 = 4 GiB wrapped to 0 */
static void test_buffer_limits(void **state)
{
	struct sb_job_opts o;
	struct sb_err e = { 0 };
	const uint64_t as32 = 1ULL << 32, as64 = UINT64_MAX;

	opts(&o, 64 << 20, 65, 1);
	assert_int_equal(sb_engine_check_memory(&o, as32, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "--iodepth 65"));
	assert_int_equal(sb_engine_check_memory(&o, as64, &e), 0);
	opts(&o, 64 << 20, 64, 1);
	assert_int_equal(sb_engine_check_memory(&o, as32, &e), -EINVAL);
	opts(&o, 64 << 20, 32, 1);
	assert_int_equal(sb_engine_check_memory(&o, as32, &e), 0);          /* exactly 2 GiB */
	opts(&o, 64 << 20, 32, 2);
	assert_int_equal(sb_engine_check_memory(&o, as32, &e), -EINVAL);    /* per thread, x2 */
	opts(&o, (64 << 20) + 1, 32, 1);
	assert_int_equal(sb_engine_check_memory(&o, as32, &e), -EINVAL);    /* rounded up to 4 KiB */
	opts(&o, UINT64_MAX - 100, 1024, 1);
	assert_int_equal(sb_engine_check_memory(&o, as64, &e), -EINVAL);    /* no wrap at 2^64 */
	opts(&o, 4096, 1, 1);
	assert_int_equal(sb_engine_check_memory(&o, as32, &e), 0);
	/* this build: what sb_engine_run applies */
	opts(&o, 64 << 20, 65, 1);
	assert_int_equal(sb_engine_check_memory(&o, SIZE_MAX, &e), sizeof(void *) == 4 ? -EINVAL : 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perm_bijection),
		cmocka_unit_test(test_perm_huge),
		cmocka_unit_test(test_buffer_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
