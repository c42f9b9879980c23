/* The export layer: after `mount`, the stack is served from a private
 * server network namespace to a client namespace over a veth pair (tc tbf
 * rate, netem delay), by a private sshd (SSHFS), smbd (SMB) or the kernel
 * NFS server, and mounted by the client. Every namespace, link, qdisc,
 * daemon and client mount is a state object (objects.c). The run pipeline
 * runs the suites on each target's mountpoint. */
#ifndef SB_EXPORT_EXPORT_H
#define SB_EXPORT_EXPORT_H

#include <json-c/json.h>

#include "core/layer.h"
#include "export/export_spec.h"

#define SB_EXPORT_MAX_TARGETS 8

struct sb_export_target {
	char proto[8];                   /* "sshfs", "smb", "nfs" */
	char name[48];                   /* "sshfs-chacha20": the results' row name suffix */
	char label[64];                  /* "SSHFS chacha20": the table's label */
	char cipher[64];                 /* sshfs: the ssh cipher, else "" */
	char options[SB_OPTSTR_MAX];     /* the client's options as given to it */
	char mountpoint[SB_PATH_MAX];
};

/* The client mounts the export layer l has built; *t points into l. */
unsigned sb_export_targets(const struct sb_layer *l, const struct sb_export_target **t);
/* {"rate", "rate_bps", "delay_ns", "measured": {"tool", "to_server_bps",
 * "to_client_bps"}} of the built link (new object). */
struct json_object *sb_export_link_json(const struct sb_layer *l);
/* The export layer of stack s (struct sb_stack, core/stack.h), NULL when
 * it has none: found by its ops, never by its name. */
const struct sb_layer *sb_export_layer(const struct sb_stack *s);

#endif
