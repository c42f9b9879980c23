/* btrfs: mkfs.btrfs, selected by fs.type: btrfs. Its own keys: the node
 * size, the data and metadata profiles, the checksum, and compression,
 * which is a mount option (compress=) rather than anything mkfs writes.
 * single/dup: on the one device below (md, LVM, LUKS or a loop). raid1/
 * raid10: btrfs's own mirroring in place of md, over every member device
 * (no raid section; sb_spec_part.spans_devices): mkfs.btrfs over them all,
 * `btrfs device scan` of each so the kernel assembles the filesystem, and
 * the first member is the device the mount layer mounts. -f only on
 * devices this stack's state records (ones this build just created), as
 * xfs.c; a given disk must be clean. Recorded: each scanned member, so
 * teardown makes the kernel forget it before the loop goes. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <blockdev/utils.h>

#include "core/layer.h"
#include "core/stack.h"
#include "layers/array_model.h"
#include "layers/mkfs_int.h"
#include "spec/part.h"
#include "sys/sysfs.h"
#include "sys/udev.h"
#include "util/log.h"
#include "util/units.h"

/* ---- its part of the stack description ---- */

struct btrfs_spec {
	uint64_t nodesize;          /* -n bytes */
	char metadata_profile[8];   /* -m */
	char data_profile[8];       /* -d */
	char checksum[8];           /* --csum */
	char compress[8];           /* mount -o compress= */
};
_Static_assert(sizeof(struct btrfs_spec) <= SB_LAYER_DATA_MAX, "btrfs options do not fit their slot");

static const char *const btrfs_profiles[] = { "single", "dup", "raid1", "raid10", NULL };
static const char *const btrfs_csums[] = { "crc32c", "xxhash", "sha256", "blake2", NULL };
static const char *const btrfs_compress[] = { "none", "zstd", "lzo", NULL };

#define FLD SB_OPT_FLD
static const struct sb_opt btrfs_opts[] = {
	{ "nodesize", SB_OPT_SIZE, FLD(btrfs_spec, nodesize), "16KiB", 4096, 65536, NULL, NULL,
	  "btrfs metadata node size, mkfs.btrfs -n (a power of two, 4 KiB..64 KiB)" },
	{ "metadata_profile", SB_OPT_ENUM, FLD(btrfs_spec, metadata_profile), "dup", 0, 0, btrfs_profiles, NULL,
	  "btrfs metadata profile, mkfs.btrfs -m (dup: two copies on the one device, as mkfs.btrfs's default; "
	  "with a raid1/raid10 data_profile: the same as it)" },
	{ "data_profile", SB_OPT_ENUM, FLD(btrfs_spec, data_profile), "single", 0, 0, btrfs_profiles, NULL,
	  "btrfs data profile, mkfs.btrfs -d (single, as mkfs.btrfs's default; dup doubles every write; "
	  "raid1/raid10: btrfs mirrors over all the devices, in place of a raid section)" },
	{ "checksum", SB_OPT_ENUM, FLD(btrfs_spec, checksum), "crc32c", 0, 0, btrfs_csums, NULL,
	  "btrfs checksum algorithm, mkfs.btrfs --csum" },
	{ "compress", SB_OPT_ENUM, FLD(btrfs_spec, compress), "none", 0, 0, btrfs_compress, NULL,
	  "btrfs compression, the mount option compress= (none: not passed)" },
	{ .key = NULL },
};

static int btrfs_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s);
static uint64_t btrfs_min_bytes(const struct sb_stack_spec *s);
static void btrfs_mount_options(const struct sb_stack_spec *s, char *buf, size_t len);
static bool btrfs_spans(const struct sb_stack_spec *s);
static void btrfs_prefix(const struct sb_stack_spec *s, char *buf, size_t len);

