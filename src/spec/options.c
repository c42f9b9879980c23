#include "spec/options.h"
#include "export/export_spec.h"

#include <stdio.h>
#include <string.h>

#define FLD(st, f) offsetof(struct st, f), sizeof(((struct st *)0)->f)
#define GiB (1ULL << 30)
#define TiB (1ULL << 40)

static const char *const sector_512_4096[] = { "512", "4096", NULL };
static const char *const raid_levels[] = { "1", "10", NULL };
static const char *const md_metadata[] = { "0.90", "1.0", "1.1", "1.2", NULL };
static const char *const md_bitmap[] = { "none", "internal", NULL };
static const char *const md_sync[] = { "assume-clean", "wait", NULL };
static const char *const luks_types[] = { "luks1", "luks2", NULL };
static const char *const luks_sectors[] = { "512", "1024", "2048", "4096", NULL };
static const char *const pbkdf_types[] = { "pbkdf2", "argon2i", "argon2id", NULL };
static const char *const pbkdf_hashes[] = { "sha1", "sha256", "sha512", "ripemd160", "whirlpool", NULL };
static const char *const luks_flags[] = { "no_read_workqueue", "no_write_workqueue",
					  "same_cpu_crypt", "allow_discards", NULL };
static const char *const fs_types[] = { "ext4", NULL };
static const char *const fs_blocks[] = { "1024", "2048", "4096", NULL };
static const char *const suites[] = { "bonnie", "fio-matrix", "dd", "smallfile", "quick", NULL };

static const struct sb_opt loop_opts[] = {
	{ "count", SB_OPT_U32, FLD(sb_loop_spec, count), NULL, 1, SB_MAX_DISKS, NULL, NULL,
	  "number of loop devices (default: raid.devices, or 1 without raid)" },
	{ "size", SB_OPT_SIZE, FLD(sb_loop_spec, size), "1GiB", 1ULL << 20, 64 * TiB, NULL, NULL,
	  "size of each sparse backing file" },
	{ "sector_size", SB_OPT_U32, FLD(sb_loop_spec, sector_size), "512", 0, 0, sector_512_4096, NULL,
	  "logical sector size of the loop devices (4096 emulates 4Kn disks)" },
	{ "dir", SB_OPT_STR, FLD(sb_loop_spec, dir), "/var/tmp/stackbench", 0, 0, NULL, NULL,
	  "directory for the backing files (absolute path)" },
	{ "direct_io", SB_OPT_BOOL, FLD(sb_loop_spec, direct_io), "true", 0, 0, NULL, NULL,
	  "loop direct I/O on the backing file, where the kernel allows" },
	{ .key = NULL },
};

static const struct sb_opt_section loop_sec = {
	"devices.loop", offsetof(struct sb_stack_spec, devices.loop), -1, loop_opts };

static const struct sb_opt devices_opts[] = {
	{ "loop", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &loop_sec,
	  "loop devices on sparse files (the default)" },
	{ "disks", SB_OPT_DISKS, 0, 0, NULL, 1, SB_MAX_DISKS, NULL, NULL,
	  "list of whole-disk device paths (/dev/disk/by-id/...); destroys their data" },
	{ .key = NULL },
};

static const struct sb_opt_section devices_sec = {
	"devices", offsetof(struct sb_stack_spec, devices), -1, devices_opts };

static const struct sb_opt raid_opts[] = {
	{ "level", SB_OPT_U32, FLD(sb_raid_spec, level), "1", 0, 0, raid_levels, NULL,
	  "md RAID level" },
	{ "devices", SB_OPT_U32, FLD(sb_raid_spec, devices), NULL, 1, SB_MAX_DISKS, NULL, NULL,
	  "member count (default: 2 for RAID1, 4 for RAID10); must equal the loop count or number of disks" },
	{ "chunk", SB_OPT_SIZE, FLD(sb_raid_spec, chunk), "512KiB", 4096, 1ULL << 30, NULL, NULL,
	  "chunk size, a power of two >= 4KiB" },
	{ "layout", SB_OPT_STR, FLD(sb_raid_spec, layout), NULL, 0, 0, NULL, NULL,
	  "RAID10 only: near2|far2|offset2 (or n2|f2|o2), 2..4 copies (default near2)" },
	{ "metadata", SB_OPT_ENUM, FLD(sb_raid_spec, metadata), "1.2", 0, 0, md_metadata, NULL,
	  "md superblock version" },
	{ "bitmap", SB_OPT_ENUM, FLD(sb_raid_spec, bitmap), "internal", 0, 0, md_bitmap, NULL,
	  "write-intent bitmap" },
	{ "sync", SB_OPT_ENUMINT, FLD(sb_raid_spec, sync), "assume-clean", 0, 0, md_sync, NULL,
	  "assume-clean skips the initial resync (benchmarks); wait waits for it" },
	{ .key = NULL },
};

