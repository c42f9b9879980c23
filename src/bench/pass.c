/* The engine's hot loop: prepare as many ios as there are free slots, one
 * io_submit for the batch, one io_getevents reaping what is ready, account.
 * Time is read once before io_submit (fio's start_time), once after it
 * returns (issue_time) and once per reap batch (completion), so slat, clat
 * and lat mean what fio's mean, at three clock reads per batch. */
#include "bench/engine_int.h"
#include "util/clock.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/cmdprio.h"
#include "bench/dist.h"
#include "bench/joberr.h"
#include "bench/engine.h"
#include "bench/iolog.h"
#include "bench/lattarget.h"
#include "bench/offload.h"
#include "bench/verifyio.h"

#define SAMPLE_NS 500000000ULL /* fio's bwavgtime / iopsavgtime */

static inline void stamp_block(struct worker *w, void *buf, uint64_t bs)
{
	/* Refresh: the last 16 bytes of every 4 KiB (or of the block, when
	 * smaller) get a counter unique per (job thread, write) and fresh random
	 * bits, so no two 4 KiB pieces ever written are identical (defeats
	 * dedup, whose granularity is 4 KiB or more); the rest of the buffer
	 * stays the random bytes it was filled with (incompressible). Costs one
	 * PRNG step per 4 KiB instead of refilling the whole buffer. */
	char *p = buf;
	uint64_t s;

	for (s = 0; s < bs; s += 4096) {
		uint64_t end = s + 4096 < bs ? s + 4096 : bs;
		uint64_t *q = (uint64_t *)(p + end - 16);

		q[0] = ((uint64_t)w->idx << 56) ^ ++w->stamp;
		q[1] = rng_next(&w->rng);
	}
}

static inline void verify_stamp(const struct sb_job_opts *o, void *buf, uint64_t off)
{
	uint64_t *h = buf;

	h[0] = VERIFY_MAGIC;
	h[1] = off;
	h[2] = o->verify_seed;
	h[3] = block_sum(buf, (size_t)o->bs, off, o->verify_seed);
}

static int verify_check(struct worker *w, const void *buf, uint64_t off)
{
	const struct sb_job_opts *o = w->o;
	const uint64_t *h = buf;

	if (h[0] != VERIFY_MAGIC)
		return sb_err_set(&w->err, -EILSEQ, "verify FAILED: %s offset %llu (%llu bytes): "
				  "no verify header (never written by a verify job, or overwritten)",
				  o->target, (unsigned long long)off, (unsigned long long)o->bs);
	if (h[1] != off)
		return sb_err_set(&w->err, -EILSEQ, "verify FAILED: %s offset %llu: block carries "
				  "offset %llu (misdirected I/O)", o->target,
				  (unsigned long long)off, (unsigned long long)h[1]);
	if (o->verify_seed_set && h[2] != o->verify_seed)
		return sb_err_set(&w->err, -EILSEQ, "verify FAILED: %s offset %llu: generation %llu, "
				  "expected %llu (stale data)", o->target, (unsigned long long)off,
				  (unsigned long long)h[2], (unsigned long long)o->verify_seed);
	if (h[3] != block_sum(buf, (size_t)o->bs, off, h[2]))
		return sb_err_set(&w->err, -EILSEQ, "verify FAILED: %s offset %llu (%llu bytes): "
				  "checksum mismatch (data corrupted)", o->target,
				  (unsigned long long)off, (unsigned long long)o->bs);
	return 0;
}

void sb_engine_rusage(double *usr, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*usr = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* A synchronous engine (fio's FIO_SYNCIO, and null): each prepared io done
 * by the engine's queue now, its result put where getevents would have. */
static unsigned sync_io(struct worker *w, struct iocb **batch, unsigned n, struct io_event *ev)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		long r = w->ioe->queue(w, batch[i]);

		ev[i].data = batch[i]->data;
		ev[i].obj = batch[i];
		ev[i].res = (unsigned long)r;
		ev[i].res2 = 0;
	}
	return n;
}

