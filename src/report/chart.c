/* Grouped bar chart with cairo: one panel per unit (MB/s, /s, % ... never
 * share an axis), in it one group per numeric column of the table and one
 * bar per stack, median on the bar, min-max whisker when there were
 * repetitions. */
#include "report/chart.h"
#include "report/results.h"

#include <cairo.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/json.h"

#define W_MIN 720.0
#define PANEL_H 300.0
#define MARGIN_L 80.0
#define MARGIN_R 24.0
#define TITLE_H 66.0   /* title and the caption line under it */
#define LEGEND_ROW 22.0
#define GROUP_GAP 28.0
#define AXIS_LABEL_H 40.0

static const double palette[][3] = {
	{ 0.122, 0.467, 0.706 }, { 1.000, 0.498, 0.055 }, { 0.173, 0.627, 0.173 },
	{ 0.839, 0.153, 0.157 }, { 0.580, 0.404, 0.741 }, { 0.549, 0.337, 0.294 },
	{ 0.890, 0.467, 0.761 }, { 0.498, 0.498, 0.498 }, { 0.737, 0.741, 0.133 },
	{ 0.090, 0.745, 0.812 },
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))

/* A stack keeps its colour across charts: chosen by its name (FNV-1a),
 * not by its row. */
static const double *stack_colour(const struct sb_table *t, unsigned r)
{
	const unsigned char *p = (const unsigned char *)t->row_stack[r];
	uint32_t h = 2166136261u;

	for (; p && *p; p++)
		h = (h ^ *p) * 16777619u;
	return palette[h % NPAL];
}

/* "suites dd, bonnie · host vm (CPU) · kernel 6.1.176 · sandbox user-mode-linux · 2026-12-01":
 * what the figures are, where and when they were measured (first row's file;
 * "mixed" where rows differ). */
static void caption(const struct sb_table *t, char *out, size_t len)
{
	char suites[256] = "", kern[128] = "", host[384] = "", date[16] = "";
	size_t o = 0;
	unsigned r;

	for (r = 0; r < t->nrows; r++) {
		struct json_object *res = t->row_first[r], *h = sb_results_host(res), *su;
		struct json_object *outer = sb_results_host_outer(res);
		char hk[128], hh[384];
		size_t i;

		for (i = 0; (su = sb_results_suite(res, i)); i++) {
			const char *n = sb_results_suite_name(su);
			char word[64];

			snprintf(word, sizeof(word), "%s", n);
			if (*n && !strstr(suites, word) && o + strlen(n) + 3 < sizeof(suites))
				o += snprintf(suites + o, sizeof(suites) - o, "%s%s", o ? ", " : "", n);
		}
		snprintf(hk, sizeof(hk), "%s", sb_json_str(h, "kernel", ""));
		snprintf(hh, sizeof(hh), "%s (%s)", outer ? sb_json_str(outer, "hostname", "") : sb_json_str(h, "hostname", ""),
			 outer ? sb_json_str(outer, "cpu_model", "") : sb_json_str(h, "cpu_model", ""));
		if (!r) {
			snprintf(kern, sizeof(kern), "%s", hk);
			snprintf(host, sizeof(host), "%s", hh);
			snprintf(date, sizeof(date), "%.10s", sb_results_started(res));
		} else {
			if (strcmp(kern, hk))
				snprintf(kern, sizeof(kern), "mixed");
			if (strcmp(host, hh))
				snprintf(host, sizeof(host), "mixed");
		}
	}
	snprintf(out, len, "suites %s \xc2\xb7 host %s \xc2\xb7 kernel %s \xc2\xb7 %s \xc2\xb7 %s",
		 *suites ? suites : "-", host, kern,
		 t->nrows && sb_results_sandboxed(t->row_first[0]) ? "sandbox user-mode-linux" : "no sandbox",
		 *date ? date : "-");
}

static double nice_step(double max, int ticks)
{
	double raw = max / ticks, mag = pow(10, floor(log10(raw))), f = raw / mag;

	if (f <= 1)
		return mag;
	if (f <= 2)
		return 2 * mag;
	if (f <= 5)
		return 5 * mag;
	return 10 * mag;
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double align)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - align * (e.width + e.x_bearing), y);
	cairo_show_text(cr, s);
}

/* One panel: the numeric columns of one unit, a group of bars each. */
struct panel {
	cairo_t *cr;
	const struct sb_table *t;
	const char *unit;
	double top, plot_w, plot_h, ymax, step;
	unsigned ngroups;
};

static bool in_panel(const struct panel *p, unsigned c)
{
	return p->t->cols[c].numeric && !strcmp(p->t->cols[c].unit, p->unit);
}

/* The groups and the y scale: the largest figure (its max, so the spread
 * fits) plus 8 %, rounded up to a nice step. */
