/* SNIA PTS steady state over rounds of one figure (a stack's fio-matrix
 * cell): steady when, over the last 5 rounds (the measurement window), the
 * data excursion max - min is within 20 % of the window's mean and the
 * least-squares line's excursion over the window (|slope| x 4 rounds)
 * within 10 % of it; at most 25 rounds, else "not attained". */
#ifndef SB_BENCH_STEADY_PTS_H
#define SB_BENCH_STEADY_PTS_H

#include <stdbool.h>

#include <json-c/json.h>

#define SB_PTS_WINDOW 5
#define SB_PTS_MAX_ROUNDS 25
#define SB_PTS_RANGE_PCT 20.0
#define SB_PTS_EXCURSION_PCT 10.0

struct sb_pts {
	double y[SB_PTS_MAX_ROUNDS];
	unsigned n;                    /* rounds so far */
	bool attained;
	double range_pct, excursion_pct;   /* of the last window judged */
};

/* Round n+1's figure; true once steady (no more rounds needed). */
bool sb_pts_add(struct sb_pts *p, double y);
/* Steady, or 25 rounds run: no more rounds. */
bool sb_pts_done(const struct sb_pts *p);
/* {attained, rounds, window: [...], range_pct, excursion_pct,
 * window_mean, why} (the last three once 5 rounds ran; why always) */
struct json_object *sb_pts_json(const struct sb_pts *p);
/* The mean of the window (the last 5 rounds, or all of fewer): PTS's
 * reported figure */
double sb_pts_mean(const struct sb_pts *p);

#endif
