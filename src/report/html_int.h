/* Shared by the HTML report's files (html.c: page, table, sources;
 * html_chart.c: SVG charts; html_stack.c: per-stack sections; html_dev.c:
 * device heat table and per-layer view). Not for use outside src/report/. */
#ifndef SB_REPORT_HTML_INT_H
#define SB_REPORT_HTML_INT_H

#include <stdio.h>
#include <json-c/json.h>

#include "report/table.h"
#include "util/json.h"

struct sb_html {
	FILE *out;
	struct json_object *const *res;
	const char *const *paths;   /* may be NULL */
	unsigned n;
	const struct sb_table *t;   /* the comparison table: its row order is the colour order */
};

/* Text escaped for element content and quoted attribute values. */
void sb_html_esc(FILE *out, const char *s);
/* Formatted, then escaped. */
void sb_html_escf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Index of results object r in h->res, or -1. */
int sb_html_file_index(const struct sb_html *h, struct json_object *r);
/* The name of file i as the page shows it. */
const char *sb_html_path(const struct sb_html *h, unsigned i, char *buf, size_t len);
/* <a href="#src-N">path</a> for file i. */
void sb_html_src_link(const struct sb_html *h, unsigned i);
/* The files of table row `row`, comma-separated and escaped (for <title>s). */
void sb_html_stack_files(const struct sb_html *h, unsigned row);
/* Whether results file res is one of row `row`'s: the same stack on the same
 * host; whether the files come from more than one host. */
int sb_html_in_row(const struct sb_html *h, unsigned row, struct json_object *res);
int sb_html_many_hosts(const struct sb_html *h);
/* Row `row` as the page names it: its stack, "STACK on HOST" when the files
 * come from more than one host (buf holds it then). */
const char *sb_html_row_name(const struct sb_html *h, unsigned row, char *buf, size_t len);
/* id-safe "stack-ROW-NAME" for a table row. */
void sb_html_stack_id(const struct sb_html *h, unsigned row, char *buf, size_t len);
/* A stack's fill is "url(#sbp-ROW)": its colour and pattern. */
/* The hidden <svg> holding one pattern per row; a small swatch of a row. */
void sb_html_pattern_defs(FILE *out, unsigned nrows);
void sb_html_swatch(FILE *out, unsigned row);
/* html_verdict.c: the verdicts section (with --baseline and repetitions). */
void sb_html_verdicts(const struct sb_html *h);
/* Numbers as the tables print them ("-" when not finite). */
void sb_html_num(FILE *out, double v);

/* html_chart.c: one chart per figure group; 0 or -errno (err set). */
int sb_html_charts(const struct sb_html *h, struct sb_err *err);
/* html_stack.c: one section per stack (table row). */
void sb_html_stacks(const struct sb_html *h);
/* html_dev.c: device statistics per phase of one results file; the
 * per-layer view when the file has "per_layer" (nothing otherwise). */
void sb_html_heat(const struct sb_html *h, struct json_object *res, unsigned file);
void sb_html_per_layer(const struct sb_html *h, struct json_object *res, unsigned file, unsigned row);

#endif