static void panel_scale(struct panel *p)
{
	unsigned c, r;

	p->ymax = 0;
	p->ngroups = 0;
	for (c = 0; c < p->t->ncols; c++) {
		if (!in_panel(p, c))
			continue;
		p->ngroups++;
		for (r = 0; r < p->t->nrows; r++) {
			const struct sb_cell *x0 = sb_table_cell(p->t, r, c);
			if (x0->present && x0->max > p->ymax)
				p->ymax = x0->max;
		}
	}
	if (p->ymax <= 0)
		p->ymax = 1;
	p->step = nice_step(p->ymax * 1.08, 5);
	p->ymax = ceil(p->ymax * 1.08 / p->step) * p->step;
}

/* axis, grid, tick labels and the rotated unit */
static void panel_axes(const struct panel *p)
{
	cairo_t *cr = p->cr;
	char buf[64];
	double y;

	cairo_set_font_size(cr, 11);
	cairo_set_line_width(cr, 1);
	for (y = 0; y <= p->ymax + p->step / 2; y += p->step) {
		double py = p->top + p->plot_h - y / p->ymax * p->plot_h;

		cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
		cairo_move_to(cr, MARGIN_L, py + 0.5);
		cairo_line_to(cr, MARGIN_L + p->plot_w, py + 0.5);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		sb_num_format(y, buf, sizeof(buf));
		text_at(cr, MARGIN_L - 6, py + 4, buf, 1.0);
	}
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_move_to(cr, MARGIN_L + 0.5, p->top);
	cairo_line_to(cr, MARGIN_L + 0.5, p->top + p->plot_h);
	cairo_line_to(cr, MARGIN_L + p->plot_w, p->top + p->plot_h);
	cairo_stroke(cr);
	cairo_save(cr);
	cairo_set_font_size(cr, 12);
	cairo_translate(cr, 24, p->top + p->plot_h / 2);
	cairo_rotate(cr, -M_PI / 2);
	text_at(cr, 0, 0, *p->unit ? p->unit : "value", 0.5);
	cairo_restore(cr);
}

/* One bar of width bw at x: the median, the min-max whisker of
 * repetitions, and the median's figure above. */
static void panel_bar(const struct panel *p, unsigned r, const struct sb_cell *cell, double x, double bw)
{
	cairo_t *cr = p->cr;
	double base = p->top + p->plot_h, h = cell->med / p->ymax * p->plot_h;
	char buf[64];

	cairo_set_source_rgb(cr, stack_colour(p->t, r)[0], stack_colour(p->t, r)[1],
			     stack_colour(p->t, r)[2]);
	cairo_rectangle(cr, x + 1, base - h, bw - 2, h);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	if (cell->n > 1) {
		double y0 = base - cell->min / p->ymax * p->plot_h;
		double y1 = base - cell->max / p->ymax * p->plot_h;

		cairo_move_to(cr, x + bw / 2, y0);
		cairo_line_to(cr, x + bw / 2, y1);
		cairo_move_to(cr, x + bw / 2 - 4, y0);
		cairo_line_to(cr, x + bw / 2 + 4, y0);
		cairo_move_to(cr, x + bw / 2 - 4, y1);
		cairo_line_to(cr, x + bw / 2 + 4, y1);
		cairo_stroke(cr);
		h = cell->max / p->ymax * p->plot_h;
	}
	cairo_set_font_size(cr, bw < 30 ? 9 : 11);
	sb_num_format(cell->med, buf, sizeof(buf));
	text_at(cr, x + bw / 2, base - h - 4, buf, 0.5);
}

/* group label: the column header without its unit */
static void panel_label(const struct panel *p, unsigned c, double cx)
{
	char buf[160];

	snprintf(buf, sizeof(buf), "%s", p->t->cols[c].header);
	if (*p->unit && strlen(buf) > strlen(p->unit) + 1 &&
	    !strcmp(buf + strlen(buf) - strlen(p->unit), p->unit))
		buf[strlen(buf) - strlen(p->unit) - 1] = '\0';
	cairo_set_font_size(p->cr, 12);
	cairo_set_source_rgb(p->cr, 0.1, 0.1, 0.1);
	text_at(p->cr, cx, p->top + p->plot_h + 18, buf, 0.5);
}

static void draw_panel(cairo_t *cr, const struct sb_table *t, const char *unit,
		       double top, double width)
{
	struct panel p = { .cr = cr, .t = t, .unit = unit, .top = top,
			   .plot_w = width - MARGIN_L - MARGIN_R, .plot_h = PANEL_H - AXIS_LABEL_H - 16 };
	double gw, bw;
	unsigned c, r, g;

	panel_scale(&p);
	panel_axes(&p);
	gw = p.plot_w / p.ngroups;
	bw = (gw - GROUP_GAP) / t->nrows;
	if (bw > 60)
		bw = 60;
	for (c = 0, g = 0; c < t->ncols; c++) {
		double gx;

		if (!in_panel(&p, c))
			continue;
		gx = MARGIN_L + g * gw + (gw - bw * t->nrows) / 2;
		for (r = 0; r < t->nrows; r++)
			if (sb_table_cell(t, r, c)->present)
				panel_bar(&p, r, sb_table_cell(t, r, c), gx + r * bw, bw);
		panel_label(&p, c, MARGIN_L + g * gw + gw / 2);
		g++;
	}
}

/* "luks4096: EXT4 on LUKS, 4096, aes-xts-plain64": the stack and the text
 * columns of its row, so the legend says what each colour was. */
