/* One layer, one file. A layer type is a small vtable (device-mapper's
 * target_type, fio's ioengine_ops) filled with designated initializers in
 * src/layers/<name>.c and listed once in layer.c's registry. */
#ifndef SB_CORE_LAYER_H
#define SB_CORE_LAYER_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/state.h"
#include "spec/spec.h"
#include "util/err.h"

#define SB_LAYER_MAX_DEVS SB_MAX_DISKS

struct sb_stack;
struct sb_plan;

struct sb_layer {
	const struct sb_layer_ops *ops;
	const struct sb_stack_spec *spec;
	struct sb_stack *stack;          /* owner: state, run dir, stop flag */
	struct sb_layer *below;          /* NULL for the bottom layer */
	/* Block devices this layer exposes upward (loop/disks: N, md/lvm/luks: 1,
	 * ext4: same as below, mount: none). Filled by build. The benchmark runs
	 * per-layer jobs against these. */
	unsigned ndev;
	char dev[SB_LAYER_MAX_DEVS][SB_PATH_MAX];
	char mountpoint[SB_PATH_MAX];    /* mount layer only */
	void *priv;                      /* layer's own per-instance data */
};

struct sb_layer_ops {
	const char *name;                /* "loop", "md", ... also the state's layer field */
	/* Dry run: append the build steps and the teardown steps it would take. */
	void (*plan)(const struct sb_layer *l, struct sb_plan *plan);
	/* Create the object on l->below's devices. Records every object with
	 * sb_state_add() BEFORE creating it. Fills l->dev / l->ndev. */
	int (*build)(struct sb_layer *l, struct sb_err *err);
	/* Read back what is in effect from the system (sysfs, libcryptsetup,
	 * libblkid...) into out (a JSON object) for the results file. */
	int (*describe)(const struct sb_layer *l, struct json_object *out, struct sb_err *err);
	/* Remove one recorded object. Must succeed (0) when the object is already
	 * gone, and work on a half-built layer; bounded waits only. */
	int (*teardown)(const struct sb_state_obj *obj, struct sb_err *err);
	/* Does the recorded object still exist? (teardown verification, status) */
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
};

/* Registry lookup; NULL for unknown names and for layers this binary was
 * linked without (md, lvm, luks are weak references). */
const struct sb_layer_ops *sb_layer_find(const char *name);

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
