/* A dm-crypt cipher through AF_ALG, one request per sector with its own
 * IV, as dm-crypt issues them. See crypto.h. */
#include "sys/crypto.h"
#include "util/clock.h"

#include <errno.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_IV 32   /* adiantum's; xts, cbc and essiv take 16 */

enum iv_mode { IV_PLAIN64, IV_PLAIN64BE, IV_PLAIN };

static int iv_mode_of(const char *spec, enum iv_mode *m, struct sb_err *err)
{
	const char *iv = strrchr(spec, '-');

	iv = iv ? iv + 1 : "";
	/* essiv:HASH: the kernel's essiv template takes the plain64 value */
	if (!strcmp(iv, "plain64") || !strncmp(iv, "essiv:", 6))
		*m = IV_PLAIN64;
	else if (!strcmp(iv, "plain64be"))
		*m = IV_PLAIN64BE;
	else if (!strcmp(iv, "plain"))
		*m = IV_PLAIN;
	else
		return sb_err_set(err, -EINVAL, "cipher '%s': IV mode '%s' is not measured (plain64, plain64be, plain, essiv:HASH are)",
				  spec, iv);
	return 0;
}

/* dm-crypt's IV for `sector` in iv[ivsize]. */
static void make_iv(enum iv_mode m, uint64_t sector, unsigned char *iv, int ivsize)
{
	memset(iv, 0, (size_t)ivsize);
	if (ivsize < 8)
		return;
	for (int i = 0; i < 8; i++) {
		unsigned char b = (unsigned char)(sector >> (8 * i));

		if (m == IV_PLAIN64BE)
			iv[ivsize - 1 - i] = b;
		else if (m == IV_PLAIN64 || i < 4)
			iv[i] = b;
	}
}

/* One direction for budget_ns: MB/s (10^6 B/s). */
static int run_dir(int op, uint32_t dir, enum iv_mode m, int ivsize, unsigned sector,
		   uint64_t budget_ns, unsigned char *in, unsigned char *out, double *mbs,
		   const char *kname, struct sb_err *err)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct af_alg_iv) + MAX_IV)];
	uint64_t n = 0, t0 = sb_clock_ns(), el = 0;

	while (el < budget_ns || n == 0) {
		struct iovec iov = { in, sector };
		/* exactly the two messages: trailing zeroes would be read as a
		 * third, malformed one (EINVAL) */
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				      .msg_controllen = CMSG_SPACE(sizeof(uint32_t)) +
							CMSG_SPACE(sizeof(struct af_alg_iv) + (size_t)ivsize) };
		struct cmsghdr *c;
		struct af_alg_iv *iv;

		memset(cbuf, 0, sizeof(cbuf));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_OP;
		c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
		memcpy(CMSG_DATA(c), &dir, sizeof(dir));
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(*iv) + (size_t)ivsize);
		iv = (struct af_alg_iv *)CMSG_DATA(c);
		iv->ivlen = (uint32_t)ivsize;
		make_iv(m, n, iv->iv, ivsize);
		if (sendmsg(op, &msg, 0) != (ssize_t)sector || read(op, out, sector) != (ssize_t)sector)
			return sb_err_sys(err, -errno, "crypto: AF_ALG %s %s request of %u bytes", kname,
					  dir == ALG_OP_ENCRYPT ? "encrypt" : "decrypt", sector);
		n++;
		if (!(n & 31))
			el = sb_clock_ns() - t0;
	}
	el = sb_clock_ns() - t0;
	*mbs = (double)(n * sector) * 1e3 / (double)el;
	return 0;
}

/* Which implementation the kernel gave this transform: the highest-priority
 * self-tested entry of that name, which is what crypto_alloc_skcipher picks
 * (and it is listed now, since our tfm holds it). */
