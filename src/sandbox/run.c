/* The throwaway user-mode-linux kernel, part five: re-running this binary
 * inside it.
 *
 * How a re-run works (the measured recipe of scripts/uml-run.sh, in C):
 * the run is recorded on the host (record.c) before anything is created; a
 * private temp dir holds the job script (cd, environment, exec of this
 * binary), a modprobe wrapper pointing at /usr/lib/uml/modules, UML's own
 * umid directory (uml_dir=, so nothing is left in ~/.uml) and, afterwards,
 * the job's exit status (the kernel's own exit status does not carry it).
 * The stacks' members are preallocated host files given to the kernel as
 * its block devices (ubdN=FILE). linux.uml runs in its own process group,
 * dies with us (PR_SET_PDEATHSIG) and a guardian kills its group and
 * removes the files should we be killed; its console (tty0) is on one pipe
 * and tty1 on another; uml-init.sh sends the job's stdout to the console
 * and its stderr to tty1 with output post-processing off, and frames the
 * console output with markers so the kernel's own boot and halt chatter is
 * dropped. We copy both pipes live to our stdout and stderr. */
#include "sandbox/sandbox_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "util/units.h"

#define GRACE_MS (120 * 1000)   /* after a stop request: time to tear down inside */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct uml_run {
	struct sb_sbx_record rec; /* rec.dir: short, the mconsole socket path inside must fit sun_path */
	char kernel[PATH_MAX], init[PATH_MAX], exe[PATH_MAX], shim[PATH_MAX];
	char sock[PATH_MAX];
	unsigned members;         /* ubd0..members-1 */
	uint64_t mem_mib;
	uint64_t timeout_ms;      /* 0: none */
	pid_t pid;
};

static int run_config(struct uml_run *r, struct sb_err *err)
{
	const char *mem = getenv("STACKBENCH_UML_MEM"), *to = getenv("STACKBENCH_UML_TIMEOUT");
	uint64_t v;
	struct sb_err e2 = { 0 };

	int rc = sb_sbx_find_kernel(r->kernel, sizeof(r->kernel), err);

	if (rc < 0)
		return rc;
	if (!sb_sbx_path_exists(UML_MODULES))
		return sb_err_set(err, -ENOTSUP, "sandbox: %s is missing; apt-get install user-mode-linux",
				  UML_MODULES);
	rc = sb_sbx_find_init(r->init, sizeof(r->init), err);
	if (rc < 0)
		return rc;
	if (!realpath("/proc/self/exe", r->exe))
		return sb_err_sys(err, -errno, "sandbox: cannot resolve /proc/self/exe");
	sb_sbx_find_xstate_shim(r->shim, sizeof(r->shim));
	r->mem_mib = 1024;
	if (mem && *mem) {
		if (sb_size_parse(mem, &v, &e2) < 0 || v < (64ULL << 20))
			return sb_err_set(err, -EINVAL, "STACKBENCH_UML_MEM=%s: expected a size of at "
					  "least 64MiB such as 1G or 2GiB%s%s", mem, e2.msg[0] ? ": " : "", e2.msg);
		r->mem_mib = v >> 20;
	}
	r->timeout_ms = 0;
	if (to && *to) {
		if (sb_duration_parse(to, &v, &e2) < 0 || v == 0)
			return sb_err_set(err, -EINVAL, "STACKBENCH_UML_TIMEOUT=%s: expected seconds "
					  "or a duration such as 10m%s%s", to, e2.msg[0] ? ": " : "", e2.msg);
		r->timeout_ms = v / 1000000;
	}
	return 0;
}

static void child_exec(const struct uml_run *r, int out, int errw, int diag, bool out_tty, bool err_tty)
{
	char a[20 + SB_SANDBOX_MAX_UBD][PATH_MAX + 32];
	char *argv[21 + SB_SANDBOX_MAX_UBD];
	int n = 0, fd;
	unsigned i;
	sigset_t none;

	setpgid(0, 0);
	/* Die with the run; and if it died before this line, do not start. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != r->rec.owner)
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDONLY);
	/* fd 0 null, 1 console, 2 kernel's own diagnostics, 3 tty1 */
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(out, 1) < 0 || dup2(diag, 2) < 0 || dup2(errw, 3) < 0)
		_exit(127);
	closefrom(4);
#define ARG(...) (snprintf(a[n], sizeof(a[n]), __VA_ARGS__), argv[n] = a[n], n++)
	ARG("%s", r->kernel);
	ARG("mem=%lluM", (unsigned long long)r->mem_mib);
	ARG("root=/dev/root");
	ARG("rootfstype=hostfs");
	ARG("rw");
	ARG("quiet");
	ARG("con=null");
	ARG("con0=fd:0,fd:1");
	ARG("con1=null,fd:3");
	ARG("umid=%s", r->rec.umid);
	ARG("uml_dir=%s/uml", r->rec.dir);
	/* The members: host files as the kernel's block devices ubda.. */
	for (i = 0; i < r->members; i++)
		ARG("ubd%u=%s/ubd%u", i, r->rec.members_dir, i);
	ARG("init=%s", r->init);
	/* Unknown name=value parameters become init's environment. */
	ARG("SB_JOB=%s/job", r->rec.dir);
	ARG("SB_MODROOT=%s", r->rec.dir);
	ARG("SB_MARK=1");
	ARG("SB_ERRTTY=/dev/tty1");
	ARG("SB_PIPE_OUT=%d", !out_tty);
	ARG("SB_PIPE_ERR=%d", !err_tty);
