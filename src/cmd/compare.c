/* stackbench compare: results files (or directories of them) -> one table. */
#include "cmd/cmd.h"
#include "cmd/args.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/layer.h"
#include "report/backup.h"
#include "report/chart.h"
#include "report/per_layer.h"
#include "report/results.h"
#include "report/table.h"
#include "util/json.h"
#include "util/log.h"
#include "util/text.h"
#include "util/units.h"

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

/* Files named one by one keep the user's order; the files of a directory
 * come in the order they were measured ("started", then name), so a
 * build-and-test run's directory gives its rows in run order. */
static void sort_dir_groups(struct files *f, struct json_object **res)
{
	unsigned i, j;

	for (i = 1; i < f->n; i++) {
		for (j = i; j > 0 && f->group[j] && f->group[j] == f->group[j - 1] &&
			    strcmp(sb_results_started(res[j - 1]), sb_results_started(res[j])) > 0; j--) {
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
		return sb_err_set(err, -EINVAL, "%s: cannot read this results file or directory: %s",
				  arg, strerror(errno));
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

/* Read f->v[i] into l->res[l->n]; keep_going: a bad file is named in a
 * warning, dropped from f (paths and groups stay aligned with res) and
 * counted, and reading goes on. */
static int load_one(struct files *f, unsigned *i, struct sb_loaded *l, bool keep_going, struct sb_err *err)
{
	struct sb_err e = { 0 };
	int r = sb_results_read(f->v[*i], &l->res[l->n], keep_going ? &e : err);

	if (r == 0) {
		/* the labels and sections as this version's layers give them */
		sb_layer_label_results(l->res[l->n], NULL);
		f->v[l->n] = f->v[*i];
		f->group[l->n] = f->group[*i];
		l->n++;
		return 0;
	}
	if (!keep_going)
		return -EINVAL; /* any bad file is bad usage: exit 2 */
	if (sb_err_isset(err))
		sb_warn("%s", e.msg);   /* the first one is the command's error */
	else
		sb_err_set(err, -EINVAL, "%s", e.msg);
	free(f->v[*i]);
	l->nbad++;
	return 0;
}

/* The files named by args (directories expanded), read and checked, in
 * compare's order; shared with `report` and fleet's table. */
int sb_cmd_results_load_ex(char *const *args, unsigned nargs, bool keep_going, struct sb_loaded *l,
			   struct sb_err *err)
{
	struct files f = { 0 };
	unsigned i;
	int r = 0;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < nargs && r == 0; i++)
		r = expand(args[i], &f, err);
	if (r == 0 && !(l->res = calloc(f.n + 1, sizeof(*l->res))))
		r = -ENOMEM;
	for (i = 0; r == 0 && i < f.n; i++)
		r = load_one(&f, &i, l, keep_going, err);
	/* without keep_going nothing was dropped: on an error paths[] is whole */
	if (r == 0)
		f.n = l->n;
	l->paths = f.v;
	l->npaths = f.n;
	if (r == 0)
		sort_dir_groups(&f, l->res);
	free(f.group);
	if (r < 0)
		sb_cmd_results_free(l);
	return r;
}

int sb_cmd_results_load(char *const *args, unsigned nargs, struct sb_loaded *l, struct sb_err *err)
{
	return sb_cmd_results_load_ex(args, nargs, false, l, err);
}

void sb_cmd_results_free(struct sb_loaded *l)
{
	unsigned i;

	for (i = 0; i < l->n; i++)
		json_object_put(l->res[i]);
	free(l->res);
	for (i = 0; i < l->npaths; i++)
		free(l->paths[i]);
	free(l->paths);
	memset(l, 0, sizeof(*l));
}

/* --rounds LIST ("1-3", "1,2,4"): the repetitions kept, as bits 1..63 of
 * *mask. */
static int rounds_parse(const char *v, uint64_t *mask, struct sb_err *err)
{
	const char *p = v;

	*mask = 0;
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p || a < 1 || a > 63)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a || b > 63)
				goto bad;
		}
		for (; a <= b; a++)
			*mask |= 1ULL << a;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	if (*mask)
		return 0;
