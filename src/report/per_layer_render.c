/* `stackbench compare --per-layer`: one row per layer device of every
 * results file that has bench.per_layer figures, then one line per layer
 * naming its limit; and the waterfall chart of sequential reads. */
#include "report/per_layer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>
#include <cairo-svg.h>

#include "report/table.h"
#include "report/results.h"
#include "util/fs.h"
#include "util/json.h"

/* How many per-layer rows a results file has. */
static size_t nrows(struct json_object *res)
{
	struct json_object *rows = sb_results_per_layer(res);

	return rows ? json_object_array_length(rows) : 0;
}

/* "a / b / c" of three figures; "-" for an unknown one. */
static void triple(const struct sb_pl_figs *f, bool pct, char *out, size_t len)
{
	size_t o = 0;
	unsigned k;

	out[0] = '\0';
	for (k = 0; k < SB_PL_NKEYS && o < len; k++) {
		if (f->v[k] < 0)
			o += snprintf(out + o, len - o, "%s-", k ? " / " : "");
		else
			o += snprintf(out + o, len - o, "%s%.0f%s", k ? " / " : "", f->v[k], pct ? "%" : "");
	}
}

static void fig(double v, char *out, size_t len)
{
	if (v < 0)
		snprintf(out, len, "-");
	else
		snprintf(out, len, "%.0f", v);
}

#define NCOL 10
static const char *const heads[NCOL] = {
	"stack", "order", "layer", "device", "seq write MB/s", "seq read MB/s", "4k randread IOPS",
	"% of the layer below", "expected", "% of expected",
};

/* Whether the files come from more than one host: a fleet's files of one
 * stack are then told apart by host ("STACK on HOST"), never pooled. */
static bool many_hosts(struct json_object *const *res, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		if (strcmp(sb_results_host_name(res[0]), sb_results_host_name(res[i])))
			return true;
	return false;
}

static void stack_of(struct json_object *res, bool hosts, char *buf, size_t len)
{
	if (hosts)
		snprintf(buf, len, "%s on %s", sb_results_stack_name(res), sb_results_host_name(res));
	else
		snprintf(buf, len, "%s", sb_results_stack_name(res));
}

static void cells(struct json_object *res, bool hosts, struct json_object *row, char c[NCOL][160])
{
	struct sb_pl_figs m, e, b, pe;
	unsigned k;

	sb_pl_get(row, "figures", &m);
	sb_pl_get(row, "expected", &e);
	sb_pl_get(row, "pct_of_below", &b);
	for (k = 0; k < SB_PL_NKEYS; k++)
		pe.v[k] = m.v[k] >= 0 && e.v[k] > 0 ? 100 * m.v[k] / e.v[k] : -1;
	stack_of(res, hosts, c[0], 160);
	snprintf(c[1], 160, "%s", sb_json_text(row, "order"));
	snprintf(c[2], 160, "%s", sb_json_text(row, "layer"));
	snprintf(c[3], 160, "%s", sb_json_text(row, "device"));
	for (k = 0; k < SB_PL_NKEYS; k++)
		fig(m.v[k], c[4 + k], 160);
	triple(&b, true, c[7], 160);
	triple(&e, false, c[8], 160);
	triple(&pe, true, c[9], 160);
}

static void render_json(struct json_object *const *res, unsigned n, FILE *out)
{
	struct json_object *all = json_object_new_array();
	unsigned i;

	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object(), *rows = sb_results_per_layer(res[i]);

		json_object_object_add(o, "stack", json_object_new_string(sb_results_stack_name(res[i])));
		json_object_object_add(o, "host", json_object_new_string(sb_results_host_name(res[i])));
		json_object_object_add(o, "per_layer", rows ? json_object_get(rows) : json_object_new_array());
		json_object_array_add(all, o);
	}
	fprintf(out, "%s\n", json_object_to_json_string_ext(all, JSON_C_TO_STRING_PRETTY));
	json_object_put(all);
}

/* One line of the table (the head or a row): CSV fields, or columns of
 * width w, the figures right-aligned. */
static void render_line(int format, const size_t *w, const char *const *v, FILE *out)
{
	unsigned k;

	for (k = 0; k < NCOL; k++) {
		int wk = k >= 4 ? (int)w[k] : -(int)w[k];

		if (format == SB_FMT_CSV)
			sb_csv_field(out, v[k], k == 0);
		else if (format == SB_FMT_MARKDOWN)
			fprintf(out, "| %*s ", wk, v[k]);
		else
			fprintf(out, "%s%*s", k ? "  " : "", wk, v[k]);
	}
	fputs(format == SB_FMT_MARKDOWN ? "|\n" : "\n", out);
}

