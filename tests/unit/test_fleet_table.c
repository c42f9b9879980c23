/* The fleet's side of compare: rows per stack and machine, the host column
 * (host.label, else hostname), --pivot host, host.label from the
 * environment, and exit 6 for "partial". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/results.h"
#include "report/table.h"
#include "util/err.h"

static struct json_object *res(const char *stack, const char *hostjson, double w)
{
	char js[1024];

	snprintf(js, sizeof(js),
		 "{\"schema\":\"stackbench-results/1\",\"host\":%s,\"stack\":{\"name\":\"%s\"},"
		 "\"suites\":[{\"suite\":\"quick\",\"repetition\":1,\"figures\":{"
		 "\"seq_write\":{\"value\":%g,\"unit\":\"MB/s\"}}}]}", hostjson, stack, w);
	return json_tokener_parse(js);
}

#define H1 "{\"hostname\":\"box\",\"label\":\"h1\"}"
#define H2 "{\"hostname\":\"box\",\"label\":\"h2\"}"

static void test_rows_per_host(void **state)
{
	struct json_object *r[4] = { res("a", H1, 100), res("a", H2, 200), res("a", H1, 110),
				     res("b", H2, 300) };
	struct sb_table_opts o = { 0 };
	struct sb_table t;
	struct sb_err err = { 0 };
	unsigned i;

	(void)state;
	assert_int_equal(sb_table_build(r, 4, &o, &t, &err), 0);
	assert_int_equal(t.nrows, 3);        /* a@h1 (2 reps), a@h2, b@h2 */
	assert_string_equal(t.cols[1].name, "host");
	assert_string_equal(sb_table_cell(&t, 0, 1)->str, "h1");   /* label, not hostname */
	assert_string_equal(sb_table_cell(&t, 1, 1)->str, "h2");
	assert_int_equal(sb_table_cell(&t, 0, 2)->n, 2);
	assert_int_equal(sb_table_cell(&t, 2, 2)->med, 300);
	sb_table_free(&t);
	/* one machine: no host column, repetitions pooled as before */
	assert_int_equal(sb_table_build((struct json_object *[]){ r[0], r[2] }, 2, &o, &t, &err), 0);
	assert_int_equal(t.nrows, 1);
	assert_int_equal(t.ncols, 2);
	sb_table_free(&t);
	for (i = 0; i < 4; i++)
		json_object_put(r[i]);
}

static void test_hostname_fallback(void **state)
{
	struct json_object *a = res("a", "{\"hostname\":\"nas\"}", 1);
	struct json_object *b = res("a", "{\"hostname\":\"server\"}", 2);

	(void)state;
	assert_string_equal(sb_results_host_name(a), "nas");
	assert_string_equal(sb_results_host_name(b), "server");
	json_object_put(a);
	json_object_put(b);
}

static void test_pivot(void **state)
{
	struct json_object *r[4] = { res("a", H1, 100), res("a", H2, 200), res("a", H1, 110),
				     res("b", H2, 300) };
	struct sb_table_opts o = { .pivot = "host" };
	struct sb_table t;
	struct sb_err err = { 0 };
	unsigned i;

	(void)state;
	assert_int_equal(sb_table_build(r, 4, &o, &t, &err), 0);
	assert_int_equal(t.nrows, 2);                 /* stacks as rows */
	assert_int_equal(t.ncols, 3);                 /* stack, seq_write @ h1, @ h2 */
	assert_string_equal(t.row_stack[0], "a");
	assert_string_equal(t.row_stack[1], "b");
	assert_non_null(strstr(t.cols[1].header, "@ h1"));
	assert_non_null(strstr(t.cols[2].header, "@ h2"));
	assert_string_equal(t.cols[1].name, "quick.seq_write@h1");   /* JSON keys differ */
	assert_int_equal(sb_table_cell(&t, 0, 1)->n, 2);
	assert_true(sb_table_cell(&t, 0, 1)->med == 105);
	assert_true(sb_table_cell(&t, 0, 2)->med == 200);
	assert_false(sb_table_cell(&t, 1, 1)->present);   /* b never ran on h1 */
	assert_true(sb_table_cell(&t, 1, 2)->med == 300);
	sb_table_free(&t);
	o.pivot = "stack";
	assert_int_equal(sb_table_build(r, 4, &o, &t, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "only 'host'"));
	for (i = 0; i < 4; i++)
		json_object_put(r[i]);
}

static void test_label_env(void **state)
{
	struct json_object *h = NULL, *v;

	(void)state;
	setenv("STACKBENCH_HOST_LABEL", "rack-3", 1);
	assert_int_equal(sb_host_info(&h, NULL), 0);
	assert_true(json_object_object_get_ex(h, "label", &v));
	assert_string_equal(json_object_get_string(v), "rack-3");
	json_object_put(h);
	unsetenv("STACKBENCH_HOST_LABEL");
	assert_int_equal(sb_host_info(&h, NULL), 0);
	assert_false(json_object_object_get_ex(h, "label", &v));
	json_object_put(h);
}

static void test_exit_partial(void **state)
{
	(void)state;
	assert_int_equal(sb_err_exit_code(-SB_EPARTIAL), SB_EXIT_PARTIAL);
	assert_int_equal(SB_EXIT_PARTIAL, 6);
	assert_int_equal(sb_err_exit_code(-EIO), SB_EXIT_FAIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_per_host),
		cmocka_unit_test(test_hostname_fallback),
		cmocka_unit_test(test_pivot),
		cmocka_unit_test(test_label_env),
		cmocka_unit_test(test_exit_partial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
