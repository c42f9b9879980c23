/* The table model as aligned text, Markdown, CSV (RFC 4180) or JSON. */
#include "report/notes.h"
#include "report/render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Machine formats: up to 3 decimals, no trailing zeros ("146", "78.1"). */
static void num_exact(double v, char *buf, size_t len)
{
	char *p;

	snprintf(buf, len, "%.3f", v);
	if (strchr(buf, '.')) {
		p = buf + strlen(buf) - 1;
		while (*p == '0')
			*p-- = '\0';
		if (*p == '.')
			*p = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, len, "0");
}

/* ---- text and Markdown: a grid of strings ---- */

struct grid {
	unsigned nrows, ncols;     /* nrows includes the header row */
	char **s;                  /* nrows * ncols */
	int *right;                /* per column */
};

static size_t utf8_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void pct_header(const struct sb_table *t, char *buf, size_t len)
{
	snprintf(buf, len, "%% of %s", t->row_stack[t->baseline]);
}

static unsigned out_cols(const struct sb_table *t)
{
	unsigned c, k = 0;

	for (c = 0; c < t->ncols; c++)
		k += 1 + (t->baseline >= 0 && t->cols[c].numeric) + (t->any_verdict && t->cols[c].numeric);
	return k;
}

static void grid_free(struct grid *g)
{
	unsigned i;

	if (g->s)
		for (i = 0; i < g->nrows * g->ncols; i++)
			free(g->s[i]);
	free(g->s);
	free(g->right);
}



/* The n and notes column only where there is something to say. */
static bool has_notes(const struct sb_notes *n, const struct sb_table *t)
{
	unsigned r;

	if (!n)
		return false;
	for (r = 0; r < t->nrows && r < SB_NOTES_ROWS; r++)
		if (n->nrow[r] || n->reps[r] > 1)
			return true;
	return false;
}

static int grid_make(const struct sb_table *t, const struct sb_notes *notes, struct grid *g)
{
	unsigned r, c, k;
	char buf[256];

	g->ncols = out_cols(t) + (has_notes(notes, t) ? 1 : 0);
	g->nrows = t->nrows + 1;
	g->s = calloc((size_t)g->nrows * g->ncols, sizeof(*g->s));
	g->right = calloc(g->ncols, sizeof(*g->right));
	if (!g->s || !g->right)
		return -ENOMEM;
	for (c = 0, k = 0; c < t->ncols; c++) {
		g->right[k] = t->cols[c].numeric;
		g->s[k++] = strdup(t->cols[c].header);
		if (t->baseline >= 0 && t->cols[c].numeric) {
			pct_header(t, buf, sizeof(buf));
			g->right[k] = 1;
			g->s[k++] = strdup(buf);
		}
		if (t->any_verdict && t->cols[c].numeric) {
			snprintf(buf, sizeof(buf), "vs %s, 95 %% CI", t->row_stack[t->baseline]);
			g->right[k] = 0;
			g->s[k++] = strdup(buf);
		}
	}
	for (r = 0; r < t->nrows; r++) {
		for (c = 0, k = 0; c < t->ncols; c++) {
			const struct sb_cell *x = sb_table_cell(t, r, c);

			if (!x->present) {
				snprintf(buf, sizeof(buf), "-");
			} else if (!t->cols[c].numeric) {
				snprintf(buf, sizeof(buf), "%s", x->str);
			} else {
				sb_cell_format(x, buf, sizeof(buf));
				if (x->bound)
					strncat(buf, SB_BOUND_MARK, sizeof(buf) - strlen(buf) - 1);
			}
			g->s[(r + 1) * g->ncols + k++] = strdup(buf);
			if (t->baseline >= 0 && t->cols[c].numeric) {
				if (x->has_pct)
					snprintf(buf, sizeof(buf), "%.0f%%", x->pct);
				else
					snprintf(buf, sizeof(buf), "-");
				g->s[(r + 1) * g->ncols + k++] = strdup(buf);
			}
			if (t->any_verdict && t->cols[c].numeric) {
				sb_verdict_format(&x->verdict, buf, sizeof(buf));
				g->s[(r + 1) * g->ncols + k++] = strdup(buf);
			}
		}
		/* last: n (with repetitions) and the footnote marks of the row */
		if (has_notes(notes, t)) {
			sb_notes_marks(notes, r, buf, sizeof(buf));
			g->s[(r + 1) * g->ncols + k] = strdup(buf[0] == ' ' ? buf + 1 : buf);
		}
	}
	if (has_notes(notes, t))
		g->s[g->ncols - 1] = strdup("notes");
	for (k = 0; k < g->nrows * g->ncols; k++)
		if (!g->s[k])
			return -ENOMEM;
	return 0;
}

