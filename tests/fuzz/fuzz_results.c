/* libFuzzer target for the results reader and every renderer: any bytes
 * through sb_results_parse (the parse, the one-document rule, the shape
 * check against docs/results-schema.json and the bounds), and on success,
 * the file twice beside itself (a two-row table), through the table in
 * every format, the per-layer table, the backup estimate, the HTML page
 * and both charts (SVG, to a file in /tmp). */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "report/backup.h"
#include "report/chart.h"
#include "report/format.h"
#include "report/html.h"
#include "report/per_layer.h"
#include "report/results.h"
#include "report/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render_all(struct json_object **res, unsigned n)
{
	static const char *const paths[] = { "a.json", "b.json" };
	struct sb_table_opts o = { 0 };
	struct sb_err e = { 0 };
	char chart[64];
	FILE *out = fopen("/dev/null", "w");
	int f;

	if (!out)
		abort();
	o.paths = paths;
	for (f = 0; f < SB_FMT_COUNT; f++) {
		o.format = f;
		sb_err_clear(&e);
		sb_table_render(res, n, &o, out, &e);
		sb_err_clear(&e);
		sb_per_layer_render(res, n, f, out, &e);
	}
	o.format = SB_FMT_TEXT;
	o.pivot = "host";
	sb_err_clear(&e);
	sb_table_render(res, n, &o, out, &e);
	o.pivot = NULL;
	sb_err_clear(&e);
	sb_html_render(res, paths, n, &o, out, &e);
	sb_backup_render(res, n, 1ULL << 40, out);
	fclose(out);
	o.format = SB_FMT_TEXT;
	snprintf(chart, sizeof(chart), "/tmp/sb-fuzz-results-%d.svg", (int)getpid());
	sb_err_clear(&e);
	sb_chart_write(res, n, &o, chart, &e);
	sb_err_clear(&e);
	sb_per_layer_chart(res, n, chart, &e);
	unlink(chart);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object *res[2] = { NULL, NULL };
	struct sb_err e = { 0 };

	if (sb_results_parse((const char *)data, size, "fuzz.json", &res[0], &e) == 0) {
		res[1] = res[0];
		render_all(res, 2);
		json_object_put(res[0]);
	}
	return 0;
}
