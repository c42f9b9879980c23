#include "bench/fioverify.h"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>
#include <zlib.h>

#ifdef SB_HAVE_ISAL
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#endif
#ifdef SB_HAVE_XXHASH
#include <xxhash.h>
#endif

/* fio's names, in the order of its enum; why: the reason a type is refused */
static const struct {
	const char *name;
	unsigned csum;     /* checksum header bytes (fio's vhdr_*) */
	const char *why;
} types[SB_FV_NTYPES] = {
	[SB_FV_NONE] = { "0", 0, NULL },
	[SB_FV_META] = { "meta", 0, NULL },
	[SB_FV_MD5] = { "md5", 16, NULL },
	[SB_FV_CRC64] = { "crc64", 8, NULL },
	[SB_FV_CRC32] = { "crc32", 4, NULL },
	[SB_FV_CRC32C] = { "crc32c", 4, NULL },
	[SB_FV_CRC32C_INTEL] = { "crc32c-intel", 4, NULL },
	[SB_FV_CRC16] = { "crc16", 2, "fio's crc16 (polynomial 0x8005) is in no Debian library" },
	[SB_FV_CRC7] = { "crc7", 1, "fio's crc7 (the MMC one) is in no Debian library" },
	[SB_FV_SHA256] = { "sha256", 64, "fio 3.33's sha256 appends the length little-endian and keeps "
					 "one byte of each state word: it is not SHA-256, no library computes it" },
	[SB_FV_SHA512] = { "sha512", 128, "fio 3.33's sha512 is never finished (no padding): it is not "
					  "SHA-512, no library computes it" },
	[SB_FV_SHA3_224] = { "sha3-224", 28, NULL },
	[SB_FV_SHA3_256] = { "sha3-256", 32, NULL },
	[SB_FV_SHA3_384] = { "sha3-384", 48, NULL },
	[SB_FV_SHA3_512] = { "sha3-512", 64, NULL },
	[SB_FV_XXHASH] = { "xxhash", 4, NULL },
	[SB_FV_SHA1] = { "sha1", 20, NULL },
	[SB_FV_PATTERN] = { "pattern", 0, NULL },   /* verify_pattern alone: headers + pattern */
	[SB_FV_PATTERN_NO_HDR] = { "pattern", 0, NULL },
	[SB_FV_NULL] = { "null", 0, NULL },
};

const char *sb_fv_name(unsigned type)
{
	return type < SB_FV_NTYPES ? types[type].name : "?";
}

static const char *missing_lib(unsigned t)
{
#ifndef SB_HAVE_ISAL
	if (t != SB_FV_NONE && t != SB_FV_NULL && t != SB_FV_PATTERN_NO_HDR)
		return "this build has no ISA-L (libisal), which computes fio's crc32c (every header's checksum)";
#endif
#ifndef SB_HAVE_XXHASH
	if (t == SB_FV_XXHASH)
		return "this build has no libxxhash";
#endif
	(void)t;
	return NULL;
}

int sb_fv_parse_type(const char *name, unsigned *type, const char **why)
{
	unsigned t;

	for (t = 0; t < SB_FV_NTYPES; t++) {
		if (t == SB_FV_PATTERN || strcmp(name, types[t].name))
			continue;
		*why = types[t].why ? types[t].why : missing_lib(t);
		*type = t;
		return *why ? -ENOTSUP : 0;
	}
	*why = NULL;
	return -EINVAL;
}

unsigned sb_fv_hdr_size(unsigned type)
{
	if (type == SB_FV_PATTERN_NO_HDR || type >= SB_FV_NTYPES)
		return 0;
	return SB_FV_HDR_LEN + types[type].csum;
}

