/* The model's primitives, below everything else in report/: medians, unit
 * conversion, how a number and a cell are printed, one CSV field, and
 * freeing a table. The model (build.c), its columns, the pivot and every
 * renderer use them; they use nothing of report/. */
#include "report/table.h"

#include "util/text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double sb_stats_median(const double *v, unsigned n)
{
	double *c, m;

	if (!n)
		return NAN;
	c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

void sb_stats_minmax(const double *v, unsigned n, double *min, double *max)
{
	unsigned i;

	*min = n ? v[0] : NAN;
	*max = n ? v[0] : NAN;
	for (i = 1; i < n; i++) {
		if (v[i] < *min)
			*min = v[i];
		if (v[i] > *max)
			*max = v[i];
	}
}

/* Factor to a base unit: bytes/s for rates, seconds for times. */
static const struct { const char *unit; double factor; int kind; } units[] = {
	{ "B/s", 1, 1 }, { "kB/s", 1e3, 1 }, { "KB/s", 1e3, 1 }, { "MB/s", 1e6, 1 },
	{ "GB/s", 1e9, 1 }, { "KiB/s", 1024.0, 1 }, { "MiB/s", 1048576.0, 1 },
	{ "GiB/s", 1073741824.0, 1 },
	{ "ns", 1e-9, 2 }, { "us", 1e-6, 2 }, { "\xc2\xb5s", 1e-6, 2 }, { "ms", 1e-3, 2 }, { "s", 1, 2 },
};

static int unit_find(const char *u)
{
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(units[i].unit, u))
			return (int)i;
	return -1;
}

int sb_unit_convert(double v, const char *from, const char *want, double *out)
{
	int a, b;

	if (!strcmp(from, want)) {
		*out = v;
		return 0;
	}
	a = unit_find(from);
	b = unit_find(want);
	if (a < 0 || b < 0 || units[a].kind != units[b].kind)
		return -EINVAL;
	*out = v * units[a].factor / units[b].factor;
	return 0;
}

void sb_num_format(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e15)   /* %.0f of 1e308 is 309 digits: cut, a wrong number */
		snprintf(buf, len, "%.4g", v);
	else if (fabs(v) >= 10 || v == 0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

void sb_cell_format(const struct sb_cell *x, char *buf, size_t len)
{
	char a[64], b[64], m[64];

	sb_num_format(x->med, m, sizeof(m));
	if (x->n <= 1) {
		snprintf(buf, len, "%s", m);
		return;
	}
	sb_num_format(x->min, a, sizeof(a));
	sb_num_format(x->max, b, sizeof(b));
	/* a spread that rounds away ("96 (96-97)") gets a decimal */
	if (x->min != x->max && fabs(x->med) >= 10 && (!strcmp(a, m) || !strcmp(b, m))) {
		snprintf(m, sizeof(m), "%.1f", x->med);
		snprintf(a, sizeof(a), "%.1f", x->min);
		snprintf(b, sizeof(b), "%.1f", x->max);
	}
	snprintf(buf, len, "%s (%s\xe2\x80\x93%s)", m, a, b);
}

void sb_csv_field(FILE *out, const char *s, int first)
{
	bool formula = sb_text_csv_formula(s);

	if (!first)
		fputc(',', out);
	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out); /* a spreadsheet shows it as text, runs nothing */
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void sb_table_free(struct sb_table *t)
{
	unsigned i;

	if (t->row_stack)
		for (i = 0; i < t->nrows; i++)
			free(t->row_stack[i]);
	free(t->row_stack);
	free(t->row_first);
	free(t->cols);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