/* State of one pass. */
struct ps {
	struct worker *w;
	const struct sb_job_opts *o;
	const struct pass *p;
	struct slot **freel;
	struct io_event *events;
	struct iocb **batch;
	unsigned depth, nfree, nsync;
	int inflight;
	uint64_t nblocks, issued, seq, since_fsync, now;
	bool random, stop, ramping;
	uint64_t *measure_start;
	/* the current 500 ms sample and log window */
	uint64_t win_start, log_start;
	uint64_t win_bytes[2], win_ios[2];
	uint64_t lwin_bytes[2], lwin_ios[2], lwin_n[2];
	uint64_t lwin_sum[3][2];        /* slat, clat, lat sums of the log window */
	bool logging;
	/* fio's block size / offset / distribution options (bench/dist.c) */
	struct sb_bsgen gen;
	bool gen_on;
	uint64_t rbytes;                /* bytes reaped in this batch */
	struct sb_lat lat;              /* latency_target (bench/lattarget.c) */
};

static unsigned bucket_depth(unsigned d)
{
	unsigned i = 0;

	while (i < 6 && d >= (2u << i))
		i++;
	return i;
}

static unsigned bucket_batch(unsigned n)
{
	static const unsigned lim[] = { 0, 4, 8, 16, 32, 64 };
	unsigned i;

	for (i = 0; i < 6; i++)
		if (n <= lim[i])
			return i;
	return 6;
}

static void log_add(struct sb_log *l, uint64_t t_ms, uint64_t v, int dir, uint32_t bs, uint64_t off)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		struct sb_log_entry *e = realloc(l->e, cap * sizeof(*e));

		if (!e)
			return; /* a log short of memory loses entries, never the run */
		l->e = e;
		l->cap = cap;
	}
	l->e[l->n++] = (struct sb_log_entry){ .t_ms = t_ms, .value = v, .off = off, .bs = bs, .dir = (uint8_t)dir };
}

static bool logs_lat(const struct sb_job_opts *o)
{
	return o->log_lat[0] != 0;
}

/* fio without log_avg_msec: a bw (bytes x 10^6 / clat, KiB/s as fio
 * names it) and an IOPS (1) line for every io, and these are then also the
 * samples of bw_* and iops_* (fio's per_unit_log: no 500 ms samples) */
static void log_io(struct ps *s, const struct slot *sl, uint64_t clat)
{
	const struct sb_job_opts *o = s->o;
	struct sb_job_result *res = &s->w->res;
	uint64_t t_ms = (s->now - s->w->t0) / 1000000ULL, rate = clat ? sl->len * 1000000ULL / clat : 0;

	if (o->log_bw[0]) {
		log_add(&res->log[SB_LOG_BW], t_ms, rate, sl->dir, (uint32_t)sl->len, sl->off);
		sb_stat_add(&res->dir[sl->dir].bw_kib, (double)rate);
	}
	if (o->log_iops[0]) {
		log_add(&res->log[SB_LOG_IOPS], t_ms, 1, sl->dir, (uint32_t)sl->len, sl->off);
		sb_stat_add(&res->dir[sl->dir].iops, 1.0);
	}
}

/* Every 500 ms: one bandwidth and IOPS sample per direction (fio's
 * bw_min/max/mean/dev/samples); every log_avg_msec: a log line. */
static void sample(struct ps *s)
{
	const struct sb_job_opts *o = s->o;
	struct sb_job_result *res = &s->w->res;
	uint64_t lwin = (o->log_avg_msec ? o->log_avg_msec : 500) * 1000000ULL, t_ms;
	int d;

	if (s->now - s->win_start >= SAMPLE_NS) {
		double sec = (double)(s->now - s->win_start) / 1e9;

		for (d = 0; d < 2; d++) {
			if (!res->dir[d].ios)
				continue;
			if (o->log_avg_msec || !o->log_bw[0])
				sb_stat_add(&res->dir[d].bw_kib, (double)s->win_bytes[d] / 1024.0 / sec);
			if (o->log_avg_msec || !o->log_iops[0])
				sb_stat_add(&res->dir[d].iops, (double)s->win_ios[d] / sec);
			s->win_bytes[d] = s->win_ios[d] = 0;
		}
		s->win_start = s->now;
	}
	if (!s->logging || s->now - s->log_start < lwin)
		return;
	t_ms = (s->now - s->w->t0) / 1000000ULL;
	for (d = 0; d < 2; d++) {
		double sec = (double)(s->now - s->log_start) / 1e9;

		if (o->log_bw[0] && o->log_avg_msec && s->lwin_ios[d])
			log_add(&res->log[SB_LOG_BW], t_ms, (uint64_t)((double)s->lwin_bytes[d] / 1024.0 / sec), d, 0, 0);
		if (o->log_iops[0] && o->log_avg_msec && s->lwin_ios[d])
			log_add(&res->log[SB_LOG_IOPS], t_ms, (uint64_t)((double)s->lwin_ios[d] / sec), d, 0, 0);
		if (logs_lat(o) && o->log_avg_msec && s->lwin_n[d])
			for (int k = 0; k < 3; k++)
				log_add(&res->log[SB_LOG_SLAT + k], t_ms, s->lwin_sum[k][d] / s->lwin_n[d], d, 0, 0);
		s->lwin_bytes[d] = s->lwin_ios[d] = s->lwin_n[d] = 0;
		s->lwin_sum[0][d] = s->lwin_sum[1][d] = s->lwin_sum[2][d] = 0;
	}
	s->log_start = s->now;
}

