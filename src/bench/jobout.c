/* `stackbench job`'s output family of options (fio 3.33's meaning):
 * steadystate/ss, steadystate_duration/ss_dur, steadystate_ramp_time/
 * ss_ramp (fio 3.33 has no ss_interval: samples are one second apart) and
 * the logs' log_offset, per_job_logs, log_prio (new_group: bench/jobctl.c). */
#include <errno.h>

#include "bench/jobopt.h"
#include "bench/steady.h"

/* fio 3.33's criteria: iops, iops_slope, bw, bw_slope (lat and lat_slope
 * are later fio's: refused here, as 3.33 refuses them) */
static int set_ss(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_ss_spec sp = j->ss;
	int rc;

	(void)o;
	if ((rc = sb_ss_parse(v, &sp, err)) < 0)
		return rc;
	if (sp.what == SB_SS_LAT)
		return sb_err_set(err, -EINVAL, "steadystate: '%s': fio 3.33's criteria are iops, iops_slope, "
				  "bw and bw_slope", v);
	j->ss = sp;
	return 0;
}

const struct jopt jopts_output[] = {
	{ "steadystate", "ss", JT_CB, NOF, 0, 0, "iops_slope:0.01%",
	  "steady state criterion:limit[%] (iops, iops_slope, bw, bw_slope); judged once a second", set_ss },
	{ "steadystate_duration", "ss_dur", JT_DUR, F(ss_dur_ns), 0, 0, "0",
	  "end the job once steady over this window (whole seconds; 0: off)", NULL },
	{ "steadystate_ramp_time", "ss_ramp", JT_DUR, F(ss_ramp_ns), 0, 0, "0",
	  "start the steady state samples a second after this", NULL },
	{ "log_offset", NULL, JT_BOOL, F(log_offset), 0, 0, "0", "logs: the offset in column 5", NULL },
	{ "per_job_logs", NULL, JT_BOOL, F(per_job_logs), 0, 0, "1",
	  "logs PREFIX_bw.N.log per thread (0: one PREFIX_bw.log for all)", NULL },
	{ "log_prio", NULL, JT_BOOL, F(log_prio), 0, 0, "0", "logs: the I/O priority value (0x%04x), not 0/1", NULL },
	{ NULL },
};

/* fio's "job options" list an option given by its alias (ss, ss_dur,
 * ss_ramp) under its name (steadystate, ...): this family's rows do */
bool jopt_output_row(const struct jopt *o)
{
	return o >= jopts_output && o < jopts_output + sizeof(jopts_output) / sizeof(jopts_output[0]);
}
