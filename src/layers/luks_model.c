/* The luks layer's part of bench.per_layer: what it records around the raw
 * jobs on its mapping (the cipher's ceilings, pl_observe) and its model
 * (pl_model): what is below, capped by the cipher where the ceiling
 * measured from userspace is one (docs/layers.md). */
#include <stdio.h>
#include <string.h>

#include "layers/luks_int.h"
#include "sys/crypto.h"
#include "util/log.h"

/* The 512 vs 4096 question at the cipher: AF_ALG with one request and one
 * IV per sector at both sizes (libcryptsetup's benchmark takes no sector
 * size). Informational: not a ceiling (a system call per request). */
static void add_per_sector(const struct sb_layer *l, struct json_object *row)
{
	const struct sb_luks_spec *ls = &l->spec->luks;
	struct sb_crypto_sector v[2];
	static const unsigned sizes[2] = { 512, 4096 };
	struct json_object *o;
	struct sb_err e = { 0 };
	unsigned i;

	for (i = 0; i < 2; i++)
		if (sb_crypto_sector_measure(ls->cipher, ls->key_size, sizes[i], 300000000ULL, &v[i], &e) < 0) {
			sb_verbose("per-layer: %s", e.msg);
			return;
		}
	o = json_object_new_object();
	json_object_object_add(o, "sector_512_mbs", json_object_new_double((double)(int64_t)(v[0].enc_mbs * 10) / 10));
	json_object_object_add(o, "sector_4096_mbs", json_object_new_double((double)(int64_t)(v[1].enc_mbs * 10) / 10));
	json_object_object_add(o, "ratio_4096_to_512", json_object_new_double(
		(double)(int64_t)(v[1].enc_mbs / v[0].enc_mbs * 1000) / 1000));
	json_object_object_add(o, "stack_sector_size", json_object_new_int((int)ls->sector_size));
	if (v[0].driver[0])
		json_object_object_add(o, "driver", json_object_new_string(v[0].driver));
	json_object_object_add(o, "method", json_object_new_string(
		"AF_ALG skcipher, one request per sector with its own plain64 IV, 0.3 s each (encrypt; "
		"the same measure as `stackbench ciphers`): includes a system call per request that "
		"dm-crypt does not make (not a ceiling)"));
	json_object_object_add(row, "cipher_per_sector", o);
}

/* The luks layer's cipher ceiling, from its own read-back (the kernel
 * crypto API through libcryptsetup's benchmark at this cipher and key
 * size), in MB/s. */
static void add_cipher_ceiling(const struct sb_layer *l, struct json_object *row)
{
	struct json_object *d = json_object_new_object(), *b, *v, *c;
	struct sb_err e = { 0 };

	if (l->ops->describe && l->ops->describe(l, d, &e) == 0 &&
	    json_object_object_get_ex(d, "cipher_benchmark", &b) &&
	    json_object_object_get_ex(b, "encrypt_MiB_s", &v)) {
		c = json_object_new_object();
		json_object_object_add(c, "encrypt_mbs", json_object_new_double(
			json_object_get_double(v) * 1.048576));
		if (json_object_object_get_ex(b, "decrypt_MiB_s", &v))
			json_object_object_add(c, "decrypt_mbs", json_object_new_double(
				json_object_get_double(v) * 1.048576));
		json_object_object_add(c, "method", json_object_new_string(
			"libcryptsetup crypt_benchmark (kernel crypto API via AF_ALG, 1 MiB requests): "
			"the cipher alone, without dm-crypt's per-sector requests"));
		json_object_object_add(row, "cipher_ceiling", c);
	}
	json_object_put(d);
	add_per_sector(l, row);
}

void sb_luks_pl_observe(const struct sb_layer *l, unsigned i, bool after, struct json_object *row)
{
	(void)i;
	if (after)
		add_cipher_ceiling(l, row);
}

/* What is below, capped by the cipher (encrypt for writes, decrypt for
 * reads); without a measured ceiling the sentence says so. */
void sb_luks_pl_model(const struct sb_stack_spec *spec, struct json_object *row,
		      const struct sb_pl_below *b, struct sb_pl_model *m)
{
	static const char *const dir[2] = { "encrypt_mbs", "decrypt_mbs" };
	struct json_object *c, *v;
	unsigned k;

	(void)spec;
	for (k = 0; k < SB_PL_NKEYS; k++)
		sb_pl_why(m, k, "what is below (the cipher ceiling was not measured)");
	if (!json_object_object_get_ex(row, "cipher_ceiling", &c) || !c)
		return;
	for (k = 0; k < SB_PL_NKEYS; k++)
		sb_pl_why(m, k, "what is below, under the cipher ceiling");
	for (k = 0; k < 2; k++) {
		double cap;

		if (!json_object_object_get_ex(c, dir[k], &v) || !v)
			continue;
		cap = json_object_get_double(v);
		/* From userspace the cipher pays for the copies in and out; in a
		 * kernel where that costs more than dm-crypt's own path (UML)
		 * the figure is no ceiling: say so instead of capping. */
		if (b->own.v[k] > cap * 1.05) {
			sb_pl_why(m, k, "what is below (the userspace cipher benchmark, slower than dm-crypt here, "
				  "is no ceiling)");
			continue;
		}
		if (m->exp.v[k] < 0 || cap < m->exp.v[k]) {
			m->exp.v[k] = cap;
			sb_pl_why(m, k, k == 0 ? "the cipher ceiling (encrypt)" : "the cipher ceiling (decrypt)");
		}
	}
}