static void ramp_over(struct ps *s)
{
	struct sb_job_result *res = &s->w->res;
	int d;

	/* forget everything counted so far */
	s->ramping = false;
	for (d = 0; d < 2; d++) {
		struct sb_dir_result *r = &res->dir[d];

		sb_hist_init(&r->clat);
		sb_hist_init(&r->slat);
		sb_hist_init(&r->lat);
		memset(&r->bw_kib, 0, sizeof(r->bw_kib));
		memset(&r->iops, 0, sizeof(r->iops));
		r->io_bytes = r->ios = 0;
		s->win_bytes[d] = s->win_ios[d] = 0;
	}
	for (d = 0; d < SB_LOG_NKIND; d++)
		res->log[d].n = 0;
	sb_cprio_reset(res);
	memset(res->depth_level, 0, sizeof(res->depth_level));
	memset(res->submit_batch, 0, sizeof(res->submit_batch));
	memset(res->complete_batch, 0, sizeof(res->complete_batch));
	*s->measure_start = s->win_start = s->log_start = s->w->t0 = s->now;
	sb_pace_reset(&s->w->pace, s->now);
	sb_engine_rusage(&s->w->ru0, &s->w->rs0);
}

/* Fill the free slots (at most one submit batch); n receives the count. */
/* The next io's direction, offset and length: the pacing picks the direction,
 * then read_iolog's log, verify's block order, the block-size generator, the
 * random map, a random block or the next block gives offset and length.
 * false: the source has no more ios (the pass stops). */
static bool next_io(struct ps *s, int *dir, uint64_t *off, uint64_t *len)
{
	const struct sb_job_opts *o = s->o;
	const struct pass *p = s->p;
	struct worker *w = s->w;
	uint64_t blk = 0;

	switch (p->rw) {
	case SB_RW_READ: case SB_RW_RANDREAD: *dir = SB_DIR_READ; break;
	case SB_RW_WRITE: case SB_RW_RANDWRITE: *dir = SB_DIR_WRITE; break;
	default: *dir = rng_below(&w->rng, 100) < o->rwmixread ? SB_DIR_READ : SB_DIR_WRITE;
	}
	if (w->pace.on)
		*dir = sb_pace_dir(&w->pace, *dir, s->now);
	if (sb_iolog_replay_ios()) {
		if (!sb_iolog_next(dir, off, len)) { /* read_iolog: the log's io */
			return false;
		}
	} else if (p->fv_pass) {
		if (!sb_fvw_next(w, &blk)) {
			return false;
		}
	} else if (s->gen_on) {
		if (!sb_bsgen_next(&s->gen, *dir, s->random, off, len)) {
			return false;
		}
		*off += w->start;
	} else if (s->random && w->use_perm) {
		/* a new random order each pass over the blocks, as fio's map is reset */
		if (s->issued && s->issued % s->nblocks == 0)
			perm_init(&w->perm, s->nblocks, &w->rng);
		blk = perm_at(&w->perm, s->issued % s->nblocks);
	} else if (s->random)
		blk = rng_below(&w->rng, s->nblocks);
	else
		blk = s->seq++ % s->nblocks;
	if ((p->fv_pass || !s->gen_on) && !sb_iolog_replay_ios())
		*off = w->start + blk * o->bs;
	return true;
}

