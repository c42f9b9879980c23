/* SSHFS: a private sshd in the server namespace (throwaway host and client
 * keys in the 0700 run directory, its own sshd_config, port 2222 on the
 * namespace's address only), and one sshfs client per cipher, started in
 * the client namespace but in our mount namespace, so the FUSE mount is
 * where the benchmark runs. Keys are files (ssh wants files), never argv. */
#include "export/export_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libmount/libmount.h>

#include "util/fs.h"
#include "util/log.h"

#define SSHD_PORT "2222"

int sb_export_daemon(struct sb_state *st, const char *name, const char *ns, const char *const *argv,
		     const char *log, char *id, size_t idlen, struct sb_err *err)
{
	pid_t pid;
	int rc = sb_state_add(st, "export", "daemon", name, NULL, err);

	if (!rc)
		rc = sb_export_spawn(ns, argv, log, &pid, err);
	if (rc)
		return rc;
	if (sb_export_proc_id(pid, id, idlen))
		return sb_err_set(err, -ESRCH, "%s ended at once; its log %s says why", name, log);
	return sb_state_set_extra(st, "export", "daemon", name, id, err);
}

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

/* Wait (bounded) until path's contents hold needle, or pid id ended. */
static bool wait_for_text(const char *path, const char *needle, const char *id, unsigned ms)
{
	char buf[8192];
	unsigned i;

	for (i = 0; i < ms / 50; i++) {
		if (!read_small(path, buf, sizeof(buf)) && strstr(buf, needle))
			return true;
		if (!sb_export_proc_alive(id))
			return false;
		usleep(50000);
	}
	return false;
}

static int keys_and_config(const struct sb_export_priv *p, struct sb_err *err)
{
	char path[SB_PATH_MAX + 32], cfg[2048], pub[1024], kh[1200];
	const char *d = p->rundir;
	int rc;

	snprintf(path, sizeof(path), "%s/host_key", d);
	{
		const char *hk[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "stackbench-export-host",
				     "-f", path, NULL };
		rc = sb_export_cmd(NULL, hk, NULL, 0, 30000, err);
	}
	snprintf(path, sizeof(path), "%s/client_key", d);
	if (!rc) {
		const char *ck[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "stackbench-export-client",
				     "-f", path, NULL };
		rc = sb_export_cmd(NULL, ck, NULL, 0, 30000, err);
	}
	if (rc)
		return rc;
	snprintf(cfg, sizeof(cfg),
		 "# private to one stackbench run; removed at teardown\n"
		 "Port " SSHD_PORT "\nListenAddress %s\nHostKey %s/host_key\nPidFile none\n"
		 "AuthorizedKeysFile %s/client_key.pub\nPermitRootLogin prohibit-password\n"
		 "PubkeyAuthentication yes\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
		 "UsePAM no\nStrictModes no\nX11Forwarding no\nAllowTcpForwarding no\nCompression yes\n"
		 "Subsystem sftp internal-sftp\n",
		 p->net.srv_addr, d, d);
	snprintf(path, sizeof(path), "%s/sshd_config", d);
	rc = sb_fs_write_text(path, cfg, false, err);
	snprintf(path, sizeof(path), "%s/host_key.pub", d);
	if (!rc && read_small(path, pub, sizeof(pub)))
		rc = sb_err_set(err, -EIO, "cannot read %s", path);
	snprintf(kh, sizeof(kh), "[%s]:" SSHD_PORT " %s", p->net.srv_addr, pub);
	snprintf(path, sizeof(path), "%s/known_hosts", d);
	return rc ? rc : sb_fs_write_text(path, kh, false, err);
}

/* sshd refuses to start without its privilege separation directory; make
 * it (recorded, removed at teardown) only if the machine has none. */
static int privsep_dir(struct sb_state *st, struct sb_err *err)
{
	int rc;

	if (!access("/run/sshd", F_OK))
		return 0;
	rc = sb_state_add(st, "export", "privsep", "/run/sshd", NULL, err);
	if (!rc && mkdir("/run/sshd", 0755) && errno != EEXIST)
		rc = sb_err_sys(err, -errno, "cannot create /run/sshd");
	return rc;
}

static int start_sshd(struct sb_state *st, const struct sb_export_priv *p, struct sb_err *err)
{
	char cfg[SB_PATH_MAX + 16], log[SB_PATH_MAX + 16], id[64], tail[512] = "";
	const char *argv[] = { "/usr/sbin/sshd", "-D", "-f", cfg, "-E", log, NULL };
	int rc;

	if (access("/usr/sbin/sshd", X_OK))
		return sb_err_set(err, -ENOENT, "export sshfs needs /usr/sbin/sshd (apt-get install openssh-server)");
	rc = keys_and_config(p, err);
	if (!rc)
		rc = privsep_dir(st, err);
	snprintf(cfg, sizeof(cfg), "%s/sshd_config", p->rundir);
	snprintf(log, sizeof(log), "%s/sshd.log", p->rundir);
	if (!rc)
		rc = sb_export_daemon(st, "sshd", p->net.srv_ns, argv, log, id, sizeof(id), err);
	if (rc)
		return rc;
	if (wait_for_text(log, "Server listening", id, 10000))
		return 0;
	read_small(log, tail, sizeof(tail));
	return sb_err_set(err, -EIO, "the private sshd did not start listening on %s:" SSHD_PORT ": %s",
			  p->net.srv_addr, tail[0] ? tail : "(its log is empty)");
}

