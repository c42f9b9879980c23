/* Per-device statistics with iostat -x semantics, from the kernel's
 * /sys/dev/block/M:m/stat counters sampled before and after a phase.
 * Device nodes (/dev/mapper/x, /dev/md/name, /dev/loopN, a partition, or a
 * file/directory: its filesystem's device) are resolved through stat's
 * major:minor, so any name the stack prints works. */
#ifndef SB_BENCH_IOSTAT_H
#define SB_BENCH_IOSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "util/err.h"

#define SB_IOSTAT_MAX 32

struct sb_diskstat {
	uint64_t v[11];               /* the first 11 fields of the stat file */
	uint64_t t_ns;                /* when it was read */
};

struct sb_iostat_dev {
	char name[64];                /* kernel name: loop0, md127, dm-2 */
	char sysdir[128];             /* /sys/dev/block/M:m */
	struct sb_diskstat before, after;
};

struct sb_iostat {
	unsigned n;
	bool x_figures;           /* job's JSON: also "stackbench_iostat" (--watch given) */
	struct sb_iostat_dev dev[SB_IOSTAT_MAX];
};

/* Add a device (path of a node, or of a file/dir whose filesystem's device
 * is meant). Duplicates are ignored. */
int sb_iostat_add(struct sb_iostat *s, const char *path, struct sb_err *err);
/* Read every device's counters into before (start) or after (stop). */
void sb_iostat_start(struct sb_iostat *s);
void sb_iostat_stop(struct sb_iostat *s);

/* Derived figures, iostat -x. */
struct sb_iostat_figs {
	double r_s, w_s, rmb_s, wmb_s, rareq_kb, wareq_kb, r_await_ms, w_await_ms, aqu_sz, util_pct;
	uint64_t read_ios, write_ios, read_bytes, write_bytes, read_ticks, write_ticks,
		 read_merges, write_merges, in_queue, io_ticks;
};
void sb_iostat_compute(const struct sb_iostat_dev *d, struct sb_iostat_figs *f);

/* fio's disk_util array plus our iostat fields (see docs/results-schema.md). */
struct json_object *sb_iostat_json(const struct sb_iostat *s);
/* `stackbench job`'s JSON: fio's disk_util (fio's keys only), and the
 * iostat -x figures apart, under the top-level "stackbench_iostat" */
struct json_object *sb_iostat_json_fio(const struct sb_iostat *s);
struct json_object *sb_iostat_json_x(const struct sb_iostat *s);

#endif
