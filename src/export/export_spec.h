/* export: the stack seen from a client over the network (SSHFS, SMB, NFS)
 * through a veth pair between two private network namespaces. This header
 * is the export section of the stack format: its spec struct, kept in the
 * export layer's own storage slot (SB_SPEC_OWN), and its part (option rows
 * and checks, export_spec.c), joined in through the layer registry. */
#ifndef SB_EXPORT_EXPORT_SPEC_H
#define SB_EXPORT_EXPORT_SPEC_H

#include <stdbool.h>
#include <stdint.h>

/* export.protocol, a bit mask over sb_export_protocols[] */
#define SB_EXPORT_SSHFS (1u << 0)
#define SB_EXPORT_SMB (1u << 1)
#define SB_EXPORT_NFS (1u << 2)

enum sb_export_nfs_sync { SB_NFS_SYNC = 0, SB_NFS_ASYNC = 1 };

struct sb_export_link_spec {
	char rate[32];            /* as written, "1gbit"; "" = unshaped */
	uint64_t rate_bps;        /* bits per second; 0 = unshaped */
	uint64_t delay_ns;        /* netem delay each way; 0 = none */
};

struct sb_export_sshfs_spec {
	uint32_t ciphers;         /* bit mask over sb_export_ssh_ciphers[]: one client row each */
	bool compression;
};

struct sb_export_smb_spec {
	char version[8];          /* "3.1.1" | "3.0" | "2.1" */
	bool signing;
	bool encryption;
};

struct sb_export_nfs_spec {
	char version[8];          /* "4.2" | "4.1" | "3" */
	int sync;                 /* enum sb_export_nfs_sync */
	uint64_t rsize, wsize;    /* bytes; 0 = the client's default */
};

struct sb_export_spec {
	bool enabled;
	uint32_t protocols;       /* SB_EXPORT_* */
	struct sb_export_link_spec link;
	struct sb_export_sshfs_spec sshfs;
	struct sb_export_smb_spec smb;
	struct sb_export_nfs_spec nfs;
};

extern const char *const sb_export_protocols[];    /* "sshfs", "smb", "nfs" */
extern const char *const sb_export_ssh_ciphers[];  /* ssh -c names */

/* The export layer's part of the stack format (the top-level section
 * "export"): its rows and checks (docs/layers.md). */
struct sb_spec_part;
struct sb_stack_spec;
extern const struct sb_spec_part sb_export_part;

/* This spec's export section (in its own slot); enabled false: none. */
const struct sb_export_spec *sb_export_spec_of(const struct sb_stack_spec *s);

/* "1gbit" / "100mbit" / "2.5gbit" (tc's units, decimal, bits per second)
 * -> bits per second; -EINVAL for anything else. */
int sb_export_rate_parse(const char *s, uint64_t *bps);

#endif
