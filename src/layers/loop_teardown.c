/* loop layer, teardown: detach only the loop device still backed by the
 * recorded file (sysfs, bounded wait), delete only the backing file the
 * build made, zero the ends of a sandbox member. Split from loop.c to keep
 * each file small. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/layer.h"
#include "util/clock.h"
#include "core/stack.h"
#include "layers/loop_int.h"
#include "sys/sysfs.h"
#include "sys/udev.h"
#include "util/fs.h"
#include "util/log.h"

#define LOOP_DETACH_TIMEOUT_MS 10000

/* How much of each end of a member teardown zeroes: more than any header
 * a layer above writes there (LUKS2's 16 MiB, md, LVM, ext4 at the start;
 * md 0.90/1.0 at the end). */
#define MEMBER_WIPE (16ULL << 20)

static int member_zero(int fd, uint64_t off, uint64_t len)
{
	static char zero[1 << 20];
	uint64_t done = 0;

	while (done < len) {
		size_t n = len - done < sizeof(zero) ? len - done : sizeof(zero);
		ssize_t w = pwrite(fd, zero, n, (off_t)(off + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -errno;
		done += w;
	}
	return 0;
}

static int member_wipe(const char *dev, struct sb_err *err)
{
	uint64_t size = 0, head, tail;
	int fd, rc;

	rc = sb_sysfs_dev_attr_u64(dev, "size", &size, err);
	if (rc)
		return rc;
	size *= 512;
	fd = open(dev, O_WRONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "cannot open the member %s to wipe it", dev);
	head = size < MEMBER_WIPE ? size : MEMBER_WIPE;
	tail = size > 2 * MEMBER_WIPE ? MEMBER_WIPE : 0;
	rc = member_zero(fd, 0, head);
	if (!rc && tail)
		rc = member_zero(fd, size - tail, tail);
	if (!rc && fsync(fd))
		rc = -errno;
	close(fd);
	return rc ? sb_err_sys(err, rc, "cannot wipe the member %s", dev) : 0;
}

int sb_loop_detach(const struct sb_state_obj *obj, struct sb_err *err)
{
	char holders[512], mnt[SB_PATH_MAX];
	uint64_t deadline;
	int fd;

	if (!sb_loop_is_ours(obj->id, obj->extra))
		return 0;
	/* Mounted (a layer above failed to unmount): waiting cannot help. */
	if (sb_dev_mountpoint(obj->id, mnt, sizeof(mnt)))
		return sb_err_set(err, -EBUSY, "%s is still mounted on %s; not detaching it", obj->id, mnt);
	sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
	fd = open(obj->id, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "cannot open %s", obj->id);
	/* On a device still open elsewhere this only sets autoclear and
	 * returns success: only sysfs tells whether it is really gone. */
	if (ioctl(fd, LOOP_CLR_FD, 0) && errno != ENXIO) {
		int e = -errno;
		close(fd);
		return sb_err_sys(err, e, "cannot detach %s", obj->id);
	}
	close(fd);
	deadline = sb_clock_ms() + LOOP_DETACH_TIMEOUT_MS;
	while (sb_loop_is_ours(obj->id, obj->extra)) {
		if (sb_clock_ms() >= deadline) {
			if (sb_dev_mountpoint(obj->id, mnt, sizeof(mnt)))
				return sb_err_set(err, -EBUSY, "%s still attached to %s %d s after detach "
						  "(autoclear is set): it is mounted on %s", obj->id, obj->extra,
						  LOOP_DETACH_TIMEOUT_MS / 1000, mnt);
			sb_proc_holders(obj->id, 0, holders, sizeof(holders));
			return sb_err_set(err, -EBUSY, "%s still attached to %s %d s after detach (autoclear is set; "
					  "held by %s)", obj->id, obj->extra, LOOP_DETACH_TIMEOUT_MS / 1000,
					  holders[0] ? holders : "a kernel user: see /sys/block/loopN/holders");
		}
		usleep(20000);
	}
	return 0;
}

/* The loop device backed by `file`, if any (scans sysfs). */
static bool loop_of_file(const char *file, char *dev, size_t len)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/sys/block");

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char node[300];

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(node, sizeof(node), "/dev/%s", de->d_name);
		if (sb_loop_is_ours(node, file)) {
			snprintf(dev, len, "%s", node);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* Delete a backing file only when it is provably the one the build made:
 * named dN in a trusted run directory, a regular file (not a link), with
 * the device and inode the state recorded when it was created. A state
 * file naming any other path (forged, or from a stale run) deletes nothing. */
static int remove_file(const struct sb_state_obj *obj, struct sb_err *err)
{
	char dir[SB_PATH_MAX], ident[64];
	const char *base = strrchr(obj->id, '/');
	struct stat st;
	int dfd, rc = 0;

	if (!base || base == obj->id || base[1] != 'd' || strspn(base + 2, "0123456789") != strlen(base + 2) ||
	    !base[2])
		return sb_err_set(err, -SB_EREFUSED, "not deleting %s: not a backing file name stackbench uses", obj->id);
	snprintf(dir, sizeof(dir), "%.*s", (int)(base - obj->id), obj->id);
	dfd = sb_dir_open_trusted(dir, false, err);
	if (dfd == -ENOENT) {
		sb_err_clear(err);
		return 0;
	}
	if (dfd < 0) {
		sb_err_prefix(err, "not deleting %s: ", obj->id);
		return dfd;
	}
	if (fstatat(dfd, base + 1, &st, AT_SYMLINK_NOFOLLOW)) {
		rc = errno == ENOENT ? 0 : sb_err_sys(err, -errno, "cannot look at %s", obj->id);
		goto out;
	}
	snprintf(ident, sizeof(ident), "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	/* No inode recorded: killed between the create and recording it; in
	 * our own 0700 run directory only we can have made a dN with one link. */
	if (!S_ISREG(st.st_mode) || (obj->extra[0] ? strcmp(ident, obj->extra) != 0 : st.st_nlink != 1)) {
		rc = sb_err_set(err, -SB_EREFUSED, "not deleting %s: it is not the file this stack created "
				"(recorded %s, found %s%s)", obj->id, obj->extra[0] ? obj->extra : "no inode",
				S_ISREG(st.st_mode) ? "inode " : "a non-regular file ", ident);
		goto out;
	}
	if (unlinkat(dfd, base + 1, 0) && errno != ENOENT)
		rc = sb_err_sys(err, -errno, "cannot delete %s", obj->id);
out:
	close(dfd);
	return rc;
}

int sb_loop_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	if (!strcmp(obj->kind, "loopdev"))
		return sb_loop_detach(obj, err);
	if (!strcmp(obj->kind, "member"))
		return member_wipe(obj->id, err);
	if (!strcmp(obj->kind, "file")) {
		char dev[SB_PATH_MAX];

		/* Its loop device failed to detach: keep the file with it. */
		if (loop_of_file(obj->id, dev, sizeof(dev)))
			return sb_err_set(err, -EBUSY, "not deleting %s: %s is still attached to it", obj->id, dev);
		return remove_file(obj, err);
	}
	if (!strcmp(obj->kind, "dir")) {
		int dfd = sb_dir_open_trusted(obj->id, false, err);

		if (dfd == -ENOENT) {
			sb_err_clear(err);
			return 0;
		}
		if (dfd < 0)
			return dfd;
		close(dfd);
		if (rmdir(obj->id) && errno != ENOENT)
			return sb_err_sys(err, -errno, "cannot remove %s", obj->id);
		return 0;
	}
	return sb_err_set(err, -EINVAL, "loop: unknown object kind %s", obj->kind);
}

bool sb_loop_exists(const struct sb_state_obj *obj)
{
	struct stat st;

	if (!strcmp(obj->kind, "loopdev"))
		return sb_loop_is_ours(obj->id, obj->extra);
	if (!strcmp(obj->kind, "member"))
		return false;  /* nothing to remove: the host's; wiped at teardown */
	if (!strcmp(obj->kind, "file"))
		return lstat(obj->id, &st) == 0;
	if (!strcmp(obj->kind, "dir"))
		return stat(obj->id, &st) == 0 && S_ISDIR(st.st_mode);
	return false;
}
