/* fio 3.33's write_iolog (see iolog.h). */
#include "bench/iolog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine.h"
#include "bench/ioengine.h"
#include "bench/jobopt.h"
#include "util/clock.h"

struct iolog_w {
	FILE *f;
	char buf[8192];   /* fio's setvbuf: 8 KiB, fully buffered */
	char file[600];
	uint64_t t0;
};

static __thread struct iolog_w *cur;

/* read_iolog: the thread's replay */
struct ent {
	uint64_t off, len, delay_us;   /* delay: v3's gap before the io; a v2 wait: ms since the start */
	uint8_t what;                  /* 0 read, 1 write, 2 wait */
};
struct iolog_r {
	struct ent *e;
	size_t n, cap, i;
	uint64_t ios, t0, last_issue, time_offset;
};
static __thread struct iolog_r *rep;

static unsigned long long usec(void)
{
	return (unsigned long long)((sb_clock_ns() - cur->t0) / 1000);
}

int sb_iolog_check(struct sb_job_opts *o, struct sb_err *err)
{
	if (o->iolog.read[0] && o->iolog.write[0]) {
		fprintf(stderr, "fio: read iolog overrides write_iolog\n"); /* fio's init.c */
		o->iolog.write[0] = '\0';
	}
	if (o->iolog.read[0] && (o->verify || o->fv.type || o->loops > 1 || o->runtime_ns))
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: read_iolog with %s",
				  o->verify || o->fv.type ? "verify" : o->loops > 1 ? "loops" : "runtime");
	if (!o->iolog.write[0])
		return 0;
	/* fio logs its syncs too ("sync" lines): stackbench's are not io_us */
	if (o->fsync_every || o->end_fsync)
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: write_iolog with %s",
				  o->fsync_every ? "fsync" : "end_fsync");
	return 0;
}

static int add_ent(struct iolog_r *r, const struct ent *e)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct ent *n = realloc(r->e, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		r->e = n;
		r->cap = cap;
	}
	r->e[r->n++] = *e;
	r->ios += e->what != 2;
	return 0;
}

/* One line of the log into r (a file action: checked against file). */
static int parse_line(const struct sb_job_opts *o, struct iolog_r *r, int ver, const char *line,
		      const char *file, uint64_t *last_t, struct sb_err *err)
{
	char f[600], act[32];
	unsigned long long t = 0, off = 0, len = 0;
	struct ent e = { 0 };
	int k = ver == 3 ? sscanf(line, "%llu %599s %31s %llu %llu", &t, f, act, &off, &len) - 1
			 : sscanf(line, "%599s %31s %llu %llu", f, act, &off, &len);

	if (k == 2 && strcmp(act, "add") && strcmp(act, "open") && strcmp(act, "close"))
		return 0; /* fio: "bad iolog file action", skipped */
	if (k != 2 && k != 4)
		return 0; /* fio: "bad iolog" line, skipped */
	if (strcmp(f, file) && !(strncmp(f, "./", 2) == 0 && !strcmp(f + 2, file)))
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: read_iolog of file %s "
				  "(the job's is %s: stackbench replays the job's own file)", f, file);
	if (k == 2)
		return 0; /* add, open, close of the job's file */
	if (!strcmp(act, "wait")) {
		if (ver == 3)
			return 0; /* fio ignores waits in version 3 */
		e.what = 2;
		e.delay_us = off * 1000ULL;
		return add_ent(r, &e) < 0 ? sb_err_set(err, -ENOMEM, "out of memory") : 0;
	}
	if (strcmp(act, "read") && strcmp(act, "write"))
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: read_iolog with '%s' "
				  "entries", act);
	if (len > o->bs || !len)
		return sb_err_set(err, -EINVAL, "read_iolog: an io of %llu bytes; bs=%llu is its most: give "
				  "bs= as large as the log's largest io", len, (unsigned long long)o->bs);
	e.what = !strcmp(act, "write");
	e.off = off;
	e.len = len;
	/* fio's delay_since_ttime (replay_time_scale 100) */
	if (ver == 3 && *last_t && !o->iolog.no_stall && t >= *last_t)
		e.delay_us = t - *last_t;
	if (ver == 3)
		*last_t = t;
	return add_ent(r, &e) < 0 ? sb_err_set(err, -ENOMEM, "out of memory") : 0;
}

