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

/* One setting: the flag's if given (nonzero), else the stacks' (which must
 * agree); what = its key, flag = its option. */
static int setting(double given, const struct sb_stack_spec *const *specs, unsigned n,
		   double (*of)(const struct sb_stack_spec *), const char *what, const char *flag,
		   double *out, struct sb_err *err)
{
	unsigned i;

	if (given > 0 || !n) {
		*out = given;
		return 0;
	}
	*out = of(specs[0]);
	for (i = 1; i < n; i++)
		if (of(specs[i]) != *out)
			return sb_err_set(err, -EINVAL, "stacks %s and %s ask for a different bench.%s (%g and %g); "
					  "a run's rounds are one for all its stacks: give %s", specs[0]->name,
					  specs[i]->name, what, *out, of(specs[i]), flag);
	return 0;
}

static double precision_of(const struct sb_stack_spec *s) { return s->bench.precision_pct; }
static double min_of(const struct sb_stack_spec *s) { return s->bench.min_repeat; }
static double max_of(const struct sb_stack_spec *s) { return s->bench.max_repeat; }
static double time_of(const struct sb_stack_spec *s) { return s->bench.max_time_ns / 1e9; }

int sb_run_auto_resolve(const struct sb_run_auto *cli, unsigned cli_repeat,
			const struct sb_stack_spec *const *specs, unsigned n, struct sb_run_auto *out,
			struct sb_err *err)
{
	bool any = false, flags = cli->precision_pct > 0 || cli->min_repeat || cli->max_repeat ||
				   cli->max_time_s > 0;
	double lo, hi;
	unsigned i;
	int rc;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++)
		any |= specs[i]->bench.repeat == 0;
	if (cli_repeat || !(cli->on || any)) {
		if (flags)
			return sb_err_set(err, -EINVAL, "--precision, --min-repeat, --max-repeat and --max-time go "
					  "with --repeat auto (or bench.repeat: auto)%s", cli_repeat ? ", not --repeat N" : "");
		return 0;
	}
	out->on = true;
	if ((rc = setting(cli->precision_pct, specs, n, precision_of, "precision", "--precision",
			  &out->precision_pct, err)) < 0 ||
	    (rc = setting(cli->min_repeat, specs, n, min_of, "min_repeat", "--min-repeat", &lo, err)) < 0 ||
	    (rc = setting(cli->max_repeat, specs, n, max_of, "max_repeat", "--max-repeat", &hi, err)) < 0 ||
	    (rc = setting(cli->max_time_s, specs, n, time_of, "max_time", "--max-time", &out->max_time_s, err)) < 0)
		return rc;
	/* no stacks (not reached by a run): the built-in defaults */
	if (!out->precision_pct)
		out->precision_pct = SB_AUTO_PRECISION_PCT;
	out->min_repeat = lo ? (unsigned)lo : SB_AUTO_MIN_REPEAT;
	out->max_repeat = hi ? (unsigned)hi : SB_AUTO_MAX_REPEAT;
	/* --min-repeat alone past the stacks' most: the most follows it */
	if (cli->min_repeat && !cli->max_repeat && out->min_repeat > out->max_repeat)
		out->max_repeat = out->min_repeat;
	if (out->min_repeat > out->max_repeat)
		return sb_err_set(err, -EINVAL, "--repeat auto: at least %u rounds (%s) is more than at most %u (%s)",
				  out->min_repeat, cli->min_repeat ? "--min-repeat" : "bench.min_repeat",
				  out->max_repeat, cli->max_repeat ? "--max-repeat" : "bench.max_repeat");
	return 0;
}

void sb_run_auto_record(const struct sb_run_auto *a, struct json_object *res, unsigned rounds,
			const char *stopped, const char *why, double seconds)
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
	/* the time to the decision: the first round's start to the stop */
	json_object_object_add(o, "seconds_to_stop", json_object_new_double(seconds));
}
