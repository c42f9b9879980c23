/* The machine's ceiling per suite (RAM disk in this kernel) and marking
 * the figures bound by it. */
#ifndef SB_RUN_CEILING_H
#define SB_RUN_CEILING_H

#include <json-c/json.h>

#include "spec/spec.h"
#include "util/err.h"

/* Every distinct suite of the stacks, once, on a tmpfs: {"SUITE": {figures}
 * or {"error": "..."}}. */
int sb_ceiling_measure(const struct sb_spec_list *lists, unsigned nlists, struct json_object **out,
		       struct sb_err *err);
/* Mark every rate figure of res at >= 80 % of its suite's ceiling with
 * "bound_by_machine": true and "machine_ceiling"; records the ceilings as
 * res "machine_ceiling". */
void sb_ceiling_mark(struct json_object *res, struct json_object *ceilings);

#endif
