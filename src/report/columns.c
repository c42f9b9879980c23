/* The column registry: options as data. Each column is a name the user can
 * give to --columns, a header, a unit and an extractor that turns one
 * stack's results files into a cell. Fixed columns are rows of the table
 * below; a layer's own columns (LUKS's cipher, md's degraded) are rows of
 * its ops (layer_report.h), found through the layer registry;
 * "SUITE.FIGURE", "SUITE.JOB.pNN" and "util:DEV" are resolved by pattern. */
#include "report/table.h"
#include "report/results.h"
#include "util/json.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*sb_extract_fn)(const struct sb_column *col, struct json_object *const *res,
			      unsigned n, struct sb_cell *cell);

struct sb_col_def {
	const char *name;
	const char *header;
	const char *unit;
	int numeric;
	sb_extract_fn extract;
	const char *suite, *figure; /* for figure and CPU columns */
};

/* ---- samples ---- */

#define MAX_SAMPLES 256

struct samples {
	double v[MAX_SAMPLES];
	unsigned rep[MAX_SAMPLES]; /* each sample's repetition (round), 0 if unknown */
	unsigned next_rep;         /* the repetition of the sample added next */
	unsigned n;
	int bound;        /* some sample is marked bound_by_machine */
};

static void add_sample(struct samples *s, double v)
{
	if (s->n < MAX_SAMPLES && isfinite(v)) {
		s->rep[s->n] = s->next_rep;
		s->v[s->n++] = v;
	}
}

static void cell_from_samples(struct sb_cell *cell, const struct samples *s)
{
	if (!s->n)
		return;
	cell->present = 1;
	cell->n = s->n;
	cell->bound = s->bound;
	cell->med = sb_stats_median(s->v, s->n);
	sb_stats_minmax(s->v, s->n, &cell->min, &cell->max);
	cell->nv = s->n < SB_CELL_SAMPLES ? s->n : SB_CELL_SAMPLES;
	memcpy(cell->v, s->v, cell->nv * sizeof(*cell->v));
	memcpy(cell->rep, s->rep, cell->nv * sizeof(*cell->rep));
}

/* Length of o if it is an array, else 0: json-c asserts on non-arrays. */
static size_t alen(struct json_object *o)
{
	return json_object_is_type(o, json_type_array) ? json_object_array_length(o) : 0;
}

static int is_num(struct json_object *o)
{
	return o && (json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int));
}

static const char *str_or(struct json_object *o, const char *dflt)
{
	return o && json_object_is_type(o, json_type_string) ? json_object_get_string(o) : dflt;
}

/* Call fn for every suite object named suite (all repetitions) in every file. */
#define FOR_EACH_SUITE(res, n, suite, s)                                          \
	for (unsigned _f = 0; _f < (n); _f++)                                     \
		for (size_t _i = 0; ((s) = sb_results_suite(res[_f], _i)); _i++)  \
			if (!strcmp(sb_results_suite_name(s), (suite)))

/* ---- numeric extractors ---- */

static void figure_samples(const char *suite, const char *figure, const char *key,
			   const char *want_unit, struct json_object *const *res,
			   unsigned n, struct samples *out)
{
	struct json_object *s;

	FOR_EACH_SUITE(res, n, suite, s) {
		struct json_object *f = sb_json_get(sb_results_suite_figures(s), figure), *v = sb_json_get(f, key);
		double x;

		if (!is_num(v))
			continue;
		x = json_object_get_double(v);
		/* one file's repetitions are rounds that can be paired */
		out->next_rep = n == 1 && is_num(sb_json_get(s, "repetition")) ?
			(unsigned)json_object_get_int(sb_json_get(s, "repetition")) : 0;
		if (want_unit && *want_unit &&
		    sb_unit_convert(x, str_or(sb_json_get(f, "unit"), want_unit), want_unit, &x) < 0)
			continue;
		add_sample(out, x);
		if (!strcmp(key, "value") && sb_json_get(f, "bound_by_machine") &&
		    json_object_get_boolean(sb_json_get(f, "bound_by_machine")))
			out->bound = 1;
	}
}

static void ex_figure(const struct sb_column *col, struct json_object *const *res,
		      unsigned n, struct sb_cell *cell)
{
	struct samples s = { .n = 0 };

	figure_samples(col->def->suite, col->def->figure, "value", col->unit, res, n, &s);
	cell_from_samples(cell, &s);
}

