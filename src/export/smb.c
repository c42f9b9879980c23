/* SMB: a private smbd in the server namespace - its own smb.conf, lock,
 * state, cache, private and pid directories in the 0700 run directory, a
 * private tdbsam passdb holding one throwaway password for root, bound to
 * the namespace's address only - and the kernel's CIFS client mounting from
 * the client namespace with a credentials file (0600, in the run directory;
 * the password is never in argv or a log). */
#include "export/export_int.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/child.h"
#include "util/fs.h"
#include "util/log.h"

static bool have_cifs(void)
{
	char line[128];
	bool yes = false;
	FILE *f = fopen("/proc/filesystems", "re");

	while (f && !yes && fgets(line, sizeof(line), f))
		yes = strstr(line, "\tcifs") != NULL;
	if (f)
		fclose(f);
	return yes;
}

static int conf(const struct sb_export_spec *e, const struct sb_export_priv *p, const char *export_dir,
		struct sb_err *err)
{
	char path[SB_PATH_MAX + 32], text[8192], sub[SB_PATH_MAX + 32];
	const char *d = p->rundir, *const dirs[] = { "lock", "state", "cache", "private", "pid", "ncalrpc" };
	unsigned i;

	for (i = 0; i < 6; i++) {
		snprintf(sub, sizeof(sub), "%s/smb-%s", d, dirs[i]);
		if (mkdir(sub, 0700) && errno != EEXIST)
			return sb_err_sys(err, -errno, "cannot create %s", sub);
	}
	snprintf(text, sizeof(text),
		 "# private to one stackbench run; removed at teardown\n[global]\n"
		 "interfaces = %s/30\nbind interfaces only = yes\nsmb ports = 445\ndisable netbios = yes\n"
		 "server role = standalone server\nmap to guest = never\n"
		 "lock directory = %s/smb-lock\nstate directory = %s/smb-state\ncache directory = %s/smb-cache\n"
		 "private dir = %s/smb-private\npid directory = %s/smb-pid\nncalrpc dir = %s/smb-ncalrpc\n"
		 "log file = %s/smbd.log\npassdb backend = tdbsam:%s/smb-private/passdb.tdb\n"
		 "load printers = no\nprinting = bsd\nprintcap name = /dev/null\ndisable spoolss = yes\n"
		 "server min protocol = SMB2_10\nserver signing = %s\nserver smb encrypt = %s\n"
		 "[sb]\npath = %s\nread only = no\nforce user = root\n",
		 p->net.srv_addr, d, d, d, d, d, d, d, d,
		 e->smb.signing ? "mandatory" : "default", e->smb.encryption ? "required" : "default", export_dir);
	snprintf(path, sizeof(path), "%s/smb.conf", d);
	return sb_fs_write_text(path, text, true, err);
}

/* The throwaway password: random, into smbpasswd's stdin and the client's
 * credentials file only. */
static int password(const struct sb_export_priv *p, struct sb_err *err)
{
	char pw[33], cred[128], conf_path[SB_PATH_MAX + 32], path[SB_PATH_MAX + 32];
	unsigned char raw[16];
	const char *argv[] = { "smbpasswd", "-c", conf_path, "-s", "-a", "root", NULL };
	struct sb_child c = { .argv = argv, .out = SB_CHILD_NULL, .err = SB_CHILD_NULL };
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC), in[2], status = 0, rc;
	unsigned i;

	if (fd < 0 || read(fd, raw, sizeof(raw)) != sizeof(raw)) {
		if (fd >= 0)
			close(fd);
		return sb_err_set(err, -EIO, "cannot read /dev/urandom");
	}
	close(fd);
	for (i = 0; i < 16; i++)
		snprintf(pw + 2 * i, 3, "%02x", raw[i]);
	snprintf(cred, sizeof(cred), "username=root\npassword=%s\n", pw);
	snprintf(path, sizeof(path), "%s/smb-credentials", p->rundir);
	if (sb_fs_write_text(path, cred, true, err))
		return -EIO;
	snprintf(conf_path, sizeof(conf_path), "%s/smb.conf", p->rundir);
	if (pipe2(in, O_CLOEXEC))
		return sb_err_sys(err, -errno, "pipe");
	c.in = in[0];
	rc = sb_child_start(&c, err);
	close(in[0]);
	snprintf(cred, sizeof(cred), "%s\n%s\n", pw, pw);
	if (rc == 0 && write(in[1], cred, strlen(cred)) < 0)
		sb_warn("smbpasswd: cannot write its stdin");
	close(in[1]);
	memset(cred, 0, sizeof(cred));
	memset(pw, 0, sizeof(pw));
	if (rc == 0)
		rc = sb_child_wait(&c, 0, &status, err);
	if (rc < 0)
		return rc;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return sb_err_set(err, -EIO, "smbpasswd could not add the throwaway user to the private passdb");
	return 0;
}

