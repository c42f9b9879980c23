/* cache: the fast device. A fresh backing file in cache.dir (tmpfs by
 * default) on a loop device, made the way the loop layer makes its own, and
 * its teardown: detach only our binding, delete only our file. */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stack.h"
#include "layers/cache_int.h"
#include "sys/udev.h"

#define CACHE_LOOP_TRIES 16

/* ---- the fast device: a fresh backing file on a loop device ---- */
bool sb_cache_loop_backs(const char *dev, const char *file)
{
	char p[128], back[SB_PATH_MAX] = "";
	size_t n = strlen(file);
	FILE *f;

	snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev);
	f = fopen(p, "re");
	if (!f)
		return false;
	if (!fgets(back, sizeof(back), f))
		back[0] = '\0';
	fclose(f);
	back[strcspn(back, "\n")] = '\0';
	return back[0] && !strncmp(back, file, n) && (!back[n] || !strcmp(back + n, " (deleted)"));
}

/* Like the loop layer: record the device before binding; another process
 * taking the same free device (EBUSY) drops the entry and tries again.
 * Buffered (tmpfs has no direct I/O). */
static int fast_attach(struct sb_layer *l, const char *file, int ffd, char *dev, size_t len, struct sb_err *err)
{
	struct sb_state *st = &l->stack->state;
	struct loop_config cfg = { .fd = (unsigned)ffd, .block_size = 512 };
	int ctl, lfd, num, rc = -EBUSY, tries;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return sb_err_sys(err, -errno, "cache: cannot open /dev/loop-control");
	for (tries = 0; tries < CACHE_LOOP_TRIES && rc == -EBUSY; tries++) {
		num = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (num < 0) {
			rc = sb_err_sys(err, -errno, "cache: no free loop device");
			break;
		}
		snprintf(dev, len, "/dev/loop%d", num);
		rc = sb_state_add(st, "cache", "loopdev", dev, file, err);
		if (!rc)
			rc = sb_udev_wait_devnode(dev, SB_UDEV_TIMEOUT_MS, err);
		if (rc)
			break;
		lfd = open(dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			rc = sb_err_sys(err, -errno, "cache: cannot open %s", dev);
			break;
		}
		rc = ioctl(lfd, LOOP_CONFIGURE, &cfg) ? -errno : 0;
		close(lfd);
		if (rc == -EBUSY && (rc = sb_state_remove(st, st->nobj - 1, err)) == 0)
			rc = -EBUSY;
	}
	close(ctl);
	if (rc && !sb_err_isset(err))
		return sb_err_sys(err, rc, "cache: cannot attach %s to a loop device", file);
	return rc;
}

int sb_cache_fast_make(struct sb_layer *l, const char *file, uint64_t bytes, char *dev, size_t len,
		       struct sb_err *err)
{
	char ident[64];
	struct stat st;
	int fd, rc;

	rc = sb_state_add(&l->stack->state, "cache", "file", file, "", err);
	if (rc)
		return rc;
	fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return sb_err_sys(err, -errno, "cache: cannot create %s%s", file,
				  errno == EEXIST ? " (left by an earlier run? remove it)" : "");
	if (fstat(fd, &st) || ftruncate(fd, (off_t)bytes)) {
		rc = sb_err_sys(err, -errno, "cache: cannot size %s", file);
		goto out;
	}
	snprintf(ident, sizeof(ident), "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	rc = sb_state_set_extra(&l->stack->state, "cache", "file", file, ident, err);
	if (!rc)
		rc = fast_attach(l, file, fd, dev, len, err);
out:
	close(fd);
	return rc;
}

int sb_cache_zero_head(const char *dev, struct sb_err *err)
{
	static const char zero[4096];
	int fd = open(dev, O_WRONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return sb_err_sys(err, -errno, "cache: cannot open %s", dev);
	if (pwrite(fd, zero, sizeof(zero), 0) != (ssize_t)sizeof(zero) || fdatasync(fd))
		rc = sb_err_sys(err, -errno, "cache: cannot zero the metadata head of %s", dev);
	close(fd);
	return rc;
}

int sb_cache_teardown_loop(const struct sb_state_obj *obj, struct sb_err *err)
{
	int fd, i;

	if (!sb_cache_loop_backs(obj->id, obj->extra))
		return 0;
	fd = open(obj->id, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "cache: cannot open %s", obj->id);
	if (ioctl(fd, LOOP_CLR_FD, 0) && errno != ENXIO) {
		int e = -errno;

		close(fd);
		return sb_err_sys(err, e, "cache: cannot detach %s", obj->id);
	}
	close(fd);
	for (i = 0; i < 500 && sb_cache_loop_backs(obj->id, obj->extra); i++)
		usleep(20000);
	if (sb_cache_loop_backs(obj->id, obj->extra))
		return sb_err_set(err, -EBUSY, "cache: %s still attached to %s 10 s after detach", obj->id, obj->extra);
	return 0;
}

/* Delete only the file the build made: our name, a regular file with the
 * recorded inode (or, killed before recording it, one link). */
int sb_cache_teardown_file(const struct sb_state_obj *obj, struct sb_err *err)
{
	const char *base = strrchr(obj->id, '/');
	char ident[64];
	struct stat st;

	if (!base || strncmp(base, "/sb-", 4) || strlen(base) < 15 || strcmp(base + strlen(base) - 10, "-cache.img"))
		return sb_err_set(err, -SB_EREFUSED, "cache: not deleting %s: not a name stackbench uses", obj->id);
	if (lstat(obj->id, &st))
		return errno == ENOENT ? 0 : sb_err_sys(err, -errno, "cache: cannot look at %s", obj->id);
	snprintf(ident, sizeof(ident), "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	if (!S_ISREG(st.st_mode) || (obj->extra[0] ? strcmp(ident, obj->extra) != 0 : st.st_nlink != 1))
		return sb_err_set(err, -SB_EREFUSED, "cache: not deleting %s: not the file this stack created", obj->id);
	if (unlink(obj->id) && errno != ENOENT)
		return sb_err_sys(err, -errno, "cache: cannot delete %s", obj->id);
	return 0;
}

