/* bench.per_layer figures: what each layer could do given what was
 * measured below it, and which limit it meets: the statistics and the
 * recording, on the results' "per_layer" rows. The models themselves are
 * the layers' (struct sb_layer_ops .pl_model, run/per_layer.c calls them);
 * compare renders what the run recorded. */
#ifndef SB_REPORT_PER_LAYER_H
#define SB_REPORT_PER_LAYER_H

#include <json-c/json.h>

/* The three figures of every row, in this order. */
#define SB_PL_NKEYS 3
extern const char *const sb_pl_keys[SB_PL_NKEYS];

/* The three figures of one row's field ("figures", "expected"...). */
struct sb_pl_figs {
	double v[SB_PL_NKEYS];   /* < 0: unknown */
};
void sb_pl_get(struct json_object *row, const char *field, struct sb_pl_figs *f);

/* What was measured right below one row's layer (the block layer measured
 * just before it): the statistics the layers' models work from. */
struct sb_pl_below {
	unsigned n;                      /* devices below; 0: nothing below */
	unsigned mine;                   /* the row's index within its own layer */
	struct sb_pl_figs min, mean, sum;
	struct sb_pl_figs same;          /* the device below of the same index (per-member layers) */
	struct sb_pl_figs own;           /* the row's own measured figures */
};

/* A layer's model of one row: the expected figure per key and the sentence
 * saying why (both recorded in the results), and an optional note (e.g.
 * md's partial-stripe writes). */
struct sb_pl_model {
	struct sb_pl_figs exp;           /* < 0: no expectation */
	struct sb_pl_figs base;          /* what "pct_of_below" is of: the member below, or the mean */
	char why[SB_PL_NKEYS][200];
	char note[640];
};

/* The statistics below row i of rows (as sb_per_layer_after made them). */
void sb_pl_below_of(struct json_object *rows, size_t i, struct sb_pl_below *b);
/* The model every layer starts from: a per-member layer ~ the member of
 * the same index, anything else ~ what is below (the sum over several
 * devices). Layers with a model of their own (struct sb_layer_ops
 * .pl_model) refine it. */
void sb_pl_model_below(const struct sb_pl_below *b, struct sb_pl_model *m);
/* Record m in row: "expected", "pct_of_below" (of m's base),
 * "model" (the sentence per key), "note" when m has one, and "limit" (one
 * sentence: the key furthest from its expectation and why). */
void sb_pl_record(struct json_object *row, const struct sb_pl_below *b, const struct sb_pl_model *m);
/* Set the sentence of key k (printf-like). */
void sb_pl_why(struct sb_pl_model *m, unsigned k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* compare --per-layer: the table (format: enum sb_table_format) and the
 * waterfall chart (.svg or .png). */
#include <stdbool.h>
#include <stdio.h>
#include "util/err.h"
int sb_per_layer_render(struct json_object *const *res, unsigned n, int format, FILE *out,
			struct sb_err *err);
/* Rows repeated (several results files of one stack): each layer against
 * the layer below in the same run, paired over the runs, key k of row j
 * (per_layer_verdict.c); the lines under compare --per-layer's table. */
struct sb_verdict;
void sb_pl_verdict(struct json_object *const *runs, unsigned n, size_t j, unsigned k, struct sb_verdict *v);
void sb_pl_render_verdicts(struct json_object *const *res, unsigned n, bool md, FILE *out);
int sb_per_layer_chart(struct json_object *const *res, unsigned n, const char *path,
		       struct sb_err *err);

#endif
