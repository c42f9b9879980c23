/* Builds the comparison model from results files (rows, columns, medians,
 * baseline %). It renders nothing: format.c hands the model to a renderer. */
#include "report/table.h"
#include "report/results.h"
#include "bench/suite.h"
#include "util/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the model ---- */

static int parse_columns(const char *list, struct sb_table *t, struct sb_err *err)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	t->cols = calloc(strlen(list) / 2 + 2, sizeof(*t->cols));
	if (!t->cols) {
		free(copy);
		return -ENOMEM;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		while (*tok == ' ')
			tok++;
		end = tok + strlen(tok);
		while (end > tok && end[-1] == ' ')
			*--end = '\0';
		if (!*tok)
			continue;
		r = sb_column_resolve(tok, &t->cols[t->ncols], err);
		if (r < 0)
			break;
		t->ncols++;
	}
	free(copy);
	if (!r && !t->ncols)
		r = sb_err_set(err, -EINVAL, "--columns: no column named");
	return r;
}

/* The words a row's layers show only when the rows differ in them
 * (stack.built[].table_label with table_label_if_differs: the RAID level), bottom up,
 * "" when none. */
static void differs_label(struct json_object *res, char *buf, size_t len)
{
	struct json_object *built = sb_results_layers(res);
	size_t i, n = built ? json_object_array_length(built) : 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		struct json_object *l = json_object_array_get_idx(built, i);
		const char *w = json_object_get_string(sb_json_get(l, "table_label"));

		if (w && json_object_get_boolean(sb_json_get(l, "table_label_if_differs")))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? " on " : "", w);
	}
}

static void setup_add_differing(struct sb_table *t)
{
	char first[32], lbl[32];
	unsigned r, c;
	int differ = 0;

	for (r = 0; r < t->nrows; r++) {
		differs_label(t->row_first[r], lbl, sizeof(lbl));
		if (r == 0)
			memcpy(first, lbl, sizeof(first));
		else if (strcmp(first, lbl))
			differ = 1;
	}
	if (!differ)
		return;
	for (c = 0; c < t->ncols; c++) {
		if (strcmp(t->cols[c].name, "setup"))
			continue;
		for (r = 0; r < t->nrows; r++) {
			struct sb_cell *cell = sb_table_cell(t, r, c);
			size_t l = strlen(cell->str);

			differs_label(t->row_first[r], lbl, sizeof(lbl));
			if (*lbl)
				snprintf(cell->str + l, sizeof(cell->str) - l, " on %s", lbl);
		}
	}
}

/* Two rows whose text columns read the same cannot be told apart. */
static int rows_ambiguous(const struct sb_table *t)
{
	unsigned a, b, c;

	for (a = 0; a < t->nrows; a++)
		for (b = a + 1; b < t->nrows; b++) {
			int same = 1;

			for (c = 0; c < t->ncols && same; c++)
				if (!t->cols[c].numeric &&
				    strcmp(sb_table_cell(t, a, c)->str, sb_table_cell(t, b, c)->str))
					same = 0;
			if (same)
				return 1;
		}
	return 0;
}

/* Rows in order of first appearance; same stack on the same machine = same
 * row (its repetitions); the same stack on two machines (a fleet) is two
 * rows. row_of[i] is the row of results[i]. */
static int assign_rows(struct json_object *const *results, unsigned n, struct sb_table *t,
		       unsigned *row_of)
{
	unsigned i, r;

	for (i = 0; i < n; i++) {
		const char *name = sb_results_stack_name(results[i]);
		const char *host = sb_results_host_name(results[i]);

		for (r = 0; r < t->nrows && (strcmp(t->row_stack[r], name) ||
					     strcmp(sb_results_host_name(t->row_first[r]), host)); r++)
			;
		if (r == t->nrows) {
			t->row_stack[r] = strdup(name);
			if (!t->row_stack[r])
				return -ENOMEM;
			t->row_first[r] = results[i];
			t->nrows++;
		}
		row_of[i] = r;
	}
	return 0;
}

static int build_once(struct json_object *const *results, unsigned n, const char *cols,
		      const char *baseline, struct sb_table *t, struct sb_err *err)
{
	struct json_object **grp = NULL;
	unsigned *row_of = NULL, r, c, i, k;
	int ret;

	memset(t, 0, sizeof(*t));
	t->baseline = -1;
	ret = parse_columns(cols, t, err);
	if (ret < 0)
		goto out;
	ret = -ENOMEM;
	row_of = calloc(n, sizeof(*row_of));
	t->row_stack = calloc(n, sizeof(*t->row_stack));
	t->row_first = calloc(n, sizeof(*t->row_first));
	grp = calloc(n, sizeof(*grp));
	if (!row_of || !t->row_stack || !t->row_first || !grp)
		goto out;
	if (assign_rows(results, n, t, row_of) < 0)
		goto out;
	t->cells = calloc((size_t)t->nrows * t->ncols + 1, sizeof(*t->cells));
	if (!t->cells)
		goto out;
	for (c = 0; c < t->ncols; c++)
		sb_column_probe(&t->cols[c], results, n);
	for (r = 0; r < t->nrows; r++) {
		for (i = 0, k = 0; i < n; i++)
			if (row_of[i] == r)
				grp[k++] = results[i];
		for (c = 0; c < t->ncols; c++) {
			sb_column_extract(&t->cols[c], grp, k, sb_table_cell(t, r, c));
			if (sb_table_cell(t, r, c)->n > 1)
				t->any_reps = 1;
		}
	}
	setup_add_differing(t);
	if (baseline) {
		for (r = 0; r < t->nrows && strcmp(t->row_stack[r], baseline); r++)
			;
		if (r == t->nrows) {
			char names[512] = "";

			for (r = 0; r < t->nrows; r++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 r ? ", " : "", t->row_stack[r]);
			ret = sb_err_set(err, -EINVAL, "--baseline %s: no such stack among the results (%s)",
					 baseline, names);
			goto out;
		}
		t->baseline = (int)r;
		for (c = 0; c < t->ncols; c++) {
			const struct sb_cell *b = sb_table_cell(t, r, c);

			if (!t->cols[c].numeric || !b->present || b->med == 0)
				continue;
			for (k = 0; k < t->nrows; k++) {
				struct sb_cell *x = sb_table_cell(t, k, c);

				if (x->present) {
					x->pct = x->med / b->med * 100.0;
					x->has_pct = 1;
				}
			}
		}
	}
	sb_table_verdicts(t);
	ret = 0;
out:
	free(grp);
	free(row_of);
	if (ret < 0)
		sb_table_free(t);
	return ret;
}

