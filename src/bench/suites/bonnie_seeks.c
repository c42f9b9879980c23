/* bonnie's seek test, as bonnie++ 2.00a's CFileOp::seek_test and its
 * seekers (bon_io.cpp): SEEKS tickets (8192; -s SIZE:CHUNK:SEEKS) go down
 * one pipe, one write() of them all, then an end ticket per seeker; each of
 * the PROCS seekers (5; -s ...:PROCS) has opened the file O_RDWR before,
 * read()s one 4-byte ticket per seek - that read is part of what bonnie++
 * times, so it is part of ours - lseeks to chunk (ticket % chunks) and
 * reads it; a ticket bonnie++ negates (its random value a multiple of 10)
 * also dirties the chunk and writes it back, fsync()ed with -b. A seeker's
 * clock starts when its first ticket arrives and stops after its close
 * (with bonnie++'s fsync); the figure's elapsed time runs from the first
 * seeker's start to the last one's end. The seekers are threads, as
 * bonnie++'s (its Thread class is pthreads), each with its own open file,
 * and each reports the process's CPU time over its run (bonnie++'s
 * CPU_Duration is getrusage(RUSAGE_SELF)); the figure's CPU is their sum,
 * as bonnie++ adds its seekers' reports - so %CPU counts overlapping time
 * once per seeker, as bonnie++'s does. Each seeker unlinks the file when
 * it is done, as bonnie++'s do (seeker_main says why that counts). */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/engine.h"
#include "util/clock.h"
#include "bench/suites/bonnie.h"
#include "util/log.h"

#define SEEK_UPDATE 10                /* bonnie++'s UpdateSeek */
#define END_TICKET INT_MIN            /* bonnie++'s END_SEEK_PROCESS */

struct seeker {
	struct sb_bonnie *bn;
	int pipe_rd;
	int fd;              /* opened before any seeker starts: see sb_bonnie_seeks */
	pthread_t tid;
	uint64_t lmax, t0, t1;
	double cpu;
	int rc;
};

static int full(ssize_t n, size_t want)
{
	return n < 0 ? -errno : (size_t)n == want ? 0 : -EIO;
}

/* one 4-byte ticket; 0 at the end of the pipe (END_TICKET) */
static int ticket(int fd, int *t)
{
	ssize_t n = read(fd, t, sizeof(*t));

	if (n != (ssize_t)sizeof(*t))
		return n < 0 ? -errno : -EIO;
	return *t != END_TICKET;
}

/* bonnie++'s doseek: read the chunk; an update dirties it and writes it back */
static int seek_one(struct sb_bonnie *bn, int fd, char *buf, unsigned t, bool update)
{
	uint64_t chunk = t % bn->nchunks;
	off_t off = (off_t)(chunk * bn->chunk);
	int rc;

	if (lseek(fd, off, SEEK_SET) < 0)
		return -errno;
	if ((rc = full(read(fd, buf, bn->chunk), bn->chunk)) < 0 || !update)
		return rc;
	buf[chunk % bn->chunk]--;
	if (lseek(fd, off, SEEK_SET) < 0)
		return -errno;
	if ((rc = full(write(fd, buf, bn->chunk), bn->chunk)) < 0)
		return rc;
	return bn->sync && fsync(fd) < 0 ? -errno : 0;
}

static void *seeker_main(void *arg)
{
	struct seeker *s = arg;
	char *buf = NULL;
	uint64_t prev;
	double cpu0;
	int fd = s->fd, t, more;

	/* malloc()ed, as bonnie++'s seekers' new char[chunk]: not page-aligned */
	if (!(buf = malloc(s->bn->chunk)))
		s->rc = -ENOMEM;
	else if (fd < 0)
		s->rc = fd;
	/* a seeker that failed still takes its tickets, so the writer never blocks */
	more = ticket(s->pipe_rd, &t);
	cpu0 = sb_bonnie_cpu(RUSAGE_SELF);
	s->t0 = sb_clock_ns();
	while (more > 0) {
		prev = sb_clock_ns();
		/* stopped: the tickets left are drained, not served */
		if (s->rc == 0 && sb_bonnie_stopped(s->bn))
			s->rc = -EINTR;
		if (s->rc == 0)
			s->rc = seek_one(s->bn, fd, buf, (unsigned)abs(t), t < 0);
		sb_bonnie_lmax_step(&s->lmax, &prev);
		more = ticket(s->pipe_rd, &t);
	}
	if (more < 0 && s->rc == 0)
		s->rc = more;
	if (fd >= 0) {
		if (fsync(fd) < 0 && s->rc == 0)
			s->rc = -errno;
		close(fd);
	}
	s->t1 = sb_clock_ns();
	s->cpu = sb_bonnie_cpu(RUSAGE_SELF) - cpu0;
	/* As bonnie++'s seekers (~CFileOp unlinks the file when the thread
	 * ends): the first to finish removes the name, so a seeker still in
	 * its close() then drops the last reference and frees the whole file
	 * inside its timed window - 0.1 s per GiB here, which bonnie++'s
	 * figure carries whenever that race goes this way. */
	unlink(s->bn->path);
	free(buf);
	return NULL;
}