uint32_t sb_fv_crc32c(const void *p, size_t len)
{
#ifdef SB_HAVE_ISAL
	/* fio's crc32c: reflected Castagnoli, initial ~0, no final inversion */
	return crc32_iscsi((unsigned char *)p, (int)len, 0xffffffffu);
#else
	(void)p;
	(void)len;
	return 0;  /* unreachable: every type that needs it is refused (missing_lib) */
#endif
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

void sb_fv_hdr_encode(const struct sb_fv_hdr *h, uint8_t *out)
{
	put16(out, h->magic);
	put16(out + 2, h->type);
	put32(out + 4, h->len);
	put64(out + 8, h->rand_seed);
	put64(out + 16, h->offset);
	put32(out + 24, h->time_sec);
	put32(out + 28, h->time_nsec);
	put16(out + 32, h->thread);
	put16(out + 34, h->numberio);
	put32(out + 36, h->crc32);
}

void sb_fv_hdr_decode(const uint8_t *in, struct sb_fv_hdr *h)
{
	h->magic = get16(in);
	h->type = get16(in + 2);
	h->len = get32(in + 4);
	h->rand_seed = get64(in + 8);
	h->offset = get64(in + 16);
	h->time_sec = get32(in + 24);
	h->time_nsec = get32(in + 28);
	h->thread = get16(in + 32);
	h->numberio = get16(in + 34);
	h->crc32 = get32(in + 36);
}

/* fio's configure: CONFIG_SEED_BUCKETS, 4 unless --seed-buckets (Debian's) */
#define SEED_BUCKETS 4

/* fio's __hash_u64 (the golden-ratio hash of lib/hash.h) */
static uint64_t hash_u64(uint64_t v)
{
	return v * 0x61C8864680B583EBULL;  /* GOLDEN_RATIO_64 */
}

void sb_fv_fill_random(void *buf, size_t len, uint64_t seed)
{
	static const uint64_t prime[SEED_BUCKETS] = { 1, 2, 3, 5 };
	uint64_t s[SEED_BUCKETS], *b = buf;
	size_t words = len / 8 / SEED_BUCKETS * SEED_BUCKETS, i, rest;
	unsigned p;

	for (p = 0; p < SEED_BUCKETS; p++)
		s[p] = seed * prime[p];
	for (i = 0; i < words; i += SEED_BUCKETS)
		for (p = 0; p < SEED_BUCKETS; p++) {
			b[i + p] = s[p];
			s[p] = hash_u64(s[p]);
		}
	/* __fill_random_buf_small for the rest, from the first bucket's seed */
	seed = s[0];
	rest = len - words * 8;
	for (i = 0; i + 8 <= rest; i += 8) {
		memcpy((char *)buf + words * 8 + i, &seed, 8);
		seed = hash_u64(seed);
	}
	if (rest % 8)
		memcpy((char *)buf + words * 8 + i, &seed, rest % 8);
}

static void evp(const EVP_MD *md, const void *p, size_t len, uint8_t *out)
{
	unsigned n = 0;

	EVP_Digest(p, len, out, &n, md, NULL);
}

/* The checksum header of type t over data p..p+len, as fio's fill_* writes it. */
static void csum(unsigned t, const uint8_t *p, size_t len, uint8_t *out)
{
	uint8_t d[64];
	unsigned i;

	switch (t) {
	case SB_FV_MD5:
		evp(EVP_md5(), p, len, out);  /* fio's words are MD5's little-endian ones */
		break;
	case SB_FV_SHA1:
		/* fio keeps SHA-1's five state words in host order */
		evp(EVP_sha1(), p, len, d);
		for (i = 0; i < 5; i++)
			put32(out + 4 * i, (uint32_t)d[4 * i] << 24 | (uint32_t)d[4 * i + 1] << 16 |
					   (uint32_t)d[4 * i + 2] << 8 | d[4 * i + 3]);
		break;
	case SB_FV_SHA3_224: evp(EVP_sha3_224(), p, len, out); break;
	case SB_FV_SHA3_256: evp(EVP_sha3_256(), p, len, out); break;
	case SB_FV_SHA3_384: evp(EVP_sha3_384(), p, len, out); break;
	case SB_FV_SHA3_512: evp(EVP_sha3_512(), p, len, out); break;
#ifdef SB_HAVE_ISAL
	case SB_FV_CRC32C:
	case SB_FV_CRC32C_INTEL:
		put32(out, sb_fv_crc32c(p, len));
		break;
	case SB_FV_CRC32:
		/* fio's crc32: normal (MSB-first) 0x04C11DB7, initial 0, no inversion */
		put32(out, ~crc32_ieee(0xffffffffu, (unsigned char *)p, len));
		break;
	case SB_FV_CRC64:
		/* fio's crc64: reflected Jones (0x95AC9329AC4BC9B5), initial 0, no inversion */
		put64(out, ~crc64_jones_refl(~0ULL, p, len));
		break;
#endif
#ifdef SB_HAVE_XXHASH
	case SB_FV_XXHASH:
		put32(out, XXH32(p, len, 1));
		break;
#endif
	default:
		break;
	}
}

static unsigned interval_of(const struct sb_fv_opts *o, uint32_t buflen)
{
	return o->interval && o->interval <= buflen ? o->interval : buflen;
}

/* Exchange the header with the bytes at verify_offset (fio's memswp). */
static void swap_hdr(uint8_t *p, uint32_t at, unsigned n)
{
	uint8_t t[SB_FV_HDR_LEN + 128];

	memcpy(t, p, n);
	memcpy(p, p + at, n);
	memcpy(p + at, t, n);
}

static void fill_pattern(const struct sb_fv_opts *o, uint8_t *p, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = o->pattern[i % o->pattern_len];
}

void sb_fv_fill(const struct sb_fv_opts *o, void *buf, uint32_t buflen, uint64_t off, uint64_t seed,
		uint16_t thread, uint16_t numberio, uint64_t now_ns)
{
	unsigned inc = interval_of(o, buflen), hs = sb_fv_hdr_size(o->type), n;
	uint8_t *p = buf;

	if (o->type == SB_FV_NULL)
		return;
	if (o->pattern_len) {
		fill_pattern(o, p, buflen);
		seed = 0;   /* fio's io_u->rand_seed stays as it was: 0 for a fresh io */
	} else {
		sb_fv_fill_random(p, buflen, seed);
	}
	if (o->type == SB_FV_PATTERN_NO_HDR)
		return;
	for (n = 0; n * inc < buflen; n++) {
		uint8_t *h = p + (size_t)n * inc;
		struct sb_fv_hdr hd = {
			.magic = SB_FV_MAGIC, .type = o->type, .len = inc, .rand_seed = seed,
			.offset = off + (uint64_t)n * o->interval,
			.time_sec = (uint32_t)(now_ns / 1000000000ULL), .time_nsec = (uint32_t)(now_ns % 1000000000ULL),
			.thread = thread, .numberio = numberio,
		};

		sb_fv_hdr_encode(&hd, h);
		hd.crc32 = sb_fv_crc32c(h, 36);
		put32(h + 36, hd.crc32);
		csum(o->type, h + hs, inc - hs, h + SB_FV_HDR_LEN);
		if (o->offset)
			swap_hdr(h, o->offset, hs);
	}
}

static int fail_at(struct sb_fv_fail *f, uint64_t off, uint32_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#include <stdarg.h>
static int fail_at(struct sb_fv_fail *f, uint64_t off, uint32_t len, const char *fmt, ...)
{
	va_list ap;

	f->offset = off;
	f->len = len;
	va_start(ap, fmt);
	vsnprintf(f->what, sizeof(f->what), fmt, ap);
	va_end(ap);
	return -EILSEQ;
}

/* fio's verify_header: magic, length, seed, offset, numberio, crc32c */
static int check_hdr(const struct sb_fv_opts *o, const uint8_t *h, const struct sb_fv_hdr *hd, unsigned inc,
		     uint64_t want_off, const struct sb_fv_expect *exp, struct sb_fv_fail *f)
{
	uint32_t crc = sb_fv_crc32c(h, 36);

	if (hd->magic != SB_FV_MAGIC)
		return fail_at(f, want_off, inc, "bad magic header %x, wanted %x", hd->magic, SB_FV_MAGIC);
	if (hd->len != inc)
		return fail_at(f, want_off, inc, "bad header length %u, wanted %u", hd->len, inc);
	if (exp && exp->seed_set && hd->rand_seed != exp->rand_seed)
		return fail_at(f, want_off, inc, "bad header rand_seed %llu, wanted %llu",
			       (unsigned long long)hd->rand_seed, (unsigned long long)exp->rand_seed);
	if (hd->offset != want_off)
		return fail_at(f, want_off, inc, "bad header offset %llu, wanted %llu",
			       (unsigned long long)hd->offset, (unsigned long long)want_off);
	if (exp && exp->numberio_set && hd->numberio != exp->numberio)
		return fail_at(f, want_off, inc, "bad header numberio %u, wanted %u", hd->numberio, exp->numberio);
	if (crc != hd->crc32)
		return fail_at(f, want_off, inc, "bad header crc %x, calculated %x", hd->crc32, crc);
	(void)o;
	return 0;
}

static int check_pattern(const struct sb_fv_opts *o, const uint8_t *p, unsigned hs, unsigned inc, unsigned n,
			 uint64_t at, struct sb_fv_fail *f)
{
	unsigned mod = (inc * n + hs) % o->pattern_len, i;

	for (i = 0; i < inc - hs; i++) {
		if (p[hs + i] != o->pattern[mod])
			return fail_at(f, at, inc, "pattern: got %02x, wanted %02x at byte %u of the block",
				       p[hs + i], o->pattern[mod], i);
		if (++mod == o->pattern_len)
			mod = 0;
	}
	return 0;
}

int sb_fv_check(const struct sb_fv_opts *o, void *buf, uint32_t buflen, uint64_t off,
		const struct sb_fv_expect *exp, struct sb_fv_fail *fail)
{
	unsigned inc = interval_of(o, buflen), hs = sb_fv_hdr_size(o->type), n, t;
	uint8_t *p = buf, sum[128];
	int rc = 0;

	if (o->type == SB_FV_NULL)
		return 0;
	for (n = 0; n * inc < buflen; n++) {
		uint8_t *h = p + (size_t)n * inc;
		uint64_t at = off + (uint64_t)n * inc;
		struct sb_fv_hdr hd;

		if (rc && o->fatal)
			break;
		if (o->offset)
			swap_hdr(h, o->offset, hs);
		if (o->type == SB_FV_PATTERN_NO_HDR) {
			if (check_pattern(o, h - (size_t)n * inc, 0, buflen, 0, off, fail) < 0)
				return -EILSEQ;
			return 0;
		}
		sb_fv_hdr_decode(h, &hd);
		if (check_hdr(o, h, &hd, inc, off + (uint64_t)n * o->interval, exp, fail) < 0)
			return -EILSEQ;
		t = o->type != SB_FV_NONE ? o->type : hd.type;
		if (t == SB_FV_META || t == SB_FV_PATTERN) {
			if (o->pattern_len && !rc && check_pattern(o, h, hs, inc, n, at, fail) < 0)
				rc = -EILSEQ;
			continue;
		}
		if (sb_fv_hdr_size(t) != hs || types[t].why || missing_lib(t)) {
			if (!rc)
				rc = fail_at(fail, at, inc, "verify type %u (%s) on the medium, %s given", hd.type,
					     sb_fv_name(hd.type), sb_fv_name(t));
			continue;
		}
		csum(t, h + hs, inc - hs, sum);
		if (memcmp(sum, h + SB_FV_HDR_LEN, types[t].csum) && !rc)
			rc = fail_at(fail, at, inc, "%s: verify failed (the data's checksum differs)", types[t].name);
	}
	return rc;
}
