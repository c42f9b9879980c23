/* fio's block size, offset and distribution options (bench/jobbs.c) and
 * the per-io generator (bench/dist.c): the parsers, and the statistics of
 * what the generator draws against fio's definitions, each expected value
 * computed here from the formula named beside it (not from stackbench). */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/dist.h"
#include "bench/job.h"

static int vparse(struct sb_job_opts *o, struct sb_err *err, va_list ap)
{
	char *argv[64];
	enum sb_output_format fmt;
	int argc = 0;
	const char *a;

	argv[argc++] = "job";
	argv[argc++] = "--target=x";
	while ((a = va_arg(ap, const char *)) && argc < 63)
		argv[argc++] = (char *)a;
	argv[argc] = NULL;
	sb_err_clear(err);
	return sb_job_parse_args(argc, argv, o, &fmt, err);
}

/* `job --target=x ARGS...` into o; fails the test on an error */
static void job(struct sb_job_opts *o, ...)
{
	struct sb_err err = { 0 };
	va_list ap;
	int r;

	va_start(ap, o);
	r = vparse(o, &err, ap);
	va_end(ap);
	if (r < 0)
		fail_msg("parse: %s", err.msg);
}

static void reject(const char *want, ...)
{
	struct sb_job_opts *o = malloc(sizeof(*o));
	struct sb_err err = { 0 };
	va_list ap;
	int r;

	assert_non_null(o);
	va_start(ap, want);
	r = vparse(o, &err, ap);
	va_end(ap);
	free(o);
	assert_int_equal(r, -EINVAL);
	if (!strstr(err.msg, want))
		fail_msg("message '%s' lacks '%s'", err.msg, want);
}

static struct sb_job_opts *new_opts(void)
{
	struct sb_job_opts *o = calloc(1, sizeof(*o));

	assert_non_null(o);
	return o;
}

/* HOWTO "blocksize": a value not ended by a comma applies to the
 * directions after it; an empty one keeps the default */
static void test_bs_per_direction(void **state)
{
	struct sb_job_opts *o = new_opts();

	(void)state;
	job(o, "--bs=8k,32k", NULL);
	assert_int_equal(o->bsd.min_bs[0], 8192);
	assert_int_equal(o->bsd.min_bs[1], 32768);
	assert_int_equal(o->bs, 32768); /* buffers hold the largest */
	assert_true(o->bsd.active);
	job(o, "--bs=,8k", NULL);
	assert_int_equal(o->bsd.min_bs[0], 4096);
	assert_int_equal(o->bsd.min_bs[1], 8192);
	job(o, "--bs=8k,32k,", NULL);
	assert_int_equal(o->bsd.max_bs[1], 32768);
	job(o, "--bs=256k", NULL);
	assert_int_equal(o->bsd.min_bs[0], 256 << 10);
	assert_int_equal(o->bsd.min_bs[1], 256 << 10);
	assert_false(o->bsd.active); /* one size: the engine's plain path */
	job(o, "--bsrange=4k-4k", NULL); /* tiobench-example.fio */
	assert_false(o->bsd.active);
	job(o, "--bsrange=1k-4k,2k-8k", NULL);
	assert_int_equal(o->bsd.min_bs[0], 1024);
	assert_int_equal(o->bsd.max_bs[0], 4096);
	assert_int_equal(o->bsd.min_bs[1], 2048);
	assert_int_equal(o->bsd.max_bs[1], 8192);
	job(o, "--blocksize_range=16k-4k", NULL); /* either order, as fio's ranges */
	assert_int_equal(o->bsd.min_bs[0], 4096);
	assert_int_equal(o->bsd.max_bs[0], 16384);
	/* blockalign is for random I/O (fio's fixup_options) */
	job(o, "--rw=randread", "--bsrange=512-64k", "--blockalign=4k", NULL);
	assert_int_equal(o->bsd.ba[0], 4096);
	job(o, "--rw=read", "--bsrange=512-64k", "--ba=4k", NULL);
	assert_int_equal(o->bsd.ba[0], 512);
	job(o, "--bsrange=1k-4k", "--bs_unaligned", NULL); /* a bare flag, as fio's bools */
	assert_true(o->bsd.unaligned);
	reject("more than 3", "--bs=1k,2k,3k,4k", NULL);
	reject("--bsrange: '4k' is not a range", "--bsrange=4k", NULL);
	free(o);
}

