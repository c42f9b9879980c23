/* A multi-host report keys rows by host and stack (issue 24): the fleet
 * fixtures tests/golden/fleet/plain-h1.json and plain-h2.json are one stack
 * ("plain") from two hosts with the same hostname, h2's figures exactly 3x
 * h1's. Every output must keep them apart - a row or section that pooled
 * them would show a median between the two (200 where they are 100 and
 * 300) or list both files under one host. Before this test the HTML page
 * pooled both files into each host's section ("pooled as repetitions"), the
 * backup estimate gave one "plain" row at the median of both hosts, and
 * --per-layer / bonnie-csv rows could not be told apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "report/backup.h"
#include "report/html.h"
#include "report/per_layer.h"
#include "report/render.h"
#include "report/results.h"
#include "report/table.h"

static struct json_object *res[2];

static int setup(void **state)
{
	(void)state;
	res[0] = sb_test_load("fleet/plain-h1.json");
	res[1] = sb_test_load("fleet/plain-h2.json");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	json_object_put(res[0]);
	json_object_put(res[1]);
	return 0;
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned k = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		k++;
	return k;
}

/* The line of text that holds needle (a static copy), or fails. */
static const char *line_of(const char *text, const char *needle)
{
	static char line[4096];
	const char *p = strstr(text, needle), *b, *e;

	if (!p)
		fail_msg("no line with '%s' in:\n%s", needle, text);
	for (b = p; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
	return line;
}

static char *table(enum sb_table_format fmt)
{
	struct sb_table_opts o = { .format = fmt };
	struct sb_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (sb_table_render(res, 2, &o, f, &err) < 0)
		fail_msg("%s", err.msg);
	fclose(f);
	return buf;
}

/* text, markdown, csv, json: one row per host, each with its own figure
 * (write: h1 162 = median of 160, 164; h2 486) and never the pooled 324. */
static void test_table_formats(void **state)
{
	static const struct { enum sb_table_format fmt; const char *h1, *h2; } f[] = {
		{ SB_FMT_TEXT, "h1 ", "h2 " }, { SB_FMT_MARKDOWN, "| h1 ", "| h2 " },
		{ SB_FMT_CSV, "h1,", "h2," }, { SB_FMT_JSON, "\"host\": \"h1\"", "\"host\": \"h2\"" },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		char *out = table(f[i].fmt);

		assert_int_equal(count(out, f[i].h1), 1);
		assert_int_equal(count(out, f[i].h2), 1);
		if (f[i].fmt != SB_FMT_JSON) {
			assert_non_null(strstr(line_of(out, f[i].h1), "162"));
			assert_non_null(strstr(line_of(out, f[i].h2), "486"));
		}
		assert_null(strstr(out, "324"));
		free(out);
	}
}

static void test_html(void **state)
{
	static const char *paths[2] = { "plain-h1.json", "plain-h2.json" };
	struct sb_table_opts o = { 0 };
	struct sb_err err = { 0 };
	char *buf = NULL, *s1, *s2;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(sb_html_render(res, paths, 2, &o, f, &err), 0);
	fclose(f);
	assert_null(strstr(buf, "pooled as repetitions"));
	s1 = strstr(buf, "plain on h1</h3>");
	s2 = strstr(buf, "plain on h2</h3>");
	assert_non_null(s1);
	assert_non_null(s2);
	assert_true(s1 < s2);
	/* each host's section names its own file only */
	*s2 = '\0';
	assert_non_null(strstr(s1, "href=\"#src-1\""));
	assert_null(strstr(s1, "href=\"#src-2\""));
	assert_null(strstr(s2 + 1, "href=\"#src-1\""));
	assert_non_null(strstr(s2 + 1, "href=\"#src-2\""));
	free(buf);
}

static void test_backup(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(sb_backup_render(res, 2, 1000000000000ull, f), 2);
	fclose(f);
	assert_non_null(strstr(line_of(buf, "plain on h1 "), "(100 MB/s)"));
	assert_non_null(strstr(line_of(buf, "plain on h2 "), "(300 MB/s)"));
	assert_null(strstr(buf, "(200 MB/s)"));
	free(buf);
}

static void test_per_layer_and_bonnie(void **state)
{
	struct sb_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(sb_per_layer_render(res, 2, SB_FMT_CSV, f, &err), 0);
	assert_int_equal(sb_per_layer_render(res, 2, SB_FMT_JSON, f, &err), 0);
	assert_int_equal(sb_bonnie_csv_write(res, 2, f, &err), 0);
	fclose(f);
	assert_non_null(strstr(line_of(buf, "plain on h1,1,loop"), ",900,"));
	assert_non_null(strstr(line_of(buf, "plain on h2,1,loop"), ",2700,"));
	assert_int_equal(count(buf, "\"host\":\"h1\"") + count(buf, "\"host\": \"h1\""), 1);
	assert_int_equal(count(buf, "\"host\":\"h2\"") + count(buf, "\"host\": \"h2\""), 1);
	assert_int_equal(count(buf, ",plain on h1,"), 2);   /* two bonnie runs per host */
	assert_int_equal(count(buf, ",plain on h2,"), 2);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_formats),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_backup),
		cmocka_unit_test(test_per_layer_and_bonnie),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