static int any_bound(const struct sb_table *t)
{
	unsigned i;

	for (i = 0; i < t->nrows * t->ncols; i++)
		if (t->cells[i].bound)
			return 1;
	return 0;
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

static void render_text(const struct grid *g, FILE *out)
{
	size_t *w = calloc(g->ncols + 1, sizeof(*w));
	unsigned r, c;

	if (!w)
		return;
	for (c = 0; c < g->ncols; c++)
		for (r = 0; r < g->nrows; r++)
			if (utf8_width(g->s[r * g->ncols + c]) > w[c])
				w[c] = utf8_width(g->s[r * g->ncols + c]);
	for (r = 0; r < g->nrows; r++) {
		for (c = 0; c < g->ncols; c++) {
			const char *s = g->s[r * g->ncols + c];
			size_t sw = utf8_width(s);
			int last = c + 1 == g->ncols;

			if (c)
				fputs("  ", out);
			if (g->right[c]) {
				pad(out, w[c] - sw);
				fputs(s, out);
			} else {
				fputs(s, out);
				if (!last)
					pad(out, w[c] - sw);
			}
		}
		fputc('\n', out);
	}
	free(w);
}

static void md_cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
}

static void render_markdown(const struct grid *g, FILE *out)
{
	unsigned r, c;

	for (r = 0; r < g->nrows; r++) {
		fputc('|', out);
		for (c = 0; c < g->ncols; c++) {
			fputc(' ', out);
			md_cell(out, g->s[r * g->ncols + c]);
			fputs(" |", out);
		}
		fputc('\n', out);
		if (r == 0) {
			fputc('|', out);
			for (c = 0; c < g->ncols; c++)
				fputs(g->right[c] ? " ---: |" : " --- |", out);
			fputc('\n', out);
		}
	}
}

/* ---- CSV (RFC 4180) ---- */

static int col_has_reps(const struct sb_table *t, unsigned c)
{
	unsigned r;

	for (r = 0; r < t->nrows; r++)
		if (sb_table_cell(t, r, c)->n > 1)
			return 1;
	return 0;
}

static void csv_num(FILE *out, const struct sb_cell *x, double v)
{
	char buf[64];

	if (!x->present) {
		sb_csv_field(out, "", 0);
		return;
	}
	num_exact(v, buf, sizeof(buf));
	sb_csv_field(out, buf, 0);
}

/* One cell's fields: text, or the median, with repetitions min, max and
 * n, the machine-bound flag where any cell has one, and % of the baseline. */
static void csv_cell(const struct sb_table *t, unsigned c, const struct sb_cell *x, FILE *out)
{
	char buf[32];

	if (!t->cols[c].numeric) {
		sb_csv_field(out, x->present ? x->str : "", 0);
		return;
	}
	csv_num(out, x, x->med);
	if (col_has_reps(t, c)) {
		csv_num(out, x, x->min);
		csv_num(out, x, x->max);
		snprintf(buf, sizeof(buf), "%u", x->n);
		sb_csv_field(out, x->present ? buf : "", 0);
	}
	if (any_bound(t))
		sb_csv_field(out, x->bound ? "bound_by_machine" : "", 0);
	if (t->baseline >= 0) {
		struct sb_cell p = { .present = x->has_pct };
		csv_num(out, &p, x->pct);
	}
	if (t->any_verdict)
		sb_verdict_csv(&x->verdict, out);
}

