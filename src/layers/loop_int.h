/* loop module-internal: what loop.c and loop_teardown.c share, and the
 * binding and detaching that cache_dev.c uses for its fast device. */
#ifndef SB_LAYERS_LOOP_INT_H
#define SB_LAYERS_LOOP_INT_H

#include <linux/loop.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/state.h"
#include "util/err.h"

/* Whether dev is attached to file (sysfs; "file (deleted)" counts). */
bool sb_loop_is_ours(const char *dev, const char *file);

/* Bind cfg->fd (the open file) to a free loop device with cfg; dev gets
 * /dev/loopN. The state gets the device (layer's "loopdev", extra file)
 * before it is bound; losing the race for a free device to another process
 * (EBUSY) drops that entry and tries the next free one. Used by the loop
 * layer and the cache layer's fast device. */
int sb_loop_bind(struct sb_state *st, const char *layer, const char *file, struct loop_config *cfg, char *dev,
		 size_t devlen, struct sb_err *err);
/* Detach the "loopdev" obj (id /dev/loopN, extra its file) if it is still
 * backed by that file, and wait (bounded) until sysfs shows it gone. */
int sb_loop_detach(const struct sb_state_obj *obj, struct sb_err *err);

/* The loop layer's teardown and exists operations (loop_teardown.c). */
int sb_loop_teardown(const struct sb_state_obj *obj, struct sb_err *err);
bool sb_loop_exists(const struct sb_state_obj *obj);

#endif
