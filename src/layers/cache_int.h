/* cache: the fast device (a fresh backing file on a loop device), which
 * cache_dev.c makes and takes down for cache.c. */
#ifndef SB_LAYERS_CACHE_INT_H
#define SB_LAYERS_CACHE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/layer.h"
#include "core/state.h"
#include "util/err.h"

/* Create file (O_EXCL, recorded with its dev:ino) of bytes and attach it to
 * a free loop device (recorded before binding); dev gets /dev/loopN. */
int sb_cache_fast_make(struct sb_layer *l, const char *file, uint64_t bytes, char *dev, size_t len,
		       struct sb_err *err);
/* Zero the first 4 KiB of dev: dm-cache then formats fresh metadata. */
int sb_cache_zero_head(const char *dev, struct sb_err *err);
/* Teardown of the "file" state object (the "loopdev" one is the loop
 * layer's sb_loop_detach). */
int sb_cache_teardown_file(const struct sb_state_obj *obj, struct sb_err *err);

#endif
