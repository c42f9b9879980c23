/* Results files: build, write, read back; schema and shape rejection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/results.h"

static char tmpdir[] = "/tmp/sb-test-results.XXXXXX";

static int setup(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, k, &v);
	return v;
}

static void test_host(void **state)
{
	struct json_object *h = NULL;
	struct sb_err err = { 0 };
	FILE *f;
	char line[512];
	int uml = 0;

	assert_int_equal(sb_host_info(&h, &err), 0);
	assert_true(json_object_get_int64(get(h, "cores")) >= 1);
	assert_true(json_object_get_int64(get(h, "ram_bytes")) > 0);
	assert_true(strlen(json_object_get_string(get(h, "kernel"))) > 0);
	assert_true(strlen(json_object_get_string(get(h, "cpu_model"))) > 0);
	/* sandbox must agree with what /proc/cpuinfo says independently */
	f = fopen("/proc/cpuinfo", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "User Mode Linux"))
			uml = 1;
	fclose(f);
	assert_int_equal(json_object_get_boolean(get(h, "sandbox")), uml);
	json_object_put(h);
}

static void test_round_trip(void **state)
{
	struct json_object *res = NULL, *back = NULL, *req = json_object_new_object();
	struct json_object *built = json_object_new_array(), *suite = json_object_new_object();
	struct json_object *figs = json_object_new_object(), *fig = json_object_new_object();
	struct sb_err err = { 0 };
	char dir[512], p1[4096], p2[4096];
	const char *base;

	json_object_object_add(req, "name", json_object_new_string("rt"));
	assert_int_equal(sb_results_new("rt/x", req, &res, &err), 0);
	assert_string_equal(json_object_get_string(get(res, "schema")), SB_RESULTS_SCHEMA);
	assert_int_equal(strlen(json_object_get_string(get(res, "started"))), 20);
	assert_int_equal(json_object_get_string(get(res, "started"))[19], 'Z');
	json_object_array_add(built, json_object_new_object());
	json_object_object_add(json_object_array_get_idx(built, 0), "layer", json_object_new_string("luks"));
	assert_int_equal(sb_results_set_built(res, built), 0);
	json_object_object_add(fig, "value", json_object_new_double(146.5));
	json_object_object_add(fig, "unit", json_object_new_string("MB/s"));
	json_object_object_add(figs, "block_output", fig);
	json_object_object_add(suite, "suite", json_object_new_string("bonnie"));
	json_object_object_add(suite, "repetition", json_object_new_int(1));
	json_object_object_add(suite, "figures", figs);
	assert_int_equal(sb_results_add_suite(res, suite), 0);
	assert_int_equal(sb_results_finish(res), 0);
	assert_non_null(sb_results_built_layer(res, "luks"));
	assert_null(sb_results_built_layer(res, "md"));

	snprintf(dir, sizeof(dir), "%s/a/b", tmpdir);   /* mkdir -p */
	assert_int_equal(sb_results_write(res, dir, p1, sizeof(p1), &err), 0);
	assert_int_equal(sb_results_write(res, dir, p2, sizeof(p2), &err), 0);
	assert_string_not_equal(p1, p2);                 /* never overwrites */
	base = strrchr(p1, '/') + 1;
	assert_true(!strncmp(base, "rt_x-", 5));         /* '/' in a name is not a directory */
	assert_non_null(strstr(base, "Z"));
	assert_string_equal(base + strlen(base) - 5, ".json");

	assert_int_equal(sb_results_read(p1, &back, &err), 0);
	assert_true(json_object_equal(res, back));
	assert_string_equal(sb_results_stack_name(back), "rt/x");
	json_object_put(back);
	json_object_put(res);

	/* no temp files left behind */
	{
		DIR *d = opendir(dir);
		struct dirent *e;
		int n = 0;

		assert_non_null(d);
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' || strcmp(e->d_name, ".") * strcmp(e->d_name, "..") == 0)
				n += e->d_name[0] != '.';
			else
				fail_msg("temp file left: %s", e->d_name);
		closedir(d);
		assert_int_equal(n, 2);
	}
}

