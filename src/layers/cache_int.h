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

/* "sb-NAME-<what>": the names of its dm devices (cache, cmeta, cdata). */
void sb_cache_name(const struct sb_stack_spec *s, const char *what, char *out, size_t len);
/* cache.mode: writethrough | writeback | passthrough. */
const char *sb_cache_mode(const struct sb_stack_spec *s);
/* Its bench.per_layer hooks (cache_model.c). */
void sb_cache_pl_observe(const struct sb_layer *l, unsigned i, bool after, struct json_object *row);
void sb_cache_pl_model(const struct sb_stack_spec *spec, struct json_object *row,
		       const struct sb_pl_below *b, struct sb_pl_model *m);

#endif
