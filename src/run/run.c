/* The run of every stack file: load and expand them, decide whether the
 * throwaway kernel runs them (and re-run the command there if so), say
 * what the run will cost, measure the machine's ceiling, run each stack
 * (run_stack.c) and print the comparison of their results. */
#include "run/run_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "export/export.h"
#include "run/ceiling.h"
#include "run/cost.h"
#include "sandbox/sandbox.h"
#include "report/chart.h"
#include "report/html.h"
#include "report/results.h"
#include "report/table.h"
#include "util/clock.h"
#include "util/log.h"

int sb_run_add_set(struct sb_run_ctx *ctx, const char *kv, struct sb_err *err)
{
	if (ctx->nsets >= SB_RUN_MAX_SETS)
		return sb_err_set(err, -E2BIG, "too many --set options (at most %d)", SB_RUN_MAX_SETS);
	ctx->sets[ctx->nsets++] = kv;
	return 0;
}

/* Before anything is built: what each stack will cost (time, disk), so a
 * user knows what the run takes before it takes it. Said once: the host
 * says it before booting the throwaway kernel, which then stays quiet
 * (SB_COST_SHOWN is passed in like every SB_* variable). */
static void announce_cost(const struct sb_run_ctx *ctx, const struct sb_spec_list *lists)
{
	const struct sb_run_auto *a = &ctx->autorep;
	struct sb_cost c;
	double lo = 0, hi = 0;
	unsigned i, j, n = 0;
	char sum[512], x[32], y[32];

	if (!ctx->bench || getenv("SB_COST_SHOWN"))
		return;
	for (i = 0; i < ctx->nfiles; i++) {
		for (j = 0; j < lists[i].n; j++) {
			sb_cost_compute(&lists[i].items[j], ctx->repeat, ctx->sandbox, ctx->in_sandbox, &c);
			if (a->on)   /* from its fewest rounds to its most */
				sb_cost_rounds(&c, a->min_repeat, a->max_repeat, a->max_time_s);
			else if (ctx->interleave)   /* a build and teardown per round */
				sb_cost_add_rebuilds(&c, c.repeat - 1);
			sb_cost_summary(&lists[i].items[j], &c, sum, sizeof(sum));
			sb_info("%s: expect %s (`stackbench plan` details it)", lists[i].items[j].name, sum);
			lo += c.min_s;
			hi += c.max_s;
			n++;
		}
	}
	if (a->on)
		sb_info("--repeat auto: %u to %u rounds, each stack rebuilt per round: the estimates run from the "
			"fewest rounds to the most (stops when every figure is within \xc2\xb1%.1f %% or decided%s)",
			a->min_repeat, a->max_repeat, a->precision_pct,
			a->max_time_s > 0 ? ", or another round would pass the most time" : "");
	if (n > 1) {
		sb_sizing_format_duration(lo, x, sizeof(x));
		sb_sizing_format_duration(hi, y, sizeof(y));
		sb_info("%u stacks: expect about %s to %s in all", n, x, y);
	}
	setenv("SB_COST_SHOWN", "1", 1);
}

/* The sandbox's member devices: the stacks run one after another in one
 * boot and reuse them, so as many as the largest stack has, as large as the
 * largest; created where that stack would put its backing files. A stack
 * that needs more than UML's 16 gets loop devices on files inside. */
static void members_need(struct sb_sandbox_members *m, const struct sb_stack_spec *sp)
{
	const struct sb_loop_spec *ls = &sp->devices.loop;
	unsigned n;

	if (sp->devices.kind != SB_DEVICES_LOOP)
		return;
	n = ls->count < SB_SANDBOX_MAX_UBD ? ls->count : SB_SANDBOX_MAX_UBD;
	if (!m->dir[0] || (uint64_t)n * ls->size > (uint64_t)m->count * m->size)
		snprintf(m->dir, sizeof(m->dir), "%s", ls->dir);
	if (n > m->count)
		m->count = n;
	if (ls->size > m->size)
		m->size = ls->size;
}

