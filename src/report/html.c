/* The HTML report page: head with the inline stylesheet (screen and print),
 * the comparison table (the table model of table.h, built by build.c, so compare's rows,
 * columns, units and baseline), the charts, one section per stack, the list
 * of results files every number comes from, and a small inline script that
 * makes the tables sortable. The page reads fully without the script. */
#include "report/html.h"
#include "report/notes.h"
#include "report/html_int.h"
#include "report/results.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"

/* ---- page ---- */

static const char css[] =
	":root{--ink:#1a1a1a;--muted:#555;--rule:#ccc;--bg:#fff;--hi:#fff3c4}"
	"body{font:15px/1.45 system-ui,'DejaVu Sans',sans-serif;color:var(--ink);background:var(--bg);"
	"max-width:1100px;margin:0 auto;padding:1em 1.5em}"
	"h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.3em;border-bottom:2px solid var(--ink);margin-top:1.6em}"
	"h3{font-size:1.1em;margin-top:1.4em}h4{font-size:1em;margin:1em 0 .3em}"
	".lede{color:var(--muted);margin:.2em 0 1em}"
	"table{border-collapse:collapse;margin:.4em 0 1em;font-variant-numeric:tabular-nums}"
	"caption{text-align:left;color:var(--muted);font-size:.9em;padding:.2em 0;caption-side:top}"
	"th,td{border:1px solid var(--rule);padding:.2em .5em;vertical-align:top}"
	"thead th{background:#f0f0f0;text-align:left}td.num,th.num{text-align:right;white-space:nowrap}"
	"tbody th{text-align:left;font-weight:600}.unit{font-weight:400;color:var(--muted)}"
	"th button.sort{font:inherit;font-weight:600;border:0;background:none;padding:0;cursor:pointer;"
	"text-align:inherit;color:inherit}th button.sort::after{content:' \\2195';color:#999}"
	"th[aria-sort=ascending] button.sort::after{content:' \\2191'}"
	"th[aria-sort=descending] button.sort::after{content:' \\2193'}"
	".kv{font-size:.85em}.kv code{color:#333}.mismatch{background:var(--hi)}"
	"figure.chart{margin:1em 0;break-inside:avoid}figure.chart svg{width:100%;height:auto;max-width:900px}"
	"figcaption{font-size:.88em;color:var(--muted)}svg text{font-family:'DejaVu Sans',sans-serif}"
	".legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3em 1.2em;font-size:.9em}"
	".legend svg,.sw{vertical-align:middle}"
	"pre{background:#f6f6f6;border:1px solid var(--rule);padding:.5em;overflow-x:auto;white-space:pre-wrap;"
	"word-break:break-all;font-size:.85em}"
	".heat td{text-align:right;font-size:.85em}table.layers th,table.heat th{white-space:normal}.heat tbody th{white-space:nowrap}"
	"table.layers,table.heat{font-size:.85em}.notes li{margin:.2em 0}"
	".src li{font-size:.9em;word-break:break-all}.fn{font-size:.85em;color:var(--muted)}"
	"section.stack{border-top:1px solid var(--rule);margin-top:1.5em}"
	"nav ul{padding-left:1.2em;columns:2}"
	"@page{margin:12mm}"
	"@media print{body{font-size:9pt;max-width:none;padding:0}nav{display:none}"
	"th button.sort::after{content:none}h2{break-after:avoid}h3,h4{break-after:avoid}"
	"table,figure.chart,pre{break-inside:avoid}section.stack{break-before:auto}"
	"figure.chart svg{max-width:100%}th,td{padding:.1em .3em}td.num,th.num{white-space:normal}table.layers,table.heat,table.facts{font-size:7.5pt}a{color:inherit;text-decoration:none}"
	".mismatch{outline:1px solid #000}}";

/* Sorting by column, added by the script only: rows keep their cells, so
 * reading order without the script is the table's own (compare's). Cells
 * carry their sort key in data-v (numbers) or are sorted by text; a missing
 * value sorts last either way. */
