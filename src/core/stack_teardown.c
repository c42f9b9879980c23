/* Stack teardown: resume what is suspended, wait for a killed build's
 * tools, then remove the recorded objects top-down, each in a supervised
 * child bounded in time, and verify nothing is left before the state file
 * goes. Split from stack.c to keep each file small. */
#include "core/stack.h"
#include "util/clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/dm-ioctl.h>

#include "core/stack_int.h"
#include "sys/child.h"
#include "sys/sysfs.h"
#include "sys/udev.h"
#include "util/log.h"

/* dm name of a recorded object, as its layer names it; "" else. */
static void dm_name_of(const struct sb_state_obj *o, char *out, size_t len)
{
	const struct sb_layer_ops *ops = sb_layer_find(o->layer);

	out[0] = '\0';
	if (ops && ops->dm_name)
		ops->dm_name(o, out, len);
}

/* A dm device of the stack left suspended (by a user, a dying lvm or
 * cryptsetup command, a test) blocks every I/O on it and above it: the
 * unmount on top would write the ext4 superblock and hang in D state for
 * good. Resume them all before anything else (a DM_DEV_SUSPEND ioctl
 * without DM_SUSPEND_FLAG is "resume"; dm-crypt still has its key in the
 * table unless it was luksSuspend'ed, which the luks layer handles). */
static void resume_suspended(const struct sb_state *st)
{
	char name[DM_NAME_LEN], path[PATH_MAX], val[32];
	struct dirent *de;
	unsigned i;
	DIR *d;
	int fd = -1;

	d = opendir("/sys/block");
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "dm-", 3))
			continue;
		if (snprintf(path, sizeof(path), "/sys/block/%s/dm/suspended", de->d_name) >= (int)sizeof(path))
			continue;
		sb_sysfs_read_str(path, val, sizeof(val), NULL);
		if (strcmp(val, "1"))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dm/name", de->d_name);
		sb_sysfs_read_str(path, name, sizeof(name), NULL);
		for (i = 0; i < st->nobj; i++) {
			char want[DM_NAME_LEN];
			struct dm_ioctl io;

			dm_name_of(&st->obj[i], want, sizeof(want));
			if (!want[0] || strcmp(want, name))
				continue;
			if (fd < 0)
				fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
			if (fd < 0) {
				sb_warn("%s: %s is suspended and /dev/mapper/control cannot be opened: %m", st->stack, name);
				break;
			}
			memset(&io, 0, sizeof(io));
			io.version[0] = DM_VERSION_MAJOR;
			io.data_size = sizeof(io);
			io.data_start = sizeof(io);
			snprintf(io.name, sizeof(io.name), "%s", name);
			if (ioctl(fd, DM_DEV_SUSPEND, &io))
				sb_warn("%s: cannot resume the suspended dm device %s: %m", st->stack, name);
			else
				sb_info("%s: resumed the suspended dm device %s before tearing down", st->stack, name);
			break;
		}
	}
	if (d)
		closedir(d);
	if (fd >= 0)
		close(fd);
}

/* Upper bound on removing one object. The layers bound their own waits
 * (udev settle 30 s, busy retries 30 s...), but mdadm, lvm and the kernel
 * can still block forever on I/O to a hung device below (a suspended or
 * dm-delay'ed member, a dead disk): umount, STOP_ARRAY and lvremove then
 * sit in D state. $STACKBENCH_STEP_TIMEOUT (seconds) overrides it. */
#define SB_STEP_TIMEOUT_S 180

static unsigned step_timeout_s(void)
{
	const char *e = getenv("STACKBENCH_STEP_TIMEOUT");
	long v = e ? strtol(e, NULL, 10) : 0;

	return v > 0 && v < 86400 ? (unsigned)v : SB_STEP_TIMEOUT_S;
}

/* The helper that did not finish may still finish: the next teardown must
 * wait for it rather than race it (two mdadm --zero-superblock on one
 * member: one of them gets EBUSY). */
static void record_left(struct sb_state *st, const struct sb_state_obj *obj, pid_t pid)
{
	char doing[SB_PATH_MAX + 48];
	struct sb_err e = { 0 };

	snprintf(doing, sizeof(doing), "removing %s %s %s", obj->layer, obj->kind, obj->id);
	if (sb_state_add_pending(st, pid, doing, &e))
		sb_warn("%s: cannot record process %d for the next teardown: %s", st->stack, (int)pid, e.msg);
}

/* Run ops->teardown(obj) in a child so that a removal stuck in the kernel
 * cannot hold teardown hostage: after the timeout we report it and go on
 * (the child is left to finish or stay stuck on its own; a process in D
 * state cannot be killed anyway). The child sends back its code and
 * message through one pipe; its stderr goes through another that we relay,
 * so that a child left behind does not keep our caller's stdout/stderr
 * open (a `$(stackbench teardown ...)` would wait for it forever). */
