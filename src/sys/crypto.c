/* Kernel crypto driver lookup (/proc/crypto) and the userspace cipher
 * benchmark. See crypto.h. */
#include "sys/crypto.h"

#include <errno.h>
#include <linux/if_alg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libcryptsetup.h>

int sb_crypto_kernel_name(const char *spec, char *name, size_t len,
			  char *fallback, size_t fblen, struct sb_err *err)
{
	char cipher[64], chain[64], iv[64] = "";
	const char *d1, *d2;
	int n;

	if (fallback && fblen)
		fallback[0] = '\0';
	if (!strncmp(spec, "capi:", 5)) {
		/* "capi:xts(aes)-plain64": the name is spelled out; IV after the last '-' */
		const char *p = spec + 5, *dash = strrchr(p, '-');
		size_t l = dash && dash > strrchr(p, ')') ? (size_t)(dash - p) : strlen(p);

		if (l == 0 || l >= len)
			return sb_err_set(err, -EINVAL, "cipher '%s': cannot read the crypto API name", spec);
		memcpy(name, p, l);
		name[l] = '\0';
		return 0;
	}
	d1 = strchr(spec, '-');
	if (!d1 || d1 == spec || (size_t)(d1 - spec) >= sizeof(cipher))
		return sb_err_set(err, -EINVAL,
				  "cipher '%s': expected cipher-chainmode-ivmode, e.g. aes-xts-plain64", spec);
	memcpy(cipher, spec, (size_t)(d1 - spec));
	cipher[d1 - spec] = '\0';
	d2 = strchr(d1 + 1, '-');
	if (d2) {
		if ((size_t)(d2 - d1 - 1) >= sizeof(chain) || strlen(d2 + 1) >= sizeof(iv))
			return sb_err_set(err, -EINVAL, "cipher '%s': too long", spec);
		memcpy(chain, d1 + 1, (size_t)(d2 - d1 - 1));
		chain[d2 - d1 - 1] = '\0';
		strcpy(iv, d2 + 1);
	} else {
		if (strlen(d1 + 1) >= sizeof(chain))
			return sb_err_set(err, -EINVAL, "cipher '%s': too long", spec);
		strcpy(chain, d1 + 1);
	}
	if (!chain[0])
		return sb_err_set(err, -EINVAL, "cipher '%s': no chaining mode", spec);
	/* Since Linux 5.4 dm-crypt asks for the essiv template:
	 * essiv(cbc(aes),sha256); before, it used cbc(aes) and the hash apart. */
	if (!strncmp(iv, "essiv:", 6)) {
		n = snprintf(name, len, "essiv(%s(%s),%s)", chain, cipher, iv + 6);
		if (fallback && fblen)
			snprintf(fallback, fblen, "%s(%s)", chain, cipher);
	} else {
		n = snprintf(name, len, "%s(%s)", chain, cipher);
	}
	if (n < 0 || (size_t)n >= len)
		return sb_err_set(err, -EINVAL, "cipher '%s': too long", spec);
	return 0;
}

bool sb_crypto_driver_is_generic(const char *driver)
{
	return strstr(driver, "-generic") || strstr(driver, "fixed-time");
}

static bool symmetric_type(const char *t)
{
	return !strcmp(t, "skcipher") || !strcmp(t, "ablkcipher") ||
	       !strcmp(t, "blkcipher") || !strcmp(t, "givcipher");
}

static void copy_field(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%s", v);
}

/* Consider one parsed entry for `best`. */
static void consider(const struct sb_crypto_alg *cur, bool selftest_ok, const char *want,
		     struct sb_crypto_alg *best, bool *found)
{
	if (!cur->name[0] || strcmp(cur->name, want) || !selftest_ok || !symmetric_type(cur->type))
		return;
	if (!*found || cur->priority > best->priority) {
		*best = *cur;
		best->accelerated = !sb_crypto_driver_is_generic(cur->driver);
		*found = true;
	}
}

