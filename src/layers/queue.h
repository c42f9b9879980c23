/* The members' block queue keys (devices.scheduler, nr_requests,
 * read_ahead_kb): set on every device the devices layer (loop or disks)
 * built, right after it built them. */
#ifndef SB_LAYERS_QUEUE_H
#define SB_LAYERS_QUEUE_H

#include "core/layer.h"

int sb_layer_queue_apply(const struct sb_layer *l, struct sb_err *err);

#endif
