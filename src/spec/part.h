/* A layer's part of the stack description: its option rows, its checks and
 * its piece of the one-line summary. Each layer type (src/layers/NAME.c)
 * defines one `struct sb_spec_part` next to its `struct sb_layer_ops` and
 * points `.spec` at it; the spec machinery (parse, defaults, --set, matrix,
 * `validate --keys`, sb_spec_to_json, the summary, the checks) iterates the
 * registry's parts instead of a central table. See docs/layers.md. */
#ifndef SB_SPEC_PART_H
#define SB_SPEC_PART_H

#include <stdbool.h>
#include <stddef.h>

#include "spec/options.h"
#include "spec/spec.h"

struct sb_spec_ctx;

/* Where a part's rows live: SB_SPEC_OWN means the layer's own storage slot
 * in struct sb_stack_spec (sb_spec_layer_data); otherwise an offsetof into
 * struct sb_stack_spec (the existing layers' structs in spec.h). */
#define SB_SPEC_OWN ((size_t)-1)

struct sb_spec_part {
	/* "" : opts is one SB_OPT_SECTION row that joins the top level
	 *      ("raid", "luks"...), placed in registry order after devices;
	 * "fs": opts are rows of the fs section (a filesystem's own keys). */
	const char *parent;
	const struct sb_opt *opts;        /* terminated by key == NULL */
	/* Storage of the rows: SB_SPEC_OWN or offsetof(struct sb_stack_spec, X).
	 * With SB_SPEC_OWN, the section a top-level row points at has base 0
	 * and enabled_off relative to the layer's own struct, and so do its
	 * sub-sections (one level of them: export.link; not deeper); "fs"
	 * rows' offsets are into the struct. */
	size_t base;
	size_t data_size;                 /* sizeof the layer's own struct (SB_SPEC_OWN) */
	/* A filesystem layer: the fs.type value that selects it. Its "fs" rows
	 * are refused (when given) and left out of the JSON for other types. */
	const char *fs_type;
	/* A filesystem's smallest size for this spec (mkfs refuses less; 0:
	 * none), and why in a few words; validate refuses loop sizes that give
	 * it less, and `validate --json` says the smallest that works
	 * (min_loop_size). */
	uint64_t (*min_fs_bytes)(const struct sb_stack_spec *s);
	const char *min_fs_why;
	/* Derived defaults and the combination rules that concern the layer;
	 * called in registry order after the devices' checks, before the fs
	 * and loop-size checks. Report with sb_spec_fail_at. */
	int (*check)(const struct sb_spec_ctx *c, struct sb_stack_spec *s);
	/* Its piece of the summary; `prefix` goes before the devices ("RAID1
	 * ×2 on "), `summary` after them (" → LVM ..."). Either may be NULL. */
	void (*prefix)(const struct sb_stack_spec *s, char *buf, size_t len);
	void (*summary)(const struct sb_stack_spec *s, char *buf, size_t len);
	/* A filesystem that spans every device below it (btrfs's own raid1/
	 * raid10 profiles): without a raid section the stack may then have
	 * several devices, and the layer takes them all (l->below->ndev),
	 * exposing one of them to the mount layer. NULL: one device. */
	bool (*spans_devices)(const struct sb_stack_spec *s);
	/* A filesystem's mount options from its own keys (btrfs: fs.compress
	 * as compress=), joined after fs.mount_options by the mount layer;
	 * they bypass the fs.mount_options allow-list, which is for what a
	 * stack file writes there. NULL: none. */
	void (*mount_options)(const struct sb_stack_spec *s, char *buf, size_t len);
	/* Extra read-only values for sb_spec_to_json of its top-level section
	 * (md: md_layout, copies). */
	void (*json)(const struct sb_stack_spec *s, struct json_object *section);
	/* Its layer exposes block devices of its own (md, LVM, LUKS,
	 * integrity, cache): its top-level section gets the shared
	 * read_ahead_kb row (parts.c), which the build sets on each of the
	 * layer's devices once it is built (sb_layer_read_ahead_apply) and
	 * the results read back (stack.built[].read_ahead_kb). */
	bool block_device;
};

/* The read_ahead_kb a block layer's section asks for (0: the kernel's
 * own, or p has no such key). */
uint32_t sb_spec_read_ahead_kb(const struct sb_stack_spec *s, const struct sb_spec_part *p);

/* The registry's parts, in registry order; provided by the layer registry
 * (src/core/layer.c, listing src/core/registry.h: the one list of layers). */
const struct sb_spec_part *sb_spec_part_at(unsigned i);

/* The layer's own storage slot (SB_LAYER_DATA_MAX bytes, zeroed before
 * defaults are applied); NULL for a part not in the registry. In the
 * layer's file: _Static_assert(sizeof(struct mine) <= SB_LAYER_DATA_MAX). */
void *sb_spec_layer_data(struct sb_stack_spec *s, const struct sb_spec_part *p);
const void *sb_spec_layer_cdata(const struct sb_stack_spec *s, const struct sb_spec_part *p);

/* For checks: fail pointing at the key (or the nearest section present in
 * the file), and whether the file/--set/matrix gave a key. */
int sb_spec_fail_at(const struct sb_spec_ctx *c, const char *dotted, bool at_key,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool sb_spec_given(const struct sb_spec_ctx *c, const char *dotted);
bool sb_spec_is_pow2(uint64_t v);

/* fs.mkfs_options against mke2fs's allow-list (fsopts.c), for ext4. */
int sb_spec_check_mke2fs_options(const struct sb_spec_ctx *c, const struct sb_stack_spec *s);

/* Does the chosen filesystem span all the devices (its spans_devices)? */
bool sb_spec_fs_spans(const struct sb_stack_spec *s);

/* "buf += fmt" for summary pieces. */
void sb_spec_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