/* --stack NAME: one expansion of a matrix (stackbench fleet --spread deals
 * them out one by one); the others are dropped (specs are plain values). */
static void only_keep(struct sb_spec_list *l, const char *name)
{
	unsigned i, k = 0;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].name, name))
			l->items[k++] = l->items[i];
	l->n = k;
}

/* Load every stack file (keeping only --stack's stack if given) and gather
 * what they need of the kernel, whether any uses real disks, and the
 * sandbox members they need. */
static int load_lists(const struct sb_run_ctx *ctx, struct sb_spec_list *lists,
		      struct sb_kernel_needs *needs, bool *has_disks,
		      struct sb_sandbox_members *members, unsigned *total, struct sb_err *err)
{
	unsigned i, j;
	int rc;

	for (i = 0; i < ctx->nfiles; i++) {
		rc = sb_spec_load(ctx->files[i], ctx->sets, ctx->nsets, &lists[i], err);
		if (rc < 0)
			return rc;
		if (ctx->only_stack)
			only_keep(&lists[i], ctx->only_stack);
		for (j = 0; j < lists[i].n; j++) {
			const struct sb_stack_spec *sp = &lists[i].items[j];
			sb_stack_needs(sp, needs);
			/* a missing daemon is said now, not after the layers below */
			if ((rc = sb_stack_check_programs(sp, err)) < 0)
				return rc;
			*has_disks |= sp->devices.kind == SB_DEVICES_DISKS;
			members_need(members, sp);
		}
		*total += lists[i].n;
	}
	return 0;
}

/* What the stacks of the run left: their results (and paths) in order,
 * and how many failed. */
struct run_out {
	struct json_object **results;
	char **paths;
	unsigned nres, nfail;
};

/* Stack k of total, one build (reps); its failure is warned about, and the
 * first one is the run's error. */
static int run_one(const struct sb_run_ctx *ctx, const struct sb_stack_spec *sp, unsigned k,
		   unsigned total, const struct sb_run_machine *m, const struct sb_run_reps *reps,
		   struct json_object **held, struct run_out *o, int *rc, struct sb_err *err)
{
	struct sb_err e1 = { 0 };
	unsigned got = 0;
	char round[48] = "";
	int r;

	if (reps->interleaved)
		snprintf(round, sizeof(round), " (round %u of %u)", reps->first, reps->of);
	sb_info("[%u/%u] %s%s", k, total, sp->name, round);
	sb_progress_context(SB_PROGRESS_RUN, "[stack %u of %u] %s%s", k, total, sp->name, round);
	r = sb_run_stack(ctx, sp, m, reps, held, &o->results[o->nres], &o->paths[o->nres], &got, &e1);
	sb_progress_done();
	sb_progress_context(SB_PROGRESS_RUN, NULL);
	if (r < 0) {
		o->nfail++;
		sb_warn("%s: %s", sp->name, e1.msg);
		if (!*rc) {
			*rc = r;
			*err = e1;
		}
	}
	o->nres += got;   /* the local row and one per export target */
	return r;
}

/* An interleaved run stopped between rounds: each stack's earlier rounds
 * are still written, with the interruption among their errors. */
static void write_held(const struct sb_run_ctx *ctx, const struct sb_stack_spec *sp,
		       const struct sb_run_machine *m, struct json_object *held)
{
	struct sb_err e = { 0 };

	sb_run_results_add_error(held, "interrupted between rounds (--interleave)");
	sb_run_machine_mark(held, m);
	sb_run_results_end(ctx, sp->name, -EINTR, &held, NULL, NULL, &e);
	json_object_put(held);
}

/* The repetitions of stack sp in round r: all of them in one build, or with
 * --interleave the r-th (none past its own count). */
static struct sb_run_reps round_reps(const struct sb_run_ctx *ctx, const struct sb_stack_spec *sp,
				     unsigned r)
{
	struct sb_run_reps all = sb_run_reps_all(ctx, sp);

	if (!ctx->interleave)
		return all;
	return (struct sb_run_reps){ r, r, all.of, true, ctx->autorep.on };
}

