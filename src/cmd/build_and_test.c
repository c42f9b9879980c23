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

/* --repeat auto's options only with it; its defaults; it interleaves. */
static int auto_check(struct sb_run_ctx *ro, struct sb_err *err)
{
	struct sb_run_auto *a = &ro->autorep;

	if (!a->on) {
		if (a->precision_pct > 0 || a->min_repeat || a->max_repeat || a->max_time_s > 0)
			return sb_err_set(err, -EINVAL, "--precision, --min-repeat, --max-repeat and --max-time "
					  "go with --repeat auto");
		return 0;
	}
	if (!a->precision_pct)
		a->precision_pct = SB_AUTO_PRECISION_PCT;
	if (!a->min_repeat)
		a->min_repeat = SB_AUTO_MIN_REPEAT;
	if (!a->max_repeat)
		a->max_repeat = a->min_repeat > SB_AUTO_MAX_REPEAT ? a->min_repeat : SB_AUTO_MAX_REPEAT;
	if (a->min_repeat > a->max_repeat)
		return sb_err_set(err, -EINVAL, "--min-repeat %u is more than --max-repeat %u", a->min_repeat,
				  a->max_repeat);
	ro->interleave = true;   /* the rounds are paired */
	return 0;
}

/* The options, with the words `stackbench help build-and-test` shows for each. */
static const struct sb_optdef opts[] = {
	{ "set", 0, true, 's', "KEY=VALUE", "override a stack key (repeatable)" },
	{ "repeat", 0, true, 'r', "N|auto", "runs of each stack (auto: until the figures are decided)" },
	{ "interleave", 0, false, 'I', NULL, "round r runs repetition r of every stack, each rebuilt" },
	{ "precision", 0, true, 'p', "PCT", "--repeat auto: the 95 % CI half-width wanted (default 5)" },
	{ "min-repeat", 0, true, 'm', "N", "--repeat auto: at least N rounds (default 3)" },
	{ "max-repeat", 0, true, 'M', "N", "--repeat auto: at most N rounds (default 10)" },
	{ "max-time", 0, true, 'T', "DURATION", "--repeat auto: start no round that would pass this" },
	{ "results", 0, true, 'R', "DIR", "where results files go (default ./results)" },
	{ "format", 0, true, 'f', "FORMAT", "the table's format" },
	{ "columns", 0, true, 'c', "LIST", "the table's columns" },
	{ "baseline", 0, true, 'b', "NAME", "the stack the others are compared with" },
	{ "chart", 0, true, 'C', "FILE", "an SVG or PNG chart of the figures" },
	{ "report", 0, true, 'P', "FILE.html", "also write the HTML report of this run" },
	{ "destroy-data", 0, true, 'D', "DEV,...", "consent to write these real disks" },
	{ "wipe", 0, false, 'W', NULL, "also wipe signatures on the named disks" },
	{ "host-label", 0, true, 'H', "NAME", "record which machine in host.label" },
	{ "stack", 0, true, 'S', "NAME", "run only this expansion of a matrix file" },
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_build_and_test(int argc, char **argv, struct sb_err *err)
{
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
	if (rc == 0)
		rc = auto_check(&ro, err);
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

const struct sb_cmd sb_cmd_build_and_test_row = {
	.name = "build-and-test",
	.fn = sb_cmd_build_and_test,
	.flags = SB_CMD_COLUMNS | SB_CMD_OWN_SANDBOX,
	.opts = opts,
	.summary = "build, benchmark and tear down each stack, then print the table",
	.usage =
	  "usage: stackbench build-and-test [--set KEY=VALUE]... [--repeat N [--interleave]] [--results DIR]\n"
	  "                                 [--repeat auto [--precision PCT] [--min-repeat N] [--max-repeat N]\n"
	  "                                  [--max-time DURATION]]\n"
	  "                                 [--format " SB_USAGE_FORMATS "] [--chart FILE]\n"
	  "                                 [--columns LIST] [--baseline NAME] [--report FILE.html]\n"
	  "                                 [--destroy-data=DEV,...] [--wipe] [--host-label NAME]\n"
	  "                                 [--stack NAME] STACK.yml...\n"
	  "  Builds each stack (matrix files: each expansion), runs its bench suites, tears it down,\n"
	  "  writes one results file per stack (default ./results) and prints the table;\n"
	  "  --report FILE.html also writes the HTML report of this run (see stackbench report).\n"
	  "  Runs in the throwaway kernel when this one lacks md or device-mapper.\n"
	  "  --host-label NAME (or env STACKBENCH_HOST_LABEL) records which machine in host.label;\n"
	  "  --stack NAME runs only that expansion of a matrix file.\n"
	  "  --interleave: repetition r of every stack in round r, each stack rebuilt for each round,\n"
	  "  so a machine whose speed drifts moves every stack alike (not with export, faults.fail or\n"
	  "  faults.flakey).\n"
	  "  --repeat auto: interleaved rounds until every figure of the table has a 95 % CI within\n"
	  "  --precision (default 5 %) or a verdict against --baseline, at least --min-repeat (3) and at\n"
	  "  most --max-repeat (10) rounds, none started that would pass --max-time; the results' run_order\n"
	  "  says why it stopped (docs/statistics.md).\n",
};
