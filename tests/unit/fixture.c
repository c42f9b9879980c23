#include "fixture.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/layer.h"
#include "core/stack.h"

struct sb_spec_list sb_t_load(const char *yaml, int want_rc, struct sb_err *err)
{
	struct sb_spec_list l = { 0 };
	int rc = sb_spec_load_buffer(yaml, strlen(yaml), "t.yml", NULL, 0, &l, err);

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
