/* What a filesystem layer reads back from the device it made: its
 * superblock bytes and libblkid's type, UUID and label. */
#ifndef SB_SYS_FSPROBE_H
#define SB_SYS_FSPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "util/err.h"

struct sb_fs_ids {
	char type[16], uuid[40], label[64];   /* "" where libblkid found none */
};

/* Read len bytes at off of dev into buf (none when buf is NULL) and probe
 * its type, UUID and label. 0, or -errno with a message when dev cannot be
 * opened or read; a probe that finds nothing leaves ids empty. */
int sb_fs_read_super(const char *dev, off_t off, void *buf, size_t len, struct sb_fs_ids *ids,
		     struct sb_err *err);
/* "type", "uuid" and, with_label, "label" into a describe() object. */
void sb_fs_ids_json(const struct sb_fs_ids *ids, bool with_label, struct json_object *out);

#endif
