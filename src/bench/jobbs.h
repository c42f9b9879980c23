/* fio's block size, offset and distribution options (bs=R,W,T, bsrange,
 * bssplit, blockalign, rw=<mode>:N, rw_sequencer, random_distribution,
 * random_generator, percentage_random, zonemode=strided) as a job carries
 * them (struct sb_job_bs, in struct sb_job_opts), and the per-io generator
 * the engine asks for each io's offset and length (struct sb_bsgen). */
#ifndef SB_BENCH_JOBBS_H
#define SB_BENCH_JOBBS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

#define SB_BS_SPLIT_MAX 64    /* fio's BSSPLIT_MAX */
#define SB_BS_ZONE_MAX 256    /* fio's ZONESPLIT_MAX */

enum sb_dist { SB_DIST_RANDOM, SB_DIST_ZIPF, SB_DIST_PARETO, SB_DIST_GAUSS, SB_DIST_ZONED, SB_DIST_ZONED_ABS };
enum sb_rgen { SB_RGEN_TAUSWORTHE, SB_RGEN_LFSR, SB_RGEN_TAUSWORTHE64 };

struct sb_bs_split { uint64_t bs; uint32_t perc; };
/* zoned: access % of the ios go to size_perc % of the region (zoned_abs: size bytes) */
struct sb_bs_zone { uint32_t access; uint32_t size_perc; uint64_t size; };

struct sb_job_bs {
	bool active;              /* some option of the family differs from fio's default:
				   * the engine takes each io's offset and length from sb_bsgen */
	/* as given; resolved into min_bs/max_bs by sb_jobbs_finish (fio's fixup_options) */
	uint64_t bs[2];           /* bs=R,W (0 = the default 4k) */
	uint64_t min_bs[2], max_bs[2];
	uint64_t ba[2];           /* blockalign (0 = min_bs) */
	bool unaligned;           /* bs_unaligned */
	uint32_t nsplit[2];
	struct sb_bs_split split[2][SB_BS_SPLIT_MAX];
	bool rw_postfix;          /* rw=<mode>:N given */
	int64_t seq_add;          /* sequential rw=<mode>:N: skip N bytes after each io (negative: backwards) */
	uint32_t seq_nr;          /* random rw=<mode>:N: a new random offset every N ios (1 = each) */
	bool rw_seq_identical;    /* rw_sequencer=identical (default sequential) */
	enum sb_dist dist;
	double dist_val, center;  /* theta, h or sigma %; center -1 = none */
	uint32_t nzone[2];
	struct sb_bs_zone zone[2][SB_BS_ZONE_MAX];
	enum sb_rgen gen;
	uint32_t perc_rand[2];    /* percentage_random (default 100) */
	bool strided;             /* zonemode=strided */
	uint64_t zonesize, zonerange, zoneskip;
};

struct sb_job_opts;

/* Defaults (fio's): called by sb_job_opts_init. */
void sb_jobbs_init(struct sb_job_bs *b);
/* fio's rw=<mode>[:N] (str_rw_cb): the mode into j->rw, N into j->bsd. */
int sb_jobbs_rw(const char *opt, const char *v, struct sb_job_opts *j, struct sb_err *err);
/* Once all options are in (fio's fixup_options): min/max bs per direction,
 * blockalign, j->bs = the largest io (buffers are sized by it), active. */
int sb_jobbs_finish(struct sb_job_opts *j, struct sb_err *err);

/* Parsers, for the option table and the unit tests: v into b (fio's
 * bssplit, bsrange, bs=R,W,T, random_distribution). */
int sb_jobbs_parse_bssplit(const char *v, struct sb_job_bs *b, struct sb_err *err);
int sb_jobbs_parse_bsrange(const char *v, struct sb_job_bs *b, struct sb_err *err);
int sb_jobbs_parse_bs(const char *v, struct sb_job_bs *b, struct sb_err *err);
int sb_jobbs_parse_dist(const char *v, struct sb_job_bs *b, struct sb_err *err);

#endif
