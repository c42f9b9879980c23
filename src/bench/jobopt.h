/* The rows of `stackbench job`'s option table, shared by jobargs.c (the
 * parser, help) and the files that own a family of options (as fio's
 * engines own their .options): each such file defines one NULL-ended
 * table and adds it to the list in jobargs.c. Not for other modules. */
#ifndef SB_BENCH_JOBOPT_H
#define SB_BENCH_JOBOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/job.h"

enum jt {
	JT_STR,    /* char[] field */
	JT_FILES,  /* char[] field: fio's ':' list of names, of which stackbench takes one */
	JT_RW,     /* enum sb_rw */
	JT_SIZE,   /* uint64_t bytes, min..max */
	JT_U32,    /* uint32_t, min..max */
	JT_BOOL,   /* fio bool: 0 | 1, alone = 1 */
	JT_NBOOL,  /* fio bool stored inverted (buffered = !direct) */
	JT_DUR,    /* uint64_t ns; a bare number is seconds, as fio */
	JT_U64,    /* uint64_t, any base */
	JT_ENGINE, /* enum sb_ioengine */
	JT_IOMEM,  /* fio's iomem: plain pages, or huge ones */
	JT_MIXW,   /* rwmixwrite: stored as rwmixread = 100 - v */
	JT_CB,     /* the row's own parser: cb (fio's .cb) */
	/* command-line only (fio's too): not in job files */
	JT_FMT,    /* --output-format */
	JT_OUT,    /* --output FILE */
	JT_WATCH,  /* --watch DEV (stackbench), repeatable */
};

struct jopt {
	const char *name, *alias;
	enum jt type;
	size_t off, size;
	uint64_t min, max;
	const char *def;           /* as `help job` shows it */
	const char *help;
	/* JT_CB: parse v into the job (fields at off/size if the row has them) */
	int (*cb)(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err);
};

/* the families' tables (each in its own file) */
extern const struct jopt sb_jobbs_opts[];  /* bench/jobbs.c: block size, offset, distribution */
extern const struct jopt sb_jopts_cpuio[]; /* src/bench/engines/cpuio.c */
extern const struct jopt sb_jopts_exec[];  /* src/bench/engines/exec.c */
extern const struct jopt sb_jopts_layout[]; /* bench/filelayout.c: fallocate, overwrite, create_fsync */
extern const struct jopt sb_jopts_net[];   /* src/bench/engines/net.c */
extern const struct jopt sb_jopts_e4defrag[]; /* src/bench/engines/e4defrag.c */

#define F(f) offsetof(struct sb_job_opts, f), sizeof(((struct sb_job_opts *)0)->f)
#define NOF 0, 0
#define MiB (1ULL << 20)

/* the families' tables (jobargs.c lists them) */
extern const struct jopt jopts_rate[];  /* bench/rateopt.c */
extern const struct jopt jopts_ctl[];   /* bench/jobctl.c */
extern const struct jopt jopts_files[]; /* bench/fileset.c: nrfiles, openfiles, file_service_type */
extern const struct jopt jopts_cmdprio[]; /* bench/cmdprio.c */
extern const struct jopt jopts_err[];     /* bench/joberr.c */
extern const struct jopt jopts_numa[];    /* bench/jobnuma.c */
extern const struct jopt jopts_submit[]; /* bench/offload.c: io_submit_mode, serialize_overlap, io_size */
extern const struct jopt jopts_iolog[];  /* bench/iolog.c: write_iolog, read_iolog */
extern const struct jopt jopts_lat[];    /* bench/lattarget.c: latency_target family */

/* bench/jobctl.c: groupid and wave of every job, wait_for checked */
int sb_jobctl_finish(struct sb_job_opts *jobs, unsigned n, struct sb_err *err);
/* the families' tables (jobargs.c jopt_tables[]) */
extern const struct jopt jopts_output[];  /* jobout.c */
/* a row of jopts_output (its options are listed under their fio name) */
bool jopt_output_row(const struct jopt *o);

#endif
