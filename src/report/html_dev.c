/* Per results file: the device statistics of every phase (suite run) as a
 * compact heat table - the home-NAS write-up's iostat view without the
 * scrolling - and, when the file has "per_layer", the per-layer view: a
 * table and a waterfall of sequential write and read, layer by layer, with
 * what each layer could do ("expected") and what limits it. */
#include "report/html_int.h"
#include "report/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define G sb_json_get
#define S sb_json_str
#define MAX_DEV 64
#define MAX_PH 64

/* ---- device heat table ---- */

struct heat {
	const char *dev[MAX_DEV];
	unsigned ndev;
	struct json_object *ph[MAX_PH];
	unsigned nph;
	double await_max;
};

/* Where dev stands, bottom of the stack first, as the layer that knows it
 * says (layer_report.h .dev_role: md's members and arrays), else a
 * device-mapper device or any other; *word names its role. */
static int rank_word(struct json_object *res, const char *name, const char **word)
{
	struct sb_report_layer l;
	int r;

	for (unsigned i = 0; sb_report_layer_at(i, &l); i++)
		if (l.r && l.r->dev_role && (r = l.r->dev_role(sb_results_built_layer(res, l.name), name, word)) >= 0)
			return r;
	*word = strncmp(name, "dm-", 3) ? "device" : "device-mapper";
	return strncmp(name, "dm-", 3) ? SB_DEV_OTHER : SB_DEV_MAPPER;
}

static int rank(struct json_object *res, const char *name)
{
	const char *w;

	return rank_word(res, name, &w);
}

static struct json_object *dev_in(struct json_object *phase, const char *name)
{
	struct json_object *du = G(phase, "disk_util");

	for (size_t j = 0; du && json_object_is_type(du, json_type_array) && j < json_object_array_length(du); j++)
		if (!strcmp(S(json_object_array_get_idx(du, j), "name", ""), name))
			return json_object_array_get_idx(du, j);
	return NULL;
}

/* await in ms: all ticks over all I/Os (iostat's await), else the r/w mean. */
static int await_ms(struct json_object *d, double *v)
{
	double rt, wt, ri, wi, ra, wa;

	if (sb_json_num(d, "read_ticks", &rt) && sb_json_num(d, "write_ticks", &wt) &&
	    sb_json_num(d, "read_ios", &ri) && sb_json_num(d, "write_ios", &wi)) {
		*v = ri + wi > 0 ? (rt + wt) / (ri + wi) : 0;
		return 1;
	}
	if (sb_json_num(d, "r_await_ms", &ra) && sb_json_num(d, "w_await_ms", &wa)) {
		*v = fmax(ra, wa);
		return 1;
	}
	return 0;
}

static void heat_collect(struct json_object *res, struct heat *h)
{
	struct json_object *su;
	double a;

	memset(h, 0, sizeof(*h));
	for (size_t s = 0; h->nph < MAX_PH && (su = sb_results_suite(res, s)); s++) {
		struct json_object *du = G(su, "disk_util");

		if (!du || !json_object_is_type(du, json_type_array) || !json_object_array_length(du))
			continue;
		h->ph[h->nph++] = su;
		for (size_t j = 0; j < json_object_array_length(du); j++) {
			struct json_object *d = json_object_array_get_idx(du, j);
			const char *name = S(d, "name", NULL);
			unsigned k;

			if (await_ms(d, &a) && a > h->await_max)
				h->await_max = a;
			for (k = 0; name && k < h->ndev && strcmp(h->dev[k], name); k++)
				;
			if (name && k == h->ndev && h->ndev < MAX_DEV)
				h->dev[h->ndev++] = name;
		}
	}
	/* members, other disks, md, dm: bottom of the stack first */
	for (unsigned i = 1; i < h->ndev; i++)
		for (unsigned j = i; j > 0 && rank(res, h->dev[j - 1]) > rank(res, h->dev[j]); j--) {
			const char *t = h->dev[j];

			h->dev[j] = h->dev[j - 1];
			h->dev[j - 1] = t;
		}
}

/* A cell shaded by frac (0..1): white to orange; the number is the data. */
static void heat_cell(FILE *out, int have, double v, double frac)
{
	int g, b;

	if (!have) {
		fputs("<td>-</td>", out);
		return;
	}
	frac = fmin(fmax(frac, 0), 1);
	g = (int)(255 - frac * (255 - 160));
	b = (int)(255 - frac * (255 - 80));
	fprintf(out, "<td data-v=\"%.4g\" style=\"background:rgb(255,%d,%d)\">", v, g, b);
	sb_html_num(out, v);
	fputs("</td>", out);
}

