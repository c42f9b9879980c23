/* Real-disk safety checks (see safety.h). Order matters only for the
 * message: the cheapest, most specific reason is reported first (wrong kind
 * of device, the system disk, mounted, swap, holders), then the generic
 * O_EXCL claim, then the on-disk signatures. Nothing here writes to a disk. */
#include "sys/safety.h"
#include "sys/safety_int.h"
#include "sys/sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid.h>
#include <libudev.h>

#include "util/log.h"
#include "util/units.h"


/* -------------------------------------------------------- one disk check */

static const char *kind_of(mode_t m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	return "not a block device";
}

void sb_safety_read_identity(const char *sysdir, struct sb_disk_info *info)
{
	const char *v = NULL;
	struct udev_device *ud = NULL;
	struct udev *udev;
	char p[PATH_MAX];

	sb_safety_pathf(p, "%s/device/model", sysdir);
	sb_sysfs_read_str(p, info->model, sizeof(info->model), NULL);
	udev = udev_new();
	if (udev)
		ud = udev_device_new_from_devnum(udev, 'b', info->dev);
	if (ud) {
		v = udev_device_get_property_value(ud, "ID_SERIAL_SHORT");
		if (!v || !*v)
			v = udev_device_get_property_value(ud, "ID_SERIAL");
		if (v)
			sb_safety_textf(info->serial, sizeof(info->serial), "%s", v);
		if (!info->model[0] && (v = udev_device_get_property_value(ud, "ID_MODEL")))
			sb_safety_textf(info->model, sizeof(info->model), "%s", v);
	}
	if (ud)
		udev_device_unref(ud);
	if (udev)
		udev_unref(udev);
	if (!info->serial[0]) {
		sb_safety_pathf(p, "%s/device/serial", sysdir);
		if (sb_sysfs_read_str(p, info->serial, sizeof(info->serial), NULL) || !info->serial[0]) {
			sb_safety_pathf(p, "%s/serial", sysdir);   /* virtio-blk */
			sb_sysfs_read_str(p, info->serial, sizeof(info->serial), NULL);
		}
	}
}

/* The path names a whole-disk block device; fills name, resolved, dev,
 * size, block sizes, model, serial. */
