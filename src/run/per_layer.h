/* bench.per_layer in the run pipeline: measure each layer as it is built
 * (installed as the build's after_layer hook, struct sb_build_ctx). */
#ifndef SB_RUN_PER_LAYER_H
#define SB_RUN_PER_LAYER_H

#include <signal.h>

#include <json-c/json.h>

#include "core/stack.h"

struct sb_per_layer {
	struct json_object *rows;   /* [{order, layer, device, figures}, ...] */
	int order;
	volatile sig_atomic_t *stop;   /* the run's stop flag: end between two devices */
};

void sb_per_layer_begin(struct sb_per_layer *pl, volatile sig_atomic_t *stop);
/* The after_layer hook: ctx is a struct sb_per_layer. */
int sb_per_layer_after(struct sb_stack *s, unsigned k, void *ctx, struct sb_err *err);
/* Every row's model (its layer's pl_model over sb_pl_model_below) recorded
 * in it: expected, pct_of_below, model, model_note, limit. */
void sb_per_layer_expect(struct json_object *rows, const struct sb_stack_spec *spec);
/* sb_per_layer_expect, then hand the rows to res as "per_layer". */
void sb_per_layer_end(struct sb_per_layer *pl, const struct sb_stack_spec *spec,
		      struct json_object *res);

#endif
