/* fio 3.33's block verification, byte for byte (verify.c, verify.h): the
 * 40-byte struct verify_header at the start of every verify_interval, the
 * checksum header after it, fio's data fill; encode, decode and check.
 * Checksums through libraries: OpenSSL's EVP (md5, sha1, sha256, sha3-*),
 * ISA-L (crc32c, crc32, crc64: fio's variants are the libraries' with the
 * inversions undone), libxxhash (XXH32, seed 1). fio's crc16 and crc7 have
 * no library with its polynomial, and its sha512 stores an unfinished
 * state: those stay refused by name. Used by jobverify.c (options) and
 * verifyio.c (the engine's hooks). */
#ifndef SB_BENCH_FIOVERIFY_H
#define SB_BENCH_FIOVERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_FV_MAGIC 0xacca
#define SB_FV_HDR_LEN 40     /* sizeof(struct verify_header) */
#define SB_FV_PATTERN_MAX 512 /* fio's MAX_PATTERN_SIZE */

/* fio's enum of verify types: the value is verify_type on disk */
enum sb_fv_type {
	SB_FV_NONE, SB_FV_META, SB_FV_MD5, SB_FV_CRC64, SB_FV_CRC32, SB_FV_CRC32C, SB_FV_CRC32C_INTEL,
	SB_FV_CRC16, SB_FV_CRC7, SB_FV_SHA256, SB_FV_SHA512, SB_FV_SHA3_224, SB_FV_SHA3_256,
	SB_FV_SHA3_384, SB_FV_SHA3_512, SB_FV_XXHASH, SB_FV_SHA1, SB_FV_PATTERN, SB_FV_PATTERN_NO_HDR,
	SB_FV_NULL, SB_FV_NTYPES
};

/* The VERIFY family of `stackbench job` options (fio's names), in
 * struct sb_job_opts as .fv */
struct sb_fv_opts {
	uint8_t type;                 /* enum sb_fv_type; NONE: fio's verify=0 */
	bool type_set;                /* verify= given (verify_pattern then keeps it) */
	bool no_verify;               /* do_verify=0 (fio's default 1) */
	bool fatal, dump, only, experimental;
	bool create_serialize;        /* fio's, as given (not verify's; for surface-scan.fio) */
	uint32_t interval;            /* verify_interval; 0 = the block size */
	uint32_t offset;              /* verify_offset: the header swapped to here */
	uint64_t backlog;             /* verify_backlog: check after this many writes */
	uint32_t backlog_batch;       /* verify_backlog_batch (0 = backlog) */
	uint32_t pattern_len;
	uint8_t pattern[SB_FV_PATTERN_MAX];
};

/* struct verify_header, decoded (little-endian on disk, as fio on x86 and ARM) */
struct sb_fv_hdr {
	uint16_t magic, type;
	uint32_t len;
	uint64_t rand_seed, offset;
	uint32_t time_sec, time_nsec;
	uint16_t thread, numberio;
	uint32_t crc32;
};

/* What a block written by a job is expected to carry (NULL members: not checked). */
struct sb_fv_expect {
	bool numberio_set, seed_set;
	uint16_t numberio;
	uint64_t rand_seed;
};

/* The first failure in a block: where (the interval's file offset) and why. */
struct sb_fv_fail {
	uint64_t offset;              /* of the failing interval */
	uint32_t len;                 /* the interval's length */
	char what[160];
};

const char *sb_fv_name(unsigned type);
/* fio's name -> type; -ENOTSUP for one stackbench cannot do exactly (msg
 * says why), -EINVAL for one fio does not have. */
int sb_fv_parse_type(const char *name, unsigned *type, const char **why);
/* Header plus checksum header for a type (fio's __hdr_size). */
unsigned sb_fv_hdr_size(unsigned type);
/* crc32c as fio's fio_crc32c (the header's own checksum) */
uint32_t sb_fv_crc32c(const void *p, size_t len);

void sb_fv_hdr_encode(const struct sb_fv_hdr *h, uint8_t *out);
void sb_fv_hdr_decode(const uint8_t *in, struct sb_fv_hdr *h);

/* fio's data fill (__fill_random_buf) from a seed */
void sb_fv_fill_random(void *buf, size_t len, uint64_t seed);

/* Fill a write buffer of buflen bytes for file offset off, as fio's
 * populate_verify_io_u: data (the pattern, or random from seed), then a
 * header per interval (interval = o->interval or buflen). */
void sb_fv_fill(const struct sb_fv_opts *o, void *buf, uint32_t buflen, uint64_t off, uint64_t seed,
		uint16_t thread, uint16_t numberio, uint64_t now_ns);
/* Check a block read at off, as fio's verify_io_u; 0, or -EILSEQ with
 * fail set (the buffer may be changed: verify_offset swaps back). */
int sb_fv_check(const struct sb_fv_opts *o, void *buf, uint32_t buflen, uint64_t off,
		const struct sb_fv_expect *exp, struct sb_fv_fail *fail);

#endif
