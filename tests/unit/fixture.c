#include "fixture.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

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
