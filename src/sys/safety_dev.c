/* The device side of the safety checks: where a disk path may lead (only
 * through directories no ordinary user can write), which processes hold a
 * device open (what fuser finds), and --wipe (libblkid's wiper, then a
 * probe that must come back clean). */
#include "sys/safety.h"
#include "sys/safety_int.h"
#include "sys/sysfs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <blkid.h>

#include "util/log.h"

/* ------------------------------------------------------ trusted places */

/* A directory that only root can change: owned by root, not writable by
 * group or others. /dev and /dev/disk/by-id are; /dev/shm (1777) and /tmp
 * are not. */
static bool trusted_dir(const struct stat *st)
{
	return S_ISDIR(st->st_mode) && st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* Walk path like namei: every directory on the way, and the directory of
 * every symbolic link followed (links may point anywhere), must be trusted;
 * a link planted where anyone can write would aim root's mkfs at any
 * device. Up to 40 links, as the kernel allows. */
int sb_safety_check_place(const char *path, struct sb_err *err)
{
	char cur[PATH_MAX], rest[PATH_MAX], link[PATH_MAX], next[PATH_MAX];
	struct stat st;
	int hops = 0;
	ssize_t n;

	if (path[0] != '/')
		return sb_err_set(err, -SB_EREFUSED, "disk %s: not an absolute path", path);
	if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
		return sb_err_set(err, -ENAMETOOLONG, "disk %s: path too long", path);
	strcpy(cur, "/");
	for (;;) {
		char *p = rest, *slash, comp[NAME_MAX + 1];
		size_t len;

		if (lstat(cur, &st))
			return sb_err_sys(err, -errno, "disk %s: cannot look at %s", path, cur);
		if (!trusted_dir(&st))
			return sb_err_set(err, -SB_EREFUSED, "disk %s: the way to it passes %s, which %s; "
					  "disks are only taken through root-owned directories that no one "
					  "else can write (such as /dev/disk/by-id)", path, cur,
					  !S_ISDIR(st.st_mode) ? "is not a directory" :
					  st.st_uid ? "is not owned by root" : "others can write to");
		while (*p == '/')
			p++;
		if (!*p)
			return 0;
		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (len > NAME_MAX)
			return sb_err_set(err, -ENAMETOOLONG, "disk %s: a name is too long", path);
		memcpy(comp, p, len);
		comp[len] = '\0';
		memmove(rest, p + len, strlen(p + len) + 1);
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *s = strrchr(cur, '/');
			if (s && s != cur)
				*s = '\0';
			else
				strcpy(cur, "/");
			continue;
		}
		if (snprintf(next, sizeof(next), "%s%s%s", cur, strcmp(cur, "/") ? "/" : "", comp) >= (int)sizeof(next))
			return sb_err_set(err, -ENAMETOOLONG, "disk %s: path too long", path);
		if (lstat(next, &st))
			return sb_err_sys(err, -errno, "disk %s: cannot look at %s", path, next);
		if (S_ISLNK(st.st_mode)) {
			if (++hops > 40)
				return sb_err_set(err, -ELOOP, "disk %s: too many symbolic links", path);
			n = readlink(next, link, sizeof(link) - 1);
			if (n < 0)
				return sb_err_sys(err, -errno, "disk %s: cannot read the link %s", path, next);
			link[n] = '\0';
			/* the target, then what was left of the path after the link */
			if (snprintf(next, sizeof(next), "%s%s", link, rest) >= (int)sizeof(next))
				return sb_err_set(err, -ENAMETOOLONG, "disk %s: path too long", path);
			memcpy(rest, next, strlen(next) + 1);
			if (link[0] == '/')
				strcpy(cur, "/");
			continue;
		}
		if (!rest[0] || strspn(rest, "/") == strlen(rest))
			return 0;    /* the last component: the device node itself */
		memcpy(cur, next, strlen(next) + 1);
	}
}

/* ------------------------------------------------- who holds it open */

static bool dev_in(dev_t d, const dev_t *devs, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (devs[i] == d)
			return true;
	return false;
}

