/* loop: sparse backing files in <loop.dir>/<stack>/, each attached to a
 * loop device with the requested logical sector size and direct I/O.
 * State objects: "dir" (the run directory), "file" (each backing file),
 * "loopdev" (/dev/loopN, extra = its backing file, so teardown never
 * detaches a loop device that someone else has since attached).
 *
 * In the throwaway kernel the host passes the members as UML block devices
 * (SB_UBD_MEMBERS, see src/sandbox/sandbox.h): files seen through hostfs
 * make a poor disk (docs/sandbox.md). Then each member is /dev/ubdX itself
 * (512-byte sectors, as ubd has), or a loop device with direct I/O on it
 * for other sector sizes; state object "member" (id /dev/ubdX): teardown
 * zeroes its ends, so the next stack in the same boot that reuses it finds
 * no signature of this one. */
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
#include "core/stack.h"
#include "layers/loop_int.h"
#include "layers/queue.h"
#include "sandbox/sandbox.h"
#include "sys/sysfs.h"
#include "sys/udev.h"
#include "util/json.h"
#include "util/log.h"
#include "util/units.h"
#include "util/fs.h"

#define LOOP_ATTACH_TRIES 16

static const char *loop_kname(const char *dev)
{
	const char *b = strrchr(dev, '/');

	return b ? b + 1 : dev;
}

/* The backing file of /dev/loopN from sysfs, or "" when detached. */
static void loop_backing(const char *dev, char *out, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", loop_kname(dev));
	if (sb_sysfs_read_str(path, out, len, NULL))
		out[0] = '\0';
}

bool sb_loop_is_ours(const char *dev, const char *file)
{
	char back[PATH_MAX];
	size_t n = strlen(file);

	loop_backing(dev, back, sizeof(back));
	/* A backing file unlinked under a live loop shows " (deleted)". */
	return back[0] && !strncmp(back, file, n) && (!back[n] || !strcmp(back + n, " (deleted)"));
}

static void loop_plan(const struct sb_layer *l, struct sb_plan *p)
{
	const struct sb_loop_spec *ls = &l->spec->devices.loop;
	char size[32], names[32] = "d0";

	sb_size_format(ls->size, size, sizeof(size));
	if (ls->count > 1)
		snprintf(names, sizeof(names), "d0..d%u", ls->count - 1);
	sb_plan_build(p, "loop: create %u sparse backing file%s of %s in %s (%s, O_EXCL) "
		      "and attach %s with %u-byte sectors%s",
		      ls->count, ls->count == 1 ? "" : "s", size, l->stack->rundir, names,
		      ls->count == 1 ? "it" : "them", ls->sector_size,
		      ls->direct_io ? " and direct I/O" : " (buffered, no direct I/O)");
	sb_plan_teardown(p, "loop: detach the %u loop device%s (confirmed through /sys/block/loopN/loop), "
			 "delete the backing files and %s",
			 ls->count, ls->count == 1 ? "" : "s", l->stack->rundir);
}

/* Older kernels (< 5.8) lack LOOP_CONFIGURE: three ioctls instead. */
static int loop_configure_legacy(int lfd, int ffd, const struct loop_config *cfg)
{
	if (ioctl(lfd, LOOP_SET_FD, ffd))
		return -errno;
	if (ioctl(lfd, LOOP_SET_STATUS64, &cfg->info) ||
	    (cfg->block_size && ioctl(lfd, LOOP_SET_BLOCK_SIZE, (unsigned long)cfg->block_size))) {
		int e = -errno;
		ioctl(lfd, LOOP_CLR_FD, 0);
		return e;
	}
	/* Best effort: the kernel may refuse direct I/O for this backing file. */
	if (cfg->info.lo_flags & LO_FLAGS_DIRECT_IO)
		ioctl(lfd, LOOP_SET_DIRECT_IO, 1UL);
	return 0;
}