static int resolve(const char *path, struct sb_disk_info *info, struct sb_err *err)
{
	char real[PATH_MAX], sysdir[PATH_MAX], p[PATH_MAX], buf[128];
	struct stat st;
	unsigned long long sectors;
	int rc;

	if (!path || !*path)
		return sb_err_set(err, -EINVAL, "empty disk path");
	if (!realpath(path, real)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return sb_err_set(err, -ENOENT, "disk %s: does not exist", path);
		return sb_err_sys(err, -errno, "disk %s: cannot resolve the path", path);
	}
	if (stat(real, &st) != 0)
		return sb_err_sys(err, -errno, "disk %s: cannot stat %s", path, real);
	if (!S_ISBLK(st.st_mode))
		return sb_err_set(err, -SB_EREFUSED, "disk %s: is %s, not a block device", path,
				  kind_of(st.st_mode));
	/* The one resolution: from here on the disk is this device number;
	 * every later open is checked against it (check_excl, handoff). */
	info->dev = st.st_rdev;
	rc = sb_safety_check_place(path, err);
	if (rc)
		return rc;
	if (!sb_safety_dev_sysdir(SYSFS, st.st_rdev, sysdir))
		return sb_err_set(err, -SB_EREFUSED, "disk %s: block device %u:%u has no entry in %s/dev/block",
				  path, major(st.st_rdev), minor(st.st_rdev), SYSFS);
	sb_safety_textf(info->name, sizeof(info->name), "%s", sb_safety_base(sysdir));
	sb_safety_pathf(p, "%s/partition", sysdir);
	if (sb_safety_exists(p)) {
		char *slash = strrchr(sysdir, '/');
		if (slash)
			*slash = '\0';
		return sb_err_set(err, -SB_EREFUSED,
				  "disk %s: %s is a partition of /dev/%s, not a whole disk; stackbench "
				  "takes whole disks only", path, info->name, sb_safety_base(sysdir));
	}
	sb_safety_pathf(p, "%s/dm/name", sysdir);
	if (!sb_sysfs_read_str(p, buf, sizeof(buf), NULL))
		return sb_err_set(err, -SB_EREFUSED,
				  "disk %s: %s is a device-mapper device (%s), not a whole disk",
				  path, info->name, buf);
	sb_safety_pathf(p, "%s/md", sysdir);
	if (sb_safety_exists(p))
		return sb_err_set(err, -SB_EREFUSED, "disk %s: %s is an md RAID array, not a whole disk",
				  path, info->name);
	/* The node stackbench will use: /dev/<name> when it is this device. */
	sb_safety_pathf(p, "/dev/%s", info->name);
	if (stat(p, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == info->dev)
		sb_safety_textf(info->resolved, sizeof(info->resolved), "%s", p);
	else
		sb_safety_textf(info->resolved, sizeof(info->resolved), "%s", real);

	sb_safety_pathf(p, "%s/size", sysdir);
	sectors = 0;
	if (!sb_sysfs_read_str(p, buf, sizeof(buf), NULL))
		sectors = strtoull(buf, NULL, 10);
	info->size_bytes = (uint64_t)sectors * 512;
	sb_safety_pathf(p, "%s/queue/logical_block_size", sysdir);
	info->logical_block_size = !sb_sysfs_read_str(p, buf, sizeof(buf), NULL) ? (unsigned)strtoul(buf, NULL, 10) : 512;
	sb_safety_pathf(p, "%s/queue/physical_block_size", sysdir);
	info->physical_block_size = !sb_sysfs_read_str(p, buf, sizeof(buf), NULL) ? (unsigned)strtoul(buf, NULL, 10) : 512;
	sb_safety_read_identity(sysdir, info);
	if (!info->size_bytes)
		return sb_err_set(err, -SB_EREFUSED, "disk %s: %s has size 0 (an unattached loop device or "
				  "an empty drive)", path, info->name);
	sb_safety_pathf(p, "%s/ro", sysdir);
	if (!sb_sysfs_read_str(p, buf, sizeof(buf), NULL) && strcmp(buf, "1") == 0)
		return sb_err_set(err, -SB_EREFUSED, "disk %s: %s is read-only", path, info->name);
	return 0;
}

/* The disk itself (idx 0) or one of its partitions, for a message. */
static void part_name(const struct sb_disk_info *info, char pnames[][64], int idx, char *out, size_t len)
{
	if (idx == 0)
		sb_safety_textf(out, len, "%s", info->name);
	else
		sb_safety_textf(out, len, "its partition %s", pnames[idx - 1]);
}

/* Mounted or swap, the disk itself (index 0) or one of its partitions. */
static int check_in_use(const struct sb_disk_info *info, struct sb_err *err)
{
	char pnames[MAX_PARTS][64];
	dev_t devs[MAX_PARTS + 1];
	char where[512], what[128];
	char *text;
	int np, idx;

	devs[0] = info->dev;
	np = sb_safety_partitions(SYSFS, info->name, pnames, devs + 1, MAX_PARTS);
	text = sb_safety_read_text("/proc/self/mountinfo");
	if (!text)
		return sb_err_sys(err, -errno, "disk %s: cannot read /proc/self/mountinfo", info->path);
	idx = sb_safety_mountinfo_find(text, devs, (unsigned)np + 1, where, sizeof(where));
	free(text);
	if (idx >= 0) {
		part_name(info, pnames, idx, what, sizeof(what));
		return sb_err_set(err, -SB_EREFUSED, "disk %s: %s is mounted at %s; unmount it first",
				  info->path, what, where);
	}
	text = sb_safety_read_text("/proc/swaps");
	if (!text)
		return 0;       /* no swap support in this kernel */
	idx = sb_safety_swaps_find(text, devs, (unsigned)np + 1, where, sizeof(where));
	free(text);
	if (idx >= 0) {
		part_name(info, pnames, idx, what, sizeof(what));
		return sb_err_set(err, -SB_EREFUSED, "disk %s: %s is in use as swap (%s); swapoff it first",
				  info->path, what, where);
	}
	return 0;
}

static int check_holders(const struct sb_disk_info *info, struct sb_err *err)
{
	char list[700];
	int n;

	n = sb_safety_holders(SYSFS, info->name, list, sizeof(list));
	if (n < 0)
		return sb_err_sys(err, n, "disk %s: cannot list the holders of %s", info->path, info->name);
	if (n > 0)
		return sb_err_set(err, -SB_EREFUSED, "disk %s: %s is in use by %s (see %s/block/%s/holders); "
				  "stop the md array / device-mapper device first",
				  info->path, info->name, list, SYSFS, info->name);
	return 0;
}

/* The kernel refuses an O_EXCL open of a block device that a filesystem,
 * md, dm, swap or another O_EXCL opener has claimed, which also covers users
 * the sysfs checks cannot see. The descriptor is kept (info->excl_fd): the
 * signature probe and --wipe go through it, and holding it keeps anyone
 * from mounting or assembling the disk until the layer above takes it
 * (sb_safety_handoff). Then nobody else may have it open at all: O_EXCL
 * does not conflict with plain opens (a VM's raw disk, a running dd). */
static int check_excl(struct sb_disk_info *info, struct sb_err *err)
{
	char who[256];
	dev_t devs[MAX_PARTS + 1];
	char pnames[MAX_PARTS][64];
	struct stat st;
	int fd, np, rc;

	/* Read-only: closing a descriptor opened for writing makes udev
	 * re-probe the disk (inotify IN_CLOSE_WRITE), and its md rules would
	 * assemble an old array from the very superblock we refuse. */
	fd = open(info->resolved, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (e == EBUSY)
			return sb_err_set(err, -SB_EREFUSED, "disk %s: %s is open exclusively elsewhere "
					  "(O_EXCL open failed: a mounted filesystem, md, device-mapper "
					  "or another program has claimed it)", info->path, info->name);
		if (e == EACCES || e == EPERM)
			return sb_err_sys(err, -e, "disk %s: cannot open %s (stackbench needs root "
					  "for real disks)", info->path, info->resolved);
		return sb_err_sys(err, -e, "disk %s: cannot open %s", info->path, info->resolved);
	}
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != info->dev) {
		close(fd);
		return sb_err_set(err, -SB_EREFUSED, "disk %s: %s is no longer the device %u:%u that was "
				  "checked; nothing was written", info->path, info->resolved,
				  major(info->dev), minor(info->dev));
	}
	info->excl_fd = fd;
	devs[0] = info->dev;
	np = sb_safety_partitions(SYSFS, info->name, pnames, devs + 1, MAX_PARTS);
	rc = sb_safety_open_by(devs, (unsigned)np + 1, who, sizeof(who));
	if (rc > 0)
		return sb_err_set(err, -SB_EREFUSED, "disk %s: %s is open in another process: %s; "
				  "close it there first (fuser -v %s)", info->path, info->name, who,
				  info->resolved);
	if (rc < 0)
		return sb_err_sys(err, rc, "disk %s: cannot read /proc to see who has it open", info->path);
	return 0;
}