static void ex_cpu(const struct sb_column *col, struct json_object *const *res,
		   unsigned n, struct sb_cell *cell)
{
	struct samples s = { .n = 0 };

	figure_samples(col->def->suite, col->def->figure, "cpu_pct", NULL, res, n, &s);
	cell_from_samples(cell, &s);
}

/* SUITE.FIGURE: the unit is the first sample's, others are converted to it. */
static void ex_suite_figure(const struct sb_column *col, struct json_object *const *res,
			    unsigned n, struct sb_cell *cell)
{
	char suite[SB_COL_NAME_MAX];
	const char *dot = strchr(col->arg, '.');
	struct samples s = { .n = 0 };

	snprintf(suite, sizeof(suite), "%.*s", (int)(dot - col->arg), col->arg);
	figure_samples(suite, dot + 1, "value", col->unit, res, n, &s);
	cell_from_samples(cell, &s);
}

/* Unit of SUITE.FIGURE as the first file that has it states it. */
static void probe_unit(struct sb_column *col, struct json_object *const *res, unsigned n)
{
	char suite[SB_COL_NAME_MAX];
	const char *dot = strchr(col->arg, '.');
	struct json_object *s;

	snprintf(suite, sizeof(suite), "%.*s", (int)(dot - col->arg), col->arg);
	FOR_EACH_SUITE(res, n, suite, s) {
		const char *u = str_or(sb_json_get(sb_json_get(sb_results_suite_figures(s), dot + 1), "unit"), NULL);
		if (u) {
			snprintf(col->unit, sizeof(col->unit), "%s", u);
			return;
		}
	}
}

static int valid_pct(const char *p)
{
	char *end;

	if (p[0] != 'p' || !isdigit((unsigned char)p[1]))
		return 0;
	strtod(p + 1, &end);
	return *end == '\0';
}

/* The dot before the percentile in "SUITE.JOB.p99.9", or NULL. */
static const char *pct_dot(const char *name)
{
	const char *p, *found = NULL;

	for (p = strchr(name, '.'); p; p = strchr(p + 1, '.'))
		if (valid_pct(p + 1))
			found = p;
	return found;
}

/* SUITE.JOB.pNN (completion latency percentile, ms): fio-shaped jobs,
 * named by "jobname" (fio) or "name"; the worse of read and write. */
static void ex_latency(const struct sb_column *col, struct json_object *const *res,
		       unsigned n, struct sb_cell *cell)
{
	char suite[SB_COL_NAME_MAX], job[SB_COL_NAME_MAX];
	const char *d1 = strchr(col->arg, '.'), *d2 = pct_dot(col->arg);
	double want = strtod(d2 + 2, NULL);
	struct samples smp = { .n = 0 };
	struct json_object *s;

	snprintf(suite, sizeof(suite), "%.*s", (int)(d1 - col->arg), col->arg);
	snprintf(job, sizeof(job), "%.*s", (int)(d2 - d1 - 1), d1 + 1);
	FOR_EACH_SUITE(res, n, suite, s) {
		struct json_object *jobs = sb_json_get(s, "jobs");
		size_t j;

		for (j = 0; j < alen(jobs); j++) {
			struct json_object *jo = json_object_array_get_idx(jobs, j);
			const char *dirs[] = { "read", "write" };
			double worst = -1;
			unsigned d;

			if (strcmp(str_or(sb_json_get(jo, "jobname"), str_or(sb_json_get(jo, "name"), "")), job))
				continue;
			for (d = 0; d < 2; d++) {
				struct json_object *pct = sb_json_get(sb_json_get(sb_json_get(jo, dirs[d]), "clat_ns"), "percentile");

				if (!pct || !is_num(sb_json_get(sb_json_get(jo, dirs[d]), "io_bytes")) ||
				    json_object_get_int64(sb_json_get(sb_json_get(jo, dirs[d]), "io_bytes")) <= 0)
					continue;
				json_object_object_foreach(pct, k, v) {
					if (fabs(strtod(k, NULL) - want) < 1e-6 && is_num(v) &&
					    json_object_get_double(v) > worst)
						worst = json_object_get_double(v);
				}
			}
			if (worst >= 0)
				add_sample(&smp, worst / 1e6);
		}
	}
	cell_from_samples(cell, &smp);
}

/* util:DEV: %util of one device, one sample per suite run that saw it (the
 * max, should a suite list the device more than once). */
