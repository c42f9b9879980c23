/* What the pipeline measures on a built stack: the read-back of every
 * layer, then the stack's suites, bench.repeat times; shared by
 * build-and-test (run_stack.c) and `bench STACK` on a stack `build` left up
 * (sb_run_bench_built, here). And the results file each of them ends with. */
#include "run/run_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/degrade.h"
#include "bench/suite.h"
#include "report/results.h"
#include "report/table.h"
#include "util/log.h"

/* The layer faults.* act on (the one whose ops say fault_target: md). */
static const struct sb_layer *fault_target(const struct sb_stack *s)
{
	for (unsigned i = 0; i < s->nlayers; i++)
		if (s->layers[i].ops->fault_target)
			return &s->layers[i];
	return NULL;
}

/* faults.fail: the md layer's description after a suite (NULL if it fails). */
static struct json_object *md_state(const struct sb_stack *s)
{
	const struct sb_layer *md = fault_target(s);
	struct json_object *o = json_object_new_object();
	struct sb_err e = { 0 };

	if (!md || md->ops->describe(md, o, &e) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* With faults on a RAID stack: a verify file is written first and
 * (faults.fail) the member is failed from a timer `after` into the
 * benchmark (sb_degrade_begin). *deg stays NULL without faults. */
static int degrade_begin(const struct sb_stack *s, const struct sb_stack_spec *spec,
			 struct sb_degrade **deg, struct sb_err *err)
{
	const struct sb_fault_fail_spec *ff = &spec->faults.fail;
	const struct sb_layer *md = fault_target(s);
	int rc;

	*deg = NULL;
	if (!spec->faults.enabled || !spec->raid.enabled)
		return 0;
	if (!md || !md->ndev || !md->below || (ff->enabled && ff->member >= md->below->ndev))
		return sb_err_set(err, -EINVAL, "faults: the stack has no md array (or no member %u)", ff->member);
	*deg = calloc(1, sizeof(**deg));
	if (!*deg)
		return sb_err_set(err, -ENOMEM, "out of memory");
	/* 8 MiB (or bench.size, if smaller) of data that must survive */
	rc = sb_degrade_begin(*deg, sb_stack_mountpoint(s), md->dev[0],
			      ff->enabled ? md->below->dev[ff->member] : NULL,
			      ff->member, ff->after_ns,
			      spec->bench.size && spec->bench.size < (8ULL << 20) ? spec->bench.size : 8ULL << 20,
			      err);
	if (rc < 0) {
		free(*deg);
		*deg = NULL;
	}
	return rc;
}

/* The verify file read back at the end (sb_degrade_end); its failure is the
 * run's only if nothing failed before. */
static void degrade_end(struct sb_degrade *deg, struct json_object *res, int *rc, struct sb_err *err)
{
	struct sb_err verr = { 0 };
	int r = sb_degrade_end(deg, res, &verr);

	if (r < 0 && !*rc) {
		*rc = r;
		*err = verr;
	} else if (r < 0) {
		sb_warn("%s", verr.msg);
	}
	free(deg);
}

/* Run every suite of the stack, repetitions reps, into res. A suite that fails
 * is recorded in the results ("errors") and ends the benchmark of this
 * stack; the teardown still happens. With faults, every suite records the
 * md state after it (sb_degrade_*). */
static int run_suites(const struct sb_run_ctx *c, struct sb_stack *s, const struct sb_run_reps *reps,
		      struct json_object *res, struct sb_err *err)
{
	const struct sb_stack_spec *spec = s->spec;
	struct sb_degrade *deg;
	const char *devs[64];
	unsigned ndev, rep, i;
	int rc;

	ndev = sb_stack_devices(s, devs, 64);
	rc = degrade_begin(s, spec, &deg, err);
	for (rep = reps->first; rep <= reps->last && !rc; rep++) {
		for (i = 0; i < spec->bench.nsuites; i++) {
			const char *suite = spec->bench.suites[i];
			struct json_object *obj = NULL;

			if (*c->stop) {
				rc = sb_err_set(err, -EINTR, "interrupted");
				break;
			}
			sb_info("%s: suite %s (repetition %u of %u) in %s", spec->name,
				suite, rep, reps->of, sb_stack_mountpoint(s));
			rc = sb_suite_run(suite, &spec->bench, sb_stack_mountpoint(s), devs, ndev, rep, &obj, err);
			if (rc < 0) {
				sb_err_prefix(err, "suite %s: ", suite);
				break;
			}
			if (deg) {
				struct json_object *st = md_state(s);

				sb_degrade_after_suite(deg, obj, st);
				json_object_put(st);
			}
			sb_results_add_suite(res, obj);
			/* The engine finishes the phase it is in; a signal that came
			 * meanwhile still ends the run here, so the stack is torn
			 * down and the exit status says it was interrupted. */
			if (*c->stop) {
				rc = sb_err_set(err, -EINTR, "interrupted during suite %s", suite);
				break;
			}
		}
	}
	if (deg)
		degrade_end(deg, res, &rc, err);
	return rc;
}

unsigned sb_run_repeat(const struct sb_run_ctx *c, const struct sb_stack_spec *spec)
{
	if (c->autorep.on)
		return c->autorep.max_repeat;
	if (c->repeat)
		return c->repeat;
	/* bench.repeat: auto outside build-and-test's rounds: its fewest */
	return spec->bench.repeat ? spec->bench.repeat : spec->bench.min_repeat;
}

struct sb_run_reps sb_run_reps_all(const struct sb_run_ctx *c, const struct sb_stack_spec *spec)
{
	unsigned n = sb_run_repeat(c, spec);

	return (struct sb_run_reps){ 1, n, n, false, false };
}

void sb_run_results_add_error(struct json_object *res, const char *msg)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(res, "errors", &arr)) {
		arr = json_object_new_array();
		json_object_object_add(res, "errors", arr);
	}
	json_object_array_add(arr, json_object_new_string(msg));
}

