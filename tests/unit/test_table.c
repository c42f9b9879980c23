/* The table model (report/build.c, columns.c, cells.c): medians, units,
 * numbers, baseline %, repetitions, the default columns and what odd
 * results files do to them. The formats are test_formats.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core/layer.h"
#include "report/results.h"
#include "report/render.h"
#include "cmd/cmd.h"
#include "golden.h"

static void test_median_minmax(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 }, mn, mx;

	assert_true(sb_stats_median(odd, 3) == 3);
	assert_true(sb_stats_median(even, 4) == 2.5);
	assert_true(sb_stats_median(one, 1) == 7);
	assert_true(isnan(sb_stats_median(one, 0)));
	assert_true(odd[0] == 5); /* input untouched */
	sb_stats_minmax(even, 4, &mn, &mx);
	assert_true(mn == 1 && mx == 4);
}

static void test_units(void **state)
{
	double v;

	assert_int_equal(sb_unit_convert(1, "MiB/s", "MB/s", &v), 0);
	assert_true(fabs(v - 1.048576) < 1e-12);
	assert_int_equal(sb_unit_convert(146, "MB/s", "KiB/s", &v), 0);
	assert_true(fabs(v - 142578.125) < 1e-9);
	assert_int_equal(sb_unit_convert(2500000, "ns", "ms", &v), 0);
	assert_true(fabs(v - 2.5) < 1e-12);
	assert_int_equal(sb_unit_convert(3, "/s", "/s", &v), 0);
	assert_true(v == 3);
	assert_int_equal(sb_unit_convert(1, "MB/s", "ms", &v), -EINVAL);
	assert_int_equal(sb_unit_convert(1, "furlongs", "MB/s", &v), -EINVAL);
}

static void test_num_format(void **state)
{
	char b[32];

	sb_num_format(146.4, b, sizeof(b));
	assert_string_equal(b, "146");
	sb_num_format(96.6, b, sizeof(b));
	assert_string_equal(b, "97");
	sb_num_format(2.5, b, sizeof(b));
	assert_string_equal(b, "2.5");
	sb_num_format(0.01234, b, sizeof(b));
	assert_string_equal(b, "0.0123");
	sb_num_format(0, b, sizeof(b));
	assert_string_equal(b, "0");
}

static void test_baseline_pct(void **state)
{
	struct json_object *res[2] = { sb_test_load("results/ext4.json"), sb_test_load("results/luks4096.json") };
	struct sb_table_opts o = { .format = SB_FMT_TEXT, .baseline = "ext4" };
	struct sb_table t;
	struct sb_err err = { 0 };
	unsigned c;

	assert_int_equal(sb_table_build(res, 2, &o, &t, &err), 0);
	assert_int_equal(t.baseline, 0);
	for (c = 0; c < t.ncols && strcmp(t.cols[c].name, "write"); c++)
		;
	assert_true(c < t.ncols);
	assert_true(sb_table_cell(&t, 0, c)->has_pct);
	assert_true(fabs(sb_table_cell(&t, 0, c)->pct - 100.0) < 1e-9);
	assert_true(fabs(sb_table_cell(&t, 1, c)->pct - 73.0 / 160.0 * 100.0) < 1e-9);
	sb_table_free(&t);

	o.baseline = "nosuch";
	assert_int_equal(sb_table_build(res, 2, &o, &t, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "nosuch"));
	assert_non_null(strstr(err.msg, "ext4, luks4096"));
	json_object_put(res[0]);
	json_object_put(res[1]);
}

/* Repetitions pool across files of one stack and within a file. */
static void test_repetitions(void **state)
{
	struct json_object *res[3] = { sb_test_load("rep/ext4-2runs.json"), sb_test_load("rep/ext4-2runs.json"),
				       sb_test_load("results/ext4.json") };
	struct sb_table_opts o = { .columns = "write,seeks" };
	struct sb_table t;
	struct sb_err err = { 0 };

	assert_int_equal(sb_table_build(res, 3, &o, &t, &err), 0);
	assert_int_equal(t.nrows, 2);
	assert_int_equal(sb_table_cell(&t, 0, 0)->n, 4);
	assert_true(sb_table_cell(&t, 0, 0)->med == 162);
	assert_true(sb_table_cell(&t, 0, 0)->min == 160 && sb_table_cell(&t, 0, 0)->max == 164);
	assert_int_equal(sb_table_cell(&t, 1, 0)->n, 1);
	assert_true(t.any_reps);
	sb_table_free(&t);
	for (int i = 0; i < 3; i++)
		json_object_put(res[i]);
}

/* Same setup twice (near2 vs far2): the default table names the stacks;
 * differing RAID levels appear in Setup. */
