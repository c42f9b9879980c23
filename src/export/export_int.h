/* Internal to src/export: processes in a network namespace, the link, the
 * daemons. Everything here is driven by the export layer (export.c). */
#ifndef SB_EXPORT_EXPORT_INT_H
#define SB_EXPORT_EXPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/state.h"
#include "util/err.h"

/* The private /30 of a run: server .1, client .2 (10.213.N.0/30; it exists
 * only inside the two namespaces). */
struct sb_export_net {
	char srv_ns[48], cli_ns[48];      /* /run/netns/<name> (ip netns) */
	char srv_if[16], cli_if[16];      /* veth ends, <= 15 bytes */
	char srv_addr[16], cli_addr[16];
};

/* Names from the state directory and stack name, so two stacks (or two
 * state directories) never share a namespace or veth. */
void sb_export_net_names(const char *stack, struct sb_export_net *n);

/* Run argv (argv[0] looked up in PATH) in network namespace ns (NULL: this
 * one), stdin /dev/null, stdout into out (NULL: discarded), bounded by
 * timeout_ms (killed after). Non-zero exit: -EIO with its stderr tail;
 * not run at all (not installed, no such namespace): -errno, saying why. */
int sb_export_cmd(const char *ns, const char *const *argv, char *out, size_t outlen,
		  unsigned timeout_ms, struct sb_err *err);
/* Start a long-running argv in ns, in its own session, output to log
 * (-errno, saying why, when it cannot be run at all). */
int sb_export_spawn(const char *ns, const char *const *argv, const char *log, pid_t *pid,
		    struct sb_err *err);
/* "PID STARTTIME" of a process (the daemon objects' extra field). */
int sb_export_proc_id(pid_t pid, char *buf, size_t len);
/* The recorded process is alive (not a zombie, same start time). */
bool sb_export_proc_alive(const char *id);
/* SIGTERM, up to 5 s, then SIGKILL, up to 5 s. 0 when it is gone. */
int sb_export_proc_stop(const char *id, const char *what, struct sb_err *err);
/* SIGKILL every process whose network namespace is /run/netns/ns (a daemon
 * a killed build started before recording its pid); bounded wait. */
int sb_export_netns_kill_all(const char *ns, struct sb_err *err);
bool sb_export_netns_exists(const char *ns);
/* Pids (not zombies, not us) in network namespace /run/netns/ns; at most max. */
unsigned sb_export_netns_pids(const char *ns, pid_t *pids, unsigned max);
/* Load modules (NULL-terminated names) with the kernel's modprobe. */
void sb_export_modprobe(const char *const *mods);

/* Object kinds of the export layer in the state file. */
int sb_export_obj_teardown(const struct sb_state_obj *obj, struct sb_err *err);
bool sb_export_obj_exists(const struct sb_state_obj *obj);
/* leftovers.c: what a killed run of stack left when its state file is gone. */
struct sb_leftovers;
struct sb_stack;
void sb_export_leftovers(const struct sb_stack *s, struct sb_leftovers *found);
/* The run directory of a stack: STATE_DIR/export-NAME. */
void sb_export_rundir_path(const char *stack, char *out, size_t len);

#endif

/* The layer's own data (sb_layer.priv). */
#include "export/export.h"

struct sb_export_priv {
	struct sb_export_net net;
	char rundir[SB_PATH_MAX];        /* 0700: keys, configs, logs */
	unsigned ntargets;
	struct sb_export_target t[SB_EXPORT_MAX_TARGETS];
	double to_server_bps, to_client_bps;   /* iperf3, measured after shaping */
};

/* link.c: namespaces, veth, addresses, qdiscs; then iperf3 both ways. */
/* The client mountpoint of target t (RUNDIR/mnt-NAME, in t->mountpoint):
 * recorded ("mntdir") before it is made; with fstype, the mount on it is
 * recorded too ("mount", before the caller mounts). */
int sb_export_mountpoint(struct sb_state *st, const struct sb_export_priv *p, struct sb_export_target *t,
			 const char *fstype, struct sb_err *err);

int sb_export_link_build(struct sb_state *st, const struct sb_export_spec *e,
			 struct sb_export_priv *p, struct sb_err *err);
int sb_export_link_measure(struct sb_state *st, struct sb_export_priv *p, struct sb_err *err);
/* sshfs.c: the private sshd, then one sshfs mount per cipher. */
int sb_export_sshfs_build(struct sb_state *st, const struct sb_export_spec *e, const char *export_dir,
			  struct sb_export_priv *p, struct sb_err *err);
/* nfs.c: the namespace's kernel NFS server (NFSv4 only) and the client. */
int sb_export_nfs_build(struct sb_state *st, const struct sb_export_spec *e, const char *export_dir,
			struct sb_export_priv *p, struct sb_err *err);
int sb_export_nfsd_stop(const char *ns, struct sb_err *err);
/* smb.c: a private smbd and the kernel CIFS client. */
int sb_export_smb_build(struct sb_state *st, const struct sb_export_spec *e, const char *export_dir,
			struct sb_export_priv *p, struct sb_err *err);
/* A daemon in ns, recorded before it starts, its pid once it has. */
int sb_export_daemon(struct sb_state *st, const char *name, const char *ns, const char *const *argv,
		     const char *log, char *id, size_t idlen, struct sb_err *err);
