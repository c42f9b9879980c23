/* Internal to the suites: the context each suite function fills in, and
 * the helpers they share (cache dropping, notes, figures, engine jobs). */
#ifndef SB_BENCH_SUITES_SUITES_H
#define SB_BENCH_SUITES_SUITES_H

#include <math.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bench/iostat.h"
#include "bench/sizing.h"
#include "bench/suite.h"
#include "bench/job.h"
#include "spec/spec.h"
#include "util/err.h"

struct sb_suite_ctx {
	const char *suite;
	const struct sb_bench_spec *b;
	const char *target;
	const char *const *watch;
	unsigned nwatch;
	struct sb_iostat io;          /* whole suite */
	struct json_object *notes, *figures, *jobs;
	uint64_t ram;                 /* bytes */
	struct sb_sizing sz;          /* the size this suite writes (sb_sizing_choose) */
	unsigned phase, nphases;      /* for the progress line: phase k of n */
	struct json_object *params;   /* suite-level keys (bonnie: file_size_bytes, seed, ...) */
};

/* sync + drop the page cache before a read phase; notes once if it cannot. */
/* false when STACKBENCH_NO_DROP_CACHES is set (side-by-side with bonnie++):
 * then sb_suite_drop_caches neither syncs nor drops */
bool sb_suite_drops_caches(void);
void sb_suite_drop_caches(struct sb_suite_ctx *c);
void sb_suite_note(struct sb_suite_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cpu_pct < 0 and latency_ns == 0 are left out */
void sb_suite_figure(struct sb_suite_ctx *c, const char *name, double value, const char *unit,
		     double cpu_pct, uint64_t latency_ns);
/* A job with the suite's defaults: target dir, name, sizes; the caller sets rw/bs/... */
void sb_suite_job_init(struct sb_suite_ctx *c, struct sb_job_opts *o, const char *name);
/* Run an engine job: drops caches first when it reads, samples the devices
 * for this phase, appends the job object (with its "disk_util") to jobs,
 * notes a buffered phase that may be cache-served. */
int sb_suite_job(struct sb_suite_ctx *c, struct sb_job_opts *o, struct sb_job_result *r,
		 struct sb_err *err);
/* statvfs: -ENOSPC with a message unless `bytes` fit */
int sb_suite_check_room(struct sb_suite_ctx *c, uint64_t bytes, struct sb_err *err);
/* The job result a suite reuses, allocated once room for `bytes` is
 * checked; NULL with *rc (-ENOMEM, -ENOSPC) and the message set. */
struct sb_job_result *sb_suite_begin(struct sb_suite_ctx *c, uint64_t bytes, int *rc, struct sb_err *err);
/* A suite of ni x nj cells over total = sb_suite_size(c): the room check
 * and the one result (sb_suite_begin), then cell(i, j) for each, in order,
 * until one fails (< 0); the kept files (o->keep_files) of a failed cell
 * removed. Returns the last cell's rc. */
int sb_suite_grid(struct sb_suite_ctx *c, unsigned ni, unsigned nj,
		  int (*cell)(struct sb_suite_ctx *c, unsigned i, unsigned j, uint64_t total,
			      struct sb_job_opts *o, struct sb_job_result *r, struct sb_err *err),
		  struct sb_err *err);
/* Size for a suite: bench.size, or its default capped to what fits (c->sz). */
uint64_t sb_suite_size(const struct sb_suite_ctx *c);

/* The next phase begins: the progress line starts "SUITE phase k of n"
 * (and " (what)" when what is not NULL). */
void sb_suite_phase(struct sb_suite_ctx *c, const char *what);

/* Remove the files a directory job left (keep_files). */
void sb_suite_remove_files(const struct sb_job_opts *o);

/* Each suite's table (bench/suite.h), in its own file. */
extern const struct sb_suite_ops sb_suite_bonnie_ops;
extern const struct sb_suite_ops sb_suite_fio_matrix_ops;
extern const struct sb_suite_ops sb_suite_dd_ops;
extern const struct sb_suite_ops sb_suite_smallfile_ops;
extern const struct sb_suite_ops sb_suite_quick_ops;
extern const struct sb_suite_ops sb_suite_copy_ops;

#endif
