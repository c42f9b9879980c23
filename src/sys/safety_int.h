/* Helpers shared by the safety_*.c files; not for other modules. */
#ifndef SB_SYS_SAFETY_INT_H
#define SB_SYS_SAFETY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SYSFS "/sys"
#define MAX_PARTS 128
#define MAX_PARENTS 64

/* snprintf into a PATH_MAX buffer; truncation leaves "" (names nothing). */
void sb_safety_pathf(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* snprintf for messages, where cutting the end off is fine. */
void sb_safety_textf(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whole file, NUL-terminated, malloc'd; NULL with errno on failure. */
char *sb_safety_read_text(const char *path);
bool sb_safety_read_dev_attr(const char *path, dev_t *dev);
bool sb_safety_exists(const char *path);
/* Canonical sysfs directory of a block device (out: PATH_MAX). */
bool sb_safety_dev_sysdir(const char *sysfs, dev_t dev, char *out);
const char *sb_safety_base(const char *p);
/* Which of /, /boot, /boot/efi the disk (or partition) dev holds; NULL if none. */
const char *sb_safety_root_disk_mount(dev_t dev);

struct sb_disk_info;
/* Model and serial from sysfs and udev. */
void sb_safety_read_identity(const char *sysdir, struct sb_disk_info *info);

#endif
