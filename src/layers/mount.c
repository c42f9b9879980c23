/* mount: the filesystem on <state dir>/mnt/<stack> through libmount, with
 * the stack's mount options. State objects: "dir" (the mountpoint, made by
 * us) then "mount"; teardown unmounts with bounded retries, naming the
 * processes that keep it busy, then removes the directory. */
#include <libmount/libmount.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/layer.h"
#include "core/stack.h"
#include "spec/part.h"
#include "sys/sysfs.h"
#include "util/log.h"
#include "util/fs.h"

#define UMOUNT_TRIES 20
#define UMOUNT_WAIT_US 250000

static void mount_path(const struct sb_stack_spec *spec, char *out, size_t len)
{
	snprintf(out, len, "%s/mnt/%s", sb_state_dir(), spec->name);
}

/* fs.mount_options, then what the filesystem adds from its own keys. */
static void mount_opts(const struct sb_stack_spec *spec, char *buf, size_t len)
{
	const struct sb_spec_part *p;
	char extra[SB_OPTSTR_MAX] = "";
	unsigned i;

	for (i = 0; (p = sb_spec_part_at(i)); i++)
		if (p->fs_type && !strcmp(p->fs_type, spec->fs.type) && p->mount_options)
			p->mount_options(spec, extra, sizeof(extra));
	snprintf(buf, len, "%s%s%s", spec->fs.mount_options, spec->fs.mount_options[0] && extra[0] ? "," : "", extra);
}

static void mount_plan(const struct sb_layer *l, struct sb_plan *p)
{
	char dir[SB_PATH_MAX], dev[SB_PATH_MAX], opts[2 * SB_OPTSTR_MAX];

	mount_opts(l->spec, opts, sizeof(opts));

	mount_path(l->spec, dir, sizeof(dir));
	sb_layer_predict_dev(l->below, dev, sizeof(dev));
	sb_plan_build(p, "mount: create %s and mount %s there as %s (options %s)", dir, dev,
		      l->spec->fs.type[0] ? l->spec->fs.type : "ext4", opts[0] ? opts : "defaults");
	sb_plan_teardown(p, "mount: unmount %s (bounded retries; names the processes keeping it busy), "
			 "then remove the directory", dir);
}

/* The mount entry of `target` in this namespace, or NULL; *tbp to free. */
static struct libmnt_fs *find_mount(const char *target, struct libmnt_table **tbp)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");

	*tbp = tb;
	return tb ? mnt_table_find_target(tb, target, MNT_ITER_BACKWARD) : NULL;
}

static bool is_mounted(const char *target)
{
	struct libmnt_table *tb;
	bool yes = find_mount(target, &tb) != NULL;

	mnt_unref_table(tb);
	return yes;
}

static int mount_build(struct sb_layer *l, struct sb_err *err)
{
	struct sb_state *st = &l->stack->state;
	char dir[SB_PATH_MAX], msg[512], opts[2 * SB_OPTSTR_MAX];
	struct libmnt_context *cxt;
	const char *dev;
	int rc;

	mount_opts(l->spec, opts, sizeof(opts));

	if (!l->below || l->below->ndev != 1)
		return sb_err_set(err, -EINVAL, "mount needs exactly one device below it");
	dev = l->below->dev[0];
	mount_path(l->spec, dir, sizeof(dir));
	if (is_mounted(dir))
		return sb_err_set(err, -EBUSY, "%s is already a mountpoint", dir);
	if (access(dir, F_OK)) {
		rc = sb_state_add(st, "mount", "dir", dir, NULL, err);
		if (!rc)
			rc = sb_mkdir_p(dir, 0755, err);
		if (rc)
			return rc;
	}
	rc = sb_state_add(st, "mount", "mount", dir, dev, err);
	if (rc)
		return rc;
	cxt = mnt_new_context();
	if (!cxt)
		return sb_err_set(err, -ENOMEM, "libmount: cannot create a context");
	/* No /sbin/mount.* helpers and no fstab lookups: exactly this mount. */
	mnt_context_disable_helpers(cxt, 1);
	mnt_context_set_source(cxt, dev);
	mnt_context_set_target(cxt, dir);
	mnt_context_set_fstype(cxt, l->spec->fs.type[0] ? l->spec->fs.type : "ext4");
	if (opts[0])
		mnt_context_set_options(cxt, opts);
	rc = mnt_context_mount(cxt);
	if (rc || mnt_context_get_status(cxt) != 1) {
		msg[0] = '\0';
		mnt_context_get_excode(cxt, rc, msg, sizeof(msg));
		rc = sb_err_set(err, -EIO, "cannot mount %s on %s (options %s): %s", dev, dir,
				opts[0] ? opts : "defaults", msg[0] ? msg : "libmount failed");
		mnt_free_context(cxt);
		return rc;
	}
	mnt_free_context(cxt);
	snprintf(l->mountpoint, sizeof(l->mountpoint), "%s", dir);
	sb_verbose("mount: %s on %s", dev, dir);
	return 0;
}

