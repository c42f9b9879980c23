/* Internal to the bonnie suite: what bonnie.c (block and seek tests) and
 * bonnie_files.c (the file creation tests) share. */
#ifndef SB_BENCH_SUITES_BONNIE_H
#define SB_BENCH_SUITES_BONNIE_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/suites/suites.h"
#include "util/err.h"

struct sb_bonnie {
	struct sb_suite_ctx *c;
	char path[600];
	uint64_t size, chunk, nchunks;
	uint32_t seeks, procs;        /* bonnie++ -s SIZE:CHUNK:SEEKS:PROCS */
	bool sync;                    /* bonnie++ -b */
	bool progress;                /* stderr is a terminal: the block phases show progress */
	char *buf;
};

/* The caller's stop flag is set (SIGINT/SIGTERM): end with -EINTR. */
static inline bool sb_bonnie_stopped(const struct sb_bonnie *bn)
{
	return bn->c->b->stop && *bn->c->b->stop;
}

/* bonnie++'s timer: wall clock and the process's CPU time */
struct sb_bonnie_timer {
	uint64_t t0;
	double cpu0;
};

void sb_bonnie_timer_start(struct sb_bonnie_timer *t);
/* elapsed seconds; *cpu_pct = CPU time / elapsed * 100 */
double sb_bonnie_timer_stop(const struct sb_bonnie_timer *t, double *cpu_pct);
/* One clock read per operation (it ends one and starts the next): the
 * worst operation so far into *lmax, *prev moved to now. */
void sb_bonnie_lmax_step(uint64_t *lmax, uint64_t *prev);
/* a small PRNG (xorshift64*) for seeks and names */
uint64_t sb_bonnie_rnd(uint64_t *s);
/* the figure, with the elapsed time bonnie++ judges "+++++" by */
void sb_bonnie_figure(struct sb_bonnie *bn, const char *name, double value, const char *unit,
		      double elapsed_s, double cpu_pct, uint64_t lmax);

/* bonnie++'s seek test (bonnie_seeks.c) */
int sb_bonnie_seeks(struct sb_bonnie *bn, struct sb_err *err);
/* CPU seconds (user + system) of RUSAGE_SELF or RUSAGE_THREAD */
double sb_bonnie_cpu(int who);

/* bonnie++'s six file tests (bonnie_files.c) */
/* the directory file i of n goes to with -n ...:DIRS: bonnie++ hands out
 * n / dirs + 1 files to a directory, in index order */
unsigned sb_bonnie_dir_of(unsigned i, unsigned n, unsigned dirs);
int sb_bonnie_file_tests(struct sb_bonnie *bn, struct sb_err *err);

#endif