/* What one probe result is, in words ("a RAID/LVM member signature"), and
 * the bare type names ("linux_raid_member") for when the listing fails. */
static void describe_value(blkid_probe pr, char *out, size_t len, char *types, size_t tlen)
{
	const char *type = NULL, *usage = NULL, *pt = NULL, *bad = NULL;
	size_t l;

	out[0] = types[0] = '\0';
	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	blkid_probe_lookup_value(pr, "PTTYPE", &pt, NULL);
	blkid_probe_lookup_value(pr, "SBBADCSUM", &bad, NULL);
	if (type) {
		if (usage && strcmp(usage, "filesystem") == 0)
			sb_safety_textf(out, len, "a filesystem");
		else if (usage && strcmp(usage, "raid") == 0)
			sb_safety_textf(out, len, "a RAID/LVM member signature");
		else if (usage && strcmp(usage, "crypto") == 0)
			sb_safety_textf(out, len, "an encryption header");
		else
			sb_safety_textf(out, len, "a %s signature", type);
		if (bad) {
			l = strlen(out);
			sb_safety_textf(out + l, len - l, " with a bad checksum");
		}
		sb_safety_textf(types, tlen, "%s", type);
	}
	if (pt) {
		l = strlen(out);
		sb_safety_textf(out + l, len - l, "%sa partition table", l ? " and " : "");
		l = strlen(types);
		sb_safety_textf(types + l, tlen - l, "%s%s", l ? ", " : "", pt);
	}
}

