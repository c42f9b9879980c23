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

#include "core/stack_int.h"
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
			if (!sb_layer_wanted(ops, s->spec))
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
		if (sb_layer_wanted(ops, spec))
			sb_layer_needs(ops, spec, n);
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

int sb_stack_check_programs(const struct sb_stack_spec *spec, struct sb_err *err)
{
	struct sb_program_needs n = { 0 };
	const struct sb_layer_ops *ops;
	char who[SB_NAME_MAX + 16];
	unsigned i;

	for (i = 0; (ops = sb_layer_at(i)); i++)
		if (ops->programs && sb_layer_wanted(ops, spec))
			ops->programs(spec, &n);
	snprintf(who, sizeof(who), "stack %s", spec->name);
	return sb_programs_check(&n, who, err);
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

int sb_stack_need_root(const char *what, struct sb_err *err)
{
	if (geteuid() != 0)
		return sb_err_set(err, -EPERM, "%s needs root (it creates and removes kernel devices)", what);
	return 0;
}

static bool stopped(const struct sb_build_ctx *c)
{
	return c->stop && *c->stop;
}

/* Test hook: $STACKBENCH_TEST_PAUSE_AT=after:LAYER holds the build after
 * that layer (sb_test_pause, core/state.h), so the kill and interrupt tests
 * can hit an exact step boundary instead of racing a timer. */
static void test_pause(const char *layer)
{
	char point[32];

	snprintf(point, sizeof(point), "after:%s", layer);
	sb_test_pause(point);
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

/* One udev settle for the whole build, not one per layer (the layers
 * skip theirs where the next step only opens the device): when build
 * returns, udev has probed what it made, so /dev/disk/by-uuid and the
 * other links a user's fstab or the next tool reads are there. Without
 * it prov_plain found no by-uuid link right after a build in the
 * throwaway kernel under load. A timeout is a warning: the stack is built. */
static void build_settle(const struct sb_stack *s)
{
	struct sb_err uerr = { 0 };

	if (sb_udev_settle(SB_UDEV_TIMEOUT_MS, &uerr) < 0)
		sb_warn("%s: %s; the new devices' /dev/disk links may still be on their way",
			s->spec->name, uerr.msg);
}

int sb_stack_build(struct sb_stack *s, const struct sb_build_ctx *ctx, struct sb_err *err)
{
	static const struct sb_build_ctx none;
	const struct sb_build_ctx *c = ctx ? ctx : &none;
	struct sb_err terr = { 0 };
	unsigned k;
	int rc;

	rc = sb_stack_need_root("build", err);
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

		if (stopped(c)) {
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
		l->ctx = c;
		rc = l->ops->build(l, err);
		if (!rc)
			rc = sb_layer_read_ahead_apply(l, err);
		l->ctx = NULL;
		sb_progress_done();
		if (rc) {
			sb_err_prefix(err, "layer %s: ", l->ops->name);
			break;
		}
		test_pause(l->ops->name);
		if (c->after_layer) {
			rc = c->after_layer(s, k, c->after_ctx, err);
			if (rc)
				break;
		}
	}
	if (!rc && stopped(c))
		rc = sb_err_set(err, -EINTR, "interrupted after the last layer; tearing down");
	if (!rc) {
		build_settle(s);
		return 0;
	}
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
		sb_layer_read_ahead_describe(l, o);
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
	sb_layer_label_built(arr);
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

/* --destroy-data=DEV,DEV: the disks the user named for destruction, kept as
 * given; the disks layer hands them to the safety checks, which require the
 * same set as the stack lists. */
int sb_stack_set_destroy_data(struct sb_build_ctx *s, const char *list, struct sb_err *err)
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
