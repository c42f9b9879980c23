/* The I/O error family (bench/joberr.c): fio's fill_device. */
#ifndef SB_BENCH_JOBERR_H
#define SB_BENCH_JOBERR_H

#include <stdbool.h>

#include "bench/job.h"

struct worker;
struct slot;

/* fill_device without size= on a file: refused by name (-EINVAL). */
int sb_joberr_check(const struct sb_job_opts *o, struct sb_err *err);
/* pass.c: io sl ended with ev (bytes, or -errno) short of its length; true
 * when that is fill_device's end of the job (ENOSPC, EDQUOT, a short write),
 * its written bytes counted, or the net engine's peer being done. */
bool sb_joberr_fill_end(struct worker *w, const struct slot *sl, long ev);

#endif
