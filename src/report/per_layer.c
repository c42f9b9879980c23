/* Expected figures per layer, from the measured figures below it (see
 * per_layer.h for the model). */
#include "report/per_layer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

static const char *row_layer(struct json_object *row)
{
	struct json_object *v;

	return json_object_object_get_ex(row, "layer", &v) ? json_object_get_string(v) : "";
}

/* The rows of the block layer measured just before row i's layer. */
static unsigned below_rows(struct json_object *rows, size_t i, size_t *first)
{
	const char *me = row_layer(json_object_array_get_idx(rows, i));
	const char *prev = NULL;
	size_t j = i, n = 0;

	while (j > 0 && !strcmp(row_layer(json_object_array_get_idx(rows, j - 1)), me))
		j--;
	if (j == 0)
		return 0;
	prev = row_layer(json_object_array_get_idx(rows, j - 1));
	while (j > 0 && !strcmp(row_layer(json_object_array_get_idx(rows, j - 1)), prev)) {
		j--;
		n++;
	}
	*first = j;
	return n;
}

/* min, mean and sum of one key over the members; false if any is unknown. */
static bool members_stat(struct json_object *rows, size_t first, unsigned n, unsigned k,
			 double *min, double *mean, double *sum)
{
	struct sb_pl_figs f;
	unsigned i;

	*min = -1;
	*sum = 0;
	for (i = 0; i < n; i++) {
		sb_pl_get(json_object_array_get_idx(rows, first + i), "figures", &f);
		if (f.v[k] < 0)
			return false;
		if (*min < 0 || f.v[k] < *min)
			*min = f.v[k];
		*sum += f.v[k];
	}
	*mean = n ? *sum / n : -1;
	return n > 0;
}

/* Expected figures and a reason per key for row i; below: the figures of
 * what it sits on, for pct_of_below. */
static void expect_row(struct json_object *rows, size_t i, const struct sb_stack_spec *spec,
		       struct sb_pl_figs *exp, struct sb_pl_figs *below, const char **why)
{
	const char *layer = row_layer(json_object_array_get_idx(rows, i));
	size_t first = 0, mine = 0, j;
	unsigned n = below_rows(rows, i, &first), k;
	double mn, mean, sum;

	for (k = 0; k < SB_PL_NKEYS; k++) {
		exp->v[k] = below->v[k] = -1;
		why[k] = "nothing measured below";
	}
	if (!n)
		return;
	/* row i's index within its own layer: a per-member layer (fault)
	 * sits on the member of the same index */
	for (j = i; j > 0 && !strcmp(row_layer(json_object_array_get_idx(rows, j - 1)), layer); j--)
		mine++;
	for (k = 0; k < SB_PL_NKEYS; k++) {
		if (!members_stat(rows, first, n, k, &mn, &mean, &sum))
			continue;
		below->v[k] = mean;
		if (!strcmp(layer, "md") && spec->raid.level == 10) {
			double c = spec->raid.copies ? spec->raid.copies : 2, m = n / c;
			bool far = spec->raid.md_layout[0] == 'f';

			exp->v[k] = k == 0 ? m * mn : k == 1 ? (far ? n * mean : m * mean) : sum;
			why[k] = k == 0 ? "RAID10: every write goes to each copy: members / copies x the slowest"
				 : k == 1 ? (far ? "RAID10 far: a stream reads from every member"
					    : "RAID10 near/offset: members / copies x one member")
				 : "RAID10: random reads spread over every member";
		} else if (!strcmp(layer, "md")) {
			exp->v[k] = k == 0 ? mn : k == 1 ? mean : sum;
			why[k] = k == 0 ? "RAID1: every write goes to every member: the slowest member"
				 : k == 1 ? "RAID1: one stream reads one member"
				 : "RAID1: random reads spread over every member";
		} else if (n > 1 && mine < n) {
			struct sb_pl_figs f;

			sb_pl_get(json_object_array_get_idx(rows, first + mine), "figures", &f);
			exp->v[k] = below->v[k] = f.v[k];
			why[k] = "the member below";
		} else {
			exp->v[k] = n > 1 ? sum : mean;
			why[k] = "what is below (a mapping adds no work of its own)";
		}
	}
}

/* LUKS: what is below, capped by the cipher (encrypt for writes, decrypt
 * for reads); without a measured ceiling the reason says so. */
static void luks_cap(struct json_object *row, const struct sb_pl_figs *m, struct sb_pl_figs *exp,
		     const char **why)
{
	static const char *const dir[2] = { "encrypt_mbs", "decrypt_mbs" };
	struct json_object *c, *v;
	unsigned k;

	for (k = 0; k < SB_PL_NKEYS; k++)
		why[k] = "what is below (the cipher ceiling was not measured)";
	if (!json_object_object_get_ex(row, "cipher_ceiling", &c) || !c)
		return;
	for (k = 0; k < SB_PL_NKEYS; k++)
		why[k] = "what is below, under the cipher ceiling";
	for (k = 0; k < 2; k++) {
		double cap;

		if (!json_object_object_get_ex(c, dir[k], &v) || !v)
			continue;
		cap = json_object_get_double(v);
		/* From userspace the cipher pays for the copies in and out; in a
		 * kernel where that costs more than dm-crypt's own path (UML)
		 * the figure is no ceiling: say so instead of capping. */
		if (m->v[k] > cap * 1.05) {
			why[k] = "what is below (the userspace cipher benchmark, slower than dm-crypt here, "
				 "is no ceiling)";
			continue;
		}
		if (exp->v[k] < 0 || cap < exp->v[k]) {
			exp->v[k] = cap;
			why[k] = k == 0 ? "the cipher ceiling (encrypt)" : "the cipher ceiling (decrypt)";
		}
	}
}

/* "md: seq read 900 of 950 MB/s expected (95 %): RAID1: one stream reads one member" */
static void limit_line(const char *layer, const struct sb_pl_figs *m, const struct sb_pl_figs *e,
		       const char *const *why, char *out, size_t len)
{
	int worst = -1;
	double wp = 0;
	unsigned k;

	for (k = 0; k < SB_PL_NKEYS; k++) {
		double p;

		if (m->v[k] < 0 || e->v[k] <= 0)
			continue;
		p = m->v[k] / e->v[k];
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
		 m->v[worst], e->v[worst], key_units[worst], wp * 100, why[worst],
		 wp >= 0.85 ? " is the limit" : "; it gets less than that allows");
}

void sb_per_layer_expect(struct json_object *rows, const struct sb_stack_spec *spec)
{
	size_t i, n = rows ? json_object_array_length(rows) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *row = json_object_array_get_idx(rows, i);
		struct sb_pl_figs m, e, below, pct;
		const char *why[SB_PL_NKEYS];
		char line[512];
		unsigned k;

		sb_pl_get(row, "figures", &m);
		expect_row(rows, i, spec, &e, &below, why);
		if (!strcmp(row_layer(row), "luks"))
			luks_cap(row, &m, &e, why);
		for (k = 0; k < SB_PL_NKEYS; k++)
			pct.v[k] = m.v[k] >= 0 && below.v[k] > 0 ? 100 * m.v[k] / below.v[k] : -1;
		json_object_object_add(row, "expected", figs_json(&e, true));
		json_object_object_add(row, "pct_of_below", figs_json(&pct, true));
		limit_line(row_layer(row), &m, &e, why, line, sizeof(line));
		json_object_object_add(row, "limit", json_object_new_string(line));
	}
}
