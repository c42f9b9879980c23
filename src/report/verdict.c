/* Every numeric cell against the baseline's: the interval of the
 * difference (paired rounds when both rows are one interleaved run, Welch
 * otherwise), the outliers flagged on each side, and the same interval
 * without them. See verdict.h and docs/statistics.md. */
#include "report/table.h"
#include "report/results.h"

#include <json-c/json.h>
#include <math.h>
#include <string.h>

/* Rates (MB/s, /s): higher is faster; times: lower is; else neither. */
static int direction(const char *unit)
{
	static const char *const times[] = { "ns", "us", "\xc2\xb5s", "ms", "s" };
	size_t i, l = strlen(unit);

	if (l >= 2 && !strcmp(unit + l - 2, "/s"))
		return 1;
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (!strcmp(unit, times[i]))
			return -1;
	return 0;
}

/* Both rows are one file each of an interleaved run: their repetitions are rounds. */
static bool interleaved(const struct sb_table *t, unsigned r)
{
	struct json_object *o;

	return json_object_object_get_ex(t->row_first[r], "run_order", &o);
}

/* Samples of a and b paired by round, skipping flagged ones if skip; the
 * number of pairs. */
static unsigned pairs(const struct sb_cell *a, const struct sb_cell *b, bool skip,
		      double *pa, double *pb)
{
	unsigned i, j, k = 0;

	for (i = 0; i < a->nv; i++)
		for (j = 0; j < b->nv; j++)
			if (a->rep[i] && a->rep[i] == b->rep[j] &&
			    !(skip && (a->verdict.outlier[i] || b->verdict.outlier[j]))) {
				pa[k] = a->v[i];
				pb[k++] = b->v[j];
				break;
			}
	return k;
}

static unsigned kept(const struct sb_cell *a, bool skip, double *out)
{
	unsigned i, k = 0;

	for (i = 0; i < a->nv; i++)
		if (!(skip && a->verdict.outlier[i]))
			out[k++] = a->v[i];
	return k;
}

/* The interval of x against base; skip: without the flagged samples. */
static int interval(const struct sb_cell *base, const struct sb_cell *x, bool paired, bool skip,
		    struct sb_stats_ci *ci)
{
	double pa[SB_CELL_SAMPLES] = { 0 }, pb[SB_CELL_SAMPLES] = { 0 };
	unsigned na, nb;

	if (paired) {
		na = pairs(base, x, skip, pa, pb);
		if (na < SB_STATS_MIN_N)
			return -EINVAL;
		return sb_stats_paired_ci(pa, pb, na, SB_STATS_LEVEL, ci);
	}
	na = kept(base, skip, pa);
	nb = kept(x, skip, pb);
	if (na < SB_STATS_MIN_N || nb < SB_STATS_MIN_N)
		return -EINVAL;
	return sb_stats_welch_ci(pa, na, pb, nb, SB_STATS_LEVEL, ci);
}

static void compare(const struct sb_table *t, unsigned r, unsigned c)
{
	const struct sb_cell *base = sb_table_cell(t, (unsigned)t->baseline, c);
	struct sb_cell *x = sb_table_cell(t, r, c);
	struct sb_verdict *v = &x->verdict;
	struct sb_stats_ci without;
	double pa[SB_CELL_SAMPLES], pb[SB_CELL_SAMPLES];
	bool paired;

	v->better = direction(t->cols[c].unit);
	v->state = SB_VERDICT_FEW;
	if (base->n < SB_STATS_MIN_N || x->n < SB_STATS_MIN_N || base->nv < base->n || x->nv < x->n)
		return;
	/* paired when both rows are interleaved rounds and >= 3 rounds match */
	paired = interleaved(t, r) && interleaved(t, (unsigned)t->baseline) &&
		 pairs(base, x, false, pa, pb) >= SB_STATS_MIN_N;
	if (interval(base, x, paired, false, &v->ci) < 0)
		return;  /* a value <= 0: no log scale */
	v->state = SB_VERDICT_CI;
	v->sign = sb_stats_ci_sign(&v->ci);
	v->without = 2;
	if (!x->verdict.outliers && !base->verdict.outliers)
		v->without = v->sign;
	else if (interval(base, x, paired, true, &without) == 0)
		v->without = sb_stats_ci_sign(&without);
}

void sb_table_verdicts(struct sb_table *t)
{
	unsigned r, c;

	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			struct sb_cell *x = sb_table_cell(t, r, c);

			if (t->cols[c].numeric && x->present)
				x->verdict.outliers = sb_stats_outliers(x->v, x->nv, SB_STATS_OUTLIER_K,
									x->verdict.outlier);
		}
	if (t->baseline < 0 || !t->any_reps)
		return;
	t->any_verdict = 1;
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			if ((int)r != t->baseline && t->cols[c].numeric && sb_table_cell(t, r, c)->present &&
			    sb_table_cell(t, (unsigned)t->baseline, c)->present)
				compare(t, r, c);
}
