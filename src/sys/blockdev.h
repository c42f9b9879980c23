/* libblockdev, initialised once per process with only the plugins a run
 * needs. Shared by every layer that uses libblockdev (ext4 here; md and lvm
 * in their own files). */
#ifndef SB_SYS_BLOCKDEV_H
#define SB_SYS_BLOCKDEV_H

#include <blockdev/blockdev.h>

#include "util/err.h"

/* Load the fs, mdraid and lvm plugins (idempotent). */
int sb_blockdev_init(struct sb_err *err);
/* Load one more plugin on top of what is loaded (idempotent). */
int sb_blockdev_require(BDPlugin plugin, struct sb_err *err);

/* The md array UUID in dev's member superblock, as libblkid reads it (the
 * canonical 8-4-4-4-12 form libblockdev's mdraid plugin also gives): 0, or
 * -ENOENT when dev carries no md superblock. No mdadm run: one read of the
 * superblock, where `mdadm --examine` costs three processes. */
int sb_blockdev_md_member_uuid(const char *dev, char *uuid, size_t len);

#endif