static void ex_util(const struct sb_column *col, struct json_object *const *res,
		    unsigned n, struct sb_cell *cell)
{
	struct samples smp = { .n = 0 };

	for (unsigned f = 0; f < n; f++) {
		struct json_object *su;

		for (size_t i = 0; (su = sb_results_suite(res[f], i)); i++) {
			struct json_object *du = sb_json_get(su, "disk_util");
			double best = -1;

			for (size_t j = 0; j < alen(du); j++) {
				struct json_object *d = json_object_array_get_idx(du, j);

				if (!strcmp(str_or(sb_json_get(d, "name"), ""), col->arg) &&
				    is_num(sb_json_get(d, "util_pct")) &&
				    json_object_get_double(sb_json_get(d, "util_pct")) > best)
					best = json_object_get_double(sb_json_get(d, "util_pct"));
			}
			if (best >= 0)
				add_sample(&smp, best);
		}
	}
	cell_from_samples(cell, &smp);
}

/* ---- text extractors (from the first file of the stack) ---- */

static void set_str(struct sb_cell *cell, const char *s)
{
	cell->present = 1;
	snprintf(cell->str, sizeof(cell->str), "%s", s);
}

static void ex_stack(const struct sb_column *col, struct json_object *const *res,
		     unsigned n, struct sb_cell *cell)
{
	set_str(cell, sb_results_stack_name(res[0]));
}

/* A section of the stack as requested; NULL when absent or disabled
 * (sb_spec_to_json writes a disabled section as {"enabled": false}). */
static struct json_object *requested(struct json_object *r, const char *key)
{
	struct json_object *o = sb_json_get(sb_results_requested(r), key), *en;

	if (o && json_object_object_get_ex(o, "enabled", &en) && !json_object_get_boolean(en))
		return NULL;
	return o;
}

static void upper(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++)
		dst[i] = (char)toupper((unsigned char)src[i]);
	dst[i] = '\0';
}

/* "EXT4 on LUKS on LVM": every built layer's label (stack.built[].table_label,
 * as its layer gives it: sb_layer_label_built) top down, or, lacking a
 * build, every planned one's (stack.planned), or the requested filesystem. Layers without one (devices, faults,
 * mount) are left out, and so are the labels shown only where rows differ
 * (the RAID level): sb_table_build appends those. */
static void ex_setup(const struct sb_column *col, struct json_object *const *res,
		     unsigned n, struct sb_cell *cell)
{
	struct json_object *built = sb_results_layers(res[0]);
	char out[SB_CELL_STR_MAX] = "", word[64];
	size_t len = built ? json_object_array_length(built) : 0;
	int i;

	for (i = (int)len - 1; i >= 0; i--) {
		struct json_object *l = json_object_array_get_idx(built, (size_t)i);
		const char *w = json_object_get_string(sb_json_get(l, "table_label"));

		if (w && !json_object_get_boolean(sb_json_get(l, "table_label_if_differs")))
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", *out ? " on " : "", w);
	}
	if (!len) {
		upper(word, str_or(sb_json_get(requested(res[0], "fs"), "type"), "?"), sizeof(word));
		snprintf(out, sizeof(out), "%s", word);
	}
	/* export: where the suites ran, "— local" or "— SSHFS chacha20" */
	if (sb_json_get(sb_json_get(res[0], "export"), "label"))
		snprintf(out + strlen(out), sizeof(out) - strlen(out), " \xe2\x80\x94 %s",
			 str_or(sb_json_get(sb_json_get(res[0], "export"), "label"), "?"));
	set_str(cell, out);
}

static void ex_kernel(const struct sb_column *col, struct json_object *const *res,
		      unsigned n, struct sb_cell *cell)
{
	set_str(cell, str_or(sb_json_get(sb_results_host(res[0]), "kernel"), "?"));
}

static void ex_host(const struct sb_column *col, struct json_object *const *res,
		    unsigned n, struct sb_cell *cell)
{
	const char *h = sb_results_host_name(res[0]);

	set_str(cell, *h ? h : "?");
}

static void ex_sandbox(const struct sb_column *col, struct json_object *const *res,
		       unsigned n, struct sb_cell *cell)
{
	struct json_object *v = sb_json_get(sb_results_host(res[0]), "sandbox");

	set_str(cell, !v ? "?" : json_object_get_boolean(v) ? "yes (UML)" : "no");
}