static void legend_label(const struct sb_table *t, unsigned r, char *buf, size_t len)
{
	unsigned c;
	int first = 1;

	snprintf(buf, len, "%s", t->row_stack[r]);
	for (c = 0; c < t->ncols; c++) {
		const struct sb_cell *x = sb_table_cell(t, r, c);
		size_t l = strlen(buf);

		if (t->cols[c].numeric || !x->present || !strcmp(t->cols[c].name, "stack"))
			continue;
		snprintf(buf + l, len - l, "%s%s", first ? ": " : ", ", x->str);
		first = 0;
	}
}

static int draw(cairo_t *cr, const struct sb_table *t, char units[][16], unsigned nu,
		double width, double height)
{
	unsigned r, u;
	double y;
	char title[256], label[512];

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 16);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	snprintf(title, sizeof(title), "stackbench: %u stack%s compared", t->nrows, t->nrows == 1 ? "" : "s");
	text_at(cr, width / 2, 30, title, 0.5);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 11);
	caption(t, label, sizeof(label));
	text_at(cr, width / 2, 50, label, 0.5);
	for (u = 0; u < nu; u++)
		draw_panel(cr, t, units[u], TITLE_H + u * PANEL_H, width);
	/* legend: one line per stack */
	y = TITLE_H + nu * PANEL_H + 4;
	cairo_set_font_size(cr, 12);
	for (r = 0; r < t->nrows; r++) {
		double ly = y + r * LEGEND_ROW;

		cairo_set_source_rgb(cr, stack_colour(t, r)[0], stack_colour(t, r)[1], stack_colour(t, r)[2]);
		cairo_rectangle(cr, MARGIN_L, ly, 14, 14);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		legend_label(t, r, label, sizeof(label));
		text_at(cr, MARGIN_L + 22, ly + 12, label, 0.0);
	}
	(void)height;
	return cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -EIO;
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcasecmp(s + a - b, suf);
}

int sb_chart_write(struct json_object *const *results, unsigned n,
		   const struct sb_table_opts *o, const char *path, struct sb_err *err)
{
	struct sb_table t;
	char (*units)[16] = NULL;
	unsigned c, u, nu = 0, ngroups = 0;
	cairo_surface_t *s = NULL;
	cairo_t *cr = NULL;
	double width, height;
	char tmp[4200];
	int svg, r, fd = -1;

	svg = ends_with(path, ".svg");
	if (!svg && !ends_with(path, ".png"))
		return sb_err_set(err, -EINVAL, "--chart %s: the file name must end in .svg or .png", path);
	r = sb_table_build(results, n, o, &t, err);
	if (r < 0)
		return r;
	units = calloc(t.ncols + 1, sizeof(*units));
	if (!units) {
		r = -ENOMEM;
		goto out;
	}
	for (c = 0; c < t.ncols; c++) {
		if (!t.cols[c].numeric)
			continue;
		ngroups++;
		for (u = 0; u < nu && strcmp(units[u], t.cols[c].unit); u++)
			;
		if (u == nu)
			snprintf(units[nu++], 16, "%s", t.cols[c].unit);
	}
	if (!nu) {
		r = sb_err_set(err, -EINVAL, "--chart: the table has no numeric column to draw");
		goto out;
	}
	width = MARGIN_L + MARGIN_R + ngroups * (t.nrows * 44.0 + GROUP_GAP);
	if (width < W_MIN)
		width = W_MIN;
	height = TITLE_H + nu * PANEL_H + t.nrows * LEGEND_ROW + 12;
	fd = sb_fs_out_begin(path, tmp, sizeof(tmp), "--chart", err);
	if (fd < 0) {
		r = fd;
		goto out;
	}
	close(fd);  /* cairo writes it by name: a new file of ours, not a link */
	if (svg)
		s = cairo_svg_surface_create(tmp, width, height);
	else
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)width, (int)height);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		r = sb_err_set(err, -EIO, "--chart %s: %s", path,
			       cairo_status_to_string(cairo_surface_status(s)));
		goto out;
	}
	cr = cairo_create(s);
	if (draw(cr, &t, units, nu, width, height) < 0) {
		r = sb_err_set(err, -EIO, "--chart %s: drawing failed: %s", path,
			       cairo_status_to_string(cairo_status(cr)));
		goto out;
	}
	cairo_destroy(cr);
	cr = NULL;
	if (!svg) {
		cairo_status_t st = cairo_surface_write_to_png(s, tmp);
		if (st != CAIRO_STATUS_SUCCESS) {
			r = sb_err_set(err, -EIO, "--chart %s: %s", path, cairo_status_to_string(st));
			goto out;
		}
	}
	cairo_surface_finish(s);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		r = sb_err_set(err, -EIO, "--chart %s: %s", path,
			       cairo_status_to_string(cairo_surface_status(s)));
out:
	if (cr)
		cairo_destroy(cr);
	if (s)
		cairo_surface_destroy(s);
	if (fd >= 0)
		r = sb_fs_out_end(tmp, path, r, "--chart", err);
	free(units);
	sb_table_free(&t);
	return r;
}
