/* Text that came from elsewhere (a results file from another machine, a
 * stack name) on its way out: to a terminal, where ESC, BEL and the other
 * control characters would set the window title, clear the screen or move
 * the cursor over the figures; and to a CSV cell, which a spreadsheet
 * would run as a formula when it starts with = + - @ TAB or CR (OWASP's
 * "CSV injection"). */
#ifndef SB_UTIL_TEXT_H
#define SB_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* In place: every C0 control (but newline, tab and CR before a newline
 * when keep_lines), DEL, the C1 controls (UTF-8 U+0080..U+009F) and the
 * bidirectional controls (U+200E/F, U+202A..E, U+2066..9) become '?'. */
void sb_text_term(char *s, bool keep_lines);
/* Write len bytes of buf to out with the same replacement (lines kept). */
void sb_text_term_write(FILE *out, const char *buf, size_t len);

/* Would a spreadsheet take this cell for a formula? (It starts with one of
 * = + - @ TAB CR and is not a plain number such as -3.5.) Such a cell is
 * written with a leading apostrophe, and quoted. */
bool sb_text_csv_formula(const char *s);

#endif
