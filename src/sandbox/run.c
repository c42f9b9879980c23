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
 * its block devices without discard (ubdNt=FILE). linux.uml runs in its own process group,
 * dies with us (PR_SET_PDEATHSIG) and a guardian kills its group and
 * removes the files should we be killed; its console (tty0) is on one pipe
 * and tty1 on another; uml-init.sh sends the job's stdout to the console
 * and its stderr to tty1 with output post-processing off, and frames the
 * console output with markers so the kernel's own boot and halt chatter is
 * dropped. We copy both pipes live to our stdout and stderr. */
#include "sandbox/sandbox_int.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/child.h"
#include "util/log.h"
#include "util/units.h"

#define GRACE_MS (120 * 1000)   /* after a stop request: time to tear down inside */

struct uml_run {
	struct sb_sbx_record rec; /* rec.dir: short, the mconsole socket path inside must fit sun_path */
	char kernel[PATH_MAX], init[PATH_MAX], exe[PATH_MAX], shim[PATH_MAX];
	char sock[PATH_MAX];
	unsigned members;         /* ubd0..members-1 */
	uint64_t mem_mib;
	uint64_t timeout_ms;      /* 0: none */
	pid_t pid;
	/* the run itself */
	struct sb_sbx_console con;
	int pout[2], perr[2], pdiag[2]; /* console (job's stdout), tty1 (its stderr), kernel's stderr */
	int sfd;
	sigset_t old_mask;
	bool recorded, masked;    /* what run_close undoes */
	uint64_t start, deadline;
	bool exited, stopping, timed_out, killed;
	int status;
	char buf[65536];
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

/* linux.uml's command line. */
struct uml_argv {
	char a[20 + SB_SANDBOX_MAX_UBD][PATH_MAX + 32];
	char *argv[21 + SB_SANDBOX_MAX_UBD];
};

static void build_argv(const struct uml_run *r, bool out_tty, bool err_tty, struct uml_argv *u)
{
	int n = 0;
	unsigned i;

#define ARG(...) (snprintf(u->a[n], sizeof(u->a[n]), __VA_ARGS__), u->argv[n] = u->a[n], n++)
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
	/* The members: host files as the kernel's block devices ubda..,
	 * without discard ('t'): ubd turns a discard or write-zeroes into a
	 * hole punched in the file, so mkfs (which discards the whole device
	 * by default) made the preallocated files sparse again and the first
	 * writes after each build paid the host's allocation (docs/sandbox.md,
	 * "Preallocation"). A disk keeps its blocks. */
	for (i = 0; i < r->members; i++)
		ARG("ubd%ut=%s/ubd%u", i, r->rec.members_dir, i);
	ARG("init=%s", r->init);
	/* Unknown name=value parameters become init's environment. */
	ARG("SB_JOB=%s/job", r->rec.dir);
	ARG("SB_MODROOT=%s", r->rec.dir);
	ARG("SB_MARK=1");
	ARG("SB_ERRTTY=/dev/tty1");
	ARG("SB_PIPE_OUT=%d", !out_tty);
	ARG("SB_PIPE_ERR=%d", !err_tty);
#undef ARG
	u->argv[n] = NULL;
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

/* Everything the kernel reads from the host: the record, the member files,
 * the job script and the modprobe wrapper. */
/* The host memory the run will use (the kernel's memory, and the member
 * files' pages: tmpfs, or page cache), touched once before the boot: on a
 * host whose own memory is backed on first touch the first stack paid for
 * it (memory.c). At least 1 GiB stays untouched. */
static void host_touch(const struct uml_run *r, const struct sb_sandbox_members *m, struct sb_mem_touch *t)
{
	uint64_t want = ((uint64_t)r->mem_mib << 20) + (m ? (uint64_t)m->count * m->size : 0);
	struct sb_err e = { 0 };

	if (sb_sbx_touch_memory(want, 1ULL << 30, t, &e) < 0) {
		sb_warn("%s; the first stack may pay this host's first use of its memory", e.msg);
		return;
	}
	sb_verbose("sandbox: touched %.0f MiB of this host's memory in %.1f s before the boot (%.0f MiB wanted)",
		   t->bytes / 1048576.0, t->ns / 1e9, want / 1048576.0);
}

static int run_prepare(struct uml_run *r, int argc, char **argv, const struct sb_sandbox_members *m,
		       struct sb_err *err)
{
	char members[SB_SANDBOX_MAX_UBD * 12], path[PATH_MAX + 16];
	const char *tmp = getenv("TMPDIR");
	struct sb_mem_touch touched;
	int rc;

	if (!tmp || !*tmp || strlen(tmp) > 64)
		tmp = "/tmp";
	/* What earlier killed runs left, before we add our own. */
	rc = sb_sandbox_reap(err);
	if (rc < 0)
		return rc;
	r->members = m ? m->count : 0;
	rc = sb_sbx_record_open(&r->rec, tmp, r->members ? m->dir : NULL, err);
	if (rc < 0)
		return rc; /* its names may be another run's: nothing to remove */
	r->recorded = true;
	/* touched first: the member files then take pages it warmed */
	memset(&touched, 0, sizeof(touched));
	if (m && m->measure)
		host_touch(r, m, &touched);
	rc = sb_sbx_members_create(&r->rec, m, err);
	if (rc < 0)
		return rc;
	member_names(r->members, members, sizeof(members));
	snprintf(r->sock, sizeof(r->sock), "%s/uml/%s/mconsole", r->rec.dir, r->rec.umid);
	snprintf(path, sizeof(path), "%s/job", r->rec.dir);
	rc = sb_sbx_write_job(path, r->exe, argc, argv, members, &touched, err);
	if (rc < 0)
		return rc;
	rc = sb_sbx_write_modprobe(r->rec.dir, err);
	if (rc < 0)
		return rc;
	if (pipe2(r->pout, O_CLOEXEC) < 0 || pipe2(r->perr, O_CLOEXEC) < 0 || pipe2(r->pdiag, O_CLOEXEC) < 0)
		return sb_err_sys(err, -errno, "sandbox: pipe");
	return 0;
}

/* Signals (stop requests, the kernel's exit) arrive through a signalfd the
 * loop polls. */
static int run_signals_open(struct uml_run *r, struct sb_err *err)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, &r->old_mask);
	r->masked = true;
	r->sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sfd < 0)
		return sb_err_sys(err, -errno, "sandbox: signalfd");
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Start linux.uml in its own process group, dying with the run (and not
 * starting if the run is already gone), with no signal blocked: fd 0
 * null, 1 the console, 2 the kernel's own diagnostics, 3 tty1, nothing
 * else of ours. Its own environment (not its init's, which comes from the
 * command line): the xstate shim. Then record its group, keep only our
 * ends of the pipes. */