static int prepare(struct ps *s, unsigned *np)
{
	const struct sb_job_opts *o = s->o;
	const struct pass *p = s->p;
	struct worker *w = s->w;
	unsigned n = 0;
	int rc;

	while (!s->stop && s->nfree > 0 && n < w->batch && sb_lat_room(&s->lat, (unsigned)s->inflight + n)) {
		struct slot *sl;
		uint64_t off = 0, len = o->bs;
		int dir;

		if ((p->nios && !s->gen_on && s->issued >= p->nios) || (p->end_ns && s->now >= p->end_ns) ||
		    atomic_load_explicit(&w->ss_stop, memory_order_relaxed)) {
			s->stop = true;
			break;
		}
		if (w->pace.on && (rc = sb_pace_gate(&w->pace, o->sub.offload ? 0 : s->inflight + (int)n, &s->now, p->end_ns))) {
			s->stop = rc == SB_PACE_STOP;
			break; /* drain first, or not yet */
		}
		if (o->fsync_every && s->since_fsync >= o->fsync_every) {
			if (s->inflight > 0 || n > 0)
				break; /* drain first, fsync then */
			if (fsync(w->fd) < 0)
				return sb_err_sys(&w->err, -errno, "fsync %s", w->path);
			s->since_fsync = 0;
		}
		if (sb_fvw_due(w, s->issued, s->nblocks)) {
			if (s->inflight > 0 || n > 0)
				break; /* drain first, then check (fio's verify_backlog, loops) */
			if ((rc = sb_fvw_run(w, s->issued, s->nblocks)) < 0)
				return rc;
		}
		/* as the first open's, a failed invalidate is not fatal (fio's too) */
		if (p->loop_invalidate && s->issued && s->issued % s->nblocks == 0)
			(void)posix_fadvise(w->fd, (off_t)w->start, (off_t)w->len, POSIX_FADV_DONTNEED);
		if (!next_io(s, &dir, &off, &len)) {
			s->stop = true;
			break;
		}
		sl = s->freel[--s->nfree];
		sl->off = off;
		sl->len = len;
		sl->dir = dir;
		if (dir == SB_DIR_WRITE) {
			if (w->fv)
				sb_fvw_write(w, sl->buf, off);
			else
				stamp_block(w, sl->buf, len);
			if (o->verify)
				verify_stamp(o, sl->buf, off);
			io_prep_pwrite(&sl->cb, w->fd, sl->buf, (size_t)len, (long long)off);
			s->since_fsync++;
		} else {
			io_prep_pread(&sl->cb, w->fd, sl->buf, (size_t)len, (long long)off);
		}
		sl->cb.data = sl;
		if ((rc = sb_cprio_prep(w, sl)) < 0) /* its priority (bench/cmdprio.c) */
			return rc;
		sb_iolog_io(dir, off, len); /* fio's log_io_u */
		s->batch[n++] = &sl->cb;
		s->issued++;
	}
	*np = n;
	return 0;
}

/* Submit n prepared ios; what the kernel does not take now goes back. */
static int submit(struct ps *s, unsigned n)
{
	struct sb_job_result *res = &s->w->res;
	unsigned done = 0, i;
	uint64_t t;

	s->now = sb_clock_ns();
	for (i = 0; i < n; i++)
		((struct slot *)s->batch[i]->data)->t_start = s->now;
	res->depth_level[bucket_depth((unsigned)s->inflight + n)]++;
	if (s->w->ioe->queue) {
		/* synchronous: "submitted" when the call starts, as fio's psync;
		 * fio's null engine is busy until its one io is reaped: the same */
		for (i = 0; i < n; i++)
			((struct slot *)s->batch[i]->data)->t_issue = s->now;
		s->nsync += sync_io(s->w, s->batch, n, s->events + s->nsync);
		s->inflight += (int)n;
		res->submit_batch[bucket_batch(n)]++;
		return 0;
	}
	while (done < n) {
		int r = s->w->ioe->commit(s->w, s->batch + done, n - done);

		if (r == 0) {
			if (s->inflight > 0)
				break; /* reap, then the rest goes in the next round */
			continue;
		}
		if (r < 0)
			return r;
		t = sb_clock_ns();
		for (i = done; i < done + (unsigned)r; i++)
			((struct slot *)s->batch[i]->data)->t_issue = t;
		res->submit_batch[bucket_batch((unsigned)r)]++;
		done += (unsigned)r;
		s->inflight += r;
	}
	for (i = done; i < n; i++) {
		s->freel[s->nfree++] = s->batch[i]->data;
		s->issued--;
	}
	return 0;
}

