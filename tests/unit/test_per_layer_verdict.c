/* compare --per-layer with rows repeated (report/per_layer_verdict.c):
 * each layer against the layer below in the same run, paired over the
 * runs. Expected values: the paired t interval of the mean of
 * ln(pct_of_below / 100), computed by hand (Python's math and statistics:
 * mean, stdev) with t(0.975, df 2) = 0.95 / sqrt(2 * 0.975 * 0.025) =
 * 4.302652729749464 (the closed form of Student's t quantile for 2
 * degrees of freedom). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <json-c/json.h>

#include "report/per_layer.h"
#include "report/table.h"
#include "report/verdict.h"

static struct json_object *pl_row(const char *layer, const char *dev, double w, double r, double pw, double pr)
{
	struct json_object *o = json_object_new_object(), *f = json_object_new_object();
	struct json_object *p = json_object_new_object();

	json_object_object_add(o, "layer", json_object_new_string(layer));
	json_object_object_add(o, "device", json_object_new_string(dev));
	json_object_object_add(f, "seq_write_mbs", json_object_new_double(w));
	json_object_object_add(f, "seq_read_mbs", json_object_new_double(r));
	json_object_object_add(f, "randread_4k_iops", NULL);
	json_object_object_add(o, "figures", f);
	json_object_object_add(p, "seq_write_mbs", pw < 0 ? NULL : json_object_new_double(pw));
	json_object_object_add(p, "seq_read_mbs", pr < 0 ? NULL : json_object_new_double(pr));
	json_object_object_add(p, "randread_4k_iops", NULL);
	json_object_object_add(o, "pct_of_below", p);
	return o;
}

/* A results file of stack name: loop (the base) then lvm at pw / pr % of it. */
static struct json_object *run_of(const char *name, double pw, double pr)
{
	struct json_object *r = json_object_new_object(), *st = json_object_new_object();
	struct json_object *rows = json_object_new_array();

	json_object_object_add(st, "name", json_object_new_string(name));
	json_object_object_add(r, "stack", st);
	json_object_array_add(rows, pl_row("loop", "/dev/loop0", 500, 800, -1, -1));
	json_object_array_add(rows, pl_row("lvm", "/dev/dm-0", 5 * pw, 8 * pr, pw, pr));
	json_object_object_add(r, "per_layer", rows);
	return r;
}

static void test_paired_over_runs(void **state)
{
	struct json_object *res[4] = { run_of("s", 90, 100), run_of("s", 92, 101), run_of("s", 88, 99),
				       run_of("t", 50, 50) };
	struct sb_verdict v;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	/* the base has nothing below: no verdict */
	sb_pl_verdict(res, 3, 0, 0, &v);
	assert_int_equal(v.state, SB_VERDICT_NONE);
	/* seq write at 90, 92, 88 % of below: -10.01 % [-14.85, -4.91] */
	sb_pl_verdict(res, 3, 1, 0, &v);
	assert_int_equal(v.state, SB_VERDICT_CI);
	assert_int_equal(v.ci.method, SB_STATS_PAIRED);
	assert_float_equal(v.ci.diff_pct, -10.014817254136721, 1e-6);
	assert_float_equal(v.ci.lo_pct, -14.848524558711073, 1e-6);
	assert_float_equal(v.ci.hi_pct, -4.906719797363468, 1e-6);
	assert_int_equal(v.sign, -1);
	/* seq read at 100, 101, 99 %: -0.33 % [-2.46, +2.51], half 2.52 % */
	sb_pl_verdict(res, 3, 1, 1, &v);
	assert_float_equal(v.ci.half_pct, 2.5153450023675195, 1e-6);
	assert_int_equal(v.sign, 0);
	/* two runs: too few */
	sb_pl_verdict(res, 2, 1, 0, &v);
	assert_int_equal(v.state, SB_VERDICT_FEW);

	f = open_memstream(&text, &len);
	sb_pl_render_verdicts(res, 4, false, f);
	fclose(f);
	assert_non_null(strstr(text, "Verdicts per layer (rows repeated):\n"
			       "s: 3 runs, each layer against the layer below in the same run (paired"));
	assert_non_null(strstr(text, "  lvm (/dev/dm-0): seq write "));
	assert_non_null(strstr(text, "slower; seq read "));
	assert_non_null(strstr(text, "no detectable difference"));
	assert_null(strstr(text, "loop (/dev/loop0)"));   /* the base */
	assert_null(strstr(text, "t: "));                  /* one run: rows not repeated */
	free(text);
	/* one run of each: nothing said */
	text = NULL;
	f = open_memstream(&text, &len);
	sb_pl_render_verdicts(&res[2], 2, false, f);
	fclose(f);
	assert_string_equal(text, "");
	free(text);
	for (i = 0; i < 4; i++)
		json_object_put(res[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paired_over_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