static const char js[] =
	"(function(){function key(c){if(!c)return null;var v=c.getAttribute('data-v');"
	"if(v!==null)return v===''?null:parseFloat(v);var t=c.textContent.trim();return t==='-'||t===''?null:t;}"
	"document.querySelectorAll('table.sortable').forEach(function(t){"
	"var hr=t.tHead.rows[t.tHead.rows.length-1];Array.prototype.forEach.call(hr.cells,function(th,i){"
	"var b=document.createElement('button');b.type='button';b.className='sort';"
	"while(th.firstChild)b.appendChild(th.firstChild);th.appendChild(b);"
	"b.addEventListener('click',function(){var asc=th.getAttribute('aria-sort')!=='ascending';"
	"Array.prototype.forEach.call(hr.cells,function(o){o.removeAttribute('aria-sort');});"
	"th.setAttribute('aria-sort',asc?'ascending':'descending');var tb=t.tBodies[0];"
	"var rows=Array.prototype.slice.call(tb.rows);rows.sort(function(a,b){var x=key(a.cells[i]),y=key(b.cells[i]);"
	"if(x===null)return y===null?0:1;if(y===null)return -1;var r=(typeof x==='number'&&typeof y==='number')?x-y:"
	"String(x).localeCompare(String(y));return asc?r:-r;});rows.forEach(function(r){tb.appendChild(r);});});});});"
	"})();";

/* "write MB/s" -> "write" and the unit in its own span. */
static void col_header(FILE *out, const struct sb_column *c)
{
	size_t hl = strlen(c->header), ul = strlen(c->unit);

	if (ul && hl > ul + 1 && !strcmp(c->header + hl - ul, c->unit) && c->header[hl - ul - 1] == ' ') {
		sb_html_escf(out, "%.*s", (int)(hl - ul - 1), c->header);
		fputs(" <span class=\"unit\">", out);
		sb_html_esc(out, c->unit);
		fputs("</span>", out);
	} else {
		sb_html_esc(out, c->header);
	}
}

static void cell_value(FILE *out, const struct sb_cell *x)
{
	char buf[SB_CELL_STR_MAX];

	sb_cell_format(x, buf, sizeof(buf));
	fputs(buf, out);
	if (x->bound)   /* the same mark as compare's text ("SB_BOUND_MARK") */
		fputs("<sup><a href=\"#fn-bound\" title=\"bound by the machine, not the stack\">" SB_BOUND_MARK
		      "</a></sup>", out);
}

/* compare's last column, "notes" (n and footnote numbers), only where a row
 * has something to say - as in every other format. */
static bool notes_wanted(const struct sb_notes *n, const struct sb_table *t)
{
	for (unsigned r = 0; n && r < t->nrows && r < SB_NOTES_ROWS; r++)
		if (n->nrow[r] || n->reps[r] > 1)
			return true;
	return false;
}

static void notes_list(FILE *out, const struct sb_notes *n)
{
	if (!n->n)
		return;
	fputs("<ol class=\"fn\" id=\"fn-notes\">\n", out);
	for (unsigned k = 0; k < n->n; k++) {
		fputs("<li>", out);
		sb_html_esc(out, n->text[k]);
		fputs("</li>\n", out);
	}
	fputs("</ol>\n", out);
}

static void table_head(const struct sb_html *h, bool notes)
{
	const struct sb_table *t = h->t;
	FILE *out = h->out;

	fputs("<thead><tr>", out);
	for (unsigned c = 0; c < t->ncols; c++) {
		fprintf(out, "<th scope=\"col\"%s>", t->cols[c].numeric ? " class=\"num\"" : "");
		col_header(out, &t->cols[c]);
		fputs("</th>", out);
		if (t->baseline >= 0 && t->cols[c].numeric) {
			fputs("<th scope=\"col\" class=\"num\">% of ", out);
			sb_html_esc(out, t->row_stack[t->baseline]);
			fputs("</th>", out);
		}
	}
	if (notes)
		fputs("<th scope=\"col\">notes</th>", out);
	fputs("</tr></thead>\n", out);
}

