/* Processes inside a network namespace: commands run to completion and
 * daemons, identified by pid and start time so that a teardown after a
 * kill -9 never signals a recycled pid. */
#include "export/export_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/state.h"
#include "sys/child.h"
#include "sys/sysfs.h"
#include "util/clock.h"

void sb_export_net_names(const char *stack, struct sb_export_net *n)
{
	const char *dir = sb_state_dir();
	uint32_t h = 2166136261u;
	const char *p;

	for (p = dir; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	h = (h ^ '/') * 16777619u;
	for (p = stack; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	snprintf(n->srv_ns, sizeof(n->srv_ns), "sb-%08x-srv", h);
	snprintf(n->cli_ns, sizeof(n->cli_ns), "sb-%08x-cli", h);
	snprintf(n->srv_if, sizeof(n->srv_if), "sbv%08xs", h);
	snprintf(n->cli_if, sizeof(n->cli_if), "sbv%08xc", h);
	snprintf(n->srv_addr, sizeof(n->srv_addr), "10.213.%u.%u", (h >> 8) & 0xff, (h & 0x3f) << 2 | 1);
	snprintf(n->cli_addr, sizeof(n->cli_addr), "10.213.%u.%u", (h >> 8) & 0xff, (h & 0x3f) << 2 | 2);
}

/* In the child (its setup): join ns's network namespace (the mount
 * namespace stays ours, so a client mount made here is the one the
 * benchmark sees). */
static int child_enter(void *arg, struct sb_err *err)
{
	const char *ns = arg;
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET))
		return sb_err_sys(err, -errno, "cannot enter network namespace %s", ns);
	close(fd);
	return 0;
}

/* Read both pipes until EOF or the deadline; keep the tail of stderr. */
static void collect(int ofd, int efd, char *out, size_t outlen, char *errb, size_t errlen,
		    uint64_t t0, unsigned timeout_ms)
{
	size_t no = 0, ne = 0;
	char junk[4096];

	while (ofd >= 0 || efd >= 0) {
		struct pollfd p[2] = { { .fd = ofd, .events = POLLIN }, { .fd = efd, .events = POLLIN } };
		long left = (long)timeout_ms - (long)(sb_clock_ms() - t0);
		ssize_t r;

		if (left <= 0 || poll(p, 2, (int)left) <= 0)
			break;
		if (p[0].revents) {
			r = read(ofd, out && no + 1 < outlen ? out + no : junk,
				 out && no + 1 < outlen ? outlen - no - 1 : sizeof(junk));
			if (r <= 0) {
				close(ofd);
				ofd = -1;
			} else if (out && no + 1 < outlen) {
				no += (size_t)r;
			}
		}
		if (p[1].revents) {
			r = read(efd, junk, sizeof(junk));
			if (r <= 0) {
				close(efd);
				efd = -1;
			} else {
				size_t k = (size_t)r < errlen - 1 ? (size_t)r : errlen - 1;

				if (ne + k >= errlen) {   /* keep the tail */
					memmove(errb, errb + (ne + k - (errlen - 1)), errlen - 1 - k);
					ne = errlen - 1 - k;
				}
				memcpy(errb + ne, junk + r - k, k);
				ne += k;
			}
		}
	}
	if (out && outlen)
		out[no] = '\0';
	errb[ne] = '\0';
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
}

int sb_export_cmd(const char *ns, const char *const *argv, char *out, size_t outlen,
		  unsigned timeout_ms, struct sb_err *err)
{
	struct sb_child c = { .argv = argv, .in = SB_CHILD_NULL, .setup = ns ? child_enter : NULL,
			      .setup_arg = (void *)ns };
	struct sb_err ce = { 0 };
	int op[2], ep[2], status = 0, rc;
	char errb[512], how[64], *nl;
	uint64_t t0, spent;

	if (pipe2(op, O_CLOEXEC))
		return sb_err_sys(err, -errno, "pipe");
	if (pipe2(ep, O_CLOEXEC)) {
		rc = sb_err_sys(err, -errno, "pipe");
		close(op[0]);
		close(op[1]);
		return rc;
	}
	c.out = op[1];
	c.err = ep[1];
	rc = sb_child_start(&c, &ce);
	close(op[1]);
	close(ep[1]);
	if (rc < 0) {
		close(op[0]);
		close(ep[0]);
		return sb_err_set(err, rc, "%s", ce.msg);
	}
	t0 = sb_clock_ms();
	collect(op[0], ep[0], out, outlen, errb, sizeof(errb), t0, timeout_ms);
	spent = sb_clock_ms() - t0;
	rc = sb_child_wait(&c, spent < timeout_ms ? (unsigned)(timeout_ms - spent) : 1, &status, &ce);
	if (rc == -ETIMEDOUT)
		return sb_err_set(err, -ETIMEDOUT, "%s did not finish within %u s", argv[0], timeout_ms / 1000);
	if (rc < 0)
		return sb_err_set(err, rc, "%s", ce.msg);
	while ((nl = strrchr(errb, '\n')) && !nl[1])
		*nl = '\0';
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	return sb_err_set(err, -EIO, "%s %s failed (%s)%s%s", argv[0], argv[1] ? argv[1] : "",
			  sb_child_status_text(status, how, sizeof(how)), errb[0] ? ": " : "", errb);
}

