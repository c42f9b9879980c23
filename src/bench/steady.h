/* fio's steady state (steadystate/ss, ss_dur, ss_ramp, ss_interval):
 * a rolling window of per-interval samples (IOPS, bandwidth in bytes/s,
 * mean completion latency in ns), judged once full by fio's criteria:
 *   iops, bw, lat: every sample within the limit of the window's mean
 *     (the largest |sample - mean|, or 100 x that / mean with N%);
 *   iops_slope, bw_slope, lat_slope: the least-squares slope over the
 *     window (x = 0, 1, ... oldest first, samples equally spaced) below
 *     the limit in magnitude (or 100 x slope / mean with N%).
 * And fio's "steadystate" JSON block. Definitions as fio's HOWTO and
 * steadystate.c/stat.c (fio 3.33 has iops, bw and their slopes; lat,
 * lat_slope and ss_interval are later fio's, default interval 1 s). */
#ifndef SB_BENCH_STEADY_H
#define SB_BENCH_STEADY_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "util/err.h"

#define SB_SS_MAX_SAMPLES 100000

enum sb_ss_what { SB_SS_IOPS, SB_SS_BW, SB_SS_LAT };

struct sb_ss_spec {
	enum sb_ss_what what;
	bool slope;               /* *_slope */
	bool pct;                 /* the limit is a % of the window's mean */
	double limit;
	uint64_t dur_s;           /* ss_dur, whole seconds (fio's unit); 0: off */
	uint64_t ramp_ns;         /* ss_ramp */
	uint64_t interval_ms;     /* ss_interval; 1000 by default */
};

struct sb_ss {
	struct sb_ss_spec spec;
	unsigned n;               /* samples in a full window: dur / interval */
	unsigned filled;
	uint64_t *iops, *bw, *lat;   /* n each, oldest first; zeros not yet filled */
	bool attained;
	double slope, deviation, criterion;
};

/* "iops:2", "iops:0.2%", "bw_slope:1048576", "lat:5%"... into sp's what,
 * slope, pct and limit; -EINVAL with fio's wording of what is wrong. */
int sb_ss_parse(const char *s, struct sb_ss_spec *sp, struct sb_err *err);
/* The window for sp (sp->dur_s / interval samples, at least 1). */
int sb_ss_init(struct sb_ss *ss, const struct sb_ss_spec *sp, struct sb_err *err);
void sb_ss_free(struct sb_ss *ss);
/* Whether samples are collected elapsed_ns into the job: as fio, from one
 * second after ss_ramp (at once without a ramp). */
bool sb_ss_collecting(const struct sb_ss_spec *sp, uint64_t elapsed_ns);
/* One interval's sample; true once the criterion is met (the job stops). */
bool sb_ss_add(struct sb_ss *ss, uint64_t iops, uint64_t bw, uint64_t lat_ns);
/* fio's "steadystate" object: ss, duration, attained, criterion,
 * max_deviation, slope, data {bw_mean, iops_mean, [lat_mean, lat_ns,]
 * iops, bw}. */
struct json_object *sb_ss_json(const struct sb_ss *ss);

#endif