static void test_ambiguous_and_raid(void **state)
{
	struct json_object *a = sb_test_load("results/ext4.json"), *b = sb_test_load("results/ext4.json"), *name, *md;
	struct json_object *res[2] = { a, b };
	struct sb_table_opts o = { 0 };
	struct sb_table t;
	struct sb_err err = { 0 };

	json_object_object_get_ex(b, "stack", &name);
	json_object_object_add(name, "name", json_object_new_string("ext4-raid10"));
	assert_int_equal(sb_table_build(res, 2, &o, &t, &err), 0);
	assert_string_equal(t.cols[0].name, "stack");
	assert_string_equal(sb_table_cell(&t, 0, 1)->str, "EXT4");
	sb_table_free(&t);

	md = sb_results_built_layer(b, "md");
	json_object_object_add(md, "level", json_object_new_string("raid10"));
	sb_layer_label_results(b, NULL);   /* the labels follow what was read back */
	assert_int_equal(sb_table_build(res, 2, &o, &t, &err), 0);
	assert_string_equal(t.cols[0].name, "setup");
	assert_string_equal(sb_table_cell(&t, 0, 0)->str, "EXT4 on RAID1");
	assert_string_equal(sb_table_cell(&t, 1, 0)->str, "EXT4 on RAID10");
	sb_table_free(&t);
	json_object_put(a);
	json_object_put(b);
}