static const struct sb_opt_section raid_sec = {
	"raid", offsetof(struct sb_stack_spec, raid), offsetof(struct sb_stack_spec, raid.enabled), raid_opts };

static const struct sb_opt lvm_opts[] = {
	{ "vg", SB_OPT_STR, FLD(sb_lvm_spec, vg), "vg0", 0, 0, NULL, NULL,
	  "volume group name (built prefixed sb_)" },
	{ "lv", SB_OPT_STR, FLD(sb_lvm_spec, lv), "data", 0, 0, NULL, NULL,
	  "logical volume name" },
	{ "size", SB_OPT_LVSIZE, FLD(sb_lvm_spec, size), "100%FREE", 0, 0, NULL, NULL,
	  "LV size: 100%FREE, N%FREE or a size" },
	{ "extent_size", SB_OPT_SIZE, FLD(sb_lvm_spec, extent_size), "4MiB", 1024, 16 * GiB, NULL, NULL,
	  "physical extent size, a power of two >= 1KiB" },
	{ .key = NULL },
};

static const struct sb_opt_section lvm_sec = {
	"lvm", offsetof(struct sb_stack_spec, lvm), offsetof(struct sb_stack_spec, lvm.enabled), lvm_opts };

static const struct sb_opt pbkdf_opts[] = {
	{ "type", SB_OPT_ENUM, FLD(sb_luks_spec, pbkdf), "pbkdf2", 0, 0, pbkdf_types, NULL,
	  "key derivation function" },
	{ "iterations", SB_OPT_U32, FLD(sb_luks_spec, pbkdf_iterations), "1000", 1, 0, NULL, NULL,
	  "pbkdf2 iterations / argon2 time cost; fixed and small: the stack is throwaway" },
	{ "memory", SB_OPT_SIZE_KIB, FLD(sb_luks_spec, pbkdf_memory_kib), "32MiB", 32 * 1024, 4 * GiB, NULL, NULL,
	  "argon2 memory cost" },
	{ "parallel", SB_OPT_U32, FLD(sb_luks_spec, pbkdf_parallel), "1", 1, 16, NULL, NULL,
	  "argon2 threads" },
	{ "hash", SB_OPT_ENUM, FLD(sb_luks_spec, hash), "sha256", 0, 0, pbkdf_hashes, NULL,
	  "pbkdf2 hash" },
	{ .key = NULL },
};

static const struct sb_opt_section pbkdf_sec = {
	"luks.pbkdf", offsetof(struct sb_stack_spec, luks), -1, pbkdf_opts };

