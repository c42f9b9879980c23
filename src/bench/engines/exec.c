/* fio's exec engine (engines/exec.c): no file, no data. The first io
 * starts program with arguments (split at spaces; %r is the runtime in
 * seconds, %n the job's name), its stdout and stderr in NAME.stdout and
 * NAME.stderr unless std_redirect=0; every later io waits 50 ms and, once
 * the runtime is over, sends the program SIGTERM and gives it grace_time
 * seconds; after each io the thread sleeps 50 ms (fio's thinktime, which
 * the engine sets). At the end the program gets SIGKILL (and is reaped). A
 * program that cannot be started is reported and the job goes on, as
 * fio's (whose forked child then carries on as fio). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/engine_int.h"
#include "bench/jobopt.h"
#include "util/clock.h"
#include "util/log.h"

#define EXEC_THINK_US 50000
#define EXEC_MAX_ARGS 64

extern char **environ;

const struct jopt sb_jopts_exec[] = {
	{ "program", NULL, JT_STR, F(eng.program), 0, 0, NULL, "exec: the program to run", NULL },
	{ "arguments", NULL, JT_STR, F(eng.arguments), 0, 0, NULL, "exec: its arguments (%r runtime, %n job name)", NULL },
	{ "grace_time", NULL, JT_U32, F(eng.grace_time), 0, UINT32_MAX, "1", "exec: seconds between SIGTERM and SIGKILL", NULL },
	{ "std_redirect", NULL, JT_BOOL, F(eng.std_redirect), 0, 0, "1", "exec: its output in NAME.stdout/.stderr", NULL },
	{ NULL, NULL, 0, NOF, 0, 0, NULL, NULL, NULL },
};

struct ex {
	pid_t pid;
	bool tried;
	uint64_t t0;
};

static int exec_check(struct sb_job_opts *o, struct sb_err *err)
{
	if (!o->eng.program[0])
		return sb_err_set(err, -EINVAL, "job %s: no program is defined, it is mandatory to define one",
				  o->name);
	return 0;
}

static int exec_open(const struct sb_job_opts *o, struct worker *w, struct sb_err *err)
{
	(void)err;
	snprintf(w->path, sizeof(w->path), "exec");
	w->fd = -1;
	w->lbs = 512;
	w->start = 0;
	w->len = o->size ? o->size - o->size % o->bs : UINT64_MAX - UINT64_MAX % o->bs;
	return 0;
}

/* "PROGRAM ARGUMENTS" with %r and %n replaced, into buf */
static void expand(const struct sb_job_opts *o, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s ", o->eng.program);
	const char *a;

	for (a = o->eng.arguments; *a && n + 1 < len; a++) {
		if (a[0] == '%' && (a[1] == 'r' || a[1] == 'n')) {
			if (a[1] == 'r')
				n += (size_t)snprintf(buf + n, len - n, "%llu",
						      (unsigned long long)(o->runtime_ns / 1000000000ULL));
			else
				n += (size_t)snprintf(buf + n, len - n, "%s", o->name);
			a++;
		} else {
			buf[n++] = *a;
		}
		if (n >= len)
			n = len - 1;
	}
	buf[n] = 0;
}

static int start(struct worker *w, struct ex *x)
{
	const struct sb_job_opts *o = w->o;
	char cmd[1024], out[128], errf[128], *argv[EXEC_MAX_ARGS + 1], *p;
	posix_spawn_file_actions_t fa;
	int n = 0, rc;

	expand(o, cmd, sizeof(cmd));
	for (p = strtok(cmd, " "); p && n < EXEC_MAX_ARGS; p = strtok(NULL, " "))
		argv[n++] = p;
	argv[n] = NULL;
	snprintf(out, sizeof(out), "%s.stdout", o->name);
	snprintf(errf, sizeof(errf), "%s.stderr", o->name);
	if (o->eng.std_redirect)
		sb_info("%s : Saving output of %s %s : stdout=%s stderr=%s", o->name, o->eng.program,
			o->eng.arguments, out, errf);
	else
		sb_info("%s : Running %s %s", o->name, o->eng.program, o->eng.arguments);
	if ((rc = posix_spawn_file_actions_init(&fa)) != 0)
		return -rc;
	if (o->eng.std_redirect &&
	    ((rc = posix_spawn_file_actions_addopen(&fa, 1, out, O_CREAT | O_WRONLY | O_TRUNC, 0644)) != 0 ||
	     (rc = posix_spawn_file_actions_addopen(&fa, 2, errf, O_CREAT | O_WRONLY | O_TRUNC, 0644)) != 0)) {
		posix_spawn_file_actions_destroy(&fa);
		return -rc;
	}
	rc = posix_spawnp(&x->pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		x->pid = -1;
		sb_warn("job %s: cannot run %s: %s (the job goes on, as fio's)", o->name, argv[0], strerror(rc));
	}
	return 0;
}

static int exec_setup(struct worker *w, struct slot *slots, unsigned depth)
{
	struct ex *x = calloc(1, sizeof(*x));

	(void)slots;
	(void)depth;
	if (!x)
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	x->pid = -1;
	x->t0 = sb_clock_ns();
	w->ioe_data = x;
	return 0;
}

static long exec_queue(struct worker *w, struct iocb *cb)
{
	struct ex *x = w->ioe_data;
	int rc;

	if (!x->tried) {
		x->tried = true;
		if ((rc = start(w, x)) < 0)
			return rc;
	} else {
		sb_ioengine_sleep_us(EXEC_THINK_US);
		if (x->pid > 0 && sb_clock_ns() - x->t0 > w->o->runtime_ns) {
			kill(x->pid, SIGTERM);
			sb_ioengine_sleep_us((uint64_t)w->o->eng.grace_time * 1000000);
		}
	}
	return (long)cb->u.c.nbytes;
}

static void exec_reaped(struct worker *w)
{
	(void)w;
	sb_ioengine_sleep_us(EXEC_THINK_US);
}

static void exec_cleanup(struct worker *w)
{
	struct ex *x = w->ioe_data;

	if (!x)
		return;
	if (x->pid > 0) {
		kill(x->pid, SIGKILL);
		while (waitpid(x->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	free(x);
	w->ioe_data = NULL;
}

const struct sb_ioengine_ops sb_ioe_exec = {
	.name = "exec",
	.id = SB_IOENGINE_EXEC,
	.flags = SB_IOF_SYNC | SB_IOF_NOFILE | SB_IOF_NOIO,
	.options = sb_jopts_exec,
	.check = exec_check,
	.open_file = exec_open,
	.setup = exec_setup,
	.cleanup = exec_cleanup,
	.queue = exec_queue,
	.reaped = exec_reaped,
};