/* bonnie++'s tickets: random chunk numbers, negated for an update */
static int *make_tickets(struct sb_bonnie *bn, size_t *len)
{
	uint64_t seed = sb_clock_ns() | 1;
	int *t = malloc((bn->seeks + bn->procs) * sizeof(*t));
	unsigned i;

	if (!t)
		return NULL;
	for (i = 0; i < bn->seeks; i++) {
		t[i] = (int)(sb_bonnie_rnd(&seed) & INT_MAX);
		if (t[i] % SEEK_UPDATE == 0)
			t[i] = -t[i];
	}
	for (; i < bn->seeks + bn->procs; i++)
		t[i] = END_TICKET;
	*len = (bn->seeks + bn->procs) * sizeof(*t);
	return t;
}

static int write_all(int fd, const void *p, size_t len)
{
	ssize_t n;

	for (; len; len -= (size_t)n, p = (const char *)p + n)
		if ((n = write(fd, p, len)) <= 0)
			return n < 0 ? -errno : -EIO;
	return 0;
}

static int collect(struct sb_bonnie *bn, struct seeker *s, unsigned n, struct sb_err *err)
{
	uint64_t lmax = 0, t0 = UINT64_MAX, t1 = 0;
	double el, cpu = 0;
	int rc = 0;

	for (unsigned i = 0; i < n; i++) {
		pthread_join(s[i].tid, NULL);
		if (s[i].rc < 0 && rc == 0)
			rc = sb_err_sys(err, s[i].rc, "bonnie: seeks on %s", bn->path);
		lmax = s[i].lmax > lmax ? s[i].lmax : lmax;
		t0 = s[i].t0 < t0 ? s[i].t0 : t0;
		t1 = s[i].t1 > t1 ? s[i].t1 : t1;
		cpu += s[i].cpu;
	}
	if (rc < 0)
		return rc;
	el = (double)(t1 - t0) / 1e9;
	sb_bonnie_figure(bn, "seeks", bn->seeks / el, "/s", el, el > 0 ? cpu / el * 100.0 : 0, lmax);
	return 0;
}

int sb_bonnie_seeks(struct sb_bonnie *bn, struct sb_err *err)
{
	struct seeker *s = calloc(bn->procs, sizeof(*s));
	int fds[2] = { -1, -1 }, *tickets = NULL, rc = 0, rc1;
	unsigned i, n = 0;
	size_t len = 0;

	if (!s || !(tickets = make_tickets(bn, &len))) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		rc = sb_err_sys(err, -errno, "bonnie: pipe for the seekers");
		goto out;
	}
	sb_suite_drop_caches(bn->c);
	sb_suite_phase(bn->c, NULL);
	sb_progress("seeks: %u seeks by %u seekers", bn->seeks, bn->procs);
	/* Every seeker's file is open before the first starts: the first to
	 * finish unlinks the name (as bonnie++'s do), and a seeker opening it
	 * only then got ENOENT whenever another had already run through its
	 * share (a few seeks; seen under load). Each closes its own fd. */
	for (i = 0; i < bn->procs; i++) {
		s[i] = (struct seeker){ .bn = bn, .pipe_rd = fds[0] };
		s[i].fd = open(bn->path, O_RDWR | O_CLOEXEC);
		if (s[i].fd < 0)
			s[i].fd = -errno;
	}
	for (i = 0; i < bn->procs; i++) {
		if (pthread_create(&s[i].tid, NULL, seeker_main, &s[i]))
			break;
		n++;
	}
	for (i = n; i < bn->procs; i++)   /* never started: their fds are ours to close */
		if (s[i].fd >= 0)
			close(s[i].fd);
	/* seekers that did not start leave their end tickets in the pipe:
	 * a few bytes, which it holds; with none started nothing is written */
	if (n < bn->procs)
		rc = sb_err_set(err, -EAGAIN, "bonnie: cannot start seek threads");
	if (n && (rc1 = write_all(fds[1], tickets, len)) < 0 && rc == 0)
		rc = sb_err_sys(err, rc1, "bonnie: writing the seek tickets");
	close(fds[1]);
	fds[1] = -1;
	if (n && (rc1 = collect(bn, s, n, err)) < 0 && rc == 0)
		rc = rc1;
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	free(tickets);
	free(s);
	return rc;
}
