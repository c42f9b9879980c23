/* stackbench ciphers [--seconds S] [--dm-crypt SPEC[:BITS]]... [--ssh LIST]
 * [--json]: the cipher table of this machine (bench/ciphers.h measures). */
#include "cmd/ciphers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/ciphers.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "util/json.h"

enum { O_SECONDS = 1, O_JSON, O_DM, O_SSH };

static int parse_seconds(const char *v, double *s, struct sb_err *err)
{
	char *end;

	errno = 0;
	*s = strtod(v, &end);
	if (errno || end == v || *end || !(*s >= 0.01 && *s <= 60))
		return sb_args_usage_error("ciphers", err, "--seconds '%s': a number of seconds per figure, 0.01 to 60", v);
	return 0;
}

static int add_ssh(struct sb_ciphers_args *a, const char *v, struct sb_err *err)
{
	char *save = NULL, *tok, *nb;

	a->ssh_given = true;
	if (!strcmp(v, "none"))
		return 0;
	nb = strdup(v);
	if (!nb)
		return sb_err_set(err, -ENOMEM, "out of memory");
	for (tok = strtok_r(nb, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *canon;
		struct sb_err e = { 0 };

		if (sb_ciphers_ssh_lookup(tok, &canon, NULL, &e) < 0) {
			free(nb);
			return sb_args_usage_error("ciphers", err, "--ssh: %s", e.msg);
		}
		if (a->nssh >= SB_CIPHERS_MAX) {
			free(nb);
			return sb_args_usage_error("ciphers", err, "--ssh: at most %d ciphers", SB_CIPHERS_MAX);
		}
		a->ssh[a->nssh++] = canon;  /* the static canonical name */
	}
	free(nb);
	return 0;
}

static int add_dm(struct sb_ciphers_args *a, const char *v, struct sb_err *err)
{
	struct sb_err e = { 0 };

	a->dm_given = true;
	if (!strcmp(v, "none"))
		return 0;
	if (sb_ciphers_dm_check(v, &e) < 0)
		return sb_args_usage_error("ciphers", err, "--dm-crypt: %s", e.msg);
	if (a->ndm >= SB_CIPHERS_MAX)
		return sb_args_usage_error("ciphers", err, "--dm-crypt: at most %d ciphers", SB_CIPHERS_MAX);
	a->dm[a->ndm++] = v;
	return 0;
}

/* The options, with the words `stackbench help ciphers` shows for each. */
static const struct sb_optdef opts[] = {
	{ "seconds", 0, true, O_SECONDS, "S", "per figure (default 0.1)" },
	{ "time", 't', true, O_SECONDS, "S", "the same as --seconds" },
	{ "json", 0, false, O_JSON, NULL, "print JSON" },
	{ "dm-crypt", 0, true, O_DM, "CIPHER[:KEYBITS]", "a dm-crypt cipher to measure (repeatable; none: no dm-crypt rows)" },
	{ "ssh", 0, true, O_SSH, "LIST", "comma list of ssh -c names, or none" },
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_ciphers_parse(int argc, char **argv, struct sb_ciphers_args *a, struct sb_err *err)
{
	struct sb_args p;
	const char *val;
	int c, rc = 0;

	memset(a, 0, sizeof(*a));
	a->seconds = 0.1;
	if (sb_args_init(&p, argc, argv, 1, opts, "ciphers", err) < 0)
		return -ENOMEM;
	while (rc == 0 && (c = sb_args_next(&p, &val, err)) > 0) {
		switch (c) {
		case O_SECONDS: rc = parse_seconds(val, &a->seconds, err); break;
		case O_JSON: a->json = true; break;
		case O_DM: rc = add_dm(a, val, err); break;
		case O_SSH: rc = add_ssh(a, val, err); break;
		}
	}
	if (rc == 0 && c < 0)
		rc = c;
	if (rc == 0 && p.npos)
		rc = sb_args_usage_error("ciphers", err, "takes no operands ('%s')", p.pos[0]);
	sb_args_free(&p);
	for (unsigned i = 0; !a->dm_given && sb_ciphers_dm_default[i]; i++)
		a->dm[a->ndm++] = sb_ciphers_dm_default[i];
	for (unsigned i = 0; !a->ssh_given && sb_ciphers_ssh_default[i]; i++)
		a->ssh[a->nssh++] = sb_ciphers_ssh_default[i];
	a->dm[a->ndm] = a->ssh[a->nssh] = NULL;
	return rc;
}

static double get_num(struct json_object *o, const char *k1, const char *k2)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k1, &v) || (k2 && !json_object_object_get_ex(v, k2, &v)))
		return -1;
	return json_object_get_double(v);
}

static void print_dm(struct json_object *arr, FILE *f)
{
	size_t n = json_object_array_length(arr);

	fprintf(f, "dm-crypt ciphers, kernel crypto API (AF_ALG), one request per sector; " SB_CIPHERS_UNIT "\n");
	fprintf(f, "%-36s %4s %6s %9s %9s  %s\n", "cipher", "key", "sector", "encrypt", "decrypt", "driver");
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i), *secs = NULL;
		const char *e = sb_json_str(o, "error", NULL), *drv = sb_json_str(o, "driver", NULL);
		const char *mod = sb_json_str(o, "module", NULL);
		int bits = (int)get_num(o, "key_bits", NULL), row = 0;

		json_object_object_get_ex(o, "sectors", &secs);
		json_object_object_foreach(secs, sec, s) {
			char who[200] = "";

			/* the driver once, on the cipher's first row */
			if (!row && drv)
				snprintf(who, sizeof(who), "  %s%s%s%s", drv, mod && *mod ? " (" : "",
					 mod && *mod ? mod : "", mod && *mod ? ")" : "");
			fprintf(f, "%-36s %4d %6s %9.1f %9.1f%s\n", row ? "" : sb_json_str(o, "cipher", NULL), bits, sec,
				get_num(s, "encrypt_mbs", NULL), get_num(s, "decrypt_mbs", NULL), who);
			row++;
		}
		if (e)
			fprintf(f, "%-36s %4d %6s  not measured: %s\n", row ? "" : sb_json_str(o, "cipher", NULL), bits, "-", e);
		else if (get_num(o, "request_1MiB", "encrypt_mbs") >= 0)
			fprintf(f, "%-36s %4d %6s %9.1f %9.1f  (libcryptsetup benchmark: 1 MiB requests)\n", "", bits,
				"1MiB", get_num(o, "request_1MiB", "encrypt_mbs"), get_num(o, "request_1MiB", "decrypt_mbs"));
	}
}