/* From the results' environment: the first member's I/O scheduler ("-"
 * without it). */
static void ex_env(const struct sb_column *col, struct json_object *const *res, unsigned n,
		   struct sb_cell *cell)
{
	struct json_object *env = sb_json_get(res[0], "environment"), *v = NULL, *m;
	char buf[SB_CELL_STR_MAX];

	(void)col;
	(void)n;
	m = sb_json_get(env, "members");
	if (m && json_object_is_type(m, json_type_array) && json_object_array_length(m))
		v = sb_json_get(sb_json_get(json_object_array_get_idx(m, 0), "queue"), "scheduler");
	snprintf(buf, sizeof(buf), "%s", v ? json_object_get_string(v) : "-");
	set_str(cell, buf);
}

static const struct sb_col_def defs[] = {
	{ "stack", "Stack", "", 0, ex_stack, NULL, NULL },
	{ "setup", "Setup", "", 0, ex_setup, NULL, NULL },
	{ "host", "host", "", 0, ex_host, NULL, NULL },
	{ "write", "write", "MB/s", 1, ex_figure, "bonnie", "block_output" },
	{ "rewrite", "read-write", "MB/s", 1, ex_figure, "bonnie", "rewrite" },
	{ "read", "read", "MB/s", 1, ex_figure, "bonnie", "block_input" },
	{ "seeks", "seeks", "/s", 1, ex_figure, "bonnie", "seeks" },
	{ "create", "create", "/s", 1, ex_figure, "bonnie", "seq_create" },
	{ "cpu_write", "write CPU", "%", 1, ex_cpu, "bonnie", "block_output" },
	{ "cpu_rewrite", "read-write CPU", "%", 1, ex_cpu, "bonnie", "rewrite" },
	{ "cpu_read", "read CPU", "%", 1, ex_cpu, "bonnie", "block_input" },
	{ "kernel", "kernel", "", 0, ex_kernel, NULL, NULL },
	{ "sandbox", "sandbox", "", 0, ex_sandbox, NULL, NULL },
	{ "scheduler", "scheduler", "", 0, ex_env, NULL, NULL },
};

/* ---- a layer's own columns (layer_report.h), found through the registry ---- */

struct json_object *sb_layer_cells_built(const struct sb_layer_cells *in, unsigned f)
{
	return f < in->n ? sb_results_built_layer(in->res[f], in->layer) : NULL;
}

struct json_object *sb_layer_cells_asked(const struct sb_layer_cells *in, unsigned f)
{
	return f < in->n && in->section ? requested(in->res[f], in->section) : NULL;
}

void sb_cell_set_str(struct sb_cell *cell, const char *s)
{
	set_str(cell, s);
}

void sb_cell_set_values(struct sb_cell *cell, const double *v, unsigned n)
{
	struct samples s = { .n = 0 };

	for (unsigned i = 0; i < n; i++)
		add_sample(&s, v[i]);
	cell_from_samples(cell, &s);
}

static void ex_layer(const struct sb_column *col, struct json_object *const *res,
		     unsigned n, struct sb_cell *cell)
{
	struct sb_layer_cells in = { col->layer.name, col->layer.section, res, n };

	col->lcol->cell(&in, cell);
}

/* The i-th layer column in registry order, and its layer; NULL past the end. */
static const struct sb_layer_column *layer_col_at(unsigned i, struct sb_report_layer *l)
{
	const struct sb_layer_column *c;

	for (unsigned k = 0; sb_report_layer_at(k, l); k++)
		for (c = l->r ? l->r->columns : NULL; c && c->name; c++)
			if (!i--)
				return c;
	return NULL;
}

const char *sb_column_stack_defaults(void)
{
	static char buf[256];
	struct sb_report_layer l;
	const struct sb_layer_column *c;
	size_t n;

	if (buf[0])
		return buf;
	n = (size_t)snprintf(buf, sizeof(buf), "setup");
	for (unsigned i = 0; (c = layer_col_at(i, &l)) && n < sizeof(buf); i++)
		if (c->stack_default)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ",%s", c->name);
	return buf;
}

static const struct sb_col_def def_layer = { "LAYER", "", "", 0, ex_layer, NULL, NULL };
static const struct sb_col_def def_util = { "util:", "util", "%", 1, ex_util, NULL, NULL };
static const struct sb_col_def def_fig = { "SUITE.FIGURE", "", "", 1, ex_suite_figure, NULL, NULL };
static const struct sb_col_def def_lat = { "SUITE.JOB.pNN", "", "ms", 1, ex_latency, NULL, NULL };

