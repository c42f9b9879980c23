/* The HTML report without a browser: the page of the golden Helios4 files
 * holds compare's table (rows, headers, units, the same cell text as the
 * text table), both charts, every results file by name, and nothing that
 * leaves the page; --baseline and --columns carry over; the per-layer view
 * appears only with "per_layer" and survives nulls and wrong types (the
 * unit suite also runs under ASan); bound_by_machine is marked. The
 * browser checks are tests/integration/host/report_html.sh. The waterfall
 * is linear in the per-layer rows (12,000 rows well inside 20 s). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core/layer.h"
#include "report/html.h"
#include "report/results.h"
#include "report/table.h"

#define N 5
static const char *names[N] = { "omv-ext4-lvm", "ext4", "luks512", "luks4096", "luks4096-cesa" };
static struct json_object *res[N];
static char paths[N][4096];

static int setup(void **state)
{
	const char *src = getenv("SB_SOURCE_DIR");
	struct sb_err err = { 0 };

	for (int i = 0; i < N; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/tests/golden/results/%s.json",
			 src && *src ? src : SB_SOURCE_DIR, names[i]);
		if (sb_results_read(paths[i], &res[i], &err) < 0)
			return -1;
		sb_layer_label_results(res[i], NULL);   /* as compare's loader does */
	}
	return 0;
}

static int teardown(void **state)
{
	for (int i = 0; i < N; i++)
		json_object_put(res[i]);
	return 0;
}

static char *render(struct json_object **r, unsigned n, const struct sb_table_opts *o, int with_paths)
{
	const char *p[N + 1];
	struct sb_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (unsigned i = 0; i < n && i < N; i++)
		p[i] = paths[i];
	assert_non_null(f);
	assert_int_equal(sb_html_render(r, with_paths ? p : NULL, n, o, f, &err), 0);
	fclose(f);
	return buf;
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned k = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		k++;
	return k;
}

/* The text table's cell strings, in order, must appear in the HTML table. */
static void test_helios4(void **state)
{
	struct sb_table_opts o = { 0 };
	struct sb_table t;
	struct sb_err err = { 0 };
	char *html = render(res, N, &o, 1), *tbl, *end;
	const char *p;

	assert_true(!strncmp(html, "<!DOCTYPE html>\n<html lang=\"en\">", 32));
	assert_null(strstr(html, "http:"));
	assert_null(strstr(html, "https:"));
	assert_null(strstr(html, "<img"));
	assert_null(strstr(html, "<link"));
	assert_null(strstr(html, "<script src"));
	tbl = strstr(html, "<table class=\"sortable cmp\" id=\"comparison\">");
	assert_non_null(tbl);
	end = strstr(tbl, "</table>");
	assert_non_null(end);
	*end = '\0';
	assert_int_equal(count(tbl, "<tr>"), 1 + N);
	assert_int_equal(count(tbl, "<th scope=\"col\""), 6);
	assert_non_null(strstr(tbl, ">write <span class=\"unit\">MB/s</span></th>"));
	assert_non_null(strstr(tbl, ">read-write <span class=\"unit\">MB/s</span></th>"));
	assert_non_null(strstr(tbl, ">LUKS sector size</th>"));
	assert_int_equal(sb_table_build(res, N, &o, &t, &err), 0);
	p = tbl;
	for (unsigned r = 0; r < t.nrows; r++)
		for (unsigned c = 0; c < t.ncols; c++) {
			char cell[SB_CELL_STR_MAX];

			if (t.cols[c].numeric)
				sb_cell_format(sb_table_cell(&t, r, c), cell, sizeof(cell));
			else
				snprintf(cell, sizeof(cell), "%s", sb_table_cell(&t, r, c)->str);
			p = strstr(p, cell);
			assert_non_null(p); /* in order: row by row, column by column */
		}
	sb_table_free(&t);
	*end = '<';
	assert_non_null(strstr(html, "id=\"chart-throughput\""));
	assert_non_null(strstr(html, "id=\"chart-iops\""));
	assert_null(strstr(html, "id=\"chart-latency\""));   /* no percentiles in these files */
	assert_null(strstr(html, "Per layer"));
	for (int i = 0; i < N; i++)
		assert_non_null(strstr(html, paths[i]));
	free(html);
}

static void test_baseline_columns(void **state)
{
	struct sb_table_opts o = { .columns = "stack,write,seeks", .baseline = "ext4" };
	char *html = render(res, N, &o, 0);

	assert_non_null(strstr(html, "<th scope=\"col\" class=\"num\">% of ext4</th>"));
	assert_non_null(strstr(html, ">seeks <span class=\"unit\">/s</span></th>"));
	assert_non_null(strstr(html, "results file 1"));   /* no paths: still named */
	assert_non_null(strstr(html, ">100%</td>"));
	free(html);
}

