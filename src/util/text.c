#include "util/text.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of the control at s (0: none). */
static size_t control_len(const unsigned char *s, bool keep_lines)
{
	if (keep_lines && (*s == '\n' || *s == '\t' || (*s == '\r' && s[1] == '\n')))
		return 0;   /* lines, and CSV's CRLF */
	if (*s < 0x20)
		return 1;
	if (*s == 0x7f)
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	return 0;
}

void sb_text_term(char *s, bool keep_lines)
{
	unsigned char *r = (unsigned char *)s, *w = r;
	size_t n;

	while (*r) {
		n = control_len(r, keep_lines);
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
			n = *p ? control_len(p, true) : 1;
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
