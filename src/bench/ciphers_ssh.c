/* The SSH ciphers through OpenSSL's EVP interface. See ciphers.h. */
#include "bench/ciphers.h"

#include <errno.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__) || defined(__arm__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

const unsigned sb_ciphers_ssh_blocks[] = { 16, 64, 256, 1024, 8192, 16384 };
const unsigned sb_ciphers_nssh_blocks = sizeof(sb_ciphers_ssh_blocks) / sizeof(sb_ciphers_ssh_blocks[0]);

static const struct {
	const char *ssh, *evp;
	bool aead;
} ssh_ciphers[] = {
	{ "chacha20-poly1305@openssh.com", "ChaCha20-Poly1305", true },
	{ "aes128-ctr", "AES-128-CTR", false },
	{ "aes192-ctr", "AES-192-CTR", false },
	{ "aes256-ctr", "AES-256-CTR", false },
	{ "aes128-gcm@openssh.com", "AES-128-GCM", true },
	{ "aes256-gcm@openssh.com", "AES-256-GCM", true },
};
#define NSSH (sizeof(ssh_ciphers) / sizeof(ssh_ciphers[0]))

static int find_ssh(const char *name)
{
	size_t n = strlen(name);

	for (unsigned i = 0; i < NSSH; i++) {
		const char *s = ssh_ciphers[i].ssh, *at = strchr(s, '@');

		if (!strcmp(s, name) || (at && (size_t)(at - s) == n && !strncmp(s, name, n)))
			return (int)i;
	}
	return -1;
}

int sb_ciphers_ssh_lookup(const char *name, const char **ssh_name, const char **evp_name,
			  struct sb_err *err)
{
	int i = find_ssh(name);

	if (i < 0)
		return sb_err_set(err, -EINVAL, "unknown SSH cipher '%s' (known: chacha20-poly1305@openssh.com, "
				  "aes128-ctr, aes192-ctr, aes256-ctr, aes128-gcm@openssh.com, aes256-gcm@openssh.com)",
				  name);
	if (ssh_name)
		*ssh_name = ssh_ciphers[i].ssh;
	if (evp_name)
		*evp_name = ssh_ciphers[i].evp;
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
/* OPENSSL_ia32cap=[~]A[:[~]B]: A replaces (or, with ~, masks off) the
 * CPUID.1 EDX|ECX<<32 word, B the CPUID.7 EBX|ECX<<32 word. */
static uint64_t apply_env(uint64_t v, const char *s)
{
	bool invert = *s == '~';
	uint64_t x = strtoull(invert ? s + 1 : s, NULL, 0);

	return invert ? v & ~x : x;
}

static void cpu_caps(uint64_t *w1, uint64_t *w7)
{
	unsigned a = 0, b = 0, c = 0, d = 0;
	const char *env = getenv("OPENSSL_ia32cap");

	*w1 = *w7 = 0;
	if (__get_cpuid(1, &a, &b, &c, &d))
		*w1 = (uint64_t)d | (uint64_t)c << 32;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
		*w7 = (uint64_t)b | (uint64_t)c << 32;
	if (env && *env) {
		const char *colon = strchr(env, ':');

		*w1 = apply_env(*w1, env);
		if (colon)
			*w7 = apply_env(*w7, colon + 1);
	}
}

static const char *impl_name(const char *evp_name)
{
	uint64_t w1, w7;
	bool aesni, ssse3, pclmul, avx2, avx512;

	cpu_caps(&w1, &w7);
	aesni = w1 >> 57 & 1;
	pclmul = w1 >> 33 & 1;
	ssse3 = w1 >> 41 & 1;
	avx2 = w7 >> 5 & 1;
	avx512 = w7 >> 16 & 1;
	if (!strncmp(evp_name, "ChaCha", 6))
		return avx512 ? "AVX-512 SIMD" : avx2 ? "AVX2 SIMD" : ssse3 ? "SSSE3 SIMD" : "generic C";
	if (strstr(evp_name, "GCM"))
		return aesni && pclmul ? "AES-NI + PCLMULQDQ" : aesni ? "AES-NI, GHASH without PCLMULQDQ"
		       : ssse3 ? "no AES-NI: vpaes (SSSE3)" : "no AES-NI: generic C";
	return aesni ? "AES-NI" : ssse3 ? "no AES-NI: vpaes (SSSE3)" : "no AES-NI: generic C";
}
#elif defined(__aarch64__) || defined(__arm__)
/* The kernel's hardware capabilities (getauxval), as OpenSSL's armcap.c
 * reads them: NEON, and the ARMv8 AES and PMULL (GHASH) instructions.
 * OPENSSL_armcap=N replaces OpenSSL's vector (bit 0 NEON, 2 AES, 5 PMULL). */
static void cpu_caps(bool *neon, bool *aes, bool *pmull)
{
	const char *env = getenv("OPENSSL_armcap");
	unsigned long hw = getauxval(AT_HWCAP);

#ifdef __aarch64__
	*neon = hw & HWCAP_ASIMD;
	*aes = hw & HWCAP_AES;
	*pmull = hw & HWCAP_PMULL;
#else
	unsigned long hw2 = getauxval(AT_HWCAP2);

	*neon = hw & HWCAP_ARM_NEON;
	*aes = hw2 & (1UL << 0);        /* HWCAP2_AES */
	*pmull = hw2 & (1UL << 1);      /* HWCAP2_PMULL */
#endif
	if (env && *env) {
		unsigned long v = strtoul(env, NULL, 0);

		*neon = v & 1;
		*aes = v >> 2 & 1;
		*pmull = v >> 5 & 1;
	}
}

static const char *impl_name(const char *evp_name)
{
	bool neon, aes, pmull;

	cpu_caps(&neon, &aes, &pmull);
	if (!strncmp(evp_name, "ChaCha", 6))
		return neon ? "NEON SIMD" : "generic C";
	if (strstr(evp_name, "GCM"))
		return aes && pmull ? "ARMv8 AES + PMULL" : aes ? "ARMv8 AES, GHASH without PMULL"
		       : neon ? "no ARMv8 AES: NEON" : "no ARMv8 AES: generic C";
	return aes ? "ARMv8 AES" : neon ? "no ARMv8 AES: NEON" : "no ARMv8 AES: generic C";
}
#else
static const char *impl_name(const char *evp_name)
{
	return "CPU features not known on this architecture";
}
#endif

void sb_ciphers_ssh_impl(const char *evp_name, char *buf, size_t len)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, evp_name, NULL);
	const OSSL_PROVIDER *p = c ? EVP_CIPHER_get0_provider(c) : NULL;
	const char *prov = p ? OSSL_PROVIDER_get0_name(p) : "none";

	snprintf(buf, len, "%s (%s provider)", impl_name(evp_name), prov);
	EVP_CIPHER_free(c);
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* One packet of an AEAD cipher: nonce, 4 bytes AAD, payload, tag. */
static int aead_packet(EVP_CIPHER_CTX *ctx, unsigned char *nonce, const unsigned char *in,
		       unsigned char *out, unsigned block)
{
	unsigned char tag[16];
	int l;

	for (int k = 11; k >= 4 && ++nonce[k] == 0; k--)
		;  /* SSH's sequence number in the nonce */
	if (EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, nonce) != 1 ||
	    EVP_EncryptUpdate(ctx, NULL, &l, in, 4) != 1 ||
	    EVP_EncryptUpdate(ctx, out, &l, in, (int)block) != 1 ||
	    EVP_EncryptFinal_ex(ctx, out + l, &l) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1)
		return -1;
	return 0;
}