static void test_per_layer(void **state)
{
	static const char *pl =
		"[ {\"order\": 2, \"layer\": \"md\", \"device\": \"/dev/md127\","
		"   \"figures\": {\"seq_write_mbs\": 470, \"seq_read_mbs\": 880.4, \"randread_4k_iops\": null},"
		"   \"expected\": {\"seq_write_mbs\": 490, \"seq_read_mbs\": null, \"randread_4k_iops\": null},"
		"   \"pct_of_below\": {\"seq_write_mbs\": 94, \"seq_read_mbs\": 97.5, \"randread_4k_iops\": null},"
		"   \"limit\": \"md: <the slowest member> & co\"},"
		"  {\"order\": 1, \"layer\": \"loop\", \"device\": \"/dev/ubda\","
		"   \"figures\": {\"seq_write_mbs\": {\"value\": 500, \"bound_by_machine\": true}, \"seq_read_mbs\": 900},"
		"   \"expected\": null, \"pct_of_below\": \"bad\", \"limit\": null},"
		"  {\"order\": \"x\", \"layer\": 7, \"figures\": [1, 2]}, 42 ]";
	struct json_object *r = json_object_get(res[1]), *one[1] = { r };
	struct sb_table_opts o = { 0 };
	char *html;

	json_object_object_add(r, "per_layer", json_tokener_parse(pl));
	html = render(one, 1, &o, 0);
	assert_non_null(strstr(html, "<h4>Per layer</h4>"));
	assert_non_null(strstr(html, "id=\"waterfall-1\""));
	assert_non_null(strstr(html, "md: &lt;the slowest member&gt; &amp; co"));
	/* bottom layer first, whatever the array order */
	assert_true(strstr(html, "/dev/ubda") < strstr(html, "/dev/md127"));
	assert_non_null(strstr(html, "data-v=\"94\">94 %</td>"));
	assert_non_null(strstr(html, "data-v=\"490\">490</td>"));
	/* 470 / 490 measured of expected, computed */
	assert_non_null(strstr(html, ">96 %</td>"));
	assert_non_null(strstr(html, "bound by the machine, not the stack"));
	free(html);
	json_object_object_del(r, "per_layer");
	json_object_put(r);
}

static void test_bound_in_table(void **state)
{
	struct json_object *r = json_object_get(res[2]), *one[1] = { r }, *su, *fig;
	struct sb_table_opts o = { 0 };
	char *html;

	su = json_object_array_get_idx(json_object_object_get(r, "suites"), 0);
	fig = json_object_object_get(json_object_object_get(su, "figures"), "block_output");
	json_object_object_add(fig, "bound_by_machine", json_object_new_boolean(1));
	json_object_object_add(json_object_object_get(r, "host"), "outer",
			       json_tokener_parse("{\"hostname\": \"big-box\", \"cores\": 8}"));
	html = render(one, 1, &o, 0);
	assert_non_null(strstr(html, "<p class=\"fn\" id=\"fn-bound\">"));
	assert_int_equal(count(html, "href=\"#fn-bound\""), 1);
	assert_non_null(strstr(html, "big-box"));
	assert_non_null(strstr(html, "outer host"));
	free(html);
	json_object_object_del(fig, "bound_by_machine");
	json_object_object_del(json_object_object_get(r, "host"), "outer");
	json_object_put(r);
}

/* A stack name is data from a YAML file: escaped everywhere, ids sanitized. */
static void test_escaping(void **state)
{
	struct json_object *r = json_object_get(res[0]), *one[1] = { r };
	struct json_object *st = json_object_object_get(r, "stack");
	struct sb_table_opts o = { .columns = "stack,write" };
	char *old = strdup(json_object_get_string(json_object_object_get(st, "name"))), *html;

	json_object_object_add(st, "name", json_object_new_string("a<b>&\"c' d"));
	html = render(one, 1, &o, 0);
	assert_null(strstr(html, "<b>"));
	assert_null(strstr(html, "a<b"));
	assert_non_null(strstr(html, "a&lt;b&gt;&amp;&quot;c&#39; d"));
	assert_non_null(strstr(html, "id=\"stack-1-a_b___c__d\""));
	assert_non_null(strstr(html, "href=\"#stack-1-a_b___c__d\""));
	free(html);
	json_object_object_add(st, "name", json_object_new_string(old));
	free(old);
	json_object_put(r);
}

/* The waterfall's "lost against the layer below": the largest of the
 * highest order below (two members are one level), entries without an
 * order first and without a layer below. */
