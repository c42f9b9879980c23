/* What exists: /run/stackbench/<stack>.state (JSON), rewritten atomically
 * BEFORE each kernel object is created, so a teardown after a crash or
 * kill -9 can always find everything. Teardown is driven by this file alone,
 * never by the stack description, so it works when the YAML is gone.
 * The directory can be moved with $STACKBENCH_STATE_DIR (tests use this so
 * that parallel runs never see each other's stacks). */
#ifndef SB_CORE_STATE_H
#define SB_CORE_STATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "spec/spec.h"
#include "util/err.h"

#define SB_STATE_MAX_OBJS 64

/* One kernel object or file. `layer` names the layer type that knows how to
 * remove it (sb_layer_find(layer)->teardown). Examples:
 *   loop  file     /var/tmp/stackbench/ext4/d0
 *   loop  loopdev  /dev/loop3          (extra: backing file)
 *   md    md       /dev/md/sb-ext4     (extra: uuid, once known)
 *   lvm   pv|vg|lv /dev/md127 | sb_vg | sb_vg/sb_lv
 *   luks  dm       sb-ext4-crypt
 *   mount mount    /run/stackbench/mnt/ext4
 *   mount dir      /run/stackbench/mnt/ext4 */
struct sb_state_obj {
	char layer[16];
	char kind[16];
	char id[SB_PATH_MAX];
	char extra[SB_PATH_MAX];
};

#define SB_STATE_MAX_PENDING 8

/* A process a teardown left behind at a removal that did not finish in time
 * (a hung device below): it may still finish that removal, so the next
 * teardown waits for it instead of racing it for the same objects. */
struct sb_state_pending {
	int pid;
	unsigned long long start;  /* /proc/PID/stat start time: this process, not a reuse */
	char doing[SB_PATH_MAX + 48]; /* "removing md md /dev/md/sb-ext4" */
};

struct sb_state {
	char stack[SB_NAME_MAX];
	char path[SB_PATH_MAX];
	char source[SB_PATH_MAX];
	int pid;                 /* process that built it */
	char started[32];        /* ISO 8601 UTC */
	unsigned nobj;
	struct sb_state_obj obj[SB_STATE_MAX_OBJS];
	unsigned npending;
	struct sb_state_pending pending[SB_STATE_MAX_PENDING];
};

/* Directory holding state files ($STACKBENCH_STATE_DIR or /run/stackbench). */
const char *sb_state_dir(void);

/* Create a new state for a stack; -EEXIST (with a message saying how to clean
 * up) if one already exists. Writes the (empty) file. */
int sb_state_create(struct sb_state *st, const char *stack, const char *source, struct sb_err *err);
/* Record an object and rewrite the file (fsync'd) before the caller creates it. */
int sb_state_add(struct sb_state *st, const char *layer, const char *kind,
		 const char *id, const char *extra, struct sb_err *err);
/* Update the extra field of the last object of that layer/kind/id. */
int sb_state_set_extra(struct sb_state *st, const char *layer, const char *kind,
		       const char *id, const char *extra, struct sb_err *err);
/* Drop an object once removed, and rewrite the file. */
int sb_state_remove(struct sb_state *st, unsigned idx, struct sb_err *err);
int sb_state_load(const char *stack, struct sb_state *st, struct sb_err *err);
/* Rewrite the file as st now is. */
int sb_state_save(struct sb_state *st, struct sb_err *err);
/* Delete the state file (after a verified teardown). */
int sb_state_delete(struct sb_state *st, struct sb_err *err);
/* Test hook for the kill, signal and secret tests: when
 * $STACKBENCH_TEST_PAUSE_AT equals point, touch $STACKBENCH_TEST_PAUSE_MARK
 * and hold the process for up to 60 s (any caught signal ends the hold early,
 * so SIGINT/SIGTERM still stop at this step; so does removing the mark).
 * Points:
 *   "LAYER:KIND"        in sb_state_add, right after the object is recorded
 *                       and before it is created ("lvm:vg": PV made, no VG)
 *   "LAYER:KIND:extra"  in sb_state_set_extra, right after an object was
 *                       created and its id recorded ("luks:dm:extra": LUKS
 *                       formatted, not opened)
 *   "after:LAYER"       at the layer boundary, once LAYER is built
 *   "luks:key"          while the luks layer holds the passphrase and the
 *                       mapping is open
 *   "disks:handoff"     in sb_safety_handoff, after the checks and the
 *                       consent, before the re-check and the first write
 * Unset (normal runs): a getenv and nothing else. Defined in util/log.c. */
#include "util/log.h"

/* The environment entry every process of a build carries (inherited by
 * mdadm, lvm, mkfs...): STACKBENCH_BUILDER=STACK:PID:STARTED. */
#define SB_BUILDER_ENV "STACKBENCH_BUILDER"
/* Set it in this process, for the state just created. */
int sb_state_mark_builder(const struct sb_state *st, struct sb_err *err);
/* Before a teardown: wait (up to timeout_ms) until no other process carries
 * the entry of st's build, i.e. no tool a killed build started is still
 * creating something; -EBUSY naming one if they do not end. */
int sb_state_wait_builder(const struct sb_state *st, unsigned timeout_ms, struct sb_err *err);

/* Record (and write) that process pid was left doing `doing`. */
int sb_state_add_pending(struct sb_state *st, pid_t pid, const char *doing, struct sb_err *err);
/* Before a teardown: wait (up to timeout_ms) for the processes an earlier
 * teardown left behind; drop those that ended. -EBUSY naming one that still
 * runs: tearing down beside it would race it for the same objects. */
int sb_state_wait_pending(struct sb_state *st, unsigned timeout_ms, struct sb_err *err);
/* Both waits, the build's tools first: what a teardown does before it
 * removes anything. */
int sb_state_wait_others(struct sb_state *st, unsigned timeout_ms, struct sb_err *err);

/* Names of every stack with a state file; caller frees each and the array. */
int sb_state_list(char ***names, unsigned *n, struct sb_err *err);

#endif