/* From the registry itself, so --help, the man page and the shell
 * completion list exactly the columns that resolve. */
const char *sb_column_names(void)
{
	static char buf[1024];
	struct sb_report_layer l;
	const struct sb_layer_column *c;
	size_t i, n = 0;

	if (buf[0])
		return buf;
	for (i = 0; i < sizeof(defs) / sizeof(defs[0]) && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s, ", defs[i].name);
	for (i = 0; (c = layer_col_at((unsigned)i, &l)) && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s, ", c->name);
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n,
			 "SUITE.FIGURE (e.g. fio-matrix.read_qd32_j4), SUITE.JOB.pNN (latency percentile, "
			 "e.g. quick.randread.p99), util:DEV (e.g. util:loop0)");
	return buf;
}

static void make_header(struct sb_column *col, const char *base)
{
	if (*col->unit)
		snprintf(col->header, sizeof(col->header), "%.100s %s", base, col->unit);
	else
		snprintf(col->header, sizeof(col->header), "%s", base);
}


int sb_column_resolve(const char *name, struct sb_column *col, struct sb_err *err)
{
	const struct sb_layer_column *lc;
	const char *dot;
	size_t i;

	memset(col, 0, sizeof(*col));
	if (strlen(name) >= SB_COL_NAME_MAX)
		return sb_err_set(err, -EINVAL, "column name too long: %.40s...", name);
	snprintf(col->name, sizeof(col->name), "%s", name);
	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		if (strcmp(defs[i].name, name))
			continue;
		col->def = &defs[i];
		col->numeric = defs[i].numeric;
		snprintf(col->unit, sizeof(col->unit), "%s", defs[i].unit);
		make_header(col, defs[i].header);
		return 0;
	}
	for (i = 0; (lc = layer_col_at((unsigned)i, &col->layer)); i++) {
		if (strcmp(lc->name, name))
			continue;
		col->def = &def_layer;
		col->lcol = lc;
		col->numeric = lc->numeric;
		snprintf(col->unit, sizeof(col->unit), "%s", lc->unit);
		make_header(col, lc->header);
		return 0;
	}
	memset(&col->layer, 0, sizeof(col->layer));
	if (!strncmp(name, "util:", 5) && name[5]) {
		col->def = &def_util;
		col->numeric = 1;
		snprintf(col->arg, sizeof(col->arg), "%s", name + 5);
		snprintf(col->unit, sizeof(col->unit), "%%");
		snprintf(col->header, sizeof(col->header), "%s util %%", name + 5);
		return 0;
	}
	dot = strchr(name, '.');
	if (dot && dot != name && dot[1]) {
		const char *last = pct_dot(name);

		snprintf(col->arg, sizeof(col->arg), "%s", name);
		col->numeric = 1;
		if (last && last != dot) {
			col->def = &def_lat;
			snprintf(col->unit, sizeof(col->unit), "ms");
			make_header(col, name);
		} else {
			col->def = &def_fig; /* unit: sb_column_probe learns it from the data */
			snprintf(col->header, sizeof(col->header), "%s", name);
		}
		return 0;
	}
	return sb_err_set(err, -EINVAL, "unknown column '%s'; known: %s", name, sb_column_names());
}

void sb_column_extract(const struct sb_column *col, struct json_object *const *res,
		       unsigned n, struct sb_cell *cell)
{
	memset(cell, 0, sizeof(*cell));
	if (n)
		col->def->extract(col, res, n, cell);
}

/* For SUITE.FIGURE columns: learn the unit from the data, then head the column with it. */
void sb_column_probe(struct sb_column *col, struct json_object *const *res, unsigned n)
{
	if (col->def != &def_fig || *col->unit)
		return;
	probe_unit(col, res, n);
	make_header(col, col->name);
}

/* The suite a numeric column's figures come from ("bonnie", "dd"), "" if none. */
void sb_column_suite(const struct sb_column *col, char *buf, size_t len)
{
	const char *dot = strchr(col->arg, '.');

	if (col->def && col->def->suite)
		snprintf(buf, len, "%s", col->def->suite);
	else if (dot && col->def != &def_util)
		snprintf(buf, len, "%.*s", (int)(dot - col->arg), col->arg);
	else
		snprintf(buf, len, "%s", "");
}
