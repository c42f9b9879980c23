/* build-and-test: for each stack (matrix files expand to several), build it,
 * run its suites on the mounted filesystem, read back what was built, tear
 * it down, write one results file, then print the comparison table of this
 * run (and, with --report FILE, its HTML report). A stack that fails does not stop the others; the first error is
 * reported at the end and the exit code says the run was not clean. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "run/run.h"
#include "report/table.h"
#include "util/units.h"

/* A whole number lo..hi for option opt. */
static int whole(const char *val, const char *opt, unsigned lo, unsigned hi, unsigned *out,
		 struct sb_err *err)
{
	char *end;
	unsigned long n = strtoul(val, &end, 10);

	if (!*val || *end || n < lo || n > hi)
		return sb_err_set(err, -EINVAL, "%s takes a whole number from %u to %u%s, not '%s'", opt, lo, hi,
				  strcmp(opt, "--repeat") ? "" : " or auto", val);
	*out = (unsigned)n;
	return 0;
}

/* --precision 5 or 5%: the 95 % CI half-width --repeat auto waits for. */
static int precision(const char *val, double *out, struct sb_err *err)
{
	char *end;
	double p = strtod(val, &end);

	if (*end == '%')
		end++;
	if (end == val || *end || !(p > 0 && p < 100))
		return sb_err_set(err, -EINVAL, "--precision takes a percentage above 0 and below 100 "
				  "(5 or 5%%), not '%s'", val);
	*out = p;
	return 0;
}

static int max_time(const char *val, double *out, struct sb_err *err)
{
	uint64_t ns;
	int r = sb_duration_parse(val, &ns, err);

	if (r == 0 && ns == 0)
		r = sb_err_set(err, -EINVAL, "--max-time must be more than 0");
	*out = ns / 1e9;
	return r;
}

int sb_cmd_build_and_test(int argc, char **argv, struct sb_err *err)
{
	static const struct sb_optdef opts[] = {
		{ "set", 0, true, 's' },
		{ "repeat", 0, true, 'r' },
		{ "interleave", 0, false, 'I' },
		{ "precision", 0, true, 'p' },
		{ "min-repeat", 0, true, 'm' },
		{ "max-repeat", 0, true, 'M' },
		{ "max-time", 0, true, 'T' },
		{ "results", 0, true, 'R' },
		{ "format", 0, true, 'f' },
		{ "columns", 0, true, 'c' },
		{ "baseline", 0, true, 'b' },
		{ "chart", 0, true, 'C' },
		{ "report", 0, true, 'P' },
		{ "destroy-data", 0, true, 'D' },
		{ "wipe", 0, false, 'W' },
		{ "host-label", 0, true, 'H' },
		{ "stack", 0, true, 'S' },
		{ NULL, 0, false, 0 },
	};
	volatile sig_atomic_t stop = 0;   /* the pipeline has SIGINT/SIGTERM set it */
	struct sb_run_ctx ro = {
		.results_dir = "results", .stop = &stop,
		.sandbox = sb_globals.sandbox, .in_sandbox = sb_globals.in_sandbox,
		.argc = sb_globals.cmd_argc, .argv = sb_globals.cmd_argv,
	};
	struct sb_table_opts to = { 0 };
	struct sb_args a;
	const char *chart = NULL, *val;
	int c, rc = 0;

	if (sb_args_init(&a, argc, argv, 1, opts, "build-and-test", err) < 0)
		return -ENOMEM;
	while (rc == 0 && (c = sb_args_next(&a, &val, err)) > 0) {
		switch (c) {
		case 's':
			rc = sb_run_add_set(&ro, val, err);
			break;
		case 'r':
			if (!strcmp(val, "auto")) {
				ro.autorep.on = true;
				break;
			}
			rc = whole(val, "--repeat", 1, 100, &ro.repeat, err);
			break;
		case 'I': ro.interleave = true; break;
		case 'p': rc = precision(val, &ro.autorep.precision_pct, err); break;
		case 'm': rc = whole(val, "--min-repeat", 2, 100, &ro.autorep.min_repeat, err); break;
		case 'M': rc = whole(val, "--max-repeat", 2, 100, &ro.autorep.max_repeat, err); break;
		case 'T': rc = max_time(val, &ro.autorep.max_time_s, err); break;
		case 'R': ro.results_dir = val; break;
		case 'f': rc = sb_table_format_parse(val, &to.format, err); break;
		case 'c': to.columns = val; break;
		case 'b': to.baseline = val; break;
		case 'C': chart = val; break;
		case 'P': ro.report = val; break;
		case 'D': ro.destroy_data = val; break;
		case 'W': ro.wipe = true; break;
		case 'H':
			/* host.c reads it when each results file is begun; the
			 * environment also carries it into the throwaway kernel */
			if (!*val || setenv("STACKBENCH_HOST_LABEL", val, 1) < 0)
				rc = sb_err_set(err, -EINVAL, "--host-label needs a name");
			break;
		case 'S': ro.only_stack = val; break;
		}
	}
	if (rc == 0 && c < 0)
		rc = c;
	/* --repeat auto's settings are checked with the stacks' (run/auto.h) */
	if (rc == 0 && !a.npos)
		rc = sb_args_usage_error("build-and-test", err, "name at least one stack file");
	if (rc == 0) {
		ro.files = (const char *const *)a.pos;
		ro.nfiles = (unsigned)a.npos;
		ro.bench = true;
		ro.table = &to;
		ro.chart = chart;
		rc = sb_run(&ro, err);
	}
	sb_args_free(&a);
	return rc;
}