int sb_loop_bind(struct sb_state *st, const char *layer, const char *file, struct loop_config *cfg, char *dev,
		 size_t devlen, struct sb_err *err)
{
	const char *who = strcmp(layer, "loop") ? layer : NULL;   /* the loop layer's own: no prefix */
	int ctl, lfd, num, rc = 0, tries;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return sb_err_sys(err, -errno, "%s%scannot open /dev/loop-control (no loop support in this kernel?)",
				  who ? who : "", who ? ": " : "");
	for (tries = 0; tries < LOOP_ATTACH_TRIES; tries++) {
		num = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (num < 0) {
			rc = sb_err_sys(err, -errno, "%s%sno free loop device", who ? who : "", who ? ": " : "");
			break;
		}
		snprintf(dev, devlen, "/dev/loop%d", num);
		rc = sb_state_add(st, layer, "loopdev", dev, file, err);
		if (rc)
			break;
		/* The node only: LOOP_CONFIGURE needs no udev work done. */
		rc = sb_udev_wait_devnode(dev, SB_UDEV_TIMEOUT_MS, err);
		if (rc)
			break;
		lfd = open(dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			rc = sb_err_sys(err, -errno, "%s%scannot open %s", who ? who : "", who ? ": " : "", dev);
			break;
		}
		rc = ioctl(lfd, LOOP_CONFIGURE, cfg) ? -errno : 0;
		if (rc == -EINVAL || rc == -ENOTTY)
			rc = loop_configure_legacy(lfd, (int)cfg->fd, cfg);
		close(lfd);
		if (rc != -EBUSY)
			break;
		sb_debug("%s: %s taken by someone else, trying the next free one", layer, dev);
		rc = sb_state_remove(st, st->nobj - 1, err);
		if (rc)
			break;
		rc = -EBUSY;
	}
	close(ctl);
	if (rc == -EBUSY)
		return sb_err_set(err, rc, "%s%sno loop device could be attached after %d tries (all taken)",
				  who ? who : "", who ? ": " : "", tries);
	if (rc && !sb_err_isset(err))
		return sb_err_sys(err, rc, "%s%scannot attach %s to %s", who ? who : "", who ? ": " : "", file, dev);
	return rc;
}

/* Attach `file` (open as ffd) to a free loop device with the stack's
 * sector size and direct I/O. */
static int loop_attach(struct sb_layer *l, const char *file, int ffd, char *dev, size_t devlen,
		       struct sb_err *err)
{
	const struct sb_loop_spec *ls = &l->spec->devices.loop;
	struct loop_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = ffd;
	cfg.block_size = ls->sector_size;
	cfg.info.lo_flags = ls->direct_io ? LO_FLAGS_DIRECT_IO : 0;
	/* lo_file_name is informational (losetup shows it) and 64 bytes:
	 * keep the tail, which names the stack and file. */
	{
		size_t n = strlen(file), max = sizeof(cfg.info.lo_file_name) - 1;
		const char *tail = n > max ? file + n - max : file;

		memcpy(cfg.info.lo_file_name, tail, strlen(tail));
	}
	return sb_loop_bind(&l->stack->state, "loop", file, &cfg, dev, devlen, err);
}

static int loop_check(const char *dev, const struct sb_loop_spec *ls, struct sb_err *err)
{
	uint64_t lbs = 0, dio = 0;
	int rc;

	rc = sb_sysfs_dev_attr_u64(dev, "queue/logical_block_size", &lbs, err);
	if (rc)
		return rc;
	if (lbs != ls->sector_size)
		return sb_err_set(err, -EINVAL, "%s has %llu-byte sectors, not the %u asked for",
				  dev, (unsigned long long)lbs, ls->sector_size);
	if (ls->direct_io && !sb_sysfs_dev_attr_u64(dev, "loop/dio", &dio, NULL) && !dio)
		sb_warn("loop: the kernel refused direct I/O for %s (backing filesystem?); it runs buffered", dev);
	return 0;
}

static int loop_build_files(struct sb_layer *l, struct sb_err *err);

