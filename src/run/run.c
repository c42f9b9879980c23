#include "run/run.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bench/degrade.h"
#include "bench/suite.h"
#include "cmd/cmd.h"
#include "bench/ciphers.h"
#include "run/ceiling.h"
#include "run/cost.h"
#include "run/export_rows.h"
#include "run/per_layer.h"
#include "sandbox/sandbox.h"
#include "core/stack.h"
#include "report/chart.h"
#include "report/html.h"
#include "report/results.h"
#include "report/table.h"
#include "spec/spec.h"
#include "util/log.h"

static volatile sig_atomic_t run_stop;

static void on_signal(int sig)
{
	(void)sig;
	run_stop = 1;
}

/* SIGINT/SIGTERM stop the run at the next step or suite boundary; the
 * stack is then torn down as after any other failure. */
static void signals_catch(struct sigaction *old_int, struct sigaction *old_term)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, old_int);
	sigaction(SIGTERM, &sa, old_term);
}

static void signals_restore(const struct sigaction *old_int, const struct sigaction *old_term)
{
	sigaction(SIGINT, old_int, NULL);
	sigaction(SIGTERM, old_term, NULL);
}

int sb_run_opts_add_set(struct sb_run_opts *o, const char *kv, struct sb_err *err)
{
	if (o->nsets >= SB_RUN_MAX_SETS)
		return sb_err_set(err, -E2BIG, "too many --set options (at most %d)", SB_RUN_MAX_SETS);
	o->sets[o->nsets++] = kv;
	return 0;
}

static const struct sb_layer *find_layer(const struct sb_stack *s, const char *name)
{
	for (unsigned i = 0; i < s->nlayers; i++)
		if (!strcmp(s->layers[i].ops->name, name))
			return &s->layers[i];
	return NULL;
}

/* faults.fail: the md layer's description after a suite (NULL if it fails). */
static struct json_object *md_state(const struct sb_stack *s)
{
	const struct sb_layer *md = find_layer(s, "md");
	struct json_object *o = json_object_new_object();
	struct sb_err e = { 0 };

	if (!md || md->ops->describe(md, o, &e) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Run every suite of the stack, bench.repeat times, into res. A suite that
 * fails is recorded in the results ("errors") and ends the benchmark of this
 * stack; the teardown still happens. With faults on a RAID stack, a verify
 * file is written first, (faults.fail) the member is failed from a timer
 * `after` into the benchmark, every suite records the md state after it,
 * and the verify file is read back at the end (sb_degrade_*). */
static int run_suites(struct sb_stack *s, const struct sb_stack_spec *spec, unsigned repeat,
		      struct json_object *res, struct sb_err *err)
{
	const struct sb_fault_fail_spec *ff = &spec->faults.fail;
	struct sb_degrade *deg = NULL;
	const char *devs[64];
	unsigned ndev, rep, i;
	int rc = 0, r;

	ndev = sb_stack_devices(s, devs, 64);
	if (spec->faults.enabled && spec->raid.enabled) {
		const struct sb_layer *md = find_layer(s, "md");

		if (!md || !md->ndev || !md->below || (ff->enabled && ff->member >= md->below->ndev))
			return sb_err_set(err, -EINVAL, "faults: the stack has no md array (or no member %u)", ff->member);
		deg = calloc(1, sizeof(*deg));
		if (!deg)
			return sb_err_set(err, -ENOMEM, "out of memory");
		/* 8 MiB (or bench.size, if smaller) of data that must survive */
		rc = sb_degrade_begin(deg, sb_stack_mountpoint(s), md->dev[0],
				      ff->enabled ? md->below->dev[ff->member] : NULL,
				      ff->member, ff->after_ns,
				      spec->bench.size && spec->bench.size < (8ULL << 20) ? spec->bench.size : 8ULL << 20,
				      err);
		if (rc < 0) {
			free(deg);
			return rc;
		}
	}
	for (rep = 1; rep <= repeat && !rc; rep++) {
		for (i = 0; i < spec->bench.nsuites; i++) {
			struct json_object *obj = NULL;

			if (run_stop) {
				rc = sb_err_set(err, -EINTR, "interrupted");
				break;
			}
			sb_info("%s: suite %s (repetition %u of %u) in %s", spec->name,
				spec->bench.suites[i], rep, repeat, sb_stack_mountpoint(s));
			rc = sb_suite_run(spec->bench.suites[i], &spec->bench, sb_stack_mountpoint(s),
					  devs, ndev, rep, &obj, err);
			if (rc < 0) {
				sb_err_prefix(err, "suite %s: ", spec->bench.suites[i]);
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
			if (run_stop) {
				rc = sb_err_set(err, -EINTR, "interrupted during suite %s",
						spec->bench.suites[i]);
				break;
			}
		}
	}
	if (deg) {
		struct sb_err verr = { 0 };

		r = sb_degrade_end(deg, res, &verr);
		if (r < 0 && !rc) {
			rc = r;
			*err = verr;
		} else if (r < 0) {
			sb_warn("%s", verr.msg);
		}
		free(deg);
	}
	return rc;
}

static void results_add_error(struct json_object *res, const char *msg)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(res, "errors", &arr)) {
		arr = json_object_new_array();
		json_object_object_add(res, "errors", arr);
	}
	json_object_array_add(arr, json_object_new_string(msg));
}

/* The results object for a stack: what was asked, as validated. */
static int results_begin(const struct sb_stack_spec *spec, struct json_object **res, struct sb_err *err)
{
	struct json_object *req = NULL;
	int rc;

	rc = sb_spec_to_json(spec, &req);
	if (rc < 0)
		return sb_err_set(err, rc, "cannot describe stack %s", spec->name);
	return sb_results_new(spec->name, req, res, err);
}

/* Read back what is built, then run the suites: the part build-and-test and
 * `bench STACK` share. */
static int measure(const struct sb_run_opts *o, struct sb_stack *s, struct json_object *res,
		   struct sb_err *err)
{
	const struct sb_stack_spec *spec = s->spec;
	unsigned repeat = o->repeat ? o->repeat : (spec->bench.repeat ? spec->bench.repeat : 1);
	struct json_object *built = NULL;
	int rc;

