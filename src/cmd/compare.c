/* stackbench compare: results files (or directories of them) -> one table. */
#include "cmd/cmd.h"

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/chart.h"
#include "report/per_layer.h"
#include "report/results.h"
#include "report/table.h"
#include "util/log.h"

struct files {
	char **v;
	int *group;      /* files of one directory argument share a group > 0 */
	unsigned n, cap;
	int ngroups;
};

static int files_add(struct files *f, const char *path, int from_dir)
{
	if (f->n == f->cap) {
		unsigned cap = f->cap ? f->cap * 2 : 16;
		char **v = realloc(f->v, cap * sizeof(*v));
		int *g;

		if (!v)
			return -ENOMEM;
		f->v = v;
		g = realloc(f->group, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		f->group = g;
		f->cap = cap;
	}
	f->group[f->n] = from_dir ? f->ngroups : 0;
	f->v[f->n] = strdup(path);
	return f->v[f->n++] ? 0 : -ENOMEM;
}

static const char *started(struct json_object *res)
{
	struct json_object *v;

	return json_object_object_get_ex(res, "started", &v) ? json_object_get_string(v) : "";
}

/* Files named one by one keep the user's order; the files of a directory
 * come in the order they were measured ("started", then name), so a
 * build-and-test run's directory gives its rows in run order. */
static void sort_dir_groups(struct files *f, struct json_object **res)
{
	unsigned i, j;

	for (i = 1; i < f->n; i++) {
		for (j = i; j > 0 && f->group[j] && f->group[j] == f->group[j - 1] &&
			    strcmp(started(res[j - 1]), started(res[j])) > 0; j--) {
			struct json_object *t = res[j];
			char *p = f->v[j];

			res[j] = res[j - 1];
			res[j - 1] = t;
			f->v[j] = f->v[j - 1];
			f->v[j - 1] = p;
		}
	}
}

/* A directory stands for every *.json in it, in name order (stack-time
 * names sort by stack, then time). */
static int expand(const char *arg, struct files *f, struct sb_err *err)
{
	struct dirent **ents = NULL;
	struct stat st;
	char path[4096];
	int n, i, r = 0;
	unsigned before = f->n;

	if (stat(arg, &st) < 0)
		return sb_err_set(err, -EINVAL, "%s: %s", arg, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return files_add(f, arg, 0);
	f->ngroups++;
	n = scandir(arg, &ents, NULL, alphasort);
	if (n < 0)
		return sb_err_sys(err, -EINVAL, "%s: cannot list directory", arg);
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t l = strlen(name);

		if (!r && name[0] != '.' && l > 5 && !strcmp(name + l - 5, ".json")) {
			snprintf(path, sizeof(path), "%s/%s", arg, name);
			r = files_add(f, path, 1);
		}
		free(ents[i]);
	}
	free(ents);
	if (!r && f->n == before)
		r = sb_err_set(err, -EINVAL, "%s: no *.json results files in this directory", arg);
	return r;
}

int sb_cmd_compare(int argc, char **argv, struct sb_err *err)
{
	static const struct option longopts[] = {
		{ "columns", required_argument, NULL, 'c' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "chart", required_argument, NULL, 'C' },
		{ "per-layer", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sb_table_opts o = { .format = SB_FMT_TEXT };
	struct json_object **res = NULL;
	struct files f = { 0 };
	const char *chart = NULL;
	bool per_layer = false;
	unsigned i, nres = 0;
	int c, r = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.columns = optarg;
			break;
		case 'b':
			o.baseline = optarg;
			break;
		case 'f':
			r = sb_table_format_parse(optarg, &o.format, err);
			if (r < 0)
				return r;
			break;
		case 'C':
			chart = optarg;
			break;
		case 'P':
			per_layer = true;
			break;
		case 'h':
			sb_cmd_print_usage(sb_cmd_find("compare"));
			return 0;
		default:
			return sb_err_set(err, -EINVAL, "compare: unknown or incomplete option '%s' (see stackbench compare --help)",
					  argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return sb_err_set(err, -EINVAL, "compare: name at least one results file or directory");
	for (; optind < argc; optind++) {
		r = expand(argv[optind], &f, err);
		if (r < 0)
			goto out;
	}
	res = calloc(f.n, sizeof(*res));
	if (!res) {
		r = -ENOMEM;
		goto out;
	}
	for (i = 0; i < f.n; i++) {
		r = sb_results_read(f.v[i], &res[nres], err);
		if (r < 0) {
			r = -EINVAL; /* any bad file is bad usage: exit 2 */
			goto out;
		}
		nres++;
	}
	sort_dir_groups(&f, res);
	if (per_layer) {
		r = chart ? sb_per_layer_chart(res, nres, chart, err) : 0;
		if (r == 0)
			r = sb_per_layer_render(res, nres, o.format, stdout, err);
		goto out;
	}
	if (chart) {
		r = sb_chart_write(res, nres, &o, chart, err);
		if (r < 0)
			goto out;
		sb_info("chart written to %s", chart);
	}
	r = sb_table_render(res, nres, &o, stdout, err);
out:
	for (i = 0; i < nres; i++)
		json_object_put(res[i]);
	free(res);
	for (i = 0; i < f.n; i++)
		free(f.v[i]);
	free(f.v);
	free(f.group);
	return r;
}
