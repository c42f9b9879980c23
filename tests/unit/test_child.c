/* The child-process helper (sys/child.c) with real processes: an exec
 * failure comes back as -errno with its message, PR_SET_PDEATHSIG kills
 * the child when the process that started it dies (and only then), stdin/
 * stdout/stderr/fd 3 go where they are told, the exit status and signal
 * are reported, a timeout kills the child (its whole group with new_pgrp),
 * and the options (session, group, signal mask, default signals,
 * environment, setup, closing other fds) take effect in the child. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/child.h"
#include "sys/sysfs.h"
#include "util/clock.h"

static const char *const sh[] = { "sh", "-c", NULL, NULL };

/* argv for sh -c script */
static const char *const *shell(const char *script, const char **buf)
{
	memcpy(buf, sh, sizeof(sh));
	buf[2] = script;
	return buf;
}

/* Everything written to memfd fd so far. */
static const char *contents(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Empty memfd fd again (its offset too: the child's copy shares it). */
static void reset(int fd)
{
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
}

static void test_exec_missing(void **state)
{
	const char *const argv[] = { "/nonexistent/sb-no-such-tool", NULL };
	const char *const bare[] = { "sb-no-such-tool-in-path", NULL };
	struct sb_child c = { .argv = argv, .out = SB_CHILD_NULL };
	struct sb_err err = { 0 };

	assert_int_equal(sb_child_start(&c, &err), -ENOENT);
	assert_int_equal(err.code, -ENOENT);
	assert_string_equal(err.msg, "cannot run /nonexistent/sb-no-such-tool: No such file or directory");
	assert_int_equal(c.pid, -1);
	/* looked up in PATH: the same, through sb_child_run */
	c = (struct sb_child){ .argv = bare };
	sb_err_clear(&err);
	assert_int_equal(sb_child_run(&c, 0, &err), -ENOENT);
	assert_string_equal(err.msg, "cannot run sb-no-such-tool-in-path: No such file or directory");
	/* nothing left behind: no child of ours to wait for */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void test_exec_not_executable(void **state)
{
	char path[] = "/tmp/sb-child-test.XXXXXX";
	int fd = mkstemp(path);
	const char *const argv[] = { path, NULL };
	struct sb_child c = { .argv = argv };
	struct sb_err err = { 0 };

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
	close(fd);
	/* no x bit: EACCES even for root */
	assert_int_equal(sb_child_start(&c, &err), -EACCES);
	assert_non_null(strstr(err.msg, "Permission denied"));
	/* with it, it runs */
	chmod(path, 0700);
	sb_err_clear(&err);
	assert_int_equal(sb_child_run(&c, 0, &err), 0);
	unlink(path);
}

static void test_exit_status(void **state)
{
	const char *b[4];
	struct sb_child c = { .argv = shell("exit 7", b) };
	struct sb_err err = { 0 };
	char how[64];
	int st = 0;

	assert_int_equal(sb_child_start(&c, &err), 0);
	assert_true(c.pid > 0);
	assert_int_equal(sb_child_wait(&c, 0, &st, &err), 0);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 7);
	assert_int_equal(c.pid, -1);
	assert_string_equal(sb_child_status_text(st, how, sizeof(how)), "exited with 7");
	assert_int_equal(sb_child_run(&c, 0, &err), -EIO);
	assert_string_equal(err.msg, "sh exited with 7");
	c = (struct sb_child){ .argv = shell("kill -TERM $$", b) };
	sb_err_clear(&err);
	assert_int_equal(sb_child_run(&c, 0, &err), -EIO);
	assert_string_equal(err.msg, "sh was killed by signal 15");
	c = (struct sb_child){ .argv = shell("exit 0", b) };
	assert_int_equal(sb_child_run(&c, 5000, NULL), 0);
}

static void test_redirection(void **state)
{
	int out = memfd_create("out", MFD_CLOEXEC), errf = memfd_create("err", MFD_CLOEXEC);
	int three = memfd_create("three", MFD_CLOEXEC), in[2];
	const char *b[4];
	struct sb_child c = { .argv = shell("read x; echo \"out:$x\"; echo \"err:$x\" >&2; echo \"3:$x\" >&3", b),
			      .out = out, .err = errf, .fd3 = three };
	struct sb_err err = { 0 };
	char buf[256];

	assert_true(out >= 0 && errf >= 0 && three >= 0);
	assert_int_equal(pipe2(in, O_CLOEXEC), 0);
	c.in = in[0];
	assert_int_equal(sb_child_start(&c, &err), 0);
	close(in[0]);
	assert_int_equal(write(in[1], "hello\n", 6), 6);
	close(in[1]);
	assert_int_equal(sb_child_wait(&c, 10000, NULL, &err), 0);
	assert_string_equal(contents(out, buf, sizeof(buf)), "out:hello\n");
	assert_string_equal(contents(errf, buf, sizeof(buf)), "err:hello\n");
	assert_string_equal(contents(three, buf, sizeof(buf)), "3:hello\n");
	/* /dev/null; and fd 1 and 2 onto the same fd */
	reset(out);
	c = (struct sb_child){ .argv = shell("readlink /proc/self/fd/0; cat; echo e >&2", b), .in = SB_CHILD_NULL,
			       .out = out, .err = out };
	assert_int_equal(sb_child_run(&c, 10000, &err), 0);
	assert_string_equal(contents(out, buf, sizeof(buf)), "/dev/null\ne\n");
	/* stdout swapped with stderr: one target never clobbers the other's source */
	reset(out);
	reset(errf);
	c = (struct sb_child){ .argv = shell("echo o; echo e >&2", b), .out = errf, .err = out };
	assert_int_equal(sb_child_run(&c, 10000, &err), 0);
	assert_string_equal(contents(out, buf, sizeof(buf)), "e\n");
	assert_string_equal(contents(errf, buf, sizeof(buf)), "o\n");
	close(out);
	close(errf);
	close(three);
}

/* A middle process starts `sleep 30` with pdeathsig sig and exits; we (the
 * subreaper) get the sleep. Returns its pid. */
static pid_t orphan_sleep(int sig)
{
	const char *const argv[] = { "sleep", "30", NULL };
	int p[2], st;
	pid_t mid, pid = -1;

	assert_int_equal(pipe(p), 0);
	mid = fork();
	assert_true(mid >= 0);
	if (mid == 0) {
		struct sb_child c = { .argv = argv, .pdeathsig = sig };

		close(p[0]);
		if (sb_child_start(&c, NULL) < 0 || write(p[1], &c.pid, sizeof(c.pid)) != sizeof(c.pid))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &pid, sizeof(pid)), sizeof(pid));
	close(p[0]);
	assert_int_equal(waitpid(mid, &st, 0), mid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return pid;
}

/* Reap pid within ms: its wait status, or -1 if it still runs. */
static int reap_within(pid_t pid, unsigned ms)
{
	uint64_t t0 = sb_clock_ms();
	int st;

	while (sb_clock_ms() - t0 < ms) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		usleep(10000);
	}
	return -1;
}

static void test_pdeathsig(void **state)
{
	pid_t pid;
	int st;

	/* qemu-user (the ARM unit runs) has no PR_SET_CHILD_SUBREAPER */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		skip();
		return;
	}
	/* with it: the sleep dies with the middle process */
	pid = orphan_sleep(SIGKILL);
	st = reap_within(pid, 5000);
	if (st == -1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		fail_msg("the child outlived the process that started it, pdeathsig SIGKILL");
	}
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
	/* without it: the sleep goes on */
	pid = orphan_sleep(0);
	assert_int_equal(reap_within(pid, 300), -1);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
}

