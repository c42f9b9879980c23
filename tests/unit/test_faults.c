/* faults: the spec keys (faults.delay / flakey / fail): defaults, units,
 * --set, JSON, and every rejection with its location; the fault layer's
 * place in the stack and its plan steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "bench/degrade.h"
#include "core/stack.h"
#include "spec/spec.h"

static struct sb_spec_list load(const char *yaml, const char *const *sets, unsigned nsets, struct sb_err *e)
{
	struct sb_spec_list l = { 0 };

	memset(e, 0, sizeof(*e));
	if (sb_spec_load_buffer(yaml, strlen(yaml), "t.yml", sets, nsets, &l, e) != 0)
		l.n = 0;
	return l;
}

static void bad(const char *yaml, const char *msg)
{
	struct sb_err e;
	struct sb_spec_list l = load(yaml, NULL, 0, &e);

	if (l.n)
		fail_msg("accepted, expected: %s\n---\n%s", msg, yaml);
	assert_string_equal(e.msg, msg);
}

static void no_faults_by_default(void **st)
{
	struct sb_err e;
	struct sb_spec_list l = load("raid: {level: 1}\n", NULL, 0, &e);

	assert_int_equal(l.n, 1);
	assert_false(l.items[0].faults.enabled);
	assert_false(l.items[0].faults.delay.enabled);
	assert_false(l.items[0].faults.fail.enabled);
	sb_spec_list_free(&l);
}

static void delay_defaults_and_units(void **st)
{
	struct sb_err e;
	struct sb_spec_list l = load("raid: {level: 10}\nfaults:\n  delay: {member: 3}\n", NULL, 0, &e);
	const struct sb_faults_spec *f;

	if (!l.n)
		fail_msg("%s", e.msg);
	f = &l.items[0].faults;
	assert_true(f->enabled);
	assert_true(f->delay.enabled);
	assert_false(f->flakey.enabled);
	assert_int_equal(f->delay.member, 3);
	assert_int_equal(f->delay.latency_ns, 50000000ULL);   /* default 50ms */
	sb_spec_list_free(&l);

	l = load("raid: {level: 1}\nfaults:\n  flakey: {member: 1, up: 2m, down: 3s}\n  fail: {member: 0, after: 1500ms}\n",
		 NULL, 0, &e);
	if (!l.n)
		fail_msg("%s", e.msg);
	f = &l.items[0].faults;
	assert_int_equal(f->flakey.up_ns, 120000000000ULL);
	assert_int_equal(f->flakey.down_ns, 3000000000ULL);
	assert_true(f->fail.enabled);
	assert_int_equal(f->fail.after_ns, 1500000000ULL);
	sb_spec_list_free(&l);
}

static void set_enables_and_validates(void **st)
{
	const char *const ok[] = { "faults.fail={member: 1}", "faults.fail.after=2s" };
	const char *const too_big[] = { "faults.fail={member: 2}" };
	const char *const absent[] = { "faults.fail.member=1" };
	struct sb_err e;
	struct sb_spec_list l = load("raid: {level: 1}\n", ok, 2, &e);

	if (!l.n)
		fail_msg("%s", e.msg);
	assert_true(l.items[0].faults.fail.enabled);
	assert_int_equal(l.items[0].faults.fail.member, 1);
	assert_int_equal(l.items[0].faults.fail.after_ns, 2000000000ULL);
	sb_spec_list_free(&l);

	l = load("raid: {level: 1}\n", too_big, 1, &e);
	assert_int_equal(l.n, 0);
	assert_string_equal(e.msg, "--set faults.fail={member: 2}: faults.fail.member: 2 is not a device of this stack; it has 2 (members 0..1)");

	/* a key alone does not add the section (issue 12, finding 13) */
	l = load("raid: {level: 1}\n", absent, 1, &e);
	assert_int_equal(l.n, 0);
	assert_string_equal(e.msg, "--set faults.fail.member=1: faults.fail.member: this stack has no faults section, and setting one of its keys would add that layer silently; enable it explicitly (faults: in the file, or --set faults={})");
}

static void json_has_faults(void **st)
{
	struct sb_err e;
	struct sb_spec_list l = load("raid: {level: 1}\nfaults:\n  delay: {member: 1, latency: 20ms}\n", NULL, 0, &e);
	struct json_object *j = NULL, *f, *d, *v;

	assert_int_equal(l.n, 1);
	assert_int_equal(sb_spec_to_json(&l.items[0], &j), 0);
	assert_true(json_object_object_get_ex(j, "faults", &f));
	assert_true(json_object_object_get_ex(f, "delay", &d));
	assert_true(json_object_object_get_ex(d, "latency", &v));
	assert_int_equal(json_object_get_int64(v), 20000000);
	assert_true(json_object_object_get_ex(f, "fail", &d));
	assert_true(json_object_object_get_ex(d, "enabled", &v));
	assert_false(json_object_get_boolean(v));
	json_object_put(j);
	sb_spec_list_free(&l);
}

