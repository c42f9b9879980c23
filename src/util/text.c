#include "util/text.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of the control at s (0: none); avail bytes may be read (a NUL ends
 * a string before that). The Unicode bidirectional controls (U+200E/F,
 * U+202A..U+202E, U+2066..U+2069) count too: they reorder what the terminal
 * shows ("Trojan Source"), so a name could pass for another. */
static size_t control_len(const unsigned char *s, size_t avail, bool keep_lines)
{
	if (keep_lines && (*s == '\n' || *s == '\t' || (*s == '\r' && s[1] == '\n')))
		return 0;   /* lines, and CSV's CRLF */
	if (*s < 0x20)
		return 1;
	if (*s == 0x7f)
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	if (s[0] == 0xe2 && avail >= 3 &&
	    ((s[1] == 0x80 && (s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xaa && s[2] <= 0xae))) ||
	     (s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9)))
		return 3;
	return 0;
}

void sb_text_term(char *s, bool keep_lines)
{
	unsigned char *r = (unsigned char *)s, *w = r;
	size_t n;

	while (*r) {
		n = control_len(r, (size_t)-1, keep_lines);
		if (n) {
			*w++ = '?';
			r += n;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

void sb_text_term_write(FILE *out, const char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf, *end = p + len, *run = p;
	size_t n;

	while (p < end) {
		if (p + 1 < end)
			n = *p ? control_len(p, (size_t)(end - p), true) : 1;
		else   /* the last byte: control_len would look past it */
			n = *p < 0x20 ? *p != '\n' && *p != '\t' : *p == 0x7f;
		if (!n) {
			p++;
			continue;
		}
		fwrite(run, 1, (size_t)(p - run), out);
		fputc('?', out);
		p += n;
		run = p;
	}
	fwrite(run, 1, (size_t)(p - run), out);
}

bool sb_text_csv_formula(const char *s)
{
	char *end;

	if (!*s || !strchr("=+-@\t\r", *s))
		return false;
	if (*s == '\t' || *s == '\r')
		return true;
	strtod(s, &end);
	return end == s || *end != '\0';
}
