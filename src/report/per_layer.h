/* bench.per_layer figures: what each layer could do given what was
 * measured below it, and which limit it meets. Pure computation on the
 * results' "per_layer" rows, so compare can redo it on any file. */
#ifndef SB_REPORT_PER_LAYER_H
#define SB_REPORT_PER_LAYER_H

#include <json-c/json.h>

#include "spec/spec.h"

/* The three figures of every row, in this order. */
#define SB_PL_NKEYS 3
extern const char *const sb_pl_keys[SB_PL_NKEYS];

/* For every row of rows (as sb_per_layer_after made them): "expected",
 * "pct_of_below" (same keys as "figures"; null where unknown) and "limit"
 * (one sentence). The model: RAID1 writes ~ the slowest member, a stream
 * reads ~ one member, random reads spread over all members; RAID10 with c
 * copies on n members: writes n/c x the slowest, sequential reads n/c x
 * (near, offset) or n x (far) a member, random reads n x; LVM and fault
 * layers ~ what is below; LUKS ~ what is below, capped by the cipher
 * ceiling where one was measured ("cipher_ceiling" in the row). */
void sb_per_layer_expect(struct json_object *rows, const struct sb_stack_spec *spec);

/* Render the rows of one results file: one line per layer device. */
struct sb_pl_figs {
	double v[SB_PL_NKEYS];   /* < 0: unknown */
};
void sb_pl_get(struct json_object *row, const char *field, struct sb_pl_figs *f);

/* compare --per-layer: the table (format: enum sb_table_format) and the
 * waterfall chart (.svg or .png). */
#include <stdio.h>
#include "util/err.h"
int sb_per_layer_render(struct json_object *const *res, unsigned n, int format, FILE *out,
			struct sb_err *err);
int sb_per_layer_chart(struct json_object *const *res, unsigned n, const char *path,
		       struct sb_err *err);

#endif
