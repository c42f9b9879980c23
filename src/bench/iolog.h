/* fio 3.33's write_iolog (iolog.c init_iolog_write, log_io_u, log_file)
 * for `stackbench job`: each job thread appends to the log, as fio's,
 * "fio version 3 iolog", then "USEC FILE add", "USEC FILE open", one
 * "USEC FILE read|write OFFSET LENGTH" per io as it is issued and
 * "USEC FILE close" (USEC: microseconds since the thread opened the log).
 * The log is the thread's own (thread-local state: the hooks take no
 * handle). The options of that family (jopts_iolog). */
#ifndef SB_BENCH_IOLOG_H
#define SB_BENCH_IOLOG_H

#include <stdint.h>

#include "bench/job.h"

struct jopt;
extern const struct jopt jopts_iolog[];

/* The job as parsed: what stackbench cannot log as fio does is refused. */
int sb_iolog_check(const struct sb_job_opts *o, struct sb_err *err);
/* Job thread idx's start: open o's log (nothing without write_iolog), the
 * header, add and open of its file (path; NULL: an engine without files,
 * whose file fio names all the same, NAME.idx.0). */
int sb_iolog_begin(const struct sb_job_opts *o, unsigned idx, const char *path, struct sb_err *err);
/* One io as it is issued (dir 0 read, 1 write). */
void sb_iolog_io(int dir, uint64_t off, uint64_t len);
/* The thread's end: the close line; the log closed. */
void sb_iolog_end(void);

#endif
