/* fio's verify in the engine (one job thread): what each write carries,
 * the check of each verified read, verify_backlog, and the verify phase
 * after the writes. The engine calls these hooks; none of it runs unless
 * the job has fio's verify=<type> (o->fv.type). */
#ifndef SB_BENCH_VERIFYIO_H
#define SB_BENCH_VERIFYIO_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/engine_int.h"

/* Per job thread: set up (w->fv), or free. 0 or -errno with w->err set. */
int sb_fvw_init(struct worker *w);
void sb_fvw_free(struct worker *w);

/* The job's main pass: verify_only turns it into the check of every block
 * (no write); a read job checks every read (fio: !td_rw). */
void sb_fvw_pass_setup(struct worker *w, struct pass *p);
/* A write of block at off: fill the buffer as fio's populate_verify_io_u. */
void sb_fvw_write(struct worker *w, void *buf, uint64_t off);
/* A verified read at off: 0, or -EILSEQ with w->err set (and the dumps). */
int sb_fvw_read(struct worker *w, void *buf, uint64_t off);
/* Due: verify_backlog's count of writes waits, or a loop of a job with
 * loops is over (fio checks after every loop). Run: check them with
 * synchronous reads, the queue drained first (counted as reads). */
bool sb_fvw_due(const struct worker *w, uint64_t issued, uint64_t nblocks);
int sb_fvw_run(struct worker *w, uint64_t issued, uint64_t nblocks);
/* The verify pass's next block (the written ones, once each); false: done. */
bool sb_fvw_next(struct worker *w, uint64_t *blk);
/* After the writes: fio's do_verify (sync, invalidate, read back what was
 * written and check it). */
int sb_fvw_phase(struct worker *w, io_context_t ctx, struct slot *slots, struct io_event *events,
		 struct iocb **batch);

#endif
