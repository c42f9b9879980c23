/* cache: the fast device. A fresh backing file in cache.dir (tmpfs by
 * default) on a loop device, made the way the loop layer makes its own, and
 * its teardown: delete only our file (the loop layer detaches the device). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stack.h"
#include "layers/cache_int.h"
#include "layers/loop_int.h"

/* ---- the fast device: a fresh backing file on a loop device ---- */

/* Bound as the loop layer binds its own; buffered (tmpfs has no direct
 * I/O). */
static int fast_attach(struct sb_layer *l, const char *file, int ffd, char *dev, size_t len, struct sb_err *err)
{
	struct loop_config cfg = { .fd = (unsigned)ffd, .block_size = 512 };

	return sb_loop_bind(&l->stack->state, "cache", file, &cfg, dev, len, err);
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

