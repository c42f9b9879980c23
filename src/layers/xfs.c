/* xfs: mkfs.xfs through libblockdev's fs plugin on the single device below,
 * selected by fs.type: xfs. The stripe unit and width (-d su=,sw=) follow
 * the RAID geometry as ext4's stride/stripe_width do: RAID10: the chunk
 * and the data-disk count; RAID1 and no RAID: none. -f (overwrite an old
 * signature) only on a device this stack's state records, i.e. one this
 * build just created; anything else (disks) must be clean, as the safety
 * checks left it. mkfs creates no kernel object: nothing is recorded. */
#include <blkid/blkid.h>
#include <endian.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <blockdev/fs.h>

#include "core/layer.h"
#include "core/stack.h"
#include "layers/mkfs_int.h"
#include "spec/part.h"
#include "sys/udev.h"
#include "util/units.h"

/* ---- its part of the stack description ---- */

struct xfs_spec {
	uint64_t su;              /* -d su= bytes; 0 = derived from the RAID chunk */
	uint32_t sw;              /* -d sw= stripe units per stripe; 0 = derived */
};
_Static_assert(sizeof(struct xfs_spec) <= SB_LAYER_DATA_MAX, "xfs options do not fit their slot");

#define FLD SB_OPT_FLD
static const struct sb_opt xfs_opts[] = {
	{ "su", SB_OPT_SIZE, FLD(xfs_spec, su), "0", 0, 1ULL << 30, NULL, NULL,
	  "xfs stripe unit, mkfs.xfs -d su= (0: the RAID5/6/10 chunk; none on RAID1)" },
	{ "sw", SB_OPT_U32, FLD(xfs_spec, sw), "0", 0, SB_MAX_DISKS, NULL, NULL,
	  "xfs stripe width in stripe units, mkfs.xfs -d sw= (0: the data disks: RAID5 n-1, RAID6 n-2, RAID10 n/copies)" },
	{ .key = NULL },
};

static int xfs_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s);
static uint64_t xfs_min_bytes(const struct sb_stack_spec *s);

static const struct sb_spec_part xfs_part = {
	.parent = "fs",
	.opts = xfs_opts,
	.base = SB_SPEC_OWN,
	.data_size = sizeof(struct xfs_spec),
	.fs_type = "xfs",
	.check = xfs_check,
	.min_fs_bytes = xfs_min_bytes,
	.min_fs_why = "mkfs.xfs refuses filesystems under 300 MiB, or under 513 MiB with a stripe unit",
};

static const struct xfs_spec *xfs_of(const struct sb_stack_spec *s)
{
	return sb_spec_layer_cdata(s, &xfs_part);
}

/* su/sw in effect: given, else md's chunk and data disks; RAID1 has no
 * stripes (every member holds everything). */
static void xfs_geometry(const struct sb_stack_spec *s, uint64_t *su, uint32_t *sw)
{
	const struct xfs_spec *x = xfs_of(s);
	uint64_t chunk;
	uint32_t data;

	*su = x->su;
	*sw = x->sw;
	if (sb_spec_raid_stripes(s, &chunk, &data)) {   /* md's geometry: RAID5/6/10 */
		if (!*su)
			*su = chunk;
		if (!*sw)
			*sw = data;
	}
	if (*su && !*sw)
		*sw = 1;
}

/* xfsprogs 6: at least 300 MiB; with stripe alignment more allocation
 * groups, and the 64 MiB log must fit in one: above 512 MiB (measured with
 * mkfs.xfs 6.1 on su=64k..512k, sw=2). */
static uint64_t xfs_min_bytes(const struct sb_stack_spec *s)
{
	uint64_t su;
	uint32_t sw;

	if (strcmp(s->fs.type, "xfs"))
		return 0;
	xfs_geometry(s, &su, &sw);
	return su ? 513 * SB_MiB : 300 * SB_MiB;
}

/* fs.mkfs_options for mkfs.xfs: only what shapes the filesystem under a
 * benchmark (as ext4's list does for mke2fs): -m/-i/-l/-n/-d with their
 * geometry sub-options, -K. Nothing that names a file or another device
 * (-p, -l logdev=, -r rtdev=, -c options=) or forces (-f). */
