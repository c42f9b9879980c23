/* md's initial sync, waited for and sampled (raid.sync: wait): md.c's
 * helper, in its own file because md.c is already ~600 lines. */
#ifndef SB_LAYERS_MD_SYNC_H
#define SB_LAYERS_MD_SYNC_H

#include <signal.h>
#include <stdint.h>

#include <json-c/json.h>

#include "spec/spec.h"
#include "util/err.h"

#define SB_MD_SYNC_SAMPLES 2048

struct sb_md_sync {
	char action[16];        /* what md did: resync (RAID6, RAID1/10), recover (mdadm's RAID5 default) */
	unsigned n;
	double t[SB_MD_SYNC_SAMPLES];      /* s since mdadm --create was called */
	double mbps[SB_MD_SYNC_SAMPLES];   /* md's sync_speed, KiB/s converted to MB/s (10^6 B/s) */
	double duration;        /* s from the mdadm --create call to the end of the sync */
	uint64_t member_bytes;  /* per-member bytes md went through (sync_completed's total) */
};

/* Wait until md's sync of /sys/block/KNAME is done, sampling sync_speed
 * every SB_MD_SYNC_PERIOD_MS into out; times from start (sb_clock_s()
 * just before mdadm --create, since md starts syncing at once: a 64 MiB
 * member may be done before the create call returns), so duration
 * includes mdadm's own start-up. */
int sb_md_sync_wait(const char *kname, uint64_t member_bytes, double start, volatile sig_atomic_t *stop,
		    struct sb_md_sync *out, struct sb_err *err);

/* The results' "sync" object: samples [t, MB/s], duration_s, average_mbps
 * and, with raid.estimate_member_size, the full-size estimates. */
struct json_object *sb_md_sync_json(const struct sb_md_sync *s, const struct sb_raid_spec *r);

/* "initial sync of 4 × 4 TB RAID5 at the measured 20.5 MB/s: ~54.2 h" ("" without an estimate) */
void sb_md_sync_estimate(const struct sb_md_sync *s, const struct sb_raid_spec *r, char *buf, size_t len);

/* The mdadm name of a RAID5/6 layout number (sysfs md/layout), NULL if
 * unknown (md_spec.c, which owns the table). */
const char *sb_md_r56_layout_name(int algo);

#endif