/* The sandbox's members as this stack's devices. */
static int loop_build_members(struct sb_layer *l, char members[][64], struct sb_err *err)
{
	const struct sb_loop_spec *ls = &l->spec->devices.loop;
	struct sb_state *st = &l->stack->state;
	uint64_t size = 0;
	unsigned i;
	int rc, fd;

	for (i = 0; i < ls->count; i++) {
		rc = sb_sysfs_dev_attr_u64(members[i], "size", &size, err);
		if (rc)
			return rc;
		if (size * 512 < ls->size)
			return sb_err_set(err, -ENOSPC, "the sandbox's member %s has %llu bytes, fewer than "
					  "the %llu asked for", members[i], (unsigned long long)(size * 512),
					  (unsigned long long)ls->size);
		rc = sb_state_add(st, "loop", "member", members[i], NULL, err);
		if (rc)
			return rc;
		if (ls->sector_size == 512) {
			snprintf(l->dev[i], sizeof(l->dev[i]), "%.63s", members[i]);
			l->ndev = i + 1;
			sb_verbose("loop: member %s (UML block device)", members[i]);
			continue;
		}
		/* ubd has 512-byte sectors: a loop device on it has the others. */
		fd = open(members[i], O_RDWR | O_EXCL | O_CLOEXEC);
		if (fd < 0)
			return sb_err_sys(err, -errno, "cannot open the member %s", members[i]);
		rc = loop_attach(l, members[i], fd, l->dev[i], sizeof(l->dev[i]), err);
		close(fd);
		if (rc)
			return rc;
		l->ndev = i + 1;
		rc = loop_check(l->dev[i], ls, err);
		if (rc)
			return rc;
		sb_verbose("loop: %s -> member %s (%u-byte sectors)", l->dev[i], members[i], ls->sector_size);
	}
	/* No settle: mdadm, cryptsetup and mkfs open the devices exclusively,
	 * udev's blkid probing them meanwhile never does. */
	return 0;
}

static int loop_build(struct sb_layer *l, struct sb_err *err)
{
	char members[SB_SANDBOX_MAX_UBD][64];
	unsigned nmem = sb_sandbox_members(members, SB_SANDBOX_MAX_UBD);

	int rc;

	if (nmem && nmem >= l->spec->devices.loop.count) {
		rc = loop_build_members(l, members, err);
	} else {
		if (nmem)
			sb_warn("loop: this stack needs %u members and the sandbox has %u block devices: "
				"loop devices on files seen through hostfs instead", l->spec->devices.loop.count, nmem);
		rc = loop_build_files(l, err);
	}
	return rc ? rc : sb_layer_queue_apply(l, err);
}

static int loop_build_files(struct sb_layer *l, struct sb_err *err)
{
	const struct sb_loop_spec *ls = &l->spec->devices.loop;
	struct sb_state *st = &l->stack->state;
	char real[PATH_MAX], file[SB_PATH_MAX + 16];
	unsigned i;
	int rc = 0, fd, dfd;

	if (ls->count < 1 || ls->count > SB_LAYER_MAX_DEVS)
		return sb_err_set(err, -EINVAL, "loop count %u out of range 1..%d", ls->count, SB_LAYER_MAX_DEVS);
	/* The parent (e.g. /var/tmp/stackbench) is shared by every stack and
	 * stays; the run directory is ours. Both are made 0700 and walked
	 * with openat (sb_dir_open_trusted): a directory another user made
	 * or a link planted in /var/tmp is refused, not followed. */
	dfd = sb_dir_open_trusted(l->spec->devices.loop.dir[0] ? l->spec->devices.loop.dir
				  : "/var/tmp/stackbench", true, err);
	if (dfd < 0)
		return dfd;
	close(dfd);
	if (faccessat(AT_FDCWD, l->stack->rundir, F_OK, AT_SYMLINK_NOFOLLOW)) {
		rc = sb_state_add(st, "loop", "dir", l->stack->rundir, NULL, err);
		if (rc)
			return rc;
	}
	dfd = sb_dir_open_trusted(l->stack->rundir, true, err);
	if (dfd < 0)
		return dfd;
	/* sysfs reports backing files by their resolved path. */
	if (!realpath(l->stack->rundir, real)) {
		close(dfd);
		return sb_err_sys(err, -errno, "cannot resolve %s", l->stack->rundir);
	}
	for (i = 0; i < ls->count; i++) {
		struct stat fst;
		char name[16], ident[64];

		snprintf(name, sizeof(name), "d%u", i);
		if ((size_t)snprintf(file, sizeof(file), "%s/%s", real, name) >= SB_PATH_MAX) {
			close(dfd);
			return sb_err_set(err, -ENAMETOOLONG, "backing file path too long under %s", real);
		}
		rc = sb_state_add(st, "loop", "file", file, NULL, err);
		if (rc)
			break;
		fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			rc = -errno;
			/* Not ours: forget it so teardown leaves it alone. */
			sb_state_remove(st, st->nobj - 1, NULL);
			sb_err_sys(err, rc, "cannot create backing file %s", file);
			break;
		}
		/* What teardown checks before deleting: this very inode. */
		fstat(fd, &fst);
		snprintf(ident, sizeof(ident), "%llu:%llu", (unsigned long long)fst.st_dev,
			 (unsigned long long)fst.st_ino);
		rc = sb_state_set_extra(st, "loop", "file", file, ident, err);
		if (rc) {
			close(fd);
			break;
		}
		if (ftruncate(fd, (off_t)ls->size)) {
			rc = sb_err_sys(err, -errno, "cannot size %s", file);
			close(fd);
			break;
		}
		rc = loop_attach(l, file, fd, l->dev[i], sizeof(l->dev[i]), err);
		close(fd);
		if (rc)
			break;
		l->ndev = i + 1;
		rc = loop_check(l->dev[i], ls, err);
		if (rc)
			break;
		sb_verbose("loop: %s -> %s", l->dev[i], file);
	}
	close(dfd);
	return rc; /* no settle: see loop_build_members */
}