static const char *const xfs_subopts[] = {
	"-m", "crc=,finobt=,rmapbt=,reflink=,inobtcount=,bigtime=",
	"-i", "size=,maxpct=,sparse=,attr=,projid32bit=,nrext64=",
	"-l", "size=,lazy-count=,version=,su=",
	"-n", "size=,ftype=",
	"-d", "agcount=,agsize=",
	NULL,
};

static bool xfs_subopts_ok(const char *list, const char *val)
{
	char buf[SB_OPTSTR_MAX], *save = NULL, *kv, *eq, key[32];
	const char *p;

	snprintf(buf, sizeof(buf), "%s", val);
	for (kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		eq = strchr(kv, '=');
		if (!eq || eq == kv || !eq[1] || (size_t)(eq - kv) + 2 > sizeof(key))
			return false;
		for (p = eq + 1; *p; p++)
			if (!strchr("0123456789kmgKMG", *p))
				return false;
		snprintf(key, sizeof(key), "%.*s=", (int)(eq - kv), kv);
		p = strstr(list, key);
		if (!p || (p != list && p[-1] != ','))
			return false;
	}
	return val[0] && val[strlen(val) - 1] != ',';
}

static int xfs_check_mkfs(const struct sb_spec_ctx *c, const char *opts)
{
	char words[SB_OPTSTR_MAX], *save = NULL, *w, *val;
	unsigned i;

	snprintf(words, sizeof(words), "%s", opts);
	for (w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(w, "-K"))
			continue;
		for (i = 0; xfs_subopts[i] && strcmp(xfs_subopts[i], w); i += 2)
			;
		val = xfs_subopts[i] ? strtok_r(NULL, " \t", &save) : NULL;
		if (!xfs_subopts[i] || !val || !xfs_subopts_ok(xfs_subopts[i + 1], val))
			return sb_spec_fail_at(c, "fs.mkfs_options", false,
					       "fs.mkfs_options: '%s%s%s' is not allowed for xfs; allowed: -K, "
					       "-m crc=N,finobt=N,rmapbt=N,reflink=N,inobtcount=N,bigtime=N, "
					       "-i size=N,maxpct=N,sparse=N,attr=N,projid32bit=N,nrext64=N, "
					       "-l size=N,lazy-count=N,version=N,su=N, -n size=N,ftype=N, "
					       "-d agcount=N,agsize=N", w, val ? " " : "", val ? val : "");
	}
	return 0;
}

static int xfs_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	const struct xfs_spec *x = xfs_of(s);
	uint64_t su;
	uint32_t sw;

	if (strcmp(s->fs.type, "xfs"))
		return 0;
	if (sb_spec_given(c, "fs.lazy_init"))
		return sb_spec_fail_at(c, "fs.lazy_init", true,
				       "fs.lazy_init: is ext4's (lazy inode tables); xfs initialises nothing in the background");
	if (x->sw && !x->su && !sb_spec_raid_stripes(s, &su, &sw))
		return sb_spec_fail_at(c, "fs.sw", false, "fs.sw: needs fs.su (a stripe width counts stripe units)");
	xfs_geometry(s, &su, &sw);
	if (su && (su % s->fs.block_size || !sb_spec_is_pow2(su)))
		return sb_spec_fail_at(c, "fs.su", false,
				       "fs.su: %llu bytes must be a power of two and a multiple of fs.block_size %u",
				       (unsigned long long)su, s->fs.block_size);
	return xfs_check_mkfs(c, s->fs.mkfs_options);
}

/* ---- the layer ---- */

