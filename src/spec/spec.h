/* A stack description after parsing, --set, matrix expansion and validation.
 * Everything here is plain data with fixed-size fields, so a spec can be
 * copied, compared and freed without ceremony. The option rows (offsetof
 * into these structs: the shared ones in options.c, each layer's in its
 * own file, src/spec/part.h) drive YAML validation, defaults, --set and
 * the help text alike. New layers keep their options in their own struct,
 * in their file, stored in layer_data below. */
#ifndef SB_SPEC_SPEC_H
#define SB_SPEC_SPEC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"

#define SB_NAME_MAX 64
#define SB_PATH_MAX 512
#define SB_MAX_DISKS 16
#define SB_MAX_SUITES 8
#define SB_OPTSTR_MAX 256
/* devices.loop.dir: room left in SB_PATH_MAX for "/<stack name>/dNN" and a
 * " (deleted)" suffix sysfs may add. */
#define SB_LOOP_DIR_MAX (SB_PATH_MAX - 1 - SB_NAME_MAX - 4 - 12)
#define SB_MATRIX_MAX 256         /* at most this many stacks from one matrix */
#define SB_LAYER_SLOTS 24         /* registry entries (src/core/registry.h) */
#define SB_LAYER_DATA_MAX 256     /* bytes of a layer's own options (16-aligned) */

enum sb_devices_kind { SB_DEVICES_LOOP = 0, SB_DEVICES_DISKS = 1 };

struct sb_loop_spec {
	uint32_t count;           /* number of loop devices (default: raid.devices, or 1) */
	uint64_t size;            /* bytes per backing file (sparse) */
	uint32_t sector_size;     /* logical sector size: 512 or 4096 */
	char dir[SB_PATH_MAX];    /* where backing files live; default /var/tmp/stackbench */
	bool direct_io;           /* loop direct I/O on the backing file (default true) */
};

struct sb_devices_spec {
	enum sb_devices_kind kind;
	struct sb_loop_spec loop;
	uint32_t ndisks;
	char disks[SB_MAX_DISKS][SB_PATH_MAX];   /* /dev/disk/by-id/... */
	/* Each member's block queue (set after they are built; "" / 0: the
	 * kernel's own) */
	char scheduler[16];       /* none | mq-deadline | bfq | kyber */
	uint32_t nr_requests;
	uint32_t read_ahead_kb;
};

enum sb_raid_sync { SB_SYNC_ASSUME_CLEAN = 0, SB_SYNC_WAIT = 1 };

struct sb_raid_spec {
	bool enabled;
	uint32_t level;           /* 1, 5, 6 or 10 */
	uint32_t devices;         /* member count */
	uint64_t chunk;           /* bytes; RAID5/6/10 (default 512KiB, as mdadm) */
	char layout[24];          /* RAID10: near2, far2, offset2, n3...; RAID5/6: left-symmetric...; "" = default */
	char md_layout[24];       /* as passed to mdadm --layout: "n2", "f2", "left-symmetric"; "" for RAID1 */
	uint32_t copies;          /* RAID10 copies from the layout (2..4); RAID1: devices; RAID5/6: 1 */
	uint32_t data_disks;      /* members' worth of data per stripe: RAID10 n/copies, RAID5 n-1, RAID6 n-2; RAID1 0 (no stripes) */
	char metadata[8];         /* "1.2" default */
	char bitmap[16];          /* "none" | "internal" (default internal) */
	char consistency[16];     /* --consistency-policy: resync | bitmap | ppl (default: bitmap with a bitmap, else resync) */
	uint64_t estimate_member; /* sync: wait: member size to extrapolate the sync time to (0: none) */
	enum sb_raid_sync sync;
	/* md's tunables, set right after create (0: the kernel's own) */
	uint32_t stripe_cache_size;  /* RAID5/6: pages per member in the stripe cache */
	uint32_t sync_speed_min;     /* KiB/s per member */
	uint32_t sync_speed_max;
};

struct sb_lvm_spec {
	bool enabled;
	char vg[SB_NAME_MAX];     /* as given; the built name is prefixed "sb_" */
	char lv[SB_NAME_MAX];
	char size[32];            /* "100%FREE" or a size as written */
	uint64_t size_bytes;      /* 0 when size is a percentage */
	uint32_t size_pct_free;   /* 1..100 when size is "N%FREE", else 0 */
	uint64_t extent_size;     /* bytes (default 4MiB) */
};

struct sb_luks_spec {
	bool enabled;
	char type[8];             /* "luks1" | "luks2" */
	char cipher[64];          /* "aes-xts-plain64", "aes-cbc-essiv:sha256" */
	uint32_t key_size;        /* bits */
	uint32_t sector_size;     /* 512..4096, power of two */
	char pbkdf[16];           /* "pbkdf2" | "argon2i" | "argon2id" */
	uint32_t pbkdf_iterations;/* pbkdf2 iterations / argon2 time cost (fixed cost: benchmarks want it) */
	uint32_t pbkdf_memory_kib;/* argon2 only */
	uint32_t pbkdf_parallel;  /* argon2 only */
	char hash[16];            /* pbkdf2 hash, default sha256 */
	char integrity[16];       /* "none" | "hmac-sha256" | "hmac-sha512" | "aead" (LUKS2, dm-integrity below dm-crypt) */
	bool no_read_workqueue;
	bool no_write_workqueue;
	bool same_cpu_crypt;
	bool allow_discards;
};

