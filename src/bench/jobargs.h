/* `stackbench job` command line and job files, as fio's: --opt=value or
 * --opt value, --name starting a job that inherits the global options,
 * FILE.fio with [global] and job sections. One option table (jobargs.c). */
#ifndef SB_BENCH_JOBARGS_H
#define SB_BENCH_JOBARGS_H

#include <stdbool.h>
#include <stdio.h>

#include "bench/job.h"

struct sb_job_cli {
	struct sb_job_opts global;   /* options before the first job */
	struct sb_job_opts *jobs;    /* in order; groupid set from stonewall */
	unsigned njobs, cap;         /* jobs used, allocated */
	enum sb_output_format fmt;
	char output[512];            /* --output FILE ("" = stdout) */
	const char *watch[SB_JOB_MAX_WATCH];
	unsigned nwatch;
};

void sb_job_cli_init(struct sb_job_cli *c);
/* argv[0] is the command name. -EINVAL with a message on a bad, unknown or
 * unsupported option ("not supported by stackbench job: --X"), c freed. */
int sb_job_cli_parse(int argc, char **argv, struct sb_job_cli *c, struct sb_err *err);
/* The steps of sb_job_cli_parse, for callers that read a job file from a
 * stream (the fuzzer): a [section] (or --name) starts a job or, named
 * "global", edits the global options; one option key=v (v NULL when none
 * was written) into *cur; a whole job file from f (jobfile.c), its
 * messages prefixed with "label:LINE: "; last, what every job derives
 * once all options are in. sb_job_cli_init first, sb_job_cli_free after. */
int sb_job_cli_section(struct sb_job_cli *c, const char *name, struct sb_job_opts **out,
		       struct sb_err *err);
int sb_job_cli_option(struct sb_job_cli *c, struct sb_job_opts **cur, const char *key,
		      const char *v, bool file, struct sb_err *err);
int sb_job_cli_read(struct sb_job_cli *c, FILE *f, const char *label, struct sb_err *err);
int sb_job_cli_file(struct sb_job_cli *c, const char *path, struct sb_err *err);
int sb_job_cli_finish(struct sb_job_cli *c, struct sb_err *err);
void sb_job_cli_free(struct sb_job_cli *c);
/* One line per option, from the table. */
void sb_job_cli_help(FILE *f);

#endif
