/* Job results as fio shapes them (--output-format=json), and as text. */
#ifndef SB_BENCH_OUTPUT_H
#define SB_BENCH_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "bench/iostat.h"
#include "bench/job.h"

/* One element of fio's "jobs" array: jobname, read, write, usr_cpu, sys_cpu
 * (fio's keys) and "job options" with what ran. */
struct json_object *sb_job_result_json(const struct sb_job_opts *o, const struct sb_job_result *r);
/* {"stackbench version", "jobs": [job], "disk_util": [...]} */
struct json_object *sb_job_report_json(const struct sb_job_opts *o, const struct sb_job_result *r,
				       const struct sb_iostat *io);
void sb_job_report_text(FILE *f, const struct sb_job_opts *o, const struct sb_job_result *r,
			const struct sb_iostat *io);
void sb_iostat_text(FILE *f, const struct sb_iostat *io);
/* Several jobs (stackbench job, fiojson.c): fio's JSON - top level, "global
 * options" (from global->given), "jobs" in order (one per thread unless the
 * job has group_reporting), "disk_util"; plus: json+ (clat_ns.bins). */
struct json_object *sb_jobs_report_json(const struct sb_job_opts *global, const struct sb_job_opts *const *o,
					const struct sb_job_result *const *r, unsigned n,
					const struct sb_iostat *io, bool plus);
void sb_jobs_report_text(FILE *f, const struct sb_job_opts *const *o,
			 const struct sb_job_result *const *r, unsigned n, const struct sb_iostat *io);

/* bytes per second of one direction (0 when it did nothing) */
double sb_dir_bw(const struct sb_dir_result *d);
double sb_dir_iops(const struct sb_dir_result *d);
/* (user + system CPU of the job's threads) / elapsed * 100, as bonnie++ */
double sb_job_cpu_pct(const struct sb_job_result *r);

/* fio's latency_ns/us/ms buckets (json) and "lat (usec)" lines (normal),
 * one count for both: cnt[unit][k] is the ios of both directions below
 * sb_fio_lat_limits[k] of that unit (k = 9 resp. 11: at or above the last). */
extern const uint64_t sb_fio_lat_limits[11];
void sb_fio_lat_count(const struct sb_job_result *r, double cnt[3][12]);

/* fio's text rules (fiotext.c; tests/unit/test_fiotext.c): num2str (maxlen
 * digits, base 1 or 1024, pow2: KiB..., unit "", "B", "B/s"); the
 * percentile block of show_clat_percentiles (units from the smallest and
 * largest value, rounded up); the "bw (  KiB/s)" line with per= of agg
 * (the group's bytes/s); stat_calc_dist's % (at least 0.1 when any). */
const char *sb_fio_num2str(uint64_t num, int maxlen, int base, bool pow2, const char *unit,
			   char *buf, size_t len);
void sb_fio_pct_text(FILE *f, const char *pre, const double *pct, const uint64_t *val, unsigned n);
void sb_fio_bw_text(FILE *f, const struct sb_stat *st, double agg);
double sb_fio_dist_pct(uint64_t c, uint64_t total);
/* fio's rs->agg: group g's bytes of direction d x 1000 / its longest runtime (ms) */
uint64_t sb_fio_group_agg(unsigned g, int d, const struct sb_job_opts *const *o,
			  const struct sb_job_result *const *r, unsigned n);
/* fio's job_runtime / total_run_time: summed over a group's threads */
uint64_t sb_fio_job_runtime_ns(const struct sb_job_result *r);

#endif
