/* Benchmark sizes chosen from the machine that runs them and the room the
 * stack has, and how long they take. One place for the suites (at run
 * time, with the real free space), `plan` (before anything is built, with
 * an estimate of it) and the run's first message, so what is promised is
 * what runs. */
#ifndef SB_BENCH_SIZING_H
#define SB_BENCH_SIZING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spec/spec.h"

struct sb_sizing {
	uint64_t size;      /* bytes of files the suite writes */
	uint64_t wanted;    /* bench.size, or the suite's default before capping */
	bool automatic;     /* bench.size was 0: the default was chosen here */
	bool twice_ram;     /* that default is bonnie's twice RAM */
	bool capped;        /* the default did not fit: size is what fits */
};

/* The size suite `suite` writes: bench_size when given (never capped: an
 * explicit size that does not fit is refused by the suite), else its
 * default (the suite's default_size: bonnie twice ram, as bonnie++;
 * fio-matrix and dd 1 GiB, smallfile and copy 256 MiB, quick 64 MiB)
 * capped to room when room is non-zero and the default is larger. An
 * unknown suite writes bench_size (0 when that is 0). */
void sb_sizing_choose(const char *suite, uint64_t bench_size, uint64_t ram, uint64_t room,
		      struct sb_sizing *out);

/* Bytes of a filesystem with free_bytes free that the suites may fill:
 * the 2% margin sb_suite_check_room asks for and 16 MiB kept free, whole
 * MiB. 0 if less than 1 MiB remains. */
uint64_t sb_sizing_room(uint64_t free_bytes);

/* One end of the estimate's range: sequential bytes/s, random operations/s,
 * seconds per (fsync'd when bench.fsync) file operation. A suite's
 * estimate (sb_suite_ops) turns them into its seconds. */
struct sb_sizing_rates {
	double seq_bps;
	double iops;
	double fileop_s;
};

/* Seconds the suite takes with these sizes, as a range: *min_s at 150
 * MB/s and 5000 random IOPS, *max_s at 25 MB/s and 300 IOPS (a loaded
 * machine, the throwaway kernel). One repetition; setup (build, teardown)
 * is not included, see SB_SIZING_STACK_*. 0 for an unknown suite. */
void sb_sizing_estimate(const char *suite, const struct sb_sizing *sz, const struct sb_bench_spec *b,
			double *min_s, double *max_s);
/* Those ends: fast (*min_s) and slow (*max_s). */
#define SB_SIZING_SEQ_FAST_BPS 150e6
#define SB_SIZING_IOPS_FAST 5000.0
#define SB_SIZING_SEQ_SLOW_BPS 25e6
#define SB_SIZING_IOPS_SLOW 300.0

/* Building and tearing down one stack, and booting the throwaway kernel. */
#define SB_SIZING_STACK_MIN_S 1.0
#define SB_SIZING_STACK_MAX_S 90.0
#define SB_SIZING_BOOT_MIN_S 3.0
#define SB_SIZING_BOOT_MAX_S 60.0

/* "45 s", "3 min", "1 h 20 min" */
void sb_sizing_format_duration(double s, char *buf, size_t len);

#endif
