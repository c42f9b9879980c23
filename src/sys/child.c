/* See child.h. */
#include "sys/child.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"

extern char **environ;

/* In the child, fds at or above this are ours to move things through. */
#define HIGH_FD 10

static const char *child_name(const struct sb_child *c)
{
	return c->argv && c->argv[0] ? c->argv[0] : "the child process";
}

/* Our environment with c->env applied: "K=V" replaces or adds K, "K"
 * removes it. The array is malloc'd, its strings are environ's and env's. */
static char **env_build(const char *const *env)
{
	size_t n = 0, m = 0, i, j, k = 0;
	char **out;

	while (environ && environ[n])
		n++;
	while (env[m])
		m++;
	out = malloc((n + m + 1) * sizeof(*out));
	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");
		bool drop = false;

		for (j = 0; j < m && !drop; j++)
			drop = strcspn(env[j], "=") == len && !strncmp(env[j], environ[i], len);
		if (!drop)
			out[k++] = environ[i];
	}
	for (j = 0; j < m; j++)
		if (strchr(env[j], '='))
			out[k++] = (char *)env[j];
	out[k] = NULL;
	return out;
}

/* What a child that cannot start sends up the error pipe: one write of
 * less than PIPE_BUF, so the parent reads it whole. */
struct child_report {
	int code;                  /* -errno */
	int whole;                 /* msg is the whole sentence (the setup's) */
	char msg[SB_ERR_MSG_MAX];  /* what failed ("" for the exec), or the setup's */
};

static void __attribute__((noreturn)) child_send(int efd, const struct child_report *r)
{
	ssize_t n = write(efd, r, sizeof(*r));

	(void)n;
	_exit(127);
}

/* what failed, with the errno; no stdio (async-signal-safe) */
static void __attribute__((noreturn)) child_fail_errno(int efd, int code, const char *what)
{
	struct child_report r;
	size_t i;

	memset(&r, 0, sizeof(r));
	r.code = code;
	for (i = 0; what[i] && i + 1 < sizeof(r.msg); i++)
		r.msg[i] = what[i];
	child_send(efd, &r);
}

/* fd 0..3 from c's fields; the sources first moved above HIGH_FD so that
 * one target never overwrites another's source. */