/* Every signature, wipefs-style (the low-level probe walks all of them),
 * for the message when the safe probe found more than one. */
static void list_signatures(int fd, char *out, size_t len)
{
	const char *type, *off;
	blkid_probe pr;
	size_t l;
	int guard = 0;

	out[0] = '\0';
	pr = blkid_new_probe();
	if (!pr)
		return;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_free_probe(pr);
		return;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	while (guard++ < 16 && blkid_do_probe(pr) == 0) {
		type = off = NULL;
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0)
			blkid_probe_lookup_value(pr, "SBMAGIC_OFFSET", &off, NULL);
		else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0)
			blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET", &off, NULL);
		if (!type)
			continue;
		l = strlen(out);
		sb_safety_textf(out + l, len > l ? len - l : 0, "%s%s at offset %s", l ? ", " : "", type,
			 off ? off : "?");
	}
	blkid_free_probe(pr);
}

/* The safe probe (one answer, or "ambivalent"), through the kept fd. */
static int safe_probe(const struct sb_disk_info *info, char *what, size_t wlen, char *types,
		      size_t tlen, struct sb_err *err)
{
	blkid_probe pr = blkid_new_probe();
	int rc;

	what[0] = types[0] = '\0';
	if (!pr || blkid_probe_set_device(pr, info->excl_fd, 0, 0)) {
		if (pr)
			blkid_free_probe(pr);
		return sb_err_set(err, -EIO, "disk %s: cannot open %s for probing", info->path, info->resolved);
	}
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	/* No usage filter: filesystems, RAID, LVM, crypto and others all count. */
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
					  BLKID_SUBLKS_BADCSUM);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0)
		describe_value(pr, what, wlen, types, tlen);
	blkid_free_probe(pr);
	if (rc == -1)
		return sb_err_set(err, -EIO, "disk %s: libblkid could not probe %s", info->path,
				  info->resolved);
	/* -2: ambivalent, several signatures that contradict each other: there
	 * is certainly something there. */
	if (rc == -2)
		sb_safety_textf(what, wlen, "several conflicting signatures");
	return rc;
}

/* A signature refuses the disk; with --wipe it is noted (info->wipe) and
 * erased only after consent, by wipe_verified. */
static int check_signatures(struct sb_disk_info *info, bool allow_wipe, struct sb_err *err)
{
	char what[256], all[512], types[128];
	int rc;

	rc = safe_probe(info, what, sizeof(what), types, sizeof(types), err);
	if (rc == 1 || rc == -EIO)
		return rc == 1 ? 0 : rc;
	list_signatures(info->excl_fd, all, sizeof(all));
	if (!all[0])
		sb_safety_textf(all, sizeof(all), "%s", types[0] ? types : "?");
	if (!allow_wipe)
		return sb_err_set(err, -SB_EREFUSED, "disk %s: %s holds %s (libblkid: %s); stackbench does "
				  "not overwrite existing data: pass --wipe to erase it", info->path,
				  info->name, what, all);
	sb_warn("disk %s: %s holds %s (libblkid: %s); --wipe given: it will be erased", info->path,
		info->name, what, all);
	info->wipe = true;
	return 0;
}