static int run_boot(struct uml_run *r, struct sb_err *err)
{
	static struct uml_argv u;
	char preload[PATH_MAX + 16];
	const char *env[] = { preload, NULL };
	sigset_t none;
	struct sb_child c = { .argv = (const char *const *)u.argv, .in = SB_CHILD_NULL, .out = r->pout[1],
			      .err = r->pdiag[1], .fd3 = r->perr[1], .close_others = true, .pdeathsig = SIGKILL,
			      .new_pgrp = true, .sigmask = &none, .env = r->shim[0] ? env : NULL };
	struct sb_err ce = { 0 };
	int rc;

	sigemptyset(&none);
	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", r->shim);
	build_argv(r, isatty(STDOUT_FILENO), isatty(STDERR_FILENO), &u);
	sb_verbose("booting the throwaway kernel (%s, init %s, mem=%lluM)", r->kernel, r->init,
		   (unsigned long long)r->mem_mib);
	r->start = sb_clock_ms();
	rc = sb_child_start(&c, &ce);
	if (rc < 0)
		return sb_err_set(err, rc, "sandbox: %s", ce.msg);
	r->pid = c.pid;
	r->rec.uml_pgid = r->pid;
	rc = sb_sbx_record_write(&r->rec, err);   /* for the guardian */
	if (rc < 0) {
		kill_group(r->pid);
		waitpid(r->pid, &r->status, 0);
		r->exited = true;
		return rc;
	}
	close_fd(&r->pout[1]);
	close_fd(&r->perr[1]);
	close_fd(&r->pdiag[1]);
	if (r->timeout_ms)
		r->deadline = r->start + r->timeout_ms;
	return 0;
}

