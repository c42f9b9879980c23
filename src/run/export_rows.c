#include "run/export_rows.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench/ciphers.h"
#include "bench/suite.h"
#include "export/export.h"
#include "report/results.h"
#include "run/run_int.h"
#include "util/log.h"
#include "util/json.h"

void sb_export_rows_mark_local(const struct sb_stack *s, struct json_object *local)
{
	const struct sb_layer *l = sb_export_layer(s);
	struct json_object *o;

	if (!l)
		return;
	o = json_object_new_object();
	json_object_object_add(o, "side", json_object_new_string("local"));
	json_object_object_add(o, "label", json_object_new_string("local"));
	json_object_object_add(o, "link", sb_export_link_json(l));
	json_object_object_add(local, "export", o);
}

/* A figure (MB/s) of the first suite named suite in res, or -1. */
static double figure(struct json_object *res, const char *suite, const char *name)
{
	size_t i, n = sb_results_nsuites(res);

	for (i = 0; i < n; i++) {
		struct json_object *su = sb_results_suite(res, i), *f;
		const char *sn = sb_results_suite_name(su);

		if (!sn || strcmp(sn, suite) || !(f = sb_json_get(sb_results_suite_figures(su), name)) || !sb_json_get(f, "value"))
			continue;
		return json_object_get_double(sb_json_get(f, "value"));
	}
	return -1;
}

/* The SSH cipher's ceiling on this machine, MB/s at 16 KiB blocks (SSH's
 * packets are up to 32 KiB): from the local row's "ciphers" (run.c records
 * the export's SSH ciphers there), else measured now (0.25 s); -1 when it
 * cannot be measured (then no cipher bound, and the note says so). */
static double ssh_cipher_mbs(struct json_object *local, const char *cipher)
{
	struct json_object *ssh = sb_json_get(sb_json_get(local, "ciphers"), "ssh");
	struct sb_err e = { 0 };
	double mbs = -1;
	size_t i, n = ssh ? json_object_array_length(ssh) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(ssh, i);
		const char *name = json_object_get_string(sb_json_get(c, "cipher"));

		if (name && !strcmp(name, cipher) && sb_json_get(sb_json_get(c, "blocks"), "16384"))
			return json_object_get_double(sb_json_get(sb_json_get(c, "blocks"), "16384"));
	}
	if (sb_ciphers_measure_ssh(cipher, 16384, 0.25, &mbs, NULL, 0, &e) < 0) {
		sb_warn("export: SSH cipher %s: %s", cipher, e.msg);
		return -1;
	}
	return mbs;
}

/* The first sequential figure pair a suite of the row has: dd's write/read
 * or quick's seq_write/seq_read. */
static void seq_pair(struct json_object *res, const char **suite, const char **w, const char **r)
{
	static const char *const pairs[][3] = { { "dd", "write", "read" }, { "quick", "seq_write", "seq_read" } };
	unsigned i;

	for (i = 0; i < 2; i++)
		if (figure(res, pairs[i][0], pairs[i][1]) >= 0) {
			*suite = pairs[i][0];
			*w = pairs[i][1];
			*r = pairs[i][2];
			return;
		}
	*suite = NULL;
}

static struct json_object *figs(double w, double r)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "seq_write_mbs", w < 0 ? NULL : json_object_new_double(floor(w * 10 + .5) / 10));
	json_object_object_add(o, "seq_read_mbs", r < 0 ? NULL : json_object_new_double(floor(r * 10 + .5) / 10));
	json_object_object_add(o, "randread_4k_iops", NULL);
	return o;
}

/* min(link, local, cipher) for one direction, and what bounds it. */
static double bound(double link, double local, double cipher, const char **why)
{
	double e = link;

	*why = "the link (iperf3)";
	if (local >= 0 && (e < 0 || local < e)) {
		e = local;
		*why = "the local filesystem (the same suite on the server, measured just before or after)";
	}
	if (cipher >= 0 && (e < 0 || cipher < e)) {
		e = cipher;
		*why = "the SSH cipher";
	}
	return e;
}

/* The per-layer row "export" of a client row: measured vs expected; ow
 * and orr are the local figures measured next to it (local_bound). */
