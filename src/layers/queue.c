/* See queue.h. What the kernel took is read back with the environment
 * (sys/capture.c: each member's queue). */
#include "layers/queue.h"

#include <stdio.h>

#include "sys/sysfs.h"
#include "util/log.h"

int sb_layer_queue_apply(const struct sb_layer *l, struct sb_err *err)
{
	const struct sb_devices_spec *d = &l->spec->devices;
	char v[24];
	unsigned i;
	int rc = 0;

	for (i = 0; i < l->ndev && !rc; i++) {
		if (d->scheduler[0])
			rc = sb_sysfs_dev_attr_write(l->dev[i], "queue/scheduler", d->scheduler, err);
		if (!rc && d->nr_requests) {
			snprintf(v, sizeof(v), "%u", d->nr_requests);
			rc = sb_sysfs_dev_attr_write(l->dev[i], "queue/nr_requests", v, err);
		}
	}
	return rc ? rc : sb_layer_set_read_ahead(l, d->read_ahead_kb, err);
}
