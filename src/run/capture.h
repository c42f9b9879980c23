/* The environment beside the figures, captured once the stack is built:
 * each member's queue parameters and SMART (sys/capture.h), the dm tables
 * of the stack's dm devices (keys hidden), and what each layer captures of
 * itself (struct sb_layer_ops .capture: md's tunables, the LUKS header
 * summary). Recorded as the results' "environment". */
#ifndef SB_RUN_CAPTURE_H
#define SB_RUN_CAPTURE_H

#include <json-c/json.h>

#include "core/stack.h"

struct json_object *sb_capture_env(const struct sb_stack *s);

#endif
