/* luks layer, describe: what the open mapping really is (read back from
 * libcryptsetup, not from the spec), its crypto driver and the cipher's
 * ceiling on this machine. Split from luks.c to keep each file small. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <libcryptsetup.h>

#include "core/layer.h"
#include "layers/cryptsetup_int.h"
#include "layers/luks_int.h"
#include "sys/crypto.h"

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

/* Keyslot 0's PBKDF, if it can be read. */
static void describe_pbkdf(struct crypt_device *cd, struct json_object *out)
{
	struct crypt_pbkdf_type pk;
	struct json_object *p;

	if (crypt_keyslot_get_pbkdf(cd, 0, &pk) != 0)
		return;
	p = json_object_new_object();
	add_str(p, "type", pk.type);
	add_str(p, "hash", pk.hash);
	json_object_object_add(p, "iterations", json_object_new_int64(pk.iterations));
	if (pk.max_memory_kb)
		json_object_object_add(p, "memory_kib", json_object_new_int64(pk.max_memory_kb));
	if (pk.parallel_threads)
		json_object_object_add(p, "parallel", json_object_new_int64(pk.parallel_threads));
	add_str(p, "note", "low fixed cost on purpose: the stack and its random key are throwaway");
	json_object_object_add(out, "pbkdf", p);
}

/* The activation flags in effect and whether the mapping is suspended. */
static void describe_flags(struct crypt_device *cd, const char *name, struct json_object *out)
{
	struct crypt_active_device cad;
	struct json_object *flags = json_object_new_array();

	if (crypt_get_active_device(cd, name, &cad) == 0) {
		if (cad.flags & CRYPT_ACTIVATE_NO_READ_WORKQUEUE)
			json_object_array_add(flags, json_object_new_string("no_read_workqueue"));
		if (cad.flags & CRYPT_ACTIVATE_NO_WRITE_WORKQUEUE)
			json_object_array_add(flags, json_object_new_string("no_write_workqueue"));
		if (cad.flags & CRYPT_ACTIVATE_SAME_CPU_CRYPT)
			json_object_array_add(flags, json_object_new_string("same_cpu_crypt"));
		if (cad.flags & CRYPT_ACTIVATE_ALLOW_DISCARDS)
			json_object_array_add(flags, json_object_new_string("allow_discards"));
		json_object_object_add(out, "suspended",
				       json_object_new_boolean(!!(cad.flags & CRYPT_ACTIVATE_SUSPENDED)));
	}
	json_object_object_add(out, "flags", flags);
}

/* The cipher's ceiling on this machine: what the kernel crypto API does from
 * userspace, with no block layer in the way. */
static void describe_benchmark(const char *c, const char *m, unsigned key_bits, unsigned sector,
			       struct json_object *out)
{
	struct json_object *b = json_object_new_object();
	struct sb_err berr = { 0 };
	double enc = 0, dec = 0;

	if (sb_crypto_benchmark(c, m, key_bits, sector ? sector : 512, &enc, &dec, &berr) == 0) {
		json_object_object_add(b, "encrypt_MiB_s", json_object_new_double(enc));
		json_object_object_add(b, "decrypt_MiB_s", json_object_new_double(dec));
	} else {
		json_object_object_add(b, "error", json_object_new_string(berr.msg));
	}
	json_object_object_add(b, "method", json_object_new_string(
		"libcryptsetup crypt_benchmark: kernel crypto API via AF_ALG, 1 MiB buffers"));
	json_object_object_add(out, "cipher_benchmark", b);
}