static void rejections(void **st)
{
	bad("raid: {level: 1}\nfaults:\n  delay: {member: 2}\n",
	    "t.yml:3:19: faults.delay.member: 2 is not a device of this stack; it has 2 (members 0..1)");
	bad("faults:\n  fail: {after: 1s}\n",
	    "t.yml:2:3: faults.fail: needs a raid section (md marks a RAID member faulty)");
	bad("raid: {level: 1}\nfaults:\n  delay: {member: 0}\n  flakey: {member: 0}\n",
	    "t.yml:4:20: faults.flakey.member: member 0 already has faults.delay; one fault device per member");
	bad("raid: {level: 1}\nfaults:\n  flakey: {down: 1500ms}\n",
	    "t.yml:3:18: faults.flakey.down: must be whole seconds from 1s to 1h (dm-flakey counts seconds)");
	bad("raid: {level: 1}\nfaults:\n  delay: {latency: 11s}\n",
	    "t.yml:3:20: faults.delay.latency: must be whole milliseconds from 1ms to 10s");
	bad("raid: {level: 1}\nfaults:\n  delay: {latency: 20}\n",
	    "t.yml:3:20: faults.delay.latency: must be whole milliseconds from 1ms to 10s");
	bad("raid: {level: 1}\nfaults: {}\n",
	    "t.yml:2:1: faults: give at least one of delay, flakey, fail");
	bad("raid: {level: 1}\nfaults:\n  dust: {}\n",
	    "t.yml:3:3: unknown key 'dust' in faults; allowed: delay, flakey, fail");
	bad("raid: {level: 1}\nfaults:\n  fail: {member: 0, when: 1s}\n",
	    "t.yml:3:21: unknown key 'when' in faults.fail; allowed: member, after");
}

/* The fault layer sits right above the devices, only when faults are given. */
static void layer_order_and_plan(void **st)
{
	struct sb_err e;
	struct sb_spec_list l = load("raid: {level: 10}\nfaults:\n  delay: {member: 1, latency: 30ms}\n", NULL, 0, &e);
	struct sb_stack *s = calloc(1, sizeof(*s));
	struct sb_plan *p = calloc(1, sizeof(*p));
	unsigned i;
	bool found = false;

	assert_int_equal(l.n, 1);
	assert_int_equal(sb_stack_init(s, &l.items[0], &e), 0);
	assert_string_equal(s->layers[0].ops->name, "loop");
	assert_string_equal(s->layers[1].ops->name, "fault");
	assert_string_equal(s->layers[2].ops->name, "md");
	assert_int_equal(sb_stack_plan(s, p, &e), 0);
	for (i = 0; i < p->nbuild; i++)
		if (strstr(p->build[i], "dm create /dev/mapper/sb-t-fault-1 over member 1, table \"0 SECTORS delay DEV1 0 30\""))
			found = true;
	assert_true(found);
	found = false;
	for (i = 0; i < p->nteardown; i++)
		if (strstr(p->teardown[i], "dm remove sb-t-fault-1"))
			found = true;
	assert_true(found);
	sb_stack_release(s);
	sb_spec_list_free(&l);

	l = load("raid: {level: 1}\n", NULL, 0, &e);
	assert_int_equal(sb_stack_init(s, &l.items[0], &e), 0);
	for (i = 0; i < s->nlayers; i++)
		assert_string_not_equal(s->layers[i].ops->name, "fault");
	sb_stack_release(s);
	sb_spec_list_free(&l);
	free(p);
	free(s);
}

/* The failure timer fires `after` from the start, not before (its deadline
 * is on the monotonic clock), and the verify file written before it reads
 * back clean. /dev/null is not a block device, so the fire itself reports
 * an error, recorded in results as fired: false with the message. */
static void timer_fires_on_time(void **st)
{
	char dir[] = "/var/tmp/sb-test-faults.XXXXXX";
	struct sb_degrade *d = calloc(1, sizeof(*d));
	struct json_object *res = json_object_new_object(), *f, *fail, *ver, *v;
	struct sb_err e = { 0 };

	assert_non_null(mkdtemp(dir));
	assert_int_equal(sb_degrade_begin(d, dir, "/dev/null", "/dev/null", 1, 400000000ULL, 2 << 20, &e), 0);
	usleep(100000);
	pthread_mutex_lock(&d->lock);
	assert_false(d->fired);
	pthread_mutex_unlock(&d->lock);
	usleep(700000);
	pthread_mutex_lock(&d->lock);
	assert_true(d->fired);
	assert_true(d->fired_ns >= 400000000ULL);
	assert_true(d->fired_ns < 800000000ULL);
	assert_int_not_equal(d->fire_rc, 0);
	pthread_mutex_unlock(&d->lock);
	if (sb_degrade_end(d, res, &e) != 0)
		fail_msg("%s", e.msg);
	assert_true(json_object_object_get_ex(res, "faults", &f));
	assert_true(json_object_object_get_ex(f, "fail", &fail));
	assert_true(json_object_object_get_ex(fail, "fired", &v));
	assert_false(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(fail, "error", &v));
	assert_true(json_object_object_get_ex(f, "verify", &ver));
	assert_true(json_object_object_get_ex(ver, "ok", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(ver, "verified_blocks", &v));
	assert_int_equal(json_object_get_int64(v), 2);
	json_object_put(res);
	free(d);
	assert_int_equal(rmdir(dir), 0);   /* the verify file is gone */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_faults_by_default),
		cmocka_unit_test(delay_defaults_and_units),
		cmocka_unit_test(set_enables_and_validates),
		cmocka_unit_test(json_has_faults),
		cmocka_unit_test(rejections),
		cmocka_unit_test(layer_order_and_plan),
		cmocka_unit_test(timer_fires_on_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
