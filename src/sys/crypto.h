/* Which kernel crypto driver serves a dm-crypt cipher, and how fast the
 * kernel's crypto API runs it from userspace (libcryptsetup's benchmark). */
#ifndef SB_SYS_CRYPTO_H
#define SB_SYS_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "util/err.h"

struct sb_crypto_alg {
	char name[128];     /* crypto API name, "xts(aes)" */
	char driver[128];   /* "xts-aes-aesni", "xts(ecb(aes-generic))" */
	char module[64];    /* "aesni_intel", "kernel" */
	char type[32];      /* "skcipher" */
	int priority;
	int ivsize;         /* bytes; 0 when /proc/crypto does not say */
	bool accelerated;   /* false for the generic C implementations */
};

/* dm-crypt cipher spec -> kernel crypto API name, as dm-crypt instantiates it:
 * "aes-xts-plain64" -> "xts(aes)", "aes-cbc-essiv:sha256" ->
 * "essiv(cbc(aes),sha256)", "capi:xts(aes)-plain64" -> "xts(aes)".
 * fallback (may be NULL) gets the name to look for on kernels without the
 * essiv template ("cbc(aes)"), or "" when there is none. */
int sb_crypto_kernel_name(const char *cipher_spec, char *name, size_t len,
			  char *fallback, size_t fblen, struct sb_err *err);

/* Parse /proc/crypto text; pick the highest-priority entry named `name` of a
 * symmetric cipher type that passed its self-test. -ENOENT if none. */
int sb_crypto_parse(const char *text, const char *name, struct sb_crypto_alg *best);

/* Is this driver a generic C implementation? ("*-generic", "aes-fixed-time"
 * anywhere in a template's driver name). */
bool sb_crypto_driver_is_generic(const char *driver);

/* The driver serving cipher_spec now, from /proc/crypto, as
 * {"cipher","kernel_name","name","driver","module","priority","accelerated"}.
 * The entry only exists once something (dm-crypt) instantiated it, so call
 * this after activation. */
int sb_crypto_driver(const char *cipher_spec, struct json_object **out, struct sb_err *err);

/* libcryptsetup's crypt_benchmark(): the kernel crypto API through AF_ALG, in
 * MiB/s as cryptsetup benchmark prints them. mode is "xts-plain64",
 * "cbc-essiv:sha256" (the IV generator is dropped, as cryptsetup benchmark
 * does). libcryptsetup encrypts one 1 MiB buffer per request; sector_size
 * cannot be passed to it and is only checked (power of two, 512..4096). */
int sb_crypto_benchmark(const char *cipher, const char *mode, unsigned key_bits,
			unsigned sector_size, double *enc_mbps, double *dec_mbps,
			struct sb_err *err);

/* The whole of a /proc/crypto-like file (NUL-terminated, malloc'd), or
 * NULL with err set. */
char *sb_crypto_proc_text(const char *path, struct sb_err *err);

/* crypto_sector.c: a dm-crypt cipher through AF_ALG the way dm-crypt
 * drives it: one skcipher request per sector, each with the sector's own
 * IV (plain64: the sector number, little endian, zero-padded to the IV
 * size; essiv:HASH goes through the kernel's essiv(...) template, which
 * encrypts that same IV with the hashed key, as dm-crypt does since Linux
 * 5.4). Each request costs a system call (sendmsg + read) dm-crypt does not
 * make, so the figure is a floor for the cipher and how it moves from 4096-
 * to 512-byte sectors is the per-sector cost. MB/s = 10^6 bytes/s. */
struct sb_crypto_sector {
	double enc_mbs, dec_mbs;
	char kname[128];    /* "xts(aes)" */
	char driver[128];   /* the implementation serving it, from /proc/crypto while the tfm is held */
	char module[64];
	int ivsize;
	bool accelerated;
};
/* cipher_spec as dm-crypt spells it ("aes-xts-plain64",
 * "aes-cbc-essiv:sha256", "xchacha12,aes-adiantum-plain64"); key_bits the
 * whole key (512 for AES-256-XTS); budget_ns per direction. */
int sb_crypto_sector_measure(const char *cipher_spec, unsigned key_bits, unsigned sector,
			     uint64_t budget_ns, struct sb_crypto_sector *out, struct sb_err *err);

#endif