static const struct sb_spec_part btrfs_part = {
	.parent = "fs",
	.opts = btrfs_opts,
	.base = SB_SPEC_OWN,
	.data_size = sizeof(struct btrfs_spec),
	.fs_type = "btrfs",
	.check = btrfs_check,
	.min_fs_bytes = btrfs_min_bytes,
	.min_fs_why = "mkfs.btrfs refuses devices under 109 MiB with its default profiles, 125 MiB with raid1",
	.mount_options = btrfs_mount_options,
	.spans_devices = btrfs_spans,
	.prefix = btrfs_prefix,
};

static const struct btrfs_spec *btrfs_of(const struct sb_stack_spec *s)
{
	return sb_spec_layer_cdata(s, &btrfs_part);
}

static bool btrfs_raid_profile(const char *p)
{
	return !strncmp(p, "raid", 4);
}

/* raid1/raid10 in either profile: the filesystem spans the devices. */
static bool btrfs_spans(const struct sb_stack_spec *s)
{
	const struct btrfs_spec *b = btrfs_of(s);

	return !strcmp(s->fs.type, "btrfs") &&
	       (btrfs_raid_profile(b->data_profile) || btrfs_raid_profile(b->metadata_profile));
}

/* mkfs.btrfs 6.2's smallest device, in MiB, is 45 + a share for each
 * profile (metadata: dup 64, raid1/raid10 24; data: dup 120, raid1/raid10
 * 56; single 0): fitted to its 'minimum size for each btrfs device' for
 * all nine single/dup/raid1 pairs, exact to the byte (109 MiB for the
 * default dup/single, 125 for raid1/raid1, 229 for dup/dup; raid10 as
 * raid1). Per device: without md each loop device is one member. */
/* Spanning: "btrfs raid1 ×2 on " before the devices, as md's "RAID1 ×2 on ". */
static void btrfs_prefix(const struct sb_stack_spec *s, char *buf, size_t len)
{
	const struct btrfs_spec *b = btrfs_of(s);

	if (btrfs_spans(s))
		sb_spec_append(buf, len, "btrfs %s ×%u on ", btrfs_raid_profile(b->data_profile) ?
			       b->data_profile : b->metadata_profile,
			       s->devices.kind == SB_DEVICES_LOOP ? s->devices.loop.count : s->devices.ndisks);
}

static uint64_t btrfs_min_bytes(const struct sb_stack_spec *s)
{
	const struct btrfs_spec *b = btrfs_of(s);
	uint64_t mib = 45;

	if (strcmp(s->fs.type, "btrfs"))
		return 0;
	mib += !strcmp(b->metadata_profile, "dup") ? 64 : btrfs_raid_profile(b->metadata_profile) ? 24 : 0;
	mib += !strcmp(b->data_profile, "dup") ? 120 : btrfs_raid_profile(b->data_profile) ? 56 : 0;
	return mib * SB_MiB;
}

/* fs.mkfs_options for mkfs.btrfs: only feature lists (-O, -R), words of
 * [a-z0-9_^-] joined by commas. Nothing that names a file or device
 * (--rootdir, -b over the device), forces (-f) or changes what the keys
 * above say. */
static int btrfs_check_mkfs(const struct sb_spec_ctx *c, const char *opts)
{
	char words[SB_OPTSTR_MAX], *save = NULL, *w, *val;

	snprintf(words, sizeof(words), "%s", opts);
	for (w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		bool flag = !strcmp(w, "-O") || !strcmp(w, "-R");

		val = flag ? strtok_r(NULL, " \t", &save) : NULL;
		if (!flag || !val || strspn(val, "abcdefghijklmnopqrstuvwxyz0123456789_^-,") != strlen(val))
			return sb_spec_fail_at(c, "fs.mkfs_options", false,
					       "fs.mkfs_options: '%s%s%s' is not allowed for btrfs; allowed: "
					       "-O FEATURE,..., -R FEATURE,...", w, val ? " " : "", val ? val : "");
	}
	return 0;
}

/* fs.compress is a mount option: the mount layer joins it after
 * fs.mount_options (sb_spec_part.mount_options). */
static void btrfs_mount_options(const struct sb_stack_spec *s, char *buf, size_t len)
{
	const struct btrfs_spec *b = btrfs_of(s);

	if (strcmp(b->compress, "none"))
		snprintf(buf, len, "compress=%s", b->compress);
}

