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

/* The parts, for the tests: a queue/ directory's attributes (numbers as
 * numbers, the rest as text, null where unreadable); smartctl --json's
 * output and exit status as recorded (the identity, health, power-on time,
 * temperature and reallocated sectors, or "not available: ..." with
 * smartctl's own message); why a kernel name has no SMART (NULL: a disk);
 * one dm table line with its keys hidden (-ENOMEM). */
struct json_object *sb_capture_queue_dir(const char *qdir);
struct json_object *sb_capture_smart_parse(const char *text, int exit_status);
const char *sb_capture_no_smart(const char *kname);
int sb_capture_dm_line(unsigned long long sectors, const char *target, const char *params, char *out, size_t len);

#endif
