/* ext4: mkfs through libblockdev's fs plugin (mke2fs underneath) on the
 * single device below. Block size as asked; stride/stripe_width derived
 * from the RAID geometry unless given; lazy inode table and journal init
 * off unless asked, so no background initialisation disturbs benchmarks.
 * mkfs creates no kernel object, so nothing is recorded in the state. */
#include <blkid/blkid.h>
#include <endian.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <blockdev/fs.h>

#include "core/layer.h"
#include "sys/fsprobe.h"
#include "core/stack.h"
#include "spec/part.h"
#include "sys/blockdev.h"
#include "util/log.h"

#define MAX_ARGS 48

/* stride = chunk / block; stripe_width = stride * data disks, from md's
 * geometry (sb_spec_raid_stripes). RAID1 has no stripes (every member
 * holds everything): no stride. */
static void ext4_geometry(const struct sb_stack_spec *spec, uint32_t *stride, uint32_t *width)
{
	uint32_t bs = spec->fs.block_size ? spec->fs.block_size : 4096, data;
	uint64_t chunk;

	*stride = spec->fs.stride;
	*width = spec->fs.stripe_width;
	if (!sb_spec_raid_stripes(spec, &chunk, &data))
		return;
	if (!*stride)
		*stride = (uint32_t)(chunk / bs);
	if (!*width)
		*width = *stride * data;
}

/* The mke2fs options this layer passes, in order, as opt/value pairs. */
struct ext4_args {
	unsigned n;
	char opt[MAX_ARGS][SB_OPTSTR_MAX];
	char val[MAX_ARGS][SB_OPTSTR_MAX];
};

static void add_arg(struct ext4_args *a, const char *opt, const char *val)
{
	if (a->n >= MAX_ARGS)
		return;
	snprintf(a->opt[a->n], SB_OPTSTR_MAX, "%s", opt);
	snprintf(a->val[a->n], SB_OPTSTR_MAX, "%s", val ? val : "");
	a->n++;
}

