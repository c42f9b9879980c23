/* Verdicts as CSV fields and JSON keys (render.c calls these per cell). */
#include "report/table.h"

#include <math.h>
#include <string.h>

static const char *const csv_suffix[] = {
	"diff %", "CI low %", "CI high %", "verdict", "method", "outliers", "holds without outliers",
};

void sb_verdict_csv_header(const char *header, FILE *out)
{
	char buf[SB_COL_NAME_MAX + 32];
	size_t i;

	for (i = 0; i < sizeof(csv_suffix) / sizeof(csv_suffix[0]); i++) {
		snprintf(buf, sizeof(buf), "%s %s", header, csv_suffix[i]);
		sb_csv_field(out, buf, 0);
	}
}

/* "yes", "no", "cannot tell" (too few left), "" (no outliers) */
static const char *holds(const struct sb_verdict *v)
{
	if (v->state != SB_VERDICT_CI)
		return "";
	if (v->without == 2)
		return "cannot tell";
	return v->without == v->sign ? "yes" : "no";
}

void sb_verdict_csv(const struct sb_verdict *v, FILE *out)
{
	char buf[64];
	int ci = v->state == SB_VERDICT_CI;

	snprintf(buf, sizeof(buf), "%.4g", v->ci.diff_pct);
	sb_csv_field(out, ci ? buf : "", 0);
	snprintf(buf, sizeof(buf), "%.4g", v->ci.lo_pct);
	sb_csv_field(out, ci ? buf : "", 0);
	snprintf(buf, sizeof(buf), "%.4g", v->ci.hi_pct);
	sb_csv_field(out, ci ? buf : "", 0);
	sb_csv_field(out, sb_verdict_word(v), 0);
	sb_csv_field(out, ci ? sb_stats_method_name(v->ci.method) : "", 0);
	snprintf(buf, sizeof(buf), "%u", v->outliers);
	sb_csv_field(out, buf, 0);
	sb_csv_field(out, holds(v), 0);
}

static struct json_object *num(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.4g", v);
	return json_object_new_double_s(v, buf);
}

static void add(struct json_object *o, const char *col, const char *what, struct json_object *v)
{
	char key[SB_COL_NAME_MAX + 32];

	snprintf(key, sizeof(key), "%s_%s", col, what);
	json_object_object_add(o, key, v);
}

void sb_verdict_json(const char *col, const struct sb_verdict *v, int compared, struct json_object *o)
{
	int ci = v->state == SB_VERDICT_CI;

	if (v->outliers)
		add(o, col, "outliers", json_object_new_int((int)v->outliers));
	if (!compared || v->state == SB_VERDICT_NONE)
		return;
	add(o, col, "verdict", json_object_new_string(sb_verdict_word(v)));
	if (!ci)
		return;
	add(o, col, "diff_pct", num(v->ci.diff_pct));
	add(o, col, "ci_low_pct", num(v->ci.lo_pct));
	add(o, col, "ci_high_pct", num(v->ci.hi_pct));
	add(o, col, "ci_half_pct", num(v->ci.half_pct));
	add(o, col, "method", json_object_new_string(sb_stats_method_name(v->ci.method)));
	if (v->without != v->sign || v->outliers)
		add(o, col, "holds_without_outliers", v->without == 2 ? NULL :
		    json_object_new_boolean(v->without == v->sign));
}

void sb_verdict_json_row(const struct sb_table *t, unsigned r, struct json_object *o)
{
	char buf[1024];

	sb_verdict_disagree(t, r, buf, sizeof(buf));
	if (buf[0])
		json_object_object_add(o, "suites_disagree", json_object_new_string(buf));
}
