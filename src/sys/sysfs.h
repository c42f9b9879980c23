/* Small sysfs and /proc readers shared by the layers: read one attribute,
 * map a device node to its sysfs directory, and name the processes holding
 * a device or a directory (for "busy" messages). */
#ifndef SB_SYS_SYSFS_H
#define SB_SYS_SYSFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/err.h"

/* The one reader of a sysfs (or /proc) attribute: its first line, trailing
 * blanks stripped; buf is "" when it fails. 0 or -errno (err set if given). */
int sb_sysfs_read_str(const char *path, char *buf, size_t len, struct sb_err *err);
int sb_sysfs_read_u64(const char *path, uint64_t *out, struct sb_err *err);
/* /dev/loop3, /dev/md/x, /dev/mapper/y -> /sys/devices/.../block/loop3
 * (through stat's major:minor and /sys/dev/block/M:m). */
int sb_sysfs_dev_dir(const char *devnode, char *out, size_t len, struct sb_err *err);
/* Attribute relative to a device's sysfs dir: ("/dev/loop3", "queue/logical_block_size"). */
int sb_sysfs_dev_attr_str(const char *devnode, const char *attr, char *buf, size_t len,
			  struct sb_err *err);
int sb_sysfs_dev_attr_u64(const char *devnode, const char *attr, uint64_t *out,
			  struct sb_err *err);
/* Write val to a device's attribute ("queue/scheduler", "md/stripe_cache_size"). */
int sb_sysfs_dev_attr_write(const char *devnode, const char *attr, const char *val, struct sb_err *err);
/* Kernel name of a device node ("loop3", "md127", "dm-0"); out is "" when
 * it fails (no such node, not a block device, gone from sysfs). */
int sb_sysfs_dev_kname(const char *devnode, char *out, size_t len, struct sb_err *err);
/* Size of a block device in 512-byte sectors (its sysfs "size"), 0 if unknown. */
uint64_t sb_sysfs_dev_sectors(const char *devnode);
/* The logical block size of the block device a file lives on (st_dev: its
 * queue/logical_block_size, a partition's disk's), 512 when there is none
 * (tmpfs, a network filesystem) or it cannot be read: what O_DIRECT on the
 * file must be aligned to, as the kernel checks it. */
uint64_t sb_sysfs_file_lbs(dev_t st_dev);

/* Processes whose open files or cwd are `path` (or below it when prefix is
 * nonzero), as "pid 12 (bash), pid 34 (fio)"; "" if none found. Returns
 * the number of processes found. */
int sb_proc_holders(const char *path, int prefix, char *out, size_t len);

/* Fields 3, 6 and 22 of /proc/PID/stat: its state letter, session and
 * start time (clock ticks since boot: with the pid it names one process,
 * not a later one that reuses the pid). -ESRCH if there is no such process. */
struct sb_proc_stat {
	char state;
	long session;
	unsigned long long start;
};
int sb_proc_stat(pid_t pid, struct sb_proc_stat *out);
/* Its start time, 0 if it is gone or a zombie. */
unsigned long long sb_proc_start(pid_t pid);

/* Other processes (not session leaders: daemons detach into their own)
 * whose environment holds exactly entry ("K=V"); the first as "pid 12
 * (lvm)" in out. Returns how many. */
int sb_proc_with_env(const char *entry, char *out, size_t len);

/* Where a block device is mounted (first entry of /proc/self/mountinfo
 * with its major:minor), or "" ; returns 1 if mounted. */
int sb_dev_mountpoint(const char *devnode, char *out, size_t len);

#endif