static void ext4_args(const struct sb_stack_spec *spec, struct ext4_args *a)
{
	char bs[16], ext[SB_OPTSTR_MAX] = "", words[SB_OPTSTR_MAX], *tok, *save;
	uint32_t stride, width;
	size_t n = 0;

	memset(a, 0, sizeof(*a));
	snprintf(bs, sizeof(bs), "%u", spec->fs.block_size ? spec->fs.block_size : 4096);
	add_arg(a, "-b", bs);
	if (!spec->fs.lazy_init)
		n += snprintf(ext + n, sizeof(ext) - n, "lazy_itable_init=0,lazy_journal_init=0");
	ext4_geometry(spec, &stride, &width);
	if (stride)
		n += snprintf(ext + n, sizeof(ext) - n, "%sstride=%u", n ? "," : "", stride);
	if (width)
		n += snprintf(ext + n, sizeof(ext) - n, "%sstripe_width=%u", n ? "," : "", width);
	if (ext[0])
		add_arg(a, "-E", ext);
	add_arg(a, "-L", "stackbench");
	/* Extra options from the stack file, split on spaces, passed as is. */
	snprintf(words, sizeof(words), "%s", spec->fs.mkfs_options);
	for (tok = strtok_r(words, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		add_arg(a, tok, NULL);
}

static void ext4_plan(const struct sb_layer *l, struct sb_plan *p)
{
	char dev[SB_PATH_MAX], cmd[1024] = "";
	struct ext4_args a;
	size_t n = 0;
	unsigned i;

	ext4_args(l->spec, &a);
	for (i = 0; i < a.n && n < sizeof(cmd); i++)
		n += snprintf(cmd + n, sizeof(cmd) - n, " %s%s%s", a.opt[i], a.val[i][0] ? " " : "", a.val[i]);
	sb_layer_predict_dev(l->below, dev, sizeof(dev));
	sb_plan_build(p, "ext4: mkfs.ext4%s on %s (libblockdev fs plugin)", cmd, dev);
	sb_plan_teardown(p, "ext4: nothing to remove (the filesystem goes with the device below)");
}

static int ext4_build(struct sb_layer *l, struct sb_err *err)
{
	const BDExtraArg *extra[MAX_ARGS + 1];
	BDExtraArg args[MAX_ARGS];
	struct ext4_args *a;
	GError *gerr = NULL;
	unsigned i;
	int rc;

	if (!l->below || l->below->ndev != 1)
		return sb_err_set(err, -EINVAL, "ext4 needs exactly one device below it, not %u",
				  l->below ? l->below->ndev : 0);
	rc = sb_blockdev_require(BD_PLUGIN_FS, err);
	if (rc)
		return rc;
	a = calloc(1, sizeof(*a));
	if (!a)
		return sb_err_set(err, -ENOMEM, "out of memory");
	ext4_args(l->spec, a);
	for (i = 0; i < a->n; i++) {
		args[i].opt = a->opt[i];
		args[i].val = a->val[i];
		extra[i] = &args[i];
	}
	extra[a->n] = NULL;
	/* No settle before or after: mke2fs and the mount open the device
	 * exclusively, udev's blkid never does; the removals at teardown
	 * settle and retry while udev holds the device. */
	sb_verbose("ext4: mkfs on %s", l->below->dev[0]);
	if (!bd_fs_ext4_mkfs(l->below->dev[0], extra, &gerr)) {
		rc = sb_err_set(err, -EIO, "mkfs.ext4 on %s failed: %s", l->below->dev[0],
				gerr ? gerr->message : "unknown error");
		g_clear_error(&gerr);
	}
	free(a);
	if (rc)
		return rc;
	l->ndev = 1;
	snprintf(l->dev[0], SB_PATH_MAX, "%s", l->below->dev[0]);
	return 0;
}

/* What the superblock says, read directly (libblkid gives type and UUID but
 * not the RAID hints). Offsets from the ext4 on-disk format. */
struct ext4_sb_info {
	uint32_t block_size, stride, stripe_width;
	uint64_t blocks;
	struct sb_fs_ids ids;
};

static int ext4_read_sb(const char *dev, struct ext4_sb_info *info, struct sb_err *err)
{
	unsigned char sb[1024];
	int rc;

	memset(info, 0, sizeof(*info));
	rc = sb_fs_read_super(dev, 1024, sb, sizeof(sb), &info->ids, err);
	if (rc)
		return rc;
	if (le16toh(*(uint16_t *)(sb + 0x38)) != 0xEF53)
		return sb_err_set(err, -EINVAL, "%s has no ext2/3/4 superblock", dev);
	info->block_size = 1024u << le32toh(*(uint32_t *)(sb + 0x18));
	info->blocks = le32toh(*(uint32_t *)(sb + 0x4)) | ((uint64_t)le32toh(*(uint32_t *)(sb + 0x150)) << 32);
	info->stride = le16toh(*(uint16_t *)(sb + 0x164));
	info->stripe_width = le32toh(*(uint32_t *)(sb + 0x170));
	return 0;
}

static int ext4_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	struct ext4_sb_info info;
	int rc;

	if (!l->ndev)
		return 0;
	rc = ext4_read_sb(l->dev[0], &info, err);
	if (rc)
		return rc;
	sb_fs_ids_json(&info.ids, false, out);
	json_object_object_add(out, "block_size", json_object_new_int64(info.block_size));
	json_object_object_add(out, "blocks", json_object_new_int64((int64_t)info.blocks));
	json_object_object_add(out, "stride", json_object_new_int64(info.stride));
	json_object_object_add(out, "stripe_width", json_object_new_int64(info.stripe_width));
	json_object_object_add(out, "lazy_init", json_object_new_boolean(l->spec->fs.lazy_init));
	return 0;
}

/* ---- ext4's part of the stack description (src/spec/part.h) ---- */
#define FLD SB_OPT_FLD

/* ext4's own keys, in the fs section (fs.stride, fs.stripe_width). */
static const struct sb_opt ext4_opts[] = {
	{ "stride", SB_OPT_U32, FLD(sb_fs_spec, stride), "0", 0, 1U << 24, NULL, NULL,
	  "ext4 stride in blocks (0: derived from the RAID chunk)" },
	{ "stripe_width", SB_OPT_U32, FLD(sb_fs_spec, stripe_width), "0", 0, 1U << 24, NULL, NULL,
	  "ext4 stripe width in blocks (0: derived from the RAID geometry)" },
	{ .key = NULL },
};

static int ext4_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	return strcmp(s->fs.type, "ext4") ? 0 : sb_spec_check_mke2fs_options(c, s);
}

static const struct sb_spec_part ext4_part = {
	.parent = "fs",
	.opts = ext4_opts,
	.base = offsetof(struct sb_stack_spec, fs),
	.fs_type = "ext4",
	.check = ext4_check,
};

const struct sb_layer_ops sb_layer_ext4 = {
	.spec = &ext4_part,
	.order = SB_ORDER_FS,
	.kernel_needs = (const char *const[]){ "fs:ext4", NULL },
	.name = "ext4",
	.plan = ext4_plan,
	.build = ext4_build,
	.describe = ext4_describe,
};