static bool mounted(const char *dir)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	bool yes = tb && mnt_table_find_target(tb, dir, MNT_ITER_BACKWARD);

	mnt_unref_table(tb);
	return yes;
}

/* "chacha20-poly1305@openssh.com" -> "chacha20", "aes128-ctr" as is. */
static void cipher_short(const char *c, char *out, size_t len)
{
	size_t n = strcspn(c, c[0] == 'c' ? "-@" : "@");

	snprintf(out, len, "%.*s", (int)n, c);
}

static int mount_one(struct sb_state *st, const struct sb_export_spec *e, const char *export_dir,
		     struct sb_export_priv *p, const char *cipher, struct sb_err *err)
{
	struct sb_export_target *t = &p->t[p->ntargets];
	char opts[SB_OPTSTR_MAX * 6], src[SB_PATH_MAX + 64], log[SB_PATH_MAX + 64], id[64], sh[32];
	const char *argv[] = { "sshfs", "-f", "-F", "/dev/null", "-o", opts, src, t->mountpoint, NULL };
	unsigned i;
	int rc;

	cipher_short(cipher, sh, sizeof(sh));
	snprintf(t->proto, sizeof(t->proto), "sshfs");
	snprintf(t->name, sizeof(t->name), "sshfs-%s", sh);
	snprintf(t->label, sizeof(t->label), "SSHFS %s%s", sh, e->sshfs.compression ? " -C" : "");
	snprintf(t->cipher, sizeof(t->cipher), "%s", cipher);
	snprintf(t->options, sizeof(t->options), "Ciphers=%.64s,Compression=%s", cipher,
		 e->sshfs.compression ? "yes" : "no");
	snprintf(opts, sizeof(opts), "%s,Port=" SSHD_PORT ",IdentityFile=%s/client_key,IdentitiesOnly=yes,"
		 "UserKnownHostsFile=%s/known_hosts,StrictHostKeyChecking=yes,BatchMode=yes",
		 t->options, p->rundir, p->rundir);
	snprintf(src, sizeof(src), "root@%s:%s", p->net.srv_addr, export_dir);
	snprintf(log, sizeof(log), "%s/%s.log", p->rundir, t->name);
	rc = sb_export_mountpoint(st, p, t, NULL, err);   /* sshfs: a daemon, recorded as one */
	if (!rc)
		rc = sb_export_daemon(st, t->name, p->net.cli_ns, argv, log, id, sizeof(id), err);
	if (!rc)
		rc = sb_state_add(st, "export", "mount", t->mountpoint, "sshfs", err);
	if (rc)
		return rc;
	for (i = 0; i < 300 && !mounted(t->mountpoint) && sb_export_proc_alive(id); i++)
		usleep(50000);
	if (!mounted(t->mountpoint)) {
		char tail[512] = "";

		read_small(log, tail, sizeof(tail));
		return sb_err_set(err, -EIO, "sshfs (%s) did not mount %s within 15 s: %s", cipher, src,
				  tail[0] ? tail : "no message (is /dev/fuse there? modprobe fuse)");
	}
	sb_verbose("export: sshfs %s mounted on %s", cipher, t->mountpoint);
	p->ntargets++;
	return 0;
}

/* The throwaway kernel has no devtmpfs: with the fuse module loaded,
 * /dev/fuse may still be missing. Make the node (recorded, removed at
 * teardown) from the misc device's numbers. */
static int fuse_node(struct sb_state *st, struct sb_err *err)
{
	char buf[32];
	unsigned ma, mi;
	int rc;

	if (!access("/dev/fuse", F_OK))
		return 0;
	if (read_small("/sys/class/misc/fuse/dev", buf, sizeof(buf)) || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return sb_err_set(err, -ENOTSUP, "export sshfs needs FUSE, and this kernel has none "
				  "(no /dev/fuse, no /sys/class/misc/fuse: CONFIG_FUSE_FS; modprobe fuse)");
	rc = sb_state_add(st, "export", "devnode", "/dev/fuse", buf, err);
	if (!rc && mknod("/dev/fuse", S_IFCHR | 0666, makedev(ma, mi)) && errno != EEXIST)
		rc = sb_err_sys(err, -errno, "cannot create /dev/fuse (%u:%u)", ma, mi);
	return rc;
}

int sb_export_sshfs_build(struct sb_state *st, const struct sb_export_spec *e, const char *export_dir,
			  struct sb_export_priv *p, struct sb_err *err)
{
	const char *mod[] = { "fuse", NULL };
	unsigned i;
	int rc;

	sb_export_modprobe(mod);
	rc = fuse_node(st, err);
	if (!rc)
		rc = start_sshd(st, p, err);
	for (i = 0; !rc && sb_export_ssh_ciphers[i]; i++) {
		if (!(e->sshfs.ciphers & (1u << i)))
			continue;
		if (p->ntargets >= SB_EXPORT_MAX_TARGETS)
			return sb_err_set(err, -E2BIG, "export: at most %d client mounts", SB_EXPORT_MAX_TARGETS);
		rc = mount_one(st, e, export_dir, p, sb_export_ssh_ciphers[i], err);
	}
	return rc;
}
