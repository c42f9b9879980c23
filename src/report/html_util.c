/* The HTML report's helpers, shared by its files (html.c, html_chart.c,
 * html_stack.c, html_dev.c) and below all of them: escaping, numbers, json
 * reads that never fail, and how a results file and a stack are named and
 * linked on the page. */
#include "report/html_int.h"
#include "report/results.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_html_esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* control characters have no place in HTML text */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fputc(' ', out);
			else
				fputc(*s, out);
		}
	}
}

void sb_html_escf(FILE *out, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_html_esc(out, buf);
}

void sb_html_num(FILE *out, double v)
{
	char buf[64];

	sb_num_format(v, buf, sizeof(buf));
	fputs(buf, out);
}

int sb_html_file_index(const struct sb_html *h, struct json_object *r)
{
	for (unsigned i = 0; i < h->n; i++)
		if (h->res[i] == r)
			return (int)i;
	return -1;
}

const char *sb_html_path(const struct sb_html *h, unsigned i, char *buf, size_t len)
{
	if (h->paths && h->paths[i])
		return h->paths[i];
	snprintf(buf, len, "results file %u", i + 1);
	return buf;
}

void sb_html_src_link(const struct sb_html *h, unsigned i)
{
	char buf[64];

	fprintf(h->out, "<a href=\"#src-%u\"><code>", i + 1);
	sb_html_esc(h->out, sb_html_path(h, i, buf, sizeof(buf)));
	fputs("</code></a>", h->out);
}

/* Whether results file res belongs to table row `row`: the same stack on the
 * same machine (a fleet's rows are keyed by host and stack, never pooled). */
int sb_html_in_row(const struct sb_html *h, unsigned row, struct json_object *res)
{
	return !strcmp(sb_results_stack_name(res), h->t->row_stack[row]) &&
	       !strcmp(sb_results_host_name(res), sb_results_host_name(h->t->row_first[row]));
}

int sb_html_many_hosts(const struct sb_html *h)
{
	for (unsigned i = 1; i < h->n; i++)
		if (strcmp(sb_results_host_name(h->res[0]), sb_results_host_name(h->res[i])))
			return 1;
	return 0;
}

const char *sb_html_row_name(const struct sb_html *h, unsigned row, char *buf, size_t len)
{
	if (!sb_html_many_hosts(h))
		return h->t->row_stack[row];
	snprintf(buf, len, "%s on %s", h->t->row_stack[row], sb_results_host_name(h->t->row_first[row]));
	return buf;
}

void sb_html_stack_files(const struct sb_html *h, unsigned row)
{
	char buf[64];
	int k = 0;

	for (unsigned i = 0; i < h->n; i++)
		if (sb_html_in_row(h, row, h->res[i])) {
			fputs(k++ ? ", " : "", h->out);
			sb_html_esc(h->out, sb_html_path(h, i, buf, sizeof(buf)));
		}
}

void sb_html_stack_id(const struct sb_html *h, unsigned row, char *buf, size_t len)
{
	const char *s = h->t->row_stack[row];
	size_t k = (size_t)snprintf(buf, len, "stack-%u-", row + 1);

	for (; *s && k + 1 < len; s++)
		buf[k++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			   (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ? *s : '_';
	buf[k] = '\0';
}