int sb_export_spawn(const char *ns, const char *const *argv, const char *log, pid_t *pid,
		    struct sb_err *err)
{
	/* A daemon outlives the build by design: it must not carry the
	 * build's mark, or a teardown would wait for it to end (the state
	 * records it, and teardown stops it by pid). Its own session: a
	 * terminal's SIGINT goes to stackbench, which stops the daemons
	 * itself, in order. */
	const char *env[] = { SB_BUILDER_ENV, NULL };
	struct sb_child c = { .argv = argv, .in = SB_CHILD_NULL, .new_session = true, .default_signals = true,
			      .env = env, .setup = ns ? child_enter : NULL, .setup_arg = (void *)ns };
	int lf = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600), rc;

	*pid = -1;
	if (lf < 0)
		return sb_err_sys(err, -errno, "cannot open %s", log);
	c.out = c.err = lf;
	rc = sb_child_start(&c, err);
	close(lf);
	if (rc == 0)
		*pid = c.pid;
	return rc;
}

int sb_export_proc_id(pid_t pid, char *buf, size_t len)
{
	struct sb_proc_stat ps;
	int rc = sb_proc_stat(pid, &ps);

	if (rc)
		return rc;
	snprintf(buf, len, "%d %llu", (int)pid, ps.start);
	return 0;
}

bool sb_export_proc_alive(const char *id)
{
	unsigned long long want;
	int pid;

	if (sscanf(id, "%d %llu", &pid, &want) != 2 || pid <= 1)
		return false;
	return want && sb_proc_start(pid) == want;
}

static bool wait_gone(const char *id, unsigned ms)
{
	unsigned i;

	for (i = 0; i < ms / 50; i++) {
		if (!sb_export_proc_alive(id))
			return true;
		(void)waitpid(-1, NULL, WNOHANG);   /* our own children: reap them */
		usleep(50000);
	}
	return !sb_export_proc_alive(id);
}

int sb_export_proc_stop(const char *id, const char *what, struct sb_err *err)
{
	int pid;

	if (!sb_export_proc_alive(id))
		return 0;
	pid = atoi(id);
	kill(pid, SIGTERM);
	if (wait_gone(id, 5000))
		return 0;
	kill(pid, SIGKILL);
	if (wait_gone(id, 5000))
		return 0;
	return sb_err_set(err, -EBUSY, "%s (pid %d) does not end after SIGKILL", what, pid);
}

/* The kernel's own module loader (/proc/sys/kernel/modprobe): the
 * throwaway kernel points it at a wrapper for its module tree, where a
 * plain `modprobe` finds no /lib/modules. Best effort, quiet: a feature
 * built in needs no module, and one absent is said where it is used. */
void sb_export_modprobe(const char *const *mods)
{
	char path[256] = "/sbin/modprobe", *nl;
	const char *argv[16] = { path, "-qa" };
	unsigned i, n = 2;
	FILE *f = fopen("/proc/sys/kernel/modprobe", "re");

	if (f) {
		if (!fgets(path, sizeof(path), f))
			snprintf(path, sizeof(path), "/sbin/modprobe");
		fclose(f);
	}
	if ((nl = strchr(path, '\n')))
		*nl = '\0';
	for (i = 0; mods[i] && n < 15; i++)
		argv[n++] = mods[i];
	argv[n] = NULL;
	(void)sb_export_cmd(NULL, argv, NULL, 0, 30000, NULL);
}

bool sb_export_netns_exists(const char *ns)
{
	char path[128];

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	return access(path, F_OK) == 0;
}

/* Pids whose network namespace has inode ino; at most max. */
static unsigned ns_members(ino_t ino, pid_t *pids, unsigned max)
{
	char path[300], link[64], want[64];
	struct dirent *de;
	unsigned n = 0;
	DIR *d = opendir("/proc");
	ssize_t k;

	snprintf(want, sizeof(want), "net:[%lu]", (unsigned long)ino);
	while (d && (de = readdir(d)) && n < max) {
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid <= 1 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/net", de->d_name);
		k = readlink(path, link, sizeof(link) - 1);
		if (k <= 0)
			continue;
		link[k] = '\0';
		if (!strcmp(link, want) && sb_proc_start(pid))
			pids[n++] = pid;
	}
	if (d)
		closedir(d);
	return n;
}

unsigned sb_export_netns_pids(const char *ns, pid_t *pids, unsigned max)
{
	char path[128];
	struct stat sb;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	return stat(path, &sb) ? 0 : ns_members(sb.st_ino, pids, max);
}

int sb_export_netns_kill_all(const char *ns, struct sb_err *err)
{
	char path[128];
	struct stat sb;
	pid_t pids[256];
	unsigned n, i, tries;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	if (stat(path, &sb))
		return 0;
	for (tries = 0; tries < 100; tries++) {
		n = ns_members(sb.st_ino, pids, 256);
		if (!n)
			return 0;
		for (i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		(void)waitpid(-1, NULL, WNOHANG);
		usleep(50000);
	}
	return sb_err_set(err, -EBUSY, "network namespace %s: %u processes remain after SIGKILL (pid %d first)",
			  ns, n, (int)pids[0]);
}
