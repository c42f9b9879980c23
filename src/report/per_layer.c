/* Expected figures per layer: the statistics below a row, the model every
 * layer starts from, and the recording (see per_layer.h). */
#include "report/per_layer.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/json.h"

const char *const sb_pl_keys[SB_PL_NKEYS] = { "seq_write_mbs", "seq_read_mbs", "randread_4k_iops" };
static const char *const key_words[SB_PL_NKEYS] = { "seq write", "seq read", "4k randread" };
static const char *const key_units[SB_PL_NKEYS] = { "MB/s", "MB/s", "IOPS" };

void sb_pl_get(struct json_object *row, const char *field, struct sb_pl_figs *f)
{
	struct json_object *o = NULL, *v;
	unsigned k;

	json_object_object_get_ex(row, field, &o);
	for (k = 0; k < SB_PL_NKEYS; k++) {
		f->v[k] = -1;
		if (o && json_object_object_get_ex(o, sb_pl_keys[k], &v) && v)
			f->v[k] = json_object_get_double(v);
	}
}

static struct json_object *figs_json(const struct sb_pl_figs *f, bool round)
{
	struct json_object *o = json_object_new_object();
	unsigned k;

	for (k = 0; k < SB_PL_NKEYS; k++)
		json_object_object_add(o, sb_pl_keys[k], f->v[k] < 0 ? NULL :
				       json_object_new_double(round ? floor(f->v[k] * 10 + 0.5) / 10 : f->v[k]));
	return o;
}

/* The rows of the block layer measured just before row i's layer. */
static unsigned below_rows(struct json_object *rows, size_t i, size_t *first)
{
	const char *me = sb_json_text(json_object_array_get_idx(rows, i), "layer");
	const char *prev = NULL;
	size_t j = i, n = 0;

	while (j > 0 && !strcmp(sb_json_text(json_object_array_get_idx(rows, j - 1), "layer"), me))
		j--;
	if (j == 0)
		return 0;
	prev = sb_json_text(json_object_array_get_idx(rows, j - 1), "layer");
	while (j > 0 && !strcmp(sb_json_text(json_object_array_get_idx(rows, j - 1), "layer"), prev)) {
		j--;
		n++;
	}
	*first = j;
	return n;
}

/* min, mean and sum of key k over the n rows from first; unknown (-1) if
 * any is. */
static void members_stat(struct json_object *rows, size_t first, unsigned n, unsigned k,
			 struct sb_pl_below *b)
{
	struct sb_pl_figs f;
	double mn = -1, sum = 0;
	unsigned i;

	b->min.v[k] = b->mean.v[k] = b->sum.v[k] = -1;
	for (i = 0; i < n; i++) {
		sb_pl_get(json_object_array_get_idx(rows, first + i), "figures", &f);
		if (f.v[k] < 0)
			return;
		if (mn < 0 || f.v[k] < mn)
			mn = f.v[k];
		sum += f.v[k];
	}
	if (!n)
		return;
	b->min.v[k] = mn;
	b->mean.v[k] = sum / n;
	b->sum.v[k] = sum;
}

void sb_pl_below_of(struct json_object *rows, size_t i, struct sb_pl_below *b)
{
	struct json_object *row = json_object_array_get_idx(rows, i);
	const char *layer = sb_json_text(row, "layer");
	size_t first = 0, j;
	unsigned k;

	memset(b, 0, sizeof(*b));
	b->n = below_rows(rows, i, &first);
	/* row i's index within its own layer: a per-member layer (fault,
	 * integrity) sits on the member of the same index */
	for (j = i; j > 0 && !strcmp(sb_json_text(json_object_array_get_idx(rows, j - 1), "layer"), layer); j--)
		b->mine++;
	sb_pl_get(row, "figures", &b->own);
	for (k = 0; k < SB_PL_NKEYS; k++)
		members_stat(rows, first, b->n, k, b);
	if (b->n > 1 && b->mine < b->n)
		sb_pl_get(json_object_array_get_idx(rows, first + b->mine), "figures", &b->same);
	else
		b->same = b->n ? b->mean : b->min;
}

void sb_pl_why(struct sb_pl_model *m, unsigned k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->why[k], sizeof(m->why[k]), fmt, ap);
	va_end(ap);
}

void sb_pl_model_below(const struct sb_pl_below *b, struct sb_pl_model *m)
{
	unsigned k;

	memset(m, 0, sizeof(*m));
	for (k = 0; k < SB_PL_NKEYS; k++) {
		m->exp.v[k] = m->base.v[k] = -1;
		snprintf(m->why[k], sizeof(m->why[k]), "nothing measured below");
		if (!b->n || b->sum.v[k] < 0)
			continue;
		if (b->n > 1 && b->mine < b->n) {
			m->exp.v[k] = m->base.v[k] = b->same.v[k];
			snprintf(m->why[k], sizeof(m->why[k]), "the member below");
		} else {
			m->exp.v[k] = b->sum.v[k];
			m->base.v[k] = b->mean.v[k];
			snprintf(m->why[k], sizeof(m->why[k]), "what is below (a mapping adds no work of its own)");
		}
	}
}

/* "md: seq read 900 of 950 MB/s expected (95 %): RAID1: one stream reads one member" */
static void limit_line(const char *layer, const struct sb_pl_figs *m, const struct sb_pl_model *e,
		       char *out, size_t len)
{
	int worst = -1;
	double wp = 0;
	unsigned k;

	for (k = 0; k < SB_PL_NKEYS; k++) {
		double p;

		if (m->v[k] < 0 || e->exp.v[k] <= 0)
			continue;
		p = m->v[k] / e->exp.v[k];
		if (worst < 0 || p < wp) {
			worst = k;
			wp = p;
		}
	}
	if (worst < 0) {
		snprintf(out, len, "%s: the base of the stack (nothing below to expect from)", layer);
		return;
	}
	snprintf(out, len, "%s: %s %.0f of %.0f %s expected (%.0f %%): %s%s", layer, key_words[worst],
		 m->v[worst], e->exp.v[worst], key_units[worst], wp * 100, e->why[worst],
		 wp >= 0.85 ? " is the limit" : "; it gets less than that allows");
}

void sb_pl_record(struct json_object *row, const struct sb_pl_below *b, const struct sb_pl_model *m)
{
	struct json_object *why = json_object_new_object();
	struct sb_pl_figs pct;
	char line[768];
	unsigned k;

	for (k = 0; k < SB_PL_NKEYS; k++) {
		pct.v[k] = b->own.v[k] >= 0 && m->base.v[k] > 0 ? 100 * b->own.v[k] / m->base.v[k] : -1;
		json_object_object_add(why, sb_pl_keys[k], m->exp.v[k] < 0 ? NULL :
				       json_object_new_string(m->why[k]));
	}
	json_object_object_add(row, "expected", figs_json(&m->exp, true));
	json_object_object_add(row, "pct_of_below", figs_json(&pct, true));
	json_object_object_add(row, "model", why);
	if (m->note[0])
		json_object_object_add(row, "model_note", json_object_new_string(m->note));
	limit_line(sb_json_text(row, "layer"), &b->own, m, line, sizeof(line));
	json_object_object_add(row, "limit", json_object_new_string(line));
}
