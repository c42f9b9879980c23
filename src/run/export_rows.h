/* build-and-test with export: the suites on every client mount, each into
 * its own results object (row "<stack>.<target>", e.g. "nas.sshfs-chacha20"),
 * with what the client used, the link as asked and as measured, and the
 * per-layer row "export" whose expected figure is min(link, local figure,
 * the SSH cipher's speed where known). */
#ifndef SB_RUN_EXPORT_ROWS_H
#define SB_RUN_EXPORT_ROWS_H

#include <signal.h>

#include <json-c/json.h>

#include "core/stack.h"
#include "export/export.h"

/* The local row's "export" object ({side: "local", label, link}). */
void sb_export_rows_mark_local(const struct sb_stack *s, struct json_object *local);
/* After the local suites: one results object per client mount into
 * out[0..max), *nout of them; stops (-EINTR) when *stop is set. A suite
 * that fails is recorded in that row's errors and ends the remote runs. */
int sb_export_rows_run(struct sb_stack *s, unsigned repeat, struct json_object *local,
		       struct json_object **out, unsigned max, unsigned *nout,
		       volatile sig_atomic_t *stop, struct sb_err *err);

#endif
