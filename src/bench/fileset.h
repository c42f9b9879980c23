/* fio's file set of a job thread (filesetup.c, io_u.c get_next_file):
 * nrfiles files NAME.JOB.FILE, each with its own io_size (size split over
 * them, or filesize), at most openfiles of them open at once, and the file
 * each io goes to (file_service_type). Used by the file engines
 * (src/bench/engines/fileops.c); other engines run one file a thread. */
#ifndef SB_BENCH_FILESET_H
#define SB_BENCH_FILESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/data.h"
#include "bench/dist.h"
#include "bench/job.h"

/* fio's file_service_type */
enum { SB_FSERV_RR, SB_FSERV_SEQ, SB_FSERV_RANDOM, SB_FSERV_ZIPF, SB_FSERV_PARETO, SB_FSERV_GAUSS };

struct sb_fsfile {
	char *name;
	uint64_t io_size;         /* bytes of io this file gets per pass (fio's f->io_size) */
	uint64_t done_bytes;      /* issued this pass */
	int fd;                   /* the engine's descriptor, or -1 */
	bool open, done;
};

struct sb_fileset {
	struct sb_fsfile *f;
	unsigned n, nopen, ndone;
	unsigned next;            /* fio's td->next_file */
	int cur;                  /* fio's file_service_file (-1: none) */
	uint32_t left;            /* fio's file_service_left */
	struct rng rng;           /* fio's next_file_state (random) */
	struct sb_zipf zipf;      /* fio's next_file_zipf (zipf, pareto) */
	struct sb_gauss gauss;    /* fio's next_file_gauss (normal) */
};

/* The file's engine operation when a file is opened (fio's .open_file:
 * filecreate's open, filestat's stat, filedelete's unlink) and closed. */
typedef int (*sb_fs_open_fn)(void *arg, struct sb_fsfile *f);
typedef void (*sb_fs_close_fn)(void *arg, struct sb_fsfile *f);

/* fio's filename=A:B:... ('\:' a ':' in a name): several names are kept
 * (j->files.list) and the first is the target: 1 then; 0 for one name
 * (the caller parses it), or -errno with a message. */
int sb_fileset_list(const char *v, struct sb_job_opts *j, struct sb_err *err);

/* Job-level (bench/jobargs.c finish_job, nrfiles > 1 or a file engine):
 * the job's size as fio's setup_files sets it (size, or the files' io
 * sizes summed when smaller or not given); -EINVAL with a message when an
 * option cannot run with stackbench's file set. */
int sb_fileset_finish(struct sb_job_opts *j, struct sb_err *err);
/* io_size of file i of a job (fio's: filesize, or size / nrfiles with the
 * remainder's blocks on the first files). */
uint64_t sb_fileset_io_size(const struct sb_job_opts *o, unsigned i);
/* The name of file i of job thread t: the filename= given, or as
 * sb_fileset_dir_name; -ENAMETOOLONG if it does not fit. */
int sb_fileset_name(const struct sb_job_opts *o, unsigned t, unsigned i, char *buf, size_t len);
/* In the job's directory: DIR/NAME.T.I (fio's default), or DIR/ and fio's
 * filename_format expanded. */
int sb_fileset_dir_name(const struct sb_job_opts *o, unsigned t, unsigned i, char *buf, size_t len);

/* Thread t's set (names, io sizes), nothing opened; seed for random. */
int sb_fileset_init(struct sb_fileset *fs, const struct sb_job_opts *o, unsigned t, uint64_t seed,
		    struct sb_err *err);
void sb_fileset_free(struct sb_fileset *fs);
/* The file of the next io of len bytes (fio's get_next_file): opened with
 * op when it is not open yet; a file whose io_size is all issued is closed
 * (cl) and done; once all are done, a new pass starts (fio's time_based
 * loop). The file's index, or -errno from op. */
int sb_fileset_next(struct sb_fileset *fs, const struct sb_job_opts *o, uint64_t len, sb_fs_open_fn op,
		    sb_fs_close_fn cl, void *arg);
/* Close every open file (fio's close_files at the end). */
void sb_fileset_close_all(struct sb_fileset *fs, sb_fs_close_fn cl, void *arg);

#endif