struct sb_fs_spec {
	char type[16];            /* "ext4" */
	uint32_t block_size;      /* 1024 | 2048 | 4096 */
	char mkfs_options[SB_OPTSTR_MAX];  /* extra mke2fs arguments, split on spaces */
	char mount_options[SB_OPTSTR_MAX]; /* comma-separated, as mount -o */
	uint32_t stride;          /* 0 = derive from RAID chunk / block size */
	uint32_t stripe_width;    /* 0 = derive from RAID geometry */
	bool lazy_init;           /* default false: no background init during benchmarks */
};

enum sb_matrix_steady { SB_MATRIX_STEADY_NONE, SB_MATRIX_STEADY_PTS };
struct sb_fio_matrix_spec {
	int steady;               /* enum sb_matrix_steady (bench.fio_matrix.steady) */
	uint32_t cells;           /* bench.fio_matrix.cells: bit q*3+j of qd{1,32} x j{1,2,4}; 0: all six */
};

struct sb_bench_spec {
	uint32_t nsuites;
	char suites[SB_MAX_SUITES][32];  /* "bonnie", "fio-matrix", "dd", "smallfile", "quick" */
	uint64_t size;            /* file size per suite; 0 = auto (bonnie: twice RAM) */
	uint64_t runtime_ns;      /* per timed phase; 0 = size-based */
	uint64_t ramp_ns;
	uint32_t repeat;          /* repetitions of every suite (default 1); 0: auto (run/auto.h) */
	double precision_pct;     /* repeat auto: the CI half-width to reach, % (default 5) */
	uint32_t min_repeat;      /* repeat auto: rounds (default 3 to 10) */
	uint32_t max_repeat;
	uint64_t max_time_ns;     /* repeat auto: 0 = none */
	uint64_t chunk;           /* bonnie chunk size (default 8KiB) */
	uint32_t files;           /* bonnie -n, in units of 1024 files (default 1; 0 skips) */
	bool fsync;               /* bonnie -b: fsync after every write (default true, as the Helios4 runs) */
	bool per_layer;           /* build-and-test: raw jobs on every layer's block device as it is built */
	uint64_t ram;             /* bonnie++ -r: RAM the sizes are judged against; 0 = this machine's */
	char copy_dir[256];       /* copy suite: the "other disk" directory; "" = a private dir in /var/tmp */
	/* fio-matrix suite (bench.fio_matrix.*): each cell run in rounds to
	 * SNIA PTS steady state (bench/steady_pts.h) */
	struct sb_fio_matrix_spec fio_matrix;
	/* not a key: the caller's stop flag (NULL = none); a suite that reads
	 * it (bonnie) ends with -EINTR, its files removed, once it is set */
	volatile sig_atomic_t *stop;
	/* bonnie++'s -s SIZE:CHUNK:SEEKS:PROCS and -n NUM:MAX:MIN:DIRS:CHUNK
	 * beyond the keys above (set by `stackbench bonnie`); 0 = its default */
	struct {
		bool no_io;            /* -s 0: only the file tests */
		int64_t file_max;      /* bytes; -1 hard links, -2 symlinks */
		int64_t file_min;      /* bytes: sizes random in min..max */
		uint32_t dirs;         /* directories the files spread over */
		uint64_t file_chunk;   /* write()/read() size of the file tests (8192) */
		uint32_t seeks;        /* 8192 */
		uint32_t seek_procs;   /* 5 */
	} bonnie;
};

/* Faults injected into a run (dm-delay / dm-flakey under md, md member
 * failure during the benchmark): what a degraded or slow array does. */
struct sb_fault_delay_spec {
	bool enabled;
	uint32_t member;          /* index into the devices (0-based) */
	uint64_t latency_ns;      /* dm-delay, reads and writes; whole ms */
};

struct sb_fault_flakey_spec {
	bool enabled;
	uint32_t member;
	uint64_t up_ns;           /* dm-flakey up interval; whole seconds */
	uint64_t down_ns;         /* dm-flakey down interval (all I/O fails); whole seconds */
};

struct sb_fault_fail_spec {
	bool enabled;
	uint32_t member;          /* md member marked faulty ... */
	uint64_t after_ns;        /* ... this long into the benchmark */
};

struct sb_faults_spec {
	bool enabled;
	struct sb_fault_delay_spec delay;
	struct sb_fault_flakey_spec flakey;
	struct sb_fault_fail_spec fail;
};