/* raid1/raid10 profiles: btrfs's mirrors over the members. mkfs.btrfs
 * 6.2 needs 2 devices for either (raid10's minimum is 2 since 5.15;
 * measured). Nothing may sit between the members and btrfs: md would make
 * them one device (a mirror under a mirror, and btrfs's raid1 cannot be
 * made on one device), LVM and LUKS take one device each. */
static int btrfs_check_members(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct btrfs_spec *b = sb_spec_layer_data(s, &btrfs_part);
	bool loop = s->devices.kind == SB_DEVICES_LOOP;
	const char *prof = btrfs_raid_profile(b->data_profile) ? b->data_profile : b->metadata_profile;
	uint32_t have;

	if (!btrfs_spans(s))
		return 0;
	if (btrfs_raid_profile(b->data_profile) && !sb_spec_given(c, "fs.metadata_profile"))
		snprintf(b->metadata_profile, sizeof(b->metadata_profile), "%s", b->data_profile);
	if (s->raid.enabled)
		return sb_spec_fail_at(c, "raid", false,
				       "raid: btrfs profile %s mirrors over the member devices itself; with md below it "
				       "has one device; drop the raid section, or use fs profiles single/dup", prof);
	if (s->lvm.enabled || s->luks.enabled)
		return sb_spec_fail_at(c, s->lvm.enabled ? "lvm" : "luks", false,
				       "%s: btrfs profile %s takes the member devices themselves; %s would give it one",
				       s->lvm.enabled ? "lvm" : "luks", prof, s->lvm.enabled ? "LVM" : "LUKS");
	if (loop && !sb_spec_given(c, "devices.loop.count"))
		s->devices.loop.count = strcmp(prof, "raid10") ? 2 : 4;
	have = loop ? s->devices.loop.count : s->devices.ndisks;
	if (have < 2)
		return sb_spec_fail_at(c, loop ? "devices.loop.count" : "devices.disks", true,
				       "%s: btrfs profile %s needs at least 2 devices, got %u",
				       loop ? "devices.loop.count" : "devices.disks", prof, have);
	return 0;
}

static int btrfs_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	const struct btrfs_spec *b = btrfs_of(s);
	int rc;

	if (strcmp(s->fs.type, "btrfs"))
		return 0;
	if (sb_spec_given(c, "fs.lazy_init"))
		return sb_spec_fail_at(c, "fs.lazy_init", true,
				       "fs.lazy_init: is ext4's (lazy inode tables); btrfs initialises nothing in the background");
	/* x86's btrfs: the sector size is the page size (subpage blocks are
	 * for 64 KiB-page machines) */
	if (s->fs.block_size != 4096)
		return sb_spec_fail_at(c, "fs.block_size", true,
				       "fs.block_size: btrfs's sector size must be the page size, 4096, not %u",
				       s->fs.block_size);
	if (!sb_spec_is_pow2(b->nodesize) || b->nodesize < s->fs.block_size)
		return sb_spec_fail_at(c, "fs.nodesize", false,
				       "fs.nodesize: %llu bytes must be a power of two, at least fs.block_size %u",
				       (unsigned long long)b->nodesize, s->fs.block_size);
	rc = btrfs_check_members(c, s);
	return rc ? rc : btrfs_check_mkfs(c, s->fs.mkfs_options);
}

/* ---- the layer ---- */

/* mkfs.btrfs's arguments; the devices are added last by the caller. */
static void btrfs_args(const struct sb_stack_spec *spec, bool force, struct sb_mkfs_args *a)
{
	const struct btrfs_spec *b = btrfs_of(spec);
	char v[32];

	memset(a, 0, sizeof(*a));
	sb_mkfs_args_add(a, "mkfs.btrfs", NULL);
	if (force)
		sb_mkfs_args_add(a, "-f", NULL);
	sb_mkfs_args_add(a, "-q", NULL);
	sb_mkfs_args_add(a, "-L", "stackbench");
	snprintf(v, sizeof(v), "%u", spec->fs.block_size);
	sb_mkfs_args_add(a, "-s", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)b->nodesize);
	sb_mkfs_args_add(a, "-n", v);
	sb_mkfs_args_add(a, "-m", b->metadata_profile);
	sb_mkfs_args_add(a, "-d", b->data_profile);
	sb_mkfs_args_add(a, "--csum", b->checksum);
	sb_mkfs_args_words(a, spec->fs.mkfs_options);
}

