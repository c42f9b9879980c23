/* compare --per-layer with rows repeated (several results files of one
 * stack): does each layer cost anything? Each layer's figure against the
 * layer below in the same run (its recorded pct_of_below), paired over the
 * runs: the interval of the mean log ratio (src/stats, paired t), worded
 * as compare's verdicts are. docs/statistics.md says why paired. */
#include "report/per_layer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/results.h"
#include "report/table.h"
#include "report/verdict.h"
#include "util/json.h"

#define PLV_MAX_RUNS SB_CELL_SAMPLES

static const char *const words[SB_PL_NKEYS] = { "seq write", "seq read", "4k randread" };

/* Row j of the runs (results files of one stack) is the same layer in
 * every run when its layer name matches at that position. */
static bool same_layer(struct json_object *const *runs, unsigned n, size_t j)
{
	const char *l0 = sb_json_text(json_object_array_get_idx(sb_results_per_layer(runs[0]), j), "layer");
	unsigned i;

	for (i = 1; i < n; i++) {
		struct json_object *rows = sb_results_per_layer(runs[i]);

		if (!rows || j >= json_object_array_length(rows) ||
		    strcmp(sb_json_text(json_object_array_get_idx(rows, j), "layer"), l0))
			return false;
	}
	return true;
}

/* The verdict of key k of row j over the runs: own against below. */
void sb_pl_verdict(struct json_object *const *runs, unsigned n, size_t j, unsigned k, struct sb_verdict *v)
{
	double own[PLV_MAX_RUNS], below[PLV_MAX_RUNS];
	struct sb_pl_figs f, pct;
	unsigned i, m = 0;

	memset(v, 0, sizeof(*v));
	v->better = 1;   /* MB/s and IOPS: higher is faster */
	for (i = 0; i < n && m < PLV_MAX_RUNS; i++) {
		struct json_object *row = json_object_array_get_idx(sb_results_per_layer(runs[i]), j);

		sb_pl_get(row, "figures", &f);
		sb_pl_get(row, "pct_of_below", &pct);
		if (f.v[k] <= 0 || pct.v[k] <= 0)
			continue;
		own[m] = f.v[k];
		below[m++] = f.v[k] * 100 / pct.v[k];
	}
	if (!m)
		return;   /* nothing below it (the base), or not measured */
	if (m < SB_STATS_MIN_N || sb_stats_paired_ci(below, own, m, SB_STATS_LEVEL, &v->ci) < 0) {
		v->state = SB_VERDICT_FEW;
		return;
	}
	v->state = SB_VERDICT_CI;
	v->sign = sb_stats_ci_sign(&v->ci);
	v->without = v->sign;
}

/* The runs of stack name among res (at most max), in order. */
static unsigned runs_of(struct json_object *const *res, unsigned n, const char *name,
			struct json_object **runs, unsigned max)
{
	unsigned i, m = 0;

	for (i = 0; i < n && m < max; i++)
		if (sb_results_per_layer(res[i]) && !strcmp(sb_results_stack_name(res[i]), name))
			runs[m++] = res[i];
	return m;
}

static void stack_lines(struct json_object *const *runs, unsigned m, bool md, FILE *out)
{
	struct json_object *rows = sb_results_per_layer(runs[0]);
	struct sb_verdict v;
	char buf[256], line[1024];
	size_t j, o;
	unsigned k;

	fprintf(out, "%s%s: %u runs, each layer against the layer below in the same run (%s, 95 %% CI):\n",
		md ? "- " : "", sb_results_stack_name(runs[0]), m, sb_stats_method_name(SB_STATS_PAIRED));
	for (j = 0; j < json_object_array_length(rows); j++) {
		struct json_object *row = json_object_array_get_idx(rows, j);

		if (!same_layer(runs, m, j))
			continue;
		o = 0;
		line[0] = '\0';
		for (k = 0; k < SB_PL_NKEYS && o < sizeof(line); k++) {
			sb_pl_verdict(runs, m, j, k, &v);
			if (v.state == SB_VERDICT_NONE)
				continue;
			sb_verdict_format(&v, buf, sizeof(buf));
			o += snprintf(line + o, sizeof(line) - o, "%s%s %s", o ? "; " : "", words[k], buf);
		}
		if (o)
			fprintf(out, "%s%s (%s): %s\n", md ? "  - " : "  ", sb_json_text(row, "layer"),
				sb_json_text(row, "device"), line);
	}
}

void sb_pl_render_verdicts(struct json_object *const *res, unsigned n, bool md, FILE *out)
{
	struct json_object *runs[PLV_MAX_RUNS];
	unsigned i, m;
	bool head = false;

	for (i = 0; i < n; i++) {
		const char *name = sb_results_stack_name(res[i]);

		if (!sb_results_per_layer(res[i]) || runs_of(res, i, name, runs, PLV_MAX_RUNS))
			continue;   /* none, or said with its first run */
		m = runs_of(res, n, name, runs, PLV_MAX_RUNS);
		if (m < 2)
			continue;   /* rows not repeated */
		if (!head)
			fputs(md ? "\n**Verdicts per layer (rows repeated)**\n\n" : "\nVerdicts per layer (rows repeated):\n",
			      out);
		head = true;
		stack_lines(runs, m, md, out);
	}
}
