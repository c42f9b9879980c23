/* The comparison table: rows = stacks (results files of the same stack are
 * pooled as repetitions), columns = a registry of extractors chosen by name.
 * One model (struct sb_table) feeds every output format and the chart; the
 * formats and their renderers are format.h's and render.h's, not this
 * header's, so the model depends on no renderer. */
#ifndef SB_REPORT_TABLE_H
#define SB_REPORT_TABLE_H

#include <stdio.h>
#include <json-c/json.h>

#include "util/err.h"

#include "report/format.h"
#include "report/layer_report.h"
#include "report/verdict.h"

struct sb_table_opts {
	enum sb_table_format format;
	const char *columns;   /* "write,read,fio-matrix.read_qd32_j4"; NULL = the Helios4 columns */
	const char *baseline;  /* stack name whose row is 100%, or NULL */
	const char *const *paths; /* file of each results object, for the HTML report; may be NULL */
	const char *pivot;     /* "host": stacks as rows, one column per figure and host; NULL = flat */
};

/* ---- the model, shared by build.c, the renderers, chart.c and the tests ---- */

#define SB_COL_NAME_MAX 128
#define SB_CELL_STR_MAX 128

struct sb_col_def;

struct sb_column {
	const struct sb_col_def *def;
	char name[SB_COL_NAME_MAX];   /* as the user wrote it: "write", "util:loop0" */
	char arg[SB_COL_NAME_MAX];    /* what follows the registry prefix, if any */
	char header[SB_COL_NAME_MAX]; /* "write MB/s" */
	char unit[16];                /* "MB/s", "/s", "%", "ms"; "" for text columns */
	int numeric;
	/* a layer's own column (layer_report.h): its row and its layer */
	const struct sb_layer_column *lcol;
	struct sb_report_layer layer;
};

struct sb_cell {
	int present;                  /* 0: no data ("-") */
	char str[SB_CELL_STR_MAX];    /* text columns */
	double med, min, max;         /* numeric columns: over all repetitions */
	unsigned n;                   /* number of samples */
	double pct;                   /* % of the baseline row's median; valid if has_pct */
	int has_pct;
	int bound;                    /* a sample was bound by the machine (bound_by_machine) */
	unsigned nv;                  /* samples kept below (the first SB_CELL_SAMPLES of n) */
	double v[SB_CELL_SAMPLES];    /* every sample, in the results' order */
	unsigned rep[SB_CELL_SAMPLES]; /* its repetition (round) in its file, 0 if unknown */
	struct sb_verdict verdict;    /* against the baseline's cell (verdict.h); has == 0 if none */
};

/* The mark a machine-bound cell carries in text and Markdown, and its
 * footnote (every format says it: CSV and JSON with a field). */
#define SB_BOUND_MARK " \xe2\x80\xa0"   /* " †" */
#define SB_BOUND_NOTE "\xe2\x80\xa0 bound by the machine, not the stack: at least 80 % of the same suite " \
	"on a RAM disk (tmpfs) in the same kernel"

struct sb_table {
	unsigned nrows, ncols;
	struct sb_column *cols;
	char **row_stack;             /* stack name of each row */
	struct json_object **row_first; /* first results object of each row */
	struct sb_cell *cells;        /* nrows * ncols, row-major */
	int baseline;                 /* row index of the baseline, -1 if none */
	int any_reps;                 /* some numeric cell has n > 1 */
	int any_verdict;              /* some cell has a verdict (or says why not) */
};

static inline struct sb_cell *sb_table_cell(const struct sb_table *t, unsigned r, unsigned c)
{
	return &t->cells[r * t->ncols + c];
}

int sb_table_build(struct json_object *const *results, unsigned n,
		   const struct sb_table_opts *o, struct sb_table *t, struct sb_err *err);
void sb_table_free(struct sb_table *t);

/* pivot.c: flat (rows = stack x host) -> out (rows = stacks; the text
 * columns other than host, then each numeric column once per host, in
 * order of first appearance, headed "HEADER @ HOST"). */
int sb_table_pivot_host(const struct sb_table *flat, struct sb_table *out, struct sb_err *err);

/* columns.c: resolve one name from the registry. */
int sb_column_resolve(const char *name, struct sb_column *col, struct sb_err *err);
/* Fill cell from one stack's results files (n of them). */
void sb_column_extract(const struct sb_column *col, struct json_object *const *res,
		       unsigned n, struct sb_cell *cell);
/* SUITE.FIGURE columns take their unit from the first file that has the figure. */
void sb_column_probe(struct sb_column *col, struct json_object *const *res, unsigned n);
/* The suite a numeric column's figures come from ("bonnie", "dd"), "" if none. */
void sb_column_suite(const struct sb_column *col, char *buf, size_t len);
/* Names the registry knows, for error messages and --help. */
const char *sb_column_names(void);

/* cells.c: median of n values (sorted copy), min, max. */
double sb_stats_median(const double *v, unsigned n);
void sb_stats_minmax(const double *v, unsigned n, double *min, double *max);

/* Figure value converted to unit want ("MB/s" from "MiB/s", "KiB/s", "GB/s"...;
 * "ms" from "ns"/"us"/"s"). Returns 0 and stores it, or -EINVAL when the
 * units cannot be converted. */
int sb_unit_convert(double v, const char *from, const char *want, double *out);

/* Number as the table prints it: >= 10 as an integer, else 3 significant digits. */
void sb_num_format(double v, char *buf, size_t len);

/* A numeric cell as every table prints it: "146", "162 (160–164)". */
void sb_cell_format(const struct sb_cell *x, char *buf, size_t len);

/* One RFC 4180 field: quoted only when it holds a comma, quote, CR or LF;
 * preceded by a comma unless first. */
void sb_csv_field(FILE *out, const char *s, int first);

#endif
