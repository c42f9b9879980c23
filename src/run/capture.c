/* See capture.h. */
#include "run/capture.h"

#include <stdio.h>
#include <string.h>

#include "core/layer.h"
#include "sys/capture.h"
#include "sys/sysfs.h"

/* dev's dm name, if it is a device-mapper device. */
static bool dm_name_of(const char *dev, char *name, size_t len)
{
	char kname[64];

	if (sb_sysfs_dev_kname(dev, kname, sizeof(kname), NULL) < 0 || strncmp(kname, "dm-", 3))
		return false;
	return sb_sysfs_dev_attr_str(dev, "dm/name", name, len, NULL) == 0;
}

struct json_object *sb_capture_env(const struct sb_stack *s)
{
	struct json_object *env = json_object_new_object(), *members = json_object_new_array();
	struct json_object *tables = json_object_new_object(), *t;
	char name[128];
	unsigned k, i;

	for (k = 0; k < s->nlayers; k++) {
		const struct sb_layer *l = &s->layers[k];

		/* the members: the devices layer's devices */
		if (l->ops->order == SB_ORDER_DEVICES)
			for (i = 0; i < l->ndev; i++)
				json_object_array_add(members, sb_capture_member(l->dev[i]));
		for (i = 0; l->ops->per_layer && i < l->ndev; i++)
			if (dm_name_of(l->dev[i], name, sizeof(name)) && !json_object_object_get_ex(tables, name, NULL) &&
			    (t = sb_capture_dm_table(name)))
				json_object_object_add(tables, name, t);
		if (l->ops->capture)
			l->ops->capture(l, env);
	}
	json_object_object_add(env, "members", members);
	json_object_object_add(env, "dm_tables", tables);
	return env;
}