static unsigned btrfs_members(const struct sb_stack_spec *s)
{
	return s->devices.kind == SB_DEVICES_LOOP ? s->devices.loop.count : s->devices.ndisks;
}

static void btrfs_plan(const struct sb_layer *l, struct sb_plan *p)
{
	char dev[SB_PATH_MAX], cmd[1024];
	struct sb_mkfs_args *a = calloc(1, sizeof(*a));

	if (!a)
		return;
	sb_layer_predict_dev(l->below, dev, sizeof(dev));
	btrfs_args(l->spec, sb_mkfs_plan_force(l), a);
	sb_mkfs_args_join(a, cmd, sizeof(cmd));
	if (!btrfs_spans(l->spec)) {
		sb_plan_build(p, "btrfs: wait for udev, then%s %s", cmd, dev);
		sb_plan_teardown(p, "btrfs: nothing to remove (the filesystem goes with the device below)");
	} else {
		sb_plan_build(p, "btrfs: wait for udev, then%s %s (all %u), then btrfs device scan each; "
			      "the first is the one mounted", cmd, dev, btrfs_members(l->spec));
		sb_plan_teardown(p, "btrfs: btrfs device scan --forget each member");
	}
	free(a);
}

/* Run the pairs as one command line: opt[0] the program, each value
 * after its option. */
static int btrfs_exec(const struct sb_mkfs_args *a, struct sb_err *err)
{
	const gchar *argv[2 * SB_MKFS_ARGS_MAX + 1];
	GError *gerr = NULL;
	unsigned i, n = 0;

	for (i = 0; i < a->n; i++) {
		argv[n++] = a->opt[i];
		if (a->val[i][0])
			argv[n++] = a->val[i];
	}
	argv[n] = NULL;
	sb_verbose("btrfs: %s ... %s", a->opt[0], a->opt[a->n - 1]);
	if (bd_utils_exec_and_report_error(argv, NULL, &gerr))
		return 0;
	sb_err_set(err, -EIO, "%s on %s failed: %s", a->opt[0], a->opt[a->n - 1],
		   gerr ? gerr->message : "unknown error");
	g_clear_error(&gerr);
	return -EIO;
}

/* `btrfs device scan [--forget] DEV`: register a member with the kernel
 * (so mounting one finds the others), or make it forget it. */
static int btrfs_scan(const char *dev, bool forget, struct sb_err *err)
{
	struct sb_mkfs_args a = { 0 };

	sb_mkfs_args_add(&a, "btrfs", NULL);
	sb_mkfs_args_add(&a, "device", NULL);
	sb_mkfs_args_add(&a, "scan", NULL);
	if (forget)
		sb_mkfs_args_add(&a, "--forget", NULL);
	sb_mkfs_args_add(&a, dev, NULL);
	return btrfs_exec(&a, err);
}

/* The members: recorded before the scan that registers them; then the
 * kernel knows the filesystem, and any member mounts it. */
static int btrfs_register(struct sb_layer *l, struct sb_err *err)
{
	unsigned i;
	int rc = 0;

	for (i = 0; i < l->below->ndev && !rc; i++) {
		rc = sb_state_add(&l->stack->state, "btrfs", "member", l->below->dev[i], NULL, err);
		if (!rc)
			rc = btrfs_scan(l->below->dev[i], false, err);
	}
	return rc;
}