static uint64_t done_ios(const struct ps *s)
{
	return s->w->res.dir[0].ios + s->w->res.dir[1].ios;
}

/* One reaped io: its error or verify result, then its times. */
static int account(struct ps *s, struct slot *sl, long ev)
{
	const struct sb_job_opts *o = s->o;
	struct worker *w = s->w;
	struct sb_dir_result *d = &w->res.dir[sl->dir];
	uint64_t slat = sl->t_issue - sl->t_start, clat = s->now - sl->t_issue, lat = s->now - sl->t_start;
	uint64_t moved = w->ioe_flags & SB_IOF_NOIO ? 0 : sl->len; /* fio's FIO_NOIO: no bytes */
	size_t lmark[SB_LOG_NKIND];
	int rc = 0;

	if (ev != (long)sl->len && sb_joberr_fill_end(w, sl, ev)) {
		s->stop = true; /* fio's fill_device: the filesystem is full, the job is done */
		s->freel[s->nfree++] = sl;
		return 0;
	}
	if (ev != (long)sl->len) {
		if (ev < 0)
			rc = sb_err_sys(&w->err, (int)ev, "%s of %llu bytes at offset %llu on %s",
					sl->dir ? "write" : "read", (unsigned long long)sl->len,
					(unsigned long long)sl->off, w->path);
		else
			rc = sb_err_set(&w->err, -EIO, "short %s (%ld of %llu bytes) at offset %llu on %s",
					sl->dir ? "write" : "read", ev, (unsigned long long)sl->len,
					(unsigned long long)sl->off, w->path);
		s->stop = true;
	} else if ((s->p->check || s->p->fv_check) && sl->dir == SB_DIR_READ) {
		if ((s->p->fv_check ? sb_fvw_read(w, sl->buf, sl->off) : verify_check(w, sl->buf, sl->off)) < 0) {
			rc = w->err.code;
			w->res.verify_errors++;
			s->stop = true;
		} else {
			w->res.verified_blocks++;
		}
	}
	d->io_bytes += moved;
	s->rbytes += moved;
	d->ios++;
	s->win_bytes[sl->dir] += moved;
	s->win_ios[sl->dir]++;
	if (w->ioe_flags & SB_IOF_NOSTATS)
		; /* fio's FIO_NOSTATS: the engine's own samples (engines/fileops.c) */
	else if (!(w->ioe_flags & SB_IOF_SYNC) && !o->disable_slat)
		sb_hist_add(&d->slat, slat); /* fio has no slat for synchronous engines */
	if (!o->disable_clat && !(w->ioe_flags & SB_IOF_NOSTATS))
		sb_hist_add(&d->clat, clat);
	sb_cprio_account(w, sl, clat);
	sb_cprio_log_mark(&w->res, lmark);
	if (!o->disable_lat && !(w->ioe_flags & SB_IOF_NOSTATS))
		sb_hist_add(&d->lat, lat);
	if (s->lat.on && !s->ramping && sb_lat_io(&s->lat, lat, s->now, done_ios(s)) == SB_LAT_FATAL && !rc) {
		s->stop = true; /* fio's lat_fatal */
		rc = sb_err_set(&w->err, -ETIMEDOUT, "max latency exceeded: latency of %llu nsec exceeds "
				"specified max (%llu nsec) at offset %llu of %s", (unsigned long long)lat,
				(unsigned long long)o->lat.target_ns, (unsigned long long)sl->off, w->path);
	}
	if (s->logging) {
		s->lwin_bytes[sl->dir] += moved;
		s->lwin_ios[sl->dir]++;
		s->lwin_n[sl->dir]++;
		s->lwin_sum[0][sl->dir] += slat;
		s->lwin_sum[1][sl->dir] += clat;
		s->lwin_sum[2][sl->dir] += lat;
		if (logs_lat(o) && !o->log_avg_msec) {
			uint64_t t_ms = (s->now - w->t0) / 1000000ULL;

			if (!(w->ioe_flags & SB_IOF_SYNC))
				log_add(&w->res.log[SB_LOG_SLAT], t_ms, slat, sl->dir, (uint32_t)sl->len, sl->off);
			log_add(&w->res.log[SB_LOG_CLAT], t_ms, clat, sl->dir, (uint32_t)sl->len, sl->off);
			log_add(&w->res.log[SB_LOG_LAT], t_ms, lat, sl->dir, (uint32_t)sl->len, sl->off);
		}
		if (!o->log_avg_msec && (o->log_bw[0] || o->log_iops[0]))
			log_io(s, sl, clat);
	}
	sb_cprio_log_stamp(&w->res, lmark, sl->ioprio);
	s->freel[s->nfree++] = sl;
	return rc;
}