static const struct sb_opt luks_opts[] = {
	{ "type", SB_OPT_ENUM, FLD(sb_luks_spec, type), "luks2", 0, 0, luks_types, NULL,
	  "LUKS header version" },
	{ "cipher", SB_OPT_STR, FLD(sb_luks_spec, cipher), "aes-xts-plain64", 0, 0, NULL, NULL,
	  "cipher-mode[-iv], e.g. aes-xts-plain64, aes-cbc-essiv:sha256" },
	{ "key_size", SB_OPT_U32, FLD(sb_luks_spec, key_size), NULL, 0, 0, NULL, NULL,
	  "key bits (default 512 for xts, else 256); xts: 256|512, others: 128|192|256" },
	{ "sector_size", SB_OPT_U32, FLD(sb_luks_spec, sector_size), "512", 0, 0, luks_sectors, NULL,
	  "encryption sector size; not smaller than the device's logical sector" },
	{ "pbkdf", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &pbkdf_sec,
	  "key derivation settings" },
	{ "flags", SB_OPT_LUKSFLAGS, 0, 0, NULL, 0, 0, luks_flags, NULL,
	  "activation flags, as a list or a mapping flag: true|false" },
	{ "no_read_workqueue", SB_OPT_BOOL, FLD(sb_luks_spec, no_read_workqueue), "false", 0, 0, NULL, NULL,
	  "activation flag: decrypt reads inline" },
	{ "no_write_workqueue", SB_OPT_BOOL, FLD(sb_luks_spec, no_write_workqueue), "false", 0, 0, NULL, NULL,
	  "activation flag: encrypt writes inline" },
	{ "same_cpu_crypt", SB_OPT_BOOL, FLD(sb_luks_spec, same_cpu_crypt), "false", 0, 0, NULL, NULL,
	  "activation flag: encrypt on the submitting CPU" },
	{ "allow_discards", SB_OPT_BOOL, FLD(sb_luks_spec, allow_discards), "false", 0, 0, NULL, NULL,
	  "activation flag: pass discards through" },
	{ .key = NULL },
};

static const struct sb_opt_section luks_sec = {
	"luks", offsetof(struct sb_stack_spec, luks), offsetof(struct sb_stack_spec, luks.enabled), luks_opts };

static const struct sb_opt fs_opts[] = {
	{ "type", SB_OPT_ENUM, FLD(sb_fs_spec, type), "ext4", 0, 0, fs_types, NULL,
	  "filesystem" },
	{ "block_size", SB_OPT_U32, FLD(sb_fs_spec, block_size), "4096", 0, 0, fs_blocks, NULL,
	  "filesystem block size; not smaller than the LUKS or device sector" },
	{ "mkfs_options", SB_OPT_STR, FLD(sb_fs_spec, mkfs_options), "", 0, 0, NULL, NULL,
	  "extra mke2fs arguments, separated by spaces" },
	{ "mount_options", SB_OPT_STR, FLD(sb_fs_spec, mount_options), "", 0, 0, NULL, NULL,
	  "mount options, comma-separated as mount -o" },
	{ "stride", SB_OPT_U32, FLD(sb_fs_spec, stride), "0", 0, 1U << 24, NULL, NULL,
	  "ext4 stride in blocks (0: derived from the RAID chunk)" },
	{ "stripe_width", SB_OPT_U32, FLD(sb_fs_spec, stripe_width), "0", 0, 1U << 24, NULL, NULL,
	  "ext4 stripe width in blocks (0: derived from the RAID geometry)" },
	{ "lazy_init", SB_OPT_BOOL, FLD(sb_fs_spec, lazy_init), "false", 0, 0, NULL, NULL,
	  "lazy inode table / journal init (off: no background writes during benchmarks)" },
	{ .key = NULL },
};

static const struct sb_opt_section fs_sec = {
	"fs", offsetof(struct sb_stack_spec, fs), -1, fs_opts };

static const struct sb_opt bench_opts[] = {
	{ "suites", SB_OPT_SUITES, 0, 0, "bonnie", 1, SB_MAX_SUITES, suites, NULL,
	  "benchmark suites to run, in order" },
	{ "size", SB_OPT_SIZE, FLD(sb_bench_spec, size), "0", 0, 64 * TiB, NULL, NULL,
	  "file size per suite (0: automatic: each suite's default, bonnie twice RAM, capped to what the filesystem holds)" },
	{ "runtime", SB_OPT_DURATION, FLD(sb_bench_spec, runtime_ns), "0", 0, 0, NULL, NULL,
	  "per timed phase (0: size-based)" },
	{ "ramp_time", SB_OPT_DURATION, FLD(sb_bench_spec, ramp_ns), "0", 0, 0, NULL, NULL,
	  "warm-up before measuring" },
	{ "repeat", SB_OPT_U32, FLD(sb_bench_spec, repeat), "1", 1, 100, NULL, NULL,
	  "repetitions of every suite" },
	{ "chunk", SB_OPT_SIZE, FLD(sb_bench_spec, chunk), "8KiB", 512, 64ULL << 20, NULL, NULL,
	  "bonnie chunk size" },
	{ "files", SB_OPT_U32, FLD(sb_bench_spec, files), "1", 0, 1000, NULL, NULL,
	  "bonnie -n: small files, in units of 1024 (0 skips)" },
	{ "fsync", SB_OPT_BOOL, FLD(sb_bench_spec, fsync), "true", 0, 0, NULL, NULL,
	  "bonnie -b: fsync after every write" },
	{ "per_layer", SB_OPT_BOOL, FLD(sb_bench_spec, per_layer), "true", 0, 0, NULL, NULL,
	  "build-and-test: measure every layer's block device (seq write/read 1 MiB QD4, 4 KiB "
	  "randread QD32, 64 MiB) right after it is built, before the next (raw writes); not with faults" },
	{ .key = NULL },
};

