/* NFS: the kernel NFS server of the server namespace (nfsd is per network
 * namespace since Linux 4.x), run NFSv4-only so no rpcbind, statd or lockd
 * is needed. rpc.nfsd, exportfs and rpc.mountd keep their state in fixed
 * places (/proc/fs/nfsd, /var/lib/nfs/etab), so they run in a private mount
 * namespace (unshare -m) where /var/lib/nfs is a fresh tmpfs and
 * /proc/fs/nfsd is that network namespace's nfsd: the machine's own NFS
 * state and /etc/exports are never read or written. The client is the
 * kernel's, mounting from the client namespace into our mount namespace. */
#include "export/export_int.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libmount/libmount.h>

#include "util/log.h"

static int file_has(const char *path, const char *needle)
{
	char buf[4096];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

static int write_script(const char *path, const struct sb_export_spec *e, const struct sb_export_priv *p,
			const char *export_dir, struct sb_err *err)
{
	FILE *f = fopen(path, "wxe");

	if (!f)
		return sb_err_sys(err, -errno, "cannot create %s", path);
	fprintf(f, "#!/bin/sh\n# NFSv4 server of one stackbench run, in its own mount namespace\n"
		"set -e\nmount --make-rprivate /\n"
		"mount -t tmpfs -o mode=0755 tmpfs /var/lib/nfs\n"
		"mkdir -p /var/lib/nfs/v4recovery\n: > /var/lib/nfs/etab\n: > /var/lib/nfs/rmtab\n"
		"mount -t nfsd nfsd /proc/fs/nfsd\n"
		"rpc.nfsd -N 3 -U 8\n"
		"exportfs -o rw,%s,no_root_squash,no_subtree_check,fsid=0,insecure %s/32:%s\n"
		/* no client to reclaim state: end the 90 s grace period now */
		"echo Y > /proc/fs/nfsd/v4_end_grace || true\n"
		"echo stackbench-nfs-ready\n"
		"exec rpc.mountd -F -N 3 -u\n",
		e->nfs.sync == SB_NFS_ASYNC ? "async" : "sync", p->net.cli_addr, export_dir);
	if (fclose(f))
		return sb_err_sys(err, -errno, "cannot write %s", path);
	return 0;
}

static int start_server(struct sb_state *st, const struct sb_export_spec *e, const char *export_dir,
			struct sb_export_priv *p, struct sb_err *err)
{
	char script[SB_PATH_MAX + 32], log[SB_PATH_MAX + 32], id[64], tail[1024] = "";
	const char *argv[] = { "unshare", "-m", "sh", script, NULL };
	const char *mods[] = { "nfsd", "nfsv4", NULL };
	unsigned i;
	int rc;

	sb_export_modprobe(mods);
	if (!file_has("/proc/filesystems", "\tnfsd\n"))
		return sb_err_set(err, -ENOTSUP, "export nfs needs the kernel NFS server, and this kernel has "
				  "none (no nfsd in /proc/filesystems: CONFIG_NFSD; modprobe nfsd)");
	if (access("/usr/sbin/rpc.nfsd", X_OK) || access("/usr/sbin/rpc.mountd", X_OK))
		return sb_err_set(err, -ENOENT, "export nfs needs rpc.nfsd and rpc.mountd (apt-get install "
				  "nfs-kernel-server; stackbench never starts or enables its service)");
	snprintf(script, sizeof(script), "%s/nfs-server.sh", p->rundir);
	snprintf(log, sizeof(log), "%s/nfs-server.log", p->rundir);
	rc = write_script(script, e, p, export_dir, err);
	/* the nfsd threads are the kernel's, not the daemon's: their own object */
	if (!rc)
		rc = sb_state_add(st, "export", "nfsd", p->net.srv_ns, NULL, err);
	if (!rc)
		rc = sb_export_daemon(st, "nfs-server", p->net.srv_ns, argv, log, id, sizeof(id), err);
	if (rc)
		return rc;
	for (i = 0; i < 300 && !file_has(log, "stackbench-nfs-ready") && sb_export_proc_alive(id); i++)
		usleep(50000);
	if (file_has(log, "stackbench-nfs-ready") && sb_export_proc_alive(id))
		return 0;
	{
		FILE *f = fopen(log, "re");

		if (f) {
			size_t n = fread(tail, 1, sizeof(tail) - 1, f);

			tail[n] = '\0';
			fclose(f);
		}
	}
	return sb_err_set(err, -EIO, "the NFS server in namespace %s did not start: %s", p->net.srv_ns,
			  tail[0] ? tail : "(its log is empty)");
}

static int client_mount(struct sb_state *st, const struct sb_export_spec *e, struct sb_export_priv *p,
			struct sb_err *err)
{
	struct sb_export_target *t = &p->t[p->ntargets];
	char opts[128], src[64];
	const char *argv[] = { "mount", "-t", "nfs4", "-o", opts, src, t->mountpoint, NULL };
	size_t n;
	int rc;

	snprintf(t->proto, sizeof(t->proto), "nfs");
	snprintf(t->name, sizeof(t->name), "nfs-%s", e->nfs.version);
	snprintf(t->label, sizeof(t->label), "NFSv%s%s", e->nfs.version,
		 e->nfs.sync == SB_NFS_ASYNC ? " async" : "");
	n = (size_t)snprintf(opts, sizeof(opts), "vers=%s,proto=tcp,retry=0", e->nfs.version);
	if (e->nfs.rsize)
		n += (size_t)snprintf(opts + n, sizeof(opts) - n, ",rsize=%llu", (unsigned long long)e->nfs.rsize);
	if (e->nfs.wsize)
		snprintf(opts + n, sizeof(opts) - n, ",wsize=%llu", (unsigned long long)e->nfs.wsize);
	snprintf(t->options, sizeof(t->options), "%s (export: %s)", opts,
		 e->nfs.sync == SB_NFS_ASYNC ? "async" : "sync");
	snprintf(src, sizeof(src), "%s:/", p->net.srv_addr);
	rc = sb_export_mountpoint(st, p, t, "nfs", err);
	if (!rc)
		rc = sb_export_cmd(p->net.cli_ns, argv, NULL, 0, 60000, err);
	if (rc)
		return rc;
	sb_verbose("export: NFSv%s mounted on %s", e->nfs.version, t->mountpoint);
	p->ntargets++;
	return 0;
}

int sb_export_nfs_build(struct sb_state *st, const struct sb_export_spec *e, const char *export_dir,
			struct sb_export_priv *p, struct sb_err *err)
{
	int rc;

	if (!strcmp(e->nfs.version, "3"))
		return sb_err_set(err, -ENOTSUP, "export.nfs.version 3 needs rpcbind, rpc.statd and lockd in the "
				  "server namespace, which this build does not start; use 4.2 or 4.1");
	if (p->ntargets >= SB_EXPORT_MAX_TARGETS)
		return sb_err_set(err, -E2BIG, "export: at most %d client mounts", SB_EXPORT_MAX_TARGETS);
	rc = start_server(st, e, export_dir, p, err);
	return rc ? rc : client_mount(st, e, p, err);
}

/* The "nfsd" object: stop the namespace's nfsd threads (which also drops
 * its export caches and so the hold on the exported filesystem). */
int sb_export_nfsd_stop(const char *ns, struct sb_err *err)
{
	const char *argv[] = { "unshare", "-m", "sh", "-c",
			       "mount --make-rprivate / && mount -t nfsd nfsd /proc/fs/nfsd && "
			       "echo 0 > /proc/fs/nfsd/threads", NULL };

	if (!sb_export_netns_exists(ns) || !file_has("/proc/filesystems", "\tnfsd\n"))
		return 0;
	return sb_export_cmd(ns, argv, NULL, 0, 60000, err);
}