/* HOWTO "bssplit" and options.c bssplit_ddir: blank (or 0) shares split
 * what is left evenly, rounded down; sorted by share */
static void test_bssplit_parse(void **state)
{
	struct sb_job_opts *o = new_opts();

	(void)state;
	job(o, "--bssplit=4k/10:64k/50:32k/40", NULL);
	assert_int_equal(o->bsd.nsplit[0], 3);
	assert_int_equal(o->bsd.split[0][0].bs, 4096);
	assert_int_equal(o->bsd.split[0][0].perc, 10);
	assert_int_equal(o->bsd.split[0][1].bs, 32768);
	assert_int_equal(o->bsd.split[0][2].perc, 50);
	assert_int_equal(o->bsd.min_bs[1], 4096);
	assert_int_equal(o->bsd.max_bs[1], 65536);
	job(o, "--bssplit=4k/50:1k/:32k/", NULL); /* the HOWTO's: 25% 1k and 32k */
	assert_int_equal(o->bsd.split[0][0].perc, 25);
	assert_int_equal(o->bsd.split[0][1].perc, 25);
	assert_int_equal(o->bsd.split[0][2].bs, 4096);
	job(o, "--bssplit=4k/50:8k/0:16k/50", NULL); /* a 0% size: nothing left, never issued */
	assert_int_equal(o->bsd.split[0][0].bs, 8192);
	assert_int_equal(o->bsd.split[0][0].perc, 0);
	job(o, "--bssplit=2k/50:4k/50,8k/100", NULL);
	assert_int_equal(o->bsd.nsplit[0], 2);
	assert_int_equal(o->bsd.max_bs[0], 4096);
	assert_int_equal(o->bsd.nsplit[1], 1);
	assert_int_equal(o->bsd.min_bs[1], 8192);
	job(o, "--bssplit=512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10", NULL); /* iometer */
	assert_int_equal(o->bsd.nsplit[0], 8);
	assert_int_equal(o->bsd.min_bs[0], 512);
	reject("add to more than 100", "--bssplit=4k/80:8k/30:16k/", NULL);
	reject("not supported by stackbench job: --verify", "--bssplit=4k/50:8k/50", "--verify=1",
	       "--size=1m", NULL);
	free(o);
}

static void test_rw_postfix(void **state)
{
	struct sb_job_opts *o = new_opts();

	(void)state;
	job(o, "--rw=read:-8k", NULL); /* backwards-read.fio */
	assert_int_equal(o->rw, SB_RW_READ);
	assert_int_equal(o->bsd.seq_add, -8192);
	job(o, "--rw=write:112k", NULL); /* cross-stripe-verify.fio */
	assert_int_equal(o->bsd.seq_add, 112 << 10);
	job(o, "--rw=randread:8", "--rw_sequencer=identical", NULL);
	assert_int_equal(o->rw, SB_RW_RANDREAD);
	assert_int_equal(o->bsd.seq_nr, 8);
	assert_true(o->bsd.rw_seq_identical);
	job(o, "--rw=randread", NULL);
	assert_int_equal(o->bsd.seq_nr, 1);
	assert_false(o->bsd.active);
	reject("is not one of", "--rw=trim:4k", NULL);
	reject("--rw_sequencer: 'random'", "--rw_sequencer=random", NULL);
	free(o);
}

/* options.c str_random_distribution_cb: fio.h's defaults (zipf 1.1,
 * pareto 0.2), its ranges; zone_split_ddir: accesses add to 100 */