static int reaped(struct ps *s, int r, const uint64_t *t);

/* fio's wait_for_completions: at least iodepth_batch_complete_min of
 * those in flight (at least one), at most iodepth_batch_complete_max (which
 * fio raises to the min: one by default); once nothing more is issued, all
 * that are in flight at once (fio's last io_u_queued_complete) */
static int reap(struct ps *s)
{
	long cmin = s->o->batch_cmin ? s->o->batch_cmin : 1, cmax = s->o->batch_cmax;
	int r;

	if (cmin > s->inflight || s->stop)
		cmin = s->inflight;
	if (cmax > (long)s->depth)
		cmax = (long)s->depth;
	if (cmax < cmin)
		cmax = cmin;
	r = s->nsync ? (int)s->nsync : s->w->ioe->getevents(s->w, cmin, cmax, s->events);

	s->nsync = 0;
	if (r < 0)
		return r;
	return reaped(s, r, NULL);
}

/* r events in s->events: account them (t: when each was reaped, offload's;
 * NULL: now), sample, check the rate's minimum */
static int reaped(struct ps *s, int r, const uint64_t *t)
{
	int i, rc = 0, rc1;

	s->now = sb_clock_ns();
	if (s->ramping && s->now >= s->p->ramp_end)
		ramp_over(s);
	s->inflight -= r;
	if (!t)
		s->w->res.complete_batch[bucket_batch((unsigned)r)]++;
	else if (!s->w->ioe->queue)
		s->w->res.complete_batch[bucket_batch(1)] += (unsigned)r; /* offload: a worker reaps its one */
	s->rbytes = 0;
	for (i = 0; i < r; i++) {
		uint64_t now = s->now;

		if (t)
			s->now = t[i];
		if ((rc1 = account(s, s->events[i].data, (long)s->events[i].res)) < 0 && rc == 0)
			rc = rc1;
		s->now = now;
	}
	sample(s);
	if (s->lat.on && !s->ramping && !s->stop) {
		int lr = sb_lat_after(&s->lat, s->inflight, s->now, done_ios(s));

		if (lr == SB_LAT_RESET) {
			ramp_over(s); /* fio's final window: reset_all_stats, reset_io_stats */
			sb_lat_cycle(&s->lat, s->now, 0);
		}
		s->stop = s->stop || lr == SB_LAT_DONE;
	}
	if (s->w->ioe->reaped) {
		s->w->ioe->reaped(s->w);
		s->now = sb_clock_ns();
	}
	if (s->w->pace.rated && !s->ramping && rc == 0 &&
	    (rc = sb_pace_check_min(&s->w->pace, s->w->res.dir, s->now, &s->w->err)) < 0)
		s->stop = true;
	atomic_store_explicit(&s->w->prog_bytes,
			      atomic_load_explicit(&s->w->prog_bytes, memory_order_relaxed) +
			      s->rbytes, memory_order_relaxed);
	atomic_store_explicit(&s->w->prog_ios, atomic_load_explicit(&s->w->prog_ios, memory_order_relaxed) +
			      (uint64_t)r, memory_order_relaxed);
	return rc;
}

/* fio's io_submit_mode=offload (bench/offload.h): this thread prepares
 * each io when it is due, without waiting for those in flight, and hands
 * it over; iodepth submitters issue and reap; what they reaped is
 * accounted here at the times they reaped it */