int sb_run_results_begin(const struct sb_stack_spec *spec, struct json_object **res, struct sb_err *err)
{
	struct json_object *req = NULL;
	int rc;

	rc = sb_spec_to_json(spec, &req);
	if (rc < 0)
		return sb_err_set(err, rc, "cannot describe stack %s", spec->name);
	if ((rc = sb_results_new(spec->name, req, res, err)) == 0)
		sb_layer_label_results(*res, spec);
	return rc;
}

int sb_run_measure(const struct sb_run_ctx *c, struct sb_stack *s, const struct sb_run_reps *reps,
		   struct json_object *res, struct sb_err *err)
{
	struct json_object *built = NULL;
	int rc = 0;

	/* the first build's read-back; with --interleave the later rounds
	 * rebuild the same spec (run_order in the results says so) */
	if (reps->first == 1 && (rc = sb_stack_describe(s, &built, err)) == 0)
		sb_results_set_built(res, built);
	if (rc == 0 && c->bench)
		rc = run_suites(c, s, reps, res, err);
	if (rc < 0)
		sb_run_results_add_error(res, err->msg);
	return rc;
}

void sb_run_results_end(const struct sb_run_ctx *c, const char *name, int rc, struct json_object **res,
			struct json_object **out, char **path_out, struct sb_err *err)
{
	struct sb_err werr = { 0 };
	char path[SB_PATH_MAX];

	sb_results_finish(*res);
	if (sb_results_write(*res, c->results_dir, path, sizeof(path), &werr) == 0) {
		sb_info("%s: results in %s", name, path);
		if (path_out)
			*path_out = strdup(path);   /* the HTML report names it */
	}
	else if (rc == 0)
		*err = werr;
	else
		sb_warn("%s", werr.msg);
	if (rc == 0 && out) {
		*out = *res;
		*res = NULL;
	}
}

/* The stack of c->files[0] named stack_name (or its only one). */
static int pick(const struct sb_run_ctx *c, const struct sb_spec_list *list, const char *stack_name,
		const struct sb_stack_spec **spec, struct sb_err *err)
{
	unsigned i;

	*spec = NULL;
	for (i = 0; i < list->n; i++)
		if (stack_name ? !strcmp(list->items[i].name, stack_name) : list->n == 1)
			*spec = &list->items[i];
	if (*spec)
		return 0;
	return sb_err_set(err, -EINVAL, "%s: %s; name one with --stack NAME", c->files[0],
			  stack_name ? "no stack of that name" : "it expands to several stacks");
}

/* Measure the stack `build` left up, then write its results and print the
 * table. */
static int bench_attached(const struct sb_run_ctx *c, struct sb_stack *s, struct sb_err *err)
{
	struct sb_run_reps reps = sb_run_reps_all(c, s->spec);
	struct json_object *res = NULL, *done = NULL;
	struct sb_run_signals sig;
	int rc;

	rc = sb_run_results_begin(s->spec, &res, err);
	if (rc < 0)
		return rc;
	sb_run_listen(c, &sig);
	rc = sb_run_measure(c, s, &reps, res, err);
	sb_run_unlisten(&sig);
	sb_run_results_end(c, s->spec->name, rc, &res, &done, NULL, err);
	if (done && c->table)
		rc = sb_table_render(&done, 1, c->table, stdout, err);
	if (res)
		json_object_put(res);
	if (done)
		json_object_put(done);
	return rc;
}

int sb_run_bench_built(const struct sb_run_ctx *c, const char *stack_name, struct sb_err *err)
{
	struct sb_spec_list list = { 0 };
	const struct sb_stack_spec *spec;
	struct sb_stack *s = NULL;
	int rc;

	rc = sb_spec_load(c->files[0], c->sets, c->nsets, &list, err);
	if (rc < 0)
		return rc;
	rc = pick(c, &list, stack_name, &spec, err);
	if (rc < 0)
		goto out;
	s = calloc(1, sizeof(*s));
	if (!s) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (!spec->bench.repeat && !c->repeat)
		sb_info("%s: bench.repeat: auto is build-and-test's (a new build each round); here, on the "
			"stack built, its bench.min_repeat %u repetitions", spec->name, spec->bench.min_repeat);
	rc = sb_stack_init(s, spec, err);
	if (rc == 0)
		rc = sb_stack_attach(s, err);
	if (rc == 0)
		rc = bench_attached(c, s, err);
out:
	if (s)
		sb_stack_release(s);
	free(s);
	sb_spec_list_free(&list);
	return rc;
}
