/* Verdicts: each numeric cell against the baseline's cell of its column,
 * as a difference in % with its 95 % confidence interval (src/stats), the
 * outliers of either side flagged, and whether the verdict holds without
 * them. verdict.c fills them into the model, verdict_render.c words them
 * for every format. docs/statistics.md says how and why. */
#ifndef SB_REPORT_VERDICT_H
#define SB_REPORT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/stats.h"

#define SB_CELL_SAMPLES 64  /* samples a cell keeps for its interval */

enum sb_verdict_state {
	SB_VERDICT_NONE = 0,  /* no verdict: not compared (text column, the baseline, no data) */
	SB_VERDICT_FEW,       /* n < 3 on a side: "n too small for a verdict" */
	SB_VERDICT_CI,        /* ci holds the interval */
};

struct sb_verdict {
	enum sb_verdict_state state;
	struct sb_stats_ci ci;
	int sign;             /* sb_stats_ci_sign(ci): -1 lower, 0 no detectable difference, +1 higher */
	int better;           /* +1: higher is faster (rates), -1: lower is faster (times), 0: neither */
	unsigned outliers;    /* samples of this cell flagged (kept) */
	bool outlier[SB_CELL_SAMPLES];
	int without;          /* outliers on either side: the sign without them; 2 if not computable */
};

struct sb_table;

/* Fills every cell's verdict against row t->baseline (t->baseline >= 0);
 * flags outliers of every numeric cell. */
void sb_table_verdicts(struct sb_table *t);

/* "slower", "faster", "higher", "lower", "no detectable difference",
 * "n too small for a verdict"; "" for NONE. */
const char *sb_verdict_word(const struct sb_verdict *v);
/* The verdict cell: "-12 % [-15, -9] slower", "+1 % no detectable
 * difference (±4 %)", "n too small for a verdict"; "-" for NONE. */
void sb_verdict_format(const struct sb_verdict *v, char *buf, size_t len);
/* The lines under a text or Markdown table: method, outliers, disagreeing suites. */
void sb_verdict_print_notes(const struct sb_table *t, bool markdown, FILE *out);
/* Rows of t whose decided verdicts of different suites point both ways
 * (faster in one, slower in another): the sentence for row r, or "" */
void sb_verdict_disagree(const struct sb_table *t, unsigned r, char *buf, size_t len);

/* verdict_fields.c: CSV's 7 fields per numeric column (header, then each
 * row's), JSON's NAME_verdict, _diff_pct, _ci_low_pct, _ci_high_pct,
 * _ci_half_pct, _method, _outliers, _holds_without_outliers; a row's
 * "suites_disagree". */
struct json_object;
void sb_verdict_csv_header(const char *header, FILE *out);
void sb_verdict_csv(const struct sb_verdict *v, FILE *out);
void sb_verdict_json(const char *col, const struct sb_verdict *v, int compared, struct json_object *o);
void sb_verdict_json_row(const struct sb_table *t, unsigned r, struct json_object *o);

#endif
