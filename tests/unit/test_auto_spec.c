/* bench.repeat: auto in stack files (spec/options.c, spec/convert.c), the
 * run's rule from the flags and the stacks (run/auto.c) and what the plan
 * says auto can cost (run/cost.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <json-c/json.h>

#include "fixture.h"
#include "run/auto.h"
#include "run/cost.h"
#include "spec/spec.h"

#define LOOP "devices: {loop: {size: 64MiB}}\n"

static void test_keys(void **state)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load(LOOP "bench: {suites: [dd], repeat: auto, precision: 2.5%, "
					  "min_repeat: 4, max_repeat: 8, max_time: 30m}\n", 0, &err);
	const struct sb_bench_spec *b = &l.items[0].bench;
	struct json_object *j, *bench;

	assert_int_equal(b->repeat, 0);
	assert_float_equal(b->precision_pct, 2.5, 1e-12);
	assert_int_equal(b->min_repeat, 4);
	assert_int_equal(b->max_repeat, 8);
	assert_int_equal(b->max_time_ns, 1800ULL * 1000000000ULL);
	assert_int_equal(sb_spec_to_json(&l.items[0], &j), 0);
	assert_true(json_object_object_get_ex(j, "bench", &bench));
	assert_string_equal(json_object_get_string(json_object_object_get(bench, "repeat")), "auto");
	assert_float_equal(json_object_get_double(json_object_object_get(bench, "precision")), 2.5, 1e-12);
	json_object_put(j);
	sb_spec_list_free(&l);

	/* the defaults: a number, and auto's settings as --repeat auto's */
	l = sb_t_load(LOOP, 0, &err);
	b = &l.items[0].bench;
	assert_int_equal(b->repeat, 1);
	assert_float_equal(b->precision_pct, 5, 1e-12);
	assert_int_equal(b->min_repeat, 3);
	assert_int_equal(b->max_repeat, 10);
	assert_int_equal(b->max_time_ns, 0);
	sb_spec_list_free(&l);

	/* --set reaches it like the file */
	{
		const char *sets[] = { "bench.repeat=auto", "bench.precision=7" };

		assert_int_equal(sb_spec_load_buffer(LOOP, strlen(LOOP), "t.yml", sets, 2, &l, &err), 0);
		assert_int_equal(l.items[0].bench.repeat, 0);
		assert_float_equal(l.items[0].bench.precision_pct, 7, 1e-12);
		sb_spec_list_free(&l);
	}
}

static void test_bad_keys(void **state)
{
	sb_t_load_bad("bench: {repeat: sometimes}\n",
		      "t.yml:1:17: bench.repeat: expected auto or a whole number from 1 to 100, got 'sometimes'");
	sb_t_load_bad("bench: {repeat: 0}\n",
		      "t.yml:1:17: bench.repeat: expected auto or a whole number from 1 to 100, got '0'");
	sb_t_load_bad("bench: {precision: 0%}\n",
		      "t.yml:1:20: bench.precision: expected a percentage above 0 and below 100 such as 5% or "
		      "2.5%, got '0%'");
	sb_t_expect_error("bench: {precision: 100}\n", "bench.precision: expected a percentage");
	sb_t_expect_error("bench: {precision: 0x5}\n", "got '0x5'");
	sb_t_expect_error("bench: {precision: 5e0}\n", "got '5e0'");
	sb_t_expect_error("bench: {precision: '5%%'}\n", "got '5%%'");
	sb_t_expect_error("bench: {min_repeat: 1}\n", "bench.min_repeat: 1 is out of range; allowed 2 to 100");
	sb_t_load_bad(LOOP "bench: {repeat: auto, min_repeat: 12}\n",
		      "t.yml:2:35: bench.min_repeat: 12 is more than bench.max_repeat 10");
}

static struct sb_spec_list load(const char *yaml)
{
	struct sb_err err = { 0 };

	return sb_t_load(yaml, 0, &err);
}

