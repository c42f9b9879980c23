/* loop module-internal: what loop.c and loop_teardown.c share. */
#ifndef SB_LAYERS_LOOP_INT_H
#define SB_LAYERS_LOOP_INT_H

#include <stdbool.h>

#include "core/state.h"
#include "util/err.h"

/* Whether dev is attached to file (sysfs; "file (deleted)" counts). */
bool sb_loop_is_ours(const char *dev, const char *file);

/* The loop layer's teardown and exists operations (loop_teardown.c). */
int sb_loop_teardown(const struct sb_state_obj *obj, struct sb_err *err);
bool sb_loop_exists(const struct sb_state_obj *obj);

#endif
