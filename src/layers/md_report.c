/* md layer, the report's part (report/layer_report.h): its "degraded"
 * column, the RAID level as asked and as read back, and the roles of its
 * devices in the device statistics (its members, its arrays). */
#include <stdio.h>
#include <string.h>

#include "layers/md_int.h"
#include "report/results.h"
#include "report/table.h"
#include "util/json.h"

/* Did the array run degraded (faults.fail, or md's own view after the last
 * suite: bench/degrade.c's stack_state_after.md)? "loop1 at 3.0 s", "yes",
 * "no", "-" without md. */
static void col_degraded(const struct sb_layer_cells *in, struct sb_cell *cell)
{
	struct json_object *res = in->res[0], *fail = sb_json_get(sb_json_get(res, "faults"), "fail");
	struct json_object *md = NULL, *failed;
	size_t len = sb_results_nsuites(res);
	char buf[SB_CELL_STR_MAX];

	if (len)
		md = sb_json_get(sb_json_get(sb_results_suite(res, len - 1), "stack_state_after"), in->layer);
	if (!md)
		md = sb_layer_cells_built(in, 0);
	if (!md) {
		sb_cell_set_str(cell, "-");
		return;
	}
	failed = sb_json_get(md, "failed_members");
	if (fail && json_object_get_boolean(sb_json_get(fail, "fired")) &&
	    json_object_is_type(failed, json_type_array) && json_object_array_length(failed)) {
		snprintf(buf, sizeof(buf), "%s at %.1f s", json_object_get_string(json_object_array_get_idx(failed, 0)),
			 json_object_get_double(sb_json_get(fail, "at_s")));
		sb_cell_set_str(cell, buf);
	} else if (json_object_is_type(sb_json_get(md, "degraded"), json_type_int) ||
		   json_object_is_type(sb_json_get(md, "degraded"), json_type_double)) {
		sb_cell_set_str(cell, json_object_get_int(sb_json_get(md, "degraded")) ? "yes" : "no");
	} else {
		sb_cell_set_str(cell, "?");
	}
}

/* md's stripe cache in effect (environment.md_tunables, md_tune.c's
 * capture), "-" without it. */
static void col_stripe_cache(const struct sb_layer_cells *in, struct sb_cell *cell)
{
	struct json_object *env = sb_json_get(in->res[0], "environment");
	struct json_object *v = sb_json_get(sb_json_get(env, "md_tunables"), "stripe_cache_size");
	char buf[SB_CELL_STR_MAX];

	snprintf(buf, sizeof(buf), "%s", v ? json_object_get_string(v) : "-");
	sb_cell_set_str(cell, buf);
}

static const struct sb_layer_column md_columns[] = {
	{ "degraded", "degraded", "", 0, col_degraded,
	  "whether the array ran degraded: the member failed by faults.fail and when, else md's own view "
	  "after the last suite (\"yes\"/\"no\"); \"-\" without md", 0 },
	{ "stripe_cache", "md stripe cache", "", 0, col_stripe_cache,
	  "raid.stripe_cache_size in effect (RAID5/6), as sysfs had it once the stack was built", 0 },
	{ .name = NULL },
};

/* raid.level 1 asked, "raid1" read back (md's sysfs level). */
static void md_check(struct json_object *asked, struct json_object *built, sb_layer_differs_fn fn, void *ctx)
{
	struct json_object *lvl = sb_json_get(asked, "level");
	char a[128];

	if (!lvl)
		return;
	snprintf(a, sizeof(a), "raid%s", json_object_get_string(lvl));
	fn(ctx, "RAID level", a, sb_json_str(built, "level", "?"));
}

/* Its members (stack.built's members[].device) and any md array (the
 * kernel names them mdN), whether or not the file has md's object. */
static int md_dev_role(struct json_object *built, const char *dev, const char **word)
{
	struct json_object *mem = sb_json_get(built, "members");

	for (size_t i = 0; json_object_is_type(mem, json_type_array) && i < json_object_array_length(mem); i++)
		if (!strcmp(sb_json_str(json_object_array_get_idx(mem, i), "device", ""), dev)) {
			*word = "RAID member";
			return SB_DEV_MEMBER;
		}
	if (!strncmp(dev, "md", 2)) {
		*word = "md array";
		return SB_DEV_ARRAY;
	}
	return -1;
}

const struct sb_layer_report sb_md_report = {
	.columns = md_columns,
	.check = md_check,
	.dev_role = md_dev_role,
};