static void print_ssh(struct json_object *arr, FILE *f)
{
	size_t n = json_object_array_length(arr);

	fprintf(f, "SSH ciphers, OpenSSL EVP encrypt, by block size; " SB_CIPHERS_UNIT "\n");
	fprintf(f, "%-30s", "cipher");
	for (unsigned b = 0; b < sb_ciphers_nssh_blocks; b++)
		fprintf(f, " %9u B", sb_ciphers_ssh_blocks[b]);
	fprintf(f, "  implementation\n");
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);
		const char *e = sb_json_str(o, "error", NULL);

		fprintf(f, "%-30s", sb_json_str(o, "cipher", NULL));
		for (unsigned b = 0; b < sb_ciphers_nssh_blocks; b++) {
			char k[16];
			double v;

			snprintf(k, sizeof(k), "%u", sb_ciphers_ssh_blocks[b]);
			v = get_num(o, "blocks", k);
			if (v >= 0)
				fprintf(f, " %11.1f", v);
			else
				fprintf(f, " %11s", "-");
		}
		fprintf(f, "  %s\n", e ? e : sb_json_str(o, "implementation", NULL));
	}
}

void sb_cmd_ciphers_print(struct json_object *res, FILE *f)
{
	struct json_object *dm = NULL, *ssh = NULL, *notes = NULL;

	json_object_object_get_ex(res, "dm_crypt", &dm);
	json_object_object_get_ex(res, "ssh", &ssh);
	json_object_object_get_ex(res, "notes", &notes);
	if (dm && json_object_array_length(dm))
		print_dm(dm, f);
	if (dm && json_object_array_length(dm) && ssh && json_object_array_length(ssh))
		fprintf(f, "\n");
	if (ssh && json_object_array_length(ssh))
		print_ssh(ssh, f);
	for (size_t i = 0; notes && i < json_object_array_length(notes); i++)
		fprintf(f, "%snote: %s\n", i ? "" : "\n", json_object_get_string(json_object_array_get_idx(notes, i)));
}

int sb_cmd_ciphers(int argc, char **argv, struct sb_err *err)
{
	struct sb_ciphers_args a;
	struct json_object *res = NULL;
	int rc = sb_cmd_ciphers_parse(argc, argv, &a, err);

	if (rc == 0)
		rc = sb_ciphers_measure(a.dm, a.ssh, a.seconds, &res, err);
	if (rc == 0) {
		if (a.json)
			printf("%s\n", json_object_to_json_string_ext(res, JSON_C_TO_STRING_PRETTY |
								    JSON_C_TO_STRING_NOSLASHESCAPE));
		else
			sb_cmd_ciphers_print(res, stdout);
	}
	json_object_put(res);
	return rc;
}

const struct sb_cmd sb_cmd_ciphers_row = {
	.name = "ciphers",
	.fn = sb_cmd_ciphers,
	.flags = 0,
	.opts = opts,
	.summary = "measure this machine's dm-crypt and SSH ciphers (the ceilings of LUKS and SSHFS)",
	.usage =
	  "usage: stackbench ciphers [--seconds S] [--dm-crypt CIPHER[:KEYBITS]]... [--ssh LIST] [--json]\n"
	  "  dm-crypt ciphers through the kernel crypto API (AF_ALG), one request per 512- and\n"
	  "  4096-byte sector with dm-crypt's IV, encrypt and decrypt, and the kernel driver that\n"
	  "  served each; SSH ciphers through OpenSSL's EVP interface at 16..16384-byte blocks, the\n"
	  "  `openssl speed -evp` shape, and whether OpenSSL uses AES-NI (x86) or the ARMv8 AES,\n"
	  "  PMULL and NEON instructions (ARM); an ARM SoC's crypto engine (the Helios4's CESA)\n"
	  "  shows as the dm-crypt rows' kernel driver (mv-cbc-aes, marvell-cesa). MB/s = 10^6 B/s.\n"
	  "  --seconds S (-t, --time): per figure, default 0.1 (about 5 s in all).\n"
	  "  --dm-crypt: repeat for several, e.g. aes-xts-plain64:512, aes-cbc-essiv:sha256:256,\n"
	  "  xchacha12,aes-adiantum-plain64 (key 256 bits unless given); `none` leaves them out.\n"
	  "  --ssh: comma list of ssh -c names (chacha20-poly1305@openssh.com, aes128-ctr,\n"
	  "  aes192-ctr, aes256-ctr, aes128-gcm@openssh.com, aes256-gcm@openssh.com) or `none`.\n"
	  "  A kernel without AF_ALG (CONFIG_CRYPTO_USER_API_SKCIPHER) gets a row saying so;\n"
	  "  `stackbench --sandbox ciphers` measures the throwaway kernel's (generic C) ciphers.\n",
};
