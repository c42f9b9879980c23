/* Results files (schema "stackbench-results/1", see docs/results-schema.md):
 * one JSON object per stack per run. Everything `compare` prints comes from
 * these files alone, so they carry the stack as requested and as built, the
 * host, and every suite's figures per repetition. */
#ifndef SB_REPORT_RESULTS_H
#define SB_REPORT_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <json-c/json.h>

#include "util/err.h"

#define SB_RESULTS_SCHEMA "stackbench-results/1"

/* New top-level object: schema, stackbench_version, started (now, UTC),
 * host (sb_host_info), stack {name, requested}. requested may be NULL;
 * the reference is taken over (json_object_put'd with the result). */
int sb_results_new(const char *stack_name, struct json_object *requested,
		   struct json_object **out, struct sb_err *err);
/* stack.built = built_array (reference taken over). */
int sb_results_set_built(struct json_object *res, struct json_object *built_array);
/* Append to "suites" (reference taken over). */
int sb_results_add_suite(struct json_object *res, struct json_object *suite_obj);
/* "per_layer" = rows, each layer's figures (reference taken over). */
int sb_results_set_per_layer(struct json_object *res, struct json_object *rows);
/* Set "finished" to now (UTC). */
int sb_results_finish(struct json_object *res);

/* mkdir -p DIR, write DIR/<stack>-<YYYYmmddTHHMMSSZ>.json (-2, -3, ... if it
 * exists) atomically (temp file, fsync, rename), pretty-printed. The path
 * written is copied to path_out when it is not NULL. */
int sb_results_write(struct json_object *res, const char *dir,
		     char *path_out, size_t len, struct sb_err *err);
/* What a reader takes from another machine: a results file is refused
 * (exit 2, a message naming the file) past these. Real ones are a few KiB
 * with a row per layer and a suite object per suite per repetition. */
#define SB_RESULTS_MAX_BYTES (8 << 20)
#define SB_RESULTS_MAX_VALUES 200000
#define SB_RESULTS_MAX_ROWS 256     /* per_layer rows, stack.built layers */
#define SB_RESULTS_MAX_SUITES 10000

/* Parse PATH (one JSON document, at most SB_RESULTS_MAX_BYTES) and check
 * its shape (sb_results_check); errors name the file and the key. */
int sb_results_read(const char *path, struct json_object **out, struct sb_err *err);
/* sb_results_read's parse and checks on len bytes of buf; path names them. */
int sb_results_parse(const char *buf, size_t len, const char *path, struct json_object **out,
		     struct sb_err *err);
/* Same checks on an object already in memory; what names it in messages:
 * the schema string, then every key against docs/results-schema.json and
 * the bounds above ("a.json: stack.built[2].name: expected a string, got
 * null"). After it the readers below may trust each key's type. */
int sb_results_check(struct json_object *res, const char *what, struct sb_err *err);
/* results_shape.c: the schema and bounds part of sb_results_check. */
int sb_results_shape_check(struct json_object *res, const char *what, struct sb_err *err);

/* ---- reading: this module owns the key names; readers use these. They
 * never fail: NULL, "" or false when a part is absent or of another type. ---- */
const char *sb_results_stack_name(struct json_object *res);
/* "started", "finished": ISO-8601 UTC strings. */
const char *sb_results_started(struct json_object *res);
const char *sb_results_finished(struct json_object *res);
/* host (an object), and host.outer: the machine that booted the throwaway
 * kernel, when the run was in it. */
struct json_object *sb_results_host(struct json_object *res);
struct json_object *sb_results_host_outer(struct json_object *res);
/* host.sandbox: the run was inside the throwaway kernel. */
bool sb_results_sandboxed(struct json_object *res);
/* stack.requested (the spec as asked), stack.built (the layers as read back). */
struct json_object *sb_results_requested(struct json_object *res);
struct json_object *sb_results_built(struct json_object *res);
/* stack.planned: the layers the stack as requested would have, bottom up
 * ({layer, label, section}), written before the build; NULL if absent. */
struct json_object *sb_results_planned(struct json_object *res);
/* stack.built, or stack.planned when nothing was read back (a build that
 * failed): what the tables name a row by. */
struct json_object *sb_results_layers(struct json_object *res);
/* The top-level notes array. */
struct json_object *sb_results_notes(struct json_object *res);
/* "per_layer" rows (array), or NULL. */
struct json_object *sb_results_per_layer(struct json_object *res);
/* suites: how many, the i-th (NULL past the end), and of a suite object its
 * name ("" if none), figures (object) and notes (array). */
size_t sb_results_nsuites(struct json_object *res);
struct json_object *sb_results_suite(struct json_object *res, size_t i);
const char *sb_results_suite_name(struct json_object *suite);
struct json_object *sb_results_suite_figures(struct json_object *suite);
struct json_object *sb_results_suite_notes(struct json_object *suite);
/* The machine of a result: host.label (build-and-test --host-label, e.g. an
 * Ansible inventory name), else host.hostname; "" when neither is there. */
const char *sb_results_host_name(struct json_object *res);
/* The built layer object named layer ("luks", "md", ...), or NULL. */
struct json_object *sb_results_built_layer(struct json_object *res, const char *layer);

/* ISO-8601 UTC "2026-11-30T01:02:03Z" of t. */
void sb_results_iso_time(time_t t, char *buf, size_t len);

/* host.c: hostname, label (env STACKBENCH_HOST_LABEL, when set), kernel, kernel_build, machine, sandbox, cpu_model, cores, ram_bytes. */
int sb_host_info(struct json_object **out, struct sb_err *err);

#endif
