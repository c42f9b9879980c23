/* stackbench bench: run suites on a directory (--suite --target), or the
 * stack's own suites on a stack `build` left up (STACK.yml). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bench/suite.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "sys/safety.h"
#include "run/run.h"
#include "report/results.h"
#include "config.h"
#include "util/log.h"
#include "util/units.h"

static void print_suite_text(struct json_object *s)
{
	struct json_object *v, *figs, *notes, *du;

	printf("suite %s on %s, repetition %d\n",
	       sb_results_suite_name(s),
	       json_object_get_string(json_object_object_get(s, "target")),
	       json_object_get_int(json_object_object_get(s, "repetition")));
	printf("  %-26s %14s %-5s %7s %14s\n", "figure", "value", "unit", "CPU %", "max lat (ms)");
	figs = sb_results_suite_figures(s);
	json_object_object_foreach(figs, name, f) {
		printf("  %-26s %14.1f %-5s", name, json_object_get_double(json_object_object_get(f, "value")),
		       json_object_get_string(json_object_object_get(f, "unit")));
		if (json_object_object_get_ex(f, "cpu_pct", &v))
			printf(" %7.1f", json_object_get_double(v));
		else
			printf(" %7s", "-");
		if (json_object_object_get_ex(f, "latency_ns", &v))
			printf(" %14.2f", json_object_get_int64(v) / 1e6);
		putchar('\n');
	}
	printf("  (MB/s = 10^6 bytes/s; /s = operations per second; CPU %% = CPU time / elapsed)\n");
	notes = sb_results_suite_notes(s);
	for (size_t i = 0; notes && i < json_object_array_length(notes); i++)
		printf("  note: %s\n", json_object_get_string(json_object_array_get_idx(notes, i)));
	du = json_object_object_get(s, "disk_util");
	if (json_object_array_length(du)) {
		printf("  devices over the suite (iostat -x; MB/s = 10^6 B/s):\n");
		printf("    %-10s %10s %10s %9s %9s %9s %9s %7s\n", "device", "read_ios", "write_ios",
		       "rMB/s", "wMB/s", "r_await", "w_await", "%util");
		for (size_t i = 0; i < json_object_array_length(du); i++) {
			struct json_object *d = json_object_array_get_idx(du, i);
#define G(k) json_object_object_get(d, k)
			printf("    %-10s %10lld %10lld %9.2f %9.2f %9.2f %9.2f %7.1f\n",
			       json_object_get_string(G("name")), (long long)json_object_get_int64(G("read_ios")),
			       (long long)json_object_get_int64(G("write_ios")),
			       json_object_get_double(G("read_mbps")), json_object_get_double(G("write_mbps")),
			       json_object_get_double(G("r_await_ms")), json_object_get_double(G("w_await_ms")),
			       json_object_get_double(G("util_pct")));
#undef G
		}
	}
}

enum { O_SUITE = 256, O_TARGET, O_SET, O_FMT, O_WATCH, O_RESULTS, O_STACK, O_DESTROY };

/* What `bench --suite --target` runs. */
struct target_run {
	struct sb_bench_spec b;
	const char *target, *results, *destroy;
	const char *watch[32];
	unsigned nwatch, nsuites;
	char suites[SB_MAX_SUITES][32];
	bool json;
};

/* --suite NAME[,NAME] */
static int parse_suites(const char *arg, struct target_run *t, struct sb_err *err)
{
	char tmp[256], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(tmp))
		return sb_err_set(err, -EINVAL, "--suite: too long");
	snprintf(tmp, sizeof(tmp), "%s", arg);
	for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!sb_suite_exists(tok))
			return sb_err_set(err, -EINVAL, "--suite: unknown suite '%s' (known: %s)",
					  tok, sb_suite_names());
		if (t->nsuites >= SB_MAX_SUITES || strlen(tok) >= sizeof(t->suites[0]))
			return sb_err_set(err, -EINVAL, "--suite: too many suites");
		snprintf(t->suites[t->nsuites++], sizeof(t->suites[0]), "%s", tok);
	}
	if (!t->nsuites)
		return sb_err_set(err, -EINVAL, "--suite: no suite named");
	return 0;
}

