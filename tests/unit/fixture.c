#include "fixture.h"

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

#include "bench/job.h"
#include "core/layer.h"
#include "core/stack.h"

struct sb_spec_list sb_t_load(const char *yaml, int want_rc, struct sb_err *err)
{
	struct sb_spec_list l = { 0 };
	int rc;

	memset(err, 0, sizeof(*err));
	rc = sb_spec_load_buffer(yaml, strlen(yaml), "t.yml", NULL, 0, &l, err);

	if (rc != want_rc)
		fail_msg("load: rc %d, want %d: %s", rc, want_rc, err->msg);
	return l;
}

void sb_t_load_bad(const char *yaml, const char *want)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load(yaml, -EINVAL, &err);

	assert_string_equal(err.msg, want);
	sb_spec_list_free(&l);
}

void sb_t_expect_error(const char *yaml, const char *needle)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load(yaml, -EINVAL, &err);

	if (!strstr(err.msg, needle))
		fail_msg("'%s' lacks '%s'", err.msg, needle);
	sb_spec_list_free(&l);
}

void sb_t_plan_of(const char *yaml, struct sb_plan *plan, unsigned *nlayers, char *top, size_t len)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load(yaml, 0, &err);
	struct sb_stack s = { 0 };

	assert_int_equal(sb_stack_init(&s, &l.items[0], &err), 0);
	assert_int_equal(sb_stack_plan(&s, plan, &err), 0);
	if (nlayers)
		*nlayers = s.nlayers;
	snprintf(top, len, "%s", s.layers[s.nlayers - 2].ops->name);
	sb_spec_list_free(&l);
}

const char *sb_t_find_step(const struct sb_plan *p, const char *prefix)
{
	unsigned i;

	for (i = 0; i < p->nbuild; i++)
		if (!strncmp(p->build[i], prefix, strlen(prefix)))
			return p->build[i];
	fail_msg("no build step starting with '%s'", prefix);
	return NULL;
}

bool sb_t_has_step(char (*steps)[512], unsigned n, const char *what)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (strstr(steps[i], what))
			return true;
	return false;
}

void sb_t_dm_plan(const char *yaml, const char *const *names, unsigned nnames, struct sb_plan *plan)
{
	struct sb_err e;
	struct sb_spec_list l = sb_t_load(yaml, 0, &e);
	struct sb_stack *s = calloc(1, sizeof(*s));
	struct sb_kernel_needs n = { 0 };
	unsigned i;

	assert_non_null(s);
	assert_int_equal(sb_stack_init(s, &l.items[0], &e), 0);
	for (i = 0; i < nnames; i++)
		assert_string_equal(s->layers[i].ops->name, names[i]);
	assert_int_equal(sb_stack_plan(s, plan, &e), 0);
	sb_stack_needs(&l.items[0], &n);
	assert_true(sb_kernel_needs_has(&n, "dm"));
	sb_stack_release(s);
	sb_spec_list_free(&l);
	free(s);
}

struct json_object *sb_t_section(const struct sb_stack_spec *s, const char *name)
{
	struct json_object *j = NULL, *sec = NULL;

	assert_int_equal(sb_spec_to_json(s, &j), 0);
	assert_true(json_object_object_get_ex(j, name, &sec));
	json_object_get(sec);
	json_object_put(j);
	return sec;
}

const char *sb_t_str_of(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) && v ? json_object_get_string(v) : "(none)";
}

void sb_t_section_off(const char *name, const char *word)
{
	struct sb_err e;
	struct sb_spec_list l = sb_t_load("raid: {level: 1}\n", 0, &e);
	struct json_object *sec;
	char sum[256];

	assert_int_equal(l.n, 1);
	sec = sb_t_section(&l.items[0], name);
	assert_string_equal(sb_t_str_of(sec, "enabled"), "false");
	json_object_put(sec);
	sb_spec_summary(&l.items[0], sum, sizeof(sum));
	if (strstr(sum, word))
		fail_msg("summary '%s' mentions '%s'", sum, word);
	sb_spec_list_free(&l);
}

void sb_t_section_has(const char *yaml, const char *name, const char *const *kv, const char *summary)
{
	struct sb_err e;
	struct sb_spec_list l = sb_t_load(yaml, 0, &e);
	struct json_object *sec;
	char sum[256];

	assert_true(l.n >= 1);
	sec = sb_t_section(&l.items[0], name);
	for (; kv[0]; kv += 2)
		if (strcmp(sb_t_str_of(sec, kv[0]), kv[1]))
			fail_msg("%s.%s is '%s', want '%s'", name, kv[0], sb_t_str_of(sec, kv[0]), kv[1]);
	json_object_put(sec);
	sb_spec_summary(&l.items[0], sum, sizeof(sum));
	if (!strstr(sum, summary))
		fail_msg("summary '%s' lacks '%s'", sum, summary);
	sb_spec_list_free(&l);
}

int sb_t_job_parse(struct sb_job_opts *o, struct sb_err *err, ...)
{
	char *argv[32];
	enum sb_output_format fmt;
	int argc = 0;
	const char *a;
	va_list ap;

	argv[argc++] = "job";
	va_start(ap, err);
	while ((a = va_arg(ap, const char *)) && argc < 31)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	sb_err_clear(err);
	return sb_job_parse_args(argc, argv, o, &fmt, err);
}
