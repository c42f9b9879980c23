/* The report's charts as inline SVG: one chart per figure group
 * (throughput, operations per second, latency percentiles), horizontal
 * bars so that twenty stacks still read, one shared axis per chart (one
 * unit), each stack in its own colour AND pattern with its name written at
 * the bar (readable without colour), min-max whiskers with repetitions.
 * The figures come from the table model (table.h), with one SUITE.FIGURE
 * or SUITE.JOB.pNN column per figure found in the results. */
#include "report/html_int.h"
#include "report/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Okabe-Ito: told apart by most colour-blind readers; patterns do the rest. */
static const char *const palette[] = {
	"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#666666",
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))
/* Pattern strokes over the colour; 6 against 8 colours: 24 distinct fills. */
static const char *const strokes[] = {
	"", "M0 8L8 0", "M0 0L8 8", "M0 4H8", "M4 0V8", "M0 8L8 0M0 0L8 8",
};
#define NPAT (sizeof(strokes) / sizeof(strokes[0]))

void sb_html_pattern_defs(FILE *out, unsigned nrows)
{
	fputs("<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\" focusable=\"false\">"
	      "<defs>", out);
	for (unsigned r = 0; r < nrows; r++) {
		fprintf(out, "<pattern id=\"sbp-%u\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">"
			"<rect width=\"8\" height=\"8\" fill=\"%s\"/>", r, palette[r % NPAL]);
		if (*strokes[r % NPAT])
			fprintf(out, "<path d=\"%s\" stroke=\"#fff\" stroke-width=\"1.6\" stroke-opacity=\".75\"/>",
				strokes[r % NPAT]);
		fputs("</pattern>", out);
	}
	fputs("<pattern id=\"sbp-drop\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
	      "<rect width=\"6\" height=\"6\" fill=\"#eee\"/><path d=\"M0 6L6 0\" stroke=\"#888\"/></pattern>"
	      "</defs></svg>\n", out);
}

void sb_html_swatch(FILE *out, unsigned row)
{
	fprintf(out, "<svg class=\"sw\" width=\"16\" height=\"16\" viewBox=\"0 0 16 16\" aria-hidden=\"true\">"
		"<rect x=\".5\" y=\".5\" width=\"15\" height=\"15\" fill=\"url(#sbp-%u)\" stroke=\"#000\"/></svg>", row);
}

/* ---- which figures go in which chart ---- */

enum group { G_THROUGHPUT, G_OPS, G_LATENCY, G_N };

static const struct {
	const char *id, *title, *unit, *what;
} groups[G_N] = {
	{ "chart-throughput", "Throughput", "MB/s", "every throughput figure of every suite, in MB/s (10^6 B/s)" },
	{ "chart-iops", "Operations per second (IOPS, seeks, files)", "/s",
	  "every figure counted per second: I/O operations, bonnie++ seeks and file operations" },
	{ "chart-latency", "Latency percentiles", "ms",
	  "completion latency percentiles (p50, p99, p99.9) of every job that recorded them, the worse of read and write" },
};

static int is_rate(const char *u)
{
	double x;

	return sb_unit_convert(1, u, "MB/s", &x) == 0;
}

/* Append ",name" to list unless it is there; at most 24 columns a chart. */
static void list_add(char *list, size_t len, unsigned *n, const char *name)
{
	char item[SB_COL_NAME_MAX + 2];
	size_t used = strlen(list);

	snprintf(item, sizeof(item), ",%s", name);
	if (*n >= 24 || used + strlen(item) + 1 >= len)
		return;
	for (const char *p = strstr(list, item); p; p = strstr(p + 1, item))
		if (p[strlen(item)] == ',' || !p[strlen(item)])
			return;
	memcpy(list + used, item, strlen(item) + 1);
	(*n)++;
}

/* Latency columns of one suite object's jobs that recorded percentiles. */
static void jobs_latency(struct json_object *su, const char *suite, char *list, size_t len, unsigned *n,
			 char *ambiguous, size_t alen)
{
	struct json_object *jobs = sb_json_get(su, "jobs");
	static const char *const pcts[] = { "p50", "p99", "p99.9" };
	char name[SB_COL_NAME_MAX];

	if (!jobs || !json_object_is_type(jobs, json_type_array))
		return;
	for (size_t j = 0; j < json_object_array_length(jobs); j++) {
		struct json_object *jo = json_object_array_get_idx(jobs, j);
		const char *jn = sb_json_str(jo, "jobname", sb_json_str(jo, "name", NULL));

		size_t same = 0;

		for (size_t k = 0; jn && k < json_object_array_length(jobs); k++) {
			struct json_object *o = json_object_array_get_idx(jobs, k);

			same += !strcmp(jn, sb_json_str(o, "jobname", sb_json_str(o, "name", "")));
		}
		/* jobs that share a name (quick's "sb-quick") would pool into one
		 * column: different jobs shown as repetitions. Leave them out. */
		if (same > 1) {
			snprintf(ambiguous, alen, "%s (%s)", suite, jn);
			continue;
		}
		if (!jn || strchr(jn, ',') ||
		    (!sb_json_get(sb_json_get(sb_json_get(jo, "read"), "clat_ns"), "percentile") &&
		     !sb_json_get(sb_json_get(sb_json_get(jo, "write"), "clat_ns"), "percentile")))
			continue;
		for (size_t p = 0; p < 3; p++) {
			snprintf(name, sizeof(name), "%s.%s.%s", suite, jn, pcts[p]);
			list_add(list, len, n, name);
		}
	}
}

