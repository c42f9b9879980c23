#include "core/stack.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/dm-ioctl.h>

#include "spec/part.h"
#include "sys/udev.h"
#include "util/log.h"

static int add_layer(struct sb_stack *s, const struct sb_layer_ops *ops, struct sb_err *err)
{
	struct sb_layer *l;

	if (s->nlayers >= SB_STACK_MAX_LAYERS)
		return sb_err_set(err, -E2BIG, "stack %s: too many layers", s->spec->name);
	l = &s->layers[s->nlayers];
	memset(l, 0, sizeof(*l));
	l->ops = ops;
	l->spec = s->spec;
	l->stack = s;
	l->below = s->nlayers ? &s->layers[s->nlayers - 1] : NULL;
	s->nlayers++;
	return 0;
}

/* The wanted layers of the registry, bottom up by their order (a stable
 * sort: equal orders keep registry order). */
static int add_layers(struct sb_stack *s, struct sb_err *err)
{
	const struct sb_layer_ops *ops;
	unsigned order, next, i;
	bool fs = false;
	int rc = 0;

	for (order = 0; !rc && order != UINT_MAX; order = next) {
		next = UINT_MAX;
		for (i = 0; !rc && (ops = sb_layer_at(i)); i++) {
			if (!ops->wanted || !ops->wanted(s->spec))
				continue;
			if (ops->order == order) {
				rc = add_layer(s, ops, err);
				fs |= ops->order == SB_ORDER_FS;
			}
			else if (ops->order > order && ops->order < next)
				next = ops->order;
		}
	}
	if (!rc && !fs)
		rc = sb_err_set(err, -EINVAL, "stack %s: no layer of this build takes fs.type %s",
				s->spec->name, s->spec->fs.type);
	return rc;
}

int sb_stack_init(struct sb_stack *s, const struct sb_stack_spec *spec, struct sb_err *err)
{
	const struct sb_devices_spec *d = &spec->devices;
	unsigned ndev = d->kind == SB_DEVICES_LOOP ? d->loop.count : d->ndisks;
	int rc;

	/* Keep what the caller set up front (--destroy-data, stop flag). */
	s->spec = spec;
	s->nlayers = 0;
	memset(&s->state, 0, sizeof(s->state));
	if ((size_t)snprintf(s->rundir, sizeof(s->rundir), "%s/%s",
			     d->loop.dir[0] ? d->loop.dir : "/var/tmp/stackbench", spec->name) >= sizeof(s->rundir))
		return sb_err_set(err, -ENAMETOOLONG, "stack %s: run directory path too long", spec->name);
	if (!spec->raid.enabled && ndev != 1 && !sb_spec_fs_spans(spec))
		return sb_err_set(err, -EINVAL, "stack %s: without raid the stack needs exactly one device, not %u",
				  spec->name, ndev);
	if (spec->raid.enabled && spec->raid.devices && ndev != spec->raid.devices)
		return sb_err_set(err, -EINVAL, "stack %s: raid.devices is %u but %u devices are given",
				  spec->name, spec->raid.devices, ndev);
	rc = add_layers(s, err);
	if (rc)
		s->nlayers = 0;
	return rc;
}

void sb_stack_needs(const struct sb_stack_spec *spec, struct sb_kernel_needs *n)
{
	const struct sb_layer_ops *ops;
	unsigned i;

	for (i = 0; (ops = sb_layer_at(i)); i++)
		if (ops->needs && ops->wanted && ops->wanted(spec))
			ops->needs(spec, n);
}

int sb_stack_check_kernel(const struct sb_stack_spec *spec, struct sb_err *err)
{
	struct sb_kernel_needs n = { 0 };
	char why[256];

	sb_stack_needs(spec, &n);
	sb_kernel_lacking(&n, why, sizeof(why));
	if (!why[0])
		return 0;
	return sb_err_set(err, -ENOTSUP,
			  "stack %s needs %s, and this kernel has no %s; a stack built in the "
			  "throwaway kernel lives only as long as one command — use `stackbench build-and-test`",
			  spec->name, why, why);
}

