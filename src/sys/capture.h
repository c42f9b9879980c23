/* The machine beside the figures: one block device's queue parameters
 * (sysfs) and, for a real disk, its SMART identity and health through
 * `smartctl --json` (smartmontools) when installed; recorded as "not
 * available: <reason>" otherwise. */
#ifndef SB_SYS_CAPTURE_H
#define SB_SYS_CAPTURE_H

#include <json-c/json.h>

/* {"device", "queue": {rotational, scheduler, nr_requests, max_sectors_kb,
 * read_ahead_kb, write_cache, logical/physical_block_size}, "smart": {...}
 * or "not available: ..."} */
struct json_object *sb_capture_member(const char *dev);
/* dm device NAME's table (first target), keys hidden: "0 8388608 crypt
 * aes-xts-plain64 <key hidden> 0 /dev/md127 32768". NULL if unreadable. */
struct json_object *sb_capture_dm_table(const char *name);

#endif