static void md_rule(const size_t *w, FILE *out)
{
	unsigned k;
	size_t j;

	for (k = 0; k < NCOL; k++) {
		fputs("| ", out);
		for (j = 0; j < w[k]; j++)
			fputc(k >= 4 && j == w[k] - 1 ? ':' : '-', out);
		fputc(' ', out);
	}
	fputs("|\n", out);
}

/* Each row's cells through fn: measuring the widths, then printing. */
static unsigned each_row(struct json_object *const *res, unsigned n,
			 void (*fn)(const char *const *v, void *arg), void *arg)
{
	char c[NCOL][160];
	const char *v[NCOL];
	unsigned i, k, total = 0;
	size_t j;
	bool hosts = many_hosts(res, n);

	for (k = 0; k < NCOL; k++)
		v[k] = c[k];
	for (i = 0; i < n; i++)
		for (j = 0; j < nrows(res[i]); j++) {
			cells(res[i], hosts, json_object_array_get_idx(sb_results_per_layer(res[i]), j), c);
			fn(v, arg);
			total++;
		}
	return total;
}

static void widen(const char *const *v, void *arg)
{
	size_t *w = arg;
	unsigned k;

	for (k = 0; k < NCOL; k++)
		if (strlen(v[k]) > w[k])
			w[k] = strlen(v[k]);
}

struct print_arg {
	int format;
	const size_t *w;
	FILE *out;
};

static void print_row(const char *const *v, void *arg)
{
	const struct print_arg *p = arg;

	render_line(p->format, p->w, v, p->out);
}

/* Below the table: each layer's limit, one line each, and its model's
 * note where it has one. */
static void render_limits(struct json_object *const *res, unsigned n, int format, FILE *out)
{
	unsigned i;
	size_t j;
	bool hosts = many_hosts(res, n);
	char name[256];

	fputc('\n', out);
	for (i = 0; i < n; i++)
		for (j = 0; j < nrows(res[i]); j++) {
			struct json_object *row = json_object_array_get_idx(sb_results_per_layer(res[i]), j);

			stack_of(res[i], hosts, name, sizeof(name));
			fprintf(out, "%s%s %s (%s): %s\n", format == SB_FMT_MARKDOWN ? "- " : "",
				name, sb_json_text(row, "layer"), sb_json_text(row, "device"),
				strchr(sb_json_text(row, "limit"), ':') ? strchr(sb_json_text(row, "limit"), ':') + 2 : "");
			/* the layer model's note, as the run recorded it (md's stripes) */
			if (sb_json_text(row, "model_note")[0])
				fprintf(out, "%s  %s\n", format == SB_FMT_MARKDOWN ? "  " : "", sb_json_text(row, "model_note"));
		}
}

int sb_per_layer_render(struct json_object *const *res, unsigned n, int format, FILE *out,
			struct sb_err *err)
{
	size_t w[NCOL];
	struct print_arg p = { format, w, out };
	unsigned k;

	if (format == SB_FMT_JSON) {
		render_json(res, n, out);
		return 0;
	}
	if (format != SB_FMT_TEXT && format != SB_FMT_MARKDOWN && format != SB_FMT_CSV)
		return sb_err_set(err, -EINVAL, "compare --per-layer: formats text, markdown, csv, json");
	for (k = 0; k < NCOL; k++)
		w[k] = strlen(heads[k]);
	if (!each_row(res, n, widen, w))
		return sb_err_set(err, -EINVAL, "compare --per-layer: no results file has per-layer figures "
				  "(bench.per_layer, on by default in build-and-test)");
	render_line(format, w, heads, out);
	if (format == SB_FMT_MARKDOWN)
		md_rule(w, out);
	each_row(res, n, print_row, &p);
	if (format != SB_FMT_CSV) {
		render_limits(res, n, format, out);
		sb_pl_render_verdicts(res, n, format == SB_FMT_MARKDOWN, out);
	}
	return 0;
}

/* The waterfall: one bar per layer device, sequential read (MB/s), bottom
 * layer first, the drop from the bar before shaded; one panel per file. */
