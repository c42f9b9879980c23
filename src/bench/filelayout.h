/* How a job's file is made, as fio 3.33's filesetup.c: the room check
 * before a job starts, and extend_file for a regular file shorter than the
 * job's region. fio (`stackbench job`): a read job's file (and a write
 * job's with overwrite=1) is unlinked, created, fallocated (fallocate=,
 * Linux default native), ftruncated and written out with write() in
 * blocks of bs, then fsynced (create_fsync); a write job's is unlinked,
 * created and only fallocated - its blocks are written by the job itself.
 * Either way the new range is dropped from the page cache. stackbench's
 * suites (fl.suite) write the region with random data by pwrite and fsync
 * it before reads and random writes. */
#ifndef SB_BENCH_FILELAYOUT_H
#define SB_BENCH_FILELAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "bench/data.h"
#include "bench/job.h"
#include "util/err.h"

#define SB_FL_DEFAULT_FILE_SIZE (1ULL << 30)

/* fio's fallocate= */
enum sb_falloc { SB_FALLOC_NATIVE, SB_FALLOC_NONE, SB_FALLOC_POSIX, SB_FALLOC_KEEP, SB_FALLOC_TRUNCATE };

/* fio's defaults: fallocate=native, overwrite=0, create_fsync=1 (job.c) */
void sb_fl_init(struct sb_job_opts *o);

/* fio's td_read || overwrite: the file is written out when extended */
bool sb_fl_writes_out(const struct sb_job_opts *o);

/* A target that is not there is bad input (exit 2), except fio's
 * filename=, which creates a regular file as fio does, when it fits. */
int sb_fl_stat_target(const struct sb_job_opts *o, struct stat *st, struct sb_err *err);

/* The target's size (block device, file) or free room (directory): the
 * room for what the job writes (a write job's file is sparse before its
 * offset, as fio's). */
int sb_fl_target_room(const struct sb_job_opts *o, const struct stat *tst, uint64_t *dev_size,
		      struct sb_err *err);

/* The file at path is shorter than its job region [start, start + len)
 * needs (`have` bytes; looked at again, one file at a time): extend it as
 * fio's extend_file (fio mode: to start + len, from 0) or the suites'
 * layout (the region). The file is closed again; the caller opens it. */
int sb_fl_extend(const struct sb_job_opts *o, const char *path, uint64_t have, uint64_t start,
		 uint64_t len, struct rng *r, struct sb_err *err);

/* Before each pass over the region after the first: drop its cached
 * pages? Size-based loops: fio closes and re-opens the files (invalidated
 * on open); time-based buffered jobs: fio's loop_cache_invalidate when a
 * sequential pass wraps or the random map is full. */
bool sb_fl_loop_invalidate(const struct sb_job_opts *o, bool sized);

/* fsync a job thread's file when its writes are done? fio: end_fsync;
 * the suites: buffered writes, and with fsync=N or end_fsync */
bool sb_fl_end_fsync(const struct sb_job_opts *o);

#endif
