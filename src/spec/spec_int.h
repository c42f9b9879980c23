/* Internal to src/spec: the conversion context shared by the loader
 * (spec.c), the tree-to-struct conversion (convert.c) and the checks of
 * impossible combinations (check.c). */
#ifndef SB_SPEC_SPEC_INT_H
#define SB_SPEC_SPEC_INT_H

#include <stdbool.h>

#include "spec/options.h"
#include "spec/part.h"
#include "spec/spec.h"
#include "spec/ytree.h"

struct sb_spec_ctx {
	const char *file;             /* for locations */
	const struct sb_ynode *root;  /* the tree this spec came from (after matrix and --set) */
	struct sb_err *err;
};

/* Set err to "LOCATION: message" and return -EINVAL. The location is the
 * node's origin ("--set a.b=c") or FILE:LINE:COL of its key (at_key) or its
 * value; FILE:1:1 without a node. */
int sb_spec_fail(const struct sb_spec_ctx *c, const struct sb_ynode *n, bool at_key,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The node at a dotted path ("raid.devices"), or NULL. */
const struct sb_ynode *sb_spec_node(const struct sb_ynode *root, const char *dotted);
/* The first of several dotted paths present in the tree, walking up to the
 * nearest present section otherwise: where to point an error about them. */
const struct sb_ynode *sb_spec_where(const struct sb_ynode *root, const char *dotted);

/* Fill every tabled default (derived ones are left to sb_spec_check). */
int sb_spec_defaults(struct sb_stack_spec *s, struct sb_err *err);
/* Convert the tree (a mapping) into s: unknown keys, types, ranges. */
int sb_spec_convert(const struct sb_spec_ctx *c, struct sb_stack_spec *s);
/* Derived defaults and impossible combinations. */
int sb_spec_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s);

/* fs.mount_options against its allow-list (fsopts.c). */
int sb_spec_check_mount_options(const struct sb_spec_ctx *c, const struct sb_stack_spec *s);

/* The layers' parts (parts.c): every part's check in registry order; a
 * filesystem's own keys refused under another fs.type; whether a row shows
 * in the JSON of s; the summary pieces; a part's extra JSON values. */
int sb_spec_check_parts(const struct sb_spec_ctx *c, struct sb_stack_spec *s);
int sb_spec_check_fs_keys(const struct sb_spec_ctx *c, const struct sb_stack_spec *s);
bool sb_spec_row_applies(const struct sb_opt *o, const struct sb_stack_spec *s);
/* The fs.type a row belongs to (a filesystem's own key), NULL for others. */
const char *sb_spec_row_fs_type(const struct sb_opt *o);
void sb_spec_summary_parts(const struct sb_stack_spec *s, char *buf, size_t len, bool prefix);
struct json_object;
void sb_spec_json_parts(const struct sb_stack_spec *s, const struct sb_opt *row, struct json_object *obj);

/* Parse one scalar text into the field of o (used for defaults and values). */
int sb_spec_parse_scalar(const struct sb_spec_ctx *c, const struct sb_ynode *n,
			 const char *path, const struct sb_opt *o, void *field);


#endif
