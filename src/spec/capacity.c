/* How much room a loop-backed stack gives, estimated from its description
 * before anything is built: for `plan` (disk use, default benchmark sizes)
 * and `validate` (a bench.size that will not fit). The overheads follow
 * what the tools do by default; the suites re-check the real free space. */
#include "spec/part.h"
#include "spec/spec.h"

#include <stdlib.h>
#include <string.h>

#define MiB (1ULL << 20)

/* Data capacity: RAID10 n/copies members, RAID5 n-1, RAID6 n-2 (md's
 * data_disks); RAID1 one member. */
uint64_t sb_spec_device_bytes(const struct sb_stack_spec *s)
{
	uint64_t cap = s->devices.loop.size;

	if (s->devices.kind != SB_DEVICES_LOOP)
		return 0;
	if (s->raid.enabled && s->raid.level == 10 && s->raid.copies)
		cap = cap * s->raid.devices / s->raid.copies;
	else if (s->raid.enabled && (s->raid.level == 5 || s->raid.level == 6) && s->raid.data_disks)
		cap *= s->raid.data_disks;
	return cap;
}

/* Bytes written per byte of data, rounded up: RAID5/6 add parity. */
unsigned sb_spec_copies(const struct sb_stack_spec *s)
{
	const struct sb_raid_spec *r = &s->raid;

	if (!r->enabled)
		return 1;
	if ((r->level == 5 || r->level == 6) && r->data_disks)
		return (r->devices + r->data_disks - 1) / r->data_disks;
	return r->level == 10 ? (r->copies ? r->copies : 2) : r->devices;
}

bool sb_spec_raid_stripes(const struct sb_stack_spec *s, uint64_t *chunk, uint32_t *data_disks)
{
	const struct sb_raid_spec *r = &s->raid;

	*chunk = 0;
	*data_disks = 0;
	if (!r->enabled || r->level == 1 || !r->chunk || !r->data_disks)
		return false;
	*chunk = r->chunk;
	*data_disks = r->data_disks;
	return true;
}

/* mke2fs.conf's default journal size for a filesystem of this many 4 KiB
 * blocks (ext2fs_default_journal_size). */
static uint64_t journal_bytes(uint64_t bytes)
{
	uint64_t blocks = bytes / 4096;

	if (blocks < 2048)
		return 0;
	if (blocks < 32768)
		return 4 * MiB;
	if (blocks < 256 * 1024)
		return 16 * MiB;
	if (blocks < 512 * 1024)
		return 32 * MiB;
	if (blocks < 4096 * 1024)
		return 64 * MiB;
	if (blocks < 8192 * 1024)
		return 128 * MiB;
	return 256 * MiB;
}

uint64_t sb_spec_fs_device_bytes(const struct sb_stack_spec *s)
{
	uint64_t dev = sb_spec_device_bytes(s), ovh;

	if (!dev)
		return 0;
	/* md 1.2: superblock, bitmap and data offset; up to 128 MiB on large members */
	if (s->raid.enabled) {
		ovh = dev / 32 < 128 * MiB ? dev / 32 : 128 * MiB;
		dev = dev > ovh ? dev - ovh : 0;
	}
	if (s->lvm.enabled) {
		ovh = 1 * MiB + s->lvm.extent_size;
		dev = dev > ovh ? dev - ovh : 0;
		if (s->lvm.size_bytes && s->lvm.size_bytes < dev)
			dev = s->lvm.size_bytes;
		else if (s->lvm.size_pct_free)
			dev = dev / 100 * s->lvm.size_pct_free;
	}
	if (s->luks.enabled) {
		ovh = strcmp(s->luks.type, "luks1") ? 16 * MiB : 2 * MiB;
		dev = dev > ovh ? dev - ovh : 0;
	}
	return dev;
}

uint64_t sb_spec_fs_free_estimate(const struct sb_stack_spec *s)
{
	uint64_t dev = sb_spec_fs_device_bytes(s), meta;

	if (!dev)
		return 0;
	/* ext4: 5% reserved for root (not in f_bavail), inode tables (256 B
	 * per 16 KiB; "small" filesystems under 512 MiB: 128 B per 4 KiB),
	 * the journal, and ~0.5% of bitmaps, group descriptors and resize room */
	meta = dev / 20 + (dev < 512 * MiB ? dev / 32 : dev / 64) + journal_bytes(dev) + dev / 200;
	return dev > meta ? dev - meta : 0;
}

/* The chosen filesystem's smallest size (its part's min_fs_bytes), 0 if none. */
static const struct sb_spec_part *fs_part(const struct sb_stack_spec *s)
{
	const struct sb_spec_part *p;
	unsigned i;

	for (i = 0; (p = sb_spec_part_at(i)); i++)
		if (p->fs_type && !strcmp(p->fs_type, s->fs.type))
			return p;
	return NULL;
}

const char *sb_spec_min_fs_why(const struct sb_stack_spec *s)
{
	const struct sb_spec_part *p = fs_part(s);

	return p && p->min_fs_bytes && p->min_fs_bytes(s) ? p->min_fs_why : NULL;
}

/* Bisect on devices.loop.size: the room reaching the filesystem grows with
 * it (md's overhead is capped, LVM's percentage and LUKS's header fixed). */
uint64_t sb_spec_min_loop_size(const struct sb_stack_spec *s)
{
	const struct sb_spec_part *p = fs_part(s);
	uint64_t lo = s->luks.enabled ? 64 * MiB : 16 * MiB, hi = 1ULL << 40, mid;
	uint64_t need = p && p->min_fs_bytes ? p->min_fs_bytes(s) : 0;
	struct sb_stack_spec *t;

	if (s->devices.kind != SB_DEVICES_LOOP || !need)
		return lo;
	t = malloc(sizeof(*t));
	if (!t)
		return lo;
	memcpy(t, s, sizeof(*t));
	t->devices.loop.size = lo;
	if (sb_spec_fs_device_bytes(t) < need) {
		while (hi - lo > MiB) {
			mid = lo + (hi - lo) / 2 / MiB * MiB;
			t->devices.loop.size = mid;
			if (sb_spec_fs_device_bytes(t) >= need)
				hi = mid;
			else
				lo = mid;
		}
		lo = hi;
	}
	free(t);
	return lo;
}