static void expected_row(struct json_object *remote, struct json_object *local, double ow, double orr,
			 const char *label, const char *cipher, const struct json_object *link)
{
	struct json_object *m = sb_json_get((struct json_object *)link, "measured"), *row, *rows;
	double lw = json_object_get_double(sb_json_get(m, "to_server_bps")) / 8e6;
	double lr = json_object_get_double(sb_json_get(m, "to_client_bps")) / 8e6;
	double c = cipher[0] ? ssh_cipher_mbs(local, cipher) : -1, w, r, ew, er;
	const char *suite, *fw, *fr, *ww, *wr;
	char line[512];

	seq_pair(remote, &suite, &fw, &fr);
	if (!suite)
		return;
	w = figure(remote, suite, fw);
	r = figure(remote, suite, fr);
	ew = bound(lw > 0 ? lw : -1, ow, c, &ww);
	er = bound(lr > 0 ? lr : -1, orr, c, &wr);
	row = json_object_new_object();
	json_object_object_add(row, "order", json_object_new_int(99));
	json_object_object_add(row, "layer", json_object_new_string("export"));
	json_object_object_add(row, "device", json_object_new_string(label));
	json_object_object_add(row, "suite", json_object_new_string(suite));
	json_object_object_add(row, "figures", figs(w, r));
	json_object_object_add(row, "expected", figs(ew, er));
	json_object_object_add(row, "pct_of_below", figs(ow > 0 && w >= 0 ? 100 * w / ow : -1,
							 orr > 0 && r >= 0 ? 100 * r / orr : -1));
	if (c >= 0)
		json_object_object_add(row, "ssh_cipher_mbs", json_object_new_double(c));
	snprintf(line, sizeof(line), "export %s: write %.0f of %.0f MB/s expected (bound: %s), "
		 "read %.0f of %.0f MB/s expected (bound: %s)%s", label, w, ew, ww, r, er, wr,
		 cipher[0] && c < 0 ? "; the SSH cipher's speed was not measured" : "");
	json_object_object_add(row, "limit", json_object_new_string(line));
	rows = json_object_new_array();
	json_object_array_add(rows, row);
	json_object_object_add(remote, "per_layer", rows);
}

/* The row's results object: the local one's stack, as asked and built. */
static int remote_begin(struct json_object *local, const struct sb_export_target *t,
			const struct sb_layer *l, struct json_object **out, struct sb_err *err)
{
	struct json_object *stack = sb_json_get(local, "stack"), *req = NULL, *built = NULL, *o;
	char name[SB_NAME_MAX + 64];
	int rc;

	snprintf(name, sizeof(name), "%s.%s", json_object_get_string(sb_json_get(stack, "name")), t->name);
	if (json_object_deep_copy(sb_json_get(stack, "requested"), &req, NULL) ||
	    json_object_deep_copy(sb_json_get(stack, "built"), &built, NULL))
		return sb_err_set(err, -ENOMEM, "out of memory");
	rc = sb_results_new(name, req, out, err);
	if (rc < 0) {
		json_object_put(built);
		return rc;
	}
	sb_results_set_built(*out, built);
	o = json_object_new_object();
	json_object_object_add(o, "side", json_object_new_string("client"));
	json_object_object_add(o, "protocol", json_object_new_string(t->proto));
	json_object_object_add(o, "label", json_object_new_string(t->label));
	json_object_object_add(o, "options", json_object_new_string(t->options));
	json_object_object_add(o, "cipher", t->cipher[0] ? json_object_new_string(t->cipher) : NULL);
	json_object_object_add(o, "mountpoint", json_object_new_string(t->mountpoint));
	json_object_object_add(o, "link", sb_export_link_json(l));
	json_object_object_add(*out, "export", o);
	return 0;
}

static void now_in(struct json_object *o, const char *key)
{
	char buf[32];

	sb_results_iso_time(time(NULL), buf, sizeof(buf));
	json_object_object_add(o, key, json_object_new_string(buf));
}

/* The stack's suites, repeat times, in dir (where: the log's words), into
 * the "suites" array of res. The server's devices (dm-crypt, md, members)
 * are watched on both sides: a client row's disk_util shows what reached
 * the stack while its job ran, as the local row's does. */
static int suites_on(struct sb_stack *s, const char *dir, const char *where, unsigned repeat,
		     struct json_object *res, volatile sig_atomic_t *stop, struct sb_err *err)
{
	const struct sb_bench_spec *b = &s->spec->bench;
	const char *devs[64];
	unsigned ndev = sb_stack_devices(s, devs, 64), rep, i;
	int rc;

	for (rep = 1; rep <= repeat; rep++) {
		for (i = 0; i < b->nsuites; i++) {
			struct json_object *obj = NULL;

			if (*stop)
				return sb_err_set(err, -EINTR, "interrupted");
			sb_info("%s: suite %s (repetition %u of %u) %s, in %s", s->spec->name,
				b->suites[i], rep, repeat, where, dir);
			rc = sb_suite_run(b->suites[i], b, dir, devs, ndev, rep, &obj, err);
			if (rc < 0) {
				sb_err_prefix(err, "%s: suite %s: ", where, b->suites[i]);
				return rc;
			}
			sb_results_add_suite(res, obj);
		}
	}
	return 0;
}

/* One side of a client row's local bound: the sequential pair of a local
 * measurement (the local row, or a "local again" entry). */