/* "stack,SUITE.FIGURE,..." for each group, from every figure in the results. */
static void discover(const struct sb_html *h, char lists[G_N][4096], unsigned counts[G_N],
		     char *ambiguous, size_t alen)
{
	for (int g = 0; g < G_N; g++) {
		snprintf(lists[g], 4096, "stack");
		counts[g] = 0;
	}
	for (unsigned i = 0; i < h->n; i++) {
		struct json_object *su;

		for (size_t s = 0; (su = sb_results_suite(h->res[i], s)); s++) {
			const char *suite = sb_results_suite_name(su);
			char name[SB_COL_NAME_MAX];

			if (!*suite || strchr(suite, ',') || strchr(suite, '.'))
				continue;
			if (!sb_results_suite_figures(su))
				continue;
			json_object_object_foreach(sb_results_suite_figures(su), fig, v) {
				const char *u = sb_json_str(v, "unit", "");
				int g = is_rate(u) ? G_THROUGHPUT : !strcmp(u, "/s") ? G_OPS : -1;

				if (g < 0 || strchr(fig, ',') || strchr(fig, '.'))
					continue;
				snprintf(name, sizeof(name), "%s.%s", suite, fig);
				list_add(lists[g], 4096, &counts[g], name);
			}
			jobs_latency(su, suite, lists[G_LATENCY], 4096, &counts[G_LATENCY], ambiguous, alen);
		}
	}
}

/* ---- drawing ---- */

#define CW 760.0        /* viewBox width */
#define PX 210.0        /* plot starts: stack names to its left */
#define PW 400.0        /* plot width: value labels to its right */
#define ROW 17.0
#define HEAD 22.0
#define GAP 8.0
#define AXIS 26.0

static double nice_step(double max)
{
	double raw = max / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* A cell's value in the chart's unit (throughput converted to MB/s). */
static int cell_in(const struct sb_column *c, const struct sb_cell *x, const char *unit,
		   double *med, double *min, double *max)
{
	if (!x->present)
		return 0;
	if (sb_unit_convert(x->med, c->unit, unit, med) < 0 ||
	    sb_unit_convert(x->min, c->unit, unit, min) < 0 ||
	    sb_unit_convert(x->max, c->unit, unit, max) < 0) {
		if (strcmp(unit, "/s"))
			return 0;
		*med = x->med, *min = x->min, *max = x->max; /* "/s" passes as is */
	}
	return 1;
}

static void axis(FILE *out, double y0, double y1, double xmax, double step, const char *unit)
{
	for (double v = 0; v <= xmax + step / 2; v += step) {
		double x = PX + v / xmax * PW;

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", x, y0, x, y1);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" fill=\"#444\">",
			x, y1 + 12);
		sb_html_num(out, v);
		fputs("</text>", out);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">", PX + PW / 2, y1 + 24);
	sb_html_esc(out, unit);
	fputs("</text>", out);
}

/* One bar: colour+pattern fill, stack name left, value right, whisker. */
static void bar(const struct sb_html *h, const struct sb_table *t, unsigned r, unsigned c,
		double y, double xmax, const char *unit)
{
	const struct sb_cell *x = sb_table_cell(t, r, c);
	double med, min, max, end;
	FILE *out = h->out;
	char name[512];
	const char *rn = sb_html_row_name(h, r, name, sizeof(name));

	fprintf(out, "<g><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">", PX - 6, y + 11);
	sb_html_escf(out, "%.28s", rn);
	fputs("</text>", out);
	if (!cell_in(&t->cols[c], x, unit, &med, &min, &max)) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555\">no data</text></g>", PX + 4, y + 11);
		return;
	}
	fputs("<title>", out);
	sb_html_escf(out, "%s, %s: ", rn, t->cols[c].name);
	sb_html_num(out, med);
	sb_html_escf(out, " %s", unit);
	if (x->n > 1) {
		fputs(" (median of ", out);
		fprintf(out, "%u; ", x->n);
		sb_html_num(out, min);
		fputs("\xe2\x80\x93", out);
		sb_html_num(out, max);
		fputs(")", out);
	}
	fputs(", from ", out);
	sb_html_stack_files(h, r);
	fputs("</title>", out);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"12\" fill=\"url(#sbp-%u)\" "
		"stroke=\"#000\" stroke-width=\".6\"/>", PX, y + 1, med / xmax * PW, r);
	end = med;
	if (x->n > 1) {
		double a = PX + min / xmax * PW, b = PX + max / xmax * PW;

		fprintf(out, "<path class=\"whisker\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" stroke=\"#000\" "
			"stroke-width=\"1.2\"/>", a, y + 7, b, a, y + 3, y + 11, b, y + 3, y + 11);
		end = max > med ? max : med;
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10.5\">", PX + end / xmax * PW + 4, y + 11);
	sb_html_num(out, med);
	if (x->n > 1) {
		fputs(" (", out);
		sb_html_num(out, min);
		fputs("\xe2\x80\x93", out);
		sb_html_num(out, max);
		fputs(")", out);
	}
	if (x->bound)
		fputs(" *", out);
	fputs("</text></g>", out);
}