/* STACKBENCH_UML_TIMEOUT, or the grace after a stop request, ran out:
 * first a graceful stop (ctrl-alt-del), then the kill. */
static void run_deadline(struct uml_run *r)
{
	if (r->exited || !r->deadline || sb_clock_ms() < r->deadline)
		return;
	if (!r->stopping && !r->killed) {
		r->timed_out = true;
		r->stopping = true;
		sb_warn("the throwaway kernel ran longer than STACKBENCH_UML_TIMEOUT; stopping it");
		r->deadline = r->con.state >= 1 && sb_sbx_mconsole_cad(r->sock) ? sb_clock_ms() + 10000 : sb_clock_ms();
	} else if (!r->killed) {
		kill_group(r->pid);
		r->killed = true;
		r->deadline = 0;
	}
}

/* Copy what one pipe has: the console through the marker filter, tty1 to
 * our stderr, the kernel's diagnostics into the buffer. false at EOF. */
static bool run_copy(struct uml_run *r, int which, int fd)
{
	ssize_t n = read(fd, r->buf, sizeof(r->buf)), k;
	int state = r->con.state;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (which == 0) {
		for (k = 0; k < n; k++)
			sb_sbx_console_byte(&r->con, r->buf[k]);
		if (state == 0 && r->con.state >= 1)
			sb_verbose("the command started in the throwaway kernel after %.1f s (boot and init)",
				   (sb_clock_ms() - r->start) / 1000.0);
	} else if (which == 1) {
		sb_sbx_write_all(STDERR_FILENO, r->buf, n);
	} else {
		sb_sbx_diag_add(&r->con, r->buf, n);
	}
	return true;
}

/* SIGCHLD: has the kernel exited? SIGINT/TERM/HUP: stop gracefully once
 * the job runs (before, ctrl-alt-del would just reboot), kill the second
 * time. */
static void run_signal(struct uml_run *r)
{
	struct signalfd_siginfo si;

	while (read(r->sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			if (!r->exited && waitpid(r->pid, &r->status, WNOHANG) == r->pid)
				r->exited = true;
			continue;
		}
		if (r->exited || r->killed)
			continue;
		if (!r->stopping && r->con.state >= 1 && sb_sbx_mconsole_cad(r->sock)) {
			r->stopping = true;
			sb_warn("interrupted: asking the command in the throwaway kernel to stop "
				"(interrupt again to kill the kernel)");
			r->deadline = sb_clock_ms() + GRACE_MS;
		} else {
			sb_warn("interrupted: killing the throwaway kernel");
			kill_group(r->pid);
			r->killed = true;
			r->deadline = 0;
		}
	}
}

/* Until the kernel has exited and every pipe is at EOF (its helpers may
 * hold them a moment longer: bounded, then its group is killed). */
static int run_wait(struct uml_run *r, struct sb_err *err)
{
	int *fds[3] = { &r->pout[0], &r->perr[0], &r->pdiag[0] };
	int open_fds = 3, rc = 0, i;

	while (!r->exited || open_fds > 0) {
		struct pollfd p[4] = {
			{ r->pout[0], POLLIN, 0 }, { r->perr[0], POLLIN, 0 }, { r->pdiag[0], POLLIN, 0 },
			{ r->sfd, POLLIN, 0 },
		};
		int wait_ms = -1;
		uint64_t now = sb_clock_ms();

		if (r->deadline)
			wait_ms = r->deadline > now ? (int)(r->deadline - now) : 0;
		if (r->exited)
			wait_ms = 2000;
		i = poll(p, 4, wait_ms);
		if (i < 0 && errno != EINTR) {
			rc = sb_err_sys(err, -errno, "sandbox: poll");
			break;
		}
		if (i == 0 && r->exited)
			break;  /* helpers kept a pipe open; the group is killed below */
		run_deadline(r);
		for (i = 0; i < 3; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!run_copy(r, i, p[i].fd)) {
				close_fd(fds[i]);
				open_fds--;
			}
		}
		if (p[3].revents & POLLIN)
			run_signal(r);
		if (!r->exited && waitpid(r->pid, &r->status, WNOHANG) == r->pid)
			r->exited = true;
	}
	if (!r->exited) {
		kill_group(r->pid);
		waitpid(r->pid, &r->status, 0);
		r->exited = true;
	}
	/* Helper processes of the kernel must not outlive it. */
	kill(-r->pid, SIGKILL);
	sb_verbose("the throwaway kernel ran %.1f s", (sb_clock_ms() - r->start) / 1000.0);
	return rc;
}

