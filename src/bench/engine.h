/* The I/O engine: runs one job (numjobs threads, each its own libaio
 * context, buffers and region or file) and fills in the result.
 *
 * Hot path (one thread per job thread, no locks, no allocation): prepare as
 * many iocbs as there are free slots, one io_submit for the batch, one
 * io_getevents reaping everything that is ready. Timestamps are taken once
 * per submit batch and once per reap batch (CLOCK_MONOTONIC through the
 * vDSO), so an io's completion latency is (time of the reap batch that saw
 * it) - (time of the submit batch that sent it): at most one batch of
 * preparation/accounting work coarser than a per-io clock, like fio's
 * gtod_reduce.
 *
 * Buffers: one anonymous mapping per job thread holding iodepth buffers,
 * aligned to the target's logical block size (at least 4 KiB), filled with
 * random bytes once; in plain pages as fio's, MADV_HUGEPAGE with iomem=mmaphuge. */
#ifndef SB_BENCH_ENGINE_H
#define SB_BENCH_ENGINE_H

#include <stddef.h>

#include "bench/job.h"

int sb_engine_run(const struct sb_job_opts *o, struct sb_job_result *res, struct sb_err *err);
/* -EINVAL (bad input) when the job's I/O buffers (bs x iodepth x numjobs,
 * each rounded up to 4 KiB) exceed half of an address space of `space`
 * bytes (sb_engine_run passes SIZE_MAX: 4 GiB on 32-bit). */
int sb_engine_check_memory(const struct sb_job_opts *o, uint64_t space, struct sb_err *err);

/* One direct job on dev (rw, bs, iodepth qd, size bytes, runtime_ns or 0
 * for one pass) and its one figure in out: MB/s (10^6 B/s), or IOPS with
 * iops, rounded to 0.1; out untouched if the job moved nothing. */
int sb_engine_figure(const char *dev, enum sb_rw rw, uint64_t bs, unsigned qd, uint64_t size,
		     uint64_t runtime_ns, bool iops, double *out, struct sb_err *err);

/* fio's group_reporting across jobs: another job's result r added to
 * into (sums, histograms, samples; the run times summed as threads') */
void sb_job_result_merge(struct sb_job_result *into, const struct sb_job_result *r);

/* Files the engine uses for thread i of a job on a directory target. */
void sb_engine_job_file(const struct sb_job_opts *o, unsigned i, char *buf, size_t len);

#endif
