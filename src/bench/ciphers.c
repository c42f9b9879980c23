/* The cipher table of this machine: dm-crypt ciphers per sector size,
 * SSH ciphers per block size. See ciphers.h. */
#include "bench/ciphers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/crypto.h"

/* The dm-crypt choices people make: cryptsetup's default (aes-xts-plain64,
 * 512-bit key = AES-256), its AES-128 form, the old LUKS1 default and
 * adiantum for CPUs without AES instructions. */
const char *const sb_ciphers_dm_default[] = {
	"aes-xts-plain64:256", "aes-xts-plain64:512", "aes-cbc-essiv:sha256:256",
	"xchacha12,aes-adiantum-plain64:256", NULL,
};
const char *const sb_ciphers_ssh_default[] = {
	"chacha20-poly1305@openssh.com", "aes128-ctr", "aes256-ctr", "aes128-gcm@openssh.com",
	"aes256-gcm@openssh.com", NULL,
};

static struct json_object *num1(double v)
{
	return json_object_new_double(round(v * 10.0) / 10.0);
}

/* "SPEC[:BITS]": the key size is the last ':' field when it is all digits
 * ("aes-cbc-essiv:sha256" has a ':' of its own). */
static int split_entry(const char *entry, char *spec, size_t len, unsigned *bits, struct sb_err *err)
{
	const char *colon = strrchr(entry, ':');
	size_t n = strlen(entry);

	*bits = 256;
	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		*bits = (unsigned)strtoul(colon + 1, NULL, 10);
		n = (size_t)(colon - entry);
	}
	if (n == 0 || n >= len || !strchr(entry, '-'))
		return sb_err_set(err, -EINVAL, "dm-crypt cipher '%s': expected CIPHER-CHAIN-IV[:KEYBITS], "
				  "e.g. aes-xts-plain64:512", entry);
	if (*bits == 0 || *bits % 8 || *bits > 512)
		return sb_err_set(err, -EINVAL, "dm-crypt cipher '%s': key size %u bits (8..512, whole bytes)",
				  entry, *bits);
	memcpy(spec, entry, n);
	spec[n] = '\0';
	return 0;
}

/* The same cipher in libcryptsetup's benchmark (the one the per-layer
 * view's cipher ceiling and `cryptsetup benchmark` use): 1 MiB per request,
 * so no per-sector cost; "request_1MiB" in MB/s. */
static void add_whole_buffer(struct json_object *o, const char *spec, unsigned bits)
{
	char cipher[128];
	const char *dash = strchr(spec, '-');
	double enc = 0, dec = 0;
	struct sb_err e = { 0 };
	struct json_object *b = json_object_new_object();

	snprintf(cipher, sizeof(cipher), "%.*s", (int)(dash - spec), spec);
	if (sb_crypto_benchmark(cipher, dash + 1, bits, 512, &enc, &dec, &e) == 0) {
		json_object_object_add(b, "encrypt_mbs", num1(enc * 1.048576));
		json_object_object_add(b, "decrypt_mbs", num1(dec * 1.048576));
	} else {
		json_object_object_add(b, "error", json_object_new_string(e.msg));
	}
	json_object_object_add(o, "request_1MiB", b);
}

int sb_ciphers_dm_check(const char *entry, struct sb_err *err)
{
	char spec[128];
	unsigned bits;

	return split_entry(entry, spec, sizeof(spec), &bits, err);
}

int sb_ciphers_dm_json(const char *entry, const unsigned *sectors, unsigned nsectors,
		       double seconds, struct json_object **out, struct sb_err *err)
{
	char spec[128];
	unsigned bits;
	struct json_object *o, *secs;
	int rc = split_entry(entry, spec, sizeof(spec), &bits, err);

	*out = NULL;
	if (rc)
		return rc;
	o = json_object_new_object();
	secs = json_object_new_object();
	json_object_object_add(o, "cipher", json_object_new_string(spec));
	json_object_object_add(o, "key_bits", json_object_new_int((int)bits));
	for (unsigned i = 0; i < nsectors; i++) {
		struct sb_crypto_sector r;
		struct sb_err e = { 0 };
		struct json_object *s;
		char k[16];

		if (sb_crypto_sector_measure(spec, bits, sectors[i], (uint64_t)(seconds * 1e9), &r, &e) < 0) {
			json_object_object_add(o, "error", json_object_new_string(e.msg));
			break;
		}
		if (i == 0) {
			json_object_object_add(o, "kernel_name", json_object_new_string(r.kname));
			json_object_object_add(o, "driver", json_object_new_string(r.driver[0] ? r.driver : "unknown"));
			json_object_object_add(o, "module", json_object_new_string(r.module));
			json_object_object_add(o, "accelerated", json_object_new_boolean(r.accelerated));
		}
		s = json_object_new_object();
		json_object_object_add(s, "encrypt_mbs", num1(r.enc_mbs));
		json_object_object_add(s, "decrypt_mbs", num1(r.dec_mbs));
		snprintf(k, sizeof(k), "%u", sectors[i]);
		json_object_object_add(secs, k, s);
	}
	json_object_object_add(o, "sectors", secs);
	if (!json_object_object_get_ex(o, "error", NULL))
		add_whole_buffer(o, spec, bits);
	*out = o;
	return 0;
}

