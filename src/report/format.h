/* The output formats of compare, run and fleet: one table of {name,
 * render} in format.c. A format renders results files; most build the
 * table model first (table.h), bonnie-csv, fio-matrix and html read the
 * files themselves. A new format is one renderer and one row. */
#ifndef SB_REPORT_FORMAT_H
#define SB_REPORT_FORMAT_H

#include <stdio.h>
#include <json-c/json.h>

#include "util/err.h"

/* The index of a row of the format table (format.c keeps them in step). */
enum sb_table_format {
	SB_FMT_TEXT = 0,
	SB_FMT_MARKDOWN,
	SB_FMT_CSV,
	SB_FMT_JSON,
	SB_FMT_BONNIE_CSV,
	SB_FMT_HTML,
	SB_FMT_FIO_MATRIX,       /* the home-NAS table: fio-matrix cells x devices (fio_matrix.c) */
	SB_FMT_COUNT
};

struct sb_table_opts;

/* A format's name ("text", "markdown" or "md", ...) -> format; -EINVAL
 * naming every format otherwise. */
int sb_table_format_parse(const char *s, enum sb_table_format *out, struct sb_err *err);

/* The table, in its order: the i-th format's name, NULL past the last. */
const char *sb_table_format_name(size_t i);
/* The names, comma-separated, for messages. */
const char *sb_table_format_names(void);

/* results[0..n) in the format o->format, written to out. */
int sb_table_render(struct json_object *const *results, unsigned n,
		    const struct sb_table_opts *o, FILE *out, struct sb_err *err);

#endif