/* Whether any row has suites deciding opposite ways (a suites_disagree field). */
static bool any_disagree(const struct sb_table *t)
{
	char buf[1024];
	unsigned r;

	for (r = 0; t->any_verdict && r < t->nrows; r++) {
		sb_verdict_disagree(t, r, buf, sizeof(buf));
		if (buf[0])
			return true;
	}
	return false;
}

void sb_render_csv(const struct sb_table *t, FILE *out)
{
	char buf[300], ph[160], nb[4096];
	struct sb_notes *notes = calloc(1, sizeof(*notes));
	bool disagree = any_disagree(t);
	unsigned r, c;

	if (notes)
		sb_notes_collect(t, notes);
	sb_csv_field(out, "stack", 1);
	if (t->baseline >= 0)
		pct_header(t, ph, sizeof(ph));
	for (c = 0; c < t->ncols; c++) {
		const struct sb_column *col = &t->cols[c];

		if (!strcmp(col->name, "stack"))
			continue;
		sb_csv_field(out, col->header, 0);
		if (col->numeric && col_has_reps(t, c)) {
			snprintf(buf, sizeof(buf), "%s min", col->header);
			sb_csv_field(out, buf, 0);
			snprintf(buf, sizeof(buf), "%s max", col->header);
			sb_csv_field(out, buf, 0);
			snprintf(buf, sizeof(buf), "%s n", col->header);
			sb_csv_field(out, buf, 0);
		}
		if (col->numeric && any_bound(t)) {
			snprintf(buf, sizeof(buf), "%s bound by machine", col->header);
			sb_csv_field(out, buf, 0);
		}
		if (col->numeric && t->baseline >= 0) {
			snprintf(buf, sizeof(buf), "%s %s", col->header, ph);
			sb_csv_field(out, buf, 0);
		}
		if (col->numeric && t->any_verdict)
			sb_verdict_csv_header(col->header, out);
	}
	if (has_notes(notes, t)) {
		sb_csv_field(out, "n", 0);
		sb_csv_field(out, "notes", 0);
	}
	if (disagree)
		sb_csv_field(out, "suites_disagree", 0);
	fputs("\r\n", out);
	for (r = 0; r < t->nrows; r++) {
		sb_csv_field(out, t->row_stack[r], 1);
		for (c = 0; c < t->ncols; c++)
			if (strcmp(t->cols[c].name, "stack"))   /* it leads every row */
				csv_cell(t, c, sb_table_cell(t, r, c), out);
		if (has_notes(notes, t)) {
			snprintf(buf, sizeof(buf), "%u", r < SB_NOTES_ROWS ? notes->reps[r] : 0);
			sb_csv_field(out, buf, 0);
			sb_notes_row_text(notes, r, nb, sizeof(nb));
			sb_csv_field(out, nb, 0);
		}
		if (disagree) {
			sb_verdict_disagree(t, r, nb, sizeof(nb));
			sb_csv_field(out, nb, 0);
		}
		fputs("\r\n", out);
	}
	free(notes);
}

/* ---- JSON ---- */

static struct json_object *jnum(double v)
{
	char buf[64];

	num_exact(v, buf, sizeof(buf));
	return json_object_new_double_s(v, buf);
}

/* One cell's keys in row object o: NAME, and NAME_bound_by_machine,
 * NAME_min/_max/_n, NAME_pct where they apply. */
static void json_cell(const struct sb_table *t, unsigned c, const struct sb_cell *x,
		      struct json_object *o)
{
	const struct sb_column *col = &t->cols[c];
	char key[SB_COL_NAME_MAX + 24];