static int btrfs_build(struct sb_layer *l, struct sb_err *err)
{
	bool spans = btrfs_spans(l->spec), force = true;
	struct sb_mkfs_args *a;
	unsigned i, n;
	int rc;

	n = l->below ? l->below->ndev : 0;
	if (spans ? n != btrfs_members(l->spec) : n != 1)
		return sb_err_set(err, -EINVAL, "btrfs needs %u device%s below it, not %u",
				  spans ? btrfs_members(l->spec) : 1, spans ? "s" : "", n);
	a = calloc(1, sizeof(*a));
	if (!a)
		return sb_err_set(err, -ENOMEM, "out of memory");
	rc = sb_udev_settle(SB_UDEV_TIMEOUT_MS, err);
	if (!rc) {
		for (i = 0; i < n; i++)
			force &= sb_layer_dev_is_ours(l, l->below->dev[i]);
		btrfs_args(l->spec, force, a);
		for (i = 0; i < n; i++)
			sb_mkfs_args_add(a, l->below->dev[i], NULL);
		rc = btrfs_exec(a, err);
	}
	free(a);
	if (!rc && spans)
		rc = btrfs_register(l, err);
	if (rc)
		return rc;
	sb_mkfs_expose(l);
	return sb_udev_settle(SB_UDEV_TIMEOUT_MS, err);
}

/* What it exposes: the first device below, the one mounted. */
static int btrfs_attach(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	(void)st;
	if (!l->below || !l->below->ndev)
		return sb_err_set(err, -ENODEV, "btrfs: no device below it to attach");
	sb_mkfs_expose(l);
	return 0;
}

static void btrfs_predict(const struct sb_layer *l, char *out, size_t len)
{
	char below[SB_PATH_MAX];

	sb_layer_predict_dev(l->below, below, sizeof(below));
	if (btrfs_spans(l->spec))
		snprintf(out, len, "the first of %s", below);
	else
		snprintf(out, len, "%s", below);
}

static void btrfs_blkid(const char *dev, struct json_object *out, char *uuid, size_t len)
{
	struct sb_fs_ids ids;

	if (sb_fs_read_super(dev, 0, NULL, 0, &ids, NULL))
		return;
	sb_fs_ids_json(&ids, true, out);
	snprintf(uuid, len, "%s", ids.uuid);
}

/* One line of /sys/fs/btrfs/UUID/NAME, its first word. */
static bool btrfs_sysfs(const char *uuid, const char *name, char *buf, size_t len)
{
	char path[SB_PATH_MAX];

	snprintf(path, sizeof(path), "/sys/fs/btrfs/%s/%s", uuid, name);
	if (sb_sysfs_read_str(path, buf, len, NULL))
		return false;
	buf[strcspn(buf, " \t")] = '\0';
	return buf[0] != '\0';
}

/* The profile in effect: the one allocation/KIND/PROFILE directory. */
static void btrfs_profile(const char *uuid, const char *kind, struct json_object *out, const char *key)
{
	const char *const all[] = { "single", "dup", "raid1", "raid10", "raid0", "raid5", "raid6",
				    "raid1c3", "raid1c4", NULL };
	char path[SB_PATH_MAX];
	struct stat st;
	unsigned i;

	for (i = 0; all[i]; i++) {
		snprintf(path, sizeof(path), "/sys/fs/btrfs/%s/allocation/%s/%s", uuid, kind, all[i]);
		if (stat(path, &st) == 0) {
			json_object_object_add(out, key, json_object_new_string(all[i]));
			return;
		}
	}
}

/* The member devices the mounted filesystem has (/sys/fs/btrfs/UUID/devices/). */
static void btrfs_devices(const char *uuid, struct json_object *out)
{
	char path[SB_PATH_MAX];
	struct json_object *arr;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/fs/btrfs/%s/devices", uuid);
	d = opendir(path);
	if (!d)
		return;
	arr = json_object_new_array();
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			json_object_array_add(arr, json_object_new_string(de->d_name));
	closedir(d);
	json_object_object_add(out, "members", arr);
}

/* libblkid: type, UUID, label; the mounted filesystem's sysfs directory:
 * sector and node size, checksum, profiles (none of it before mount). */
