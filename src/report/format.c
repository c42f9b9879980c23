/* The format table: each output format's name and the function that
 * renders it. The formats that show the table model share one wrapper
 * that builds it, renders it and frees it. */
#include "report/format.h"
#include "report/render.h"
#include "report/html.h"

#include <string.h>

#include "util/names.h"

typedef int (*render_model_fn)(const struct sb_table *t, FILE *out);

static int grid_text(const struct sb_table *t, FILE *out) { return sb_render_grid(t, 0, out); }
static int grid_md(const struct sb_table *t, FILE *out) { return sb_render_grid(t, 1, out); }
static int csv(const struct sb_table *t, FILE *out) { sb_render_csv(t, out); return 0; }
static int json(const struct sb_table *t, FILE *out) { sb_render_json(t, out); return 0; }

static int bonnie_csv(struct json_object *const *res, unsigned n, const struct sb_table_opts *o,
		      FILE *out, struct sb_err *err)
{
	return sb_bonnie_csv_write(res, n, out, err);
}

static int fio_matrix(struct json_object *const *res, unsigned n, const struct sb_table_opts *o,
		      FILE *out, struct sb_err *err)
{
	return sb_fio_matrix_write(res, n, out, err);
}

static int html(struct json_object *const *res, unsigned n, const struct sb_table_opts *o,
		FILE *out, struct sb_err *err)
{
	return sb_html_render(res, o->paths, n, o, out, err);
}

static const struct sb_format {
	const char *name, *alias;
	/* one of the two: the model's renderer, or one that reads the files */
	render_model_fn model;
	int (*files)(struct json_object *const *res, unsigned n, const struct sb_table_opts *o,
		     FILE *out, struct sb_err *err);
} formats[SB_FMT_COUNT] = {
	[SB_FMT_TEXT]       = { "text", NULL, grid_text, NULL },
	[SB_FMT_MARKDOWN]   = { "markdown", "md", grid_md, NULL },
	[SB_FMT_CSV]        = { "csv", NULL, csv, NULL },
	[SB_FMT_JSON]       = { "json", NULL, json, NULL },
	[SB_FMT_BONNIE_CSV] = { "bonnie-csv", NULL, NULL, bonnie_csv },
	[SB_FMT_HTML]       = { "html", NULL, NULL, html },
	[SB_FMT_FIO_MATRIX] = { "fio-matrix", NULL, NULL, fio_matrix },
};

const char *sb_table_format_name(size_t i)
{
	return i < SB_FMT_COUNT ? formats[i].name : NULL;
}

const char *sb_table_format_names(void)
{
	static char names[256];

	return names[0] ? names : sb_names_join(names, sizeof(names), ", ", sb_table_format_name);
}

int sb_table_format_parse(const char *s, enum sb_table_format *out, struct sb_err *err)
{
	size_t i;

	for (i = 0; i < SB_FMT_COUNT; i++)
		if (!strcmp(formats[i].name, s) || (formats[i].alias && !strcmp(formats[i].alias, s))) {
			*out = (enum sb_table_format)i;
			return 0;
		}
	return sb_err_set(err, -EINVAL, "unknown format '%s' (%s)", s, sb_table_format_names());
}

int sb_table_render(struct json_object *const *results, unsigned n,
		    const struct sb_table_opts *o, FILE *out, struct sb_err *err)
{
	const struct sb_format *f;
	struct sb_table t;
	int r;

	if ((unsigned)o->format >= SB_FMT_COUNT)
		return sb_err_set(err, -EINVAL, "unknown format %d", (int)o->format);
	f = &formats[o->format];
	if (f->files)
		return f->files(results, n, o, out, err);
	r = sb_table_build(results, n, o, &t, err);
	if (r < 0)
		return r;
	r = f->model(&t, out);
	if (r < 0)
		sb_err_set(err, r, "out of memory");
	sb_table_free(&t);
	if (!r && (fflush(out) != 0 || ferror(out)))
		r = sb_err_sys(err, -EIO, "writing the table");
	return r;
}
