/* --repeat auto's stopping rule (see auto.h and docs/statistics.md). */
#include "run/auto.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"

/* Column c is settled when every row's cell with data is known to the
 * precision (its own interval), or every row's verdict against the
 * baseline is decided. The first cell still open is named in open. */
static bool column_settled(const struct sb_table *t, unsigned c, double precision, bool *by_verdict,
			   char *open, size_t len)
{
	bool precise = true, decided = t->baseline >= 0;
	unsigned r, first = t->nrows, compared = 0;
	double h, worst = 0;

	for (r = 0; r < t->nrows; r++) {
		const struct sb_cell *x = sb_table_cell(t, r, c);

		if (!x->present)
			continue;
		h = sb_stats_half_pct(x->v, x->nv, SB_STATS_LEVEL);
		if (!(h <= precision)) {
			precise = false;
			if (first == t->nrows || isnan(h) || h > worst) {
				first = r;
				worst = h;
			}
		}
		if ((int)r == t->baseline)
			continue;
		compared++;
		if (!(x->verdict.state == SB_VERDICT_CI && x->verdict.sign))
			decided = false;
	}
	decided = decided && compared;
	*by_verdict = !precise && decided;
	if (precise || decided)
		return true;
	if (isnan(worst))
		snprintf(open, len, "%s %s: no interval", t->row_stack[first], t->cols[c].header);
	else
		snprintf(open, len, "%s %s: \xc2\xb1%.1f %%", t->row_stack[first], t->cols[c].header, worst);
	return false;
}

static bool all_settled(const struct sb_table *t, double precision, unsigned *by_verdict,
			char *open, size_t len)
{
	unsigned c;
	bool v;

	*by_verdict = 0;
	for (c = 0; c < t->ncols; c++) {
		if (!t->cols[c].numeric)
			continue;
		if (!column_settled(t, c, precision, &v, open, len))
			return false;
		*by_verdict += v;
	}
	return true;
}

const char *sb_run_auto_check(const struct sb_run_auto *a, const struct sb_table_opts *opts,
			      struct json_object *const *res, unsigned n, unsigned round,
			      double elapsed_s, double round_s, char *why, size_t len)
{
	struct sb_err err = { 0 };
	struct sb_table t;
	char open[256] = "";
	unsigned by_verdict = 0;
	bool settled = false;

	if (round >= a->min_repeat && n && sb_table_build(res, n, opts, &t, &err) == 0) {
		settled = all_settled(&t, a->precision_pct, &by_verdict, open, sizeof(open));
		sb_table_free(&t);
	} else if (round >= a->min_repeat) {
		snprintf(open, sizeof(open), "no table: %.200s", err.msg);
	}
	if (settled) {
		snprintf(why, len, "after %u rounds every figure is within \xc2\xb1%.1f %% (95 %% CI)%s", round,
			 a->precision_pct, by_verdict ? ", or (in that figure) every stack is decided against the "
			 "baseline" : "");
		return by_verdict ? "verdicts" : "precision";
	}
	if (round >= a->max_repeat) {
		snprintf(why, len, "--max-repeat %u reached; still open: %s", a->max_repeat, open);
		return "max_repeat";
	}
	if (a->max_time_s > 0 && elapsed_s + round_s > a->max_time_s) {
		snprintf(why, len, "another round (%.0f s) would pass --max-time %.0f s after %.0f s; still "
			 "open: %s", round_s, a->max_time_s, elapsed_s, open[0] ? open : "(below --min-repeat)");
		return "max_time";
	}
	return NULL;
}

void sb_run_auto_record(const struct sb_run_auto *a, struct json_object *res, unsigned rounds,
			const char *stopped, const char *why)
{
	struct json_object *o;

	if (!json_object_object_get_ex(res, "run_order", &o))
		return;
	json_object_object_add(o, "rounds", json_object_new_int((int)rounds));
	json_object_object_add(o, "repeat", json_object_new_string("auto"));
	json_object_object_add(o, "precision_pct", json_object_new_double(a->precision_pct));
	json_object_object_add(o, "min_repeat", json_object_new_int((int)a->min_repeat));
	json_object_object_add(o, "max_repeat", json_object_new_int((int)a->max_repeat));
	if (a->max_time_s > 0)
		json_object_object_add(o, "max_time_s", json_object_new_double(a->max_time_s));
	json_object_object_add(o, "stopped", json_object_new_string(stopped));
	json_object_object_add(o, "stopped_why", json_object_new_string(why));
}