static void print_json(const struct target_run *t, struct json_object *arr)
{
	struct json_object *root = json_object_new_object();

	json_object_object_add(root, "stackbench_version", json_object_new_string(SB_VERSION));
	json_object_object_add(root, "target", json_object_new_string(t->target));
	json_object_object_add(root, "suites", json_object_get(arr));
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

/* The suites on a directory; a results file when --results is given. */
static int run_target(const struct target_run *t, struct sb_err *err)
{
	struct json_object *arr = NULL, *res = NULL;
	int rc = 0;

	if (t->results) {
		/* A directory, not a stack: the results file says what was measured. */
		struct json_object *req = json_object_new_object();
		char name[SB_NAME_MAX];
		const char *base = strrchr(t->target, '/');

		json_object_object_add(req, "target", json_object_new_string(t->target));
		snprintf(name, sizeof(name), "target-%s", base && base[1] ? base + 1 : "root");
		if ((rc = sb_results_new(name, req, &res, err)) < 0)
			goto out;
	}
	arr = json_object_new_array();
	for (unsigned r = 1; r <= t->b.repeat; r++) {
		for (unsigned i = 0; i < t->nsuites; i++) {
			struct json_object *s;

			sb_info("suite %s on %s (repetition %u of %u)", t->suites[i], t->target, r, t->b.repeat);
			rc = sb_suite_run(t->suites[i], &t->b, t->target, t->watch, t->nwatch, r, &s, err);
			if (rc < 0)
				goto out;
			if (!t->json) {
				print_suite_text(s);
				fflush(stdout);
			}
			json_object_array_add(arr, s);
			if (res)
				sb_results_add_suite(res, json_object_get(s));
		}
	}
	if (t->json)
		print_json(t, arr);
	if (res) {
		char path[SB_PATH_MAX];

		sb_results_finish(res);
		if ((rc = sb_results_write(res, t->results, path, sizeof(path), err)) == 0)
			sb_info("results in %s", path);
	}
out:
	json_object_put(arr);
	json_object_put(res);
	return rc;
}

static int bench_run(struct sb_args *a, struct target_run *t, struct sb_err *err)
{
	const char *suite_arg = NULL, *stack_name = NULL, *optarg;
	volatile sig_atomic_t stop = 0;   /* the pipeline has SIGINT/SIGTERM set it */
	struct sb_run_ctx ro = { .results_dir = "results", .bench = true, .stop = &stop };
	struct sb_table_opts to = { 0 };
	int c, rc = 0;

	while ((c = sb_args_next(a, &optarg, err)) > 0) {
		switch (c) {
		case O_SUITE: suite_arg = optarg; break;
		case O_TARGET: t->target = optarg; break;
		case O_SET:
			/* kept for STACK mode, where the spec loader validates it */
			if ((rc = sb_run_add_set(&ro, optarg, err)) < 0)
				return rc;
			break;
		case O_STACK: stack_name = optarg; break;
		case O_FMT:
			if (!strcmp(optarg, "json"))
				t->json = true;
			else if (strcmp(optarg, "text"))
				return sb_err_set(err, -EINVAL, "--output-format: '%s' is not text or json", optarg);
			break;
		case O_WATCH:
			if (t->nwatch >= 32)
				return sb_err_set(err, -EINVAL, "--watch: at most 32 devices");
			t->watch[t->nwatch++] = optarg;
			break;
		case O_RESULTS: t->results = optarg; break;
		case O_DESTROY: t->destroy = optarg; break;
		}
	}
	if (c < 0)
		return c;
	if (!suite_arg && !t->target) {
		if (a->npos != 1)
			return sb_args_usage_error("bench", err, "give one STACK.yml, or --suite NAME --target PATH");
		ro.files = (const char *const *)a->pos;
		ro.nfiles = 1;
		if (t->results)
			ro.results_dir = t->results;
		ro.table = &to;
		return sb_run_bench_built(&ro, stack_name, err);
	}
	/* --target mode: --set takes bench.* keys only, through the rows of
	 * a stack file's bench section */
	if ((rc = sb_spec_bench_keys((const char *const *)ro.sets, ro.nsets, &t->b, err)) < 0)
		return rc;
	if (!suite_arg || !t->target)
		return sb_err_set(err, -EINVAL, "bench: --suite and --target go together");
	/* a missing target is a missing input, exit 2 like a missing stack file */
	if (access(t->target, F_OK) < 0)
		return sb_err_set(err, -EINVAL, "bench: --target %s: %s", t->target, strerror(errno));
	if (a->npos)
		return sb_args_usage_error("bench", err, "unexpected argument '%s' with --target", a->pos[0]);
	/* every suite writes: on a block device, the checks a stack's disks get */
	if ((rc = sb_safety_check_target(t->target, true, t->destroy, err)) < 0)
		return rc;
	if ((rc = parse_suites(suite_arg, t, err)) < 0)
		return rc;
	return run_target(t, err);
}

/* The options, with the words `stackbench help bench` shows for each. */
static const struct sb_optdef opts[] = {
	{ "suite", 0, true, O_SUITE, "NAME[,NAME]", "the suites to run on --target" },
	{ "target", 0, true, O_TARGET, "PATH", "a directory or block device to measure instead of a stack" },
	{ "set", 0, true, O_SET, "bench.KEY=VALUE", "override a bench key (repeatable)" },
	{ "output-format", 0, true, O_FMT, "text|json", "how --target figures are printed" },
	{ "watch", 0, true, O_WATCH, "DEV", "device statistics of DEV during each phase (repeatable)" },
	{ "results", 0, true, O_RESULTS, "DIR", "where results files go (default ./results)" },
	{ "stack", 0, true, O_STACK, "NAME", "this expansion of a matrix file" },
	{ "destroy-data", 0, true, O_DESTROY, "DEV", "consent to write a block device --target" },
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_bench(int argc, char **argv, struct sb_err *err)
{
	struct target_run *t = calloc(1, sizeof(*t));
	struct sb_args a;
	int rc;

	if (!t || sb_args_init(&a, argc, argv, 1, opts, "bench", err) < 0) {
		free(t);
		return sb_err_set(err, -ENOMEM, "out of memory");
	}
	rc = bench_run(&a, t, err);
	free(t);
	sb_args_free(&a);
	return rc;
}

const struct sb_cmd sb_cmd_bench_row = {
	.name = "bench",
	.fn = sb_cmd_bench,
	.flags = 0,
	.opts = opts,
	.summary = "run benchmark suites on a built stack, or on any directory or block device",
	.usage =
	  "usage: stackbench bench [--results DIR] [--set bench.KEY=VALUE]... [--stack NAME] STACK.yml\n"
	  "       stackbench bench --suite NAME[,NAME] --target DIR [--set bench.KEY=VALUE]...\n"
	  "                        [--watch DEV]... [--output-format text|json] [--results DIR]\n"
	  "  The first form runs the stack's suites on a stack left up by `stackbench build`.\n"
	  "  Suites: " SB_USAGE_SUITES ".\n"
	  "  bench keys: " SB_USAGE_BENCH_KEYS ".\n"
	  "  A block device --target needs --destroy-data=DEV and the checks of a stack's disks\n"
	  "  (suites write).\n",
};