static void test_dist_parse(void **state)
{
	struct sb_job_opts *o = new_opts();

	(void)state;
	job(o, "--rw=randread", "--random_distribution=zipf", NULL);
	assert_int_equal(o->bsd.dist, SB_DIST_ZIPF);
	assert_true(o->bsd.dist_val == 1.1);
	assert_true(o->bsd.active);
	job(o, "--random_distribution=pareto:0.3:0.5", NULL);
	assert_true(o->bsd.dist_val == 0.3 && o->bsd.center == 0.5);
	job(o, "--random_distribution=normal:5", NULL);
	assert_int_equal(o->bsd.dist, SB_DIST_GAUSS);
	assert_true(o->bsd.dist_val == 5.0);
	job(o, "--random_distribution=zoned:50/5:30/15:20/", NULL); /* rand-zones.fio */
	assert_int_equal(o->bsd.nzone[0], 3);
	assert_int_equal(o->bsd.zone[0][2].size_perc, 80);
	assert_int_equal(o->bsd.zone[1][1].access, 30);
	job(o, "--random_distribution=zoned_abs:60/1m:40/3m", NULL);
	assert_int_equal(o->bsd.zone[0][1].size, 3 << 20);
	reject("zipf theta must differ from 1.0", "--random_distribution=zipf:1", NULL);
	reject("pareto input out of range", "--random_distribution=pareto:1.5", NULL);
	reject("normal deviation out of range", "--random_distribution=normal:100", NULL);
	reject("add to 90", "--random_distribution=zoned:60/10:30/20", NULL);
	reject("center", "--random_distribution=zipf:0.5:2", NULL);
	reject("not supported by stackbench job: --zonemode=zbd", "--zonemode=zbd", NULL);
	reject("lfsr", "--random_generator=mt", NULL);
	free(o);
}

/* ---- the statistics ---- */

static double uni(struct rng *r)
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

#define DRAWS 400000

/* zipf: P(rank k) = k^-theta / H(n, theta) (Zipf's law, as fio's
 * random_distribution=zipf:theta). The generator (Gray et al., fio's) is
 * exact for ranks 1 and 2 and approximate beyond: for theta > 1 it gives
 * the head about 2 points more than the law at n = 1000 (measured: top 1%
 * 0.589 against 0.569 at theta 1.2), hence 3 points of slack on the top
 * 1% and 10%. */
static void check_zipf(double theta)
{
	enum { N = 1000 };
	struct sb_zipf z;
	struct rng r;
	uint64_t *hits = calloc(N, sizeof(*hits)), i, top1 = 0, top10 = 0;
	double h = 0, h1 = 0, h10 = 0;

	assert_non_null(hits);
	rng_seed(&r, 42);
	sb_zipf_init(&z, N, theta, 0, false);
	for (i = 0; i < DRAWS; i++)
		hits[sb_zipf_next(&z, uni(&r))]++;
	for (i = 1; i <= N; i++) {
		double p = pow((double)i, -theta);

		h += p;
		h1 += i <= N / 100 ? p : 0;
		h10 += i <= N / 10 ? p : 0;
	}
	for (i = 0; i < N; i++) {
		top1 += i < N / 100 ? hits[i] : 0;
		top10 += i < N / 10 ? hits[i] : 0;
	}
	assert_true(fabs((double)hits[0] / DRAWS - 1.0 / h) < 0.005);
	assert_true(fabs((double)hits[1] / DRAWS - pow(2.0, -theta) / h) < 0.005);
	if (fabs((double)top1 / DRAWS - h1 / h) > 0.03 || fabs((double)top10 / DRAWS - h10 / h) > 0.03)
		fail_msg("zipf:%.2f: top 1%% %.4f (Zipf's law %.4f), top 10%% %.4f (%.4f)", theta,
			 (double)top1 / DRAWS, h1 / h, (double)top10 / DRAWS, h10 / h);
	free(hits);
}

static void test_zipf_shares(void **state)
{
	(void)state;
	check_zipf(0.5);  /* zipf.fio */
	check_zipf(1.2);
}

