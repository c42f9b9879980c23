/* What the filesystem layers (ext4.c, xfs.c, btrfs.c) share, in mkfs.c:
 * the option list they hand to mkfs, its text in the plan, when -f is
 * planned, the one device they take and expose, and the read-back of a
 * superblock into describe(). */
#ifndef SB_LAYERS_MKFS_INT_H
#define SB_LAYERS_MKFS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blockdev/fs.h>
#include <json-c/json.h>

#include "core/layer.h"
#include "spec/spec.h"
#include "sys/fsprobe.h"
#include "util/err.h"

#define SB_MKFS_ARGS_MAX 48

/* mkfs's options in order, as opt/value pairs ("" where an option has no
 * value). */
struct sb_mkfs_args {
	unsigned n;
	char opt[SB_MKFS_ARGS_MAX][SB_OPTSTR_MAX];
	char val[SB_MKFS_ARGS_MAX][SB_OPTSTR_MAX];
};

/* Append opt (and val, NULL for none); past SB_MKFS_ARGS_MAX, nothing. */
void sb_mkfs_args_add(struct sb_mkfs_args *a, const char *opt, const char *val);
/* Append each word of words (fs.mkfs_options, split on blanks) as is. */
void sb_mkfs_args_words(struct sb_mkfs_args *a, const char *words);
/* " opt val" for each pair, into buf, for the plan. */
void sb_mkfs_args_join(const struct sb_mkfs_args *a, char *buf, size_t len);

/* The plan cannot look at a state yet: -f (overwrite an old signature)
 * unless the device is one of the given disks itself. */
bool sb_mkfs_plan_force(const struct sb_layer *l);

/* The start of build(): exactly one device below l (else -EINVAL), the
 * fs plugin loaded, and *a allocated (the caller frees it). */
int sb_mkfs_begin(const struct sb_layer *l, struct sb_mkfs_args **a, struct sb_err *err);

/* mkfs of dev with a's options through libblockdev's fs plugin call
 * mkfs (bd_fs_ext4_mkfs, bd_fs_xfs_mkfs); tool names it in the message. */
int sb_mkfs_run(gboolean (*mkfs)(const gchar *, const BDExtraArg **, GError **), const char *tool,
		const char *dev, const struct sb_mkfs_args *a, struct sb_err *err);

/* The layer's device is the first one below it (the filesystem's). */
void sb_mkfs_expose(struct sb_layer *l);

/* What a superblock says: the figures every filesystem has, then up to
 * four of its own, in the order describe() lists them. */
struct sb_mkfs_super {
	uint32_t block_size;
	uint64_t blocks;
	struct sb_fs_ids ids;
	unsigned nfig;
	struct {
		const char *key;
		int64_t v;
	} fig[4];
};

/* describe() of a filesystem layer: nothing before it is built; else
 * read(dev) and "type", "uuid", ("label"), "block_size", "blocks" and the
 * filesystem's own figures into out. */
int sb_mkfs_describe(const struct sb_layer *l, int (*read)(const char *dev, struct sb_mkfs_super *sb,
							    struct sb_err *err),
		     bool with_label, struct json_object *out, struct sb_err *err);

#endif