static void expect_reject(const char *content, const char *msg_part)
{
	char path[512];
	struct json_object *o = (void *)1;
	struct sb_err err = { 0 };
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad.json", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
	assert_int_equal(sb_results_read(path, &o, &err), -EINVAL);
	assert_null(o);
	assert_non_null(strstr(err.msg, path));          /* names the file */
	if (!strstr(err.msg, msg_part))
		fail_msg("message '%s' lacks '%s'", err.msg, msg_part);
}

#define GOOD_HEAD "{\"schema\":\"stackbench-results/1\",\"stackbench_version\":\"0.1.0\"," \
	"\"started\":\"2026-01-01T00:00:00Z\",\"host\":{},"

#define GOOD_STACK "\"stack\":{\"name\":\"x\",\"requested\":{}}"
#define GOOD_DOC GOOD_HEAD GOOD_STACK ",\"suites\":[]}"

/* Files from another machine, of the shapes that crashed every reader
 * (issue 24): each is refused naming the key, before any renderer. */
static void test_reject_shape(void **state)
{
	char *big;
	size_t i, n;

	(void)state;
	expect_reject(GOOD_HEAD "\"stack\":{\"name\":\"x\",\"requested\":{},\"built\":[{\"layer\":\"disks\"},"
		      "{\"layer\":\"md\"},{\"layer\":null}]},\"suites\":[]}",
		      "stack.built[2].layer: expected a string, got null");
	expect_reject(GOOD_HEAD "\"stack\":{\"name\":\"x\",\"requested\":{},\"built\":[{\"layer\":\"md\","
		      "\"level\":null}]},\"suites\":[]}", "stack.built[0].level: expected a string, got null");
	expect_reject(GOOD_HEAD GOOD_STACK ",\"suites\":[{\"suite\":\"dd\",\"figures\":{},\"notes\":[null]}]}",
		      "suites[0].notes[0]: expected a string, got null");
	expect_reject(GOOD_HEAD "\"stack\":{\"name\":\"x\"},\"suites\":[]}", "stack has no \"requested\"");
	expect_reject(GOOD_HEAD GOOD_STACK ",\"suites\":[],\"per_layer\":[{\"layer\":\"md\",\"device\":\"d\","
		      "\"figures\":{}},3]}", "per_layer[1]: expected an object, got an integer");
	expect_reject(GOOD_HEAD "\"stack\":{\"name\":null,\"requested\":{}},\"suites\":[]}",
		      "stack.name: expected a string, got null");
	/* two documents in one file: not the first alone */
	expect_reject(GOOD_DOC "\n" GOOD_DOC, "not one JSON document: more follows the first");
	/* a control sequence quoted in the message reaches no terminal */
	expect_reject("{\"schema\":\"stackbench-results/1\",\"stackbench_version\":\"0.1\",\"started\":"
		      "\"\\u001b]0;owned\\u0007\",\"host\":{}," GOOD_STACK ",\"suites\":[]}", "started: \"?]0;owned?\"");
	/* bounds: the rows, and the size */
	n = 300;
	big = malloc(n * 64 + 512);
	assert_non_null(big);
	strcpy(big, GOOD_HEAD GOOD_STACK ",\"suites\":[],\"per_layer\":[");
	for (i = 0; i < n; i++)
		strcat(big, i ? ",{\"layer\":\"md\",\"device\":\"d\",\"figures\":{}}" :
			    "{\"layer\":\"md\",\"device\":\"d\",\"figures\":{}}");
	strcat(big, "]}");
	expect_reject(big, "per_layer: 300 entries, more than the 256");
	free(big);
	big = malloc(SB_RESULTS_MAX_BYTES + 64);
	assert_non_null(big);
	memset(big, ' ', SB_RESULTS_MAX_BYTES + 63);
	big[SB_RESULTS_MAX_BYTES + 63] = '\0';
	memcpy(big, GOOD_DOC, strlen(GOOD_DOC));
	expect_reject(big, "a regular file of at most 8 MiB");
	free(big);
}

