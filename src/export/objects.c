/* Removing what the export layer recorded, one object at a time, by kind:
 *   rundir  DIR                  0700 run directory: keys, configs, logs
 *   privsep /run/sshd            sshd's privilege separation dir, if we made it
 *   netns   NAME                 ip netns (its processes are killed first)
 *   veth    NS IF                the pair, by its server end
 *   qdisc   NS IF                root qdisc (tbf / netem) of one end
 *   daemon  NAME                 extra "PID STARTTIME" once started
 *   mntdir  DIR                  a client mountpoint
 *   mount   DIR                  the client mount (extra: protocol)
 *   netnsdir /run/netns          ip's mount there (extra "made": and the dir)
 *   devnode /dev/fuse            made where the kernel has no devtmpfs
 *   nfsd    NS                   the namespace's kernel NFS server threads
 * Each must succeed when the object is already gone. */
#include "export/export_int.h"

#include <dirent.h>
#include <ftw.h>
#include <libmount/libmount.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"

static bool is_mounted(const char *target)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	bool yes = tb && mnt_table_find_target(tb, target, MNT_ITER_BACKWARD);

	mnt_unref_table(tb);
	return yes;
}

static int do_umount(const char *dir, struct sb_err *err)
{
	int i;

	for (i = 0; i < 40 && is_mounted(dir); i++) {
		if (!umount2(dir, UMOUNT_NOFOLLOW))
			continue;
		if (errno != EBUSY)
			return is_mounted(dir) ? sb_err_sys(err, -errno, "cannot unmount %s", dir) : 0;
		usleep(250000);
	}
	if (!is_mounted(dir))
		return 0;
	/* still busy after 10 s (a client that does not answer): detach it,
	 * its server goes away next anyway */
	sb_warn("%s is busy after 10 s; detaching it", dir);
	if (umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW) && is_mounted(dir))
		return sb_err_sys(err, -errno, "cannot detach %s", dir);
	return 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) && errno != ENOENT ? -1 : 0;
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

/* The run directory: keys, configs, logs, smbd's tdb directories. Depth
 * first, never through a symlink or into another filesystem (a client
 * mountpoint still mounted stays, and the rmdir of it fails: said). */
static int remove_rundir(const char *dir, struct sb_err *err)
{
	if (access(dir, F_OK) && errno == ENOENT)
		return 0;
	if (nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT))
		return sb_err_sys(err, -errno, "cannot remove %s", dir);
	return 0;
}

/* "NS IF" of a veth or qdisc object. */
static int split_ns_if(const char *id, char *ns, size_t nslen, char *ifn, size_t iflen)
{
	const char *sp = strchr(id, ' ');

	if (!sp || (size_t)(sp - id) >= nslen)
		return -EINVAL;
	snprintf(ns, nslen, "%.*s", (int)(sp - id), id);
	snprintf(ifn, iflen, "%s", sp + 1);
	return 0;
}

static bool link_exists(const char *ns, const char *ifn)
{
	const char *argv[] = { "ip", "-n", ns, "link", "show", "dev", ifn, NULL };

	return sb_export_netns_exists(ns) && sb_export_cmd(NULL, argv, NULL, 0, 10000, NULL) == 0;
}

static bool qdisc_exists(const char *ns, const char *ifn)
{
	const char *argv[] = { "tc", "-n", ns, "qdisc", "show", "dev", ifn, "root", NULL };
	char out[512] = "";

	if (!link_exists(ns, ifn) || sb_export_cmd(NULL, argv, out, sizeof(out), 10000, NULL))
		return false;
	return strstr(out, "tbf") || strstr(out, "netem");
}

static int net_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	char ns[64], ifn[32];
	int rc;

	if (!strcmp(obj->kind, "netns")) {
		const char *argv[] = { "ip", "netns", "delete", obj->id, NULL };

		if (!sb_export_netns_exists(obj->id))
			return 0;
		rc = sb_export_netns_kill_all(obj->id, err);
		return rc ? rc : sb_export_cmd(NULL, argv, NULL, 0, 30000, err);
	}
	if (split_ns_if(obj->id, ns, sizeof(ns), ifn, sizeof(ifn)))
		return sb_err_set(err, -EINVAL, "export: bad %s object '%s'", obj->kind, obj->id);
	if (!strcmp(obj->kind, "veth")) {
		const char *argv[] = { "ip", "-n", ns, "link", "delete", "dev", ifn, NULL };

		return link_exists(ns, ifn) ? sb_export_cmd(NULL, argv, NULL, 0, 30000, err) : 0;
	} else {
		const char *argv[] = { "tc", "-n", ns, "qdisc", "delete", "dev", ifn, "root", NULL };

		return qdisc_exists(ns, ifn) ? sb_export_cmd(NULL, argv, NULL, 0, 30000, err) : 0;
	}
}