struct sb_stack_spec {
	char name[SB_NAME_MAX];           /* [a-z0-9][a-z0-9._-]*; matrix expansions derive theirs */
	char description[SB_OPTSTR_MAX];
	char source[SB_PATH_MAX];         /* the file it came from */
	struct sb_devices_spec devices;
	struct sb_raid_spec raid;
	struct sb_lvm_spec lvm;
	struct sb_luks_spec luks;
	struct sb_fs_spec fs;
	struct sb_bench_spec bench;
	struct sb_faults_spec faults;
	/* Per-layer storage for layers that keep their options in their own
	 * file (struct defined there, reached with sb_spec_layer_data): one
	 * slot per registry position, so a new layer needs no edit here and a
	 * spec stays plain, copyable data. */
	_Alignas(max_align_t) unsigned char layer_data[SB_LAYER_SLOTS][SB_LAYER_DATA_MAX];
	/* The read_ahead_kb key every block layer's section has (the one
	 * shared row of a part with .block_device, spec/part.h), by the
	 * part's registry position: its device's queue/read_ahead_kb, set
	 * once the layer is built (0: the kernel's own). */
	uint32_t read_ahead_kb[SB_LAYER_SLOTS];
};

/* A list of stacks: one file expands into several when it has a matrix. */
struct sb_spec_list {
	unsigned n;
	struct sb_stack_spec *items;
};

/* Parse, apply --set overrides ("a.b.c=value", applied before validation and
 * validated exactly like the file), expand the matrix, validate. On error
 * returns -EINVAL with "FILE:LINE:COL: message" in err (for --set errors
 * the location is "--set a.b=c"). Order: each matrix combination is put into
 * the YAML tree first, then every --set in turn (a later --set wins, and a
 * --set overrides a matrix key), then the tree is converted and checked.
 * The file must be a regular file of at most 1 MiB; out->items has out->n
 * stacks (one unless the file has a matrix), named "<name>" or
 * "<name>-<value>-<value>..." for matrix expansions. Free with
 * sb_spec_list_free. */
int sb_spec_load(const char *path, const char *const *sets, unsigned nsets,
		 struct sb_spec_list *out, struct sb_err *err);
void sb_spec_list_free(struct sb_spec_list *l);

/* The same from a buffer; name is used for the error location and, without
 * a name: key, for the stack name (basename without .yml/.yaml). */
int sb_spec_load_buffer(const char *buf, size_t len, const char *name,
			const char *const *sets, unsigned nsets,
			struct sb_spec_list *out, struct sb_err *err);

/* `bench --suite --target` (no stack file): the bench section's defaults
 * with the given "bench.KEY=VALUE" --set arguments applied through the same
 * option rows as a stack file's bench section (one option system: units,
 * ranges, messages). Keys outside bench.* and bench.suites are refused
 * (-EINVAL). The stack-level checks do not apply: nothing is built. */
int sb_spec_bench_keys(const char *const *sets, unsigned nsets, struct sb_bench_spec *out,
		       struct sb_err *err);

struct json_object;
/* Every key of the option tables with its effective value: sizes in bytes,
 * durations in nanoseconds, under the tables' key names. Disabled optional
 * sections (raid, lvm, luks) are {"enabled": false}. */
int sb_spec_to_json(const struct sb_stack_spec *s, struct json_object **out);

/* One line: "RAID1 ×2 on loop 2×1 GiB (512 B sectors) → LUKS2
 * aes-xts-plain64/512, 4096 B sectors → ext4 4 KiB" */
void sb_spec_summary(const struct sb_stack_spec *s, char *buf, size_t len);

/* Room of a loop-backed stack, estimated from the description (0 with
 * disks: their size is known only on the machine): the bytes the devices
 * give the top layer (RAID10: members x size / copies), how many copies of
 * every written byte land on the backing files, and the free space the
 * fresh filesystem will have after md, LVM, LUKS and ext4 overheads. */
uint64_t sb_spec_device_bytes(const struct sb_stack_spec *s);
unsigned sb_spec_copies(const struct sb_stack_spec *s);
/* md's stripe geometry for filesystems: true and chunk + data disks when
 * the array stripes (RAID5/6/10), false for RAID1 or no raid. */
bool sb_spec_raid_stripes(const struct sb_stack_spec *s, uint64_t *chunk, uint32_t *data_disks);
uint64_t sb_spec_fs_free_estimate(const struct sb_stack_spec *s);
/* The bytes the filesystem's device will have (after md, LVM, LUKS). */
uint64_t sb_spec_fs_device_bytes(const struct sb_stack_spec *s);
/* The smallest devices.loop.size this stack accepts (multiple of 1 MiB):
 * 64 MiB with LUKS (its header is 16), else 16 MiB, or more where the
 * chosen filesystem has a minimum (xfs: 300 MiB); and why, for messages
 * (NULL when no filesystem minimum applies). */
uint64_t sb_spec_min_loop_size(const struct sb_stack_spec *s);
const char *sb_spec_min_fs_why(const struct sb_stack_spec *s);

/* Help text of every key (type, default, allowed values), from the tables. */
void sb_spec_print_keys(FILE *f);

#endif
