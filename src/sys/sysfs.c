#include "sys/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/log.h"

int sb_sysfs_read_str(const char *path, char *buf, size_t len, struct sb_err *err)
{
	ssize_t n;
	int fd;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "cannot open %s", path);
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = -errno;
		close(fd);
		buf[0] = '\0';
		return sb_err_sys(err, e, "cannot read %s", path);
	}
	close(fd);
	buf[n] = '\0';
	n = (ssize_t)strcspn(buf, "\n");
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return 0;
}

int sb_sysfs_read_u64(const char *path, uint64_t *out, struct sb_err *err)
{
	char buf[64], *end;
	int rc;

	rc = sb_sysfs_read_str(path, buf, sizeof(buf), err);
	if (rc)
		return rc;
	errno = 0;
	*out = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return sb_err_set(err, -EINVAL, "%s: expected a number, read \"%s\"", path, buf);
	return 0;
}

int sb_sysfs_dev_dir(const char *devnode, char *out, size_t len, struct sb_err *err)
{
	char link[64], real[PATH_MAX];
	struct stat st;

	if (stat(devnode, &st))
		return sb_err_sys(err, -errno, "cannot stat %s", devnode);
	if (!S_ISBLK(st.st_mode))
		return sb_err_set(err, -ENOTBLK, "%s is not a block device", devnode);
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, real))
		return sb_err_sys(err, -errno, "%s (%s) has no sysfs entry", devnode, link);
	if ((size_t)snprintf(out, len, "%s", real) >= len)
		return sb_err_set(err, -ENAMETOOLONG, "sysfs path of %s too long", devnode);
	return 0;
}

static int dev_attr_path(const char *devnode, const char *attr, char *path, size_t len,
			 struct sb_err *err)
{
	char dir[PATH_MAX];
	int rc;

	rc = sb_sysfs_dev_dir(devnode, dir, sizeof(dir), err);
	if (rc)
		return rc;
	if ((size_t)snprintf(path, len, "%s/%s", dir, attr) >= len)
		return sb_err_set(err, -ENAMETOOLONG, "sysfs path too long");
	return 0;
}

int sb_sysfs_dev_attr_str(const char *devnode, const char *attr, char *buf, size_t len,
			  struct sb_err *err)
{
	char path[PATH_MAX];
	int rc;

	rc = dev_attr_path(devnode, attr, path, sizeof(path), err);
	return rc ? rc : sb_sysfs_read_str(path, buf, len, err);
}

int sb_sysfs_dev_attr_u64(const char *devnode, const char *attr, uint64_t *out,
			  struct sb_err *err)
{
	char path[PATH_MAX];
	int rc;

	rc = dev_attr_path(devnode, attr, path, sizeof(path), err);
	return rc ? rc : sb_sysfs_read_u64(path, out, err);
}

int sb_sysfs_dev_attr_write(const char *devnode, const char *attr, const char *val, struct sb_err *err)
{
	char path[PATH_MAX], back[128];
	ssize_t n;
	int rc, fd;

	rc = dev_attr_path(devnode, attr, path, sizeof(path), err);
	if (rc)
		return rc;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "%s: cannot set %s to %s", devnode, attr, val);
	n = write(fd, val, strlen(val));
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc)
		return sb_err_set(err, rc, "%s: the kernel refused %s = %s: %s", devnode, attr, val, strerror(-rc));
	/* the kernel may round or clamp: what it took is what the results say */
	if (sb_sysfs_read_str(path, back, sizeof(back), NULL) == 0)
		sb_verbose("%s: %s = %s (asked %s)", devnode, attr, back, val);
	return 0;
}

int sb_sysfs_dev_kname(const char *devnode, char *out, size_t len, struct sb_err *err)
{
	char dir[PATH_MAX];
	const char *base;
	int rc;

	out[0] = '\0';
	rc = sb_sysfs_dev_dir(devnode, dir, sizeof(dir), err);
	if (rc)
		return rc;
	base = strrchr(dir, '/');
	snprintf(out, len, "%s", base ? base + 1 : dir);
	return 0;
}

uint64_t sb_sysfs_dev_sectors(const char *devnode)
{
	uint64_t v;

	return sb_sysfs_dev_attr_u64(devnode, "size", &v, NULL) ? 0 : v;
}

uint64_t sb_sysfs_file_lbs(dev_t st_dev)
{
	static const char *const at[] = { "queue/logical_block_size", "../queue/logical_block_size" };
	char path[96];
	uint64_t v;
	unsigned i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(st_dev), minor(st_dev), at[i]);
		if (sb_sysfs_read_u64(path, &v, NULL) == 0 && v >= 512 && v <= 65536)
			return v;
	}
	return 512;
}

static int path_matches(const char *target, const char *path, size_t plen, int prefix)
{
	if (strncmp(target, path, plen))
		return 0;
	if (target[plen] == '\0')
		return 1;
	return prefix && target[plen] == '/';
}

