/* md layer, describe: the array as the kernel reports it (sysfs), with the
 * initial sync this build measured. Split from md.c to keep each file small. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/layer.h"
#include "core/stack.h"
#include "layers/md_int.h"
#include "layers/md_sync.h"
#include "sys/sysfs.h"

static void add_sysfs(struct json_object *out, const char *kname, const char *attr, const char *key, bool num)
{
	char p[PATH_MAX], v[256];

	snprintf(p, sizeof(p), "/sys/block/%s/md/%s", kname, attr);
	if (sb_sysfs_read_str(p, v, sizeof(v), NULL) < 0) {
		json_object_object_add(out, key, NULL);
		return;
	}
	if (num)
		json_object_object_add(out, key, json_object_new_int64(strtoll(v, NULL, 10)));
	else
		json_object_object_add(out, key, json_object_new_string(v));
}

/* RAID10 layout number: near copies in bits 0-7, far copies in 8-15, bit 16
 * = the far copies are offset copies (drivers/md/raid10.c). */
static void decode_raid10_layout(long layout, struct json_object *out)
{
	int near = (int)(layout & 0xff), far = (int)((layout >> 8) & 0xff);
	bool offset = (layout >> 16) & 1;
	char s[16];

	if (far > 1)
		snprintf(s, sizeof(s), "%s%d", offset ? "offset" : "far", far);
	else
		snprintf(s, sizeof(s), "near%d", near);
	json_object_object_add(out, "layout", json_object_new_string(s));
	json_object_object_add(out, "near_copies", json_object_new_int(near));
	json_object_object_add(out, offset ? "offset_copies" : "far_copies", json_object_new_int(far));
}

/* Each member's device name and md state, from /sys/block/mdN/md/dev-*. */
static void describe_members(const char *kname, struct json_object *out)
{
	char p[PATH_MAX];
	struct json_object *mem;
	struct dirent *de;
	DIR *d;

	mem = json_object_new_array();
	snprintf(p, sizeof(p), "/sys/block/%s/md", kname);
	d = opendir(p);
	if (d) {
		while ((de = readdir(d))) {
			char lp[PATH_MAX], t[PATH_MAX], st[64], sp[PATH_MAX];
			struct json_object *o;
			ssize_t n;

			if (strncmp(de->d_name, "dev-", 4))
				continue;
			if (snprintf(lp, sizeof(lp), "%s/%s/block", p, de->d_name) >= (int)sizeof(lp))
				continue;
			n = readlink(lp, t, sizeof(t) - 1);
			if (n <= 0)
				continue;
			t[n] = '\0';
			o = json_object_new_object();
			json_object_object_add(o, "device", json_object_new_string(strrchr(t, '/') ? strrchr(t, '/') + 1 : t));
			if (snprintf(sp, sizeof(sp), "%s/%s/state", p, de->d_name) < (int)sizeof(sp) &&
			    sb_sysfs_read_str(sp, st, sizeof(st), NULL) == 0)
				json_object_object_add(o, "state", json_object_new_string(st));
			json_object_array_add(mem, o);
		}
		closedir(d);
	}
	json_object_object_add(out, "members", mem);
}

int sb_md_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	const struct md_priv *priv = l->priv;
	char p[PATH_MAX], v[64], level[32];

	if (!priv || !sb_md_present(priv->kname))
		return sb_err_set(err, -ENODEV, "md: the array of stack %s is not present", l->spec->name);
	json_object_object_add(out, "device", json_object_new_string(l->dev[0]));
	json_object_object_add(out, "kernel_name", json_object_new_string(priv->kname));
	json_object_object_add(out, "uuid", priv->uuid[0] ? json_object_new_string(priv->uuid) : NULL);
	snprintf(p, sizeof(p), "/sys/block/%s/md/level", priv->kname);
	sb_sysfs_read_str(p, level, sizeof(level), NULL);
	json_object_object_add(out, "level", json_object_new_string(level));
	snprintf(p, sizeof(p), "/sys/block/%s/md/layout", priv->kname);
	if (strcmp(level, "raid1") && sb_sysfs_read_str(p, v, sizeof(v), NULL) == 0) {
		if (!strcmp(level, "raid10"))
			decode_raid10_layout(strtol(v, NULL, 10), out);
		else
			json_object_object_add(out, "layout", sb_md_r56_layout_name((int)strtol(v, NULL, 10)) ?
				json_object_new_string(sb_md_r56_layout_name((int)strtol(v, NULL, 10))) : NULL);
		add_sysfs(out, priv->kname, "chunk_size", "chunk_size", true);
	}
	add_sysfs(out, priv->kname, "consistency_policy", "consistency_policy", false);

	add_sysfs(out, priv->kname, "raid_disks", "raid_disks", true);
	add_sysfs(out, priv->kname, "metadata_version", "metadata_version", false);
	snprintf(p, sizeof(p), "/sys/block/%s/md/bitmap/location", priv->kname);
	if (sb_sysfs_read_str(p, v, sizeof(v), NULL) == 0)
		json_object_object_add(out, "bitmap", json_object_new_string(!strcmp(v, "none") ? "none" : "internal"));
	add_sysfs(out, priv->kname, "array_state", "array_state", false);
	add_sysfs(out, priv->kname, "sync_action", "sync_action", false);
	add_sysfs(out, priv->kname, "sync_completed", "sync_completed", false);
	add_sysfs(out, priv->kname, "degraded", "degraded", true);
	json_object_object_add(out, "tunables", sb_md_tunables_json(l->dev[0]));
	json_object_object_add(out, "sync", json_object_new_string(
		l->spec->raid.sync == SB_SYNC_WAIT ? "wait" : "assume-clean"));
	/* sync: wait — what this build measured of md's initial sync */
	if (priv->sync)
		json_object_object_add(out, "initial_sync", sb_md_sync_json(priv->sync, &l->spec->raid));
	describe_members(priv->kname, out);
	return 0;
}
