#include "spec/options.h"

#include <stdio.h>
#include <string.h>

#define FLD SB_OPT_FLD
#define GiB (1ULL << 30)
#define TiB (1ULL << 40)

static const char *const sector_512_4096[] = { "512", "4096", NULL };
static const char *const fs_blocks[] = { "1024", "2048", "4096", NULL };

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

static const char *const schedulers[] = { "none", "mq-deadline", "bfq", "kyber", NULL };

static const struct sb_opt devices_opts[] = {
	{ "loop", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &loop_sec,
	  "loop devices on sparse files (the default)" },
	{ "disks", SB_OPT_DISKS, 0, 0, NULL, 1, SB_MAX_DISKS, NULL, NULL,
	  "list of whole-disk device paths (/dev/disk/by-id/...); destroys their data" },
	{ "scheduler", SB_OPT_ENUM, FLD(sb_devices_spec, scheduler), NULL, 0, 0, schedulers, NULL,
	  "each member's I/O scheduler (queue/scheduler; absent: the kernel's choice); the kernel must offer it" },
	{ "nr_requests", SB_OPT_U32, FLD(sb_devices_spec, nr_requests), "0", 0, 1U << 20, NULL, NULL,
	  "each member's queue/nr_requests (4 or more; 0: the kernel's); the kernel caps it at the device's tags" },
	{ "read_ahead_kb", SB_OPT_U32, FLD(sb_devices_spec, read_ahead_kb), "0", 0, 1U << 20, NULL, NULL,
	  "each member's queue/read_ahead_kb (0: the kernel's; 0 cannot ask for no read-ahead)" },
	{ .key = NULL },
};

static const struct sb_opt_section devices_sec = {
	"devices", offsetof(struct sb_stack_spec, devices), -1, devices_opts };

static const struct sb_opt fs_opts[] = {
	/* allowed: the registry's filesystem layers (parts.c fills it in) */
	{ "type", SB_OPT_ENUM, FLD(sb_fs_spec, type), "ext4", 0, 0, NULL, NULL,
	  "filesystem: one of the filesystem layers; each adds its own keys (marked below)" },
	{ "block_size", SB_OPT_U32, FLD(sb_fs_spec, block_size), "4096", 0, 0, fs_blocks, NULL,
	  "filesystem block size; not smaller than the LUKS or device sector" },
	{ "mkfs_options", SB_OPT_STR, FLD(sb_fs_spec, mkfs_options), "", 0, 0, NULL, NULL,
	  "extra arguments to the filesystem's mkfs (mke2fs, mkfs.xfs...), separated by spaces; "
	  "each filesystem allows its geometry options only" },
	{ "mount_options", SB_OPT_STR, FLD(sb_fs_spec, mount_options), "", 0, 0, NULL, NULL,
	  "mount options, comma-separated as mount -o" },
	{ "lazy_init", SB_OPT_BOOL, FLD(sb_fs_spec, lazy_init), "false", 0, 0, NULL, NULL,
	  "lazy inode table / journal init (off: no background writes during benchmarks)" },
	{ .key = NULL },
};

/* The keys every filesystem has; each filesystem layer adds its own. */
const struct sb_opt_section sb_opt_fs_shared = {
	"fs", offsetof(struct sb_stack_spec, fs), -1, fs_opts };

static const char *const matrix_steady[] = { "none", "pts", NULL };
/* in the suite's order: bit q * 3 + j (suites/fio_matrix.c) */
static const char *const matrix_cells[] = { "qd1_j1", "qd1_j2", "qd1_j4", "qd32_j1", "qd32_j2", "qd32_j4", NULL };

static const struct sb_opt matrix_opts[] = {
	{ "steady", SB_OPT_ENUMINT, FLD(sb_fio_matrix_spec, steady), "none", 0, 0, matrix_steady, NULL,
	  "pts: each cell's write and read run in rounds until SNIA PTS steady state (over 5 rounds max - min "
	  "<= 20 % of the mean and the fit's excursion <= 10 %), at most 25; the figure is the window's mean" },
	{ "cells", SB_OPT_WORDS, FLD(sb_fio_matrix_spec, cells), NULL, 1, 0, matrix_cells, NULL,
	  "the cells to run, one or a list (absent: all six, iodepth {1, 32} x numjobs {1, 2, 4})" },
	{ .key = NULL },
};

static const struct sb_opt_section matrix_sec = {
	"bench.fio_matrix", offsetof(struct sb_stack_spec, bench.fio_matrix), -1, matrix_opts };