/* The device path in words, for the results. */
static const char *loop_device_path(const struct sb_layer *l)
{
	bool ubd = l->ndev && !strncmp(l->dev[0], "/dev/ubd", 8);
	char back[PATH_MAX];

	if (ubd)
		return "UML block devices (ubd) without discard, backed by preallocated files on the host";
	if (l->ndev)
		loop_backing(l->dev[0], back, sizeof(back));
	if (l->ndev && !strncmp(back, "/dev/ubd", 8))
		return "loop devices with direct I/O on UML block devices (ubd) without discard, backed "
		       "by preallocated files on the host";
	if (sb_sandbox_inside(false))
		return "loop devices on files of the host's filesystem seen through hostfs (UML)";
	return "loop devices on files";
}

static int loop_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	struct json_object *arr = json_object_new_array();
	unsigned i;

	json_object_object_add(out, "sector_size_requested",
			       json_object_new_int64(l->spec->devices.loop.sector_size));
	json_object_object_add(out, "direct_io_requested", json_object_new_boolean(l->spec->devices.loop.direct_io));
	json_object_object_add(out, "device_path", json_object_new_string(loop_device_path(l)));
	for (i = 0; i < l->ndev; i++) {
		struct json_object *d = json_object_new_object();
		char back[PATH_MAX];
		uint64_t v;

		json_object_object_add(d, "dev", json_object_new_string(l->dev[i]));
		loop_backing(l->dev[i], back, sizeof(back));
		json_object_object_add(d, "backing_file", json_object_new_string(back));
		if (!sb_sysfs_dev_attr_u64(l->dev[i], "size", &v, NULL))
			json_object_object_add(d, "size", json_object_new_int64((int64_t)(v * 512)));
		if (!sb_sysfs_dev_attr_u64(l->dev[i], "queue/logical_block_size", &v, NULL))
			json_object_object_add(d, "logical_block_size", json_object_new_int64((int64_t)v));
		if (!sb_sysfs_dev_attr_u64(l->dev[i], "queue/physical_block_size", &v, NULL))
			json_object_object_add(d, "physical_block_size", json_object_new_int64((int64_t)v));
		if (!sb_sysfs_dev_attr_u64(l->dev[i], "loop/dio", &v, NULL))
			json_object_object_add(d, "direct_io", json_object_new_boolean(v != 0));
		json_object_array_add(arr, d);
	}
	json_object_object_add(out, "loop_devices", arr);
	return 0;
}