/* pareto:h: rank = (n-1) u^(log h / log(1-h)), so the lowest fraction x
 * of the ranges gets x^(log(1-h)/log h) of the hits; at x = h that is
 * 1 - h (the 80/20 rule for fio's default h = 0.2) */
static void test_pareto_shares(void **state)
{
	enum { N = 1000 };
	struct sb_zipf z;
	struct rng r;
	double hs[] = { 0.2, 0.3 };
	unsigned k;

	(void)state;
	for (k = 0; k < 2; k++) {
		uint64_t low = 0, i, cut = (uint64_t)(hs[k] * (N - 1));

		rng_seed(&r, 7);
		sb_pareto_init(&z, N, hs[k], 0, false);
		for (i = 0; i < DRAWS; i++)
			low += sb_pareto_next(&z, uni(&r)) < cut;
		if (fabs((double)low / DRAWS - (1.0 - hs[k])) > 0.01)
			fail_msg("pareto:%.1f: %.4f of hits in the lowest %.0f%% (expected %.4f)", hs[k],
				 (double)low / DRAWS, hs[k] * 100, 1.0 - hs[k]);
	}
}

/* normal:sigma (lib/gauss.c's construction): the mean of 12 uniform draws
 * on [0, n] (Irwin-Hall: mean n/2, sd n/12), moved by a uniform deviation
 * of width w = ceil(n sigma / 100) (sd w / sqrt(12)) */
static void test_gauss_moments(void **state)
{
	enum { N = 1200 };
	struct sb_gauss g;
	struct rng r;
	double sig[] = { 0, 10 };
	unsigned k;

	(void)state;
	for (k = 0; k < 2; k++) {
		double s = 0, ss = 0, mean, sd, w = ceil(N * sig[k] / 100.0);
		double want = sqrt((double)N * N / 144.0 + w * w / 12.0);
		uint64_t i;

		rng_seed(&r, 3);
		sb_gauss_init(&g, N, sig[k], 0, false);
		for (i = 0; i < DRAWS; i++) {
			double v = (double)sb_gauss_next(&g, &r);

			s += v;
			ss += v * v;
		}
		mean = s / DRAWS;
		sd = sqrt(ss / DRAWS - mean * mean);
		if (fabs(mean - N / 2.0) > 2 || fabs(sd - want) > 0.02 * want)
			fail_msg("normal:%.0f: mean %.1f (want %.1f), sd %.2f (want %.2f)", sig[k], mean,
				 N / 2.0, sd, want);
	}
}

/* the generator over a region: ios (offset, length) of one pass */
struct trace {
	uint64_t n, bytes, off[1 << 16], len[1 << 16];
};

static void run_gen_budget(struct sb_job_opts *o, uint64_t region, uint64_t budget, int dir, struct trace *t)
{
	struct sb_bsgen g;
	struct sb_err err = { 0 };
	struct rng r;
	uint64_t off, len;

	rng_seed(&r, 11);
	if (sb_bsgen_init(&g, &o->bsd, region, o->offset != 0, o->randommap, budget, &r, &err) < 0)
		fail_msg("init: %s", err.msg);
	t->n = t->bytes = 0;
	while (t->n < (1 << 16) && sb_bsgen_next(&g, dir, sb_rw_random(o->rw), &off, &len)) {
		assert_true(off + len <= region);
		t->off[t->n] = off;
		t->len[t->n++] = len;
		t->bytes += len;
	}
	sb_bsgen_free(&g);
}

static void run_gen(struct sb_job_opts *o, uint64_t region, int dir, struct trace *t)
{
	run_gen_budget(o, region, region, dir, t);
}

/* fio's random map with several sizes (mark_random_map shortens an io to
 * the free blocks): one pass covers the region once, nothing twice */
