/* luks module-internal: what luks.c and luks_describe.c share. */
#ifndef SB_LAYERS_LUKS_INT_H
#define SB_LAYERS_LUKS_INT_H

#include <json-c/json.h>

#include "core/layer.h"
#include "util/err.h"

/* The luks layer's describe operation (luks_describe.c). */
int sb_luks_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err);
/* Its header summary for the environment capture (luks_describe.c). */
void sb_luks_capture(const struct sb_layer *l, struct json_object *out);
/* Its columns and checks for the report (luks_report.c). */
extern const struct sb_layer_report sb_luks_report;
struct crypt_device;
/* The header summary of cd (name: its mapping, for the activation
 * flags; the flags list is empty when it is not active): type, cipher,
 * volume key bits, sector size, data offset, keyslot 0's PBKDF, and for
 * LUKS2 the header JSON's segments, config and each keyslot's KDF
 * without its salt. Never the key, never the digests. */
struct json_object *sb_luks_header_summary(struct crypt_device *cd, const char *name);
/* Its bench.per_layer hooks (luks_model.c). */
void sb_luks_pl_observe(const struct sb_layer *l, unsigned i, bool after, struct json_object *row);
void sb_luks_pl_model(const struct sb_stack_spec *spec, struct json_object *row,
		      const struct sb_pl_below *b, struct sb_pl_model *m);

#endif
