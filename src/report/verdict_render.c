/* Verdicts in words: the cell of the verdict column, and the lines under a
 * table (method, outliers, suites that disagree). */
#include "report/table.h"

#include <math.h>
#include <string.h>

static const char *word_of(int sign, int better)
{
	if (!sign)
		return "no detectable difference";
	if (!better)
		return sign > 0 ? "higher" : "lower";
	return sign * better > 0 ? "faster" : "slower";
}

const char *sb_verdict_word(const struct sb_verdict *v)
{
	if (v->state == SB_VERDICT_FEW)
		return "n too small for a verdict";
	if (v->state != SB_VERDICT_CI)
		return "";
	return word_of(v->sign, v->better);
}

void sb_verdict_format(const struct sb_verdict *v, char *buf, size_t len)
{
	if (v->state == SB_VERDICT_NONE)
		snprintf(buf, len, "-");
	else if (v->state == SB_VERDICT_FEW)
		snprintf(buf, len, "%s", sb_verdict_word(v));
	else if (!v->sign)
		snprintf(buf, len, "%+.1f %% %s (\xc2\xb1%.1f %%)", v->ci.diff_pct, sb_verdict_word(v),
			 v->ci.half_pct);
	else
		snprintf(buf, len, "%+.1f %% [%+.1f, %+.1f] %s", v->ci.diff_pct, v->ci.lo_pct,
			 v->ci.hi_pct, sb_verdict_word(v));
	if (v->state == SB_VERDICT_CI && v->without != 2 && v->without != v->sign)
		snprintf(buf + strlen(buf), len - strlen(buf), " *");
}

void sb_verdict_disagree(const struct sb_table *t, unsigned r, char *buf, size_t len)
{
	char suite[SB_COL_NAME_MAX], fast[SB_COL_NAME_MAX] = "", slow[SB_COL_NAME_MAX] = "";
	unsigned c, fc = 0, sc = 0;

	buf[0] = '\0';
	for (c = 0; c < t->ncols; c++) {
		const struct sb_verdict *v = &sb_table_cell(t, r, c)->verdict;

		if (v->state != SB_VERDICT_CI || !v->sign || !v->better)
			continue;
		sb_column_suite(&t->cols[c], suite, sizeof(suite));
		if (v->sign * v->better > 0 && !fast[0]) {
			snprintf(fast, sizeof(fast), "%s", suite);
			fc = c;
		} else if (v->sign * v->better < 0 && !slow[0]) {
			snprintf(slow, sizeof(slow), "%s", suite);
			sc = c;
		}
	}
	/* both decided, in different suites (one suite's figures may differ by design) */
	if (fast[0] && slow[0] && strcmp(fast, slow))
		snprintf(buf, len, "suites disagree on %s against %s: %s says faster (%s), %s says slower (%s)",
			 t->row_stack[r], t->row_stack[t->baseline], fast, t->cols[fc].header, slow,
			 t->cols[sc].header);
}

static void method_line(const struct sb_table *t, unsigned r, FILE *out, const char *lead)
{
	const struct sb_verdict *v = NULL;
	unsigned c;

	for (c = 0; c < t->ncols && !v; c++)
		if (sb_table_cell(t, r, c)->verdict.state == SB_VERDICT_CI)
			v = &sb_table_cell(t, r, c)->verdict;
	if (!v)
		return;
	fprintf(out, "%s%s against %s: %s, %u%s", lead, t->row_stack[r], t->row_stack[t->baseline],
		sb_stats_method_name(v->ci.method), v->ci.nb,
		v->ci.method == SB_STATS_PAIRED ? " rounds (round r of each against round r of the other)" :
		" samples of this stack");
	if (v->ci.method == SB_STATS_WELCH)
		fprintf(out, ", %u of %s", v->ci.na, t->row_stack[t->baseline]);
	fputc('\n', out);
}

/* Flagged samples of a cell: "812 (round 3), 790 (round 5)". */
static void outlier_list(const struct sb_cell *x, char *buf, size_t len)
{
	char num[32];
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < x->nv; i++) {
		if (!x->verdict.outlier[i])
			continue;
		sb_num_format(x->v[i], num, sizeof(num));
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s (repetition %u)", buf[0] ? ", " : "",
			 num, x->rep[i]);
	}
}

static void outlier_lines(const struct sb_table *t, FILE *out, const char *lead)
{
	char list[1024];
	unsigned r, c;

	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			const struct sb_cell *x = sb_table_cell(t, r, c);
			unsigned k;
			int without = 2;

			if (!x->verdict.outliers)
				continue;
			outlier_list(x, list, sizeof(list));
			fprintf(out, "%soutlier%s in %s, %s: %s (kept in every figure)", lead,
				x->verdict.outliers > 1 ? "s" : "", t->row_stack[r], t->cols[c].header, list);
			/* the verdicts of this column that these samples enter */
			for (k = 0; k < t->nrows; k++) {
				const struct sb_verdict *v = &sb_table_cell(t, k, c)->verdict;

				if (v->state != SB_VERDICT_CI || ((int)r != t->baseline && k != r))
					continue;
				without = v->without;
				fprintf(out, "; %s: %s", t->row_stack[k], without == 2 ?
					"cannot be judged without them (too few left)" : without == v->sign ?
					"the verdict holds without them" : "the verdict does NOT hold without them");
				if (without != 2 && without != v->sign)
					fprintf(out, " (%s)", word_of(without, v->better));
			}
			fputc('\n', out);
		}
}

void sb_verdict_print_notes(const struct sb_table *t, bool markdown, FILE *out)
{
	const char *lead = markdown ? "- " : "  ";
	char buf[1024];
	unsigned r;

	if (!t->any_verdict) {
		outlier_lines(t, out, lead);
		return;
	}
	fprintf(out, "\nVerdicts: the difference to %s with its 95 %% confidence interval; "
		"\"no detectable difference (\xc2\xb1x %%)\": x is the smallest difference this data could "
		"have seen; * the verdict changes without the outliers (docs/statistics.md)\n%s",
		t->row_stack[t->baseline], markdown ? "\n" : "");
	for (r = 0; r < t->nrows; r++)
		if ((int)r != t->baseline)
			method_line(t, r, out, lead);
	outlier_lines(t, out, lead);
	for (r = 0; r < t->nrows; r++) {
		sb_verdict_disagree(t, r, buf, sizeof(buf));
		if (buf[0])
			fprintf(out, "%s%s\n", lead, buf);
	}
}