static void test_map_variable_sizes(void **state)
{
	struct sb_job_opts *o = new_opts();
	struct trace *t = malloc(sizeof(*t));
	uint8_t seen[1024] = { 0 };
	uint64_t i, b;

	(void)state;
	assert_non_null(t);
	job(o, "--rw=randwrite", "--bssplit=4k/50:16k/30:64k/20", NULL);
	run_gen(o, 4 << 20, SB_DIR_WRITE, t);
	assert_int_equal(t->bytes, 4 << 20);
	for (i = 0; i < t->n; i++)
		for (b = t->off[i] / 4096; b < (t->off[i] + t->len[i]) / 4096; b++) {
			assert_int_equal(seen[b], 0);
			seen[b] = 1;
		}
	/* loops=3: the map starts over for each loop (fio resets it) */
	uint8_t times[1024] = { 0 };

	run_gen_budget(o, 4 << 20, 3 << 22, SB_DIR_WRITE, t);
	assert_int_equal(t->bytes, 3 << 22);
	for (i = 0; i < t->n; i++)
		for (b = t->off[i] / 4096; b < (t->off[i] + t->len[i]) / 4096; b++)
			times[b]++;
	for (b = 0; b < 1024; b++)
		assert_int_equal(times[b], 3);
	/* lfsr: every block once without a map */
	job(o, "--rw=randread", "--random_generator=lfsr", "--norandommap", NULL);
	run_gen(o, 4 << 20, SB_DIR_READ, t);
	assert_int_equal(t->n, 1024);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < t->n; i++) {
		assert_int_equal(seen[t->off[i] / 4096], 0);
		seen[t->off[i] / 4096] = 1;
	}
	free(t);
	free(o);
}

/* io_u.c get_next_buflen: bssplit picks by share (sizes over a large
 * region, no map to shorten them); bsrange = min + max u, aligned down to
 * min, capped at max: 1k-4k gives 1k, 2k, 3k, 4k a quarter each */
static void test_size_shares(void **state)
{
	struct sb_job_opts *o = new_opts();
	struct trace *t = malloc(sizeof(*t));
	uint64_t c[5] = { 0 }, i;

	(void)state;
	assert_non_null(t);
	job(o, "--rw=randread", "--norandommap", "--bssplit=4k/10:64k/50:32k/40:8k/0", NULL);
	run_gen(o, 1ULL << 40, SB_DIR_READ, t);
	for (i = 0; i < t->n; i++)
		c[t->len[i] == 4096 ? 0 : t->len[i] == 32768 ? 1 : t->len[i] == 65536 ? 2 : 3]++;
	assert_int_equal(c[3], 0); /* 8k/0: nothing left for it */
	assert_true(fabs((double)c[0] / (double)t->n - 0.10) < 0.01);
	assert_true(fabs((double)c[1] / (double)t->n - 0.40) < 0.01);
	assert_true(fabs((double)c[2] / (double)t->n - 0.50) < 0.01);
	memset(c, 0, sizeof(c));
	job(o, "--rw=randread", "--norandommap", "--bsrange=1k-4k", NULL);
	run_gen(o, 1ULL << 40, SB_DIR_READ, t);
	for (i = 0; i < t->n; i++) {
		assert_true(t->len[i] % 1024 == 0 && t->len[i] >= 1024 && t->len[i] <= 4096);
		c[t->len[i] / 1024]++;
	}
	for (i = 1; i <= 4; i++)
		assert_true(fabs((double)c[i] / (double)t->n - 0.25) < 0.01);
	free(t);
	free(o);
}

/* zoned:50/5:30/15:20/ (rand-zones.fio): half the ios in the first 5% of
 * the region, 30% in the next 15%, 20% in the rest (HOWTO) */