static struct json_object *bound_side(struct json_object *m, const char *what, const char *when_key,
				      const char *suite, const char *fw, const char *fr, double *w, double *r)
{
	struct json_object *o = json_object_new_object(), *t = sb_json_get(m, when_key);

	*w = figure(m, suite, fw);
	*r = figure(m, suite, fr);
	json_object_object_add(o, "measured", json_object_new_string(what));
	if (t)
		json_object_object_add(o, when_key, json_object_get(t));
	json_object_object_add(o, "write_mbs", *w < 0 ? NULL : json_object_new_double(*w));
	json_object_object_add(o, "read_mbs", *r < 0 ? NULL : json_object_new_double(*r));
	return o;
}

/* export.local_bound of client row res: the local figures measured right
 * before (prev: the local row or the last "local again") and right after
 * it (next), and the larger of each pair - what the stack itself gave in
 * the same minutes, which a client figure cannot honestly exceed. */
static void local_bound(struct json_object *res, struct json_object *prev, const char *prev_what,
			struct json_object *next, const char *next_what, double *ow, double *orr)
{
	struct json_object *o = json_object_new_object();
	const char *suite, *fw, *fr;
	double w1, r1, w2, r2;

	*ow = *orr = -1;
	seq_pair(res, &suite, &fw, &fr);
	if (!suite) {
		json_object_put(o);
		return;
	}
	json_object_object_add(o, "suite", json_object_new_string(suite));
	json_object_object_add(o, "before", bound_side(prev, prev_what, "ended", suite, fw, fr, &w1, &r1));
	json_object_object_add(o, "after", bound_side(next, next_what, "started", suite, fw, fr, &w2, &r2));
	*ow = w1 > w2 ? w1 : w2;
	*orr = r1 > r2 ? r1 : r2;
	json_object_object_add(o, "write_mbs", *ow < 0 ? NULL : json_object_new_double(*ow));
	json_object_object_add(o, "read_mbs", *orr < 0 ? NULL : json_object_new_double(*orr));
	json_object_object_add(sb_json_get(res, "export"), "local_bound", o);
}

/* The local suites again, after the client row named after: appended to
 * the local row's export.local_again, with when it ran. */
static int local_again(struct sb_stack *s, unsigned repeat, struct json_object *local, const char *after,
		       struct json_object **entry, volatile sig_atomic_t *stop, struct sb_err *err)
{
	struct json_object *ex = sb_json_get(local, "export"), *arr = sb_json_get(ex, "local_again"), *o;
	int rc;

	if (!arr) {
		arr = json_object_new_array();
		json_object_object_add(ex, "local_again", arr);
	}
	o = json_object_new_object();
	json_object_object_add(o, "after", json_object_new_string(after));
	now_in(o, "started");
	json_object_object_add(o, "suites", json_object_new_array());
	json_object_array_add(arr, o);
	rc = suites_on(s, sb_stack_mountpoint(s), "on the server again (local)", repeat, o, stop, err);
	now_in(o, "ended");
	*entry = o;
	return rc;
}

/* The order is local, client 1, local, client 2, ..., local: every client
 * row is measured between two local measurements of the same minutes (on a
 * loaded machine the stack's own speed moves by 2x from one minute to the
 * next, so a local row measured once, minutes earlier, is no bound). */
int sb_export_rows_run(struct sb_stack *s, unsigned repeat, struct json_object *local,
		       struct json_object **out, unsigned max, unsigned *nout,
		       volatile sig_atomic_t *stop, struct sb_err *err)
{
	const struct sb_layer *l = sb_export_layer(s);
	const struct sb_export_target *t;
	struct json_object *prev = local, *next = NULL;
	unsigned n = sb_export_targets(l, &t), i;
	char prev_what[96] = "the local row", next_what[96], where[96];
	double ow, orr;
	int rc = 0;

	*nout = 0;
	now_in(sb_json_get(local, "export"), "ended");
	for (i = 0; i < n && i < max && !rc; i++) {
		struct json_object *res = NULL, *ex;

		rc = remote_begin(local, &t[i], l, &res, err);
		if (rc < 0)
			break;
		out[(*nout)++] = res;
		ex = sb_json_get(res, "export");
		snprintf(where, sizeof(where), "on the client, %s", t[i].label);
		now_in(ex, "started");
		rc = suites_on(s, t[i].mountpoint, where, repeat, res, stop, err);
		now_in(ex, "ended");
		if (rc == 0)
			rc = local_again(s, repeat, local, t[i].name, &next, stop, err);
		if (rc < 0) {
			sb_run_results_add_error(res, err->msg);
			break;
		}
		snprintf(next_what, sizeof(next_what), "local again after %s", t[i].name);
		local_bound(res, prev, prev_what, next, next_what, &ow, &orr);
		expected_row(res, local, ow, orr, t[i].label, t[i].cipher, sb_json_get(ex, "link"));
		prev = next;
		snprintf(prev_what, sizeof(prev_what), "%s", next_what);
	}
	return rc;
}