/* --repeat auto: after round r, whether to stop (the held results of
 * every stack still going); then each is ended with why in its run_order. */
static const char *auto_stop(const struct sb_run_ctx *ctx, struct json_object **held, unsigned total,
			     unsigned r, double t0, double round_s, char *why, size_t len)
{
	struct json_object **res = calloc(total + 1, sizeof(*res));
	const char *stop;
	unsigned k, n = 0;

	if (!res)
		return NULL;
	for (k = 0; k < total; k++)
		if (held[k])
			res[n++] = held[k];
	stop = sb_run_auto_check(&ctx->autorep, ctx->table, res, n, r, sb_clock_s() - t0, round_s, why, len);
	free(res);
	if (stop)
		sb_info("--repeat auto: stop after round %u (%s): %s", r, stop, why);
	return stop;
}

static void auto_end(const struct sb_run_ctx *ctx, const struct sb_stack_spec **all, unsigned total,
		     const struct sb_run_machine *m, struct json_object **held, unsigned rounds,
		     const char *stop, const char *why, double seconds, struct run_out *o, int *rc,
		     struct sb_err *err)
{
	unsigned k;

	for (k = 0; k < total; k++) {
		if (!held[k])
			continue;
		sb_run_auto_record(&ctx->autorep, held[k], rounds, stop, why, seconds);
		sb_run_machine_mark(held[k], m);
		sb_run_results_end(ctx, all[k]->name, 0, &held[k], &o->results[o->nres], &o->paths[o->nres], err);
		if (held[k]) {   /* not written: the error is the run's */
			json_object_put(held[k]);
			held[k] = NULL;
			if (!*rc)
				*rc = err->code ? err->code : -EIO;
			continue;
		}
		o->nres++;
	}
}

/* Run every stack in turn (with --interleave: every stack once per round,
 * rebuilt each time, so a machine that drifts moves them all alike) until
 * a signal stops the run. */
static int run_all(const struct sb_run_ctx *ctx, const struct sb_stack_spec **all, unsigned total,
		   const struct sb_run_machine *m, struct run_out *o, struct sb_err *err)
{
	struct json_object **held = calloc(total, sizeof(*held));
	bool *done = calloc(total, sizeof(*done));
	unsigned r, k, rounds = 1;
	const char *stop;
	char why[512];
	double t0 = 0;
	int rc = 0;

	if (!held || !done) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; ctx->interleave && k < total; k++)
		if (sb_run_repeat(ctx, all[k]) > rounds)
			rounds = sb_run_repeat(ctx, all[k]);
	for (r = 1; r <= rounds; r++) {
		double round_t0 = sb_clock_s();

		if (r == 1)
			t0 = round_t0;
		for (k = 0; k < total; k++) {
			struct sb_run_reps reps = round_reps(ctx, all[k], r);

			if (done[k] || reps.first > reps.of)
				continue;
			if (*ctx->stop) {
				if (!rc)
					rc = sb_err_set(err, -EINTR, "interrupted before stack %s", all[k]->name);
				goto out;
			}
			if (run_one(ctx, all[k], k + 1, total, m, &reps, &held[k], o, &rc, err) < 0 || !held[k])
				done[k] = true;
		}
		if (ctx->autorep.on && !*ctx->stop &&
		    (stop = auto_stop(ctx, held, total, r, t0, sb_clock_s() - round_t0, why, sizeof(why)))) {
			auto_end(ctx, all, total, m, held, r, stop, why, sb_clock_s() - t0, o, &rc, err);
			break;
		}
	}
out:
	for (k = 0; held && k < total; k++)
		if (held[k])
			write_held(ctx, all[k], m, held[k]);
	free(held);
	free(done);
	return rc;
}

/* The comparison table, and the chart and HTML report if asked; a failure
 * here becomes the run's error only if nothing failed before (*rc == 0). */