/* In the child (stdout on /dev/null, stderr on the relayed pipe): run the
 * teardown, send back the struct sb_err whole through resfd. */
struct teardown_job {
	const struct sb_layer_ops *ops;
	const struct sb_state_obj *obj;
	int resfd;
};

static int teardown_child(void *arg)
{
	const struct teardown_job *j = arg;
	struct sb_err ce = { 0 };
	size_t off = 0;
	ssize_t n;

	/* the parent handles SIGINT/SIGTERM; the child just finishes,
	 * even after the parent stopped listening (EPIPE, not SIGPIPE) */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	ce.code = sb_layer_teardown(j->ops, j->obj, &ce);
	while (off < sizeof(ce)) {
		n = write(j->resfd, (char *)&ce + off, sizeof(ce) - off);
		if (n <= 0 && errno != EINTR)
			break;
		if (n > 0)
			off += (size_t)n;
	}
	return 0;
}

/* Relay one read of the child's stderr; close it (*errfd = -1) at its end. */
static void relay_stderr(int *errfd)
{
	char buf[512];
	ssize_t n = read(*errfd, buf, sizeof(buf));

	if (n > 0) {
		if (write(2, buf, (size_t)n) < 0) {
			/* our stderr is gone: nothing to relay to */
		}
	} else if (n == 0 || errno != EINTR) {
		close(*errfd);
		*errfd = -1;
	}
}

/* Collect the child's result into *ce (*got bytes of it), relaying its
 * stderr meanwhile, for at most limit seconds: -ETIMEDOUT (both pipes
 * closed) if it does not finish in time, 0 otherwise. */
static int wait_child(int resfd, int *errfd, unsigned limit, struct sb_err *ce, size_t *got)
{
	uint64_t t0 = sb_clock_ms();
	bool done = false;

	while (!done) {
		struct pollfd pfd[2] = { { .fd = resfd, .events = POLLIN }, { .fd = *errfd, .events = POLLIN } };
		long left;
		ssize_t n;

		left = (long)limit * 1000 - (long)(sb_clock_ms() - t0);
		if (left <= 0) {
			close(resfd);
			close(*errfd);
			return -ETIMEDOUT;
		}
		if (poll(pfd, *errfd >= 0 ? 2 : 1, (int)(left > 1000 ? 1000 : left)) <= 0)
			continue;
		if (*errfd >= 0 && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)))
			relay_stderr(errfd);
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(resfd, (char *)ce + *got, sizeof(*ce) - *got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			*got += (size_t)n;
		done = n <= 0 || *got == sizeof(*ce);
	}
	return 0;
}

/* Run ops->teardown(obj) in a child so that a removal stuck in the kernel
 * cannot hold teardown hostage: after the timeout we report it and go on
 * (the child is left to finish or stay stuck on its own; a process in D
 * state cannot be killed anyway). The child sends back its code and
 * message through one pipe; its stderr goes through another that we relay,
 * so that a child left behind does not keep our caller's stdout/stderr
 * open (a `$(stackbench teardown ...)` would wait for it forever). */
static int teardown_bounded(struct sb_state *st, const struct sb_layer_ops *ops,
			    const struct sb_state_obj *obj, struct sb_err *e)
{
	unsigned limit = step_timeout_s();
	struct teardown_job job = { .ops = ops, .obj = obj };
	struct sb_child c = { .fn = teardown_child, .arg = &job, .out = SB_CHILD_NULL };
	struct sb_err ce = { 0 };
	size_t got = 0;
	int fds[2], errp[2], status = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return sb_layer_teardown(ops, obj, e); /* cannot supervise: do it here */
	if (pipe2(errp, O_CLOEXEC)) {
		close(fds[0]);
		close(fds[1]);
		return sb_layer_teardown(ops, obj, e);
	}
	job.resfd = fds[1];
	c.err = errp[1];
	if (sb_child_start(&c, NULL) < 0) {
		close(fds[0]);
		close(fds[1]);
		close(errp[0]);
		close(errp[1]);
		return sb_layer_teardown(ops, obj, e);
	}
	pid = c.pid;
	close(fds[1]);
	close(errp[1]);
	if (wait_child(fds[0], &errp[0], limit, &ce, &got) == -ETIMEDOUT) {
		record_left(st, obj, pid);
		return sb_err_set(e, -ETIMEDOUT,
				  "removing %s %s %s did not finish within %u s (a hung device below? "
				  "process %d is still at it); run `stackbench teardown` again once the device responds",
				  obj->layer, obj->kind, obj->id, limit, (int)pid);
	}
	close(fds[0]);
	/* relay what the child still had to say (non-blocking: a daemon the
	 * child started may hold the pipe open for good) */
	if (errp[0] >= 0) {
		char buf[512];
		ssize_t n;

		(void)fcntl(errp[0], F_SETFL, O_NONBLOCK);

		while ((n = read(errp[0], buf, sizeof(buf))) > 0)
			if (write(2, buf, (size_t)n) < 0)
				break;
		close(errp[0]);
	}
	(void)sb_child_wait(&c, 0, &status, NULL);
	if (got != sizeof(ce))
		return sb_err_set(e, -EIO, "removing %s %s %s: the helper process died (status 0x%x)",
				  obj->layer, obj->kind, obj->id, status);
	if (ce.code)
		return sb_err_set(e, ce.code, "%s", ce.msg);
	return 0;
}

