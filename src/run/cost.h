/* What a run of a stack costs, said before it starts: the disk space it
 * takes and where, the benchmark sizes the machine that runs it gets, and
 * an estimated run time from those sizes (bench/sizing.h). `plan` prints
 * it in full; build-and-test prints the one-line total first. */
#ifndef SB_RUN_COST_H
#define SB_RUN_COST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/sizing.h"
#include "spec/spec.h"

struct sb_cost {
	uint64_t ram;                 /* of the machine that runs the suites */
	bool sandbox;                 /* that machine is the throwaway kernel */
	uint64_t backing;             /* loop: count x size of sparse files; 0 with disks */
	uint64_t written;             /* about this much of them fills up */
	uint64_t fs_free;             /* estimated free space of the fresh filesystem */
	struct sb_sizing sz[SB_MAX_SUITES];
	unsigned repeat;
	double min_s, max_s;          /* build + suites x repeat + teardown */
	/* repeat auto: min_rounds to max_rounds rounds, each a build, the
	 * suites once and a teardown; min_s is the fewest rounds' low
	 * estimate (the earliest verdict), max_s the most rounds' high one */
	bool rounds;
	unsigned min_rounds, max_rounds;
	double max_time_s;            /* 0: none; else max_s is capped near it */
	double once_lo, once_hi;      /* what is not repeated (first build, boot, ceiling) */
	double suites_lo, suites_hi;  /* the suites once */
};

/* RAM and sandbox: what `sb_run` will see with the sandbox choice given
 * (struct sb_run_ctx's sandbox, in_sandbox). repeat 0: bench.repeat; its
 * auto: the rounds of bench.min_repeat to max_repeat (sb_cost_rounds). */
void sb_cost_compute(const struct sb_stack_spec *s, unsigned repeat, int sandbox, bool in_sandbox,
		     struct sb_cost *out);
/* repeat auto: from min rounds to max (max_time_s > 0: none started that
 * would pass it), each stack rebuilt every round. */
void sb_cost_rounds(struct sb_cost *c, unsigned min, unsigned max, double max_time_s);
/* n more builds and teardowns of the stack (build-and-test --interleave). */
void sb_cost_add_rebuilds(struct sb_cost *c, unsigned n);
/* The lines of `plan` ("cost:" and indented details). */
void sb_cost_print(FILE *f, const struct sb_stack_spec *s, const struct sb_cost *c);
/* "about 2 min to 9 min, up to 4.3 GiB written of 2 x 4 GiB sparse files
 * under /var/tmp/stackbench" */
void sb_cost_summary(const struct sb_stack_spec *s, const struct sb_cost *c, char *buf, size_t len);

#endif
