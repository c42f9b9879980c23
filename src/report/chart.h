/* Grouped bar chart of the comparison table (cairo): one group per numeric
 * column, one bar per stack, values on the bars. */
#ifndef SB_REPORT_CHART_H
#define SB_REPORT_CHART_H

#include <json-c/json.h>

#include "report/table.h"
#include "util/err.h"

/* path ending ".svg" -> SVG, ".png" -> PNG; anything else -EINVAL. */
int sb_chart_write(struct json_object *const *results, unsigned n,
		   const struct sb_table_opts *o, const char *path, struct sb_err *err);

#endif
