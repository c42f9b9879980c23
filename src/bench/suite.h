/* Benchmark suites, for the orchestrator (`bench`, `build-and-test`).
 * A suite runs on a directory (the stack's mounted filesystem, or any
 * directory) and produces one suite object of docs/results-schema.md:
 * {"suite","repetition","target","notes","figures","jobs","disk_util"}. */
#ifndef SB_BENCH_SUITE_H
#define SB_BENCH_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "spec/spec.h"
#include "util/err.h"

struct sb_suite_ctx;
struct sb_sizing_rates;

/* A suite is this table, in its own file under suites/ (as fio's
 * ioengine_ops): the registry in suite.c lists the tables, and sizing, the
 * plan's estimate, the progress line and compare's default columns ask
 * them. Every member is required (tests/unit/test_suite.c checks). */
struct sb_suite_ops {
	const char *name;
	/* Run on c->target with c->sz.size bytes: figures, jobs, notes into c. */
	int (*run)(struct sb_suite_ctx *c, struct sb_err *err);
	/* Bytes it writes when bench.size is 0; SB_SUITE_TWICE_RAM: twice the
	 * machine's RAM, as bonnie++ sizes its file. */
	uint64_t default_size;
	/* Seconds one repetition takes writing size bytes at the rates r. */
	double (*estimate)(double size, const struct sb_bench_spec *b, const struct sb_sizing_rates *r);
	/* Engine jobs it runs, for the progress line's "phase k of n". */
	unsigned phases;
	/* compare's default columns for its figures ("write,rewrite,read");
	 * "": the SUITE.FIGURE of each figure the results hold. */
	const char *columns;
};

#define SB_SUITE_TWICE_RAM UINT64_MAX

/* Seconds of a suite of `phases` timed phases when bench.runtime is set
 * (each runs it, after bench.ramp_time), else untimed_s. */
double sb_suite_timed(const struct sb_bench_spec *b, unsigned phases, double untimed_s);

/* The registry, in its order: the i-th suite, NULL past the last. */
const struct sb_suite_ops *sb_suite_at(size_t i);
/* The suite called name, NULL if there is none. */
const struct sb_suite_ops *sb_suite_find(const char *name);

/* Run suite `suite` (a name of the registry, see sb_suite_name) with
 * the sizes of b (b->size 0 = the suite's default: bonnie twice RAM, the
 * others see `stackbench help bench`) in target_dir, sampling every device
 * in watch_devs (node paths; the target's own filesystem device is always
 * added). On success *out is a new suite object owned by the caller.
 * -EINVAL for an unknown suite, -ENOSPC when the target lacks room, -EILSEQ
 * when a verify check failed, other -errno on I/O errors. */
int sb_suite_run(const char *suite, const struct sb_bench_spec *b, const char *target_dir,
		 const char *const *watch_devs, unsigned nwatch, unsigned repetition,
		 struct json_object **out, struct sb_err *err);

/* The registry, in its order: the i-th suite's name, NULL past the last
 * (for (i = 0; (n = sb_suite_name(i)); i++) ...). */
const char *sb_suite_name(size_t i);
/* true if name is a known suite */
bool sb_suite_exists(const char *name);
/* The names, comma-separated: "bonnie, fio-matrix, dd, smallfile, quick" */
const char *sb_suite_names(void);

/* The copy suite's other directories in base (its default base:
 * /var/tmp) that runs of this boot killed with -9 left - their pid gone,
 * owned by this user: each is passed to removed (may be NULL), then
 * removed. Returns how many. `stackbench teardown` calls it too. */
unsigned sb_suite_copy_sweep(const char *base, void (*removed)(const char *path, long pid, void *ctx),
			     void *ctx);

/* The bench.* keys' defaults and `--set bench.KEY=VALUE` come from the
 * stack format's own bench rows: sb_spec_bench_keys() in spec/spec.h. */

#endif