int sb_luks_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	struct crypt_device *cd = NULL;
	struct crypt_params_integrity ip;
	struct json_object *drv = NULL;
	char name[SB_NAME_MAX + 16], spec[128], c[64] = "", m[64] = "";
	unsigned key_bits, sector;
	int r;

	sb_layer_luks_name(l->spec, name, sizeof(name));
	sb_cs_reset();
	r = crypt_init_by_name(&cd, name);
	if (r < 0)
		return sb_err_sys(err, r, "luks: %s is not active", name);
	snprintf(c, sizeof(c), "%s", crypt_get_cipher(cd) ? crypt_get_cipher(cd) : "?");
	snprintf(m, sizeof(m), "%s", crypt_get_cipher_mode(cd) ? crypt_get_cipher_mode(cd) : "?");
	snprintf(spec, sizeof(spec), "%s-%s", c, m);
	add_str(out, "dm_name", name);
	add_str(out, "device", l->dev[0]);
	add_str(out, "type", crypt_get_type(cd));
	add_str(out, "cipher", spec);
	memset(&ip, 0, sizeof(ip));
	(void)crypt_get_integrity_info(cd, &ip);   /* -EINVAL without integrity: stays zero */
	add_str(out, "integrity", ip.integrity ? ip.integrity : "none");
	json_object_object_add(out, "key_size", json_object_new_int(
		(crypt_get_volume_key_size(cd) - (int)ip.integrity_key_size) * 8));
	json_object_object_add(out, "sector_size", json_object_new_int(crypt_get_sector_size(cd)));
	json_object_object_add(out, "data_offset", json_object_new_int64((int64_t)crypt_get_data_offset(cd) * 512));
	add_str(out, "underlying", crypt_get_device_name(cd));
	describe_pbkdf(cd, out);
	describe_flags(cd, name, out);
	key_bits = (unsigned)(crypt_get_volume_key_size(cd) - (int)ip.integrity_key_size) * 8;
	sector = (unsigned)crypt_get_sector_size(cd);
	crypt_free(cd);
	/* The driver is only a fact worth recording if we can read it; a
	 * missing /proc/crypto entry is noted, not fatal. */
	if (sb_crypto_driver(spec, &drv, NULL) == 0)
		json_object_object_add(out, "crypto_driver", drv);
	else
		json_object_object_add(out, "crypto_driver", NULL);
	describe_benchmark(c, m, key_bits, sector, out);
	return 0;
}

/* LUKS2's segments and config as the header's JSON has them, and each
 * keyslot's KDF without its salt (no key material: the header holds none
 * in the clear, and the digests are left out). */
static void capture_luks2(struct crypt_device *cd, struct json_object *out)
{
	struct json_object *h, *v, *ks, *kdf;
	const char *txt = NULL;

	if (crypt_dump_json(cd, &txt, 0) < 0 || !txt || !(h = json_tokener_parse(txt)))
		return;
	if (json_object_object_get_ex(h, "segments", &v))
		json_object_object_add(out, "segments", json_object_get(v));
	if (json_object_object_get_ex(h, "config", &v))
		json_object_object_add(out, "config", json_object_get(v));
	if (json_object_object_get_ex(h, "keyslots", &v)) {
		ks = json_object_new_object();
		json_object_object_foreach(v, slot, o) {
			if (!json_object_object_get_ex(o, "kdf", &kdf))
				continue;
			kdf = json_object_get(kdf);
			json_object_object_del(kdf, "salt");
			json_object_object_add(ks, slot, kdf);
		}
		json_object_object_add(out, "keyslots_kdf", ks);
	}
	json_object_put(h);
}

/* The header summary for the environment capture: type, cipher, key and
 * sector size, data offset, PBKDF, flags, and LUKS2's segments. Never the
 * key. */
struct json_object *sb_luks_header_summary(struct crypt_device *cd, const char *name)
{
	struct json_object *o = json_object_new_object();
	char spec[160];

	snprintf(spec, sizeof(spec), "%s-%s", crypt_get_cipher(cd) ? crypt_get_cipher(cd) : "?",
		 crypt_get_cipher_mode(cd) ? crypt_get_cipher_mode(cd) : "?");
	add_str(o, "type", crypt_get_type(cd));
	add_str(o, "cipher", spec);
	json_object_object_add(o, "volume_key_bits", json_object_new_int(crypt_get_volume_key_size(cd) * 8));
	json_object_object_add(o, "sector_size", json_object_new_int(crypt_get_sector_size(cd)));
	json_object_object_add(o, "data_offset", json_object_new_int64((int64_t)crypt_get_data_offset(cd) * 512));
	describe_pbkdf(cd, o);
	describe_flags(cd, name, o);
	if (crypt_get_type(cd) && !strcmp(crypt_get_type(cd), CRYPT_LUKS2))
		capture_luks2(cd, o);
	return o;
}

void sb_luks_capture(const struct sb_layer *l, struct json_object *out)
{
	struct crypt_device *cd = NULL;
	char name[SB_NAME_MAX + 16];

	sb_layer_luks_name(l->spec, name, sizeof(name));
	sb_cs_reset();
	if (crypt_init_by_name(&cd, name) < 0) {
		json_object_object_add(out, "luks_header", json_object_new_string("not available: the mapping is not active"));
		return;
	}
	json_object_object_add(out, "luks_header", sb_luks_header_summary(cd, name));
	crypt_free(cd);
}