static void wf_text(cairo_t *cr, double x, double y, const char *t, double align)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, t, &e);
	cairo_move_to(cr, x - e.width * align, y);
	cairo_show_text(cr, t);
}

/* Draw into file (a new temporary one); path names the chart in messages. */
static int chart_file(struct json_object *const *res, unsigned n, const char *path, const char *file,
		      struct sb_err *err)
{
	const double bw = 70, gap = 20, ph = 260, top = 50, left = 60;
	unsigned i, maxrows = 0;
	size_t j, len = strlen(path);
	cairo_surface_t *s;
	cairo_t *cr;
	double width, height;
	bool svg = len > 4 && !strcmp(path + len - 4, ".svg");

	if (!svg && !(len > 4 && !strcmp(path + len - 4, ".png")))
		return sb_err_set(err, -EINVAL, "--chart %s: the file name must end in .svg or .png", path);
	for (i = 0; i < n; i++)
		if (nrows(res[i]) > maxrows)
			maxrows = nrows(res[i]);
	if (!maxrows)
		return sb_err_set(err, -EINVAL, "compare --per-layer --chart: no per-layer figures");
	width = left + maxrows * (bw + gap) + 40;
	height = n * (ph + top + 40) + 20;
	s = svg ? cairo_svg_surface_create(file, width, height)
		: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)width, (int)height);
	cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	for (i = 0; i < n; i++) {
		struct json_object *rows = sb_results_per_layer(res[i]);
		double y0 = 20 + i * (ph + top + 40), base = y0 + top + ph, max = 1, prev = -1;
		char cap[400], v[32], name[256];
		struct sb_pl_figs f;

		for (j = 0; rows && j < json_object_array_length(rows); j++) {
			sb_pl_get(json_object_array_get_idx(rows, j), "figures", &f);
			if (f.v[1] > max)
				max = f.v[1];
		}
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_set_font_size(cr, 13);
		stack_of(res[i], many_hosts(res, n), name, sizeof(name));
		snprintf(cap, sizeof(cap), "%s: sequential read per layer (MB/s, 1 MiB QD4, raw device)", name);
		wf_text(cr, left, y0 + 16, cap, 0);
		cairo_set_font_size(cr, 10);
		for (j = 0; rows && j < json_object_array_length(rows); j++) {
			struct json_object *row = json_object_array_get_idx(rows, j);
			double x = left + j * (bw + gap), h;

			sb_pl_get(row, "figures", &f);
			h = f.v[1] > 0 ? ph * f.v[1] / max : 0;
			if (prev > f.v[1] && f.v[1] >= 0) {  /* the drop, shaded */
				cairo_set_source_rgb(cr, 0.93, 0.72, 0.70);
				cairo_rectangle(cr, x, base - ph * prev / max, bw, ph * (prev - f.v[1]) / max);
				cairo_fill(cr);
			}
			cairo_set_source_rgb(cr, 0.27, 0.47, 0.70);
			cairo_rectangle(cr, x, base - h, bw, h);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0, 0, 0);
			fig(f.v[1], v, sizeof(v));
			wf_text(cr, x + bw / 2, base - h - 4, v, 0.5);
			wf_text(cr, x + bw / 2, base + 13, sb_json_text(row, "layer"), 0.5);
			wf_text(cr, x + bw / 2, base + 26, strrchr(sb_json_text(row, "device"), '/') ?
				strrchr(sb_json_text(row, "device"), '/') + 1 : sb_json_text(row, "device"), 0.5);
			if (f.v[1] >= 0)
				prev = f.v[1];
		}
		cairo_move_to(cr, left - 5, base + 0.5);
		cairo_line_to(cr, width - 20, base + 0.5);
		cairo_stroke(cr);
	}
	cairo_destroy(cr);
	if (!svg && cairo_surface_write_to_png(s, file) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(s);
		return sb_err_set(err, -EIO, "cannot write %s", path);
	}
	cairo_surface_finish(s);
	cairo_surface_destroy(s);
	return 0;
}

int sb_per_layer_chart(struct json_object *const *res, unsigned n, const char *path,
		       struct sb_err *err)
{
	char tmp[4200];
	int fd = sb_fs_out_begin(path, tmp, sizeof(tmp), "--chart", err);

	if (fd < 0)
		return fd;
	close(fd);  /* cairo writes it by name: a new file of ours, not a link */
	return sb_fs_out_end(tmp, path, chart_file(res, n, path, tmp, err), "--chart", err);
}