static int report_pdeathsig(void *arg)
{
	int sig = 0;

	return prctl(PR_GET_PDEATHSIG, &sig) ? 100 : sig;
}

static void test_pdeathsig_in_child(void **state)
{
	struct sb_child c = { .fn = report_pdeathsig, .pdeathsig = SIGTERM };
	int st;

	assert_int_equal(sb_child_start(&c, NULL), 0);
	assert_int_equal(sb_child_wait(&c, 0, &st, NULL), 0);
	assert_int_equal(WEXITSTATUS(st), SIGTERM);
	c = (struct sb_child){ .fn = report_pdeathsig };
	assert_int_equal(sb_child_start(&c, NULL), 0);
	assert_int_equal(sb_child_wait(&c, 0, &st, NULL), 0);
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_timeout_kill(void **state)
{
	int out = memfd_create("out", MFD_CLOEXEC);
	const char *const argv[] = { "sleep", "30", NULL };
	const char *b[4];
	struct sb_child c = { .argv = argv };
	struct sb_err err = { 0 };
	uint64_t t0 = sb_clock_ms();
	char buf[64];
	pid_t pid, bg;
	int st = 0;
	bool reaper;

	assert_int_equal(sb_child_start(&c, &err), 0);
	pid = c.pid;
	assert_int_equal(sb_child_wait(&c, 200, &st, &err), -ETIMEDOUT);
	assert_string_equal(err.msg, "sleep did not finish within 200 ms");
	assert_true(sb_clock_ms() - t0 < 10000);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	assert_int_equal(c.pid, -1);
	assert_int_equal(kill(pid, 0), -1);   /* killed and reaped */
	/* its own group: what it started goes too */
	c = (struct sb_child){ .argv = shell("sleep 30 & echo $!; wait", b), .out = out, .new_pgrp = true };
	sb_err_clear(&err);
	reaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;   /* not under qemu-user */
	assert_int_equal(sb_child_run(&c, 1000, &err), -ETIMEDOUT);
	assert_string_equal(err.msg, "sh did not finish within 1 s");
	bg = (pid_t)atoi(contents(out, buf, sizeof(buf)));
	assert_true(bg > 0);
	if (reaper) {
		st = reap_within(bg, 5000);
		assert_true(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
		assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
	}
	close(out);
}

static int setup_refuses(void *arg, struct sb_err *e)
{
	return sb_err_set(e, -EPERM, "cannot enter %s", (const char *)arg);
}

static void test_setup_error(void **state)
{
	const char *const argv[] = { "true", NULL };
	struct sb_child c = { .argv = argv, .setup = setup_refuses, .setup_arg = "namespace x" };
	struct sb_err err = { 0 };

	assert_int_equal(sb_child_start(&c, &err), -EPERM);
	assert_string_equal(err.msg, "cannot enter namespace x");
	assert_int_equal(c.pid, -1);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

/* fn children report what they see as their exit status: 0 when right. */
static int check_session(void *arg)
{
	return getsid(0) == getpid() && getpgrp() == getpid() ? 0 : 1;
}

static int check_pgrp(void *arg)
{
	return getpgrp() == getpid() && getsid(0) != getpid() ? 0 : 1;
}

static int check_mask(void *arg)
{
	sigset_t now;

	sigprocmask(SIG_SETMASK, NULL, &now);
	return sigismember(&now, SIGUSR1) && !sigismember(&now, SIGUSR2) ? 0 : 1;
}

static int check_dfl(void *arg)
{
	struct sigaction sa;

	sigaction(SIGTERM, NULL, &sa);
	return sa.sa_handler == SIG_DFL ? 0 : 1;
}

static int check_closed(void *arg)
{
	return fcntl(*(int *)arg, F_GETFD) < 0 && errno == EBADF ? 0 : 1;
}

static int fn_status(struct sb_child *c)
{
	int st = -1;

	assert_int_equal(sb_child_start(c, NULL), 0);
	assert_int_equal(sb_child_wait(c, 10000, &st, NULL), 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 200;
}

static void test_options(void **state)
{
	struct sb_child c = { .fn = check_session, .new_session = true };
	sigset_t mask, old;
	int fd = fcntl(1, F_DUPFD, 20);   /* not O_CLOEXEC */

	assert_int_equal(fn_status(&c), 0);
	c = (struct sb_child){ .fn = check_session };
	assert_int_equal(fn_status(&c), 1);
	c = (struct sb_child){ .fn = check_pgrp, .new_pgrp = true };
	assert_int_equal(fn_status(&c), 0);
	c = (struct sb_child){ .fn = check_pgrp };
	assert_int_equal(fn_status(&c), 1);
	/* signal mask: ours has SIGUSR2 blocked, the child's SIGUSR1 */
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	sigprocmask(SIG_BLOCK, &mask, &old);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	c = (struct sb_child){ .fn = check_mask, .sigmask = &mask };
	assert_int_equal(fn_status(&c), 0);
	c = (struct sb_child){ .fn = check_mask };
	assert_int_equal(fn_status(&c), 1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* an ignored SIGTERM back to default */
	signal(SIGTERM, SIG_IGN);
	c = (struct sb_child){ .fn = check_dfl, .default_signals = true };
	assert_int_equal(fn_status(&c), 0);
	c = (struct sb_child){ .fn = check_dfl };
	assert_int_equal(fn_status(&c), 1);
	signal(SIGTERM, SIG_DFL);
	/* other fds */
	assert_true(fd > 3);
	c = (struct sb_child){ .fn = check_closed, .arg = &fd, .close_others = true };
	assert_int_equal(fn_status(&c), 0);
	c = (struct sb_child){ .fn = check_closed, .arg = &fd };
	assert_int_equal(fn_status(&c), 1);
	close(fd);
}

static void test_environment(void **state)
{
	int out = memfd_create("out", MFD_CLOEXEC);
	const char *env[] = { "SB_T_A=new", "SB_T_B", "SB_T_C=added", NULL };
	const char *b[4];
	struct sb_child c = { .argv = shell("echo \"$SB_T_A ${SB_T_B-unset} $SB_T_C $SB_T_D\"", b), .out = out,
			      .env = env };
	char buf[128];

	setenv("SB_T_A", "old", 1);
	setenv("SB_T_B", "there", 1);
	setenv("SB_T_D", "kept", 1);
	assert_int_equal(sb_child_run(&c, 10000, NULL), 0);
	assert_string_equal(contents(out, buf, sizeof(buf)), "new unset added kept\n");
	/* ours is unchanged */
	assert_string_equal(getenv("SB_T_A"), "old");
	assert_string_equal(getenv("SB_T_B"), "there");
	assert_null(getenv("SB_T_C"));
	/* an absolute argv[0] with an environment: execve */
	c.argv = (const char *const[]){ "/bin/sh", "-c", "echo $SB_T_C", NULL };
	reset(out);
	assert_int_equal(sb_child_run(&c, 10000, NULL), 0);
	assert_string_equal(contents(out, buf, sizeof(buf)), "added\n");
	close(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_missing),
		cmocka_unit_test(test_exec_not_executable),
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_redirection),
		cmocka_unit_test(test_pdeathsig),
		cmocka_unit_test(test_pdeathsig_in_child),
		cmocka_unit_test(test_timeout_kill),
		cmocka_unit_test(test_setup_error),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_environment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
