/* The HTML report: one self-contained HTML5 page per comparison (no network,
 * no external scripts, fonts or images; charts as inline SVG). The
 * comparison table is the table model of table.h, so its rows, columns,
 * units, --columns and --baseline are compare's. Every number on the page
 * names the results file it came from. */
#ifndef SB_REPORT_HTML_H
#define SB_REPORT_HTML_H

#include <stdio.h>
#include <json-c/json.h>

#include "report/table.h"
#include "util/err.h"

/* The page for results[0..n) (paths[i] names results[i]; paths may be
 * NULL, then the files are "results file 1", ...) written to out. */
int sb_html_render(struct json_object *const *results, const char *const *paths, unsigned n,
		   const struct sb_table_opts *o, FILE *out, struct sb_err *err);

/* The same page written to path (a temporary file renamed into place). */
int sb_html_write(struct json_object *const *results, const char *const *paths, unsigned n,
		  const struct sb_table_opts *o, const char *path, struct sb_err *err);

#endif
