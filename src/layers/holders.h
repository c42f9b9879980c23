/* Shared by the md, lvm, luks, fault and cache layers: bounded retries of a removal that
 * fails with EBUSY, and naming who holds a device when it stays busy. */
#ifndef SB_LAYERS_HOLDERS_H
#define SB_LAYERS_HOLDERS_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Total time a removal may keep retrying on EBUSY (udev's blkid often holds a
 * device for a moment after mkfs or a change event). */
#define SB_BUSY_BUDGET_MS 30000

/* Call fn(arg) until it returns something other than -EBUSY or the budget is
 * spent; backoff 50 ms doubling to 2 s, with a udev settle between tries.
 * Returns fn's last result. */
int sb_retry_busy(int (*fn)(void *arg), void *arg, unsigned budget_ms);

/* "held by dm-4 (kernel holder), process 812 (blkid) ..." for devnode, or
 * "no holder found" — for the message of a removal that stayed busy. */
void sb_holders_describe(const char *devnode, char *buf, size_t len);

/* sb_retry_busy(fn, arg) on the dm mapping name within the budget; still
 * busy at the end: -EBUSY with "who: NAME still busy after N s: HOLDERS".
 * Returns fn's last result (the caller words any other failure). */
int sb_holders_retry_dm(const char *who, const char *name, int (*fn)(void *arg), void *arg, struct sb_err *err);

/* Remove dm device name (settle, sb_dm_remove retried on EBUSY within the
 * budget, settle): on failure the message starts "who: " and names the
 * holders (busy) or libdevmapper's last error. Shared by fault and cache. */
int sb_holders_dm_remove(const char *who, const char *name, struct sb_err *err);

#endif