static const struct sb_opt_section bench_sec = {
	"bench", offsetof(struct sb_stack_spec, bench), -1, bench_opts };

static const struct sb_opt fault_delay_opts[] = {
	{ "member", SB_OPT_U32, FLD(sb_fault_delay_spec, member), "0", 0, SB_MAX_DISKS - 1, NULL, NULL,
	  "which device (0-based, below the RAID) gets a dm-delay device over it" },
	{ "latency", SB_OPT_DURATION, FLD(sb_fault_delay_spec, latency_ns), "50ms", 0, 0, NULL, NULL,
	  "added to every read and write of that member, whole milliseconds (1ms..10s)" },
	{ .key = NULL },
};

static const struct sb_opt_section fault_delay_sec = {
	"faults.delay", offsetof(struct sb_stack_spec, faults.delay),
	offsetof(struct sb_stack_spec, faults.delay.enabled), fault_delay_opts };

static const struct sb_opt fault_flakey_opts[] = {
	{ "member", SB_OPT_U32, FLD(sb_fault_flakey_spec, member), "0", 0, SB_MAX_DISKS - 1, NULL, NULL,
	  "which device (0-based, below the RAID) gets a dm-flakey device over it" },
	{ "up", SB_OPT_DURATION, FLD(sb_fault_flakey_spec, up_ns), "5s", 0, 0, NULL, NULL,
	  "time the member works, whole seconds (1s..1h)" },
	{ "down", SB_OPT_DURATION, FLD(sb_fault_flakey_spec, down_ns), "1s", 0, 0, NULL, NULL,
	  "then time every I/O to it fails, whole seconds (1s..1h)" },
	{ .key = NULL },
};

static const struct sb_opt_section fault_flakey_sec = {
	"faults.flakey", offsetof(struct sb_stack_spec, faults.flakey),
	offsetof(struct sb_stack_spec, faults.flakey.enabled), fault_flakey_opts };

static const struct sb_opt fault_fail_opts[] = {
	{ "member", SB_OPT_U32, FLD(sb_fault_fail_spec, member), "0", 0, SB_MAX_DISKS - 1, NULL, NULL,
	  "which RAID member (0-based) md marks faulty" },
	{ "after", SB_OPT_DURATION, FLD(sb_fault_fail_spec, after_ns), "3s", 0, 0, NULL, NULL,
	  "how long into the benchmark" },
	{ .key = NULL },
};

static const struct sb_opt_section fault_fail_sec = {
	"faults.fail", offsetof(struct sb_stack_spec, faults.fail),
	offsetof(struct sb_stack_spec, faults.fail.enabled), fault_fail_opts };

static const struct sb_opt faults_opts[] = {
	{ "delay", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &fault_delay_sec,
	  "dm-delay over one member: a slow disk" },
	{ "flakey", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &fault_flakey_sec,
	  "dm-flakey over one member: a disk that fails all I/O for `down` every `up`" },
	{ "fail", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &fault_fail_sec,
	  "md marks one member faulty during the benchmark (needs raid)" },
	{ .key = NULL },
};

static const struct sb_opt_section faults_sec = {
	"faults", offsetof(struct sb_stack_spec, faults), offsetof(struct sb_stack_spec, faults.enabled), faults_opts };