void sb_html_heat(const struct sb_html *hh, struct json_object *res, unsigned file)
{
	const char *role;
	FILE *out = hh->out;
	struct heat h;

	heat_collect(res, &h);
	if (!h.ndev)
		return;
	/* phases down, devices across: a stack has a handful of devices but a
	 * run may have many phases (suites x repetitions), and pages are narrow */
	fputs("<h4>Device statistics per phase</h4>\n<p class=\"fn\">iostat -x semantics, from "
	      "<code>suites[].disk_util</code> of ", out);
	sb_html_src_link(hh, file);
	fputs(": %util, and await = mean time per I/O including queueing, in ms. Shading grows with "
	      "the value (await relative to this table's largest); the numbers are the data.</p>\n"
	      "<table class=\"heat\"><caption>Phases by device: %util and await</caption>\n"
	      "<thead><tr><th scope=\"col\" rowspan=\"2\">phase</th>", out);
	for (unsigned d = 0; d < h.ndev; d++) {
		fputs("<th scope=\"colgroup\" colspan=\"2\">", out);
		sb_html_esc(out, h.dev[d]);
		rank_word(res, h.dev[d], &role);
		fprintf(out, " <span class=\"unit\">(%s)</span></th>", role);
	}
	fputs("</tr><tr>", out);
	for (unsigned d = 0; d < h.ndev; d++)
		fputs("<th scope=\"col\">%util</th><th scope=\"col\">await <span class=\"unit\">ms</span></th>", out);
	fputs("</tr></thead><tbody>\n", out);
	for (unsigned p = 0; p < h.nph; p++) {
		fputs("<tr><th scope=\"row\">", out);
		sb_html_escf(out, "%s #%s", S(h.ph[p], "suite", "?"),
			     G(h.ph[p], "repetition") ? json_object_get_string(G(h.ph[p], "repetition")) : "1");
		fputs("</th>", out);
		for (unsigned d = 0; d < h.ndev; d++) {
			struct json_object *x = dev_in(h.ph[p], h.dev[d]);
			double u = 0, a = 0;
			int hu = sb_json_num(x, "util_pct", &u), ha = x && await_ms(x, &a);

			heat_cell(out, hu, u, u / 100);
			heat_cell(out, ha, a, h.await_max > 0 ? a / h.await_max : 0);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

/* ---- the per-layer view ---- */

static const char *const figs[] = { "seq_write_mbs", "seq_read_mbs", "randread_4k_iops" };
static const char *const fig_short[] = { "write", "read", "IOPS" };

/* figures.KEY as a number, or as {"value": x, "bound_by_machine": true};
 * the layer may also say "bound_by_machine": true or {KEY: true}. */
static int layer_fig(struct json_object *e, const char *obj, const char *key, double *v, int *bound)
{
	struct json_object *x = G(G(e, obj), key), *bm = G(e, "bound_by_machine");

	*bound = 0;
	if (x && json_object_is_type(x, json_type_object)) {
		*bound = json_object_get_boolean(G(x, "bound_by_machine"));
		return sb_json_num(x, "value", v);
	}
	if (bm && !strcmp(obj, "figures"))
		*bound |= json_object_is_type(bm, json_type_object) ? json_object_get_boolean(G(bm, key))
								     : json_object_get_boolean(bm);
	return sb_json_num(G(e, obj), key, v);
}

static int by_order(const void *a, const void *b)
{
	double x = 0, y = 0;

	sb_json_num(*(struct json_object *const *)a, "order", &x);
	sb_json_num(*(struct json_object *const *)b, "order", &y);
	return x < y ? -1 : x > y;
}

static void num_cell(FILE *out, int have, double v, int bound, const char *suffix)
{
	if (!have) {
		fputs("<td class=\"num\" data-v=\"\">-</td>", out);
		return;
	}
	fprintf(out, "<td class=\"num\" data-v=\"%.6g\">", v);
	sb_html_num(out, v);
	fputs(suffix, out);
	if (bound)
		fputs("<sup title=\"bound by the machine, not the stack\">*</sup>", out);
	fputs("</td>", out);
}

static void layer_row(FILE *out, struct json_object *e, int *any_bound)
{
	double v, x, pb;
	int b, bx;

	fputs("<tr><th scope=\"row\">", out);
	sb_html_esc(out, S(e, "layer", "?"));
	fputs("</th><td>", out);
	sb_html_esc(out, S(e, "device", "-"));
	fputs("</td>", out);
	for (int f = 0; f < 3; f++) {
		int have = layer_fig(e, "figures", figs[f], &v, &b);

		num_cell(out, have, v, b, "");
		*any_bound |= b;
	}
	/* the value is read after layer_fig has stored it: not in one call's arguments */
	for (int f = 0; f < 3; f++) {
		int have = layer_fig(e, "pct_of_below", figs[f], &pb, &bx);

		num_cell(out, have, pb, 0, " %");
	}
	for (int f = 0; f < 3; f++) {
		int have = layer_fig(e, "expected", figs[f], &x, &bx);

		num_cell(out, have, x, 0, "");
	}
	for (int f = 0; f < 3; f++) {
		int have = layer_fig(e, "figures", figs[f], &v, &b) && layer_fig(e, "expected", figs[f], &x, &bx) && x > 0;

		num_cell(out, have, have ? v / x * 100 : 0, 0, " %");
	}
	fputs("</tr>\n", out);
}

static void layer_table(FILE *out, struct json_object **e, size_t n)
{
	int any_bound = 0;

	fputs("<table class=\"layers\"><caption>One row per layer, bottom up, each measured right after "
	      "it was built (<code>per_layer</code>): sequential 1 MiB write and read in MB/s (10<sup>6</sup> B/s), "
	      "random 4 KiB read in IOPS; % of the layer below and expected as recorded; % of expected "
	      "computed here (measured \xc3\xb7 expected).</caption>\n<thead><tr>"
	      "<th scope=\"col\" rowspan=\"2\">layer</th><th scope=\"col\" rowspan=\"2\">device</th>"
	      "<th scope=\"col\" rowspan=\"2\" class=\"num\">seq write <span class=\"unit\">MB/s</span></th>"
	      "<th scope=\"col\" rowspan=\"2\" class=\"num\">seq read <span class=\"unit\">MB/s</span></th>"
	      "<th scope=\"col\" rowspan=\"2\" class=\"num\">4k randread <span class=\"unit\">IOPS</span></th>"
	      "<th scope=\"colgroup\" colspan=\"3\">% of the layer below</th>"
	      "<th scope=\"colgroup\" colspan=\"3\">expected</th><th scope=\"colgroup\" colspan=\"3\">% of expected</th>"
	      "</tr><tr>", out);
	for (int g = 0; g < 3; g++)
		for (int f = 0; f < 3; f++)
			fprintf(out, "<th scope=\"col\" class=\"num\">%s</th>", fig_short[f]);
	fputs("</tr></thead><tbody>\n", out);
	for (size_t i = 0; i < n; i++)
		layer_row(out, e[i], &any_bound);
	fputs("</tbody></table>\n", out);
	if (any_bound)
		fputs("<p class=\"fn\">* bound by the machine, not the stack.</p>\n", out);
}

/* For every entry i (sorted by order) and the waterfall's two figures, the
 * value of the layer below: the largest among the entries of the highest
 * order below i's (two members are one level); NAN where there is none.
 * One pass over the sorted entries: the group of the highest order below a
 * key is the last group started before that key's first entry (a per-entry
 * search of the entries before it was quadratic in the rows). */
static void below_all(struct json_object **e, size_t n, double (*bl)[2])
{
	double key = 0, prev_key = 0, cur_order = 0, o, x, cur[2] = { NAN, NAN }, ans[2] = { NAN, NAN };
	int b, have_cur = 0;

	for (size_t i = 0; i < n; i++) {
		int has_order = sb_json_num(e[i], "order", &o);

		key = has_order ? o : 0;   /* by_order's key */
		if (i == 0 || key != prev_key) {
			ans[0] = have_cur ? cur[0] : NAN;
			ans[1] = have_cur ? cur[1] : NAN;
		}
		prev_key = key;
		bl[i][0] = ans[0];
		bl[i][1] = ans[1];
		if (!has_order)
			continue;
		if (!have_cur || cur_order != o) {
			have_cur = 1;
			cur_order = o;
			cur[0] = cur[1] = NAN;
		}
		for (int f = 0; f < 2; f++)
			if (layer_fig(e[i], "figures", figs[f], &x, &b) && (isnan(cur[f]) || x > cur[f]))
				cur[f] = x;
	}
}

#define WX 230.0
#define WW 330.0
#define WROW 20.0

static void waterfall_panel(FILE *out, struct json_object **e, double (*below)[2], size_t n, int f,
			    double y, double xmax, unsigned row)
{
	double v, x, bl;
	int b;

	fprintf(out, "<text x=\"4\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\">sequential %s, MB/s</text>",
		y + 14, f ? "read" : "write");
	y += 22;
	for (size_t i = 0; i < n; i++, y += WROW) {
		fprintf(out, "<g><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">", WX - 6, y + 12);
		sb_html_escf(out, "%.12s %.20s", S(e[i], "layer", "?"), S(e[i], "device", ""));
		fputs("</text>", out);
		if (!layer_fig(e[i], "figures", figs[f], &v, &b)) {
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">no data</text></g>", WX + 4, y + 12);
			continue;
		}
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"14\" fill=\"url(#sbp-%u)\" "
			"stroke=\"#000\" stroke-width=\".6\"/>", WX, y + 1, v / xmax * WW, row);
		bl = below[i][f];
		if (!isnan(bl) && bl > v)
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"14\" fill=\"url(#sbp-drop)\" "
				"stroke=\"#888\" stroke-width=\".6\"/>", WX + v / xmax * WW, y + 1, (bl - v) / xmax * WW);
		if (layer_fig(e[i], "expected", figs[f], &x, &b) && x > 0)
			fprintf(out, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#000\" stroke-width=\"2\" "
				"stroke-dasharray=\"3 2\"/>", WX + x / xmax * WW, y - 1, y + 17);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10.5\">", WX + fmax(v, isnan(bl) ? 0 : bl) /
			xmax * WW + 4, y + 12);
		sb_html_num(out, v);
		if (!isnan(bl) && bl > v) {
			fputs(" (\xe2\x88\x92", out);
			sb_html_num(out, bl - v);
			fputs(")", out);
		}
		if (layer_fig(e[i], "expected", figs[f], &x, &b)) {
			fputs(", exp. ", out);
			sb_html_num(out, x);
		}
		fputs("</text></g>", out);
	}
}

