/* stackbench job: one I/O job, like fio. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bench/engine.h"
#include "bench/iostat.h"
#include "bench/job.h"
#include "bench/output.h"
#include "cmd/cmd.h"
#include "sys/safety.h"

int sb_cmd_job(int argc, char **argv, struct sb_err *err)
{
	struct sb_job_opts o;
	struct sb_job_result *r = NULL;
	struct sb_iostat io = { 0 };
	const char *watch[SB_JOB_MAX_WATCH];
	enum sb_output_format fmt;
	unsigned nwatch, i;
	const char *destroy;
	int rc;

	if ((rc = sb_cmd_take_destroy_data(&argc, argv, &destroy, err)) < 0 ||
	    (rc = sb_job_parse_args(argc, argv, &o, watch, &nwatch, &fmt, err)) < 0)
		return rc;
	/* a write job on a block device: the checks a stack's disks get */
	if ((rc = sb_safety_check_target(o.target, o.rw != SB_RW_READ && o.rw != SB_RW_RANDREAD,
					 destroy, err)) < 0)
		return rc;
	/* the target's own device is always watched */
	if (sb_iostat_add(&io, o.target, NULL) < 0)
		io.n = 0;
	for (i = 0; i < nwatch; i++)
		if ((rc = sb_iostat_add(&io, watch[i], err)) < 0)
			return rc;
	r = malloc(sizeof(*r));
	if (!r)
		return sb_err_set(err, -ENOMEM, "out of memory");
	sb_iostat_start(&io);
	rc = sb_engine_run(&o, r, err);
	sb_iostat_stop(&io);
	if (rc < 0 && !r->verify_errors)
		goto out;
	/* a failed verify still prints what ran, then fails */
	if (fmt == SB_OUT_JSON) {
		struct json_object *j = sb_job_report_json(&o, r, &io);

		puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
	} else {
		sb_job_report_text(stdout, &o, r, &io);
	}
	fflush(stdout);
out:
	free(r);
	return rc;
}