/* One pass over /proc/PID/fd/: the first other process with one of devs
 * open ("pid 123 (dd)"). fuser does the same walk. */
static int scan_fds(const dev_t *devs, unsigned n, char *out, size_t len)
{
	char p[300], comm[64];
	struct dirent *pe, *fe;
	struct stat st;
	DIR *pd, *fd;
	pid_t self = getpid();
	int found = 0;

	pd = opendir("/proc");
	if (!pd)
		return -errno;
	while (!found && (pe = readdir(pd))) {
		if (!isdigit((unsigned char)pe->d_name[0]) || atoi(pe->d_name) == self)
			continue;
		snprintf(p, sizeof(p), "/proc/%s/fd", pe->d_name);
		fd = opendir(p);
		if (!fd)
			continue;    /* gone, or a kernel thread */
		while ((fe = readdir(fd))) {
			if (fe->d_name[0] == '.')
				continue;
			if (fstatat(dirfd(fd), fe->d_name, &st, 0) || !S_ISBLK(st.st_mode) ||
			    !dev_in(st.st_rdev, devs, n))
				continue;
			snprintf(p, sizeof(p), "/proc/%s/comm", pe->d_name);
			if (sb_sysfs_read_str(p, comm, sizeof(comm), NULL))
				snprintf(comm, sizeof(comm), "?");
			sb_safety_textf(out, len, "pid %s (%s) has %u:%u open", pe->d_name, comm,
					major(st.st_rdev), minor(st.st_rdev));
			found = 1;
			break;
		}
		closedir(fd);
	}
	closedir(pd);
	return found;
}

int sb_safety_open_by(const dev_t *devs, unsigned n, char *out, size_t len)
{
	struct timespec ts = { 0, 100000000 };
	int i, rc = 0;

	/* udev's workers open a device for a moment after every change
	 * event: a holder must still be there after a short wait. */
	for (i = 0; i < 5; i++) {
		rc = scan_fds(devs, n, out, len);
		if (rc <= 0)
			return rc;
		nanosleep(&ts, NULL);
	}
	return rc;
}

/* -------------------------------------------------------------- --wipe */

/* wipefs -a on the descriptor the checks hold: libblkid walks every
 * superblock and partition table it knows, at both ends of the disk (md
 * 0.90/1.0 superblocks and the GPT backup header sit at the end), and
 * blkid_do_wipe erases each magic; then a fresh safe probe must find
 * nothing. */
int sb_safety_wipe(int rofd, const char *name, struct sb_err *err)
{
	char self[64];
	blkid_probe pr;
	struct stat a, b;
	int rc = 0, guard = 0, wiped = 0, fd;

	/* A writable descriptor of the very device the checks hold (through
	 * /proc/self/fd: no path lookup that could lead elsewhere). */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", rofd);
	fd = open(self, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "disk %s: cannot open it for writing", name);
	if (fstat(fd, &a) || fstat(rofd, &b) || a.st_rdev != b.st_rdev) {
		close(fd);
		return sb_err_set(err, -SB_EREFUSED, "disk %s: changed under the checks", name);
	}
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		if (pr)
			blkid_free_probe(pr);
		close(fd);
		return sb_err_set(err, -EIO, "disk %s: libblkid cannot open it for wiping", name);
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_TYPE | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
	while (!rc && guard++ < 64 && blkid_do_probe(pr) == 0) {
		const char *type = "?";

		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL))
			blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL);
		if (blkid_do_wipe(pr, 0)) {
			rc = sb_err_sys(err, errno ? -errno : -EIO, "disk %s: cannot erase its %s signature",
					name, type);
			break;
		}
		sb_info("disk %s: erased the %s signature (--wipe)", name, type);
		wiped++;
	}
	blkid_free_probe(pr);
	if (!rc && fsync(fd))
		rc = sb_err_sys(err, -errno, "disk %s: cannot flush the wipe", name);
	/* the page cache of the device still has the old blocks */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	posix_fadvise(rofd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	sb_debug("disk %s: %d signature(s) erased", name, wiped);
	return rc;
}