#undef ARG
	argv[n] = NULL;
	/* linux.uml's own environment (not its init's, which comes from the
	 * command line above): the xstate shim. */
	if (r->shim[0])
		setenv("LD_PRELOAD", r->shim, 1);
	execv(argv[0], argv);
	_exit(127);
}

/* Stop the whole process group: UML forks helper processes of its own. */
static void kill_group(pid_t pgid)
{
	if (pgid <= 0)
		return;
	kill(-pgid, SIGTERM);
	usleep(200000);
	kill(-pgid, SIGKILL);
}

/* "/dev/ubda,/dev/ubdb,..." for n members */
static void member_names(unsigned n, char *out, size_t len)
{
	size_t o = 0;
	unsigned i;

	out[0] = '\0';
	for (i = 0; i < n && o < len; i++)
		o += snprintf(out + o, len - o, "%s/dev/ubd%c", i ? "," : "", 'a' + i);
}

int sb_sandbox_rerun(int argc, char **argv, const struct sb_sandbox_members *m,
		     int *exit_code, struct sb_err *err)
{
	static struct uml_run r;
	struct sb_sbx_console con = { 0 };
	char members[SB_SANDBOX_MAX_UBD * 12];
	int guard_fd = -1;
	int pout[2] = { -1, -1 }, perr[2] = { -1, -1 }, pdiag[2] = { -1, -1 }, sfd = -1;
	sigset_t mask, old;
	char path[PATH_MAX + 16], buf[65536];
	const char *tmp = getenv("TMPDIR");
	uint64_t deadline = 0, start;
	bool exited = false, stopping = false, timed_out = false, killed = false;
	int rc, status = 0, open_fds;

	memset(&r, 0, sizeof(r));
	r.pid = -1;
	*exit_code = 1;  /* failure, until the command inside says otherwise */
	rc = run_config(&r, err);
	if (rc < 0)
		return rc;
	if (!tmp || !*tmp || strlen(tmp) > 64)
		tmp = "/tmp";
	/* What earlier killed runs left, before we add our own. */
	rc = sb_sandbox_reap(err);
	if (rc < 0)
		return rc;
	r.members = m ? m->count : 0;
	rc = sb_sbx_record_open(&r.rec, tmp, r.members ? m->dir : NULL, err);
	if (rc < 0)
		return rc;
	rc = sb_sbx_members_create(&r.rec, m, err);
	if (rc < 0)
		goto out;
	member_names(r.members, members, sizeof(members));
	snprintf(r.sock, sizeof(r.sock), "%s/uml/%s/mconsole", r.rec.dir, r.rec.umid);
	snprintf(path, sizeof(path), "%s/job", r.rec.dir);
	rc = sb_sbx_write_job(path, r.exe, argc, argv, members, err);
	if (rc < 0)
		goto out;
	rc = sb_sbx_write_modprobe(r.rec.dir, err);
	if (rc < 0)
		goto out;
	if (pipe2(pout, O_CLOEXEC) < 0 || pipe2(perr, O_CLOEXEC) < 0 || pipe2(pdiag, O_CLOEXEC) < 0) {
		rc = sb_err_sys(err, -errno, "sandbox: pipe");
		goto out;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, &old);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		rc = sb_err_sys(err, -errno, "sandbox: signalfd");
		goto out_mask;
	}
	fflush(stdout);
	fflush(stderr);
	sb_verbose("booting the throwaway kernel (%s, init %s, mem=%lluM)", r.kernel, r.init,
		   (unsigned long long)r.mem_mib);
	start = now_ms();
	r.pid = fork();
	if (r.pid < 0) {
		rc = sb_err_sys(err, -errno, "sandbox: fork");
		goto out_mask;
	}
	if (r.pid == 0)
		child_exec(&r, pout[1], perr[1], pdiag[1], isatty(STDOUT_FILENO), isatty(STDERR_FILENO));
	setpgid(r.pid, r.pid); /* also in the child: whichever runs first */
	r.rec.uml_pgid = r.pid;
	rc = sb_sbx_guard_start(&r.rec, &guard_fd, err);
	if (rc < 0) {
		kill_group(r.pid);
		waitpid(r.pid, &status, 0);
		goto out_mask;
	}
	close(pout[1]);
	close(perr[1]);
	close(pdiag[1]);
	pout[1] = perr[1] = pdiag[1] = -1;
	if (r.timeout_ms)
		deadline = start + r.timeout_ms;

	/* Until the kernel has exited and every pipe is at EOF (its helpers may
	 * hold them a moment longer; bounded below). */
	open_fds = 3;
	while (!exited || open_fds > 0) {
		struct pollfd p[4] = {
			{ pout[0], POLLIN, 0 }, { perr[0], POLLIN, 0 }, { pdiag[0], POLLIN, 0 }, { sfd, POLLIN, 0 },
		};
		int wait_ms = -1, i;
		uint64_t now = now_ms();

		if (deadline)
			wait_ms = deadline > now ? (int)(deadline - now) : 0;
		if (exited)
			wait_ms = 2000;
		i = poll(p, 4, wait_ms);
		if (i < 0 && errno != EINTR) {
			rc = sb_err_sys(err, -errno, "sandbox: poll");
			break;
		}
		if (i == 0 && exited)
			break;  /* helpers kept a pipe open; the group is killed below */
		if (!exited && deadline && now_ms() >= deadline) {
			if (!stopping && !killed) {
				timed_out = true;
				stopping = true;
				sb_warn("the throwaway kernel ran longer than STACKBENCH_UML_TIMEOUT; stopping it");
				deadline = con.state >= 1 && sb_sbx_mconsole_cad(r.sock) ? now_ms() + 10000 : now_ms();
			} else if (!killed) {
				kill_group(r.pid);
				killed = true;
				deadline = 0;
			}
		}
		for (i = 0; i < 3; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(p[i].fd, buf, sizeof(buf));
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				close(p[i].fd);
				if (i == 0)
					pout[0] = -1;
				else if (i == 1)
					perr[0] = -1;
				else
					pdiag[0] = -1;
				open_fds--;
				continue;
			}
			if (i == 0) {
				ssize_t k;

				for (k = 0; k < n; k++)
					sb_sbx_console_byte(&con, buf[k]);
			} else if (i == 1) {
				sb_sbx_write_all(STDERR_FILENO, buf, n);
			} else {
				sb_sbx_diag_add(&con, buf, n);
			}
		}
		if (p[3].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGCHLD) {
					if (!exited && waitpid(r.pid, &status, WNOHANG) == r.pid)
						exited = true;
					continue;
				}
				if (exited || killed)
					continue;
				/* Before the job started there is nothing to stop
				 * gracefully (and ctrl-alt-del would reboot). */
				if (!stopping && con.state >= 1 && sb_sbx_mconsole_cad(r.sock)) {
					stopping = true;
					sb_warn("interrupted: asking the command in the throwaway kernel to stop "
						"(interrupt again to kill the kernel)");
					deadline = now_ms() + GRACE_MS;
				} else {
					sb_warn("interrupted: killing the throwaway kernel");
					kill_group(r.pid);
					killed = true;
					deadline = 0;
				}
			}
		}
		if (!exited && waitpid(r.pid, &status, WNOHANG) == r.pid)
			exited = true;
	}
	if (!exited) {
		kill_group(r.pid);
		waitpid(r.pid, &status, 0);
	}
	/* Helper processes of the kernel must not outlive it. */
	kill(-r.pid, SIGKILL);
	sb_verbose("the throwaway kernel ran %.1f s", (now_ms() - start) / 1000.0);
	if (rc < 0)
		goto out_mask;

	snprintf(path, sizeof(path), "%s/job.rc", r.rec.dir);
	if (sb_sbx_read_small(path, buf, sizeof(buf)) == 0 && buf[0] >= '0' && buf[0] <= '9') {
		*exit_code = atoi(buf);
		if (timed_out)
			rc = sb_err_set(err, -ETIMEDOUT, "the throwaway kernel was stopped after "
					"STACKBENCH_UML_TIMEOUT (the command exited %d)", *exit_code);
		else
			rc = 0;
	} else if (killed || stopping) {
		rc = timed_out ? sb_err_set(err, -ETIMEDOUT, "the throwaway kernel was killed after "
					    "STACKBENCH_UML_TIMEOUT")
			       : sb_err_set(err, -EINTR, "interrupted: the throwaway kernel was killed");
	} else {
		/* Show the tail of what the kernel said: that is the diagnosis. */
		const char *tail = con.ndiag > 600 ? con.diag + con.ndiag - 600 : con.diag;

		rc = sb_err_set(err, -EIO, "the throwaway kernel ended (%s %d) without reporting the "
				"command's exit status%s%s",
				WIFSIGNALED(status) ? "signal" : "status",
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
				con.ndiag ? "; its last output:\n" : "", tail);
	}
	if (sb_log_get_level() >= SB_LOG_DEBUG && con.ndiag)
		sb_debug("throwaway kernel's own output:\n%s", con.diag);
out_mask:
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	if (pout[0] >= 0) close(pout[0]);
	if (pout[1] >= 0) close(pout[1]);
	if (perr[0] >= 0) close(perr[0]);
	if (perr[1] >= 0) close(perr[1]);
	if (pdiag[0] >= 0) close(pdiag[0]);
	if (pdiag[1] >= 0) close(pdiag[1]);
	sb_sbx_record_close(&r.rec);
	sb_sbx_guard_stop(guard_fd);
	return rc;
}