/* --wipe, once consent is given: erase, then the probe must be clean. */
static int wipe_verified(struct sb_disk_info *info, struct sb_err *err)
{
	char what[256], all[512], types[128];
	int rc;

	rc = sb_safety_wipe(info->excl_fd, info->path, err);
	if (rc)
		return rc;
	rc = safe_probe(info, what, sizeof(what), types, sizeof(types), err);
	list_signatures(info->excl_fd, all, sizeof(all));
	if (rc == 1 && !all[0])
		return 0;
	if (rc == -EIO)
		return rc;
	return sb_err_set(err, -SB_EREFUSED, "disk %s: still holds %s after --wipe (libblkid: %s)",
			  info->path, what[0] ? what : "a signature", all[0] ? all : types);
}

int sb_safety_check_disk(const char *path, bool allow_wipe, struct sb_disk_info *info,
			 struct sb_err *err)
{
	struct sb_disk_info local;
	const char *mp;
	int rc;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	info->excl_fd = -1;
	sb_safety_textf(info->path, sizeof(info->path), "%s", path ? path : "");
	rc = resolve(path, info, err);
	if (!rc && (mp = sb_safety_root_disk_mount(info->dev)))
		rc = sb_err_set(err, -SB_EREFUSED, "disk %s: %s holds the system's %s filesystem",
				info->path, info->name, mp);
	if (!rc)
		rc = check_in_use(info, err);
	if (!rc)
		rc = check_holders(info, err);
	if (!rc)
		rc = check_excl(info, err);
	if (!rc)
		rc = check_signatures(info, allow_wipe, err);
	if (rc || info == &local)
		sb_safety_release(info, 1);
	return rc;
}

void sb_safety_release(struct sb_disk_info *infos, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (infos[i].excl_fd >= 0)
			close(infos[i].excl_fd);
		infos[i].excl_fd = -1;
	}
}

/* Right before the layer above opens the disk for its first write: the
 * node and the path as given must still be the device that was checked,
 * with the same size and serial; then the exclusive claim is handed over. */
