/* The layer list: built bottom up (loop|disks -> md -> lvm -> luks -> fs ->
 * mount), rolled back on failure, torn down top down from the state file.
 * Nothing else walks the list. */
#ifndef SB_CORE_STACK_H
#define SB_CORE_STACK_H

#include <signal.h>
#include <stdbool.h>

#include <json-c/json.h>

#include "core/layer.h"
#include "core/state.h"
#include "spec/spec.h"

#define SB_STACK_MAX_LAYERS 8

/* What the caller (the run pipeline, `build`) lets one build do: handed to
 * sb_stack_build and, while it runs, to every layer as l->ctx. The caller
 * owns it; nothing here reads the command's options any other way. */
struct sb_build_ctx {
	volatile sig_atomic_t *stop;     /* set by SIGINT/SIGTERM: stop at the next step; NULL: never */
	bool wipe;                       /* --wipe: existing signatures may be erased */
	bool destroy_data;               /* --destroy-data named these disks */
	unsigned ndestroy;               /* the disks --destroy-data named, as given */
	char destroy[SB_MAX_DISKS][SB_PATH_MAX];
	const char *destroy_list;        /* the --destroy-data argument as given ("DEV,DEV") */
	/* Called right after layer k is built, before the next one exists
	 * (bench.per_layer measures it there); an error fails the build like
	 * the layer's own. NULL: none. */
	int (*after_layer)(struct sb_stack *s, unsigned k, void *ctx, struct sb_err *err);
	void *after_ctx;
};

struct sb_stack {
	const struct sb_stack_spec *spec;
	struct sb_state state;
	char rundir[SB_PATH_MAX];        /* backing files etc: <loop.dir>/<stack name> */
	unsigned nlayers;
	struct sb_layer layers[SB_STACK_MAX_LAYERS];
};

/* Derive the layer list from the spec (no side effects). Refuses (-ENOSYS)
 * a stack needing a layer this binary was built without. */
int sb_stack_init(struct sb_stack *s, const struct sb_stack_spec *spec, struct sb_err *err);
/* Which kernel features the spec needs ("md", "device-mapper"), and whether
 * this kernel has them: 0, or -ENOTSUP with a message naming what's missing. */
/* What the kernel must have for the stack: every wanted layer's needs. */
void sb_stack_needs(const struct sb_stack_spec *spec, struct sb_kernel_needs *n);
int sb_stack_check_kernel(const struct sb_stack_spec *spec, struct sb_err *err);
/* 0, or -ENOENT naming the programs its layers would run that this
 * machine lacks, with the packages to install (sys/programs.h). */
int sb_stack_check_programs(const struct sb_stack_spec *spec, struct sb_err *err);
/* Re-attach to a stack that `build` left up (for bench): loads its state
 * file and fills every layer's device nodes and the mountpoint from it. */
int sb_stack_attach(struct sb_stack *s, struct sb_err *err);
/* Free the layers' priv data. */
void sb_stack_release(struct sb_stack *s);
/* Dry run: the ordered build steps, bottom up, then the teardown steps, top down. */
int sb_stack_plan(const struct sb_stack *s, struct sb_plan *plan, struct sb_err *err);
/* Build bottom up under ctx (NULL: no stop flag, no consent, no hook); on
 * failure of layer k, tear down k-1..0 and return the error naming layer k
 * and the cause. */
int sb_stack_build(struct sb_stack *s, const struct sb_build_ctx *ctx, struct sb_err *err);
/* Per-layer read-back: [{"layer":"md", ...}, ...] */
int sb_stack_describe(const struct sb_stack *s, struct json_object **out, struct sb_err *err);
/* The mounted directory the benchmarks run in, and the top block device. */
const char *sb_stack_mountpoint(const struct sb_stack *s);
const char *sb_stack_top_dev(const struct sb_stack *s);
/* Every block device of the stack, bottom up (for the per-device sampler). */
unsigned sb_stack_devices(const struct sb_stack *s, const char **devs, unsigned max);

/* Tear down everything a state file records, top down; continues past
 * errors, reports the first, verifies nothing is left, deletes the state. */
int sb_stack_teardown_state(struct sb_state *st, struct sb_err *err);
int sb_stack_teardown_name(const char *stack, struct sb_err *err);
int sb_stack_teardown_all(struct sb_err *err);
/* Parse --destroy-data=DEV,DEV into c->destroy[] (the list string must
 * outlive c). */
int sb_stack_set_destroy_data(struct sb_build_ctx *c, const char *list, struct sb_err *err);

#endif