static void append_holder(char *out, size_t len, int *count, const char *pid)
{
	char comm[64], p[300];
	size_t n = strlen(out);

	snprintf(p, sizeof(p), "/proc/%s/comm", pid);
	if (sb_sysfs_read_str(p, comm, sizeof(comm), NULL))
		snprintf(comm, sizeof(comm), "?");
	if (n < len)
		snprintf(out + n, len - n, "%spid %s (%s)", *count ? ", " : "", pid, comm);
	(*count)++;
}

int sb_proc_holders(const char *path, int prefix, char *out, size_t len)
{
	char p[PATH_MAX], target[PATH_MAX], fdpath[PATH_MAX + 64];
	size_t plen = strlen(path);
	struct dirent *de, *fe;
	DIR *proc, *fds;
	int count = 0, self = getpid();
	ssize_t n;

	out[0] = '\0';
	proc = opendir("/proc");
	if (!proc)
		return 0;
	while ((de = readdir(proc))) {
		int found = 0;

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || atoi(de->d_name) == self)
			continue;
		snprintf(p, sizeof(p), "/proc/%s/cwd", de->d_name);
		n = readlink(p, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			found = path_matches(target, path, plen, prefix);
		}
		snprintf(p, sizeof(p), "/proc/%s/fd", de->d_name);
		fds = found ? NULL : opendir(p);
		while (fds && (fe = readdir(fds))) {
			if (fe->d_name[0] == '.')
				continue;
			if ((size_t)snprintf(fdpath, sizeof(fdpath), "%s/%s", p, fe->d_name) >= sizeof(fdpath))
				continue;
			n = readlink(fdpath, target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			if (path_matches(target, path, plen, prefix)) {
				found = 1;
				break;
			}
		}
		if (fds)
			closedir(fds);
		if (found)
			append_holder(out, len, &count, de->d_name);
	}
	closedir(proc);
	return count;
}

int sb_dev_mountpoint(const char *devnode, char *out, size_t len)
{
	char line[4096], mnt[PATH_MAX];
	unsigned maj, mnr;
	struct stat st;
	FILE *f;
	int found = 0;

	out[0] = '\0';
	if (stat(devnode, &st) || !S_ISBLK(st.st_mode))
		return 0;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return 0;
	/* "36 35 7:0 / /mnt rw,... - ext4 /dev/loop0 rw" */
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &mnr, mnt) != 3)
			continue;
		if (maj == major(st.st_rdev) && mnr == minor(st.st_rdev)) {
			snprintf(out, len, "%s", mnt);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Session id (field 6 of /proc/PID/stat; the comm in field 2 may hold
 * blanks and parentheses, so count from the last ')'). */
int sb_proc_stat(pid_t pid, struct sb_proc_stat *out)
{
	char path[64], buf[1024], *p;
	unsigned i;
	ssize_t n;
	int fd;

	memset(out, 0, sizeof(*out));
	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH; /* it ended between the open and the read */
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	if (!p || sscanf(p + 1, " %c %*d %*d %ld", &out->state, &out->session) != 2)
		return -EIO;
	/* p is the end of field 2: the space before field N is N - 2 spaces on */
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -EIO;
	out->start = strtoull(p + 1, NULL, 10);
	return 0;
}

unsigned long long sb_proc_start(pid_t pid)
{
	struct sb_proc_stat ps;

	if (sb_proc_stat(pid, &ps) || ps.state == 'Z' || ps.state == 'X')
		return 0;
	return ps.start;
}

int sb_proc_with_env(const char *entry, char *out, size_t len)
{
	char p[300], comm[64], *buf = NULL;
	size_t elen = strlen(entry), cap = 1 << 16;
	struct sb_proc_stat ps;
	struct dirent *de;
	int count = 0, self = getpid();
	DIR *proc;

	out[0] = '\0';
	proc = opendir("/proc");
	buf = malloc(cap);
	if (!proc || !buf) {
		if (proc)
			closedir(proc);
		free(buf);
		return 0;
	}
	while ((de = readdir(proc))) {
		ssize_t n, off;
		int fd;

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || atoi(de->d_name) == self)
			continue;
		/* Daemons an LVM tool may start (dmeventd, lvmpolld) detach into
		 * a session of their own and outlive any build: not the build's. */
		if (!sb_proc_stat(atoi(de->d_name), &ps) && ps.session == atol(de->d_name))
			continue;
		snprintf(p, sizeof(p), "/proc/%s/environ", de->d_name);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, cap - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		for (off = 0; off < n; off += (ssize_t)strlen(buf + off) + 1) {
			if (strncmp(buf + off, entry, elen) || buf[off + elen])
				continue;
			snprintf(p, sizeof(p), "/proc/%s/comm", de->d_name);
			sb_sysfs_read_str(p, comm, sizeof(comm), NULL);
			if (!count++)
				snprintf(out, len, "pid %s (%s)", de->d_name, comm);
			break;
		}
	}
	closedir(proc);
	free(buf);
	return count;
}
