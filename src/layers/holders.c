/* Busy-device retries and holder reporting. See holders.h. */
#include "layers/holders.h"
#include "util/clock.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sys/dm.h"
#include "sys/sysfs.h"
#include "sys/udev.h"

int sb_retry_busy(int (*fn)(void *arg), void *arg, unsigned budget_ms)
{
	uint64_t start = sb_clock_ms();
	unsigned delay = 50;
	int r;

	for (;;) {
		r = fn(arg);
		if (r != -EBUSY)
			return r;
		if (sb_clock_ms() - start >= budget_ms)
			return r;
		(void)sb_udev_settle(2000, NULL);
		usleep(delay * 1000U);
		if (delay < 2000)
			delay *= 2;
	}
}

static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t used = strlen(buf);

	if (used + 1 >= len)
		return;
	snprintf(buf + used, len - used, fmt, a, b);
}

void sb_holders_describe(const char *devnode, char *buf, size_t len)
{
	char kname[64], path[PATH_MAX], rp[PATH_MAX];
	struct dirent *de;
	DIR *d;

	buf[0] = '\0';
	sb_sysfs_dev_kname(devnode, kname, sizeof(kname), NULL);
	if (!kname[0] || !realpath(devnode, rp)) {
		snprintf(buf, len, "%s does not exist", devnode);
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/block/%s/holders", kname);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			append(buf, len, "%s%s (kernel holder)", buf[0] ? ", " : "", de->d_name);
		}
		closedir(d);
	}
	/* Which processes have it open: /proc/PID/fd links. */
	d = opendir("/proc");
	if (d) {
		while ((de = readdir(d))) {
			char fdir[PATH_MAX], comm[64];
			struct dirent *fe;
			DIR *fd;
			int hit = 0;

			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			snprintf(fdir, sizeof(fdir), "/proc/%s/fd", de->d_name);
			fd = opendir(fdir);
			if (!fd)
				continue;
			while (!hit && (fe = readdir(fd))) {
				char lp[PATH_MAX], target[PATH_MAX];
				ssize_t n;

				if (fe->d_name[0] == '.')
					continue;
				if (snprintf(lp, sizeof(lp), "%s/%s", fdir, fe->d_name) >= (int)sizeof(lp))
					continue;
				n = readlink(lp, target, sizeof(target) - 1);
				if (n <= 0)
					continue;
				target[n] = '\0';
				hit = !strcmp(target, rp);
			}
			closedir(fd);
			if (!hit)
				continue;
			snprintf(fdir, sizeof(fdir), "/proc/%s/comm", de->d_name);
			if (sb_sysfs_read_str(fdir, comm, sizeof(comm), NULL))
				snprintf(comm, sizeof(comm), "?");
			{
				char who[384];

				snprintf(who, sizeof(who), "process %s (%s)", de->d_name, comm);
				append(buf, len, "%s%s", buf[0] ? ", " : "", who);
			}
		}
		closedir(d);
	}
	if (!buf[0])
		snprintf(buf, len, "no holder found (a mount, or a process that exited since)");
	else {
		char tmp[1024];

		snprintf(tmp, sizeof(tmp), "held by %s", buf);
		snprintf(buf, len, "%s", tmp);
	}
}

/* sb_dm_remove for sb_retry_busy. */
static int dm_remove_once(void *arg)
{
	return sb_dm_remove(arg);
}

int sb_holders_retry_dm(const char *who, const char *name, int (*fn)(void *arg), void *arg, struct sb_err *err)
{
	char node[PATH_MAX], h[512];
	int r = sb_retry_busy(fn, arg, SB_BUSY_BUDGET_MS);

	if (r == -EBUSY) {
		snprintf(node, sizeof(node), "/dev/mapper/%s", name);
		sb_holders_describe(node, h, sizeof(h));
		return sb_err_set(err, -EBUSY, "%s: %s still busy after %d s: %s", who, name,
				  SB_BUSY_BUDGET_MS / 1000, h);
	}
	return r;
}

int sb_holders_dm_remove(const char *who, const char *name, struct sb_err *err)
{
	int r;

	(void)sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
	r = sb_holders_retry_dm(who, name, dm_remove_once, (void *)name, err);
	if (r == -EBUSY)
		return r;
	if (r < 0)
		return sb_err_set(err, r, "%s: removing dm device %s failed: %s", who, name,
				  sb_dm_last()[0] ? sb_dm_last() : "device-mapper error");
	(void)sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
	return 0;
}