static void waterfall(FILE *out, struct json_object **e, double (*below)[2], size_t n, unsigned file,
		      unsigned row)
{
	double xmax = 0, v, height = 2 * (22 + n * WROW + 10) + 8, step, mag;
	char id[32];
	int b;

	for (size_t i = 0; i < n; i++)
		for (int f = 0; f < 2; f++) {
			if (layer_fig(e[i], "figures", figs[f], &v, &b))
				xmax = fmax(xmax, v);
			if (layer_fig(e[i], "expected", figs[f], &v, &b))
				xmax = fmax(xmax, v);
		}
	if (xmax <= 0)
		xmax = 1;
	mag = pow(10, floor(log10(xmax)));
	step = mag / 2;
	xmax = ceil(xmax * 1.05 / step) * step;
	snprintf(id, sizeof(id), "waterfall-%u", file + 1);
	fprintf(out, "<figure class=\"chart\" id=\"%s\">\n<svg viewBox=\"0 0 760 %.0f\" role=\"img\" "
		"aria-labelledby=\"%s-t\"><title id=\"%s-t\">Per-layer waterfall: sequential write and read "
		"per layer, MB/s</title>", id, height, id, id);
	for (int f = 0; f < 2; f++)
		waterfall_panel(out, e, below, n, f, 4 + f * (22 + n * WROW + 10), xmax, row);
	fputs("</svg>\n<figcaption>Waterfall: each layer's bar is what it measured; the hatched grey part "
	      "is what it lost against the layer below it (\xe2\x88\x92N MB/s); the dashed line and \"exp.\" are "
	      "what it was expected to do. "
	      "Same axis for write and read, 0 to ", out);
	sb_html_num(out, xmax);
	fputs(" MB/s.</figcaption>\n</figure>\n", out);
}

