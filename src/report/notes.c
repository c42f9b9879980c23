/* Caveats travel with the numbers: the notes of each row's results (cache-
 * sized files, resync or lazy init running, direct I/O refused, the
 * sandbox) as numbered footnotes, and n per row, for every table format. */
#include "report/notes.h"
#include "report/results.h"
#include "util/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned note_id(struct sb_notes *n, const char *s)
{
	unsigned i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->text[i], s))
			return i;
	if (n->n == SB_NOTES_MAX)
		return SB_NOTES_MAX;
	snprintf(n->text[n->n], sizeof(n->text[0]), "%s", s);
	return n->n++;
}

static void row_add(struct sb_notes *n, unsigned r, const char *s)
{
	unsigned id = note_id(n, s), i;

	if (id == SB_NOTES_MAX || r >= SB_NOTES_ROWS)
		return;
	for (i = 0; i < n->nrow[r]; i++)
		if (n->row[r][i] == id)
			return;
	if (n->nrow[r] < SB_NOTES_PER_ROW)
		n->row[r][n->nrow[r]++] = id;
}

void sb_notes_collect(const struct sb_table *t, struct sb_notes *n)
{
	unsigned r, c;
	size_t i, j;

	memset(n, 0, sizeof(*n));
	for (r = 0; r < t->nrows && r < SB_NOTES_ROWS; r++) {
		struct json_object *res = t->row_first[r], *h = sb_results_host(res), *s;

		for (c = 0; c < t->ncols; c++)
			if (sb_table_cell(t, r, c)->n > n->reps[r])
				n->reps[r] = sb_table_cell(t, r, c)->n;
		if (sb_results_sandboxed(res)) {
			char sb[600];
			struct json_object *o = sb_results_host_outer(res);

			snprintf(sb, sizeof(sb), "measured in the throwaway kernel (user-mode-linux %s%s%s)%s%s",
				 sb_json_get(h, "kernel") ? json_object_get_string(sb_json_get(h, "kernel")) : "?",
				 o ? " on " : "", o && sb_json_get(o, "cpu_model") ? json_object_get_string(sb_json_get(o, "cpu_model")) : "",
				 sb_json_get(h, "device_path") ? ": " : "",
				 sb_json_get(h, "device_path") ? json_object_get_string(sb_json_get(h, "device_path")) : "");
			row_add(n, r, sb);
		}
		for (i = 0; (s = sb_results_suite(res, i)); i++) {
			struct json_object *notes = sb_results_suite_notes(s);
			const char *suite = sb_results_suite_name(s);

			for (j = 0; notes && j < json_object_array_length(notes); j++) {
				char buf[600];

				snprintf(buf, sizeof(buf), "%s: %s", suite,
					 json_object_get_string(json_object_array_get_idx(notes, j)));
				row_add(n, r, buf);
			}
		}
	}
}

void sb_notes_marks(const struct sb_notes *n, unsigned r, char *out, size_t len)
{
	size_t o = 0;
	unsigned i;

	out[0] = '\0';
	if (r >= SB_NOTES_ROWS)
		return;
	if (n->reps[r] > 1)
		o += snprintf(out + o, len - o, " n=%u", n->reps[r]);
	for (i = 0; i < n->nrow[r] && o < len; i++)
		o += snprintf(out + o, len - o, "%s%u", i ? "," : " [", n->row[r][i] + 1);
	if (n->nrow[r] && o < len)
		snprintf(out + o, len - o, "]");
}

void sb_notes_print(const struct sb_notes *n, bool markdown, FILE *out)
{
	unsigned i;

	if (!n->n)
		return;
	fputc('\n', out);
	for (i = 0; i < n->n; i++)
		fprintf(out, "%s[%u] %s\n", markdown ? "- " : "", i + 1, n->text[i]);
}

void sb_notes_row_text(const struct sb_notes *n, unsigned r, char *out, size_t len)
{
	size_t o = 0;
	unsigned i;

	out[0] = '\0';
	for (i = 0; r < SB_NOTES_ROWS && i < n->nrow[r] && o < len; i++)
		o += snprintf(out + o, len - o, "%s%s", i ? " | " : "", n->text[n->row[r][i]]);
}
