/* The export section's option rows and checks. The rows use the generic
 * table machinery of src/spec (options.h); this file owns them so that the
 * network export can change without touching the other sections. */
#include "export/export_spec.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spec/part.h"

#define FLD SB_OPT_FLD
/* SB_SPEC_OWN: offsets relative to struct sb_export_spec, the export
 * layer's own storage slot (parts.c relocates the sub-sections too) */
#define EXP(f) offsetof(struct sb_export_spec, f)

_Static_assert(sizeof(struct sb_export_spec) <= SB_LAYER_DATA_MAX, "export options do not fit their slot");

const char *const sb_export_protocols[] = { "sshfs", "smb", "nfs", NULL };
/* What OpenSSH 9.2 (Debian 12) offers: `ssh -Q cipher`. */
const char *const sb_export_ssh_ciphers[] = {
	"chacha20-poly1305@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr",
	"aes128-gcm@openssh.com", "aes256-gcm@openssh.com", NULL };
static const char *const smb_versions[] = { "3.1.1", "3.0", "2.1", NULL };
static const char *const nfs_versions[] = { "4.2", "4.1", "3", NULL };
static const char *const nfs_sync[] = { "sync", "async", NULL };

static const struct sb_opt link_opts[] = {
	{ "rate", SB_OPT_STR, FLD(sb_export_link_spec, rate), "", 0, 0, NULL, NULL,
	  "link rate each way, tc tbf: e.g. 1gbit, 100mbit, 2.5gbit (empty: unshaped veth)" },
	{ "delay", SB_OPT_DURATION, FLD(sb_export_link_spec, delay_ns), "0", 0, 0, NULL, NULL,
	  "one-way delay added by tc netem on each end, e.g. 0.2ms (0: none)" },
	{ .key = NULL },
};

static const struct sb_opt_section link_sec = { "export.link", EXP(link), -1, link_opts };

static const struct sb_opt sshfs_opts[] = {
	{ "cipher", SB_OPT_WORDS, FLD(sb_export_sshfs_spec, ciphers), "chacha20-poly1305@openssh.com", 1, 0,
	  sb_export_ssh_ciphers, NULL,
	  "ssh -c cipher; a list gives one client mount and one row per cipher" },
	{ "compression", SB_OPT_BOOL, FLD(sb_export_sshfs_spec, compression), "false", 0, 0, NULL, NULL,
	  "ssh -C" },
	{ .key = NULL },
};

static const struct sb_opt_section sshfs_sec = { "export.sshfs", EXP(sshfs), -1, sshfs_opts };

static const struct sb_opt smb_opts[] = {
	{ "version", SB_OPT_ENUM, FLD(sb_export_smb_spec, version), "3.1.1", 0, 0, smb_versions, NULL,
	  "SMB dialect (mount.cifs vers=)" },
	{ "signing", SB_OPT_BOOL, FLD(sb_export_smb_spec, signing), "false", 0, 0, NULL, NULL,
	  "sign every message (server signing = mandatory, client sec=ntlmsspi)" },
	{ "encryption", SB_OPT_BOOL, FLD(sb_export_smb_spec, encryption), "false", 0, 0, NULL, NULL,
	  "encrypt the traffic (smb encrypt = required, client seal; 3.x only)" },
	{ .key = NULL },
};

static const struct sb_opt_section smb_sec = { "export.smb", EXP(smb), -1, smb_opts };

static const struct sb_opt nfs_opts[] = {
	{ "version", SB_OPT_ENUM, FLD(sb_export_nfs_spec, version), "4.2", 0, 0, nfs_versions, NULL,
	  "NFS version (mount.nfs vers=)" },
	{ "sync", SB_OPT_ENUMINT, FLD(sb_export_nfs_spec, sync), "sync", 0, 0, nfs_sync, NULL,
	  "export option: sync answers a write after it is on disk, async before" },
	{ "rsize", SB_OPT_SIZE, FLD(sb_export_nfs_spec, rsize), "0", 0, 1ULL << 20, NULL, NULL,
	  "client read size, 4KiB..1MiB (0: negotiated)" },
	{ "wsize", SB_OPT_SIZE, FLD(sb_export_nfs_spec, wsize), "0", 0, 1ULL << 20, NULL, NULL,
	  "client write size, 4KiB..1MiB (0: negotiated)" },
	{ .key = NULL },
};