	if (!col->numeric) {
		json_object_object_add(o, col->name, x->present ? json_object_new_string(x->str) : NULL);
		return;
	}
	json_object_object_add(o, col->name, x->present ? jnum(x->med) : NULL);
	if (x->bound) {
		snprintf(key, sizeof(key), "%s_bound_by_machine", col->name);
		json_object_object_add(o, key, json_object_new_boolean(1));
	}
	if (col_has_reps(t, c)) {
		snprintf(key, sizeof(key), "%s_min", col->name);
		json_object_object_add(o, key, x->present ? jnum(x->min) : NULL);
		snprintf(key, sizeof(key), "%s_max", col->name);
		json_object_object_add(o, key, x->present ? jnum(x->max) : NULL);
		snprintf(key, sizeof(key), "%s_n", col->name);
		json_object_object_add(o, key, json_object_new_int((int)x->n));
	}
	if (t->baseline >= 0) {
		snprintf(key, sizeof(key), "%s_pct", col->name);
		json_object_object_add(o, key, x->has_pct ? jnum(x->pct) : NULL);
	}
	if (t->any_verdict || x->verdict.outliers)
		sb_verdict_json(col->name, &x->verdict, t->any_verdict, o);
}

void sb_render_json(const struct sb_table *t, FILE *out)
{
	struct sb_notes *notes = calloc(1, sizeof(*notes));
	struct json_object *root = json_object_new_object(), *cols = json_object_new_array();
	struct json_object *rows = json_object_new_array();
	unsigned r, c;

	if (notes)
		sb_notes_collect(t, notes);
	for (c = 0; c < t->ncols; c++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(t->cols[c].name));
		json_object_object_add(o, "header", json_object_new_string(t->cols[c].header));
		json_object_object_add(o, "unit", t->cols[c].numeric ?
				       json_object_new_string(t->cols[c].unit) : NULL);
		json_object_array_add(cols, o);
	}
	json_object_object_add(root, "columns", cols);
	json_object_object_add(root, "baseline", t->baseline >= 0 ?
			       json_object_new_string(t->row_stack[t->baseline]) : NULL);
	for (r = 0; r < t->nrows; r++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "stack", json_object_new_string(t->row_stack[r]));
		for (c = 0; c < t->ncols; c++)
			if (strcmp(t->cols[c].name, "stack"))   /* it leads every row */
				json_cell(t, c, sb_table_cell(t, r, c), o);
		if (t->any_verdict)
			sb_verdict_json_row(t, r, o);
		if (notes && r < SB_NOTES_ROWS) {
			struct json_object *na = json_object_new_array();

			for (c = 0; c < notes->nrow[r]; c++)
				json_object_array_add(na, json_object_new_string(notes->text[notes->row[r][c]]));
			json_object_object_add(o, "n", json_object_new_int((int)notes->reps[r]));
			json_object_object_add(o, "notes", na);
		}
		json_object_array_add(rows, o);
	}
	free(notes);
	json_object_object_add(root, "rows", rows);
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), out);
	fputc('\n', out);
	json_object_put(root);
}

int sb_render_grid(const struct sb_table *t, int markdown, FILE *out)
{
	struct grid g = { 0 };
	struct sb_notes *notes = calloc(1, sizeof(*notes));
	int r;

	if (!notes)
		return -ENOMEM;
	sb_notes_collect(t, notes);
	r = grid_make(t, notes, &g);
	if (!r) {
		if (markdown)
			render_markdown(&g, out);
		else
			render_text(&g, out);
		sb_notes_print(notes, markdown, out);
		if (any_bound(t))
			fprintf(out, "\n%s\n", SB_BOUND_NOTE);
		sb_verdict_print_notes(t, markdown, out);
	}
	free(notes);
	grid_free(&g);
	return r;
}
