/* Internal to src/spec: the conversion context shared by the loader
 * (spec.c), the tree-to-struct conversion (convert.c) and the checks of
 * impossible combinations (check.c). */
#ifndef SB_SPEC_SPEC_INT_H
#define SB_SPEC_SPEC_INT_H

#include <stdbool.h>

#include "spec/options.h"
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

/* fs.mkfs_options / fs.mount_options against their allow-lists (fsopts.c). */
int sb_spec_check_fsopts(const struct sb_spec_ctx *c, const struct sb_stack_spec *s);

/* Parse one scalar text into the field of o (used for defaults and values). */
int sb_spec_parse_scalar(const struct sb_spec_ctx *c, const struct sb_ynode *n,
			 const char *path, const struct sb_opt *o, void *field);

bool sb_spec_is_pow2(uint64_t v);

#endif
