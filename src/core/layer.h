/* One layer, one file. A layer type is a small vtable (device-mapper's
 * target_type, fio's ioengine_ops) filled with designated initializers in
 * src/layers/<name>.c and listed once in layer.c's registry. */
#ifndef SB_CORE_LAYER_H
#define SB_CORE_LAYER_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/state.h"
#include "report/layer_report.h"
#include "report/per_layer.h"
#include "spec/part.h"
#include "spec/spec.h"
#include "sys/kernel.h"
#include "sys/programs.h"
#include "util/err.h"

#define SB_LAYER_MAX_DEVS SB_MAX_DISKS

struct sb_stack;
struct sb_plan;
struct sb_build_ctx;

struct sb_layer {
	const struct sb_layer_ops *ops;
	const struct sb_stack_spec *spec;
	struct sb_stack *stack;          /* owner: state, run dir */
	/* During sb_stack_build only (NULL otherwise): what the caller lets
	 * the build do, the stop flag and the consent to destroy or wipe. */
	const struct sb_build_ctx *ctx;
	struct sb_layer *below;          /* NULL for the bottom layer */
	/* Block devices this layer exposes upward (loop/disks: N, md/lvm/luks: 1,
	 * ext4: same as below, mount: none). Filled by build. The benchmark runs
	 * per-layer jobs against these. */
	unsigned ndev;
	char dev[SB_LAYER_MAX_DEVS][SB_PATH_MAX];
	char mountpoint[SB_PATH_MAX];    /* mount layer only */
	void *priv;                      /* layer's own per-instance data */
};

/* What check_leftovers found: "a, b, c" (cut when full). */
struct sb_leftovers {
	char text[SB_ERR_MSG_MAX / 2];
	const char *rundir;              /* the stack's run directory, resolved */
};

/* Place of a layer type in the stack, bottom up (sb_stack_init sorts the
 * wanted layers by it; equal ones keep registry order). */
enum sb_layer_order {
	SB_ORDER_DEVICES = 10,   /* loop, disks */
	SB_ORDER_MEMBER = 20,    /* over each member: fault */
	SB_ORDER_ARRAY = 30,     /* md */
	SB_ORDER_VOLUME = 40,    /* lvm */
	SB_ORDER_CRYPT = 50,     /* luks */
	SB_ORDER_FS = 60,        /* ext4, xfs */
	SB_ORDER_MOUNT = 70,     /* mount */
};

/* What the layers of a stack ask `ciphers` to measure (the ciphers op). */
struct sb_cipher_wants {
	const char *dm_crypt;        /* a dm-crypt cipher spec, or NULL */
	unsigned key_bits;
	const char *ssh[8];          /* SSH cipher names, NULL-terminated */
	unsigned nssh;
};

struct sb_layer_ops {
	const char *name;                /* "loop", "md", ... also the state's layer field */
	/* Its part of the stack description: option rows, checks, summary
	 * (spec/part.h). NULL: it has no keys of its own. */
	const struct sb_spec_part *spec;
	enum sb_layer_order order;
	/* Is this layer in the stack the spec describes? Optional for a
	 * filesystem: without it, when fs.type names its part's fs_type. */
	bool (*wanted)(const struct sb_stack_spec *spec);
	/* What the kernel must have for it (sys/kernel.h: "md", "dm",
	 * "fs:xfs"...): kernel_needs, a NULL-terminated list of static
	 * strings, and/or needs for what depends on the spec. */
	const char *const *kernel_needs;
	void (*needs)(const struct sb_stack_spec *spec, struct sb_kernel_needs *n);
	/* Optional: the programs its spec will run and their packages
	 * (sys/programs.h), checked before anything is built. */
	void (*programs)(const struct sb_stack_spec *spec, struct sb_program_needs *n);
	/* Optional: the device node it will create, as plans name it, before
	 * it is built ("/dev/md/sb-NAME"). Without it: the layer below's. */
	void (*predict_dev)(const struct sb_layer *l, char *out, size_t len);
	/* Optional: kernel objects named like the ones it would create, left
	 * by an earlier run whose state file is gone; add each with
	 * sb_leftover_add. */
	void (*leftovers)(const struct sb_stack *s, struct sb_leftovers *found);
	/* Optional: the dm name of one of its recorded objects, "" if that
	 * object is no dm device (for resuming suspended ones). */
	void (*dm_name)(const struct sb_state_obj *obj, char *out, size_t len);
	/* Dry run: append the build steps and the teardown steps it would take. */
	void (*plan)(const struct sb_layer *l, struct sb_plan *plan);
	/* Create the object on l->below's devices. Records every object with
	 * sb_state_add() BEFORE creating it. Fills l->dev / l->ndev. */
	int (*build)(struct sb_layer *l, struct sb_err *err);
	/* Read back what is in effect from the system (sysfs, libcryptsetup,
	 * libblkid...) into out (a JSON object) for the results file. */
	int (*describe)(const struct sb_layer *l, struct json_object *out, struct sb_err *err);
	/* Remove one recorded object. Must succeed (0) when the object is already
	 * gone, and work on a half-built layer; bounded waits only. Optional
	 * for a layer that records nothing (a filesystem on the device below). */
	int (*teardown)(const struct sb_state_obj *obj, struct sb_err *err);
	/* Does the recorded object still exist? (teardown verification, status;
	 * optional as teardown is) */
	bool (*exists)(const struct sb_state_obj *obj);
	/* Optional: free priv. */
	void (*release)(struct sb_layer *l);
	/* Optional: called right before the layer above builds, i.e. before
	 * the first write to this layer's devices: the last re-check, and the
	 * moment to let go of what kept others off them (disks: O_EXCL). */
	int (*handoff)(struct sb_layer *l, struct sb_err *err);
	/* Optional: fill l->dev/ndev (mount: l->mountpoint) from the objects
	 * a state file records, for a stack built by an earlier command.
	 * Layers without it inherit the devices of the layer below. */
	int (*attach)(struct sb_layer *l, const struct sb_state *st, struct sb_err *err);