/* Undo ip's /run/netns mount only when no namespace is left in it (one
 * made meanwhile by anyone else keeps it). */
static int netns_dir_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	struct dirent *de;
	DIR *d = opendir(obj->id);
	bool empty = true;

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	if (d)
		closedir(d);
	if (!d || !empty)
		return 0;
	if (is_mounted(obj->id) && umount2(obj->id, UMOUNT_NOFOLLOW) && errno != EINVAL)
		return sb_err_sys(err, -errno, "cannot unmount %s", obj->id);
	if (!strcmp(obj->extra, "made") && !is_mounted(obj->id) && rmdir(obj->id) && errno != ENOENT)
		return sb_err_sys(err, -errno, "cannot remove %s", obj->id);
	return 0;
}

int sb_export_obj_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	const char *k = obj->kind;

	if (!strcmp(k, "mount"))
		return do_umount(obj->id, err);
	if (!strcmp(k, "daemon"))
		return obj->extra[0] ? sb_export_proc_stop(obj->extra, obj->id, err) : 0;
	if (!strcmp(k, "mntdir") || !strcmp(k, "privsep")) {
		if (is_mounted(obj->id))
			return sb_err_set(err, -EBUSY, "%s is still a mountpoint; not removing it", obj->id);
		if (rmdir(obj->id) && errno != ENOENT)
			return sb_err_sys(err, -errno, "cannot remove %s", obj->id);
		return 0;
	}
	if (!strcmp(k, "rundir"))
		return remove_rundir(obj->id, err);
	if (!strcmp(k, "devnode")) {
		struct stat sb;

		if (!lstat(obj->id, &sb) && S_ISCHR(sb.st_mode) && unlink(obj->id) && errno != ENOENT)
			return sb_err_sys(err, -errno, "cannot remove %s", obj->id);
		return 0;
	}
	if (!strcmp(k, "netnsdir"))
		return netns_dir_teardown(obj, err);
	if (!strcmp(k, "nfsd"))
		return sb_export_nfsd_stop(obj->id, err);
	if (!strcmp(k, "netns") || !strcmp(k, "veth") || !strcmp(k, "qdisc"))
		return net_teardown(obj, err);
	return sb_err_set(err, -EINVAL, "export: unknown object kind %s", k);
}

bool sb_export_obj_exists(const struct sb_state_obj *obj)
{
	char ns[64], ifn[32];
	struct stat st;
	const char *k = obj->kind;

	if (!strcmp(k, "mount"))
		return is_mounted(obj->id);
	if (!strcmp(k, "daemon"))
		return obj->extra[0] && sb_export_proc_alive(obj->extra);
	if (!strcmp(k, "mntdir") || !strcmp(k, "privsep") || !strcmp(k, "rundir") || !strcmp(k, "devnode"))
		return stat(obj->id, &st) == 0;
	if (!strcmp(k, "netnsdir") || !strcmp(k, "nfsd"))
		return false;   /* shared with other users of ip netns: best effort */
	if (!strcmp(k, "netns"))
		return sb_export_netns_exists(obj->id);
	if (split_ns_if(obj->id, ns, sizeof(ns), ifn, sizeof(ifn)))
		return false;
	if (!strcmp(k, "veth"))
		return link_exists(ns, ifn);
	if (!strcmp(k, "qdisc"))
		return qdisc_exists(ns, ifn);
	return false;
}

int sb_export_mountpoint(struct sb_state *st, const struct sb_export_priv *p, struct sb_export_target *t,
			 const char *fstype, struct sb_err *err)
{
	char mp[SB_PATH_MAX + 64];
	int rc;

	if ((size_t)snprintf(mp, sizeof(mp), "%s/mnt-%s", p->rundir, t->name) >= sizeof(t->mountpoint))
		return sb_err_set(err, -ENAMETOOLONG, "export: mountpoint path too long: %s", mp);
	memcpy(t->mountpoint, mp, strlen(mp) + 1);
	rc = sb_state_add(st, "export", "mntdir", mp, NULL, err);
	if (!rc && mkdir(mp, 0700) && errno != EEXIST)
		rc = sb_err_sys(err, -errno, "cannot create %s", mp);
	if (!rc && fstype)
		rc = sb_state_add(st, "export", "mount", mp, fstype, err);
	return rc;
}