static int loop_attach_state(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	unsigned i;

	l->ndev = 0;
	for (i = 0; i < st->nobj && l->ndev < SB_LAYER_MAX_DEVS; i++) {
		const struct sb_state_obj *o = &st->obj[i];

		if (strcmp(o->layer, "loop"))
			continue;
		if (!strcmp(o->kind, "member")) {
			snprintf(l->dev[l->ndev++], SB_PATH_MAX, "%s", o->id);
			continue;
		}
		if (strcmp(o->kind, "loopdev"))
			continue;
		/* a loop device on the member just recorded stands in for it */
		if (l->ndev && !strcmp(l->dev[l->ndev - 1], o->extra))
			l->ndev--;
		if (!sb_loop_is_ours(o->id, o->extra))
			return sb_err_set(err, -ENODEV, "%s is no longer attached to %s", o->id, o->extra);
		snprintf(l->dev[l->ndev++], SB_PATH_MAX, "%s", o->id);
	}
	if (!l->ndev)
		return sb_err_set(err, -ENODEV, "the state of %s records no loop device", st->stack);
	return 0;
}

static bool loop_wanted(const struct sb_stack_spec *spec)
{
	return spec->devices.kind == SB_DEVICES_LOOP;
}

static void loop_predict(const struct sb_layer *l, char *out, size_t len)
{
	snprintf(out, len, "%s", l->spec->devices.loop.count > 1 ? "the loop devices" : "the loop device");
}

static void loop_leftover(const char *dev, const char *backing, void *ctx)
{
	struct sb_leftovers *found = ctx;
	size_t rl = strlen(found->rundir);

	if (backing[0] && !strncmp(backing, found->rundir, rl) && backing[rl] == '/')
		sb_leftover_add(found, "/dev/", dev, "");
}

/* A loop device over a backing file in the run directory. */
static void loop_leftovers(const struct sb_stack *s, struct sb_leftovers *found)
{
	(void)s;
	sb_layer_each_sysblock("loop", "loop/backing_file", loop_leftover, found);
}

/* Each loop device's direct I/O and logical sector size as asked
 * (devices.loop) and as read back (loop_devices[], loop_describe). */
static void loop_report_check(struct json_object *asked, struct json_object *built, sb_layer_differs_fn fn, void *ctx)
{
	struct json_object *loop = sb_json_get(asked, "loop"), *ld = sb_json_get(built, "loop_devices");
	static const char *const keys[][3] = {
		{ "direct_io", "direct_io", "direct I/O" },
		{ "sector_size", "logical_block_size", "logical sector size" },
	};
	char what[160];

	for (size_t i = 0; loop && json_object_is_type(ld, json_type_array) && i < json_object_array_length(ld); i++) {
		struct json_object *d = json_object_array_get_idx(ld, i);

		for (size_t k = 0; k < 2; k++) {
			struct json_object *a = sb_json_get(loop, keys[k][0]), *b = sb_json_get(d, keys[k][1]);

			snprintf(what, sizeof(what), "%s %s", sb_json_str(d, "dev", "loop"), keys[k][2]);
			if (a && b)
				fn(ctx, what, json_object_get_string(a), json_object_get_string(b));
		}
	}
}

static const struct sb_layer_report loop_report = {
	.check = loop_report_check,
	/* the loop devices' count and size: the stack as it ran (html_stack.c) */
	.rerun = (const struct sb_layer_rerun[]){ { "loop.count", 0 }, { "loop.size", 1 }, { NULL, 0 } },
};

const struct sb_layer_ops sb_layer_loop = {
	.order = SB_ORDER_DEVICES,
	.wanted = loop_wanted,
	.predict_dev = loop_predict,
	.leftovers = loop_leftovers,
	.name = "loop",
	.section = "devices",
	.plan = loop_plan,
	.build = loop_build,
	.describe = loop_describe,
	.teardown = sb_loop_teardown,
	.exists = sb_loop_exists,
	.attach = loop_attach_state,
	.per_layer = true,
	.report = &loop_report,
};
