#include "sys/fsprobe.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void probe_ids(int fd, struct sb_fs_ids *ids)
{
	blkid_probe pr = blkid_new_probe();
	const char *v;

	if (!pr)
		return;
	if (!blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID | BLKID_SUBLKS_LABEL);
		if (!blkid_do_safeprobe(pr)) {
			if (!blkid_probe_lookup_value(pr, "TYPE", &v, NULL))
				snprintf(ids->type, sizeof(ids->type), "%s", v);
			if (!blkid_probe_lookup_value(pr, "UUID", &v, NULL))
				snprintf(ids->uuid, sizeof(ids->uuid), "%s", v);
			if (!blkid_probe_lookup_value(pr, "LABEL", &v, NULL))
				snprintf(ids->label, sizeof(ids->label), "%s", v);
		}
	}
	blkid_free_probe(pr);
}

int sb_fs_read_super(const char *dev, off_t off, void *buf, size_t len, struct sb_fs_ids *ids,
		     struct sb_err *err)
{
	int fd, e;

	memset(ids, 0, sizeof(*ids));
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "cannot open %s", dev);
	if (buf && pread(fd, buf, len, off) != (ssize_t)len) {
		e = errno ? -errno : -EIO;
		close(fd);
		return sb_err_sys(err, e, "cannot read the superblock of %s", dev);
	}
	probe_ids(fd, ids);
	close(fd);
	return 0;
}

void sb_fs_ids_json(const struct sb_fs_ids *ids, bool with_label, struct json_object *out)
{
	json_object_object_add(out, "type", json_object_new_string(ids->type));
	json_object_object_add(out, "uuid", json_object_new_string(ids->uuid));
	if (with_label)
		json_object_object_add(out, "label", json_object_new_string(ids->label));
}