static int do_umount(const char *dir, struct sb_err *err)
{
	char holders[512];
	int i;

	for (i = 0; i < UMOUNT_TRIES; i++) {
		if (!is_mounted(dir))
			return 0;
		if (!umount2(dir, UMOUNT_NOFOLLOW))
			continue;
		if (errno == EINVAL || errno == ENOENT)
			return is_mounted(dir) ? sb_err_sys(err, -errno, "cannot unmount %s", dir) : 0;
		if (errno != EBUSY)
			return sb_err_sys(err, -errno, "cannot unmount %s", dir);
		if (i == 0)
			sync();
		usleep(UMOUNT_WAIT_US);
	}
	if (!is_mounted(dir))
		return 0;
	sb_proc_holders(dir, 1, holders, sizeof(holders));
	return sb_err_set(err, -EBUSY, "%s is busy after %d s of retries: %s", dir,
			  UMOUNT_TRIES * UMOUNT_WAIT_US / 1000000,
			  holders[0] ? holders : "no process found holding it (a kernel user or another namespace)");
}

/* <state dir>/mnt is shared by the stacks built at once: the last one out
 * removes it (ENOTEMPTY while another stack's mountpoint is in it). */
static void remove_empty_parent(const char *dir)
{
	char mnt[SB_PATH_MAX];
	size_t n;

	if (snprintf(mnt, sizeof(mnt), "%s/mnt", sb_state_dir()) >= (int)sizeof(mnt))
		return;
	n = strlen(mnt);
	if (!strncmp(dir, mnt, n) && dir[n] == '/' && !strchr(dir + n + 1, '/'))
		(void)rmdir(mnt);
}

static int mount_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	if (!strcmp(obj->kind, "mount"))
		return do_umount(obj->id, err);
	if (!strcmp(obj->kind, "dir")) {
		if (is_mounted(obj->id))
			return sb_err_set(err, -EBUSY, "%s is still a mountpoint; not removing it", obj->id);
		if (rmdir(obj->id) && errno != ENOENT)
			return sb_err_sys(err, -errno, "cannot remove %s", obj->id);
		remove_empty_parent(obj->id);
		return 0;
	}
	return sb_err_set(err, -EINVAL, "mount: unknown object kind %s", obj->kind);
}

static bool mount_exists(const struct sb_state_obj *obj)
{
	struct stat st;

	if (!strcmp(obj->kind, "mount"))
		return is_mounted(obj->id);
	if (!strcmp(obj->kind, "dir"))
		return stat(obj->id, &st) == 0;
	return false;
}

static int mount_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	char opts[2 * SB_OPTSTR_MAX];
	struct libmnt_table *tb;
	struct libmnt_fs *fs;

	if (!l->mountpoint[0])
		return 0;
	fs = find_mount(l->mountpoint, &tb);
	if (!fs) {
		mnt_unref_table(tb);
		return sb_err_set(err, -ENOENT, "%s is not mounted", l->mountpoint);
	}
	json_object_object_add(out, "source", json_object_new_string(mnt_fs_get_source(fs) ?: ""));
	json_object_object_add(out, "fstype", json_object_new_string(mnt_fs_get_fstype(fs) ?: ""));
	json_object_object_add(out, "options", json_object_new_string(mnt_fs_get_options(fs) ?: ""));
	mount_opts(l->spec, opts, sizeof(opts));
	json_object_object_add(out, "options_requested", json_object_new_string(opts));
	mnt_unref_table(tb);
	return 0;
}

static int mount_attach(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	char dir[SB_PATH_MAX];

	mount_path(l->spec, dir, sizeof(dir));
	if (!is_mounted(dir))
		return sb_err_set(err, -ENOENT, "%s is not mounted", dir);
	snprintf(l->mountpoint, sizeof(l->mountpoint), "%s", dir);
	return 0;
}

static bool mount_wanted(const struct sb_stack_spec *spec)
{
	(void)spec;
	return true;
}

const struct sb_layer_ops sb_layer_mount = {
	.order = SB_ORDER_MOUNT,
	.wanted = mount_wanted,
	.name = "mount",
	.plan = mount_plan,
	.build = mount_build,
	.describe = mount_describe,
	.teardown = mount_teardown,
	.exists = mount_exists,
	.attach = mount_attach,
};