static void render_results(const struct sb_run_ctx *ctx, struct json_object **results, char **paths,
			   unsigned nres, int *rc, struct sb_err *err)
{
	struct sb_err terr = { 0 };
	int r = sb_table_render(results, nres, ctx->table, stdout, &terr);

	if (r == 0 && ctx->chart)
		r = sb_chart_write(results, nres, ctx->table, ctx->chart, &terr);
	if (r == 0 && ctx->report) {
		r = sb_html_write(results, (const char *const *)paths, nres, ctx->table, ctx->report, &terr);
		if (r == 0)
			sb_info("report written to %s", ctx->report);
	}
	if (r < 0 && !*rc) {
		*rc = r;
		*err = terr;
	}
}

/* Here, in this kernel: the machine's ceiling, every stack, the table. */
/* In the throwaway kernel, its free memory touched once (sandbox/memory.c:
 * else the first stack's first writes pay the host's page allocation). */
static struct json_object *guest_warm(void)
{
	struct sb_mem_touch w;
	struct sb_err e = { 0 };
	struct json_object *o;

	if (sb_sandbox_guest_warm(&w, &e) < 0) {
		sb_warn("%s; the first stack's figures may include the host's first allocation of this "
			"kernel's memory", e.msg);
		return NULL;
	}
	sb_info("sandbox: touched %.0f MiB of the kernel's %.0f MiB free memory in %.1f s, so no stack pays "
		"the host's first allocation of it", w.bytes / 1048576.0, w.free_bytes / 1048576.0, w.ns / 1e9);
	o = json_object_new_object();
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)w.bytes));
	json_object_object_add(o, "free_bytes", json_object_new_int64((int64_t)w.free_bytes));
	json_object_object_add(o, "seconds", json_object_new_double(w.ns / 1e9));
	return o;
}

/* Before the first stack: the guest's memory warmed (sandbox only), then
 * the machine's own ceiling per suite, for bound_by_machine marks. */
static void machine_measure(const struct sb_run_ctx *ctx, struct sb_spec_list *lists,
			    struct sb_run_machine *m)
{
	struct sb_err cerr = { 0 };

	if (ctx->in_sandbox)
		m->guest_warm = guest_warm();
	if (sb_ceiling_measure(lists, ctx->nfiles, &m->ceilings, &cerr) < 0)
		sb_warn("%s; figures are not checked against the machine's ceiling", cerr.msg);
}

void sb_run_machine_mark(struct json_object *res, const struct sb_run_machine *m)
{
	struct json_object *host;

	sb_ceiling_mark(res, m->ceilings);
	if (m->guest_warm && json_object_object_get_ex(res, "host", &host))
		json_object_object_add(host, "guest_memory_warmed", json_object_get(m->guest_warm));
}

static int run_here(const struct sb_run_ctx *ctx, struct sb_spec_list *lists, unsigned total,
		    struct sb_err *err)
{
	unsigned n = total * (1 + SB_EXPORT_MAX_TARGETS), i, j, k = 0;
	const struct sb_stack_spec **all = calloc(total ? total : 1, sizeof(*all));
	struct sb_run_machine machine = { 0 };
	struct run_out o = { 0 };
	struct sb_run_signals sig;
	int rc;

	/* each stack: its row, and one per client mount with export */
	o.results = calloc(n, sizeof(*o.results));
	o.paths = calloc(n, sizeof(*o.paths));
	if (!all || !o.results || !o.paths) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < ctx->nfiles; i++)
		for (j = 0; j < lists[i].n; j++)
			all[k++] = &lists[i].items[j];
	sb_run_listen(ctx, &sig);
	if (ctx->bench && !*ctx->stop)
		machine_measure(ctx, lists, &machine);
	rc = run_all(ctx, all, total, &machine, &o, err);
	sb_run_unlisten(&sig);

	if (o.nres)
		render_results(ctx, o.results, o.paths, o.nres, &rc, err);
	if (o.nfail)
		sb_info("%u of %u stacks failed", o.nfail, total);
out:
	if (machine.ceilings)
		json_object_put(machine.ceilings);
	if (machine.guest_warm)
		json_object_put(machine.guest_warm);
	for (i = 0; o.results && i < o.nres; i++)
		json_object_put(o.results[i]);
	free(o.results);
	for (i = 0; o.paths && i < n; i++)
		free(o.paths[i]);
	free(o.paths);
	free(all);
	return rc;
}