static const struct sb_opt root_opts[] = {
	{ "name", SB_OPT_NAME, FLD(sb_stack_spec, name), NULL, 0, 0, NULL, NULL,
	  "stack name, [a-z0-9][a-z0-9._-]* (default: the file name without .yml)" },
	{ "description", SB_OPT_STR, FLD(sb_stack_spec, description), "", 0, 0, NULL, NULL,
	  "free text" },
	{ "devices", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &devices_sec,
	  "what the stack is built on: loop or disks" },
	{ "raid", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &raid_sec,
	  "md RAID (absent: a single device)" },
	{ "lvm", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &lvm_sec,
	  "LVM PV/VG/LV (absent: none; lvm: {} for defaults)" },
	{ "luks", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &luks_sec,
	  "LUKS encryption (absent: none; luks: {} for defaults)" },
	{ "fs", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &fs_sec,
	  "the filesystem" },
	{ "bench", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &bench_sec,
	  "benchmark suites and their sizes" },
	{ "faults", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &faults_sec,
	  "faults injected into the run: delay, flakey, fail (absent: none)" },
	{ "export", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &sb_export_opt_sec,
	  "serve the stack to a client namespace over sshfs, smb, nfs (absent: local only)" },
	{ "matrix", SB_OPT_MATRIX, 0, 0, NULL, 0, 0, NULL, NULL,
	  "dotted key -> list of values; expands into one stack per combination (at most 256)" },
	{ .key = NULL },
};

const struct sb_opt_section sb_opt_root = { "", 0, -1, root_opts };

const struct sb_opt *sb_opt_lookup(const char *dotted, const struct sb_opt_section **secp)
{
	const struct sb_opt_section *sec = &sb_opt_root;
	const struct sb_opt *o;
	const char *p = dotted, *dot;
	size_t n;

	for (;;) {
		dot = strchr(p, '.');
		n = dot ? (size_t)(dot - p) : strlen(p);
		for (o = sec->opts; o->key; o++)
			if (strlen(o->key) == n && !strncmp(o->key, p, n))
				break;
		if (!o->key)
			return NULL;
		if (!dot) {
			if (secp)
				*secp = sec;
			return o;
		}
		if (o->type != SB_OPT_SECTION)
			return NULL;
		sec = o->sub;
		p = dot + 1;
	}
}

void sb_opt_keys_list(const struct sb_opt_section *sec, char *buf, size_t len)
{
	const struct sb_opt *o;
	size_t used = 0;

	buf[0] = '\0';
	for (o = sec->opts; o->key && used < len; o++)
		used += snprintf(buf + used, len - used, "%s%s", o == sec->opts ? "" : ", ", o->key);
}

void sb_opt_allowed_list(const char *const *allowed, char *buf, size_t len)
{
	size_t used = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; allowed && allowed[i] && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", allowed[i]);
}

const char *sb_opt_type_desc(const struct sb_opt *o)
{
	switch (o->type) {
	case SB_OPT_SECTION: return "a mapping";
	case SB_OPT_NAME: return "a name of a-z, 0-9, '.', '_', '-'";
	case SB_OPT_STR: return "a string";
	case SB_OPT_ENUM: case SB_OPT_ENUMINT: return "one of the listed words";
	case SB_OPT_U32: return "a whole number";
	case SB_OPT_SIZE: case SB_OPT_SIZE_KIB: return "a size with a unit such as 512KiB, 4GiB or 100MB";
	case SB_OPT_BOOL: return "true or false";
	case SB_OPT_DURATION: return "a duration such as 500ms, 30s or 2m";
	case SB_OPT_SUITES: return "a list of suite names";
	case SB_OPT_DISKS: return "a list of device paths";
	case SB_OPT_LVSIZE: return "100%FREE, N%FREE or a size";
	case SB_OPT_LUKSFLAGS: return "a list of flag names, or a mapping flag: true|false";
	case SB_OPT_MATRIX: return "a mapping of dotted key -> list of values";
	case SB_OPT_WORDS: return "one of the listed words, or a list of them";
	}
	return "?";
}