bad:
	return sb_args_usage_error("compare", err, "--rounds '%s': a list of rounds 1-63 such as 1-3 or 1,2,4", v);
}

/* Keep only the suites of the rounds in mask, each kept suite noting it (the
 * table's footnotes say which rounds of how many are shown); a results file
 * left with none is an error: the user picked rounds it does not have. */
static int rounds_keep(struct json_object *res, const char *list, uint64_t mask, const char *path,
		       struct sb_err *err)
{
	struct json_object *all = sb_json_get(res, "suites"), *kept, *s, *notes;
	size_t i, n = all && json_object_is_type(all, json_type_array) ? json_object_array_length(all) : 0;
	int64_t rep, most = 0;
	char note[160];

	if (!(kept = json_object_new_array()))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		rep = json_object_get_int64(sb_json_get(json_object_array_get_idx(all, i), "repetition"));
		most = rep > most ? rep : most;
		if (rep >= 1 && rep <= 63 && (mask & (1ULL << rep)))
			json_object_array_add(kept, json_object_get(json_object_array_get_idx(all, i)));
	}
	snprintf(note, sizeof(note), "only rounds %s of %lld shown (compare --rounds)", list, (long long)most);
	for (i = 0; i < json_object_array_length(kept); i++) {
		s = json_object_array_get_idx(kept, i);
		if (!json_object_is_type(s, json_type_object))
			continue;
		notes = sb_json_get(s, "notes");
		if (!notes || !json_object_is_type(notes, json_type_array)) {
			notes = json_object_new_array();
			json_object_object_add(s, "notes", notes);
		}
		json_object_array_add(notes, json_object_new_string(note));
	}
	json_object_object_add(res, "suites", kept);
	if (json_object_array_length(kept))
		return 0;
	return sb_err_set(err, -EINVAL, "%s: has no round in --rounds %s (its rounds: 1-%lld)", path, list,
			  (long long)most);
}

/* --backup-size: a size with its unit (2TiB, 500GB), text formats only. */
static int backup_size(const char *v, uint64_t *out, struct sb_err *err)
{
	struct sb_err e = { 0 };

	if (sb_size_parse(v, out, &e) < 0 || *out == 0)
		return sb_args_usage_error("compare", err, "--backup-size '%s': %s", v,
					   e.msg[0] ? e.msg : "must be more than 0");
	return 0;
}

/* The table (or per-layer table, chart, backup estimate) of the files read.
 * Text goes through a buffer to the terminal: names and notes from other
 * machines lose their control characters (no ESC, BEL on the terminal). */
static int render(struct sb_loaded *l, struct sb_table_opts *o, const char *chart, bool per_layer,
		  uint64_t backup, struct sb_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int r = 0;

	if (!mem)
		return sb_err_sys(err, -errno, "compare");
	o->paths = (const char *const *)l->paths;   /* the HTML report names each file */
	if (per_layer) {
		r = chart ? sb_per_layer_chart(l->res, l->n, chart, err) : 0;
		if (r == 0)
			r = sb_per_layer_render(l->res, l->n, o->format, mem, err);
	} else {
		if (chart)
			r = sb_chart_write(l->res, l->n, o, chart, err);
		if (r == 0 && chart)
			sb_info("chart written to %s", chart);
		if (r == 0)
			r = sb_table_render(l->res, l->n, o, mem, err);
		if (r == 0 && backup)
			sb_backup_render(l->res, l->n, backup, mem);
	}
	fclose(mem);
	sb_text_term_write(stdout, buf, len);
	free(buf);
	return r;
}

int sb_cmd_table_print(struct sb_loaded *l, struct sb_table_opts *o, struct sb_err *err)
{
	return render(l, o, NULL, false, 0, err);
}