/* --interleave rebuilds every stack once per round: not with export (its
 * client rows are measured on the one build) nor faults (a member failed
 * into the suites of one build); said before anything is built. */
static int check_interleave(const struct sb_run_ctx *ctx, const struct sb_spec_list *lists,
			    struct sb_err *err)
{
	unsigned i, j;

	for (i = 0; ctx->interleave && i < ctx->nfiles; i++) {
		for (j = 0; j < lists[i].n; j++) {
			const struct sb_stack_spec *sp = &lists[i].items[j];

			/* a delay is part of each build; a failure or flakey
			 * intervals happen to one build's suites */
			if (sb_export_spec_of(sp)->enabled || sp->faults.fail.enabled || sp->faults.flakey.enabled)
				return sb_err_set(err, -EINVAL, "%s: stack %s has %s, which is measured "
						  "on one build; run it without %s", ctx->autorep.on ?
						  "--repeat auto (rounds, each a new build)" : "--interleave", sp->name,
						  sb_export_spec_of(sp)->enabled ? "export" : "faults",
						  ctx->autorep.on ? "repeat auto" : "--interleave");
		}
	}
	return 0;
}

/* The run's --repeat auto: the flags' with the stacks' bench.repeat: auto
 * (run/auto.h); on, it interleaves. */
static int resolve_auto(struct sb_run_ctx *eff, const struct sb_spec_list *lists, unsigned total,
			struct sb_err *err)
{
	const struct sb_stack_spec **all = calloc(total ? total : 1, sizeof(*all));
	struct sb_run_auto cli = eff->autorep;
	unsigned i, j, k = 0;
	int rc;

	if (!all)
		return sb_err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < eff->nfiles; i++)
		for (j = 0; j < lists[i].n; j++)
			all[k++] = &lists[i].items[j];
	rc = sb_run_auto_resolve(&cli, eff->repeat, all, k, &eff->autorep, err);
	free(all);
	if (rc == 0 && eff->autorep.on)
		eff->interleave = true;   /* the rounds are paired */
	return rc;
}

int sb_run(const struct sb_run_ctx *cmd_ctx, struct sb_err *err)
{
	struct sb_run_ctx eff = *cmd_ctx;
	const struct sb_run_ctx *ctx = &eff;
	struct sb_spec_list *lists;
	bool has_disks = false, use_sandbox = false;
	struct sb_kernel_needs needs = { 0 };
	struct sb_sandbox_members members = { 0 };
	unsigned i, total = 0;
	int rc, code;

	lists = calloc(ctx->nfiles, sizeof(*lists));
	if (!lists)
		return sb_err_set(err, -ENOMEM, "out of memory");
	rc = load_lists(ctx, lists, &needs, &has_disks, &members, &total, err);
	if (rc < 0)
		goto out;
	if (ctx->only_stack && !total) {
		rc = sb_err_set(err, -EINVAL, "--stack %s: no stack of that name in the files given",
				ctx->only_stack);
		goto out;
	}
	if (ctx->bench && (rc = resolve_auto(&eff, lists, total, err)) < 0)
		goto out;
	if ((rc = check_interleave(ctx, lists, err)) < 0)
		goto out;
	rc = sb_sandbox_decide(ctx->sandbox, ctx->in_sandbox, &needs, has_disks, &use_sandbox, err);
	if (rc < 0)
		goto out;
	announce_cost(ctx, lists);
	if (use_sandbox) {
		members.measure = ctx->bench;
		rc = sb_sandbox_rerun(ctx->argc, ctx->argv, &members, &code, err);
		if (rc == 0)
			rc = code;  /* the exit code of the run inside, carried back */
	} else {
		rc = run_here(ctx, lists, total, err);
	}
out:
	for (i = 0; i < ctx->nfiles; i++)
		sb_spec_list_free(&lists[i]);
	free(lists);
	return rc;
}
