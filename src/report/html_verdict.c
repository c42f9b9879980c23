/* The HTML report's verdicts: after the comparison table, with --baseline
 * and repetitions, one row per comparison (stack x figure): the difference
 * with its 95 % interval drawn as a whisker around 0, the verdict and the
 * method; the outliers and suites that disagree; and why --repeat auto
 * stopped each stack's rounds. */
#include "report/html_int.h"

#include <math.h>
#include <string.h>

#define W 240.0   /* whisker width, px */

/* The largest |%| of any interval: the whiskers' common scale. */
static double scale(const struct sb_table *t)
{
	double m = 5;
	unsigned i;

	for (i = 0; i < t->nrows * t->ncols; i++) {
		const struct sb_verdict *v = &t->cells[i].verdict;

		if (v->state == SB_VERDICT_CI)
			m = fmax(m, fmax(fabs(v->ci.lo_pct), fabs(v->ci.hi_pct)));
	}
	return fmin(m, 1000);
}

static double px(double pct, double s)
{
	return W / 2 + fmax(-1, fmin(1, pct / s)) * (W / 2 - 4);
}

static void whisker(FILE *out, const struct sb_verdict *v, double s)
{
	double lo = px(v->ci.lo_pct, s), hi = px(v->ci.hi_pct, s), mid = px(v->ci.diff_pct, s);

	fprintf(out, "<svg width=\"%.0f\" height=\"16\" role=\"img\" aria-label=\"%+.1f %%, 95 %% CI %+.1f to "
		"%+.1f %%\"><title>%+.1f %%, 95 %% CI %+.1f to %+.1f %%</title><line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"16\" stroke=\"#999\"/>"
		"<line x1=\"%.1f\" y1=\"8\" x2=\"%.1f\" y2=\"8\" stroke=\"%s\" stroke-width=\"2\"/>"
		"<line x1=\"%.1f\" y1=\"3\" x2=\"%.1f\" y2=\"13\" stroke=\"#333\"/>"
		"<line x1=\"%.1f\" y1=\"3\" x2=\"%.1f\" y2=\"13\" stroke=\"#333\"/>"
		"<circle cx=\"%.1f\" cy=\"8\" r=\"3\" fill=\"#333\"/></svg>", W, v->ci.diff_pct, v->ci.lo_pct,
		v->ci.hi_pct, v->ci.diff_pct, v->ci.lo_pct, v->ci.hi_pct, W / 2, W / 2, lo, hi, v->sign ? "#c33" : "#38c", lo, lo, hi, hi, mid);
}

static void row(const struct sb_html *h, unsigned r, unsigned c, double s)
{
	const struct sb_verdict *v = &sb_table_cell(h->t, r, c)->verdict;
	FILE *out = h->out;
	char buf[256];

	fputs("<tr><td>", out);
	sb_html_esc(out, h->t->row_stack[r]);
	fputs("</td><td>", out);
	sb_html_esc(out, h->t->cols[c].header);
	fputs("</td><td>", out);
	if (v->state == SB_VERDICT_CI)
		whisker(out, v, s);
	fputs("</td><td>", out);
	sb_verdict_format(v, buf, sizeof(buf));
	sb_html_esc(out, buf);
	fputs("</td><td>", out);
	sb_html_esc(out, v->state == SB_VERDICT_CI ? sb_stats_method_name(v->ci.method) : "");
	fputs("</td></tr>\n", out);
}

/* Why --repeat auto stopped, per stack whose results say. */
static void stops(const struct sb_html *h)
{
	struct json_object *o, *why, *st, *rounds, *secs;
	char took[64];
	unsigned r;

	for (r = 0; r < h->t->nrows; r++) {
		if (!json_object_object_get_ex(h->t->row_first[r], "run_order", &o) ||
		    !json_object_object_get_ex(o, "stopped", &st) || !json_object_object_get_ex(o, "stopped_why", &why))
			continue;
		json_object_object_get_ex(o, "rounds", &rounds);
		took[0] = '\0';
		/* the time to the decision (results of an older stackbench lack it) */
		if (json_object_object_get_ex(o, "seconds_to_stop", &secs) &&
		    (json_object_is_type(secs, json_type_double) || json_object_is_type(secs, json_type_int)))
			snprintf(took, sizeof(took), " in %.0f s", json_object_get_double(secs));
		fputs("<li>", h->out);
		sb_html_escf(h->out, "%s: --repeat auto stopped after %d rounds%s (%s): %s", h->t->row_stack[r],
			     json_object_get_int(rounds), took, json_object_get_string(st), json_object_get_string(why));
		fputs("</li>\n", h->out);
	}
}

void sb_html_verdicts(const struct sb_html *h)
{
	const struct sb_table *t = h->t;
	FILE *out = h->out, *mem;
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	double s = scale(t);
	unsigned r, c;

	if (!t->any_verdict)
		return;
	fputs("<section id=\"verdicts\"><h2>Verdicts</h2>\n<table class=\"verdicts\">\n<caption>Each figure "
	      "against ", out);
	sb_html_esc(out, t->row_stack[t->baseline]);
	fprintf(out, ": the difference with its 95 %% confidence interval (whiskers on a common scale of "
		"\xc2\xb1%.0f %%, the grey line is 0; red: decided, blue: no detectable difference). "
		"docs/statistics.md says how.</caption>\n<thead><tr><th scope=\"col\">stack</th><th scope=\"col\">figure</th>"
		"<th scope=\"col\">95 %% CI</th><th scope=\"col\">verdict</th><th scope=\"col\">method</th></tr></thead><tbody>\n", s);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			if (sb_table_cell(t, r, c)->verdict.state != SB_VERDICT_NONE)
				row(h, r, c, s);
	fputs("</tbody></table>\n<ul>\n", out);
	stops(h);
	/* the method, outlier and disagreement lines of the text table */
	mem = open_memstream(&text, &len);
	if (mem) {
		sb_verdict_print_notes(t, true, mem);
		fclose(mem);
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, "- ", 2)) {
				fputs("<li>", out);
				sb_html_esc(out, line + 2);
				fputs("</li>\n", out);
			}
		free(text);
	}
	fputs("</ul></section>\n", out);
}
