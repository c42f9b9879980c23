/* compare --pivot host: the fleet view. The flat table has a row per stack
 * per machine; pivoted, each stack is one row and each figure one column
 * per machine, so machines read side by side. Built from the flat model,
 * so every renderer (text, Markdown, CSV, JSON) prints it unchanged. */
#include "report/table.h"
#include "report/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of s in v[0..n), or n. */
static unsigned find(char **v, unsigned n, const char *s)
{
	unsigned i;

	for (i = 0; i < n && strcmp(v[i], s); i++)
		;
	return i;
}

/* The distinct stacks and hosts of flat, in order of first appearance
 * (pointers into flat; not owned). */
static int distinct(const struct sb_table *flat, char **stacks, unsigned *ns,
		    char **hosts, unsigned *nh)
{
	unsigned r;

	*ns = *nh = 0;
	for (r = 0; r < flat->nrows; r++) {
		char *h = (char *)sb_results_host_name(flat->row_first[r]);

		if (find(stacks, *ns, flat->row_stack[r]) == *ns)
			stacks[(*ns)++] = flat->row_stack[r];
		if (find(hosts, *nh, h) == *nh)
			hosts[(*nh)++] = h;
	}
	return 0;
}

static int is_host_col(const struct sb_column *c)
{
	return !strcmp(c->name, "host");
}

/* out's columns: text columns but host, then numeric x hosts. */
static int pivot_cols(const struct sb_table *flat, char **hosts, unsigned nh, struct sb_table *out)
{
	unsigned c, h, k = 0;

	out->cols = calloc((size_t)flat->ncols * nh + 1, sizeof(*out->cols));
	if (!out->cols)
		return -ENOMEM;
	for (c = 0; c < flat->ncols; c++)
		if (!flat->cols[c].numeric && !is_host_col(&flat->cols[c]))
			out->cols[k++] = flat->cols[c];
	for (c = 0; c < flat->ncols; c++) {
		if (!flat->cols[c].numeric)
			continue;
		for (h = 0; h < nh; h++) {
			out->cols[k] = flat->cols[c];
			snprintf(out->cols[k].header, sizeof(out->cols[k].header), "%.60s @ %.60s",
				 flat->cols[c].header, hosts[h]);
			/* JSON and CSV key cells by name: one per host */
			snprintf(out->cols[k].name, sizeof(out->cols[k].name), "%.60s@%.60s",
				 flat->cols[c].name, hosts[h]);
			k++;
		}
	}
	out->ncols = k;
	return 0;
}

/* The flat row of (stack, host), or -1 when that machine has no result for it. */
static int flat_row(const struct sb_table *flat, const char *stack, const char *host)
{
	unsigned r;

	for (r = 0; r < flat->nrows; r++)
		if (!strcmp(flat->row_stack[r], stack) &&
		    !strcmp(sb_results_host_name(flat->row_first[r]), host))
			return (int)r;
	return -1;
}

static void pivot_cells(const struct sb_table *flat, char **hosts, unsigned nh, struct sb_table *out)
{
	unsigned r, c, k, h;

	for (r = 0; r < out->nrows; r++) {
		int first = flat_row(flat, out->row_stack[r], sb_results_host_name(out->row_first[r]));

		k = 0;
		for (c = 0; c < flat->ncols; c++)
			if (!flat->cols[c].numeric && !is_host_col(&flat->cols[c]))
				*sb_table_cell(out, r, k++) = *sb_table_cell(flat, (unsigned)first, c);
		for (c = 0; c < flat->ncols; c++) {
			if (!flat->cols[c].numeric)
				continue;
			for (h = 0; h < nh; h++, k++) {
				int fr = flat_row(flat, out->row_stack[r], hosts[h]);

				if (fr >= 0)
					*sb_table_cell(out, r, k) = *sb_table_cell(flat, (unsigned)fr, c);
			}
		}
	}
}

int sb_table_pivot_host(const struct sb_table *flat, struct sb_table *out, struct sb_err *err)
{
	char **stacks = calloc(flat->nrows + 1, sizeof(*stacks));
	char **hosts = calloc(flat->nrows + 1, sizeof(*hosts));
	unsigned ns, nh, r;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->baseline = -1;
	out->any_reps = flat->any_reps;
	if (!stacks || !hosts)
		goto out;
	distinct(flat, stacks, &ns, hosts, &nh);
	if (pivot_cols(flat, hosts, nh, out) < 0)
		goto out;
	out->row_stack = calloc(ns + 1, sizeof(*out->row_stack));
	out->row_first = calloc(ns + 1, sizeof(*out->row_first));
	out->cells = calloc((size_t)ns * out->ncols + 1, sizeof(*out->cells));
	if (!out->row_stack || !out->row_first || !out->cells)
		goto out;
	for (r = 0; r < ns; r++) {
		out->row_stack[r] = strdup(stacks[r]);
		if (!out->row_stack[r])
			goto out;
		out->row_first[r] = flat->row_first[find(flat->row_stack, flat->nrows, stacks[r])];
		out->nrows++;
	}
	pivot_cells(flat, hosts, nh, out);
	rc = 0;
out:
	free(stacks);
	free(hosts);
	if (rc < 0) {
		sb_table_free(out);
		sb_err_set(err, rc, "out of memory");
	}
	return rc;
}