static int replay_load(const struct sb_job_opts *o, const char *file, struct sb_err *err)
{
	struct iolog_r *r = calloc(1, sizeof(*r));
	char line[1024];
	uint64_t last_t = 0;
	int ver = 0, rc = 0;
	FILE *f = fopen(o->iolog.read, "r");

	if (!r || !f) {
		rc = r ? sb_err_sys(err, -errno, "read_iolog: opening %s", o->iolog.read)
		       : sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (fgets(line, sizeof(line), f))
		ver = !strncmp(line, "fio version 2 iolog", 19) ? 2 : !strncmp(line, "fio version 3 iolog", 19) ? 3 : 0;
	if (!ver) {
		rc = sb_err_set(err, -EINVAL, "read_iolog: %s: not a fio iolog of version 2 or 3 (fio: iolog "
				"version 1 is no longer supported; blktrace logs are not read)", o->iolog.read);
		goto out;
	}
	while (rc == 0 && fgets(line, sizeof(line), f))
		rc = parse_line(o, r, ver, line, file, &last_t, err);
	if (rc == 0 && !r->n)
		rc = sb_err_set(err, -EINVAL, "read_iolog: %s has no io", o->iolog.read);
	if (rc == 0) {
		r->t0 = r->last_issue = sb_clock_ns();
		rep = r;
		r = NULL;
	}
out:
	if (f)
		fclose(f);
	if (r)
		free(r->e);
	free(r);
	return rc;
}

uint64_t sb_iolog_replay_ios(void)
{
	return rep ? rep->ios : 0;
}

static void sleep_us(uint64_t us)
{
	while (us) {
		uint64_t d = us > 500000 ? 500000 : us; /* fio's iolog_delay: 500 ms at most a sleep */

		sb_ioengine_sleep_us(d);
		us -= d;
	}
}

bool sb_iolog_next(int *dir, uint64_t *off, uint64_t *len)
{
	while (rep && rep->i < rep->n) {
		const struct ent *e = &rep->e[rep->i++];
		uint64_t now = sb_clock_ns(), since = (now - rep->last_issue) / 1000;

		if (e->what == 2) { /* fio: until that many ms after the start */
			if (e->delay_us > (now - rep->t0) / 1000)
				sleep_us(e->delay_us - (now - rep->t0) / 1000);
			continue;
		}
		/* fio's iolog_delay: the gap less what passed since the last io,
		 * less what earlier sleeps overslept */
		if (e->delay_us > rep->time_offset && e->delay_us - rep->time_offset > since) {
			uint64_t want = e->delay_us - rep->time_offset - since, t = sb_clock_ns(), got;

			sleep_us(want);
			got = (sb_clock_ns() - t) / 1000;
			rep->time_offset = got > want ? got - want : 0;
		} else if (e->delay_us && e->delay_us <= rep->time_offset) {
			rep->time_offset = 0;
		}
		rep->last_issue = sb_clock_ns();
		*dir = e->what;
		*off = e->off;
		*len = e->len;
		return true;
	}
	return false;
}

int sb_iolog_begin(const struct sb_job_opts *o, unsigned idx, const char *path, struct sb_err *err)
{
	struct iolog_w *l;
	char file[600];

	if (o->iolog.read[0]) {
		if (path)
			snprintf(file, sizeof(file), "%s", strncmp(path, "./", 2) ? path : path + 2);
		else
			sb_engine_job_file(o, idx, file, sizeof(file));
		return replay_load(o, strncmp(file, "./", 2) ? file : file + 2, err);
	}
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
	if (rep) {
		free(rep->e);
		free(rep);
		rep = NULL;
	}
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
	{ "read_iolog", NULL, JT_STR, F(iolog.read), 0, 0, NULL,
	  "replay the reads and writes of this fio iolog (version 2 or 3)", NULL },
	{ "replay_no_stall", NULL, JT_BOOL, F(iolog.no_stall), 0, 0, "0",
	  "read_iolog: as fast as possible, not at the log's times", NULL },
	{ NULL },
};
