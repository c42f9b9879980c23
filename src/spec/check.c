/* Derived defaults and impossible combinations that are no single layer's:
 * the devices, the filesystem's sectors, the loop sizes and room. Each
 * layer's own rules are its part's check (spec/part.h). Every error points
 * at the offending key (or the nearest section present) via sb_spec_where. */
#include "spec/spec_int.h"

#include <ctype.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "util/units.h"

#define AT(path) sb_spec_where(c->root, path)
#define GIVEN(path) (sb_spec_node(c->root, path) != NULL)

static int check_devices(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	const struct sb_ynode *dev = sb_spec_node(c->root, "devices");
	bool loop = GIVEN("devices.loop"), disks = GIVEN("devices.disks");

	if (loop && disks)
		return sb_spec_fail(c, AT("devices.disks"), true,
				    "devices: give either loop or disks, not both");
	if (dev && !loop && !disks)
		return sb_spec_fail(c, dev, true,
				    "devices: needs either loop: {count, size, sector_size, dir} or disks: [/dev/disk/by-id/...]");
	s->devices.kind = disks ? SB_DEVICES_DISKS : SB_DEVICES_LOOP;
	if (s->devices.nr_requests && s->devices.nr_requests < 4)
		return sb_spec_fail(c, AT("devices.nr_requests"), false,
				    "devices.nr_requests: %u; the kernel takes 4 or more", s->devices.nr_requests);
	return 0;
}

static int check_fs(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_fs_spec *f = &s->fs;
	int rc;

	if (s->luks.enabled && f->block_size < s->luks.sector_size)
		return sb_spec_fail(c, AT("fs.block_size"), false,
				    "fs.block_size: %u is smaller than luks.sector_size %u; use %u or larger",
				    f->block_size, s->luks.sector_size, s->luks.sector_size);
	if (s->devices.kind == SB_DEVICES_LOOP && f->block_size < s->devices.loop.sector_size)
		return sb_spec_fail(c, AT("fs.block_size"), false,
				    "fs.block_size: %u is smaller than the %u-byte logical sectors of the loop devices; use %u or larger",
				    f->block_size, s->devices.loop.sector_size, s->devices.loop.sector_size);
	rc = sb_spec_check_fs_keys(c, s);
	return rc < 0 ? rc : sb_spec_check_mount_options(c, s);
}

/* The directory, or its nearest existing parent, must hold every backing
 * file at full size: sparse files still fill up when benchmarked. */
static int check_space(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_loop_spec *l = &s->devices.loop;
	char dir[SB_PATH_MAX], a[32], b[32], e[32];
	struct statvfs sv;
	uint64_t need, avail;

	snprintf(dir, sizeof(dir), "%s", l->dir);
	while (statvfs(dir, &sv) < 0) {
		char *slash = strrchr(dir, '/');

		if (!slash || slash == dir)
			return 0;   /* nothing to measure against */
		*slash = '\0';
	}
	need = (uint64_t)l->count * l->size;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (need > avail) {
		sb_size_format(l->size, e, sizeof(e));
		sb_size_format_human(need, a, sizeof(a));
		sb_size_format_human(avail, b, sizeof(b));
		return sb_spec_fail(c, AT("devices.loop.size"), false,
				    "devices.loop.size: %u x %s = %s does not fit in the %s free under %s (sparse files fill up when benchmarked); use a smaller size or another devices.loop.dir",
				    l->count, e, a, b, dir);
	}
	return 0;
}

static int check_loop(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_loop_spec *l = &s->devices.loop;
	uint64_t min = s->luks.enabled ? 64ULL << 20 : 16ULL << 20;
	char a[32], b[32];

	if (s->devices.kind != SB_DEVICES_LOOP)
		return 0;
	if (l->dir[0] != '/' || strstr(l->dir, "/../") || strstr(l->dir, "/./"))
		return sb_spec_fail(c, AT("devices.loop.dir"), false,
				    "devices.loop.dir: '%s' is not an absolute path", l->dir);
	/* <dir>/<stack>/d<N> is recorded in the state and handed to the kernel:
	 * it must fit SB_PATH_MAX whole, never cut (a cut path names another
	 * file and teardown would lose the loop device). */
	if (strlen(l->dir) > SB_LOOP_DIR_MAX)
		return sb_spec_fail(c, AT("devices.loop.dir"), false,
				    "devices.loop.dir: %zu characters is too long; at most %d (the backing files "
				    "<dir>/<stack>/dN must fit in %d)", strlen(l->dir), SB_LOOP_DIR_MAX, SB_PATH_MAX - 1);
	if (l->size < min) {
		sb_size_format(l->size, a, sizeof(a));
		return sb_spec_fail(c, AT("devices.loop.size"), false,
				    "devices.loop.size: %s is too small for this stack; at least %s%s",
				    a, s->luks.enabled ? "64 MiB" : "16 MiB",
				    s->luks.enabled ? " with luks (its header alone is 16 MiB)" : "");
	}
	if (l->size % l->sector_size)
		return sb_spec_fail(c, AT("devices.loop.size"), false,
				    "devices.loop.size: %llu bytes is not a multiple of the %u-byte sector size",
				    (unsigned long long)l->size, l->sector_size);
	if (sb_spec_min_fs_why(s) && l->size < (min = sb_spec_min_loop_size(s))) {
		sb_size_format(l->size, a, sizeof(a));
		sb_size_format(min, b, sizeof(b));
		return sb_spec_fail(c, AT("devices.loop.size"), false,
				    "devices.loop.size: %s is too small for this stack; at least %s (%s)",
				    a, b, sb_spec_min_fs_why(s));
	}
	return check_space(c, s);
}

/* Rough usable size of the loop-backed stack (before LVM/LUKS/ext4
 * overhead): an LV or a benchmark file larger than this cannot fit. */
static int check_capacity(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	uint64_t cap = sb_spec_device_bytes(s);
	char a[32], b[32];

	if (s->devices.kind != SB_DEVICES_LOOP)
		return 0;
	sb_size_format_human(cap, b, sizeof(b));
	if (s->bench.size > cap) {
		sb_size_format(s->bench.size, a, sizeof(a));
		return sb_spec_fail(c, AT("bench.size"), false,
				    "bench.size: %s is larger than the %s the stack's devices provide; use a smaller size or 0 (automatic)",
				    a, b);
	}
	return 0;
}

/* repeat auto's bounds: its rounds from min_repeat to max_repeat. */
static int check_repeat(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	const struct sb_bench_spec *b = &s->bench;

	if (b->min_repeat > b->max_repeat)
		return sb_spec_fail(c, AT(GIVEN("bench.min_repeat") ? "bench.min_repeat" : "bench.max_repeat"), false,
				    "bench.min_repeat: %u is more than bench.max_repeat %u", b->min_repeat,
				    b->max_repeat);
	return 0;
}

int sb_spec_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	int rc;

	/* the devices first (their kind), then every layer's own rules in
	 * registry order (md derives the member count the others read), then
	 * what depends on all of them */
	if ((rc = check_devices(c, s)) < 0 ||
	    (rc = sb_spec_check_parts(c, s)) < 0 ||
	    (rc = check_fs(c, s)) < 0 ||
	    (rc = check_loop(c, s)) < 0 ||
	    (rc = check_capacity(c, s)) < 0 ||
	    (rc = check_repeat(c, s)) < 0)
		return rc;
	return 0;
}