/* The options, with the words `stackbench help compare` shows for each. */
static const struct sb_optdef opts[] = {
	{ "columns", 0, true, 'c', "LIST", "the columns to show" },
	{ "baseline", 0, true, 'b', "NAME", "each row against this stack, with verdicts when repeated" },
	{ "format", 0, true, 'f', "FORMAT", "the output format" },
	{ "chart", 0, true, 'C', "FILE.svg|FILE.png", "a chart of the figures" },
	{ "per-layer", 0, false, 'P', NULL, "one row per layer device" },
	{ "pivot", 0, true, 'p', "host", "stacks as rows, each figure once per host" },
	{ "backup-size", 0, true, 'B', "SIZE", "how long a backup of SIZE takes at the copy suite's rates" },
	{ "rounds", 0, true, 'r', "LIST", "only these rounds (repetitions), e.g. 1-3" },
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_compare(int argc, char **argv, struct sb_err *err)
{
	struct sb_table_opts o = { .format = SB_FMT_TEXT };
	struct sb_loaded l = { 0 };
	struct sb_args a;
	const char *chart = NULL, *val;
	uint64_t backup = 0, rounds = 0;
	const char *rounds_list = NULL;
	bool per_layer = false;
	unsigned i;
	int c, r = 0;

	if (sb_args_init(&a, argc, argv, 1, opts, "compare", err) < 0)
		return -ENOMEM;
	while (r == 0 && (c = sb_args_next(&a, &val, err)) > 0) {
		switch (c) {
		case 'c': o.columns = val; break;
		case 'b': o.baseline = val; break;
		case 'f': r = sb_table_format_parse(val, &o.format, err); break;
		case 'C': chart = val; break;
		case 'P': per_layer = true; break;
		case 'p': o.pivot = val; break;
		case 'B': r = backup_size(val, &backup, err); break;
		case 'r': rounds_list = val; r = rounds_parse(val, &rounds, err); break;
		}
	}
	if (r == 0 && c < 0)
		r = c;
	if (r == 0 && backup && (per_layer || (o.format != SB_FMT_TEXT && o.format != SB_FMT_MARKDOWN)))
		r = sb_args_usage_error("compare", err, "--backup-size goes with the text and markdown tables");
	if (r == 0 && !a.npos)
		r = sb_args_usage_error("compare", err, "name at least one results file or directory");
	if (r == 0)
		r = sb_cmd_results_load_ex(a.pos, (unsigned)a.npos, true, &l, err);
	for (i = 0; r == 0 && rounds && i < l.n; i++)
		r = rounds_keep(l.res[i], rounds_list, rounds, l.paths[i], err);
	if (r == 0 && l.n)
		r = render(&l, &o, chart, per_layer, backup, err);
	if (r == 0 && l.nbad) {
		size_t n = strlen(err->msg);

		if (l.n || l.nbad > 1)
			snprintf(err->msg + n, sizeof(err->msg) - n, " (%u of %u results files refused%s)",
				 l.nbad, l.nbad + l.n, l.n ? "; the table shows the others" : "");
		r = -EINVAL;
	}
	sb_cmd_results_free(&l);
	sb_args_free(&a);
	return r;
}

const struct sb_cmd sb_cmd_compare_row = {
	.name = "compare",
	.fn = sb_cmd_compare,
	.flags = SB_CMD_COLUMNS,
	.opts = opts,
	.summary = "print a comparison table from results files",
	.usage =
	  "usage: stackbench compare [--columns LIST] [--baseline NAME]\n"
	  "                          [--format " SB_USAGE_FORMATS "]\n"
	  "                          [--chart FILE.svg|FILE.png] [--per-layer] [--pivot host] [--rounds LIST]\n"
	  "                          RESULTS.json...\n"
	  "  --per-layer: one row per layer device (bench.per_layer figures, expected, % of the\n"
	  "  layer below, the limit of each layer); with --chart, the waterfall of seq reads.\n"
	  "  Results of one stack on one machine are pooled as repetitions; from several machines\n"
	  "  the table gets a host column (host.label, else hostname). --pivot host: stacks as rows,\n"
	  "  each figure once per host as columns. --backup-size SIZE (2TiB, 500GB): after the table,\n"
	  "  how long a backup of SIZE takes at each tool's rates from the copy suite.\n"
	  "  --baseline with repetitions: each figure's difference with its 95 % confidence interval and\n"
	  "  a verdict (faster, slower, no detectable difference), outliers flagged (docs/statistics.md).\n"
	  "  --rounds LIST (1-3, 1,2,4): only those repetitions of every file, each row's notes saying so\n"
	  "  (rounds a loaded machine disturbed, named before looking at the figures).\n",
};
