/* fio's spellings that `stackbench job` reads (jobfio.c): the options of
 * fio 3.33 it refuses by name, fio's aliases, fio's units, fio's ':' lists
 * of file names and fio's ${VAR} expansion in job files. */
#ifndef SB_BENCH_JOBFIO_H
#define SB_BENCH_JOBFIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* fio's cap on jobs (fio.h REAL_MAX_JOBS): sections and their threads */
#define SB_JOB_MAX_JOBS 4096
/* the longest runtime or ramp_time: 3650 days, so that now + ramp +
 * runtime in ns never wraps */
#define SB_JOB_MAX_DUR_NS (3650ULL * 86400ULL * 1000000000ULL)

/* True for an option of fio 3.33 that stackbench job does not take. */
bool sb_jobfio_known(const char *name, size_t n);
/* The option a fio alias names (timeout -> runtime, ...), or NULL. */
const char *sb_jobfio_alias(const char *name, size_t n);
/* the name fio's option dicts give an option written as key (fio's .alias -> .name), or key */
const char *sb_jobfio_dict_name(const char *key);
/* fio's sizes (kb_base=1024): k, kb, m, mb, g, gb, t, tb, p, pb in any
 * case are powers of 1024; stackbench's KiB..TiB and B as ever. */
int sb_jobfio_size(const char *s, uint64_t *out, struct sb_err *err);
/* fio's times, any case: us/usec, ms/msec, s, m, h, d; a bare number is
 * seconds. At most SB_JOB_MAX_DUR_NS. */
int sb_jobfio_duration(const char *s, uint64_t *ns, struct sb_err *err);
/* fio's is_time options: v as a time, a bare number being microseconds,
 * into *us; at most max_us (UINT64_MAX: no bound of its own), else
 * -EINVAL naming --name. */
int sb_jobfio_usec(const char *name, const char *v, uint64_t max_us, uint64_t *us, struct sb_err *err);
/* fio's filename/directory list "a:b" (a ':' escaped as "\:" belongs to the
 * name; empty names are skipped): the one name into out, or -EINVAL naming
 * the option when the list has several (stackbench runs one file a job). */
int sb_jobfio_one_name(const char *opt, const char *v, char *out, size_t len, struct sb_err *err);
/* A copy of s with every ${VAR} replaced by the environment's VAR (empty
 * when unset), as fio does on a job file's option lines; NULL: no memory. */
char *sb_jobfio_expand(const char *s);
/* fio's keywords in a job file's "key=value" line (*line, malloc'd,
 * replaced): $pagesize, $mb_memory (MiB of RAM), $ncpus (CPUs configured);
 * when one was replaced and the value holds + - * /, the value is computed
 * as fio's bc does (whole numbers, integer division); -EINVAL when it is
 * not such a sum. */
int sb_jobfio_keywords(char **line, struct sb_err *err);

#endif
