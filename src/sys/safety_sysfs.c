/* The sysfs and /proc side of the safety checks: reading attributes,
 * partitions, holders, what a device is built on (partition -> disk,
 * dm/md -> slaves), and which disks hold /, /boot and /boot/efi. Only reads. */
#include "sys/safety.h"
#include "sys/safety_int.h"
#include "sys/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/fs.h"

/* ---------------------------------------------------------------- files */

/* snprintf into a PATH_MAX buffer. A truncated path would name some other
 * file, so truncation leaves an empty path (which names nothing). */
void sb_safety_pathf(char *out, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(out, PATH_MAX, fmt, ap);
	va_end(ap);
	if (r < 0 || r >= PATH_MAX)
		out[0] = '\0';
}

/* snprintf for messages, where cutting the end off is fine. */
void sb_safety_textf(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	vsnprintf(out, len, fmt, ap);
	va_end(ap);
}

char *sb_safety_read_text(const char *path)
{
	return sb_fs_read_text(path);
}

bool sb_safety_read_dev_attr(const char *path, dev_t *dev)
{
	char buf[32];
	unsigned ma, mi;

	if (sb_sysfs_read_str(path, buf, sizeof(buf), NULL) || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return false;
	*dev = makedev(ma, mi);
	return true;
}

bool sb_safety_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Canonical sysfs directory of a block device (/sys/devices/.../block/sda). */
bool sb_safety_dev_sysdir(const char *sysfs, dev_t dev, char *out)
{
	char p[PATH_MAX];

	sb_safety_pathf(p, "%s/dev/block/%u:%u", sysfs, major(dev), minor(dev));
	return realpath(p, out) != NULL;
}

const char *sb_safety_base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* ----------------------------------------------------------- sysfs walks */

int sb_safety_partitions(const char *sysfs, const char *name, char names[][64], dev_t *devs,
			 unsigned max)
{
	char dir[PATH_MAX], p[PATH_MAX];
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	sb_safety_pathf(dir, "%s/block/%s", sysfs, name);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.')
			continue;
		sb_safety_pathf(p, "%s/%s/partition", dir, de->d_name);
		if (!sb_safety_exists(p))
			continue;
		sb_safety_pathf(p, "%s/%s/dev", dir, de->d_name);
		if (!sb_safety_read_dev_attr(p, &devs[n]))
			continue;
		sb_safety_textf(names[n], 64, "%s", de->d_name);
		n++;
	}
	closedir(d);
	return (int)n;
}

static void add_holders(const char *sysfs, const char *dir, const char *of, char *out,
			size_t olen, int *count)
{
	char p[PATH_MAX], dmname[128], item[300];
	struct dirent *de;
	size_t l;
	DIR *d;

	sb_safety_pathf(p, "%s/holders", dir);
	d = opendir(p);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		sb_safety_pathf(p, "%s/block/%s/dm/name", sysfs, de->d_name);
		if (!sb_sysfs_read_str(p, dmname, sizeof(dmname), NULL) && dmname[0])
			sb_safety_textf(item, sizeof(item), "%s [%s]", de->d_name, dmname);
		else
			sb_safety_textf(item, sizeof(item), "%s", de->d_name);
		l = strlen(out);
		sb_safety_textf(out + l, olen > l ? olen - l : 0, "%s%s%s%s%s", *count ? ", " : "", item,
			 of ? " (of " : "", of ? of : "", of ? ")" : "");
		(*count)++;
	}
	closedir(d);
}

int sb_safety_holders(const char *sysfs, const char *name, char *out, size_t olen)
{
	char dir[PATH_MAX], pdir[PATH_MAX];
	char pnames[MAX_PARTS][64];
	dev_t pdevs[MAX_PARTS];
	int count = 0, np, i;

	if (olen)
		out[0] = '\0';
	sb_safety_pathf(dir, "%s/block/%s", sysfs, name);
	if (!sb_safety_exists(dir))
		return -ENOENT;
	add_holders(sysfs, dir, NULL, out, olen, &count);
	np = sb_safety_partitions(sysfs, name, pnames, pdevs, MAX_PARTS);
	for (i = 0; i < np; i++) {
		sb_safety_pathf(pdir, "%s/%s", dir, pnames[i]);
		add_holders(sysfs, pdir, pnames[i], out, olen, &count);
	}
	return count;
}

static void add_unique(dev_t *out, unsigned *n, unsigned max, dev_t d)
{
	unsigned i;

	for (i = 0; i < *n; i++)
		if (out[i] == d)
			return;
	if (*n < max)
		out[(*n)++] = d;
}

static void parents_rec(const char *sysfs, dev_t dev, dev_t *out, unsigned *n, unsigned max,
			int depth)
{
	char dir[PATH_MAX], p[PATH_MAX], *slash;
	struct dirent *de;
	dev_t d;
	DIR *sd;

	if (depth > 16)
		return;
	if (!sb_safety_dev_sysdir(sysfs, dev, dir)) {
		add_unique(out, n, max, dev);
		return;
	}
	sb_safety_pathf(p, "%s/partition", dir);
	if (sb_safety_exists(p)) {
		/* A partition's directory sits inside its disk's. */
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		sb_safety_pathf(p, "%s/dev", dir);
		if (!sb_safety_read_dev_attr(p, &dev))
			return;
	}
	add_unique(out, n, max, dev);
	sb_safety_pathf(p, "%s/slaves", dir);
	sd = opendir(p);
	if (!sd)
		return;
	while ((de = readdir(sd))) {
		if (de->d_name[0] == '.')
			continue;
		sb_safety_pathf(p, "%s/slaves/%s/dev", dir, de->d_name);
		if (sb_safety_read_dev_attr(p, &d))
			parents_rec(sysfs, d, out, n, max, depth + 1);
	}
	closedir(sd);
}

int sb_safety_dev_parents(const char *sysfs, dev_t dev, dev_t *out, unsigned max)
{
	unsigned n = 0;

	parents_rec(sysfs, dev, out, &n, max, 0);
	return (int)n;
}

/* --------------------------------------------------------- the root disk */

/* Which of /, /boot, /boot/efi does the disk (or partition) dev hold?
 * NULL if none. */
const char *sb_safety_root_disk_mount(dev_t dev)
{
	static const char *const mps[] = { "/", "/boot", "/boot/efi" };
	dev_t mine[MAX_PARENTS], theirs[MAX_PARENTS], mdev;
	const char *hit = NULL;
	char *text;
	int nm, nt, i, j;
	unsigned k;

	text = sb_safety_read_text("/proc/self/mountinfo");
	if (!text)
		return NULL;
	nm = sb_safety_dev_parents(SYSFS, dev, mine, MAX_PARENTS);
	for (k = 0; k < sizeof(mps) / sizeof(mps[0]) && !hit; k++) {
		if (sb_safety_mountinfo_dev(text, mps[k], &mdev) != 0)
			continue;
		nt = sb_safety_dev_parents(SYSFS, mdev, theirs, MAX_PARENTS);
		for (i = 0; i < nt && !hit; i++)
			for (j = 0; j < nm && !hit; j++)
				if (theirs[i] == mine[j])
					hit = mps[k];
	}
	free(text);
	return hit;
}

bool sb_safety_is_root_disk(dev_t dev)
{
	return sb_safety_root_disk_mount(dev) != NULL;
}