int sb_stack_teardown_state(struct sb_state *st, struct sb_err *err)
{
	struct sb_state_obj *all;
	char left[SB_ERR_MSG_MAX / 2] = "";
	size_t n = 0;
	unsigned i, nall = st->nobj, nleft = 0;
	int first = 0;

	all = malloc(sizeof(*all) * (nall ? nall : 1));
	if (!all)
		return sb_err_set(err, -ENOMEM, "out of memory");
	memcpy(all, st->obj, sizeof(*all) * nall);
	resume_suspended(st);
	/* The tools a killed build started (mdadm, lvm, mkfs) may still be
	 * creating objects, an earlier teardown's helper still removing one:
	 * wait for them, as long as one step may take (they may hang on the
	 * very device resumed just now). */
	first = sb_state_wait_others(st, step_timeout_s() * 1000, err);
	if (first) {
		free(all);
		return first;
	}
	sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
	for (i = st->nobj; i-- > 0;) {
		const struct sb_layer_ops *ops = sb_layer_find(st->obj[i].layer);
		struct sb_state_obj obj = st->obj[i];
		struct sb_err e = { 0 };
		int rc;

		if (!ops) {
			rc = sb_err_set(&e, -ENOSYS, "%s %s was made by the %s layer, which this build of stackbench lacks",
					obj.kind, obj.id, obj.layer);
		} else {
			sb_verbose("%s: removing %s %s %s", st->stack, obj.layer, obj.kind, obj.id);
			rc = teardown_bounded(st, ops, &obj, &e);
		}
		if (!rc)
			rc = sb_state_remove(st, i, &e);
		if (rc) {
			sb_warn("%s: %s", st->stack, e.msg);
			if (!first) {
				first = rc;
				sb_err_set(err, rc, "%s", e.msg);
			}
		}
		/* Everything still recorded below a busy object sits under it
		 * (mount over luks over md over loop): removing it can only fail
		 * too, each after its own busy budget. Stop here and leave the
		 * rest recorded for the next teardown. */
		if (rc == -EBUSY && i > 0) {
			sb_warn("%s: leaving the %u object(s) below %s %s for the next teardown",
				st->stack, i, obj.kind, obj.id);
			break;
		}
	}
	/* Verify from the original list: a teardown that said yes but left the
	 * object behind must not let us forget it. */
	for (i = nall; i-- > 0;) {
		const struct sb_layer_ops *ops = sb_layer_find(all[i].layer);

		if (ops && !sb_layer_exists(ops, &all[i]))
			continue;
		nleft++;
		if (n < sizeof(left))
			n += snprintf(left + n, sizeof(left) - n, "%s%s %s", nleft > 1 ? ", " : "",
				      all[i].kind, all[i].id);
	}
	free(all);
	if (nleft) {
		/* Keep (or restore) the state so another teardown can finish. */
		if (!first)
			first = -EBUSY;
		sb_err_set(err, first, "teardown of %s left %u object(s): %s", st->stack, nleft, left);
		return first;
	}
	if (first)
		return first;
	return sb_state_delete(st, err);
}

int sb_stack_teardown_name(const char *stack, struct sb_err *err)
{
	struct sb_state *st;
	int rc;

	rc = sb_stack_need_root("teardown", err);
	if (rc)
		return rc;
	st = calloc(1, sizeof(*st));
	if (!st)
		return sb_err_set(err, -ENOMEM, "out of memory");
	rc = sb_state_load(stack, st, err);
	if (!rc) {
		/* Let udev finish with whatever the dead run left. */
		sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
		rc = sb_stack_teardown_state(st, err);
	}
	if (!rc)
		sb_info("%s: torn down, nothing left", stack);
	free(st);
	return rc;
}

int sb_stack_teardown_all(struct sb_err *err)
{
	char **names;
	unsigned n, i;
	int rc, first = 0;

	rc = sb_stack_need_root("teardown", err);
	if (!rc)
		rc = sb_state_list(&names, &n, err);
	if (rc)
		return rc;
	if (!n)
		sb_info("no stacks recorded in %s", sb_state_dir());
	for (i = 0; i < n; i++) {
		struct sb_err e = { 0 };

		rc = sb_stack_teardown_name(names[i], &e);
		if (rc) {
			sb_warn("%s", e.msg);
			if (!first) {
				first = rc;
				sb_err_set(err, rc, "%s", e.msg);
			}
		}
		free(names[i]);
	}
	free(names);
	return first;
}