int sb_stack_plan(const struct sb_stack *s, struct sb_plan *plan, struct sb_err *err)
{
	struct sb_plan *each;
	unsigned i, j;

	each = calloc(s->nlayers ? s->nlayers : 1, sizeof(*each));
	if (!each)
		return sb_err_set(err, -ENOMEM, "out of memory");
	memset(plan, 0, sizeof(*plan));
	sb_plan_build(plan, "state: record every object in %s/%s.state before creating it",
		      sb_state_dir(), s->spec->name);
	for (i = 0; i < s->nlayers; i++) {
		s->layers[i].ops->plan(&s->layers[i], &each[i]);
		for (j = 0; j < each[i].nbuild; j++)
			sb_plan_build(plan, "%s", each[i].build[j]);
	}
	/* Each layer lists its own teardown steps in the order it takes them;
	 * the stack runs the layers top down. */
	for (i = s->nlayers; i-- > 0;)
		for (j = 0; j < each[i].nteardown; j++)
			sb_plan_teardown(plan, "%s", each[i].teardown[j]);
	sb_plan_teardown(plan, "state: verify that nothing recorded is left, then delete %s/%s.state",
			 sb_state_dir(), s->spec->name);
	free(each);
	if (plan->nbuild >= 64 || plan->nteardown >= 64)
		return sb_err_set(err, -E2BIG, "stack %s: plan has too many steps", s->spec->name);
	return 0;
}

static int need_root(const char *what, struct sb_err *err)
{
	if (geteuid() != 0)
		return sb_err_set(err, -EPERM, "%s needs root (it creates and removes kernel devices)", what);
	return 0;
}

static bool stopped(const struct sb_stack *s)
{
	return s->stop && *s->stop;
}

/* Test hook: STACKBENCH_TEST_PAUSE_AFTER=<layer> holds the build after that
 * layer for up to 60 s (a SIGINT/SIGTERM ends the pause), touching
 * $STACKBENCH_TEST_PAUSE_MARK first, so the kill and interrupt tests can
 * hit an exact step boundary instead of racing a timer. */
