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

int sb_cmd_build_and_test(int argc, char **argv, struct sb_err *err)
{
	static const struct sb_optdef opts[] = {
		{ "set", 0, true, 's' },
		{ "repeat", 0, true, 'r' },
		{ "interleave", 0, false, 'I' },
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
		case 'r': {
			char *end;
			unsigned long n = strtoul(val, &end, 10);
			if (*end || n < 1 || n > 100)
				rc = sb_err_set(err, -EINVAL, "--repeat takes a whole number from 1 to 100, not '%s'", val);
			ro.repeat = (unsigned)n;
			break;
		}
		case 'I': ro.interleave = true; break;
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
