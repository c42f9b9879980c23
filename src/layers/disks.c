/* disks: real block devices named in the stack. Nothing is created here,
 * so nothing is recorded; the layers above record what they write. Until
 * the safety checks of issue 6 land (src/sys/safety.c), a disk is only
 * accepted when --destroy-data names exactly the disks of the stack. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/layer.h"
#include "core/stack.h"
#include "layers/queue.h"
#include "sys/sysfs.h"
#include "util/log.h"
#include "util/units.h"

/* The real-disk checks of issue 6 live in src/sys/safety.c; until that
 * file is in the tree, --destroy-data naming exactly the disks is the only
 * guard (checked below either way). */
#if __has_include("sys/safety.h")
#include "sys/safety.h"
#define SB_HAVE_SAFETY 1
#endif

static void disks_plan(const struct sb_layer *l, struct sb_plan *p)
{
	const struct sb_devices_spec *d = &l->spec->devices;
	char list[1024] = "";
	size_t n = 0;
	unsigned i;

	for (i = 0; i < d->ndisks && n < sizeof(list); i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "", d->disks[i]);
	sb_plan_build(p, "disks: check %u disk%s (%s) and require --destroy-data naming exactly them; "
		      "ALL DATA ON THEM WILL BE DESTROYED", d->ndisks, d->ndisks == 1 ? "" : "s", list);
	sb_plan_teardown(p, "disks: nothing to remove (the disks stay; their contents are gone)");
}

#ifndef SB_HAVE_SAFETY
static bool same_disk(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode) &&
	       sa.st_rdev == sb.st_rdev;
}

static int consent_check(const struct sb_layer *l, struct sb_err *err)
{
	const struct sb_devices_spec *d = &l->spec->devices;
	const struct sb_build_ctx *s = l->ctx;
	unsigned i, j;

	/* Without the safety module: consent only through --destroy-data
	 * naming exactly the stack's disks (safety.c also accepts a typed
	 * confirmation and checks the same list itself). */
	if (!s->destroy_data || !s->ndestroy)
		return sb_err_set(err, -SB_EREFUSED, "stack %s uses real disks; they will be erased. Pass "
				  "--destroy-data=DEV,... naming exactly those disks to go on", l->spec->name);
	for (i = 0; i < d->ndisks; i++) {
		bool named = false;

		for (j = 0; j < s->ndestroy && !named; j++)
			named = same_disk(d->disks[i], s->destroy[j]);
		if (!named)
			return sb_err_set(err, -SB_EREFUSED, "%s is in the stack but not named by --destroy-data", d->disks[i]);
	}
	for (j = 0; j < s->ndestroy; j++) {
		bool listed = false;

		for (i = 0; i < d->ndisks && !listed; i++)
			listed = same_disk(d->disks[i], s->destroy[j]);
		if (!listed)
			return sb_err_set(err, -SB_EREFUSED, "--destroy-data names %s, which is not a disk of stack %s",
					  s->destroy[j], l->spec->name);
	}
	return 0;
}
#endif

/* Each disk is resolved once, by the safety checks, to a device number;
 * the layers above get the node of that number (/dev/sdX), never the path
 * as given, and the checks' O_EXCL descriptors stay open (in priv) until
 * disks_handoff re-checks and lets go, right before the first write. */
static int disks_open(struct sb_layer *l, struct sb_err *err)
{
	const struct sb_devices_spec *d = &l->spec->devices;
	const char *list[SB_MAX_DISKS];
	unsigned i;
	int rc;

#ifndef SB_HAVE_SAFETY
	rc = consent_check(l, err);
	if (rc)
		return rc;
	for (i = 0; i < d->ndisks; i++) {
		char real[PATH_MAX];
		struct stat st;

		if (!realpath(d->disks[i], real))
			return sb_err_sys(err, -errno, "cannot resolve %s", d->disks[i]);
		if (stat(real, &st) || !S_ISBLK(st.st_mode))
			return sb_err_set(err, -ENOTBLK, "%s (%s) is not a block device", d->disks[i], real);
		if ((size_t)snprintf(l->dev[i], SB_PATH_MAX, "%s", real) >= SB_PATH_MAX)
			return sb_err_set(err, -ENAMETOOLONG, "%s: path too long", real);
	}
	(void)list;
	sb_warn("disks: the safety checks (mounted, holders, signatures, root disk) are not built in; "
		"relying on --destroy-data alone");
#else
	struct sb_disk_info *infos = calloc(d->ndisks, sizeof(*infos));

	if (!infos)
		return sb_err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < d->ndisks; i++)
		list[i] = d->disks[i];
	/* SAFETY CALL SITE: no write may happen before this passes. */
	rc = sb_safety_check_disks(list, d->ndisks, l->ctx->wipe, l->ctx->destroy_list,
				   isatty(STDIN_FILENO), infos, err);
	if (rc) {
		free(infos);
		return rc;
	}
	for (i = 0; i < d->ndisks; i++)
		if ((size_t)snprintf(l->dev[i], SB_PATH_MAX, "%s", infos[i].resolved) >= SB_PATH_MAX) {
			rc = sb_err_set(err, -ENAMETOOLONG, "%s: path too long", infos[i].resolved);
			sb_safety_release(infos, d->ndisks);
			free(infos);
			return rc;
		}
	l->priv = infos;