/* The mkfs.xfs options this layer passes, in order. */
static void xfs_args(const struct sb_stack_spec *spec, bool force, struct sb_mkfs_args *a)
{
	char v[SB_OPTSTR_MAX];
	uint64_t su;
	uint32_t sw;

	memset(a, 0, sizeof(*a));
	if (force)
		sb_mkfs_args_add(a, "-f", NULL);
	snprintf(v, sizeof(v), "size=%u", spec->fs.block_size ? spec->fs.block_size : 4096);
	sb_mkfs_args_add(a, "-b", v);
	xfs_geometry(spec, &su, &sw);
	if (su) {
		snprintf(v, sizeof(v), "su=%llu,sw=%u", (unsigned long long)su, sw);
		sb_mkfs_args_add(a, "-d", v);
	}
	sb_mkfs_args_add(a, "-L", "stackbench");
	/* Extra options from the stack file (checked), split on spaces. */
	sb_mkfs_args_words(a, spec->fs.mkfs_options);
}

static void xfs_plan(const struct sb_layer *l, struct sb_plan *p)
{
	char dev[SB_PATH_MAX], cmd[1024];
	struct sb_mkfs_args *a = calloc(1, sizeof(*a));

	if (!a)
		return;
	xfs_args(l->spec, sb_mkfs_plan_force(l), a);
	sb_mkfs_args_join(a, cmd, sizeof(cmd));
	sb_layer_predict_dev(l->below, dev, sizeof(dev));
	sb_plan_build(p, "xfs: wait for udev, then mkfs.xfs%s on %s (libblockdev fs plugin)", cmd, dev);
	sb_plan_teardown(p, "xfs: nothing to remove (the filesystem goes with the device below)");
	free(a);
}

static int xfs_build(struct sb_layer *l, struct sb_err *err)
{
	struct sb_mkfs_args *a;
	const char *dev;
	int rc;

	rc = sb_mkfs_begin(l, &a, err);
	if (rc)
		return rc;
	dev = l->below->dev[0];
	rc = sb_udev_settle(SB_UDEV_TIMEOUT_MS, err);
	if (!rc) {
		xfs_args(l->spec, sb_layer_dev_is_ours(l, dev), a);
		rc = sb_mkfs_run(bd_fs_xfs_mkfs, "mkfs.xfs", dev, a, err);
	}
	free(a);
	if (rc)
		return rc;
	sb_mkfs_expose(l);
	/* udev's blkid probes the new filesystem; let it finish first */
	return sb_udev_settle(SB_UDEV_TIMEOUT_MS, err);
}

/* What the superblock says (big-endian, struct xfs_dsb): libblkid gives
 * type, UUID and label, the stripe geometry only the superblock. */
static uint32_t be32_at(const unsigned char *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, sizeof(v));
	return be32toh(v);
}

static int xfs_read_sb(const char *dev, struct sb_mkfs_super *info, struct sb_err *err)
{
	unsigned char sb[512];
	uint32_t sunit, swidth;   /* in blocks */
	int rc;

	rc = sb_fs_read_super(dev, 0, sb, sizeof(sb), &info->ids, err);
	if (rc)
		return rc;
	if (be32_at(sb, 0) != 0x58465342)   /* "XFSB" */
		return sb_err_set(err, -EINVAL, "%s has no xfs superblock", dev);
	info->block_size = be32_at(sb, 4);
	info->blocks = (uint64_t)be32_at(sb, 8) << 32 | be32_at(sb, 12);   /* sb_dblocks */
	sunit = be32_at(sb, 184);
	swidth = be32_at(sb, 188);
	info->fig[0].key = "agcount";
	info->fig[0].v = be32_at(sb, 88);
	info->fig[1].key = "su";
	info->fig[1].v = (int64_t)sunit * info->block_size;
	info->fig[2].key = "sw";
	info->fig[2].v = sunit ? swidth / sunit : 0;
	info->nfig = 3;
	return 0;
}

static int xfs_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	return sb_mkfs_describe(l, xfs_read_sb, true, out, err);
}

const struct sb_layer_ops sb_layer_xfs = {
	.name = "xfs",
	.label = sb_layer_label_name,
	.spec = &xfs_part,
	.order = SB_ORDER_FS,
	.kernel_needs = (const char *const[]){ "fs:xfs", NULL },
	.plan = xfs_plan,
	.build = xfs_build,
	.describe = xfs_describe,
};