static void test_resolve(void **state)
{
	struct sb_spec_list a = load(LOOP "name: a\nbench: {repeat: auto, precision: 2%, max_time: 1h}\n");
	struct sb_spec_list b = load(LOOP "name: b\n");
	struct sb_spec_list c = load(LOOP "name: c\nbench: {precision: 3%}\n");
	const struct sb_stack_spec *ab[] = { &a.items[0], &b.items[0] }, *ac[] = { &a.items[0], &c.items[0] };
	const struct sb_stack_spec *only_b[] = { &b.items[0] };
	struct sb_run_auto cli = { 0 }, out;
	struct sb_err err = { 0 };

	/* no auto anywhere: off */
	assert_int_equal(sb_run_auto_resolve(&cli, 0, only_b, 1, &out, &err), 0);
	assert_false(out.on);
	/* a stack's bench.repeat: auto turns it on, its settings with it */
	b.items[0].bench.precision_pct = 2;
	b.items[0].bench.max_time_ns = 3600ULL * 1000000000ULL;
	assert_int_equal(sb_run_auto_resolve(&cli, 0, ab, 2, &out, &err), 0);
	assert_true(out.on);
	assert_float_equal(out.precision_pct, 2, 1e-12);
	assert_int_equal(out.min_repeat, 3);
	assert_int_equal(out.max_repeat, 10);
	assert_float_equal(out.max_time_s, 3600, 1e-9);
	/* --repeat N wins over it */
	assert_int_equal(sb_run_auto_resolve(&cli, 4, ab, 2, &out, &err), 0);
	assert_false(out.on);
	/* stacks that disagree: refused, unless the flag decides */
	assert_int_equal(sb_run_auto_resolve(&cli, 0, ac, 2, &out, &err), -EINVAL);
	assert_string_equal(err.msg, "stacks a and c ask for a different bench.precision (2 and 3); a run's "
			    "rounds are one for all its stacks: give --precision");
	cli.precision_pct = 4;
	assert_int_equal(sb_run_auto_resolve(&cli, 0, ac, 2, &out, &err), -EINVAL);   /* max_time */
	cli.max_time_s = 60;
	assert_int_equal(sb_run_auto_resolve(&cli, 0, ac, 2, &out, &err), 0);
	assert_float_equal(out.precision_pct, 4, 1e-12);
	/* --min-repeat alone past the stacks' most: the most follows */
	cli.min_repeat = 12;
	assert_int_equal(sb_run_auto_resolve(&cli, 0, ac, 2, &out, &err), 0);
	assert_int_equal(out.min_repeat, 12);
	assert_int_equal(out.max_repeat, 12);
	cli.max_repeat = 5;
	memset(&err, 0, sizeof(err));   /* the first error stays */
	assert_int_equal(sb_run_auto_resolve(&cli, 0, ac, 2, &out, &err), -EINVAL);
	assert_string_equal(err.msg, "--repeat auto: at least 12 rounds (--min-repeat) is more than at most 5 "
			    "(--max-repeat)");
	/* its flags without it */
	memset(&cli, 0, sizeof(cli));
	memset(&err, 0, sizeof(err));
	cli.precision_pct = 3;
	assert_int_equal(sb_run_auto_resolve(&cli, 0, only_b, 1, &out, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "go with --repeat auto (or bench.repeat: auto)"));
	/* --repeat auto on a stack without it: the stack's settings */
	memset(&cli, 0, sizeof(cli));
	cli.on = true;
	assert_int_equal(sb_run_auto_resolve(&cli, 0, &ac[1], 1, &out, &err), 0);
	assert_true(out.on);
	assert_float_equal(out.precision_pct, 3, 1e-12);
	sb_spec_list_free(&a);
	sb_spec_list_free(&b);
	sb_spec_list_free(&c);
}

/* The plan's time for auto: from min_repeat rounds (low estimates) to
 * max_repeat rounds (high ones), a build and teardown per round. */
static void test_cost_rounds(void **state)
{
	struct sb_spec_list l = load(LOOP "bench: {suites: [dd], repeat: auto, min_repeat: 3, max_repeat: 6}\n");
	struct sb_spec_list one = load(LOOP "bench: {suites: [dd]}\n");
	struct sb_cost c, c1;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	sb_cost_compute(&one.items[0], 0, 0, false, &c1);
	assert_false(c1.rounds);
	sb_cost_compute(&l.items[0], 0, 0, false, &c);
	assert_true(c.rounds);
	assert_int_equal(c.min_rounds, 3);
	assert_int_equal(c.max_rounds, 6);
	assert_true(c.suites_lo > 0 && c.suites_hi > c.suites_lo);
	/* one repetition's estimate, plus two (five) more rounds */
	assert_float_equal(c.min_s, c1.min_s + 2 * c.suites_lo + 2 * SB_SIZING_STACK_MIN_S, 1e-9);
	assert_float_equal(c.max_s, c1.max_s + 5 * c.suites_hi + 5 * SB_SIZING_STACK_MAX_S, 1e-9);
	f = open_memstream(&text, &len);
	sb_cost_print(f, &l.items[0], &c);
	fclose(f);
	assert_non_null(strstr(text, "(repeat auto: 3 to 6 rounds, each a build, the suites and a teardown)"));
	assert_non_null(strstr(text, "  time to a verdict: about "));
	assert_non_null(strstr(text, "at the earliest (3 rounds)"));
	free(text);
	/* --max-time: no round started past it */
	sb_cost_rounds(&c, 3, 6, 100);
	assert_float_equal(c.max_s, c.once_hi + 100, 1e-9);
	/* the flags' rule over a stack that asked for a number */
	sb_cost_compute(&one.items[0], 0, 0, false, &c1);
	sb_cost_rounds(&c1, 2, 4, 0);
	assert_float_equal(c1.min_s, c1.once_lo + 2 * c1.suites_lo + SB_SIZING_STACK_MIN_S, 1e-9);
	sb_spec_list_free(&l);
	sb_spec_list_free(&one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_bad_keys),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_cost_rounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