#endif
	l->ndev = d->ndisks;
	return 0;
}

/* The disks, then the members' queue keys. */
static int disks_build(struct sb_layer *l, struct sb_err *err)
{
	int rc = disks_open(l, err);

	return rc ? rc : sb_layer_queue_apply(l, err);
}

#ifdef SB_HAVE_SAFETY
static int disks_handoff(struct sb_layer *l, struct sb_err *err)
{
	struct sb_disk_info *infos = l->priv;
	unsigned i;
	int rc = 0;

	for (i = 0; infos && i < l->ndev; i++)
		if (infos[i].excl_fd >= 0 && !rc)
			rc = sb_safety_handoff(&infos[i], err);
	if (infos)
		sb_safety_release(infos, l->ndev);
	return rc;
}

static void disks_release(struct sb_layer *l)
{
	if (l->priv)
		sb_safety_release(l->priv, l->ndev);
	free(l->priv);
	l->priv = NULL;
}
#endif

static int disks_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	return 0; /* disks records nothing */
}

static bool disks_exists(const struct sb_state_obj *obj)
{
	return false;
}

static int disks_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	struct json_object *arr = json_object_new_array();
	unsigned i;

	for (i = 0; i < l->ndev; i++) {
		struct json_object *d = json_object_new_object();
		char s[256];
		uint64_t v;

		json_object_object_add(d, "dev", json_object_new_string(l->dev[i]));
		json_object_object_add(d, "as_given", json_object_new_string(l->spec->devices.disks[i]));
		if (!sb_sysfs_dev_attr_u64(l->dev[i], "size", &v, NULL))
			json_object_object_add(d, "size", json_object_new_int64((int64_t)(v * 512)));
		if (!sb_sysfs_dev_attr_u64(l->dev[i], "queue/logical_block_size", &v, NULL))
			json_object_object_add(d, "logical_block_size", json_object_new_int64((int64_t)v));
		if (!sb_sysfs_dev_attr_u64(l->dev[i], "queue/physical_block_size", &v, NULL))
			json_object_object_add(d, "physical_block_size", json_object_new_int64((int64_t)v));
		if (!sb_sysfs_dev_attr_u64(l->dev[i], "queue/rotational", &v, NULL))
			json_object_object_add(d, "rotational", json_object_new_boolean(v != 0));
		if (!sb_sysfs_dev_attr_str(l->dev[i], "device/model", s, sizeof(s), NULL))
			json_object_object_add(d, "model", json_object_new_string(s));
		json_object_array_add(arr, d);
	}
	json_object_object_add(out, "disks", arr);
	return 0;
}

static int disks_attach(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	char real[PATH_MAX];
	unsigned i;

	for (i = 0; i < l->spec->devices.ndisks; i++) {
		if (!realpath(l->spec->devices.disks[i], real))
			return sb_err_sys(err, -errno, "cannot resolve %s", l->spec->devices.disks[i]);
		if ((size_t)snprintf(l->dev[i], SB_PATH_MAX, "%s", real) >= SB_PATH_MAX)
			return sb_err_set(err, -ENAMETOOLONG, "%s: path too long", real);
	}
	l->ndev = l->spec->devices.ndisks;
	return 0;
}

static bool disks_wanted(const struct sb_stack_spec *spec)
{
	return spec->devices.kind == SB_DEVICES_DISKS;
}

static void disks_predict(const struct sb_layer *l, char *out, size_t len)
{
	snprintf(out, len, "%s", l->spec->devices.disks[0]);
}

const struct sb_layer_ops sb_layer_disks = {
	.order = SB_ORDER_DEVICES,
	.wanted = disks_wanted,
	.predict_dev = disks_predict,
	.name = "disks",
	.section = "devices",
	.plan = disks_plan,
	.build = disks_build,
	.describe = disks_describe,
	.teardown = disks_teardown,
	.exists = disks_exists,
	.attach = disks_attach,
#ifdef SB_HAVE_SAFETY
	.handoff = disks_handoff,
	.release = disks_release,
#endif
	.per_layer = true,
};