static void chart(const struct sb_html *h, const struct sb_table *t, enum group g)
{
	unsigned nfig = 0, c, r, bound = 0;
	double xmax = 0, height, y, med, min, max, step;
	FILE *out = h->out;

	for (c = 0; c < t->ncols; c++) {
		if (!t->cols[c].numeric)
			continue;
		nfig++;
		for (r = 0; r < t->nrows; r++)
			if (cell_in(&t->cols[c], sb_table_cell(t, r, c), groups[g].unit, &med, &min, &max)) {
				xmax = fmax(xmax, fmax(med, max));
				bound |= (unsigned)sb_table_cell(t, r, c)->bound;
			}
	}
	if (xmax <= 0)
		xmax = 1;
	step = nice_step(xmax * 1.05);
	xmax = ceil(xmax * 1.05 / step) * step;
	height = 8 + nfig * (HEAD + t->nrows * ROW + GAP) + AXIS + 4;
	fprintf(out, "<figure class=\"chart\" id=\"%s\">\n<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		"aria-labelledby=\"%s-t\"><title id=\"%s-t\">%s, %s</title>",
		groups[g].id, CW, height, groups[g].id, groups[g].id, groups[g].title, groups[g].unit);
	axis(out, 4, height - AXIS - 4, xmax, step, groups[g].unit);
	for (c = 0, y = 8; c < t->ncols; c++) {
		if (!t->cols[c].numeric)
			continue;
		fprintf(out, "<text x=\"4\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\">", y + 14);
		sb_html_esc(out, t->cols[c].name);
		fputs("</text>", out);
		y += HEAD;
		for (r = 0; r < t->nrows; r++, y += ROW)
			bar(h, t, r, c, y, xmax, groups[g].unit);
		y += GAP;
	}
	fputs("</svg>\n<figcaption>", out);
	sb_html_esc(out, groups[g].title);
	fputs(": ", out);
	sb_html_esc(out, groups[g].what);
	fputs(". One bar per stack, named at the bar; the median, with a min\xe2\x80\x93max whisker where "
	      "there were repetitions. Values from the results files listed at the end of the page.", out);
	if (bound)
		fputs(" * bound by the machine, not the stack.", out);
	fputs("</figcaption>\n</figure>\n", out);
}

static void legend(const struct sb_html *h)
{
	char name[512];

	fputs("<ul class=\"legend\" aria-label=\"stacks and their fills\">", h->out);
	for (unsigned r = 0; r < h->t->nrows; r++) {
		fputs("<li>", h->out);
		sb_html_swatch(h->out, r);
		fputc(' ', h->out);
		sb_html_esc(h->out, sb_html_row_name(h, r, name, sizeof(name)));
		fputs("</li>", h->out);
	}
	fputs("</ul>\n", h->out);
}

int sb_html_charts(const struct sb_html *h, struct sb_err *err)
{
	char lists[G_N][4096], ambiguous[160] = "";
	unsigned counts[G_N];
	int any = 0;

	discover(h, lists, counts, ambiguous, sizeof(ambiguous));
	fputs("<section id=\"charts\"><h2>Charts</h2>\n", h->out);
	legend(h);
	for (int g = 0; g < G_N; g++) {
		struct sb_table_opts o = { .columns = lists[g] };
		struct sb_table t;
		int r;

		if (!counts[g])
			continue;
		r = sb_table_build(h->res, h->n, &o, &t, err);
		if (r < 0)
			return r;
		fprintf(h->out, "<h3>%s</h3>\n", groups[g].title);
		chart(h, &t, (enum group)g);
		sb_table_free(&t);
		any = 1;
	}
	if (!any)
		fputs("<p>The results hold no throughput, rate or latency figures to chart.</p>\n", h->out);
	if (*ambiguous) {
		fputs("<p class=\"fn\">Latency percentiles not charted for jobs that share one name, e.g. ", h->out);
		sb_html_esc(h->out, ambiguous);
		fputs(": their percentiles cannot be told apart by name.</p>\n", h->out);
	}
	fputs("</section>\n", h->out);
	return 0;
}
