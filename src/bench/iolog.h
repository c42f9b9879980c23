/* fio 3.33's write_iolog (iolog.c init_iolog_write, log_io_u, log_file)
 * for `stackbench job`: each job thread appends to the log, as fio's,
 * "fio version 3 iolog", then "USEC FILE add", "USEC FILE open", one
 * "USEC FILE read|write OFFSET LENGTH" per io as it is issued and
 * "USEC FILE close" (USEC: microseconds since the thread opened the log).
 * The log is the thread's own (thread-local state: the hooks take no
 * handle). The options of that family (jopts_iolog). */
#ifndef SB_BENCH_IOLOG_H
#define SB_BENCH_IOLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/job.h"

struct jopt;

/* The job as parsed: what stackbench cannot log as fio does is refused. */
int sb_iolog_check(struct sb_job_opts *o, struct sb_err *err);
/* Job thread idx's start: open o's log (nothing without write_iolog), the
 * header, add and open of its file (path; NULL: an engine without files,
 * whose file fio names all the same, NAME.idx.0). */
int sb_iolog_begin(const struct sb_job_opts *o, unsigned idx, const char *path, struct sb_err *err);
/* One io as it is issued (dir 0 read, 1 write). */
void sb_iolog_io(int dir, uint64_t off, uint64_t len);

/* read_iolog (fio's read_iolog, read_iolog_get, iolog_delay): the log is
 * read at the thread's start (sb_iolog_begin): "fio version 2 iolog"
 * (FILE ACTION [OFFSET LENGTH], "wait" MS since the start) or version 3
 * (USEC FILE ACTION [OFFSET LENGTH]: the gaps between the times are kept
 * unless replay_no_stall); its reads and writes, in order, are the job's
 * ios. The log's file must be the thread's own (stackbench replays one
 * file); syncs and trims are refused by name. */
/* ios of the thread's log (0: no replay) */
uint64_t sb_iolog_replay_ios(void);
/* The next io of the log (after its wait); false at its end. */
bool sb_iolog_next(int *dir, uint64_t *off, uint64_t *len);
/* The thread's end: the close line; the log closed. */
void sb_iolog_end(void);

#endif
