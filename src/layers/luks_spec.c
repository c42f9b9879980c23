/* luks's part of the stack description (src/spec/part.h): the luks keys,
 * the cipher/key-size/sector rules and its piece of the summary. In its own
 * file next to luks.c only because luks.c is already ~500 lines. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "spec/part.h"

#define FLD SB_OPT_FLD
#define GiB SB_GiB

static const char *const luks_types[] = { "luks1", "luks2", NULL };
static const char *const luks_sectors[] = { "512", "1024", "2048", "4096", NULL };
static const char *const pbkdf_types[] = { "pbkdf2", "argon2i", "argon2id", NULL };
static const char *const pbkdf_hashes[] = { "sha1", "sha256", "sha512", "ripemd160", "whirlpool", NULL };
static const char *const luks_integrity[] = { "none", "hmac-sha256", "hmac-sha512", "aead", NULL };
static const char *const luks_flags[] = { "no_read_workqueue", "no_write_workqueue",
					  "same_cpu_crypt", "allow_discards", NULL };

static const struct sb_opt pbkdf_opts[] = {
	{ "type", SB_OPT_ENUM, FLD(sb_luks_spec, pbkdf), "pbkdf2", 0, 0, pbkdf_types, NULL,
	  "key derivation function" },
	{ "iterations", SB_OPT_U32, FLD(sb_luks_spec, pbkdf_iterations), "1000", 1, 0, NULL, NULL,
	  "pbkdf2 iterations / argon2 time cost; fixed and small: the stack is throwaway" },
	{ "memory", SB_OPT_SIZE_KIB, FLD(sb_luks_spec, pbkdf_memory_kib), "32MiB", 32 * 1024, 4 * GiB, NULL, NULL,
	  "argon2 memory cost" },
	{ "parallel", SB_OPT_U32, FLD(sb_luks_spec, pbkdf_parallel), "1", 1, 16, NULL, NULL,
	  "argon2 threads" },
	{ "hash", SB_OPT_ENUM, FLD(sb_luks_spec, hash), "sha256", 0, 0, pbkdf_hashes, NULL,
	  "pbkdf2 hash" },
	{ .key = NULL },
};

static const struct sb_opt_section pbkdf_sec = {
	"luks.pbkdf", offsetof(struct sb_stack_spec, luks), -1, pbkdf_opts };

static const struct sb_opt luks_opts[] = {
	{ "type", SB_OPT_ENUM, FLD(sb_luks_spec, type), "luks2", 0, 0, luks_types, NULL,
	  "LUKS header version" },
	{ "cipher", SB_OPT_STR, FLD(sb_luks_spec, cipher), "aes-xts-plain64", 0, 0, NULL, NULL,
	  "cipher-mode[-iv], e.g. aes-xts-plain64, aes-cbc-essiv:sha256" },
	{ "key_size", SB_OPT_U32, FLD(sb_luks_spec, key_size), NULL, 0, 0, NULL, NULL,
	  "key bits (default 512 for xts, else 256); xts: 256|512, others: 128|192|256" },
	{ "sector_size", SB_OPT_U32, FLD(sb_luks_spec, sector_size), "512", 0, 0, luks_sectors, NULL,
	  "encryption sector size; not smaller than the device's logical sector" },
	{ "integrity", SB_OPT_ENUM, FLD(sb_luks_spec, integrity), "none", 0, 0, luks_integrity, NULL,
	  "LUKS2 authenticated encryption: hmac-sha256/512 with any cipher, aead with aes-gcm-random; every sector is zeroed once at build" },
	{ "pbkdf", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &pbkdf_sec,
	  "key derivation settings" },
	{ "flags", SB_OPT_LUKSFLAGS, 0, 0, NULL, 0, 0, luks_flags, NULL,
	  "activation flags, as a list or a mapping flag: true|false" },
	{ "no_read_workqueue", SB_OPT_BOOL, FLD(sb_luks_spec, no_read_workqueue), "false", 0, 0, NULL, NULL,
	  "activation flag: decrypt reads inline" },
	{ "no_write_workqueue", SB_OPT_BOOL, FLD(sb_luks_spec, no_write_workqueue), "false", 0, 0, NULL, NULL,
	  "activation flag: encrypt writes inline" },
	{ "same_cpu_crypt", SB_OPT_BOOL, FLD(sb_luks_spec, same_cpu_crypt), "false", 0, 0, NULL, NULL,
	  "activation flag: encrypt on the submitting CPU" },
	{ "allow_discards", SB_OPT_BOOL, FLD(sb_luks_spec, allow_discards), "false", 0, 0, NULL, NULL,
	  "activation flag: pass discards through" },
	{ .key = NULL },
};

static const struct sb_opt_section luks_sec = {
	"luks", offsetof(struct sb_stack_spec, luks), offsetof(struct sb_stack_spec, luks.enabled), luks_opts };

/* cipher-mode[-iv]: "aes-xts-plain64", "aes-cbc-essiv:sha256", "serpent-xts". */
static bool cipher_split(const char *cipher, char *mode, size_t mlen)
{
	char buf[64], *parts[4], *save = NULL, *tok;
	const char *p;
	unsigned n = 0;

	if (strlen(cipher) >= sizeof(buf) || !*cipher || *cipher == '-' || cipher[strlen(cipher) - 1] == '-' ||
	    strstr(cipher, "--"))
		return false;
	for (p = cipher; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_:", *p))
			return false;
	snprintf(buf, sizeof(buf), "%s", cipher);
	for (tok = strtok_r(buf, "-", &save); tok; tok = strtok_r(NULL, "-", &save)) {
		if (n == 3)
			return false;
		parts[n++] = tok;
	}
	if (n < 2 || strchr(parts[0], ':') || strchr(parts[1], ':'))
		return false;
	if (n == 3 && (parts[2][0] == ':' || parts[2][strlen(parts[2]) - 1] == ':'))
		return false;
	if (strlen(parts[1]) >= mlen)
		return false;
	snprintf(mode, mlen, "%s", parts[1]);
	return true;
}

static int check_luks(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_luks_spec *l = &s->luks;
	char mode[32];
	bool xts, aead;

	if (!l->enabled)
		return 0;
	if (!cipher_split(l->cipher, mode, sizeof(mode)))
		return sb_spec_fail_at(c, "luks.cipher", false,
				    "luks.cipher: '%s' is not of the form cipher-mode[-iv]; e.g. aes-xts-plain64, aes-cbc-essiv:sha256",
				    l->cipher);
	xts = !strcmp(mode, "xts");
	if (!sb_spec_given(c, "luks.key_size"))
		l->key_size = xts ? 512 : 256;
	if (xts && l->key_size != 256 && l->key_size != 512)
		return sb_spec_fail_at(c, "luks.key_size", false,
				    "luks.key_size: %u bits is not valid for %s; xts takes 256 or 512",
				    l->key_size, l->cipher);
	if (!xts && l->key_size != 128 && l->key_size != 192 && l->key_size != 256)
		return sb_spec_fail_at(c, "luks.key_size", false,
				    "luks.key_size: %u bits is not valid for %s; %s takes 128, 192 or 256",
				    l->key_size, l->cipher, mode);
	if (strcmp(l->integrity, "none") && !strcmp(l->type, "luks1"))
		return sb_spec_fail_at(c, "luks.integrity", false,
				       "luks.integrity: %s needs type: luks2 (LUKS1 has no integrity)", l->integrity);
	aead = strstr(l->cipher, "-random") && (!strcmp(mode, "gcm") || !strcmp(mode, "ccm"));
	if (!strcmp(l->integrity, "aead") && !aead)
		return sb_spec_fail_at(c, "luks.integrity", false,
				       "luks.integrity: aead needs an AEAD cipher with random IVs (luks.cipher aes-gcm-random "
				       "or aes-ccm-random), not %s", l->cipher);
	if (aead && strcmp(l->integrity, "aead"))
		return sb_spec_fail_at(c, "luks.cipher", false,
				       "luks.cipher: %s is an AEAD cipher: it needs luks.integrity: aead", l->cipher);
	if (!strcmp(l->type, "luks1")) {
		if (l->sector_size != 512)
			return sb_spec_fail_at(c, "luks.sector_size", false,
					    "luks.sector_size: LUKS1 encrypts 512-byte sectors only; use type: luks2 for %u",
					    l->sector_size);
		if (strcmp(l->pbkdf, "pbkdf2"))
			return sb_spec_fail_at(c, "luks.pbkdf.type", false,
					    "luks.pbkdf.type: LUKS1 supports only pbkdf2");
	}
	if (s->devices.kind == SB_DEVICES_LOOP && l->sector_size < s->devices.loop.sector_size)
		return sb_spec_fail_at(c, "luks.sector_size", false,
				    "luks.sector_size: %u is smaller than the %u-byte logical sectors of the loop devices (devices.loop.sector_size); use %u or larger",
				    l->sector_size, s->devices.loop.sector_size, s->devices.loop.sector_size);
	return 0;
}

static void luks_summary(const struct sb_stack_spec *s, char *buf, size_t len)
{
	if (s->luks.enabled)
		sb_spec_append(buf, len, " → %s %s/%u, %u B sectors", !strcmp(s->luks.type, "luks1") ? "LUKS1" : "LUKS2",
			       s->luks.cipher, s->luks.key_size, s->luks.sector_size);
	if (s->luks.enabled && strcmp(s->luks.integrity, "none"))
		sb_spec_append(buf, len, ", integrity %s", s->luks.integrity);
}

static const struct sb_opt luks_top[] = {
	{ "luks", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &luks_sec,
	  "LUKS encryption (absent: none; luks: {} for defaults)" },
	{ .key = NULL },
};

const struct sb_spec_part sb_spec_luks = {
	.parent = "",
	.opts = luks_top,
	.base = offsetof(struct sb_stack_spec, luks),
	.check = check_luks,
	.summary = luks_summary,
	.block_device = true,
};
