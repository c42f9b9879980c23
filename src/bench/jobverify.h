/* The VERIFY family of `stackbench job` options (fio's verify=<type>,
 * do_verify, verify_*): the table jobargs.c lists, the verify= parser it
 * calls, and the checks once a job's options are all in. */
#ifndef SB_BENCH_JOBVERIFY_H
#define SB_BENCH_JOBVERIFY_H

#include "bench/job.h"
#include "bench/jobopt.h"

extern const struct jopt sb_jopts_verify[];

/* verify=V: 0 (off), 1 (stackbench's own header) or one of fio's types */
int sb_jobverify_set(const char *v, struct sb_job_opts *j, struct sb_err *err);
/* s is one of fio's verify types (`--verify md5` takes the next word) */
bool sb_jobverify_is_type(const char *s);
/* fio's fixups and the combinations stackbench refuses */
int sb_jobverify_finish(struct sb_job_opts *j, struct sb_err *err);

#endif
