/* One stack, start to finish: build it (measuring each layer as it comes
 * up with bench.per_layer), the ciphers' own speed, the read-back and the
 * suites (run_bench.c), the suites on every client mount with export, the
 * machine's ceiling marks, the teardown, and the results files. */
#include "run/run_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/ciphers.h"
#include "report/results.h"
#include "run/ceiling.h"
#include "run/export_rows.h"
#include "run/capture.h"
#include "run/per_layer.h"
#include "util/log.h"

/* results "ciphers": the stack's dm-crypt cipher per sector size and the
 * export's SSH ciphers (0.25 s a figure, about 1 s each); a failure is a
 * warning, not the run's. The export rows take their SSH cipher ceiling
 * from here (export_rows.c). */
static void record_ciphers(const struct sb_stack_spec *spec, struct json_object *res)
{
	struct sb_cipher_wants w = { 0 };
	const struct sb_layer_ops *ops;
	struct sb_err err = { 0 };
	unsigned i;

	for (i = 0; (ops = sb_layer_at(i)); i++)
		if (ops->ciphers && sb_layer_wanted(ops, spec))
			ops->ciphers(spec, &w);
	if (!w.dm_crypt && !w.nssh)
		return;
	if (w.dm_crypt)
		sb_info("%s: measuring the cipher %s (%u-bit key) through the kernel crypto API", spec->name,
			w.dm_crypt, w.key_bits);
	if (w.nssh)
		sb_info("%s: measuring the export's SSH cipher%s (OpenSSL)", spec->name, w.nssh > 1 ? "s" : "");
	if (sb_ciphers_record(res, w.dm_crypt, w.key_bits, w.ssh, 0.25, &err) < 0)
		sb_warn("%s: ciphers: %s", spec->name, err.msg);
}

/* results "run_order" with --interleave: the repetitions are rounds, each
 * stack rebuilt for each (stack.built is the first build's read-back). */
static void record_order(struct json_object *res, const struct sb_run_reps *reps)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "interleaved", json_object_new_boolean(1));
	json_object_object_add(o, "rounds", json_object_new_int((int)reps->of));
	json_object_object_add(o, "rebuilt_each_round", json_object_new_boolean(1));
	json_object_object_add(res, "run_order", o);
}

/* The stack's layers and what its build may do (stop flag, consent, the
 * per-layer hook), and its results object begun, or taken from *held (an
 * earlier round's). */
static int stack_begin(const struct sb_run_ctx *c, const struct sb_stack_spec *spec,
		       const struct sb_run_reps *reps, struct sb_stack *s, struct sb_build_ctx *bc,
		       struct sb_per_layer *pl, struct json_object **held, struct json_object **res,
		       struct sb_err *err)
{
	char summary[512], round[64] = "";
	int rc;

	*res = *held;
	*held = NULL;
	if (!*res && (rc = sb_run_results_begin(spec, res, err)) < 0)
		return rc;
	if (reps->interleaved && reps->first == 1)
		record_order(*res, reps);
	rc = sb_stack_init(s, spec, err);
	if (rc < 0)
		return rc;
	bc->stop = c->stop;
	if (c->destroy_data) {
		rc = sb_stack_set_destroy_data(bc, c->destroy_data, err);
		if (rc < 0)
			return rc;
	}
	bc->wipe = c->wipe;
	sb_spec_summary(spec, summary, sizeof(summary));
	if (reps->interleaved)
		snprintf(round, sizeof(round), " (round %u of %u)", reps->first, reps->of);
	sb_info("%s: building %s%s", spec->name, summary, round);
	/* build -> measure -> build the next (bench.per_layer), in the first
	 * build only. Not with faults: raw figures of a flakey or delayed
	 * member say nothing, and the time they take moves the fault's cycle
	 * under the build. */
	if (c->bench && spec->bench.per_layer && !spec->faults.enabled && reps->first == 1) {
		sb_per_layer_begin(pl, c->stop);
		bc->after_layer = sb_per_layer_after;
		bc->after_ctx = pl;
	}
	return 0;
}

/* Everything measured on the built stack: the local row in res, and with
 * export one row per client mount in remote[0..*nremote). */
static int stack_measure(const struct sb_run_ctx *c, struct sb_stack *s, struct sb_per_layer *pl,
			 const struct sb_run_reps *reps, struct json_object *res,
			 struct json_object **remote, unsigned *nremote, struct sb_err *err)
{
	const struct sb_stack_spec *spec = s->spec;
	int rc;