static void child_redirect(const struct sb_child *c, int efd)
{
	const int want[4] = { c->in, c->out, c->err, c->fd3 };
	int src[4], dn = -1, i;

	for (i = 0; i < 4; i++) {
		src[i] = -1;
		if (want[i] == SB_CHILD_KEEP)
			continue;
		if (want[i] == SB_CHILD_NULL) {
			if (dn < 0 && (dn = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
				child_fail_errno(efd, -errno, "/dev/null");
			src[i] = fcntl(dn, F_DUPFD_CLOEXEC, HIGH_FD);
		} else {
			src[i] = fcntl(want[i], F_DUPFD_CLOEXEC, HIGH_FD);
		}
		if (src[i] < 0)
			child_fail_errno(efd, -errno, "redirecting its file descriptors");
	}
	for (i = 0; i < 4; i++)
		if (src[i] >= 0 && dup2(src[i], i) < 0)
			child_fail_errno(efd, -errno, "redirecting its file descriptors");
	for (i = 0; i < 4; i++)
		if (src[i] >= 0)
			close(src[i]);
	if (dn >= 0)
		close(dn);
}

/* Every fd from first up, but efd. */
static void child_close_others(int first, int efd)
{
	int fd;

	if (efd > first && close_range((unsigned)first, (unsigned)efd - 1, 0) == 0 &&
	    close_range((unsigned)efd + 1, ~0U, 0) == 0)
		return;
	for (fd = first; fd < 65536; fd++)   /* a kernel before close_range (5.9) */
		if (fd != efd)
			close(fd);
}

static void child_signals(const struct sb_child *c, int efd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa;
	unsigned i;

	if (c->sigmask && sigprocmask(SIG_SETMASK, c->sigmask, NULL) < 0)
		child_fail_errno(efd, -errno, "setting its signal mask");
	if (!c->default_signals)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static void __attribute__((noreturn)) child_main(const struct sb_child *c, int efd, pid_t parent, char **envp)
{
	struct sb_err e;
	const char *a0;

	if (efd < HIGH_FD) {   /* out of the way of fd 0..3 (and only one copy: an fn
				* child holding two would keep the parent waiting) */
		int moved = fcntl(efd, F_DUPFD_CLOEXEC, HIGH_FD);

		if (moved < 0)
			_exit(127);
		close(efd);
		efd = moved;
	}
	if (c->new_session && setsid() < 0)
		child_fail_errno(efd, -errno, "setsid");
	if (!c->new_session && c->new_pgrp && setpgid(0, 0) < 0)
		child_fail_errno(efd, -errno, "setpgid");
	if (c->pdeathsig) {
		if (prctl(PR_SET_PDEATHSIG, c->pdeathsig) < 0)
			child_fail_errno(efd, -errno, "prctl(PR_SET_PDEATHSIG)");
		/* the parent died before the line above: do not start at all */
		if (getppid() != parent)
			_exit(127);
	}
	child_signals(c, efd);
	child_redirect(c, efd);
	if (c->close_others)
		child_close_others(c->fd3 != SB_CHILD_KEEP ? 4 : 3, efd);
	if (c->setup) {
		memset(&e, 0, sizeof(e));
		e.code = c->setup(c->setup_arg, &e);
		if (e.code < 0) {
			struct child_report r = { .code = e.code, .whole = !!e.msg[0] };

			memcpy(r.msg, e.msg, sizeof(r.msg));
			child_send(efd, &r);
		}
	}
	if (c->fn) {
		close(efd);
		_exit(c->fn(c->arg) & 0xff);
	}
	a0 = c->argv[0];
	if (envp && strchr(a0, '/'))
		execve(a0, (char *const *)c->argv, envp);
	else if (envp)
		execvpe(a0, (char *const *)c->argv, envp);
	else if (strchr(a0, '/'))
		execv(a0, (char *const *)c->argv);
	else
		execvp(a0, (char *const *)c->argv);
	child_fail_errno(efd, -errno, "");
}

/* What the child sent up the pipe: 0 at EOF (it exec'd, or fn runs), else
 * its error, the child reaped. */
static int start_result(struct sb_child *c, int efd, struct sb_err *err)
{
	struct child_report r;
	size_t got = 0;
	ssize_t n;

	memset(&r, 0, sizeof(r));
	while (got < sizeof(r)) {
		n = read(efd, (char *)&r + got, sizeof(r) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(efd);
	if (got == 0)
		return 0;
	while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
		;
	c->pid = -1;
	if (got != sizeof(r) || r.code >= 0)
		return sb_err_set(err, -EIO, "cannot run %s: the child process failed before its start",
				  child_name(c));
	r.msg[sizeof(r.msg) - 1] = '\0';
	if (r.whole)
		return sb_err_set(err, r.code, "%s", r.msg);
	if (r.msg[0])
		return sb_err_sys(err, r.code, "cannot run %s: %s", child_name(c), r.msg);
	return sb_err_sys(err, r.code, "cannot run %s", child_name(c));
}

int sb_child_start(struct sb_child *c, struct sb_err *err)
{
	pid_t parent = getpid();
	char **envp = NULL;
	int ep[2], rc;

	c->pid = -1;
	if (!c->fn && !(c->argv && c->argv[0]))
		return sb_err_set(err, -EINVAL, "nothing to run in the child process");
	if (c->env && !(envp = env_build(c->env)))
		return sb_err_set(err, -ENOMEM, "out of memory");
	if (pipe2(ep, O_CLOEXEC) < 0) {
		rc = sb_err_sys(err, -errno, "cannot run %s: pipe", child_name(c));
		free(envp);
		return rc;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid == 0)
		child_main(c, ep[1], parent, envp);
	rc = -errno;
	close(ep[1]);
	free(envp);
	if (c->pid < 0) {
		close(ep[0]);
		return sb_err_sys(err, rc, "cannot run %s: fork", child_name(c));
	}
	return start_result(c, ep[0], err);
}

static void timeout_text(unsigned ms, char *buf, size_t len)
{
	if (ms % 1000)
		snprintf(buf, len, "%u ms", ms);
	else
		snprintf(buf, len, "%u s", ms / 1000);
}

int sb_child_wait(struct sb_child *c, unsigned timeout_ms, int *status, struct sb_err *err)
{
	uint64_t t0 = sb_clock_ms();
	useconds_t nap = 1000;
	char t[32];
	int st = 0, rc;
	pid_t r;

	if (c->pid <= 0)
		return sb_err_set(err, -ECHILD, "%s: no child process to wait for", child_name(c));
	for (;;) {
		r = waitpid(c->pid, &st, timeout_ms ? WNOHANG : 0);
		if (r == c->pid)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = sb_err_sys(err, -errno, "waiting for %s", child_name(c));
			c->pid = -1;
			return rc;
		}
		if (sb_clock_ms() - t0 >= timeout_ms) {
			kill(c->new_pgrp || c->new_session ? -c->pid : c->pid, SIGKILL);
			while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
				;
			c->pid = -1;
			if (status)
				*status = st;
			timeout_text(timeout_ms, t, sizeof(t));
			return sb_err_set(err, -ETIMEDOUT, "%s did not finish within %s", child_name(c), t);
		}
		usleep(nap);
		if (nap < 50000)
			nap *= 2;
	}
	c->pid = -1;
	if (status)
		*status = st;
	return 0;
}

const char *sb_child_status_text(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, len, "ended with wait status 0x%x", (unsigned)status);
	return buf;
}

int sb_child_run(struct sb_child *c, unsigned timeout_ms, struct sb_err *err)
{
	char how[64];
	int st = 0, rc = sb_child_start(c, err);

	if (rc < 0)
		return rc;
	rc = sb_child_wait(c, timeout_ms, &st, err);
	if (rc < 0)
		return rc;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return sb_err_set(err, -EIO, "%s %s", child_name(c), sb_child_status_text(st, how, sizeof(how)));
}