static const struct sb_opt bench_opts[] = {
	/* allowed: the suite registry's names (parts.c fills them in) */
	{ "suites", SB_OPT_SUITES, 0, 0, "bonnie", 1, SB_MAX_SUITES, NULL, NULL,
	  "benchmark suites to run, in order" },
	{ "size", SB_OPT_SIZE, FLD(sb_bench_spec, size), "0", 0, 64 * TiB, NULL, NULL,
	  "file size per suite (0: automatic: each suite's default, bonnie twice RAM, capped to what the filesystem holds)" },
	{ "runtime", SB_OPT_DURATION, FLD(sb_bench_spec, runtime_ns), "0", 0, 0, NULL, NULL,
	  "per timed phase (0: size-based)" },
	{ "ramp_time", SB_OPT_DURATION, FLD(sb_bench_spec, ramp_ns), "0", 0, 0, NULL, NULL,
	  "warm-up before measuring" },
	{ "repeat", SB_OPT_U32_AUTO, FLD(sb_bench_spec, repeat), "1", 1, 100, NULL, NULL,
	  "repetitions of every suite; auto: build-and-test rounds (each stack rebuilt per round) until "
	  "every figure of the table is within bench.precision or decided against --baseline "
	  "(docs/statistics.md)" },
	{ "precision", SB_OPT_PERCENT, FLD(sb_bench_spec, precision_pct), "5%", 0, 0, NULL, NULL,
	  "repeat auto: the 95 % CI half-width every figure is to reach (--precision)" },
	{ "min_repeat", SB_OPT_U32, FLD(sb_bench_spec, min_repeat), "3", 2, 100, NULL, NULL,
	  "repeat auto: rounds before the rule is first asked (--min-repeat)" },
	{ "max_repeat", SB_OPT_U32, FLD(sb_bench_spec, max_repeat), "10", 2, 100, NULL, NULL,
	  "repeat auto: the most rounds (--max-repeat)" },
	{ "max_time", SB_OPT_DURATION, FLD(sb_bench_spec, max_time_ns), "0", 0, 0, NULL, NULL,
	  "repeat auto: no round is started that would end past this much time from the first "
	  "(0: none; --max-time)" },
	{ "chunk", SB_OPT_SIZE, FLD(sb_bench_spec, chunk), "8KiB", 512, 64ULL << 20, NULL, NULL,
	  "bonnie chunk size" },
	{ "files", SB_OPT_U32, FLD(sb_bench_spec, files), "1", 0, 1000, NULL, NULL,
	  "bonnie -n: small files, in units of 1024 (0 skips)" },
	{ "fsync", SB_OPT_BOOL, FLD(sb_bench_spec, fsync), "true", 0, 0, NULL, NULL,
	  "bonnie -b: fsync after every write" },
	{ "per_layer", SB_OPT_BOOL, FLD(sb_bench_spec, per_layer), "true", 0, 0, NULL, NULL,
	  "build-and-test: measure every layer's block device (seq write/read 1 MiB QD4, 4 KiB "
	  "randread QD32, 64 MiB) right after it is built, before the next (raw writes); not with faults" },
	{ "copy_dir", SB_OPT_STR, FLD(sb_bench_spec, copy_dir), "", 0, 0, NULL, NULL,
	  "copy suite: the directory standing for the other disk (\"\": a private directory in /var/tmp)" },
	{ "fio_matrix", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &matrix_sec,
	  "fio-matrix suite options" },
	{ .key = NULL },
};

static const struct sb_opt_section bench_sec = {
	"bench", offsetof(struct sb_stack_spec, bench), -1, bench_opts };

/* The top level: these rows, then every layer's own section in registry
 * order (raid, lvm, luks, faults...), then the tail (parts.c). */
const struct sb_opt sb_opt_root_head[] = {
	{ "name", SB_OPT_NAME, FLD(sb_stack_spec, name), NULL, 0, 0, NULL, NULL,
	  "stack name, [a-z0-9][a-z0-9._-]* (default: the file name without .yml)" },
	{ "description", SB_OPT_STR, FLD(sb_stack_spec, description), "", 0, 0, NULL, NULL,
	  "free text" },
	{ "devices", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &devices_sec,
	  "what the stack is built on: loop or disks" },
	{ .key = NULL },
};

const struct sb_opt sb_opt_root_tail[] = {
	{ "fs", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &sb_opt_fs_shared,
	  "the filesystem: its type, the keys every filesystem has, then each one's own" },
	{ "bench", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &bench_sec,
	  "benchmark suites and their sizes" },
	{ "matrix", SB_OPT_MATRIX, 0, 0, NULL, 0, 0, NULL, NULL,
	  "dotted key -> list of values; expands into one stack per combination (at most 256)" },
	{ .key = NULL },
};

const struct sb_opt *sb_opt_lookup(const char *dotted, const struct sb_opt_section **secp)
{
	const struct sb_opt_section *sec = sb_opt_root();
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
	case SB_OPT_U32_AUTO: return "a whole number or auto";
	case SB_OPT_PERCENT: return "a percentage such as 5% or 2.5%";
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
