/* md's tunables (raid.stripe_cache_size, sync_speed_min/max): set
 * through sysfs right after the array is created, before its sync, and
 * read back as the kernel took them (md.rst). raid.read_ahead_kb is every
 * block layer's key (spec/part.h .block_device). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layers/md_int.h"
#include "sys/sysfs.h"

static const struct { const char *attr, *key; size_t off; } tunables[] = {
	{ "md/stripe_cache_size", "stripe_cache_size", offsetof(struct sb_raid_spec, stripe_cache_size) },
	{ "md/sync_speed_min", "sync_speed_min", offsetof(struct sb_raid_spec, sync_speed_min) },
	{ "md/sync_speed_max", "sync_speed_max", offsetof(struct sb_raid_spec, sync_speed_max) },
};

int sb_md_tune(const struct sb_raid_spec *rs, const char *node, struct sb_err *err)
{
	char v[24];
	unsigned i;
	int rc;

	for (i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++) {
		uint32_t want = *(const uint32_t *)((const char *)rs + tunables[i].off);

		if (!want)
			continue;
		snprintf(v, sizeof(v), "%u", want);
		rc = sb_sysfs_dev_attr_write(node, tunables[i].attr, v, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* {"stripe_cache_size": 4096, "sync_speed_min": 1000, "sync_speed_min_from":
 * "system", ...}: what is in effect (null where the level has none). */
struct json_object *sb_md_tunables_json(const char *node)
{
	struct json_object *o = json_object_new_object();
	char v[64], key[48], *end;
	unsigned i;

	for (i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++) {
		long long n;

		if (sb_sysfs_dev_attr_str(node, tunables[i].attr, v, sizeof(v), NULL) < 0) {
			json_object_object_add(o, tunables[i].key, NULL);
			continue;
		}
		n = strtoll(v, &end, 10);
		json_object_object_add(o, tunables[i].key, end != v ? json_object_new_int64(n) : NULL);
		/* sync_speed_*: "1000 (system)" or "5000 (local)" */
		if (strchr(end, '(')) {
			snprintf(key, sizeof(key), "%s_from", tunables[i].key);
			json_object_object_add(o, key, json_object_new_string(
				strstr(end, "local") ? "local" : "system"));
		}
	}
	return o;
}

/* The environment capture: md's tunables in effect. */
void sb_md_capture(const struct sb_layer *l, struct json_object *out)
{
	if (l->ndev)
		json_object_object_add(out, "md_tunables", sb_md_tunables_json(l->dev[0]));
}
