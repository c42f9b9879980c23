#include "sys/blockdev.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"

static bool wanted[BD_PLUGIN_UNDEF];
static bool checks_off;

static void bd_log(gint level, const gchar *msg)
{
	/* libblockdev logs every command it runs and its output at debug level
	 * (7); keep that for -vv, surface its warnings otherwise. */
	if (level <= 4)
		sb_warn("libblockdev: %s", msg);
	else
		sb_debug("libblockdev: %s", msg);
}

static int load(struct sb_err *err)
{
	BDPluginSpec specs[BD_PLUGIN_UNDEF], *list[BD_PLUGIN_UNDEF + 1];
	GError *gerr = NULL;
	unsigned n = 0;
	int p;

	if (!checks_off) {
		/* libblockdev 2.28 refuses to load the fs plugin when the tools
		 * of filesystems we never use (xfsprogs, ntfs-3g, ...) are
		 * missing; each call still fails cleanly if its own tool is. */
		if (!bd_switch_init_checks(FALSE, &gerr)) {
			int rc = sb_err_set(err, -EIO, "libblockdev: cannot switch off init checks: %s",
					    gerr ? gerr->message : "unknown error");
			g_clear_error(&gerr);
			return rc;
		}
		checks_off = true;
	}
	for (p = 0; p < BD_PLUGIN_UNDEF; p++) {
		if (!wanted[p])
			continue;
		specs[n].name = p;
		specs[n].so_name = NULL;
		list[n] = &specs[n];
		n++;
	}
	list[n] = NULL;
	if (!bd_ensure_init(list, bd_log, &gerr)) {
		int rc = sb_err_set(err, -EIO, "libblockdev: cannot load plugins: %s",
				    gerr ? gerr->message : "unknown error");
		g_clear_error(&gerr);
		return rc;
	}
	return 0;
}

int sb_blockdev_require(BDPlugin plugin, struct sb_err *err)
{
	if (plugin < 0 || plugin >= BD_PLUGIN_UNDEF)
		return sb_err_set(err, -EINVAL, "libblockdev: unknown plugin %d", (int)plugin);
	if (wanted[plugin] && bd_is_plugin_available(plugin))
		return 0;
	wanted[plugin] = true;
	return load(err);
}

int sb_blockdev_init(struct sb_err *err)
{
	static const BDPlugin base[] = { BD_PLUGIN_FS, BD_PLUGIN_MDRAID, BD_PLUGIN_LVM };
	bool all = true;
	unsigned i;

	for (i = 0; i < sizeof(base) / sizeof(base[0]); i++) {
		all = all && wanted[base[i]] && bd_is_plugin_available(base[i]);
		wanted[base[i]] = true;
	}
	return all ? 0 : load(err);
}

int sb_blockdev_md_member_uuid(const char *dev, char *uuid, size_t len)
{
	const char *type = NULL, *v = NULL;
	blkid_probe pr;
	int fd, rc = -ENOENT;

	/* Buffered: mdadm writes the superblock through the same page cache;
	 * the kernel's later updates (event counts) bypass it but never
	 * change the UUID. Not exclusive: the member may be in a running array. */
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	pr = blkid_new_probe();
	if (pr && !blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID);
		/* Each signature in turn, not the safe probe: with metadata 0.90 or
		 * 1.0 (superblock at the end) the member's start carries the
		 * array's own data (LUKS, ext4), which the safe probe calls
		 * ambivalent. */
		while (rc && blkid_do_probe(pr) == 0) {
			if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL) &&
			    !strcmp(type, "linux_raid_member") &&
			    !blkid_probe_lookup_value(pr, "UUID", &v, NULL)) {
				snprintf(uuid, len, "%s", v);
				rc = 0;
			}
		}
	}
	if (pr)
		blkid_free_probe(pr);
	close(fd);
	return rc;
}