static int pass_offload(struct ps *s)
{
	struct sb_offload *q;
	uint64_t *t = calloc(s->depth, sizeof(*t));
	unsigned n, i;
	int r, rc;

	if (!t)
		return sb_err_set(&s->w->err, -ENOMEM, "out of memory");
	if ((rc = sb_offload_start(&q, s->w, s->depth)) < 0) {
		free(t);
		return rc;
	}
	while (!s->stop || s->inflight > 0) {
		n = 0;
		if (!s->stop && s->nfree > 0 && (rc = prepare(s, &n)) < 0)
			break;
		for (i = 0; i < n; i++) {
			((struct slot *)s->batch[i]->data)->t_start = sb_clock_ns(); /* fio's get_io_u */
			/* as fio reports it: each worker issues one io at depth 1
			 * (a synchronous engine's submissions are not counted) */
			s->w->res.depth_level[bucket_depth(1)]++;
			if (!s->w->ioe->queue)
				s->w->res.submit_batch[bucket_batch(1)]++;
			sb_offload_queue(q, s->batch[i]->data);
			s->inflight++;
		}
		if (s->inflight == 0)
			continue;
		/* wait for one when nothing more can be prepared now */
		r = sb_offload_reap(q, s->events, t, s->depth, n == 0 || s->nfree == 0 || s->stop);
		if (r > 0 && (rc = reaped(s, r, t)) < 0)
			break;
	}
	sb_offload_stop(q);
	free(t);
	s->inflight = 0; /* the submitters are gone: nothing is in flight */
	return rc;
}

int sb_engine_pass(struct worker *w, struct slot *slots, struct io_event *events, struct iocb **batch,
		   const struct pass *p, uint64_t *measure_start)
{
	const struct sb_job_opts *o = w->o;
	struct ps s = { .w = w, .o = o, .p = p, .events = events, .batch = batch,
			.depth = o->iodepth, .nfree = o->iodepth, .nblocks = w->len / o->bs,
			.random = sb_rw_random(p->rw), .ramping = p->ramp_end != 0,
			.measure_start = measure_start };
	unsigned i, n = 0;
	int rc = 0;

	s.freel = calloc(s.depth, sizeof(*s.freel));
	if (!s.freel)
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	for (i = 0; i < s.depth; i++)
		s.freel[i] = &slots[i];
	s.logging = o->log_bw[0] || o->log_iops[0] || o->log_lat[0];
	if (o->bsd.active && !p->check) {
		/* size-based: the region's bytes (loops times), as fio's io_size */
		rc = sb_bsgen_init(&s.gen, &o->bsd, w->len, w->start != 0, o->randommap,
				   p->nios ? (o->sub.io_size ? o->sub.io_size : w->len) * (o->loops ? o->loops : 1) : 0,
				   &w->rng, &w->err);
		if (rc < 0) {
			free(s.freel);
			return rc;
		}
		s.gen_on = true;
	}
	s.now = s.win_start = s.log_start = sb_clock_ns();
	if (!w->t0)
		w->t0 = s.now;
	sb_lat_init(&s.lat, o, s.now, 0);
	if (o->sub.offload)
		rc = pass_offload(&s);
	while (!o->sub.offload && (!s.stop || s.inflight > 0)) {
		if ((rc = prepare(&s, &n)) < 0)
			break;
		if (n > 0 && (rc = submit(&s, n)) < 0)
			break;
		if (s.inflight == 0)
			continue;
		/* as fio: fill the queue (in batches of w->batch) before reaping;
		 * a synchronous engine's result is waiting in events already */
		if (n > 0 && s.nfree > 0 && !s.stop && !s.nsync)
			continue;
		if ((rc = reap(&s)) < 0)
			break;
	}
	if (rc < 0) {
		/* wait for what is still in flight before the buffers go away */
		while (s.inflight > 0 && !s.nsync) {
			int r = w->ioe->getevents(w, 1, (long)s.depth, events);

			if (r < 0)
				break;
			s.inflight -= r;
		}
	}
	if (s.lat.on)
		w->res.lat_depth = s.lat.qd;
	sb_bsgen_free(&s.gen);
	free(s.freel);
	return rc;
}