/* The comparison table; returns whether some cell was bound by the machine. */
static int comparison_table(const struct sb_html *h)
{
	const struct sb_table *t = h->t;
	FILE *out = h->out;
	struct sb_notes *notes = calloc(1, sizeof(*notes));
	char id[160], marks[256];
	bool with_notes;
	int bound = 0;

	if (notes)
		sb_notes_collect(t, notes);
	with_notes = notes_wanted(notes, t);

	fputs("<table class=\"sortable cmp\" id=\"comparison\">\n<caption>One row per stack; "
	      "throughput in MB/s = 10<sup>6</sup> bytes per second. With repetitions a cell is the median "
	      "(min\xe2\x80\x93max). The first column links to the stack's section, which names its "
	      "results files. Sortable by column where scripts run.</caption>\n", out);
	table_head(h, with_notes);
	fputs("<tbody>\n", out);
	for (unsigned r = 0; r < t->nrows; r++) {
		sb_html_stack_id(h, r, id, sizeof(id));
		fputs("<tr>", out);
		for (unsigned c = 0; c < t->ncols; c++) {
			const struct sb_cell *x = sb_table_cell(t, r, c);

			if (c == 0) {
				fprintf(out, "<th scope=\"row\"><a href=\"#%s\">", id);
				if (t->cols[c].numeric && x->present)
					cell_value(out, x);
				else
					sb_html_esc(out, x->present ? x->str : "-");
				fputs("</a></th>", out);
			} else if (!t->cols[c].numeric) {
				fputs("<td>", out);
				sb_html_esc(out, x->present ? x->str : "-");
				fputs("</td>", out);
			} else if (!x->present) {
				fputs("<td class=\"num\" data-v=\"\">-</td>", out);
			} else {
				fprintf(out, "<td class=\"num\" data-v=\"%.6g\">", x->med);
				cell_value(out, x);
				fputs("</td>", out);
				bound |= x->bound;
			}
			if (t->baseline >= 0 && t->cols[c].numeric) {
				if (x->has_pct)
					fprintf(out, "<td class=\"num\" data-v=\"%.6g\">%.0f%%</td>", x->pct, x->pct);
				else
					fputs("<td class=\"num\" data-v=\"\">-</td>", out);
			}
		}
		if (with_notes) {
			sb_notes_marks(notes, r, marks, sizeof(marks));
			fputs("<td>", out);
			sb_html_esc(out, marks);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	if (with_notes)
		notes_list(out, notes);
	free(notes);
	return bound;
}

static void sources(const struct sb_html *h)
{
	FILE *out = h->out;

	fputs("<section id=\"sources\"><h2>Results files</h2>\n<p>Every number on this page comes "
	      "from one of these files (stackbench results schema <code>" SB_RESULTS_SCHEMA "</code>); "
	      "<code>stackbench compare</code> on them prints the same table.</p>\n<ol class=\"src\">\n", out);
	for (unsigned i = 0; i < h->n; i++) {
		struct json_object *r = h->res[i];
		char buf[64];

		fprintf(out, "<li id=\"src-%u\"><code>", i + 1);
		sb_html_esc(out, sb_html_path(h, i, buf, sizeof(buf)));
		fputs("</code>: stack <strong>", out);
		sb_html_esc(out, sb_results_stack_name(r));
		fputs("</strong>, ", out);
		sb_html_esc(out, *sb_results_started(r) ? sb_results_started(r) : "?");
		fputs(" \xe2\x80\x93 ", out);
		sb_html_esc(out, *sb_results_finished(r) ? sb_results_finished(r) : "?");
		fputs(", host ", out);
		sb_html_esc(out, *sb_results_host_name(r) ? sb_results_host_name(r) : "?");
		fputs(", stackbench ", out);
		sb_html_esc(out, sb_json_str(r, "stackbench_version", "?"));
		fputs("</li>\n", out);
	}
	fputs("</ol></section>\n", out);
}

/* The earliest start and latest finish, and whether any was sandboxed. */
static void lede(const struct sb_html *h)
{
	const char *first = NULL, *last = NULL;
	int sandbox = 0;

	for (unsigned i = 0; i < h->n; i++) {
		const char *s = *sb_results_started(h->res[i]) ? sb_results_started(h->res[i]) : NULL;
		const char *f = *sb_results_finished(h->res[i]) ? sb_results_finished(h->res[i]) : s;

		if (s && (!first || strcmp(s, first) < 0))
			first = s;
		if (f && (!last || strcmp(f, last) > 0))
			last = f;
		sandbox |= sb_results_sandboxed(h->res[i]);
	}
	fprintf(h->out, "<p class=\"lede\">%u stack%s from %u results file%s, measured ", h->t->nrows,
		h->t->nrows == 1 ? "" : "s", h->n, h->n == 1 ? "" : "s");
	sb_html_esc(h->out, first ? first : "?");
	fputs(" \xe2\x80\x93 ", h->out);
	sb_html_esc(h->out, last ? last : "?");
	if (sandbox)
		fputs(". Some or all figures were measured inside the throwaway user-mode-linux kernel: "
		      "compare them only with stacks measured the same way", h->out);
	fputs(".</p>\n", h->out);
}

static void nav(const struct sb_html *h)
{
	char id[160], name[512];

	fputs("<nav aria-label=\"contents\"><ul><li><a href=\"#comparison\">Comparison</a></li>"
	      "<li><a href=\"#charts\">Charts</a></li>", h->out);
	for (unsigned r = 0; r < h->t->nrows; r++) {
		sb_html_stack_id(h, r, id, sizeof(id));
		fprintf(h->out, "<li><a href=\"#%s\">", id);
		sb_html_esc(h->out, sb_html_row_name(h, r, name, sizeof(name)));
		fputs("</a></li>", h->out);
	}
	fputs("<li><a href=\"#sources\">Results files</a></li></ul></nav>\n", h->out);
}

static int page(const struct sb_html *h, struct sb_err *err)
{
	FILE *out = h->out;
	int r;

	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"generator\" content=\"stackbench %s\">\n<title>stackbench report: %u stack%s compared</title>\n"
		"<style>%s</style>\n</head>\n<body>\n", SB_VERSION, h->t->nrows,
		h->t->nrows == 1 ? "" : "s", css);
	sb_html_pattern_defs(out, h->t->nrows);
	fprintf(out, "<header><h1>stackbench report: %u stack%s compared</h1>\n", h->t->nrows,
		h->t->nrows == 1 ? "" : "s");
	lede(h);
	fputs("</header>\n<main>\n", out);
	nav(h);
	fputs("<section id=\"table\"><h2>Comparison</h2>\n", out);
	if (comparison_table(h))
		fputs("<p class=\"fn\" id=\"fn-bound\">" SB_BOUND_MARK " bound by the machine, not the stack: this figure "
		      "reached 80 % or more of what the same suite measured on a RAM-backed device in the "
		      "same kernel, so it measures the machine rather than the stack.</p>\n", out);
	fputs("</section>\n", out);
	sb_html_verdicts(h);
	r = sb_html_charts(h, err);
	if (r < 0)
		return r;
	sb_html_stacks(h);
	sources(h);
	fprintf(out, "</main>\n<footer class=\"fn\"><p>Written by stackbench %s. Self-contained: no "
		"request leaves this page.</p></footer>\n<script>%s</script>\n</body>\n</html>\n",
		SB_VERSION, js);
	return 0;
}

int sb_html_render(struct json_object *const *results, const char *const *paths, unsigned n,
		   const struct sb_table_opts *o, FILE *out, struct sb_err *err)
{
	struct sb_table t;
	struct sb_html h = { .out = out, .res = results, .paths = paths, .n = n, .t = &t };
	int r;

	r = sb_table_build(results, n, o, &t, err);
	if (r < 0)
		return r;
	r = page(&h, err);
	sb_table_free(&t);
	if (!r && (fflush(out) != 0 || ferror(out)))
		r = sb_err_sys(err, -EIO, "writing the HTML report");
	return r;
}

int sb_html_write(struct json_object *const *results, const char *const *paths, unsigned n,
		  const struct sb_table_opts *o, const char *path, struct sb_err *err)
{
	char tmp[4200], what[4200];
	FILE *f;
	int fd, r;

	snprintf(what, sizeof(what), "--report %s", path);
	fd = sb_fs_out_begin(path, tmp, sizeof(tmp), what, err);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		r = sb_err_sys(err, -errno, "%s", what);
		close(fd);
		return sb_fs_out_end(tmp, path, r, what, err);
	}
	r = sb_html_render(results, paths, n, o, f, err);
	if (fclose(f) != 0 && !r)
		r = sb_err_sys(err, -EIO, "%s: writing failed", what);
	return sb_fs_out_end(tmp, path, r, what, err);
}
