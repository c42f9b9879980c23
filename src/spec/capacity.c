/* How much room a loop-backed stack gives, estimated from its description
 * before anything is built: for `plan` (disk use, default benchmark sizes)
 * and `validate` (a bench.size that will not fit). The overheads follow
 * what the tools do by default; the suites re-check the real free space. */
#include "spec/spec.h"

#include <string.h>

#define MiB (1ULL << 20)

uint64_t sb_spec_device_bytes(const struct sb_stack_spec *s)
{
	uint64_t cap = s->devices.loop.size;

	if (s->devices.kind != SB_DEVICES_LOOP)
		return 0;
	if (s->raid.enabled && s->raid.level == 10 && s->raid.copies)
		cap = cap * s->raid.devices / s->raid.copies;
	return cap;
}

unsigned sb_spec_copies(const struct sb_stack_spec *s)
{
	if (!s->raid.enabled)
		return 1;
	return s->raid.level == 10 ? (s->raid.copies ? s->raid.copies : 2) : s->raid.devices;
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

uint64_t sb_spec_fs_free_estimate(const struct sb_stack_spec *s)
{
	uint64_t dev = sb_spec_device_bytes(s), ovh, meta;

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
	/* ext4: 5% reserved for root (not in f_bavail), inode tables (256 B
	 * per 16 KiB; "small" filesystems under 512 MiB: 128 B per 4 KiB),
	 * the journal, and ~0.5% of bitmaps, group descriptors and resize room */
	meta = dev / 20 + (dev < 512 * MiB ? dev / 32 : dev / 64) + journal_bytes(dev) + dev / 200;
	return dev > meta ? dev - meta : 0;
}