static void test_pause(const struct sb_stack *s, const char *layer)
{
	const char *after = getenv("STACKBENCH_TEST_PAUSE_AFTER");
	const char *mark = getenv("STACKBENCH_TEST_PAUSE_MARK");
	int i;

	char point[32];

	snprintf(point, sizeof(point), "after:%s", layer);
	sb_test_pause(point);
	if (!after || strcmp(after, layer))
		return;
	sb_warn("test hook: pausing after layer %s", layer);
	if (mark && *mark) {
		FILE *f = fopen(mark, "we");
		if (f)
			fclose(f);
	}
	for (i = 0; i < 600 && !stopped(s); i++)
		usleep(100000);
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* Kernel objects named like the ones this stack would create, left by an
 * earlier run whose state file is gone (deleted by hand, a tmpfs /run
 * lost on reboot while md auto-assembled the array...): every layer of the
 * stack says what of its own it finds (md: /dev/md/sb-NAME, luks/lvm: dm
 * devices, loop: loops over its backing files). Building on top of them
 * would fail half way or, worse, reuse them; refuse first. */
static int check_leftovers(const struct sb_stack *s, struct sb_err *err)
{
	struct sb_leftovers found = { .rundir = s->rundir };
	char real[PATH_MAX];
	unsigned i;

	if (realpath(s->rundir, real))
		found.rundir = real;
	for (i = 0; i < s->nlayers; i++)
		if (s->layers[i].ops->leftovers)
			s->layers[i].ops->leftovers(s, &found);
	if (!found.text[0])
		return 0;
	return sb_err_set(err, -EEXIST,
			  "an earlier, unfinished run of %s left %s but no state file in %s; "
			  "remove them first (umount, `cryptsetup close`, `vgremove`, `mdadm --stop`, `losetup -d`)",
			  s->spec->name, found.text, sb_state_dir());
}

int sb_stack_build(struct sb_stack *s, struct sb_err *err)
{
	struct sb_err terr = { 0 };
	unsigned k;
	int rc;

	rc = need_root("build", err);
	if (rc)
		return rc;
	rc = sb_state_create(&s->state, s->spec->name, s->spec->source, err);
	if (rc)
		return rc;
	rc = sb_state_mark_builder(&s->state, err);
	if (!rc)
		rc = check_leftovers(s, err);
	if (rc) {
		(void)sb_state_delete(&s->state, &terr);
		return rc;
	}
	for (k = 0; k < s->nlayers; k++) {
		struct sb_layer *l = &s->layers[k];

		if (stopped(s)) {
			rc = sb_err_set(err, -EINTR, "interrupted before layer %s; tearing down what was built",
					l->ops->name);
			break;
		}
		sb_info("%s: building layer %s", s->spec->name, l->ops->name);
		if (l->below && l->below->ops->handoff) {
			rc = l->below->ops->handoff(l->below, err);
			if (rc) {
				sb_err_prefix(err, "layer %s: ", l->below->ops->name);
				break;
			}
		}
		/* the live line shows the step while it runs (mkfs, luksFormat) */
		sb_progress("build step %u of %u: %s", k + 1, s->nlayers, l->ops->name);
		rc = l->ops->build(l, err);
		sb_progress_done();
		if (rc) {
			sb_err_prefix(err, "layer %s: ", l->ops->name);
			break;
		}
		test_pause(s, l->ops->name);
		if (s->after_layer) {
			rc = s->after_layer(s, k, s->after_ctx, err);
			if (rc)
				break;
		}
	}
	if (!rc && stopped(s))
		rc = sb_err_set(err, -EINTR, "interrupted after the last layer; tearing down");
	if (!rc)
		return 0;
	sb_warn("%s: build failed, tearing down what was built", s->spec->name);
	if (sb_stack_teardown_state(&s->state, &terr))
		sb_warn("%s: rollback incomplete: %s", s->spec->name, terr.msg);
	for (k = 0; k < s->nlayers; k++)
		s->layers[k].ndev = 0;
	return rc;
}

int sb_stack_describe(const struct sb_stack *s, struct json_object **out, struct sb_err *err)
{
	struct json_object *arr = json_object_new_array();
	unsigned i, j;
	int rc = 0;

	for (i = 0; i < s->nlayers && !rc; i++) {
		const struct sb_layer *l = &s->layers[i];
		struct json_object *o = json_object_new_object(), *devs = json_object_new_array();

		json_object_object_add(o, "layer", json_object_new_string(l->ops->name));
		for (j = 0; j < l->ndev; j++)
			json_object_array_add(devs, json_object_new_string(l->dev[j]));
		json_object_object_add(o, "devices", devs);
		if (l->mountpoint[0])
			json_object_object_add(o, "mountpoint", json_object_new_string(l->mountpoint));
		if (l->ops->describe)
			rc = l->ops->describe(l, o, err);
		if (rc)
			sb_err_prefix(err, "layer %s: ", l->ops->name);
		json_object_array_add(arr, o);
	}
	if (rc) {
		json_object_put(arr);
		return rc;
	}
	*out = arr;
	return 0;
}

const char *sb_stack_mountpoint(const struct sb_stack *s)
{
	unsigned i;

	for (i = s->nlayers; i-- > 0;)
		if (s->layers[i].mountpoint[0])
			return s->layers[i].mountpoint;
	return NULL;
}

const char *sb_stack_top_dev(const struct sb_stack *s)
{
	unsigned i;

	for (i = s->nlayers; i-- > 0;)
		if (s->layers[i].ndev)
			return s->layers[i].dev[0];
	return NULL;
}

unsigned sb_stack_devices(const struct sb_stack *s, const char **devs, unsigned max)
{
	unsigned i, j, k, n = 0;

	for (i = 0; i < s->nlayers; i++) {
		for (j = 0; j < s->layers[i].ndev; j++) {
			const char *d = s->layers[i].dev[j];
			bool dup = false;

			/* ext4 exposes the device below it: list each node once. */
			for (k = 0; k < n && !dup; k++)
				dup = !strcmp(devs[k], d);
			if (!dup && n < max)
				devs[n++] = d;
		}
	}
	return n;
}

/* For layers without an attach op: a layer that recorded nothing (ext4)
 * exposes the device below it; one whose last recorded object is a device
 * node exposes that; anything else cannot be re-attached generically. */
static int attach_generic(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	const struct sb_state_obj *last = NULL;
	unsigned i;

	for (i = 0; i < st->nobj; i++)
		if (!strcmp(st->obj[i].layer, l->ops->name))
			last = &st->obj[i];
	if (!last) {
		if (l->below) {
			l->ndev = l->below->ndev;
			memcpy(l->dev, l->below->dev, sizeof(l->dev));
		}
		return 0;
	}
	if (strncmp(last->id, "/dev/", 5))
		return sb_err_set(err, -ENOTSUP, "layer %s cannot be re-attached from its state (%s %s)",
				  l->ops->name, last->kind, last->id);
	l->ndev = 1;
	snprintf(l->dev[0], sizeof(l->dev[0]), "%s", last->id);
	return 0;
}

int sb_stack_attach(struct sb_stack *s, struct sb_err *err)
{
	unsigned i;
	int rc;

	rc = sb_state_load(s->spec->name, &s->state, err);
	if (rc == -ENOENT) {
		sb_err_clear(err);
		return sb_err_set(err, -ENOENT, "stack %s is not built (no state in %s); run `stackbench build` first",
				  s->spec->name, sb_state_dir());
	}
	if (rc)
		return rc;
	for (i = 0; i < s->nlayers; i++) {
		struct sb_layer *l = &s->layers[i];

		if (l->ops->attach) {
			rc = l->ops->attach(l, &s->state, err);
			if (rc) {
				sb_err_prefix(err, "layer %s: ", l->ops->name);
				return rc;
			}
		} else {
			rc = attach_generic(l, &s->state, err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

void sb_stack_release(struct sb_stack *s)
{
	unsigned i;

	for (i = 0; i < s->nlayers; i++) {
		if (s->layers[i].ops->release)
			s->layers[i].ops->release(&s->layers[i]);
		s->layers[i].priv = NULL;
	}
}

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
		read_line(path, val, sizeof(val));
		if (strcmp(val, "1"))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dm/name", de->d_name);
		read_line(path, name, sizeof(name));
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

/* Run ops->teardown(obj) in a child so that a removal stuck in the kernel
 * cannot hold teardown hostage: after the timeout we report it and go on
 * (the child is left to finish or stay stuck on its own; a process in D
 * state cannot be killed anyway). The child sends back its code and
 * message through one pipe; its stderr goes through another that we relay,
 * so that a child left behind does not keep our caller's stdout/stderr
 * open (a `$(stackbench teardown ...)` would wait for it forever). */
static int teardown_bounded(const struct sb_layer_ops *ops, const struct sb_state_obj *obj,
			    struct sb_err *e)
{
	unsigned limit = step_timeout_s();
	struct timespec t0, now;
	struct sb_err ce = { 0 };
	size_t got = 0;
	int fds[2], errp[2], status = 0, devnull;
	bool done = false;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return ops->teardown(obj, e); /* cannot supervise: do it here */
	if (pipe2(errp, O_CLOEXEC)) {
		close(fds[0]);
		close(fds[1]);
		return ops->teardown(obj, e);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		close(errp[0]);
		close(errp[1]);
		return ops->teardown(obj, e);
	}
	if (pid == 0) {
		ssize_t n;
		size_t off = 0;

		/* the parent handles SIGINT/SIGTERM; the child just finishes,
		 * even after the parent stopped listening (EPIPE, not SIGPIPE) */
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (devnull >= 0)
			dup2(devnull, 1);
		dup2(errp[1], 2);
		ce.code = ops->teardown(obj, &ce);
		while (off < sizeof(ce)) {
			n = write(fds[1], (char *)&ce + off, sizeof(ce) - off);
			if (n <= 0 && errno != EINTR)
				break;
			if (n > 0)
				off += (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	close(errp[1]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!done) {
		struct pollfd pfd[2] = { { .fd = fds[0], .events = POLLIN }, { .fd = errp[0], .events = POLLIN } };
		char buf[512];
		long left;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = (long)limit * 1000 - ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0) {
			close(fds[0]);
			close(errp[0]);
			return sb_err_set(e, -ETIMEDOUT,
					  "removing %s %s %s did not finish within %u s (a hung device below? "
					  "process %d is still at it); run `stackbench teardown` again once the device responds",
					  obj->layer, obj->kind, obj->id, limit, (int)pid);
		}
		if (poll(pfd, errp[0] >= 0 ? 2 : 1, (int)(left > 1000 ? 1000 : left)) <= 0)
			continue;
		if (errp[0] >= 0 && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			n = read(errp[0], buf, sizeof(buf));
			if (n > 0) {
				if (write(2, buf, (size_t)n) < 0) {
					/* our stderr is gone: nothing to relay to */
				}
			} else if (n == 0 || errno != EINTR) {
				close(errp[0]);
				errp[0] = -1;
			}
		}
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(fds[0], (char *)&ce + got, sizeof(ce) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			got += (size_t)n;
		done = n <= 0 || got == sizeof(ce);
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
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
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
	 * creating objects: wait for them, as long as one step may take
	 * (they may hang on the very device resumed just now). */
	first = sb_state_wait_builder(st, step_timeout_s() * 1000, err);
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
			rc = teardown_bounded(ops, &obj, &e);
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

		if (ops && !ops->exists(&all[i]))
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

	rc = need_root("teardown", err);
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

	rc = need_root("teardown", err);
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

/* --destroy-data=DEV,DEV: the disks the user named for destruction, kept as
 * given; the disks layer hands them to the safety checks, which require the
 * same set as the stack lists. */
int sb_stack_set_destroy_data(struct sb_stack *s, const char *list, struct sb_err *err)
{
	char buf[SB_MAX_DISKS * 64], *tok, *save;

	if ((size_t)snprintf(buf, sizeof(buf), "%s", list) >= sizeof(buf))
		return sb_err_set(err, -EINVAL, "--destroy-data: list too long");
	s->ndestroy = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (s->ndestroy >= SB_MAX_DISKS)
			return sb_err_set(err, -EINVAL, "--destroy-data: more than %d disks", SB_MAX_DISKS);
		snprintf(s->destroy[s->ndestroy++], SB_PATH_MAX, "%s", tok);
	}
	if (!s->ndestroy)
		return sb_err_set(err, -EINVAL, "--destroy-data: no disk named");
	s->destroy_data = true;
	s->destroy_list = list;
	return 0;
}
