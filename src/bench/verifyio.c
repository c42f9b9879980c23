#include "bench/verifyio.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/fioverify.h"
#include "util/clock.h"
#include "util/log.h"

#define GEN_CHECKED 0x80000000u

struct sb_fvw {
	uint32_t *gen;       /* per block: 0 never written, else the write's count + 1 (| GEN_CHECKED) */
	uint64_t nblk;
	uint32_t writes;     /* fio's io_issues[DDIR_WRITE] */
	uint64_t seed;
	uint64_t *ring;      /* verify_backlog: blocks written and not yet checked, oldest first */
	uint64_t rcap, rhead, rlen;
	void *rbuf;          /* the backlog's read buffer */
	uint64_t cursor;     /* the verify pass's next block */
	uint64_t loop_at;    /* ios issued when the last loop was checked */
	bool pass_all;       /* verify_only: every block of the region */
};

static bool writes(enum sb_rw rw)
{
	return rw != SB_RW_READ && rw != SB_RW_RANDREAD;
}

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

int sb_fvw_init(struct worker *w)
{
	const struct sb_job_opts *o = w->o;
	struct sb_fvw *v;

	w->fv = NULL;
	if (o->fv.type == SB_FV_NONE)
		return 0;
	v = calloc(1, sizeof(*v));
	if (!v)
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	w->fv = v;
	v->nblk = w->len / o->bs;
	v->seed = rng_next(&w->rng);
	if (writes(o->rw) && !o->fv.only) {
		/* a 32-bit size_t cannot count every block of a large region: refuse, never truncate */
		v->gen = v->nblk < SIZE_MAX / sizeof(*v->gen) ? calloc((size_t)(v->nblk ? v->nblk : 1), sizeof(*v->gen))
							     : NULL;
		if (!v->gen)
			return sb_err_set(&w->err, -ENOMEM, "verify: no memory for the written map of %llu blocks",
					  (unsigned long long)v->nblk);
	}
	if ((o->fv.backlog || o->loops > 1) && v->gen) {
		if (o->fv.backlog) {
			v->rcap = o->fv.backlog < v->nblk ? o->fv.backlog : v->nblk;
			v->ring = v->rcap < SIZE_MAX / sizeof(*v->ring) - 1 ? calloc((size_t)v->rcap + 1, sizeof(*v->ring))
									    : NULL;
		}
		v->rbuf = mmap(NULL, (size_t)o->bs, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if ((o->fv.backlog && !v->ring) || v->rbuf == MAP_FAILED) {
			v->rbuf = NULL;
			return sb_err_set(&w->err, -ENOMEM, "verify_backlog: out of memory");
		}
	}
	return 0;
}

void sb_fvw_free(struct worker *w)
{
	struct sb_fvw *v = w->fv;

	if (!v)
		return;
	if (v->rbuf)
		munmap(v->rbuf, (size_t)w->o->bs);
	free(v->ring);
	free(v->gen);
	free(v);
	w->fv = NULL;
}

void sb_fvw_pass_setup(struct worker *w, struct pass *p)
{
	const struct sb_job_opts *o = w->o;

	if (!w->fv)
		return;
	if (o->fv.only && writes(o->rw)) {
		/* fio's do_dry_run: nothing written, then every block checked */
		p->rw = SB_RW_READ;
		p->fv_pass = p->fv_check = true;
		w->fv->pass_all = !o->fv.no_verify;   /* fio: do_verify=0 checks nothing either */
		w->fv->cursor = 0;
		p->nios = w->fv->pass_all ? w->fv->nblk : 0;
		p->end_ns = 0;
		return;
	}
	p->fv_check = !writes(o->rw);
}

void sb_fvw_write(struct worker *w, void *buf, uint64_t off)
{
	const struct sb_job_opts *o = w->o;
	struct sb_fvw *v = w->fv;
	uint64_t blk = (off - w->start) / o->bs;
	uint32_t n = v->writes++;

	sb_fv_fill(&o->fv, buf, (uint32_t)o->bs, off, mix(v->seed + n), (uint16_t)(o->log_base + w->idx + 1),
		   (uint16_t)n, sb_clock_ns());
	if (!v->gen || blk >= v->nblk)
		return;
	v->gen[blk] = (n + 1) & ~GEN_CHECKED;
	if (v->ring) {
		v->ring[(v->rhead + v->rlen) % (v->rcap + 1)] = blk;
		if (v->rlen <= v->rcap)
			v->rlen++;
		else
			v->rhead = (v->rhead + 1) % (v->rcap + 1);
	}
}

/* fio's dump_buf: FILE.OFFSET.KIND in the current directory */
static void dump(const struct worker *w, const void *p, uint32_t len, uint64_t off, const char *kind)
{
	char path[sizeof(w->path)], name[700];
	int fd;

	snprintf(path, sizeof(path), "%s", w->path);
	snprintf(name, sizeof(name), "%s.%llu.%s", basename(path), (unsigned long long)off, kind);
	fd = open(name, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0 || write(fd, p, len) != (ssize_t)len)
		sb_warn("verify_dump: %s: %s", name, strerror(errno));
	else
		sb_info("verify_dump: %s data dumped as %s", kind, name);
	if (fd >= 0)
		close(fd);
}

static void dump_fail(const struct worker *w, const uint8_t *buf, uint64_t off, const struct sb_fv_fail *f)
{
	const struct sb_fv_opts *fo = &w->o->fv;
	uint32_t at = (uint32_t)(f->offset - off);
	struct sb_fv_hdr h;
	uint8_t *exp;

	if (strncmp(f->what, "bad ", 4) == 0) {
		dump(w, buf + at, f->len, f->offset, "hdr_fail");
		return;
	}
	dump(w, buf + at, f->len, f->offset, "received");
	exp = malloc(w->o->bs);
	if (!exp)
		return;
	/* the written block again, from its header's seed (fio's __dump_verify_buffers) */
	sb_fv_hdr_decode(buf + at, &h);
	sb_fv_fill(fo, exp, (uint32_t)w->o->bs, off, h.rand_seed, h.thread, h.numberio,
		   (uint64_t)h.time_sec * 1000000000ULL + h.time_nsec);
	dump(w, exp + at, f->len, f->offset, "expected");
	free(exp);
}

int sb_fvw_read(struct worker *w, void *buf, uint64_t off)
{
	const struct sb_job_opts *o = w->o;
	struct sb_fvw *v = w->fv;
	uint64_t blk = (off - w->start) / o->bs;
	struct sb_fv_expect e = { 0 }, *ep = NULL;
	struct sb_fv_fail f;
	uint32_t g;

	if (o->ioengine == SB_IOENGINE_NULL)
		return 0;   /* fio's FIO_FAKEIO: nothing to check */
	/* fio checks numberio of blocks this job wrote (fixed bs, not time-based),
	 * the seed only in mixed jobs without a backlog */
	if (v->gen && blk < v->nblk && (g = v->gen[blk] & ~GEN_CHECKED)) {
		e.numberio_set = !o->time_based;
		e.numberio = (uint16_t)(g - 1);
		e.seed_set = (o->rw == SB_RW_RW || o->rw == SB_RW_RANDRW) && !o->fv.backlog && !o->fv.pattern_len;
		e.rand_seed = mix(v->seed + g - 1);
		ep = &e;
		v->gen[blk] |= GEN_CHECKED;
	}
	if (sb_fv_check(&o->fv, buf, (uint32_t)o->bs, off, ep, &f) == 0)
		return 0;
	if (o->fv.dump)
		dump_fail(w, buf, off, &f);
	return sb_err_set(&w->err, -EILSEQ, "verify: %s at file %s offset %llu, length %u (requested block: "
			  "offset=%llu, length=%llu)", f.what, w->path, (unsigned long long)f.offset, f.len,
			  (unsigned long long)off, (unsigned long long)o->bs);
}

static bool loop_due(const struct worker *w, uint64_t issued, uint64_t nblocks)
{
	const struct sb_job_opts *o = w->o;

	return o->loops > 1 && !o->fv.no_verify && w->fv->gen && issued && nblocks && issued % nblocks == 0 &&
	       issued != w->fv->loop_at;
}

bool sb_fvw_due(const struct worker *w, uint64_t issued, uint64_t nblocks)
{
	return w->fv && ((w->fv->ring && w->fv->rlen >= w->fv->rcap) || loop_due(w, issued, nblocks));
}

/* Read block blk synchronously and check it. */
static int check_block(struct worker *w, uint64_t blk)
{
	const struct sb_job_opts *o = w->o;
	struct sb_fvw *v = w->fv;
	struct sb_dir_result *d = &w->res.dir[SB_DIR_READ];
	uint64_t off = w->start + blk * o->bs, t0 = sb_clock_ns(), t1;
	ssize_t r = o->ioengine == SB_IOENGINE_NULL ? (ssize_t)o->bs
						    : pread(w->fd, v->rbuf, (size_t)o->bs, (off_t)off);
	int rc;

	if (r != (ssize_t)o->bs)
		return sb_err_sys(&w->err, r < 0 ? -errno : -EIO, "verify: read of %llu bytes at offset %llu on %s",
				  (unsigned long long)o->bs, (unsigned long long)off, w->path);
	t1 = sb_clock_ns();
	d->ios++;
	d->io_bytes += o->bs;
	sb_hist_add(&d->clat, t1 - t0);
	sb_hist_add(&d->lat, t1 - t0);
	if ((rc = sb_fvw_read(w, v->rbuf, off)) < 0) {
		w->res.verify_errors++;
		return rc;
	}
	w->res.verified_blocks++;
	return 0;
}

int sb_fvw_run(struct worker *w, uint64_t issued, uint64_t nblocks)
{
	const struct sb_job_opts *o = w->o;
	struct sb_fvw *v = w->fv;
	uint64_t n = o->fv.backlog_batch < v->rlen ? o->fv.backlog_batch : v->rlen, b;
	int rc;

	if (loop_due(w, issued, nblocks)) {
		/* the loop's writes, all of them, before the next loop overwrites them */
		v->loop_at = issued;
		v->rlen = 0;
		/* no sync: fio closed the files first (clear_io_state), its do_verify syncs open ones only */
		if (w->fd >= 0 && !o->direct && o->invalidate)
			(void)posix_fadvise(w->fd, (off_t)w->start, (off_t)w->len, POSIX_FADV_DONTNEED);
		for (b = 0; b < v->nblk; b++)
			if (v->gen[b] && !(v->gen[b] & GEN_CHECKED) && (rc = check_block(w, b)) < 0)
				return rc;
		return 0;
	}
	for (; n > 0; n--) {
		uint64_t blk = v->ring[v->rhead];

		v->rhead = (v->rhead + 1) % (v->rcap + 1);
		v->rlen--;
		if ((rc = check_block(w, blk)) < 0)
			return rc;
	}
	return 0;
}

bool sb_fvw_next(struct worker *w, uint64_t *blk)
{
	struct sb_fvw *v = w->fv;

	if (!v->pass_all && !v->gen)
		return false;
	while (v->cursor < v->nblk) {
		uint64_t b = v->cursor++;

		if (v->pass_all || (v->gen[b] && !(v->gen[b] & GEN_CHECKED))) {
			*blk = b;
			return true;
		}
	}
	return false;
}

int sb_fvw_phase(struct worker *w, struct slot *slots, struct io_event *events,
		 struct iocb **batch)
{
	const struct sb_job_opts *o = w->o;
	struct sb_fvw *v = w->fv;
	struct pass p = { .rw = SB_RW_READ, .fv_pass = true, .fv_check = true };
	uint64_t ms = 0, t0, b;
	int rc;

	if (v && o->fv.only && writes(o->rw)) {
		/* fio's do_dry_run counts the writes it did not do: their bytes and
		 * ios, zero latencies, no runtime */
		struct sb_dir_result *d = &w->res.dir[SB_DIR_WRITE];

		d->io_bytes += v->nblk * o->bs;
		d->ios += v->nblk;
		for (b = 0; b < v->nblk; b++) {
			sb_hist_add(&d->clat, 0);
			sb_hist_add(&d->lat, 0);
		}
		return 0;
	}
	if (!v || !v->gen || o->fv.no_verify || o->fv.only)
		return 0;
	for (b = 0; b < v->nblk; b++)
		p.nios += v->gen[b] && !(v->gen[b] & GEN_CHECKED);
	/* fio's runtime covers the verify phase too (do_verify stops once it is
	 * exceeded: a time-based job's writes leave it nothing) */
	if (o->runtime_ns) {
		p.end_ns = w->t0 + o->runtime_ns;
		if (sb_clock_ns() >= p.end_ns)
			return 0;
	}
	if (!p.nios)
		return 0;
	/* fio's do_verify: the files were closed (clear_io_state: no sync of
	 * open files left to do), reopened and their cache dropped */
	if (w->fd >= 0 && !o->direct &&
	    (o->invalidate && posix_fadvise(w->fd, (off_t)w->start, (off_t)w->len, POSIX_FADV_DONTNEED) != 0))
		sb_debug("verify: the page cache of %s was not dropped", w->path);
	v->cursor = 0;
	t0 = sb_clock_ns();
	rc = sb_engine_pass(w, slots, events, batch, &p, &ms);
	w->res.dir[SB_DIR_READ].runtime_ns += sb_clock_ns() - t0;
	return rc;
}