	if (pl->rows)
		sb_per_layer_end(pl, spec, res);
	/* the machine beside the figures: members, dm tables, layers' own */
	json_object_object_add(res, "environment", sb_capture_env(s));
	/* the ciphers' own speed (dm-crypt's while it holds the key), once */
	if (c->bench && reps->first == 1)
		record_ciphers(spec, res);
	rc = sb_run_measure(c, s, reps, res, err);
	sb_export_rows_mark_local(s, res);
	/* run.c refuses --interleave with export: its rows are all here */
	if (rc == 0 && c->bench && sb_export_spec_of(spec)->enabled)
		rc = sb_export_rows_run(s, reps->last - reps->first + 1, res, remote, SB_EXPORT_MAX_TARGETS,
					nremote, c->stop, err);
	return rc;
}

/* Tear the stack down; its failure is recorded in res, and is the run's
 * error only if nothing failed before (*rc == 0). */
static void stack_teardown(struct sb_stack *s, struct json_object *res, int *rc, struct sb_err *err)
{
	struct sb_err terr = { 0 };
	int trc;

	sb_info("%s: tearing down", s->spec->name);
	trc = sb_stack_teardown_state(&s->state, &terr);
	if (trc < 0) {
		sb_run_results_add_error(res, terr.msg);
		if (*rc == 0) {
			*rc = trc;
			*err = terr;
		} else {
			sb_warn("%s", terr.msg);
		}
	}
}

/* The results written (the run's error in them if rc < 0) and, on success,
 * handed to out[] with the export rows after them. */
static void stack_finish(const struct sb_run_ctx *c, const struct sb_stack_spec *spec,
			 const struct sb_run_machine *m, int rc, struct json_object **res,
			 struct json_object **remote, unsigned nremote, struct json_object **out,
			 char **path_out, unsigned *nout, struct sb_err *err)
{
	unsigned i;

	sb_run_machine_mark(*res, m);
	sb_run_results_end(c, spec->name, rc, res, out, path_out, err);
	*nout = rc == 0;
	for (i = 0; i < nremote; i++) {
		sb_run_machine_mark(remote[i], m);
		sb_run_results_end(c, sb_results_stack_name(remote[i]), rc, &remote[i],
				   rc == 0 ? &out[*nout] : NULL, rc == 0 ? &path_out[*nout] : NULL, err);
		*nout += rc == 0;
	}
}

int sb_run_stack(const struct sb_run_ctx *c, const struct sb_stack_spec *spec,
		 const struct sb_run_machine *m, const struct sb_run_reps *reps,
		 struct json_object **held, struct json_object **out, char **path_out,
		 unsigned *nout, struct sb_err *err)
{
	struct json_object *remote[SB_EXPORT_MAX_TARGETS] = { 0 };
	struct json_object *res = NULL;
	struct sb_per_layer pl = { 0 };
	struct sb_build_ctx bc = { 0 };
	unsigned nremote = 0, i;
	struct sb_stack *s;
	int rc;

	*nout = 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return sb_err_set(err, -ENOMEM, "out of memory");
	rc = stack_begin(c, spec, reps, s, &bc, &pl, held, &res, err);
	if (rc == 0)
		rc = sb_stack_build(s, &bc, err);
	if (rc < 0) {
		/* sb_stack_build already rolled back; a later round's failure
		 * keeps the earlier rounds' figures, with the error */
		if (res && reps->first > 1) {
			sb_run_results_add_error(res, err->msg);
			stack_finish(c, spec, m, rc, &res, remote, 0, out, path_out, nout, err);
		}
		goto out_free;
	}
	rc = stack_measure(c, s, &pl, reps, res, remote, &nremote, err);
	stack_teardown(s, res, &rc, err);
	if (rc == 0 && (reps->last < reps->of || reps->keep)) {
		*held = res;   /* the next round adds to it */
		res = NULL;
	} else {
		stack_finish(c, spec, m, rc, &res, remote, nremote, out, path_out, nout, err);
	}
out_free:
	for (i = 0; i < nremote; i++)
		if (remote[i])
			json_object_put(remote[i]);
	if (pl.rows)
		json_object_put(pl.rows);
	if (res)
		json_object_put(res);
	sb_stack_release(s);
	free(s);
	return rc;
}