int sb_crypto_parse(const char *text, const char *want, struct sb_crypto_alg *best)
{
	struct sb_crypto_alg cur;
	bool found = false, selftest_ok = true;
	const char *p = text;

	memset(&cur, 0, sizeof(cur));
	memset(best, 0, sizeof(*best));
	while (*p) {
		const char *eol = strchrnul(p, '\n');
		size_t l = (size_t)(eol - p);
		char line[256], *colon, *key, *val, *e;

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = '\0';
		p = *eol ? eol + 1 : eol;
		colon = strchr(line, ':');
		if (!colon) {
			/* blank line: end of an entry */
			consider(&cur, selftest_ok, want, best, &found);
			memset(&cur, 0, sizeof(cur));
			selftest_ok = true;
			continue;
		}
		*colon = '\0';
		key = line;
		val = colon + 1;
		for (e = colon; e > key && (e[-1] == ' ' || e[-1] == '\t'); e--)
			e[-1] = '\0';
		while (*val == ' ' || *val == '\t')
			val++;
		if (!strcmp(key, "name"))
			copy_field(cur.name, sizeof(cur.name), val);
		else if (!strcmp(key, "driver"))
			copy_field(cur.driver, sizeof(cur.driver), val);
		else if (!strcmp(key, "module"))
			copy_field(cur.module, sizeof(cur.module), val);
		else if (!strcmp(key, "type"))
			copy_field(cur.type, sizeof(cur.type), val);
		else if (!strcmp(key, "priority"))
			cur.priority = atoi(val);
		else if (!strcmp(key, "selftest"))
			selftest_ok = !strcmp(val, "passed");
	}
	consider(&cur, selftest_ok, want, best, &found);
	return found ? 0 : -ENOENT;
}

static char *slurp(const char *path, struct sb_err *err)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f) {
		sb_err_sys(err, -errno, "open %s", path);
		return NULL;
	}
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				sb_err_set(err, -ENOMEM, "out of memory reading %s", path);
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

int sb_crypto_driver(const char *cipher_spec, struct json_object **out, struct sb_err *err)
{
	char name[128], fallback[128];
	struct sb_crypto_alg a;
	const char *used = name;
	char *text;
	int r;

	*out = NULL;
	r = sb_crypto_kernel_name(cipher_spec, name, sizeof(name), fallback, sizeof(fallback), err);
	if (r)
		return r;
	text = slurp("/proc/crypto", err);
	if (!text)
		return err ? err->code : -EIO;
	r = sb_crypto_parse(text, name, &a);
	if (r == -ENOENT && fallback[0]) {
		used = fallback;
		r = sb_crypto_parse(text, fallback, &a);
	}
	free(text);
	if (r)
		return sb_err_set(err, r, "crypto: no '%s' in /proc/crypto (is the cipher instantiated? dm-crypt does so at activation)",
				  name);
	*out = json_object_new_object();
	json_object_object_add(*out, "cipher", json_object_new_string(cipher_spec));
	json_object_object_add(*out, "kernel_name", json_object_new_string(used));
	json_object_object_add(*out, "driver", json_object_new_string(a.driver));
	json_object_object_add(*out, "module", json_object_new_string(a.module));
	json_object_object_add(*out, "priority", json_object_new_int(a.priority));
	json_object_object_add(*out, "accelerated", json_object_new_boolean(a.accelerated));
	return 0;
}

int sb_crypto_benchmark(const char *cipher, const char *mode, unsigned key_bits,
			unsigned sector_size, double *enc_mbps, double *dec_mbps,
			struct sb_err *err)
{
	char chain[64];
	const char *dash;
	size_t iv_size;
	int r;

