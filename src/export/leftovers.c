/* The export layer's leftover check (sb_layer_ops.leftovers): what a run of
 * this stack that was killed, and whose state file is gone, left behind -
 * its two network namespaces and the processes in them (sshd, smbd, the
 * NFS server, iperf3, sshfs), a veth end still in this namespace (a kill
 * between creating the pair and moving it), client mounts under its run
 * directory, processes started with the run directory in their argv and
 * the run directory itself (keys). Names are the ones the build would use
 * (sb_export_net_names, sb_export_rundir_path), so build refuses before it
 * creates anything next to them. */
#include "export/export_int.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <libmount/libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stack.h"

static void netns_left(const char *ns, struct sb_leftovers *found)
{
	pid_t pids[16];
	char buf[32];
	unsigned n, i;

	if (!sb_export_netns_exists(ns))
		return;
	sb_leftover_add(found, "network namespace ", ns, "");
	n = sb_export_netns_pids(ns, pids, 16);
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%d", (int)pids[i]);
		sb_leftover_add(found, "process ", buf, " in it");
	}
}

static void veth_left(const char *ifn, struct sb_leftovers *found)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/class/net/%s", ifn);
	if (!access(path, F_OK))
		sb_leftover_add(found, "veth ", ifn, "");
}

/* Mounts whose target is under dir/ (the client mounts: dir/mnt-NAME). */
static void mounts_left(const char *dir, struct sb_leftovers *found)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	size_t n = strlen(dir);

	while (tb && it && !mnt_table_next_fs(tb, it, &fs)) {
		const char *t = mnt_fs_get_target(fs);

		if (t && !strncmp(t, dir, n) && t[n] == '/')
			sb_leftover_add(found, "client mount ", t, "");
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
}

/* Does /proc/PID/cmdline have an argument containing dir? */
static bool argv_names(const char *pid, const char *dir)
{
	char path[300], buf[4096];
	ssize_t k;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	k = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0)
		return false;
	buf[k] = '\0';
	for (char *a = buf; a < buf + k; a += strlen(a) + 1)
		if (strstr(a, dir))
			return true;
	return false;
}

static void procs_left(const char *dir, struct sb_leftovers *found)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char self[16];

	snprintf(self, sizeof(self), "%d", (int)getpid());
	while (d && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]) && strcmp(de->d_name, self) &&
		    argv_names(de->d_name, dir))
			sb_leftover_add(found, "process ", de->d_name, " (its argv names the run directory)");
	if (d)
		closedir(d);
}

void sb_export_leftovers(const struct sb_stack *s, struct sb_leftovers *found)
{
	struct sb_export_net n;
	char dir[SB_PATH_MAX], real[PATH_MAX];
	struct stat st;

	sb_export_net_names(s->spec->name, &n);
	sb_export_rundir_path(s->spec->name, dir, sizeof(dir));
	netns_left(n.srv_ns, found);
	netns_left(n.cli_ns, found);
	veth_left(n.srv_if, found);
	veth_left(n.cli_if, found);
	/* mountinfo has resolved paths; argv the one the build gave */
	mounts_left(realpath(dir, real) ? real : dir, found);
	procs_left(dir, found);
	if (!stat(dir, &st))
		sb_leftover_add(found, "run directory ", dir, "");
}
