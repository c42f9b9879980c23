/* Waiting for udev, bounded. Used before using a new device (its node and
 * symlinks exist, blkid has probed it) and before removing one (udev's
 * blkid run after mkfs still holds the device: a dm remove then fails with
 * EBUSY). Without a running udev both are cheap and succeed. */
#ifndef SB_SYS_UDEV_H
#define SB_SYS_UDEV_H

#include <stdbool.h>

#include "util/err.h"

#define SB_UDEV_TIMEOUT_MS 30000

/* Is a udev daemon running here (its control socket exists)? */
bool sb_udev_running(void);
/* Wait until udev's event queue is empty; -ETIMEDOUT after timeout_ms.
 * A no-op success when udev isn't running. */
int sb_udev_settle(unsigned timeout_ms, struct sb_err *err);
/* Wait until devnode exists as a block device (udev or devtmpfs made it);
 * -ETIMEDOUT after timeout_ms. No settle: for a device the next step only
 * opens or writes, which udev's blkid reading it at the same time does not
 * disturb (it never opens exclusively). */
int sb_udev_wait_devnode(const char *devnode, unsigned timeout_ms, struct sb_err *err);
/* The same, then settle: where the next step needs udev's work done (its
 * symlinks, or nobody else holding the device open). */
int sb_udev_wait_node(const char *devnode, unsigned timeout_ms, struct sb_err *err);
/* Have udev probe devnode again and wait until it has: a "change" uevent
 * asked of the kernel, then udev's processed event awaited on its monitor.
 * After a mkfs, so that /dev/disk/by-uuid names the new filesystem when the
 * build returns: the change udev makes itself (its inotify watch on a
 * closed-after-write device) may not be queued yet when a settle looks,
 * and a settle then returns at once. A no-op success without udev. */
int sb_udev_reprobe(const char *devnode, unsigned timeout_ms, struct sb_err *err);

#endif