	/* bench.per_layer (run/per_layer.c). per_layer: its devices get the
	 * raw jobs right after it is built (a block layer). */
	bool per_layer;
	/* A filesystem with no block device of its own (btrfs over its
	 * members): the same jobs on a file of it, once the mount layer has
	 * mounted it, as its row. */
	bool pl_file;
	/* Optional: what the layer itself reports around the raw jobs on its
	 * device i (after: false before them, true after), added to that
	 * row: dm-cache's hit counters, LUKS's cipher ceilings. */
	void (*pl_observe)(const struct sb_layer *l, unsigned i, bool after, struct json_object *row);
	/* Optional: its model of one row (the expected figure per key and the
	 * sentence), from what was measured below (b) and what pl_observe
	 * recorded in row; m arrives filled by sb_pl_model_below. Without it
	 * a layer is expected to do what is below. Documented in
	 * docs/layers.md. */
	void (*pl_model)(const struct sb_stack_spec *spec, struct json_object *row,
			 const struct sb_pl_below *b, struct sb_pl_model *m);
	/* Optional: the part of the environment it captures beside the
	 * figures (dm tables, the LUKS header summary, md's tunables), added
	 * to out; never a key. */
	void (*capture)(const struct sb_layer *l, struct json_object *out);
	/* Optional: the ciphers its data passes through, measured beside the
	 * figures (results "ciphers"): a dm-crypt cipher, SSH ciphers. */
	void (*ciphers)(const struct sb_stack_spec *spec, struct sb_cipher_wants *w);
	/* The layer faults.* act on (md): its array is dev[0], the members
	 * the layer below's dev[]. */
	bool fault_target;

	/* Optional: its word in the tables' "setup" column ("LUKS", "EXT4",
	 * "RAID1"), from its results object (stack.built[i]). Without it the
	 * column leaves the layer out (devices, faults, mount). With
	 * label_if_differs the word is appended to every row only when the
	 * rows differ in it (the RAID level: the Helios4 table is all RAID1). */
	void (*label)(struct json_object *built, char *out, size_t len);
	bool label_if_differs;
	/* The section of the stack file it is made from when it has no spec
	 * part of its own (loop, disks: "devices"); with a part: the part's
	 * section, or "fs" for a filesystem's rows. */
	const char *section;
	/* Optional: what the report asks of it (report/layer_report.h): its
	 * table columns, its asked/read-back checks, its devices' roles, the
	 * keys that rebuild its stack. */
	const struct sb_layer_report *report;
};


/* The optional ops with their defaults: wanted (a filesystem's fs_type),
 * kernel_needs + needs, teardown (0: a layer without it records nothing)
 * and exists (false). */