int sb_ciphers_ssh_json(const char *name, double seconds, struct json_object **out,
			struct sb_err *err)
{
	const char *ssh, *evp;
	char impl[128] = "";
	struct json_object *o, *b;
	int rc = sb_ciphers_ssh_lookup(name, &ssh, &evp, err);

	*out = NULL;
	if (rc)
		return rc;
	o = json_object_new_object();
	b = json_object_new_object();
	json_object_object_add(o, "cipher", json_object_new_string(ssh));
	json_object_object_add(o, "evp", json_object_new_string(evp));
	for (unsigned i = 0; i < sb_ciphers_nssh_blocks; i++) {
		struct sb_err e = { 0 };
		double v = 0;
		char k[16];

		if (sb_ciphers_measure_ssh(ssh, sb_ciphers_ssh_blocks[i], seconds, &v, impl, sizeof(impl), &e) < 0) {
			json_object_object_add(o, "error", json_object_new_string(e.msg));
			break;
		}
		snprintf(k, sizeof(k), "%u", sb_ciphers_ssh_blocks[i]);
		json_object_object_add(b, k, num1(v));
	}
	json_object_object_add(o, "implementation", json_object_new_string(impl[0] ? impl : "unknown"));
	json_object_object_add(o, "blocks", b);
	*out = o;
	return 0;
}

static void add_notes(struct json_object *res, bool dm, bool ssh)
{
	struct json_object *n = json_object_new_array();

	if (dm)
		json_object_array_add(n, json_object_new_string(
			"dm-crypt: the kernel crypto API through AF_ALG, one request per sector with dm-crypt's "
			"IV (plain64 = sector number; essiv through the kernel's essiv template). Each request "
			"is a system call dm-crypt does not make: a floor for the cipher; the 512 vs 4096 "
			"difference is the per-sector cost. 1MiB: libcryptsetup's benchmark (as `cryptsetup "
			"benchmark`), one 1 MiB request, the cipher without per-request cost. driver: the "
			"implementation the kernel picked (/proc/crypto, highest priority, while the "
			"transform was held)"));
	if (ssh)
		json_object_array_add(n, json_object_new_string(
			"ssh: OpenSSL EVP encrypt, one call per block as `openssl speed -evp` (whose table is in "
			"1000s of bytes/s: divide by 1000 to compare); gcm and chacha20-poly1305 with a nonce, "
			"4 bytes of AAD and a tag per block as SSH packets; ctr without SSH's MAC. OpenSSH's "
			"chacha20-poly1305 is its own construction over the same primitives; measured as the "
			"RFC 8439 AEAD. Rates are over the measuring thread's CPU time (as openssl speed's, "
			"which divides by CPU time), so a loaded machine does not lower them; the dm-crypt "
			"rates are over wall time (the kernel may do the work on another thread). "
			"implementation: from CPUID as OPENSSL_ia32cap masks it (x86), from the kernel's "
			"AT_HWCAP/AT_HWCAP2 as OPENSSL_armcap replaces them (ARM)"));
	json_object_object_add(res, "notes", n);
}

int sb_ciphers_record(struct json_object *res, const char *luks_cipher, unsigned key_bits,
		      const char *const *ssh, double seconds, struct sb_err *err)
{
	char entry[160];
	const char *dm[2] = { entry, NULL };
	struct json_object *c;
	int rc;

	snprintf(entry, sizeof(entry), "%s:%u", luks_cipher ? luks_cipher : "", key_bits);
	rc = sb_ciphers_measure(luks_cipher ? dm : NULL, ssh, seconds, &c, err);
	if (rc == 0)
		json_object_object_add(res, "ciphers", c);
	return rc;
}

int sb_ciphers_measure(const char *const *dm, const char *const *ssh, double seconds,
		       struct json_object **out, struct sb_err *err)
{
	static const unsigned sectors[] = { 512, 4096 };
	struct json_object *res = json_object_new_object(), *a, *o;
	bool has_dm = dm && *dm, has_ssh = ssh && *ssh;
	int rc = 0;

	json_object_object_add(res, "unit", json_object_new_string(SB_CIPHERS_UNIT));
	json_object_object_add(res, "seconds_per_figure", json_object_new_double(round(seconds * 1000) / 1000));
	a = json_object_new_array();
	json_object_object_add(res, "dm_crypt", a);
	for (; dm && *dm && rc == 0; dm++)
		if ((rc = sb_ciphers_dm_json(*dm, sectors, 2, seconds, &o, err)) == 0)
			json_object_array_add(a, o);
	a = json_object_new_array();
	json_object_object_add(res, "ssh", a);
	for (; rc == 0 && ssh && *ssh; ssh++)
		if ((rc = sb_ciphers_ssh_json(*ssh, seconds, &o, err)) == 0)
			json_object_array_add(a, o);
	if (rc) {
		json_object_put(res);
		*out = NULL;
		return rc;
	}
	add_notes(res, has_dm, has_ssh);
	*out = res;
	return 0;
}