/* The suite's default columns (sb_suite_ops.columns) are for its figures:
 * without such a suite they would all be empty, so show the stack and every
 * SUITE.FIGURE the results hold instead (first seen first, at most 12), e.g.
 * fio-matrix's cells or quick's. 0 if some result has a suite with default
 * columns (bonnie: the Helios4 columns), then in *fixed. */
static int figure_columns(struct json_object *const *results, unsigned n, char *buf, size_t len,
			  const char **fixed)
{
	unsigned i, ncols = 0;
	size_t used;

	used = (size_t)snprintf(buf, len, "stack");
	for (i = 0; i < n; i++) {
		struct json_object *su;
		size_t j;

		for (j = 0; (su = sb_results_suite(results[i], j)); j++) {
			struct json_object *figs = sb_results_suite_figures(su);
			const char *name = sb_results_suite_name(su);
			const struct sb_suite_ops *ops;
			char col[SB_COL_NAME_MAX + 2];

			if (!*name || !figs)
				continue;
			ops = sb_suite_find(name);
			if (ops && *ops->columns) {
				*fixed = ops->columns;
				return 0;
			}
			json_object_object_foreach(figs, fig, v) {
				(void)v;
				snprintf(col, sizeof(col), ",%s.%s", name, fig);
				if (ncols >= 12 || strstr(buf, col) || used + strlen(col) >= len)
					continue;
				memcpy(buf + used, col, strlen(col) + 1);
				used += strlen(col);
				ncols++;
			}
		}
	}
	return ncols > 0;
}

/* Results from more than one machine: the table says which row is which. */
static int many_hosts(struct json_object *const *results, unsigned n)
{
	unsigned i;

	for (i = 1; i < n; i++)
		if (strcmp(sb_results_host_name(results[0]), sb_results_host_name(results[i])))
			return 1;
	return 0;
}

/* Results without figures: the first suite of the registry that has
 * default columns (bonnie, the default suite). */
static const char *registry_columns(void)
{
	const struct sb_suite_ops *s;
	size_t i;

	for (i = 0; (s = sb_suite_at(i)); i++)
		if (*s->columns)
			return s->columns;
	return "";
}

static int build_default(struct json_object *const *results, unsigned n,
			 const struct sb_table_opts *o, struct sb_table *t, struct sb_err *err)
{
	char figcols[2048], cols[2048 + 16];
	const char *host = many_hosts(results, n) ? "host," : "", *fixed = NULL;
	int r;

	if (figure_columns(results, n, figcols, sizeof(figcols), &fixed)) {
		/* "stack,SUITE.FIG..." -> "stack,host,SUITE.FIG..." */
		snprintf(cols, sizeof(cols), "stack,%s%s", host, figcols + strlen("stack,"));
		return build_once(results, n, cols, o->baseline, t, err);
	}
	if (!fixed)
		fixed = registry_columns();
	/* before the suite's own default columns (bonnie's "write,rewrite,read") */
	snprintf(cols, sizeof(cols), "%s%s%s%s", host, sb_column_stack_defaults(), *fixed ? "," : "", fixed);
	r = build_once(results, n, cols, o->baseline, t, err);
	if (r < 0 || !rows_ambiguous(t))
		return r;
	/* Identical setups (raid10-near2 vs raid10-far2): name the stacks. */
	sb_table_free(t);
	snprintf(cols, sizeof(cols), "stack,%s%s%s%s", host, sb_column_stack_defaults(), *fixed ? "," : "", fixed);
	return build_once(results, n, cols, o->baseline, t, err);
}

int sb_table_build(struct json_object *const *results, unsigned n,
		   const struct sb_table_opts *o, struct sb_table *t, struct sb_err *err)
{
	struct sb_table flat;
	int r;

	if (!n)
		return sb_err_set(err, -EINVAL, "no results to compare");
	if (o->pivot && strcmp(o->pivot, "host"))
		return sb_err_set(err, -EINVAL, "--pivot %s: only 'host' can be pivoted (stacks as rows, "
				  "hosts as columns)", o->pivot);
	if (o->pivot && o->baseline)
		return sb_err_set(err, -EINVAL, "--pivot host and --baseline do not go together");
	if (o->columns)
		r = build_once(results, n, o->columns, o->baseline, o->pivot ? &flat : t, err);
	else
		r = build_default(results, n, o, o->pivot ? &flat : t, err);
	if (r < 0 || !o->pivot)
		return r;
	r = sb_table_pivot_host(&flat, t, err);
	sb_table_free(&flat);
	return r;
}