static void find_driver(struct sb_crypto_sector *o)
{
	struct sb_crypto_alg a;
	char *text = sb_crypto_proc_text("/proc/crypto", NULL);

	if (text && sb_crypto_parse(text, o->kname, &a) == 0) {
		snprintf(o->driver, sizeof(o->driver), "%s", a.driver);
		snprintf(o->module, sizeof(o->module), "%s", a.module);
		o->ivsize = a.ivsize;
		o->accelerated = a.accelerated;
	}
	free(text);
}

static int open_tfm(const char *kname, const unsigned char *key, unsigned keylen, int *tfm,
		    int *op, struct sb_err *err)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };

	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "skcipher");
	if (strlen(kname) >= sizeof(sa.salg_name))
		return sb_err_set(err, -ENAMETOOLONG, "crypto: '%s' is longer than AF_ALG takes", kname);
	memcpy(sa.salg_name, kname, strlen(kname) + 1);
	*tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (*tfm < 0 && errno == EAFNOSUPPORT)
		return sb_err_set(err, -EAFNOSUPPORT, "this kernel has no AF_ALG (CONFIG_CRYPTO_USER_API_SKCIPHER); "
				  "`stackbench --sandbox ciphers` measures the throwaway kernel's");
	if (*tfm < 0)
		return sb_err_sys(err, -errno, "crypto: AF_ALG socket");
	if (bind(*tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return sb_err_sys(err, -errno, "crypto: the kernel has no skcipher '%s'", kname);
	if (setsockopt(*tfm, SOL_ALG, ALG_SET_KEY, key, keylen) < 0)
		return sb_err_sys(err, -errno, "crypto: %s refuses a %u-bit key", kname, keylen * 8);
	*op = accept4(*tfm, NULL, 0, SOCK_CLOEXEC);
	if (*op < 0)
		return sb_err_sys(err, -errno, "crypto: AF_ALG %s accept", kname);
	return 0;
}

int sb_crypto_sector_measure(const char *spec, unsigned key_bits, unsigned sector,
			     uint64_t budget_ns, struct sb_crypto_sector *o, struct sb_err *err)
{
	unsigned char key[64], *in = NULL, *out = NULL;
	int tfm = -1, op = -1, rc;
	enum iv_mode m = IV_PLAIN64;

	memset(o, 0, sizeof(*o));
	if (key_bits == 0 || key_bits % 8 || key_bits / 8 > sizeof(key))
		return sb_err_set(err, -EINVAL, "cipher '%s': key size %u bits (8..512, whole bytes)", spec, key_bits);
	if (sector < 512 || sector > 4096 || (sector & (sector - 1)))
		return sb_err_set(err, -EINVAL, "cipher '%s': sector size %u is not a power of two in 512..4096",
				  spec, sector);
	rc = sb_crypto_kernel_name(spec, o->kname, sizeof(o->kname), NULL, 0, err);
	if (rc == 0)
		rc = iv_mode_of(spec, &m, err);
	if (rc)
		return rc;
	if (getrandom(key, key_bits / 8, 0) != (ssize_t)(key_bits / 8))
		return sb_err_sys(err, -errno, "crypto: getrandom");
	rc = open_tfm(o->kname, key, key_bits / 8, &tfm, &op, err);
	explicit_bzero(key, sizeof(key));  /* the kernel's tfm holds its own copy */
	if (rc)
		goto out;
	find_driver(o);
	if (o->ivsize <= 0 || o->ivsize > MAX_IV)
		o->ivsize = strstr(o->kname, "adiantum") ? 32 : 16;
	in = aligned_alloc(4096, 4096);
	out = aligned_alloc(4096, 4096);
	if (!in || !out) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	memset(in, 0x5a, 4096);
	rc = run_dir(op, ALG_OP_ENCRYPT, m, o->ivsize, sector, budget_ns, in, out, &o->enc_mbs, o->kname, err);
	if (rc == 0)
		rc = run_dir(op, ALG_OP_DECRYPT, m, o->ivsize, sector, budget_ns, out, in, &o->dec_mbs,
			     o->kname, err);
out:
	free(in);
	free(out);
	if (op >= 0)
		close(op);
	if (tfm >= 0)
		close(tfm);
	return rc;
}