int sb_safety_handoff(struct sb_disk_info *info, struct sb_err *err)
{
	struct sb_disk_info now;
	struct stat st;
	uint64_t bytes = 0;
	char sysdir[PATH_MAX];
	const char *what = NULL;

	sb_test_pause("disks:handoff");
	memset(&now, 0, sizeof(now));
	now.dev = info->dev;
	if (info->excl_fd < 0)
		what = "it is no longer held";
	else if (stat(info->resolved, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != info->dev)
		what = "its device node now names another device";
	else if (stat(info->path, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != info->dev)
		what = "the path now leads to another device";
	else if (ioctl(info->excl_fd, BLKGETSIZE64, &bytes) || bytes != info->size_bytes)
		what = "its size changed";
	else if (sb_safety_dev_sysdir(SYSFS, info->dev, sysdir) &&
		 (sb_safety_read_identity(sysdir, &now), strcmp(now.serial, info->serial)))
		what = "its serial number changed";
	if (what) {
		sb_safety_release(info, 1);
		return sb_err_set(err, -SB_EREFUSED, "disk %s: checked as %s (%u:%u) but %s; nothing was "
				  "written to it", info->path, info->resolved, major(info->dev),
				  minor(info->dev), what);
	}
	sb_safety_release(info, 1);
	return 0;
}

/* -------------------------------------------------------------- consent */

static void show_disks(const struct sb_disk_info *infos, unsigned n)
{
	char size[32], p[PATH_MAX], backing[PATH_MAX];
	unsigned i;

	fprintf(stderr, "stackbench will DESTROY ALL DATA on %u disk%s:\n", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		sb_size_format_human(infos[i].size_bytes, size, sizeof(size));
		fprintf(stderr, "  %-10s %s", infos[i].name, infos[i].resolved);
		if (strcmp(infos[i].path, infos[i].resolved) != 0)
			fprintf(stderr, " (%s)", infos[i].path);
		fprintf(stderr, "\n             size %s (%llu bytes, %u/%u-byte sectors)  model %s  serial %s\n",
			size, (unsigned long long)infos[i].size_bytes, infos[i].logical_block_size,
			infos[i].physical_block_size,
			infos[i].model[0] ? infos[i].model : "-", infos[i].serial[0] ? infos[i].serial : "-");
		sb_safety_pathf(p, SYSFS "/block/%s/loop/backing_file", infos[i].name);
		if (!sb_sysfs_read_str(p, backing, sizeof(backing), NULL) && backing[0])
			fprintf(stderr, "             loop device backed by %s\n", backing);
	}
}

static void join_paths(const struct sb_disk_info *infos, unsigned n, char *out, size_t len)
{
	size_t l;
	unsigned i;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		l = strlen(out);
		sb_safety_textf(out + l, len > l ? len - l : 0, "%s%s", i ? "," : "", infos[i].path);
	}
}

static int confirm(const struct sb_disk_info *infos, unsigned n, const char *destroy_data,
		   bool interactive, struct sb_err *err)
{
	char why[512], list[2048], names[512];
	char *line = NULL;
	size_t cap = 0, l;
	ssize_t r;
	unsigned i;
	bool ok;

	join_paths(infos, n, list, sizeof(list));
	if (destroy_data) {
		if (sb_safety_names_match(destroy_data, infos, n, why, sizeof(why)) != 0)
			return sb_err_set(err, -SB_EREFUSED, "--destroy-data=%s does not name exactly the "
					  "disks to destroy (%s): %s", destroy_data, list, why);
		sb_info("--destroy-data names all %u disk%s (%s): their data will be destroyed",
			n, n == 1 ? "" : "s", list);
		return 0;
	}
	if (!interactive)
		return sb_err_set(err, -SB_EREFUSED, "refusing to destroy the data on %s without "
				  "confirmation and there is no terminal to ask on; pass "
				  "--destroy-data=%s (naming exactly these disks) for an unattended run",
				  list, list);
	names[0] = '\0';
	for (i = 0; i < n; i++) {
		l = strlen(names);
		sb_safety_textf(names + l, sizeof(names) - l, "%s%s", i ? " " : "", infos[i].name);
	}
	show_disks(infos, n);
	fprintf(stderr, "Type \"destroy %u disk%s\" (or their names: %s) to go on; anything else aborts: ",
		n, n == 1 ? "" : "s", names);
	fflush(stderr);
	r = getline(&line, &cap, stdin);
	if (r <= 0)
		fputc('\n', stderr);
	ok = r > 0 && sb_safety_confirm_ok(line, infos, n);
	free(line);
	if (!ok)
		return sb_err_set(err, -SB_EREFUSED, "not confirmed: nothing was written to %s", list);
	return 0;
}

int sb_safety_check_disks(const char *const *paths, unsigned n, bool allow_wipe,
			  const char *destroy_data, bool interactive,
			  struct sb_disk_info *infos, struct sb_err *err)
{
	unsigned i, j;
	int rc;

	if (!n || !paths || !infos)
		return sb_err_set(err, -EINVAL, "no disks to check");
	if (n > 64)
		return sb_err_set(err, -EINVAL, "%u disks listed; at most 64 can be checked", n);
	for (i = 0; i < n; i++) {
		/* the same disk twice: its second O_EXCL open fails; say why */
		for (j = 0; j < i; j++) {
			struct stat st;

			if (!stat(paths[i], &st) && S_ISBLK(st.st_mode) && st.st_rdev == infos[j].dev) {
				sb_safety_release(infos, i);
				return sb_err_set(err, -SB_EREFUSED, "disks %s and %s are the same device (%s)",
						  infos[j].path, paths[i], infos[j].resolved);
			}
		}
		rc = sb_safety_check_disk(paths[i], allow_wipe, &infos[i], err);
		if (rc) {
			sb_safety_release(infos, i);
			return rc;
		}
	}
	rc = confirm(infos, n, destroy_data, interactive, err);
	for (i = 0; !rc && i < n; i++)
		if (infos[i].wipe)
			rc = wipe_verified(&infos[i], err);
	if (rc)
		sb_safety_release(infos, n);
	return rc;
}