static int run_loop(EVP_CIPHER_CTX *ctx, bool aead, unsigned block, double seconds,
		    unsigned char *nonce, unsigned char *in, unsigned char *out, double *mbs)
{
	/* The rate is over this thread's CPU time (user + system), as
	 * `openssl speed` divides by CPU time: on a shared machine the time
	 * spent waiting for a CPU is not the cipher's. The run lasts `seconds`
	 * of wall time. */
	uint64_t budget = (uint64_t)(seconds * 1e9), t0 = now_ns(CLOCK_MONOTONIC), el = 0, n = 0;
	uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID), cpu, batch = 16, prev = 0;
	int l;

	while (el < budget || n == 0) {
		for (uint64_t k = 0; k < batch; k++, n++) {
			if (aead ? aead_packet(ctx, nonce, in, out, block) :
			    EVP_EncryptUpdate(ctx, out, &l, in, (int)block) != 1)
				return -1;
		}
		el = now_ns(CLOCK_MONOTONIC) - t0;
		/* read the clock about once a millisecond: where it is a real
		 * system call (no vDSO, as in user-mode Linux) a read per few
		 * blocks would be most of what is measured */
		if (el - prev < 1000000 && batch < (1u << 20))
			batch *= 2;
		prev = el;
	}
	cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	*mbs = (double)n * block * 1e3 / (double)(cpu ? cpu : el);
	return 0;
}

int sb_ciphers_measure_ssh(const char *name, unsigned block, double seconds, double *mbs,
			   char *impl, size_t ilen, struct sb_err *err)
{
	const char *ssh, *evp;
	unsigned char key[32], nonce[16] = { 0 }, *in = NULL, *out = NULL;
	EVP_CIPHER *c = NULL;
	EVP_CIPHER_CTX *ctx = NULL;
	int rc, i = find_ssh(name);

	rc = sb_ciphers_ssh_lookup(name, &ssh, &evp, err);
	if (rc)
		return rc;
	if (block < 16 || block > 1 << 20 || !(seconds > 0))
		return sb_err_set(err, -EINVAL, "SSH cipher %s: block %u bytes (16..1 MiB), %g s", ssh, block, seconds);
	c = EVP_CIPHER_fetch(NULL, evp, NULL);
	ctx = EVP_CIPHER_CTX_new();
	in = calloc(1, block);
	out = calloc(1, (size_t)block + 32);
	if (!c || !ctx || !in || !out) {
		rc = sb_err_set(err, c ? -ENOMEM : -ENOENT, "SSH cipher %s: OpenSSL has no %s%s", ssh, evp,
				c ? " (out of memory)" : "");
		goto out;
	}
	if (RAND_bytes(key, sizeof(key)) != 1 || EVP_EncryptInit_ex(ctx, c, NULL, key, nonce) != 1) {
		rc = sb_err_set(err, -EIO, "SSH cipher %s: EVP_EncryptInit_ex(%s) failed", ssh, evp);
		goto out;
	}
	if (run_loop(ctx, ssh_ciphers[i].aead, block, seconds, nonce, in, out, mbs) < 0) {
		rc = sb_err_set(err, -EIO, "SSH cipher %s: EVP encrypt of a %u-byte block failed", ssh, block);
		goto out;
	}
	if (impl && ilen)
		sb_ciphers_ssh_impl(evp, impl, ilen);
out:
	OPENSSL_cleanse(key, sizeof(key));
	free(in);
	free(out);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
	return rc;
}