/* The job's exit status (job.rc, written by the init), or why there is
 * none. */
static int run_result(struct uml_run *r, int *exit_code, struct sb_err *err)
{
	char path[PATH_MAX + 16];
	const char *tail;
	int rc;

	snprintf(path, sizeof(path), "%s/job.rc", r->rec.dir);
	if (sb_sbx_read_small(path, r->buf, sizeof(r->buf)) == 0 && r->buf[0] >= '0' && r->buf[0] <= '9') {
		*exit_code = atoi(r->buf);
		if (r->timed_out)
			rc = sb_err_set(err, -ETIMEDOUT, "the throwaway kernel was stopped after "
					"STACKBENCH_UML_TIMEOUT (the command exited %d)", *exit_code);
		else
			rc = 0;
	} else if (r->killed || r->stopping) {
		rc = r->timed_out ? sb_err_set(err, -ETIMEDOUT, "the throwaway kernel was killed after "
					       "STACKBENCH_UML_TIMEOUT")
				  : sb_err_set(err, -EINTR, "interrupted: the throwaway kernel was killed");
	} else {
		/* Show the tail of what the kernel said: that is the diagnosis. */
		tail = r->con.ndiag > 600 ? r->con.diag + r->con.ndiag - 600 : r->con.diag;
		rc = sb_err_set(err, -EIO, "the throwaway kernel ended (%s %d) without reporting the "
				"command's exit status%s%s",
				WIFSIGNALED(r->status) ? "signal" : "status",
				WIFSIGNALED(r->status) ? WTERMSIG(r->status) : WEXITSTATUS(r->status),
				r->con.ndiag ? "; its last output:\n" : "", tail);
	}
	if (sb_log_get_level() >= SB_LOG_DEBUG && r->con.ndiag)
		sb_debug("throwaway kernel's own output:\n%s", r->con.diag);
	return rc;
}

static void run_close(struct uml_run *r)
{
	int i;

	close_fd(&r->sfd);
	if (r->masked)
		sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
	for (i = 0; i < 2; i++) {
		close_fd(&r->pout[i]);
		close_fd(&r->perr[i]);
		close_fd(&r->pdiag[i]);
	}
	if (r->recorded) {
		sb_sbx_record_close(&r->rec);
		sb_sbx_guard_stop(&r->rec);
	}
}

int sb_sandbox_rerun(int argc, char **argv, const struct sb_sandbox_members *m,
		     int *exit_code, struct sb_err *err)
{
	static struct uml_run r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.pid = -1;
	r.sfd = r.rec.guard_fd = -1;
	r.pout[0] = r.pout[1] = r.perr[0] = r.perr[1] = r.pdiag[0] = r.pdiag[1] = -1;
	*exit_code = 1;  /* failure, until the command inside says otherwise */
	rc = run_config(&r, err);
	if (rc < 0)
		return rc;
	rc = run_prepare(&r, argc, argv, m, err);
	if (rc >= 0)
		rc = run_signals_open(&r, err);
	if (rc >= 0)
		rc = run_boot(&r, err);
	if (rc >= 0)
		rc = run_wait(&r, err);
	if (rc >= 0)
		rc = run_result(&r, exit_code, err);
	run_close(&r);
	return rc;
}