static const struct sb_opt_section nfs_sec = { "export.nfs", EXP(nfs), -1, nfs_opts };

static const struct sb_opt export_opts[] = {
	{ "protocol", SB_OPT_WORDS, FLD(sb_export_spec, protocols), "sshfs", 1, 0, sb_export_protocols, NULL,
	  "how the client mounts the stack; a list gives one client row each" },
	{ "link", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &link_sec,
	  "the veth link between server and client namespaces (absent: unshaped)" },
	{ "sshfs", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &sshfs_sec, "SSHFS client and private sshd" },
	{ "smb", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &smb_sec, "SMB: private smbd, mount.cifs" },
	{ "nfs", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &nfs_sec, "NFS: kernel server in the namespace, mount.nfs" },
	{ .key = NULL },
};

static const struct sb_opt_section export_sec = {
	"export", 0, offsetof(struct sb_export_spec, enabled), export_opts };

static const struct sb_opt export_root[] = {
	{ "export", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &export_sec,
	  "serve the stack to a client namespace over sshfs, smb, nfs (absent: local only)" },
	{ .key = NULL },
};

static int export_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s);

const struct sb_spec_part sb_export_part = {
	.parent = "",
	.opts = export_root,
	.base = SB_SPEC_OWN,
	.data_size = sizeof(struct sb_export_spec),
	.check = export_check,
};

const struct sb_export_spec *sb_export_spec_of(const struct sb_stack_spec *s)
{
	return sb_spec_layer_cdata(s, &sb_export_part);
}

int sb_export_rate_parse(const char *s, uint64_t *bps)
{
	static const struct { const char *u; double f; } units[] = {
		{ "bit", 1 }, { "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 }, { "tbit", 1e12 },
	};
	char *end;
	double v;
	size_t i;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	v = strtod(s, &end);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].u))
			break;
	if (i == sizeof(units) / sizeof(units[0]) || !isfinite(v))
		return -EINVAL;
	v *= units[i].f;
	if (v < 8000 || v > 1e12)   /* tbf below 1 kB/s or above 1 Tbit/s: not a link */
		return -ERANGE;
	*bps = (uint64_t)v;
	return 0;
}

/* Rules no table row can say (units of link.rate and link.delay, sizes,
 * SMB 2.1 without encryption); link.rate_bps is derived here. */
static int export_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_export_spec *e = sb_spec_layer_data(s, &sb_export_part);
	int rc;

	if (!e->enabled)
		return 0;
	e->link.rate_bps = 0;
	if (e->link.rate[0]) {
		rc = sb_export_rate_parse(e->link.rate, &e->link.rate_bps);
		if (rc == -ERANGE)
			return sb_spec_fail_at(c, "export.link.rate", false,
					    "export.link.rate: '%s' is out of range; allowed 8kbit to 1000gbit",
					    e->link.rate);
		if (rc < 0)
			return sb_spec_fail_at(c, "export.link.rate", false,
					    "export.link.rate: '%s' is not a rate; use a number with bit, kbit, "
					    "mbit, gbit or tbit (bits per second, as tc), e.g. 1gbit", e->link.rate);
	}
	if (e->link.delay_ns > 10ULL * 1000000000ULL)
		return sb_spec_fail_at(c, "export.link.delay", false,
				    "export.link.delay: at most 10s");
	if ((e->nfs.rsize && e->nfs.rsize < 4096) || (e->nfs.wsize && e->nfs.wsize < 4096))
		return sb_spec_fail_at(c, e->nfs.rsize && e->nfs.rsize < 4096 ?
						     "export.nfs.rsize" : "export.nfs.wsize", false,
				    "export.nfs: rsize and wsize are 4KiB to 1MiB (or 0: negotiated)");
	if (e->smb.encryption && !strcmp(e->smb.version, "2.1"))
		return sb_spec_fail_at(c, "export.smb.encryption", false,
				    "export.smb.encryption: needs SMB 3.0 or 3.1.1 (2.1 has no encryption)");
	return 0;
}
