/* Notes of the results as footnotes of a table (see notes.c). */
#ifndef SB_REPORT_NOTES_H
#define SB_REPORT_NOTES_H

#include <stdbool.h>
#include <stdio.h>

#include "report/table.h"

#define SB_NOTES_MAX 32
#define SB_NOTES_ROWS 64
#define SB_NOTES_PER_ROW 16

struct sb_notes {
	unsigned n;                           /* distinct notes */
	char text[SB_NOTES_MAX][600];
	unsigned nrow[SB_NOTES_ROWS];
	unsigned row[SB_NOTES_ROWS][SB_NOTES_PER_ROW];  /* note ids of each row */
	unsigned reps[SB_NOTES_ROWS];         /* n: repetitions behind the row */
};

void sb_notes_collect(const struct sb_table *t, struct sb_notes *n);
/* " (n=3) [1,2]" for row r (n only when > 1); "" when neither. */
void sb_notes_marks(const struct sb_notes *n, unsigned r, char *out, size_t len);
/* "[1] text" lines after a table. */
void sb_notes_print(const struct sb_notes *n, bool markdown, FILE *out);
/* The notes of row r joined with " | " (CSV). */
void sb_notes_row_text(const struct sb_notes *n, unsigned r, char *out, size_t len);

#endif
