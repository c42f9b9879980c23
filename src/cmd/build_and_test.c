/* build-and-test: for each stack (matrix files expand to several), build it,
 * run its suites on the mounted filesystem, read back what was built, tear
 * it down, write one results file, then print the comparison table of this
 * run (and, with --report FILE, its HTML report). A stack that fails does not stop the others; the first error is
 * reported at the end and the exit code says the run was not clean. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/run.h"
#include "report/table.h"

int sb_cmd_build_and_test(int argc, char **argv, struct sb_err *err)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "results", required_argument, NULL, 'R' },
		{ "format", required_argument, NULL, 'f' },
		{ "columns", required_argument, NULL, 'c' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "chart", required_argument, NULL, 'C' },
		{ "report", required_argument, NULL, 'P' },
		{ "destroy-data", required_argument, NULL, 'D' },
		{ "wipe", no_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 },
	};
	struct sb_run_opts ro = { .results_dir = "results" };
	struct sb_table_opts to = { 0 };
	const char *chart = NULL;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			rc = sb_run_opts_add_set(&ro, optarg, err);
			if (rc < 0)
				return rc;
			break;
		case 'r': {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);
			if (*end || n < 1 || n > 100)
				return sb_err_set(err, -EINVAL, "--repeat takes a whole number from 1 to 100, not '%s'", optarg);
			ro.repeat = (unsigned)n;
			break;
		}
		case 'R': ro.results_dir = optarg; break;
		case 'f':
			rc = sb_table_format_parse(optarg, &to.format, err);
			if (rc < 0)
				return rc;
			break;
		case 'c': to.columns = optarg; break;
		case 'b': to.baseline = optarg; break;
		case 'C': chart = optarg; break;
		case 'P': ro.report = optarg; break;
		case 'D': ro.destroy_data = optarg; break;
		case 'W': ro.wipe = true; break;
		default:
			return sb_err_set(err, -EINVAL, "build-and-test: bad option; see `stackbench help build-and-test`");
		}
	}
	if (optind >= argc)
		return sb_err_set(err, -EINVAL, "build-and-test: name at least one stack file; see `stackbench help build-and-test`");
	ro.files = (const char *const *)argv + optind;
	ro.nfiles = (unsigned)(argc - optind);
	ro.bench = true;
	ro.table = &to;
	ro.chart = chart;
	return sb_run(&ro, err);
}