static int start_smbd(struct sb_state *st, const struct sb_export_spec *e, const char *export_dir,
		      const struct sb_export_priv *p, struct sb_err *err)
{
	char cfg[SB_PATH_MAX + 32], log[SB_PATH_MAX + 32], id[64];
	const char *argv[] = { "smbd", "-F", "--no-process-group", "-s", cfg, "--debug-stdout", "-d", "1", NULL };
	const char *ss[] = { "ss", "-Hltn", "sport", "=", ":445", NULL };
	char out[512];
	unsigned i;
	int rc;

	if (access("/usr/sbin/smbd", X_OK))
		return sb_err_set(err, -ENOENT, "export smb needs smbd (apt-get install samba; stackbench never "
				  "starts or enables its service)");
	rc = conf(e, p, export_dir, err);
	if (!rc)
		rc = password(p, err);
	snprintf(cfg, sizeof(cfg), "%s/smb.conf", p->rundir);
	snprintf(log, sizeof(log), "%s/smbd.out", p->rundir);
	if (!rc)
		rc = sb_export_daemon(st, "smbd", p->net.srv_ns, argv, log, id, sizeof(id), err);
	for (i = 0; !rc && i < 300 && sb_export_proc_alive(id); i++) {
		out[0] = '\0';
		if (!sb_export_cmd(p->net.srv_ns, ss, out, sizeof(out), 10000, NULL) && strstr(out, ":445"))
			return 0;
		usleep(50000);
	}
	return rc ? rc : sb_err_set(err, -EIO, "the private smbd did not listen on %s:445 within 15 s "
				    "(its log: %s)", p->net.srv_addr, log);
}

int sb_export_smb_build(struct sb_state *st, const struct sb_export_spec *e, const char *export_dir,
			struct sb_export_priv *p, struct sb_err *err)
{
	struct sb_export_target *t = &p->t[p->ntargets];
	char opts[SB_PATH_MAX + 128], src[64];
	const char *argv[] = { "mount", "-t", "cifs", "-o", opts, src, t->mountpoint, NULL };
	const char *mods[] = { "cifs", NULL };
	int rc;

	if (p->ntargets >= SB_EXPORT_MAX_TARGETS)
		return sb_err_set(err, -E2BIG, "export: at most %d client mounts", SB_EXPORT_MAX_TARGETS);
	sb_export_modprobe(mods);
	rc = start_smbd(st, e, export_dir, p, err);
	if (rc)
		return rc;
	snprintf(t->proto, sizeof(t->proto), "smb");
	snprintf(t->name, sizeof(t->name), "smb-%s", e->smb.version);
	snprintf(t->label, sizeof(t->label), "SMB %s%s%s", e->smb.version, e->smb.signing ? " signed" : "",
		 e->smb.encryption ? " sealed" : "");
	snprintf(t->options, sizeof(t->options), "vers=%s%s%s", e->smb.version,
		 e->smb.signing ? ",sec=ntlmsspi" : "", e->smb.encryption ? ",seal" : "");
	snprintf(opts, sizeof(opts), "%s,credentials=%s/smb-credentials", t->options, p->rundir);
	snprintf(src, sizeof(src), "//%s/sb", p->net.srv_addr);
	rc = sb_export_mountpoint(st, p, t, "smb", err);
	if (!rc && (rc = sb_export_cmd(p->net.cli_ns, argv, NULL, 0, 60000, err)) && !have_cifs())
		sb_err_prefix(err, "this kernel has no CIFS client (CONFIG_CIFS; modprobe cifs): ");
	if (rc)
		return rc;
	p->ntargets++;
	return 0;
}
