/* Real-disk safety: the checks that stand between a stack description naming
 * /dev/disk/by-id/... and the first write to it, modelled on what mke2fs
 * (check_mount, proceed_question), mdadm (O_EXCL, holders) and wipefs (the
 * libblkid probe) do. Every check only reads; the first one that fails stops
 * the run with a message naming the disk and the reason.
 *
 * Return codes: -ENOENT no such path; -EINVAL not a whole-disk block device
 * (partition, md, dm, regular file) or a --destroy-data list that does not
 * name exactly the disks; -EBUSY mounted, swap, held, open elsewhere, or the
 * disk holding / or /boot; -EEXIST a signature is present (no --wipe);
 * -EACCES/-EPERM no permission. Every refusal (not a whole-disk block
 * device, a path through a directory others can write, mounted, swap,
 * held, open in another process, the system disk, a signature without
 * --wipe, no or wrong consent) is -SB_EREFUSED: exit code 5. */
#ifndef SB_SYS_SAFETY_H
#define SB_SYS_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/err.h"

struct sb_disk_info {
	char path[512];          /* as given (e.g. /dev/disk/by-id/ata-...) */
	char resolved[512];      /* the device node (/dev/sda) */
	char name[64];           /* kernel name (sda) */
	char model[128];         /* may be empty (loop) */
	char serial[128];        /* may be empty (loop) */
	uint64_t size_bytes;
	unsigned logical_block_size, physical_block_size;
	dev_t dev;               /* major:minor of the whole disk: the one resolution */
	int excl_fd;             /* O_RDWR|O_EXCL, held from the checks to the handoff; -1 */
	bool wipe;               /* --wipe: signatures found, erased after consent */
};

/* All checks on one disk (kind, root disk, mounts, swap, holders, O_EXCL,
 * signatures). With allow_wipe (--wipe) a signature is reported as a warning
 * and allowed. Fills info on success (and as far as known on failure). */
int sb_safety_check_disk(const char *path, bool allow_wipe, struct sb_disk_info *info,
			 struct sb_err *err);

/* sb_safety_check_disk on every path, refusing the same disk listed twice,
 * then consent: destroy_data ("DEV,DEV", the --destroy-data value) must name
 * exactly these disks (by path, device node or kernel name, in any order);
 * without it, and when interactive, the disks are shown (model, serial,
 * size) on stderr and a line is read from stdin: it must be exactly
 * "destroy N disks" or the list of the disks' names. Non-interactive without
 * destroy_data is refused. infos has room for n entries. */
int sb_safety_check_disks(const char *const *paths, unsigned n, bool allow_wipe,
			  const char *destroy_data, bool interactive,
			  struct sb_disk_info *infos, struct sb_err *err);

/* Close the O_EXCL descriptors the checks hold (safe to call twice). */
void sb_safety_release(struct sb_disk_info *infos, unsigned n);
/* Right before the first write by the layer above: the device node and the
 * path as given must still be the checked device (st_rdev, size, serial);
 * then the held descriptor is closed so the layer above can claim it. */
int sb_safety_handoff(struct sb_disk_info *info, struct sb_err *err);

/* `job`/`bench --target` on a block device: reads are free; for writes
 * the same checks as for a stack's disks (whole disk or partition alike:
 * not mounted, no holders, not open elsewhere, no signature) and consent
 * through destroy_data (--destroy-data=DEV) naming it. Not a block device
 * (a file, a directory): 0, nothing to check. */
int sb_safety_check_target(const char *target, bool writes, const char *destroy_data,
			   struct sb_err *err);

/* Every directory on the way to path, and that of every link followed,
 * root-owned and not writable by group or others; -SB_EREFUSED if not. */
int sb_safety_check_place(const char *path, struct sb_err *err);
/* Other processes with one of devs open, as fuser finds them (scanning
 * /proc/PID/fd): 1 and "pid N (comm) has MAJ:MIN open" in out; 0 none. */
int sb_safety_open_by(const dev_t *devs, unsigned n, char *out, size_t len);
/* Erase every signature libblkid finds through fd (both ends of the disk). */
int sb_safety_wipe(int fd, const char *name, struct sb_err *err);

/* Does this disk (or a partition of it: dev may be either) hold /, /boot or
 * /boot/efi, directly or under md/dm/LVM/LUKS? */
bool sb_safety_is_root_disk(dev_t dev);

/* ---- Helpers, public so that the unit tests can feed them fixtures. ---- */

/* One line of /proc/self/mountinfo, octal escapes (\040) decoded. */
struct sb_mountinfo_ent {
	unsigned major, minor;
	char mountpoint[512];
	char source[512];
	char fstype[64];
};
/* Parse the next line at *cur (advancing it). 1: entry, 0: end of text,
 * lines that do not parse are skipped. */
int sb_safety_mountinfo_next(const char **cur, struct sb_mountinfo_ent *e);
/* Index into devs of the first device mounted according to the mountinfo
 * text (by major:minor, or by the source node for filesystems such as btrfs
 * that report an anonymous 0:N), with its mountpoint in where; -1 if none. */
int sb_safety_mountinfo_find(const char *text, const dev_t *devs, unsigned ndev,
			     char *where, size_t wlen);
/* The block device of the filesystem mounted (last, i.e. visible) at
 * mountpoint; -ENOENT if nothing block-backed is mounted there. */
int sb_safety_mountinfo_dev(const char *text, const char *mountpoint, dev_t *dev);

/* One line of /proc/swaps (header skipped): file name decoded, type
 * "partition" or "file". Same return convention as mountinfo_next. */
int sb_safety_swaps_next(const char **cur, char *name, size_t nlen, char *type, size_t tlen);
/* Index into devs of the first device used as swap, name in where; -1. */
int sb_safety_swaps_find(const char *text, const dev_t *devs, unsigned ndev,
			 char *where, size_t wlen);

/* sysfs is the sysfs mount point ("/sys"; tests use a fake tree). */
/* Partitions of whole disk `name`: /sys/block/<name>/<part>/partition.
 * Returns how many (at most max), names and dev_t filled. */
int sb_safety_partitions(const char *sysfs, const char *name, char names[][64], dev_t *devs,
			 unsigned max);
/* Holders of the disk and of each of its partitions, as "md127 (of loop3p1),
 * dm-0 [sb-crypt]". Returns the number of holders (0: none), or -errno. */
int sb_safety_holders(const char *sysfs, const char *name, char *out, size_t olen);
/* Whole disks (and the md/dm devices in between) that the block device dev
 * is built on, dev itself (or its whole disk) included: partition -> its
 * disk, dm/md -> slaves, recursively. Returns how many (at most max). */
int sb_safety_dev_parents(const char *sysfs, dev_t dev, dev_t *out, unsigned max);

/* Does list (names separated by commas and/or blanks) name exactly the
 * disks in infos? Each name may be the path given, the device node, the
 * kernel name, or any path resolving to the same device. 0 if so; else
 * -EINVAL and why ("loop4 is not named", "'sdz' is not one of ..."). */
int sb_safety_names_match(const char *list, const struct sb_disk_info *infos, unsigned n,
			  char *why, size_t wlen);
/* Is answer (one typed line) a valid confirmation for these disks? Exactly
 * "destroy N disks" (or "destroy 1 disk"), or the list of their names. */
bool sb_safety_confirm_ok(const char *answer, const struct sb_disk_info *infos, unsigned n);

#endif