static void test_reject(void **state)
{
	struct json_object *o;
	struct sb_err err = { 0 };

	expect_reject("not json at all", "not a valid JSON results file");
	/* cut short: says so, not json-c's "continue" */
	expect_reject(GOOD_HEAD "\"stack\":{\"na", "truncated results file: the JSON ends after");
	expect_reject("", "truncated results file");
	expect_reject("[1,2]", "not a JSON object");
	expect_reject("{\"schema\":\"stackbench-results/2\"}", "unsupported results schema \"stackbench-results/2\"");
	expect_reject("{\"fio version\":\"fio-3.33\"}", "has no \"schema\"");
	expect_reject(GOOD_HEAD "\"stack\":{\"name\":\"x\"}}", "has no \"suites\"");
	expect_reject(GOOD_HEAD "\"stack\":{},\"suites\":[]}", "stack has no \"name\"");
	expect_reject(GOOD_HEAD "\"stack\":{\"name\":\"x\"},\"suites\":{}}", "suites: expected an array, got an object");
	expect_reject(GOOD_HEAD GOOD_STACK ",\"suites\":[{\"suite\":\"bonnie\"}]}",
		      "suites[0] has no \"figures\"");
	assert_int_equal(sb_results_read("/nonexistent/r.json", &o, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "/nonexistent/r.json"));
}

/* The reading accessors: each part of the schema by its own function,
 * and NULL / "" / false (never a crash) where a part is absent or of
 * another type, as in a hand-edited or half-written file. */
static void test_accessors(void **state)
{
	struct json_object *r = json_tokener_parse(
		"{\"started\":\"2026-11-30T01:02:03Z\",\"finished\":\"2026-11-30T01:09:00Z\","
		"\"host\":{\"hostname\":\"nas\",\"sandbox\":true,\"outer\":{\"cpu_model\":\"ARM\"}},"
		"\"stack\":{\"name\":\"luks\",\"requested\":{\"luks\":{}},\"built\":[{\"layer\":\"md\"}]},"
		"\"notes\":[\"n1\"],\"per_layer\":[{},{}],"
		"\"suites\":[{\"suite\":\"dd\",\"figures\":{\"seq_write\":{}},\"notes\":[]},{\"suite\":3}]}");
	struct json_object *bad = json_tokener_parse(
		"{\"started\":1,\"host\":[],\"stack\":{\"built\":{}},\"per_layer\":{},\"suites\":{}}");

	(void)state;
	assert_non_null(r);
	assert_non_null(bad);
	assert_string_equal(sb_results_started(r), "2026-11-30T01:02:03Z");
	assert_string_equal(sb_results_finished(r), "2026-11-30T01:09:00Z");
	assert_string_equal(sb_results_stack_name(r), "luks");
	assert_string_equal(sb_results_host_name(r), "nas");
	assert_true(sb_results_sandboxed(r));
	assert_non_null(sb_results_host_outer(r));
	assert_non_null(json_object_object_get(sb_results_requested(r), "luks"));
	assert_int_equal(json_object_array_length(sb_results_built(r)), 1);
	assert_non_null(sb_results_built_layer(r, "md"));
	assert_int_equal(json_object_array_length(sb_results_notes(r)), 1);
	assert_int_equal(json_object_array_length(sb_results_per_layer(r)), 2);
	assert_int_equal(sb_results_nsuites(r), 2);
	assert_string_equal(sb_results_suite_name(sb_results_suite(r, 0)), "dd");
	assert_non_null(json_object_object_get(sb_results_suite_figures(sb_results_suite(r, 0)), "seq_write"));
	assert_non_null(sb_results_suite_notes(sb_results_suite(r, 0)));
	assert_string_equal(sb_results_suite_name(sb_results_suite(r, 1)), "");   /* not a string */
	assert_null(sb_results_suite_figures(sb_results_suite(r, 1)));
	assert_null(sb_results_suite(r, 2));

	assert_string_equal(sb_results_started(bad), "");
	assert_string_equal(sb_results_finished(bad), "");
	assert_null(sb_results_host(bad));
	assert_false(sb_results_sandboxed(bad));
	assert_null(sb_results_built(bad));
	assert_null(sb_results_requested(bad));
	assert_null(sb_results_per_layer(bad));
	assert_int_equal(sb_results_nsuites(bad), 0);
	assert_null(sb_results_suite(bad, 0));
	assert_null(sb_results_suite(NULL, 0));

	assert_int_equal(sb_results_set_per_layer(bad, json_object_new_array()), 0);
	assert_non_null(sb_results_per_layer(bad));
	json_object_put(r);
	json_object_put(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_reject),
		cmocka_unit_test(test_reject_shape),
		cmocka_unit_test(test_accessors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