static int btrfs_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	const char *num[] = { "sectorsize", "sector_size", "nodesize", "nodesize" };
	char uuid[64] = "", v[64];
	unsigned i;

	(void)err;
	if (!l->ndev)
		return 0;
	btrfs_blkid(l->dev[0], out, uuid, sizeof(uuid));
	if (!uuid[0])
		return 0;
	for (i = 0; i < 4; i += 2)
		if (btrfs_sysfs(uuid, num[i], v, sizeof(v)))
			json_object_object_add(out, num[i + 1], json_object_new_int64(strtoll(v, NULL, 10)));
	if (btrfs_sysfs(uuid, "checksum", v, sizeof(v)))
		json_object_object_add(out, "checksum", json_object_new_string(v));
	btrfs_profile(uuid, "data", out, "data_profile");
	btrfs_profile(uuid, "metadata", out, "metadata_profile");
	btrfs_devices(uuid, out);
	return 0;
}

/* A member the kernel registered: forget it (after the unmount, before
 * the device below goes). Gone already (its loop detached): nothing to do. */
static int btrfs_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	struct stat st;

	if (strcmp(obj->kind, "member") || stat(obj->id, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	return btrfs_scan(obj->id, true, err);
}

/* A registration is not an object with a name of its own (sysfs shows a
 * filesystem's devices only while it is mounted, which the mount layer
 * checks), and the device node it names is the layer below's: nothing
 * btrfs itself leaves that the leftover check could see. */
static bool btrfs_exists(const struct sb_state_obj *obj)
{
	(void)obj;
	return false;
}

/* bench.per_layer: the raw jobs on a file of the mounted filesystem
 * (.pl_file), modelled from the devices below. raid1/raid10 as md's
 * arithmetic (array_model.c) with btrfs's own numbers: two copies of
 * every chunk whatever the device count, raid10 striping over n/2 pairs
 * (an even count of devices per chunk), and a process reads the copy its
 * pid picks (volumes.c find_live_mirror, read_policy "pid"): a stream or
 * the random reads of one job read one copy, not every member.
 * single/dup: what is below, dup writing each block twice. */
static void btrfs_pl_model(const struct sb_stack_spec *spec, struct json_object *row,
			   const struct sb_pl_below *b, struct sb_pl_model *m)
{
	const char *prof = btrfs_of(spec)->data_profile;
	double d = b->n >= 4 && !strcmp(prof, "raid10") ? b->n / 2 : 1;

	(void)row;
	snprintf(m->note, sizeof(m->note), "btrfs: measured on a file of the mounted filesystem (O_DIRECT), "
		 "so its checksums and metadata are in the figures");
	if (btrfs_raid_profile(prof)) {
		sb_pl_array(b, d, d, d, m);
		sb_pl_why(m, 0, "btrfs %s: two copies of every block: %.0f x the slowest member", prof, d);
		sb_pl_why(m, 1, "btrfs %s: a stream reads one copy (its pid picks the mirror): %.0f x a member", prof, d);
		sb_pl_why(m, 2, "btrfs %s: one job's random reads go to the copy its pid picks: %.0f x a member", prof, d);
		return;
	}
	if (!strcmp(prof, "dup") && m->exp.v[0] >= 0)
		m->exp.v[0] /= 2;
	sb_pl_why(m, 0, !strcmp(prof, "dup") ? "btrfs dup: every block written twice on the one device: 1/2 what is below"
		  : "btrfs single: what is below");
	sb_pl_why(m, 1, "btrfs %s: what is below", prof);
	sb_pl_why(m, 2, "btrfs %s: what is below", prof);
}

const struct sb_layer_ops sb_layer_btrfs = {
	.name = "btrfs",
	.label = sb_layer_label_name,
	.spec = &btrfs_part,
	.order = SB_ORDER_FS,
	.kernel_needs = (const char *const[]){ "fs:btrfs", NULL },
	.predict_dev = btrfs_predict,
	.attach = btrfs_attach,
	.plan = btrfs_plan,
	.build = btrfs_build,
	.describe = btrfs_describe,
	.teardown = btrfs_teardown,
	.exists = btrfs_exists,
	.pl_file = true,
	.pl_model = btrfs_pl_model,
};