void sb_html_per_layer(const struct sb_html *h, struct json_object *res, unsigned file, unsigned row)
{
	struct json_object *pl = sb_results_per_layer(res), **e;
	double (*below)[2];
	size_t n;
	FILE *out = h->out;
	int lim = 0;

	if (!pl || !(n = json_object_array_length(pl)))
		return;
	e = calloc(n, sizeof(*e));
	below = calloc(n, sizeof(*below));
	if (!e || !below)
		goto out;
	for (size_t i = 0; i < n; i++)
		e[i] = json_object_array_get_idx(pl, i);
	qsort(e, n, sizeof(*e), by_order);
	below_all(e, n, below);
	fputs("<h4>Per layer</h4>\n<p>From ", out);
	sb_html_src_link(h, file);
	fputs(".</p>\n", out);
	layer_table(out, e, n);
	waterfall(out, e, below, n, file, row);
	for (size_t i = 0; i < n; i++) {
		const char *l = S(e[i], "limit", NULL);

		if (!l)
			continue;
		fputs(lim++ ? "" : "<ul class=\"limits\">\n", out);
		fputs("<li>", out);
		sb_html_esc(out, l);
		fputs("</li>\n", out);
	}
	if (lim)
		fputs("</ul>\n", out);
out:
	free(below);
	free(e);
}
