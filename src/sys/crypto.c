/* Kernel crypto driver lookup (/proc/crypto) and the userspace cipher
 * benchmark. See crypto.h. */
#include "sys/crypto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libcryptsetup.h>

#include "util/fs.h"

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
		else if (!strcmp(key, "ivsize"))
			cur.ivsize = atoi(val);
		else if (!strcmp(key, "priority"))
			cur.priority = atoi(val);
		else if (!strcmp(key, "selftest"))
			selftest_ok = !strcmp(val, "passed");
	}
	consider(&cur, selftest_ok, want, best, &found);
	return found ? 0 : -ENOENT;
}

char *sb_crypto_proc_text(const char *path, struct sb_err *err)
{
	char *buf = sb_fs_read_text(path);

	if (!buf)
		sb_err_sys(err, -errno, "reading %s", path);
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
	text = sb_crypto_proc_text("/proc/crypto", err);
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
	iv_size = !strcmp(chain, "ecb") ? 0 : !strcmp(chain, "adiantum") ? 32 : 16;
	r = crypt_benchmark(NULL, cipher, chain, key_bits / 8, iv_size, 1024 * 1024, enc_mbps, dec_mbps);
	if (r == -ENOTSUP || r == -ENOENT)
		return sb_err_set(err, r, "crypto benchmark: %s-%s with a %u-bit key is not available from the kernel crypto API (AF_ALG: algif_skcipher missing?)",
				  cipher, chain, key_bits);
	if (r < 0)
		return sb_err_sys(err, r, "crypto benchmark of %s-%s (%u-bit key)", cipher, chain, key_bits);
	return 0;
}