bool sb_layer_wanted(const struct sb_layer_ops *ops, const struct sb_stack_spec *spec);
void sb_layer_needs(const struct sb_layer_ops *ops, const struct sb_stack_spec *spec,
		    struct sb_kernel_needs *n);
int sb_layer_teardown(const struct sb_layer_ops *ops, const struct sb_state_obj *obj, struct sb_err *err);
bool sb_layer_exists(const struct sb_layer_ops *ops, const struct sb_state_obj *obj);

/* queue/read_ahead_kb of each of l's devices set to kb (0: left as the
 * kernel made it): the one place a read-ahead is written, for the
 * members' devices.read_ahead_kb and every block layer's own key
 * (sb_layer_read_ahead_apply). */
int sb_layer_set_read_ahead(const struct sb_layer *l, uint32_t kb, struct sb_err *err);
/* A block layer's read_ahead_kb (spec/part.h .block_device) on its
 * devices, right after it is built; and what is in effect, for its
 * results object (stack.built[].read_ahead_kb: null when unreadable). */
int sb_layer_read_ahead_apply(const struct sb_layer *l, struct sb_err *err);
void sb_layer_read_ahead_describe(const struct sb_layer *l, struct json_object *out);

/* Is dev one of the block devices this stack's state records (a loop
 * device, the md array, the LV, the LUKS mapping it just created)? Matched
 * by device number, whatever name the layer recorded it under: the test a
 * filesystem makes before it forces mkfs over an old signature. */
bool sb_layer_dev_is_ours(const struct sb_layer *l, const char *dev);

/* The label, label_if_differs and section of every layer of a results
 * file's stack.built array, as this version's layers give them (set on
 * what the build read back, and again on files read from elsewhere: a
 * file's own words are not trusted; an unknown layer gets none). */
void sb_layer_label_built(struct json_object *built);
/* The same for the results of one stack: stack.built, and stack.planned
 * (made here when spec is given: the layers spec wants, bottom up). */
void sb_layer_label_results(struct json_object *res, const struct sb_stack_spec *spec);
/* A label op's common form: key's string value of built (or, lacking it,
 * fallback) in upper case. */
void sb_layer_label_upper(struct json_object *built, const char *key, const char *fallback,
			  char *out, size_t len);
/* The label most layers have: their name in upper case ("LUKS", "EXT4"). */
void sb_layer_label_name(struct json_object *built, char *out, size_t len);

/* Registry lookup; NULL for unknown names. */
const struct sb_layer_ops *sb_layer_find(const char *name);
/* The registry in order (i from 0), NULL past the end. */
const struct sb_layer_ops *sb_layer_at(unsigned i);

void sb_leftover_add(struct sb_leftovers *f, const char *a, const char *b, const char *c);
/* Name of every dm device (/sys/block/dm-N/dm/name) to fn. */
void sb_layer_each_dm(void (*fn)(const char *dm_name, void *ctx), void *ctx);
/* Every dm device named prefix + a tail that tail_ok accepts into found
 * ("dm device NAME"): a layer's leftovers() by the names it gives. */
void sb_layer_dm_leftovers(struct sb_leftovers *found, const char *prefix, bool (*tail_ok)(const char *tail));
/* The same for any /sys/block/PREFIX* device: fn(its name, the first line
 * of its attribute file ATTR, e.g. "loop/backing_file"). */
void sb_layer_each_sysblock(const char *prefix, const char *attr,
			    void (*fn)(const char *dev, const char *val, void *ctx), void *ctx);

/* Device node a layer will create, as the plans name it, for a layer that
 * has not been built (e.g. "/dev/md/sb-ext4"); "" when unknown. The naming
 * conventions of every layer live here so plans agree with builds. */
void sb_layer_predict_dev(const struct sb_layer *l, char *out, size_t len);
/* Built names, shared by the plans and the layers (so they agree). */
void sb_layer_md_name(const struct sb_stack_spec *spec, char *out, size_t len);      /* /dev/md/sb-NAME */
void sb_layer_lvm_names(const struct sb_stack_spec *spec, char *vg, size_t vglen,
			char *lv, size_t lvlen);                                     /* sb_VG, sb_LV */
void sb_layer_luks_name(const struct sb_stack_spec *spec, char *out, size_t len);    /* sb-NAME-crypt */

/* Plan output: ordered human steps. */
struct sb_plan {
	unsigned nbuild, nteardown;
	char build[64][512];
	char teardown[64][512];
};
void sb_plan_build(struct sb_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_plan_teardown(struct sb_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