static void test_zoned_shares(void **state)
{
	struct sb_job_opts *o = new_opts();
	struct trace *t = malloc(sizeof(*t));
	uint64_t c[3] = { 0 }, i, region = 1ULL << 32;

	(void)state;
	assert_non_null(t);
	job(o, "--rw=randread", "--norandommap", "--random_distribution=zoned:50/5:30/15:20/", NULL);
	run_gen(o, region, SB_DIR_READ, t);
	for (i = 0; i < t->n; i++)
		c[t->off[i] < region / 20 ? 0 : t->off[i] < region / 5 ? 1 : 2]++;
	assert_true(fabs((double)c[0] / (double)t->n - 0.5) < 0.01);
	assert_true(fabs((double)c[1] / (double)t->n - 0.3) < 0.01);
	assert_true(fabs((double)c[2] / (double)t->n - 0.2) < 0.01);
	job(o, "--rw=randread", "--norandommap", "--random_distribution=zoned_abs:60/1m:40/3m", NULL);
	run_gen(o, region, SB_DIR_READ, t);
	memset(c, 0, sizeof(c));
	for (i = 0; i < t->n; i++)
		c[t->off[i] < (1 << 20) ? 0 : t->off[i] < (4 << 20) ? 1 : 2]++;
	assert_int_equal(c[2], 0);
	assert_true(fabs((double)c[0] / (double)t->n - 0.6) < 0.01);
	free(t);
	free(o);
}

/* io_u.c get_next_seq_offset and get_next_offset, checked against fio 3.33
 * on a 4 MiB file: rw=read:8k bs=4k issues 342 ios (fio reads 1400832
 * bytes); rw=read:-8k goes 0, then from the end backwards 4k at a time */
static void test_seq_skips(void **state)
{
	struct sb_job_opts *o = new_opts();
	struct trace *t = malloc(sizeof(*t));
	uint64_t i;

	(void)state;
	assert_non_null(t);
	job(o, "--rw=read:8k", NULL);
	run_gen(o, 4 << 20, SB_DIR_READ, t);
	assert_int_equal(t->n, 342);
	assert_int_equal(t->bytes, 1400832);
	assert_int_equal(t->off[1], 12288);
	job(o, "--rw=read:-8k", NULL);
	run_gen(o, 4 << 20, SB_DIR_READ, t);
	assert_int_equal(t->n, 1024);
	assert_int_equal(t->off[0], 0);
	assert_int_equal(t->off[1], (4 << 20) - 8192);
	assert_int_equal(t->off[2], (4 << 20) - 12288);
	/* randread:4: each random offset followed by 3 sequential ios, the
	 * first io random (fio's init.c starts the count at 1; fio 3.33 on a
	 * 4 MiB file: 61440, 65536, 69632, 73728, 774144, ...); identical: the
	 * same offset again */
	job(o, "--rw=randread:4", "--norandommap", NULL);
	run_gen(o, 64 << 20, SB_DIR_READ, t);
	for (i = 0; i + 3 < 64; i += 4) {
		assert_int_equal(t->off[i + 1], t->off[i] + 4096);
		assert_int_equal(t->off[i + 3], t->off[i] + 12288);
	}
	assert_true(t->off[0] != t->off[4] - 16384);
	job(o, "--rw=randread:4", "--rw_sequencer=identical", "--norandommap", NULL);
	run_gen(o, 64 << 20, SB_DIR_READ, t);
	for (i = 0; i + 3 < 64; i += 4)
		assert_true(t->off[i + 1] == t->off[i] && t->off[i + 3] == t->off[i]);
	assert_true(t->off[0] != t->off[4]);
	/* zonemode=strided: 64k of I/O, then 64k + 192k further */
	job(o, "--rw=read", "--zonemode=strided", "--zonesize=64k", "--zoneskip=192k", NULL);
	run_gen(o, 1 << 20, SB_DIR_READ, t);
	assert_int_equal(t->off[15], 61440);
	assert_int_equal(t->off[16], 256 << 10);
	assert_int_equal(t->off[32], 512 << 10);
	free(t);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bs_per_direction),
		cmocka_unit_test(test_bssplit_parse),
		cmocka_unit_test(test_rw_postfix),
		cmocka_unit_test(test_dist_parse),
		cmocka_unit_test(test_zipf_shares),
		cmocka_unit_test(test_pareto_shares),
		cmocka_unit_test(test_gauss_moments),
		cmocka_unit_test(test_map_variable_sizes),
		cmocka_unit_test(test_size_shares),
		cmocka_unit_test(test_zoned_shares),
		cmocka_unit_test(test_seq_skips),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
