/* md module-internal: what md.c and md_describe.c share. */
#ifndef SB_LAYERS_MD_INT_H
#define SB_LAYERS_MD_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/layer.h"
#include "util/err.h"

struct sb_md_sync;

/* The md layer's private data on its sb_layer. */
struct md_priv {
	char kname[32];     /* md127 */
	char uuid[64];
	struct sb_md_sync *sync;   /* sync: wait, as measured by this build; NULL otherwise */
};

/* Whether /sys/block/<kname>/md exists. */
bool sb_md_present(const char *kname);

/* The md layer's describe operation (md_describe.c). */
int sb_md_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err);
/* Its column, check and device roles for the report (md_report.c). */
extern const struct sb_layer_report sb_md_report;

/* raid's tunables written to the array node's sysfs, and read back
 * (md_tune.c). */
int sb_md_tune(const struct sb_raid_spec *rs, const char *node, struct sb_err *err);
struct json_object *sb_md_tunables_json(const char *node);
void sb_md_capture(const struct sb_layer *l, struct json_object *out);

/* Its bench.per_layer model (md_model.c). */
void sb_md_pl_model(const struct sb_stack_spec *spec, struct json_object *row,
		    const struct sb_pl_below *b, struct sb_pl_model *m);
/* Records in the array's row how many of the devices below say they are
 * non-rotational ("nonrot_members"), which the model's stream reads use. */
void sb_md_pl_observe(const struct sb_layer *l, unsigned i, bool after, struct json_object *row);

#endif