	rc = sb_stack_describe(s, &built, err);
	if (rc == 0)
		sb_results_set_built(res, built);
	if (rc == 0 && o->bench)
		rc = run_suites(s, spec, repeat, res, err);
	if (rc < 0)
		results_add_error(res, err->msg);
	return rc;
}

/* Finish and write the results file; on success hand it to *out. */
static void results_end(const struct sb_run_opts *o, const char *name, int rc,
			struct json_object **res, struct json_object **out, char **path_out,
			struct sb_err *err)
{
	struct sb_err werr = { 0 };
	char path[SB_PATH_MAX];

	sb_results_finish(*res);
	if (sb_results_write(*res, o->results_dir, path, sizeof(path), &werr) == 0) {
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

/* results "ciphers": the stack's dm-crypt cipher per sector size and the
 * export's SSH ciphers (0.25 s a figure, about 1 s each); a failure is a
 * warning, not the run's. The export rows take their SSH cipher ceiling
 * from here (export_rows.c). */
static void record_ciphers(const struct sb_stack_spec *spec, struct json_object *res)
{
	const struct sb_export_spec *e = sb_export_spec_of(spec);
	const char *ssh[8] = { 0 };
	struct sb_err err = { 0 };
	unsigned i, n = 0;

	if (e->enabled && (e->protocols & SB_EXPORT_SSHFS))
		for (i = 0; sb_export_ssh_ciphers[i] && n + 1 < 8; i++)
			if (e->sshfs.ciphers & (1u << i))
				ssh[n++] = sb_export_ssh_ciphers[i];
	if (!spec->luks.enabled && !n)
		return;
	if (spec->luks.enabled)
		sb_info("%s: measuring the cipher %s (%u-bit key) through the kernel crypto API", spec->name,
			spec->luks.cipher, spec->luks.key_size);
	if (n)
		sb_info("%s: measuring the export's SSH cipher%s (OpenSSL)", spec->name, n > 1 ? "s" : "");
	if (sb_ciphers_record(res, spec->luks.enabled ? spec->luks.cipher : NULL, spec->luks.key_size,
			      ssh, 0.25, &err) < 0)
		sb_warn("%s: ciphers: %s", spec->name, err.msg);
}

/* One stack, start to finish. On success out[0] holds its results and,
 * with export, out[1..] the client rows' (*nout in all, paths alike). */
static int run_one(const struct sb_run_opts *o, const struct sb_stack_spec *spec,
		   struct json_object *ceilings, struct json_object **out, char **path_out,
		   unsigned *nout, struct sb_err *err)
{
	struct json_object *remote[SB_EXPORT_MAX_TARGETS] = { 0 };
	unsigned nremote = 0, i;
	struct sb_stack *s;
	struct json_object *res = NULL;
	struct sb_err terr = { 0 };
	struct sb_per_layer pl = { 0 };
	struct sb_build_ctx bc = { 0 };
	char summary[512];
	int rc, trc;

	s = calloc(1, sizeof(*s));
	if (!s)
		return sb_err_set(err, -ENOMEM, "out of memory");
	rc = sb_stack_init(s, spec, err);
	if (rc < 0)
		goto out_free;
	bc.stop = &run_stop;
	if (o->destroy_data) {
		rc = sb_stack_set_destroy_data(&bc, o->destroy_data, err);
		if (rc < 0)
			goto out_free;
	}
	bc.wipe = o->wipe;
	sb_spec_summary(spec, summary, sizeof(summary));
	sb_info("%s: building %s", spec->name, summary);
	rc = results_begin(spec, &res, err);
	if (rc < 0)
		goto out_free;

	/* build -> measure -> build the next (bench.per_layer). Not with
	 * faults: raw figures of a flakey or delayed member say nothing, and
	 * the time they take moves the fault's cycle under the build. */
	if (o->bench && spec->bench.per_layer && !spec->faults.enabled) {
		sb_per_layer_begin(&pl, &run_stop);
		bc.after_layer = sb_per_layer_after;
		bc.after_ctx = &pl;
	}
	rc = sb_stack_build(s, &bc, err);
	if (rc < 0)
		goto out_free;   /* sb_stack_build already rolled back */
	if (pl.rows)
		sb_per_layer_end(&pl, spec, res);
	if (o->bench)   /* the ciphers' own speed (dm-crypt's while it holds the key) */
		record_ciphers(spec, res);
	rc = measure(o, s, res, err);
	sb_export_rows_mark_local(s, res);
	if (rc == 0 && o->bench && sb_export_spec_of(spec)->enabled)
		rc = sb_export_rows_run(s, o->repeat ? o->repeat : (spec->bench.repeat ? spec->bench.repeat : 1),
					res, remote, SB_EXPORT_MAX_TARGETS, &nremote, &run_stop, err);
	sb_ceiling_mark(res, ceilings);

	sb_info("%s: tearing down", spec->name);
	trc = sb_stack_teardown_state(&s->state, &terr);
	if (trc < 0) {
		results_add_error(res, terr.msg);
		if (rc == 0) {
			rc = trc;
			*err = terr;
		} else {
			sb_warn("%s", terr.msg);
		}
	}
	results_end(o, spec->name, rc, &res, out, path_out, err);
	*nout = rc == 0;
	for (i = 0; i < nremote; i++) {
		sb_ceiling_mark(remote[i], ceilings);
		results_end(o, sb_results_stack_name(remote[i]), rc, &remote[i],
			    rc == 0 ? &out[*nout] : NULL, rc == 0 ? &path_out[*nout] : NULL, err);
		*nout += rc == 0;
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

/* `bench STACK`: run the stack's suites on the stack `build` left up. */
int sb_run_bench_built(const struct sb_run_opts *o, const char *stack_name, struct sb_err *err)
{
	struct sb_spec_list list = { 0 };
	const struct sb_stack_spec *spec = NULL;
	struct json_object *res = NULL, *done = NULL;
	struct sigaction old_int, old_term;
	struct sb_stack *s = NULL;
	unsigned i;
	int rc;

	rc = sb_spec_load(o->files[0], o->sets, o->nsets, &list, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < list.n; i++)
		if (stack_name ? !strcmp(list.items[i].name, stack_name) : list.n == 1)
			spec = &list.items[i];
	if (!spec) {
		rc = sb_err_set(err, -EINVAL, "%s: %s; name one with --stack NAME", o->files[0],
				stack_name ? "no stack of that name" : "it expands to several stacks");
		goto out;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	rc = sb_stack_init(s, spec, err);
	if (rc == 0)
		rc = sb_stack_attach(s, err);
	if (rc < 0)
		goto out;
	rc = results_begin(spec, &res, err);
	if (rc < 0)
		goto out;
	signals_catch(&old_int, &old_term);
	rc = measure(o, s, res, err);
	signals_restore(&old_int, &old_term);
	results_end(o, spec->name, rc, &res, &done, NULL, err);
	if (done && o->table)
		rc = sb_table_render(&done, 1, o->table, stdout, err);
out:
	if (res)
		json_object_put(res);
	if (done)
		json_object_put(done);
	if (s)
		sb_stack_release(s);
	free(s);
	sb_spec_list_free(&list);
	return rc;
}

/* Before anything is built: what each stack will cost (time, disk), so a
 * user knows what the run takes before it takes it. Said once: the host
 * says it before booting the throwaway kernel, which then stays quiet
 * (SB_COST_SHOWN is passed in like every SB_* variable). */
static void announce_cost(const struct sb_run_opts *o, const struct sb_spec_list *lists)
{
	struct sb_cost c;
	double lo = 0, hi = 0;
	unsigned i, j, n = 0;
	char sum[512], a[32], b[32];

	if (!o->bench || getenv("SB_COST_SHOWN"))
		return;
	for (i = 0; i < o->nfiles; i++) {
		for (j = 0; j < lists[i].n; j++) {
			sb_cost_compute(&lists[i].items[j], o->repeat, &c);
			sb_cost_summary(&lists[i].items[j], &c, sum, sizeof(sum));
			sb_info("%s: expect %s (`stackbench plan` details it)", lists[i].items[j].name, sum);
			lo += c.min_s;
			hi += c.max_s;
			n++;
		}
	}
	if (n > 1) {
		sb_sizing_format_duration(lo, a, sizeof(a));
		sb_sizing_format_duration(hi, b, sizeof(b));
		sb_info("%u stacks: expect about %s to %s in all", n, a, b);
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
static int load_lists(const struct sb_run_opts *o, struct sb_spec_list *lists,
		      struct sb_kernel_needs *needs, bool *has_disks,
		      struct sb_sandbox_members *members, unsigned *total, struct sb_err *err)
{
	unsigned i, j;
	int rc;

	for (i = 0; i < o->nfiles; i++) {
		rc = sb_spec_load(o->files[i], o->sets, o->nsets, &lists[i], err);
		if (rc < 0)
			return rc;
		if (o->only_stack)
			only_keep(&lists[i], o->only_stack);
		for (j = 0; j < lists[i].n; j++) {
			const struct sb_stack_spec *sp = &lists[i].items[j];
			sb_stack_needs(sp, needs);
			*has_disks |= sp->devices.kind == SB_DEVICES_DISKS;
			members_need(members, sp);
		}
		*total += lists[i].n;
	}
	return 0;
}

/* Run every stack in turn until a signal stops the run; the first failure
 * is the run's error, the others are warned about. */
static int run_all(const struct sb_run_opts *o, struct sb_spec_list *lists, unsigned total,
		   struct json_object *ceilings, struct json_object **results, char **paths,
		   unsigned *nres, unsigned *nfail, struct sb_err *err)
{
	unsigned i, j, k = 0;
	int rc = 0;

	for (i = 0; i < o->nfiles; i++) {
		for (j = 0; j < lists[i].n; j++) {
			struct sb_err e1 = { 0 };
			unsigned got = 0;
			int r;

			k++;
			if (run_stop) {
				if (!rc)
					rc = sb_err_set(err, -EINTR, "interrupted before stack %s", lists[i].items[j].name);
				break;
			}
			sb_info("[%u/%u] %s", k, total, lists[i].items[j].name);
			sb_progress_context(SB_PROGRESS_RUN, "[stack %u of %u] %s", k, total,
					    lists[i].items[j].name);
			r = run_one(o, &lists[i].items[j], ceilings, &results[*nres], &paths[*nres], &got, &e1);
			sb_progress_done();
			sb_progress_context(SB_PROGRESS_RUN, NULL);
			if (r < 0) {
				(*nfail)++;
				sb_warn("%s: %s", lists[i].items[j].name, e1.msg);
				if (!rc) {
					rc = r;
					*err = e1;
				}
			} else {
				*nres += got;   /* the local row and one per export target */
			}
		}
	}
	return rc;
}

/* The comparison table, and the chart and HTML report if asked; a failure
 * here becomes the run's error only if nothing failed before (*rc == 0). */
static void render_results(const struct sb_run_opts *o, struct json_object **results, char **paths,
			   unsigned nres, int *rc, struct sb_err *err)
{
	struct sb_err terr = { 0 };
	int r = sb_table_render(results, nres, o->table, stdout, &terr);

	if (r == 0 && o->chart)
		r = sb_chart_write(results, nres, o->table, o->chart, &terr);
	if (r == 0 && o->report) {
		r = sb_html_write(results, (const char *const *)paths, nres, o->table, o->report, &terr);
		if (r == 0)
			sb_info("report written to %s", o->report);
	}
	if (r < 0 && !*rc) {
		*rc = r;
		*err = terr;
	}
}

int sb_run(const struct sb_run_opts *o, struct sb_err *err)
{
	struct sb_spec_list *lists;
	struct json_object **results = NULL;
	char **paths = NULL;
	bool has_disks = false, use_sandbox = false;
	struct sb_kernel_needs needs = { 0 };
	struct sb_sandbox_members members = { 0 };
	struct json_object *ceilings = NULL;
	struct sigaction old_int, old_term;
	unsigned i, total = 0, nres = 0, nfail = 0;
	int rc = 0, code;

	lists = calloc(o->nfiles, sizeof(*lists));
	if (!lists)
		return sb_err_set(err, -ENOMEM, "out of memory");
	rc = load_lists(o, lists, &needs, &has_disks, &members, &total, err);
	if (rc < 0)
		goto out;
	if (o->only_stack && !total) {
		rc = sb_err_set(err, -EINVAL, "--stack %s: no stack of that name in the files given",
				o->only_stack);
		goto out;
	}

	rc = sb_sandbox_decide(sb_globals.sandbox, sb_globals.in_sandbox, &needs, has_disks,
			       &use_sandbox, err);
	if (rc < 0)
		goto out;
	announce_cost(o, lists);
	if (use_sandbox) {
		rc = sb_sandbox_rerun(sb_globals.cmd_argc, sb_globals.cmd_argv, &members, &code, err);
		if (rc == 0)
			rc = code;  /* the exit code of the run inside, carried back */
		goto out;
	}

	/* each stack: its row, and one per client mount with export */
	results = calloc(total * (1 + SB_EXPORT_MAX_TARGETS), sizeof(*results));
	paths = calloc(total * (1 + SB_EXPORT_MAX_TARGETS), sizeof(*paths));
	if (!results || !paths) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	signals_catch(&old_int, &old_term);
	/* The machine's own ceiling per suite, for bound_by_machine marks. */
	if (o->bench && !run_stop) {
		struct sb_err cerr = { 0 };

		if (sb_ceiling_measure(lists, o->nfiles, &ceilings, &cerr) < 0)
			sb_warn("%s; figures are not checked against the machine's ceiling", cerr.msg);
	}
	rc = run_all(o, lists, total, ceilings, results, paths, &nres, &nfail, err);
	signals_restore(&old_int, &old_term);

	if (nres)
		render_results(o, results, paths, nres, &rc, err);
	if (nfail)
		sb_info("%u of %u stacks failed", nfail, total);
out:
	if (ceilings)
		json_object_put(ceilings);
	for (i = 0; results && i < nres; i++)
		json_object_put(results[i]);
	free(results);
	for (i = 0; paths && i < total * (1 + SB_EXPORT_MAX_TARGETS); i++)
		free(paths[i]);
	free(paths);
	for (i = 0; i < o->nfiles; i++)
		sb_spec_list_free(&lists[i]);
	free(lists);
	return rc;
}