static void test_waterfall_below(void **state)
{
	static const char *pl =
		"[ {\"order\": 2, \"layer\": \"md\", \"device\": \"md0\", \"figures\": {\"seq_read_mbs\": 700}},"
		"  {\"order\": 1, \"layer\": \"loop\", \"device\": \"a\", \"figures\": {\"seq_read_mbs\": 800}},"
		"  {\"order\": 3, \"layer\": \"luks\", \"device\": \"dm-0\", \"figures\": {\"seq_read_mbs\": 650}},"
		"  {\"order\": 1, \"layer\": \"loop\", \"device\": \"b\", \"figures\": {\"seq_read_mbs\": 900}},"
		"  {\"layer\": \"x\", \"device\": \"none\", \"figures\": {\"seq_read_mbs\": 50}} ]";
	struct json_object *r = json_object_get(res[1]), *one[1] = { r };
	struct sb_table_opts o = { 0 };
	char *html;

	(void)state;
	json_object_object_add(r, "per_layer", json_tokener_parse(pl));
	html = render(one, 1, &o, 0);
	assert_non_null(strstr(html, ">700 (\xe2\x88\x92" "200)<"));   /* md: max(900, 800) - 700 */
	assert_non_null(strstr(html, ">650 (\xe2\x88\x92" "50)<"));      /* luks: md's 700 - 650 */
	assert_non_null(strstr(html, ">800</text>"));                   /* loop a: nothing below */
	assert_non_null(strstr(html, ">50</text>"));                    /* no order: nothing below */
	assert_int_equal(count(html, "fill=\"url(#sbp-drop)\""), 2);
	free(html);
	json_object_object_del(r, "per_layer");
	json_object_put(r);
}

/* 12,000 per-layer rows (past the results reader's 256-row bound: built
 * here in memory) render well inside the alarm's 20 s (0.1 s here, a few
 * under qemu-arm); the waterfall searched all entries before each one
 * (2 x 3 x n^2/2 lookups: about a minute here). */
static void test_waterfall_many_rows(void **state)
{
	const int n = 12000;
	struct json_object *r = json_object_get(res[1]), *one[1] = { r }, *pl = json_object_new_array();
	struct sb_table_opts o = { 0 };
	char *html, want[64];

	(void)state;
	for (int i = 0; i < n; i++) {
		struct json_object *e = json_object_new_object(), *f = json_object_new_object();

		json_object_object_add(e, "order", json_object_new_int(i / 2));
		json_object_object_add(e, "layer", json_object_new_string("l"));
		json_object_object_add(e, "device", json_object_new_string("d"));
		json_object_object_add(f, "seq_read_mbs", json_object_new_int(100000 - i));
		json_object_object_add(f, "seq_write_mbs", json_object_new_int(100000 - i));
		json_object_object_add(e, "figures", f);
		json_object_array_add(pl, e);
	}
	json_object_object_add(r, "per_layer", pl);
	alarm(20);
	html = render(one, 1, &o, 0);
	alarm(0);
	/* the last level (two members, 100000 - (n - 2) and - (n - 1)) lost 2
	 * and 3 against the level below's best, 100000 - (n - 4) */
	snprintf(want, sizeof(want), ">%d (\xe2\x88\x92" "3)", 100000 - (n - 1));
	assert_non_null(strstr(html, want));
	snprintf(want, sizeof(want), ">%d (\xe2\x88\x92" "2)", 100000 - (n - 2));
	assert_non_null(strstr(html, want));
	free(html);
	json_object_object_del(r, "per_layer");
	json_object_put(r);
}

static void test_write_file(void **state)
{
	char dir[] = "/tmp/sb-test-html.XXXXXX", path[512];
	struct sb_table_opts o = { 0 };
	struct sb_err err = { 0 };
	FILE *f;
	char head[64] = "";

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.html", dir);
	assert_int_equal(sb_html_write(res, NULL, N, &o, path, &err), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(head, sizeof(head), f));
	fclose(f);
	assert_string_equal(head, "<!DOCTYPE html>\n");
	unlink(path);
	rmdir(dir);
	snprintf(path, sizeof(path), "%s/no/such/dir/r.html", dir);
	assert_true(sb_html_write(res, NULL, N, &o, path, &err) < 0);
	assert_non_null(strstr(err.msg, "--report"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_helios4),
		cmocka_unit_test(test_baseline_columns),
		cmocka_unit_test(test_per_layer),
		cmocka_unit_test(test_bound_in_table),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_write_file),
		cmocka_unit_test(test_waterfall_below),
		cmocka_unit_test(test_waterfall_many_rows),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
