/* fio 3.33's write_iolog (see iolog.h). */
#include "bench/iolog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine.h"
#include "bench/jobopt.h"
#include "util/clock.h"

struct iolog_w {
	FILE *f;
	char buf[8192];   /* fio's setvbuf: 8 KiB, fully buffered */
	char file[600];
	uint64_t t0;
};

static __thread struct iolog_w *cur;

static unsigned long long usec(void)
{
	return (unsigned long long)((sb_clock_ns() - cur->t0) / 1000);
}

int sb_iolog_check(const struct sb_job_opts *o, struct sb_err *err)
{
	if (!o->iolog.write[0])
		return 0;
	/* fio logs its syncs too ("sync" lines): stackbench's are not io_us */
	if (o->fsync_every || o->end_fsync)
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: write_iolog with %s",
				  o->fsync_every ? "fsync" : "end_fsync");
	return 0;
}

int sb_iolog_begin(const struct sb_job_opts *o, unsigned idx, const char *path, struct sb_err *err)
{
	struct iolog_w *l;
	char file[600];

	if (!o->iolog.write[0])
		return 0;
	l = calloc(1, sizeof(*l));
	if (!l)
		return sb_err_set(err, -ENOMEM, "out of memory");
	l->f = fopen(o->iolog.write, "a");
	if (!l->f) {
		int e = errno;

		free(l);
		return sb_err_sys(err, -e, "write_iolog: opening %s", o->iolog.write);
	}
	setvbuf(l->f, l->buf, _IOFBF, sizeof(l->buf));
	if (path)
		snprintf(file, sizeof(file), "%s", path);
	else
		sb_engine_job_file(o, idx, file, sizeof(file));
	/* fio's file_name: no "./" of the current directory */
	snprintf(l->file, sizeof(l->file), "%s", strncmp(file, "./", 2) ? file : file + 2);
	l->t0 = sb_clock_ns();
	cur = l;
	fprintf(l->f, "fio version 3 iolog\n");
	fprintf(l->f, "%llu %s add\n", usec(), l->file);
	fprintf(l->f, "%llu %s open\n", usec(), l->file);
	return 0;
}

void sb_iolog_io(int dir, uint64_t off, uint64_t len)
{
	if (cur)
		fprintf(cur->f, "%llu %s %s %llu %llu\n", usec(), cur->file, dir ? "write" : "read",
			(unsigned long long)off, (unsigned long long)len);
}

void sb_iolog_end(void)
{
	if (!cur)
		return;
	fprintf(cur->f, "%llu %s close\n", usec(), cur->file);
	fclose(cur->f);
	free(cur);
	cur = NULL;
}

const struct jopt jopts_iolog[] = {
	{ "write_iolog", NULL, JT_STR, F(iolog.write), 0, 0, NULL,
	  "append the ios issued to this file (fio's iolog version 3)", NULL },
	{ NULL },
};
