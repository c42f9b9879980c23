#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "golden.h"
#include "core/layer.h"
#include "report/results.h"

const char *sb_test_srcdir(void)
{
	const char *s = getenv("SB_SOURCE_DIR");
	return s && *s ? s : SB_SOURCE_DIR;
}

struct json_object *sb_test_load(const char *rel)
{
	char path[4096];
	struct json_object *o = NULL;
	struct sb_err err = { 0 };

	snprintf(path, sizeof(path), "%s/tests/golden/%s", sb_test_srcdir(), rel);
	if (sb_results_read(path, &o, &err) < 0)
		fail_msg("%s", err.msg);
	sb_layer_label_results(o, NULL);   /* as compare's loader does */
	return o;
}
