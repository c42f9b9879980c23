/* The one child-process helper: fork, PR_SET_PDEATHSIG, stdin/stdout/
 * stderr (and fd 3) redirection, the options a site may need (a process
 * group, a session, a signal mask, default signal dispositions, the
 * environment, a setup step such as entering a namespace), then exec; an
 * O_CLOEXEC error pipe brings a failure in the child (exec's errno, or the
 * setup's own error) back to the parent as -errno with a message; and a
 * wait with an optional timeout that kills the child when it runs out.
 *
 * The child runs only async-signal-safe calls before the exec (the parent
 * may have threads: copy's tools run from one): everything that allocates
 * (the environment, the error message) is done in the parent. PDEATHSIG
 * fires when the THREAD that forked ends, not the process: start and wait
 * from the same thread. */
#ifndef SB_SYS_CHILD_H
#define SB_SYS_CHILD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/err.h"

/* The in/out/err/fd3 fields: 0 keeps what we have (fd 3: nothing there),
 * SB_CHILD_NULL is /dev/null, any other value an fd of ours dup2'ed there. */
#define SB_CHILD_KEEP 0
#define SB_CHILD_NULL (-1)

struct sb_child {
	/* What to run: argv (argv[0] with a '/' is run as it is, otherwise
	 * looked up in PATH), or fn(arg) in the child instead of an exec (its
	 * return value is the child's exit status). */
	const char *const *argv;
	int (*fn)(void *arg);
	void *arg;
	int in, out, err, fd3;
	bool close_others;        /* close every other fd above 2 (above 3 with fd3) */
	int pdeathsig;            /* 0: none; e.g. SIGKILL: dies with the forking thread,
				   * and does not start if that is already gone */
	bool new_pgrp;            /* its own process group (pgid = pid) */
	bool new_session;         /* setsid(): no controlling terminal, its own group */
	const sigset_t *sigmask;  /* its signal mask (NULL: ours) */
	bool default_signals;     /* SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE to SIG_DFL
				   * (a handler is reset by exec anyway; SIG_IGN is not) */
	const char *const *env;   /* "K=V" set, "K" removed; NULL-terminated (NULL: ours) */
	/* Last step in the child before the exec (or fn): 0, or -errno with e
	 * set, which the parent's start returns. Async-signal-safe calls only. */
	int (*setup)(void *arg, struct sb_err *e);
	void *setup_arg;

	pid_t pid;                /* set by start; -1 before and after the wait */
};

/* Fork and exec (or run fn). 0 with c->pid set once the exec succeeded;
 * -errno with the message "cannot run ARGV0: strerror" (exec failed),
 * the setup's own, or "fork"/"pipe" failing, and the child reaped. */
int sb_child_start(struct sb_child *c, struct sb_err *err);

/* Wait for it (EINTR retried). timeout_ms 0: no limit; otherwise when it
 * runs out the child (its group, with new_pgrp) is killed with SIGKILL,
 * reaped, and -ETIMEDOUT is returned ("ARGV0 did not finish within N s").
 * 0 with *status (as waitpid's; may be NULL) once it ended. */
int sb_child_wait(struct sb_child *c, unsigned timeout_ms, int *status, struct sb_err *err);

/* start, wait: 0 when it exited 0; -EIO with "ARGV0 exited with N" or
 * "ARGV0 was killed by signal N" otherwise (the start's and the wait's
 * errors as they are). */
int sb_child_run(struct sb_child *c, unsigned timeout_ms, struct sb_err *err);

/* "exited with 3" / "was killed by signal 9" for a wait status. */
const char *sb_child_status_text(int status, char *buf, size_t len);

#endif