	if (sector_size < 512 || sector_size > 4096 || (sector_size & (sector_size - 1)))
		return sb_err_set(err, -EINVAL, "crypto benchmark: sector size %u is not a power of two in 512..4096",
				  sector_size);
	if (key_bits == 0 || key_bits % 8)
		return sb_err_set(err, -EINVAL, "crypto benchmark: key size %u bits is not whole bytes", key_bits);
	/* "cbc-essiv:sha256" -> "cbc": the IV generator is dm-crypt's, not the
	 * crypto API's; cryptsetup benchmark drops it the same way. */
	dash = strchr(mode, '-');
	snprintf(chain, sizeof(chain), "%.*s", dash ? (int)(dash - mode) : (int)strlen(mode), mode);
	iv_size = !strcmp(chain, "ecb") ? 0 : 16;
	r = crypt_benchmark(NULL, cipher, chain, key_bits / 8, iv_size, 1024 * 1024, enc_mbps, dec_mbps);
	if (r == -ENOTSUP || r == -ENOENT)
		return sb_err_set(err, r, "crypto benchmark: %s-%s with a %u-bit key is not available from the kernel crypto API (AF_ALG: algif_skcipher missing?)",
				  cipher, chain, key_bits);
	if (r < 0)
		return sb_err_sys(err, r, "crypto benchmark of %s-%s (%u-bit key)", cipher, chain, key_bits);
	return 0;
}

/* One AF_ALG skcipher request per sector, each with its own IV (the sector
 * number, as plain64 gives dm-crypt), for budget_ns: how the per-sector
 * cost grows as sectors shrink. The key is random and lives only in this
 * process and the kernel's transform. */
int sb_crypto_sector_speed(const char *kname, unsigned key_bits, unsigned sector,
			   uint64_t budget_ns, double *enc_mbs, struct sb_err *err)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	unsigned char key[64], *in = NULL, *out = NULL;
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct af_alg_iv) + 16)];
	struct timespec t0, t1;
	uint64_t bytes = 0, n = 0, el = 0;
	int tfm = -1, op = -1, rc = 0;

	if (key_bits == 0 || key_bits % 8 || key_bits / 8 > sizeof(key) || sector < 512 || sector > 4096)
		return sb_err_set(err, -EINVAL, "crypto sector speed: key %u bits, sector %u", key_bits, sector);
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "skcipher");
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", kname);
	if (getrandom(key, key_bits / 8, 0) != (ssize_t)(key_bits / 8))
		return sb_err_sys(err, -errno, "crypto sector speed: getrandom");
	tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (tfm < 0 || bind(tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, key_bits / 8) < 0 ||
	    (op = accept4(tfm, NULL, 0, SOCK_CLOEXEC)) < 0) {
		rc = sb_err_sys(err, -errno, "crypto sector speed: AF_ALG %s with a %u-bit key", kname, key_bits);
		goto out;
	}
	in = aligned_alloc(4096, 4096);
	out = aligned_alloc(4096, 4096);
	if (!in || !out) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	memset(in, 0x5a, 4096);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (el < budget_ns) {
		struct iovec iov = { in, sector };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				      .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		struct af_alg_iv *iv;
		uint64_t le = n;  /* plain64: the sector number, little endian (x86) */

		memset(cbuf, 0, sizeof(cbuf));
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_OP;
		c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
		*(uint32_t *)CMSG_DATA(c) = ALG_OP_ENCRYPT;
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(*iv) + 16);
		iv = (struct af_alg_iv *)CMSG_DATA(c);
		iv->ivlen = 16;
		memset(iv->iv, 0, 16);
		memcpy(iv->iv, &le, sizeof(le));
		if (sendmsg(op, &msg, 0) != (ssize_t)sector || read(op, out, sector) != (ssize_t)sector) {
			rc = sb_err_sys(err, -errno, "crypto sector speed: AF_ALG %s request", kname);
			goto out;
		}
		bytes += sector;
		n++;
		if (!(n & 63)) {
			clock_gettime(CLOCK_MONOTONIC, &t1);
			el = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec - t0.tv_nsec;
		}
	}
	*enc_mbs = bytes * 1e3 / el;
out:
	explicit_bzero(key, sizeof(key));
	free(in);
	free(out);
	if (op >= 0)
		close(op);
	if (tfm >= 0)
		close(tfm);
	return rc;
}