static void test_bad_columns(void **state)
{
	struct sb_column col;
	struct sb_err err = { 0 };

	assert_int_equal(sb_column_resolve("bogus", &col, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown column 'bogus'"));
	assert_int_equal(sb_column_resolve("fio-matrix.read_qd32_j4", &col, NULL), 0);
	assert_int_equal(col.numeric, 1);
	assert_int_equal(sb_column_resolve("quick.randread.p99.9", &col, NULL), 0);
	assert_string_equal(col.unit, "ms");
	assert_int_equal(sb_column_resolve("util:loop0", &col, NULL), 0);
	assert_string_equal(col.arg, "loop0");
}

/* Without stack.built (a run that failed before read-back), the text
 * columns come from the stack as planned and requested. */
static void test_requested_fallback(void **state)
{
	struct json_object *r = sb_test_load("results/ext4.json"), *stack, *req, *luks, *fs, *planned;
	struct json_object *res[1] = { r };
	struct sb_table_opts o = { .columns = "setup,luks_sector,cipher,crypto_driver" };
	struct sb_table t;
	struct sb_err err = { 0 };

	json_object_object_get_ex(r, "stack", &stack);
	json_object_object_del(stack, "built");
	/* what the run wrote before the build: the layers the spec wants */
	planned = json_object_new_array();
	for (unsigned i = 0; i < 4; i++) {
		struct json_object *l = json_object_new_object();
		static const char *const names[] = { "loop", "luks", "ext4", "mount" };

		json_object_object_add(l, "layer", json_object_new_string(names[i]));
		json_object_array_add(planned, l);
	}
	json_object_object_add(stack, "planned", planned);
	sb_layer_label_results(r, NULL);
	req = json_object_new_object();
	luks = json_object_new_object();
	fs = json_object_new_object();
	json_object_object_add(luks, "cipher", json_object_new_string("aes-xts-plain64"));
	json_object_object_add(luks, "sector_size", json_object_new_int(4096));
	json_object_object_add(fs, "type", json_object_new_string("ext4"));
	json_object_object_add(req, "luks", luks);
	json_object_object_add(req, "fs", fs);
	json_object_object_add(stack, "requested", req);
	assert_int_equal(sb_table_build(res, 1, &o, &t, &err), 0);
	assert_string_equal(sb_table_cell(&t, 0, 0)->str, "EXT4 on LUKS");
	assert_string_equal(sb_table_cell(&t, 0, 1)->str, "4096");
	assert_string_equal(sb_table_cell(&t, 0, 2)->str, "aes-xts-plain64");
	assert_string_equal(sb_table_cell(&t, 0, 3)->str, "?"); /* LUKS asked for, driver never read back */
	sb_table_free(&t);
	json_object_put(r);
}

/* What sb_spec_to_json writes: a disabled section is {"enabled": false},
 * which is no LUKS, not an unknown one. */
static void test_requested_disabled(void **state)
{
	struct json_object *r[1];
	struct sb_table_opts o = { .columns = "setup,luks_sector,cipher" };
	struct sb_table t;
	struct sb_err err = { 0 };

	r[0] = json_tokener_parse(
		"{\"schema\":\"stackbench-results/1\",\"host\":{},\"suites\":[],"
		"\"stack\":{\"name\":\"ext4\",\"requested\":{\"fs\":{\"type\":\"ext4\"},"
		"\"luks\":{\"enabled\":false},\"lvm\":{\"enabled\":false}}}}");
	assert_non_null(r[0]);
	assert_int_equal(sb_table_build(r, 1, &o, &t, &err), 0);
	assert_string_equal(sb_table_cell(&t, 0, 0)->str, "EXT4");
	assert_string_equal(sb_table_cell(&t, 0, 1)->str, "no luks");
	assert_string_equal(sb_table_cell(&t, 0, 2)->str, "none");
	sb_table_free(&t);
	json_object_put(r[0]);
}

/* No bonnie suite: the default columns are the stack and its suite's figures. */
static void test_default_without_bonnie(void **state)
{
	struct json_object *r[1];
	struct sb_table_opts o = { 0 };
	struct sb_table t;
	struct sb_err err = { 0 };

	r[0] = json_tokener_parse(
		"{\"schema\":\"stackbench-results/1\",\"host\":{},"
		"\"stack\":{\"name\":\"raid10-near2\"},"
		"\"suites\":[{\"suite\":\"fio-matrix\",\"repetition\":1,\"figures\":{"
		"\"read_qd1_j1\":{\"value\":300.5,\"unit\":\"MB/s\"},"
		"\"write_qd32_j4\":{\"value\":250,\"unit\":\"MB/s\"}}}]}");
	assert_non_null(r[0]);
	assert_int_equal(sb_table_build(r, 1, &o, &t, &err), 0);
	assert_int_equal(t.ncols, 3);
	assert_string_equal(sb_table_cell(&t, 0, 0)->str, "raid10-near2");
	assert_true(sb_table_cell(&t, 0, 1)->present);
	assert_true(sb_table_cell(&t, 0, 2)->present);
	sb_table_free(&t);
	json_object_put(r[0]);
}

/* bound_by_machine figures carry a mark and a footnote in every format. */
static void test_bound_by_machine(void **state)
{
	struct json_object *r[1];
	struct sb_table_opts o = { .columns = "dd.write,dd.read" };
	struct sb_err err = { 0 };
	enum sb_table_format f;
	char *buf;
	size_t len;
	FILE *m;

	r[0] = json_tokener_parse(
		"{\"schema\":\"stackbench-results/1\",\"host\":{},\"stack\":{\"name\":\"ext4\"},"
		"\"suites\":[{\"suite\":\"dd\",\"repetition\":1,\"figures\":{"
		"\"write\":{\"value\":300,\"unit\":\"MB/s\",\"bound_by_machine\":true},"
		"\"read\":{\"value\":900,\"unit\":\"MB/s\"}}}]}");
	assert_non_null(r[0]);
	for (f = SB_FMT_TEXT; f <= SB_FMT_JSON; f++) {
		o.format = f;
		m = open_memstream(&buf, &len);
		assert_int_equal(sb_table_render(r, 1, &o, m, &err), 0);
		fclose(m);
		if (f == SB_FMT_TEXT || f == SB_FMT_MARKDOWN) {
			assert_non_null(strstr(buf, "300 \xe2\x80\xa0"));
			assert_null(strstr(buf, "900 \xe2\x80\xa0"));
			assert_non_null(strstr(buf, "bound by the machine, not the stack"));
		} else if (f == SB_FMT_CSV) {
			assert_non_null(strstr(buf, "bound by machine"));
			assert_non_null(strstr(buf, "bound_by_machine"));
		} else {
			assert_non_null(strstr(buf, "\"dd.write_bound_by_machine\": true"));
			assert_null(strstr(buf, "dd.read_bound_by_machine"));
		}
		free(buf);
	}
	json_object_put(r[0]);
}



/* Odd shapes in optional parts (a helper's bug, a hand-edited file) give
 * "-" cells, never a crash. */
static void test_odd_shapes(void **state)
{
	struct json_object *r = sb_test_load("rep/ext4-2runs.json"), *suites, *s0, *figs;
	struct json_object *res[1] = { r };
	struct sb_table_opts o = { .columns = "write,quick.randread.p99,util:sda,quick.seq_read",
				   .format = SB_FMT_CSV };
	struct sb_err err = { 0 };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	json_object_object_get_ex(r, "suites", &suites);
	for (size_t i = 0; i < json_object_array_length(suites); i++) {
		s0 = json_object_array_get_idx(suites, i);
		json_object_object_add(s0, "jobs", json_object_new_string("x"));
		json_object_object_add(s0, "disk_util", json_object_new_object());
		json_object_object_get_ex(s0, "figures", &figs);
		json_object_object_add(figs, "block_output", json_object_new_string("fast"));
		json_object_object_add(figs, "seq_read", json_object_new_array());
	}
	assert_int_equal(sb_table_render(res, 1, &o, f, &err), 0);
	fclose(f);
	assert_string_equal(buf, "stack,write MB/s,quick.randread.p99 ms,sda util %,quick.seq_read\r\n"
				 "ext4-2runs,,,,\r\n");
	free(buf);
	json_object_put(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_minmax),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_num_format),
		cmocka_unit_test(test_baseline_pct),
		cmocka_unit_test(test_repetitions),
		cmocka_unit_test(test_ambiguous_and_raid),
		cmocka_unit_test(test_bad_columns),
		cmocka_unit_test(test_requested_fallback),
		cmocka_unit_test(test_requested_disabled),
		cmocka_unit_test(test_default_without_bonnie),
		cmocka_unit_test(test_bound_by_machine),
		cmocka_unit_test(test_odd_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
