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
#include "core/stack.h"
#include "layers/mkfs_int.h"
#include "spec/part.h"

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

/* The mke2fs options this layer passes, in order. */
static void ext4_args(const struct sb_stack_spec *spec, struct sb_mkfs_args *a)
{
	char bs[16], ext[SB_OPTSTR_MAX] = "";
	uint32_t stride, width;
	size_t n = 0;

	memset(a, 0, sizeof(*a));
	snprintf(bs, sizeof(bs), "%u", spec->fs.block_size ? spec->fs.block_size : 4096);
	sb_mkfs_args_add(a, "-b", bs);
	if (!spec->fs.lazy_init)
		n += snprintf(ext + n, sizeof(ext) - n, "lazy_itable_init=0,lazy_journal_init=0");
	ext4_geometry(spec, &stride, &width);
	if (stride)
		n += snprintf(ext + n, sizeof(ext) - n, "%sstride=%u", n ? "," : "", stride);
	if (width)
		n += snprintf(ext + n, sizeof(ext) - n, "%sstripe_width=%u", n ? "," : "", width);
	if (ext[0])
		sb_mkfs_args_add(a, "-E", ext);
	sb_mkfs_args_add(a, "-L", "stackbench");
	/* Extra options from the stack file, split on spaces, passed as is. */
	sb_mkfs_args_words(a, spec->fs.mkfs_options);
}

static void ext4_plan(const struct sb_layer *l, struct sb_plan *p)
{
	char dev[SB_PATH_MAX], cmd[1024];
	struct sb_mkfs_args a;

	ext4_args(l->spec, &a);
	sb_mkfs_args_join(&a, cmd, sizeof(cmd));
	sb_layer_predict_dev(l->below, dev, sizeof(dev));
	sb_plan_build(p, "ext4: mkfs.ext4%s on %s (libblockdev fs plugin)", cmd, dev);
	sb_plan_teardown(p, "ext4: nothing to remove (the filesystem goes with the device below)");
}

static int ext4_build(struct sb_layer *l, struct sb_err *err)
{
	struct sb_mkfs_args *a;
	int rc;

	rc = sb_mkfs_begin(l, &a, err);
	if (rc)
		return rc;
	ext4_args(l->spec, a);
	/* No settle before or after: mke2fs and the mount open the device
	 * exclusively, udev's blkid never does; the removals at teardown
	 * settle and retry while udev holds the device. */
	rc = sb_mkfs_run(bd_fs_ext4_mkfs, "mkfs.ext4", l->below->dev[0], a, err);
	free(a);
	if (rc)
		return rc;
	sb_mkfs_expose(l);
	return 0;
}

/* What the superblock says, read directly (libblkid gives type and UUID but
 * not the RAID hints). Offsets from the ext4 on-disk format. */
static int ext4_read_sb(const char *dev, struct sb_mkfs_super *info, struct sb_err *err)
{
	unsigned char sb[1024];
	int rc;

	rc = sb_fs_read_super(dev, 1024, sb, sizeof(sb), &info->ids, err);
	if (rc)
		return rc;
	if (le16toh(*(uint16_t *)(sb + 0x38)) != 0xEF53)
		return sb_err_set(err, -EINVAL, "%s has no ext2/3/4 superblock", dev);
	info->block_size = 1024u << le32toh(*(uint32_t *)(sb + 0x18));
	info->blocks = le32toh(*(uint32_t *)(sb + 0x4)) | ((uint64_t)le32toh(*(uint32_t *)(sb + 0x150)) << 32);
	info->fig[0].key = "stride";
	info->fig[0].v = le16toh(*(uint16_t *)(sb + 0x164));
	info->fig[1].key = "stripe_width";
	info->fig[1].v = le32toh(*(uint32_t *)(sb + 0x170));
	info->nfig = 2;
	return 0;
}

static int ext4_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	int rc = sb_mkfs_describe(l, ext4_read_sb, false, out, err);

	if (!rc && l->ndev)
		json_object_object_add(out, "lazy_init", json_object_new_boolean(l->spec->fs.lazy_init));
	return rc;
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
	.label = sb_layer_label_name,
	.plan = ext4_plan,
	.build = ext4_build,
	.describe = ext4_describe,
};
