#include "cmd/export_rows.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/ciphers.h"
#include "bench/suite.h"
#include "export/export.h"
#include "report/results.h"
#include "util/log.h"

static void add_error(struct json_object *res, const char *msg)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(res, "errors", &arr)) {
		arr = json_object_new_array();
		json_object_object_add(res, "errors", arr);
	}
	json_object_array_add(arr, json_object_new_string(msg));
}

static const struct sb_layer *export_layer(const struct sb_stack *s)
{
	for (unsigned i = 0; i < s->nlayers; i++)
		if (!strcmp(s->layers[i].ops->name, "export"))
			return &s->layers[i];
	return NULL;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

void sb_export_rows_mark_local(const struct sb_stack *s, struct json_object *local)
{
	const struct sb_layer *l = export_layer(s);
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
	struct json_object *suites = get(res, "suites");
	size_t i, n = suites ? json_object_array_length(suites) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *su = json_object_array_get_idx(suites, i), *f;
		const char *sn = json_object_get_string(get(su, "suite"));

		if (!sn || strcmp(sn, suite) || !(f = get(get(su, "figures"), name)) || !get(f, "value"))
			continue;
		return json_object_get_double(get(f, "value"));
	}
	return -1;
}

/* The SSH cipher's ceiling on this machine, MB/s at 16 KiB blocks (SSH's
 * packets are up to 32 KiB): from the local row's "ciphers" (run.c records
 * the export's SSH ciphers there), else measured now (0.25 s); -1 when it
 * cannot be measured (then no cipher bound, and the note says so). */
static double ssh_cipher_mbs(struct json_object *local, const char *cipher)
{
	struct json_object *ssh = get(get(local, "ciphers"), "ssh");
	struct sb_err e = { 0 };
	double mbs = -1;
	size_t i, n = ssh ? json_object_array_length(ssh) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(ssh, i);
		const char *name = json_object_get_string(get(c, "cipher"));

		if (name && !strcmp(name, cipher) && get(get(c, "blocks"), "16384"))
			return json_object_get_double(get(get(c, "blocks"), "16384"));
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
		*why = "the local filesystem (the same suite on the server)";
	}
	if (cipher >= 0 && (e < 0 || cipher < e)) {
		e = cipher;
		*why = "the SSH cipher";
	}
	return e;
}

/* The per-layer row "export" of a client row: measured vs expected. */
static void expected_row(struct json_object *remote, struct json_object *local, const char *label,
			 const char *cipher, const struct json_object *link)
{
	struct json_object *m = get((struct json_object *)link, "measured"), *row, *rows;
	double lw = json_object_get_double(get(m, "to_server_bps")) / 8e6;
	double lr = json_object_get_double(get(m, "to_client_bps")) / 8e6;
	double c = cipher[0] ? ssh_cipher_mbs(local, cipher) : -1, w, r, ew, er, ow, orr;
	const char *suite, *fw, *fr, *ww, *wr;
	char line[512];

	seq_pair(remote, &suite, &fw, &fr);
	if (!suite)
		return;
	w = figure(remote, suite, fw);
	r = figure(remote, suite, fr);
	ow = figure(local, suite, fw);
	orr = figure(local, suite, fr);
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
	struct json_object *stack = get(local, "stack"), *req = NULL, *built = NULL, *o;
	char name[SB_NAME_MAX + 64];
	int rc;

	snprintf(name, sizeof(name), "%s.%s", json_object_get_string(get(stack, "name")), t->name);
	if (json_object_deep_copy(get(stack, "requested"), &req, NULL) ||
	    json_object_deep_copy(get(stack, "built"), &built, NULL))
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

static int suites_on(struct sb_stack *s, const struct sb_export_target *t, unsigned repeat,
		     struct json_object *res, volatile sig_atomic_t *stop, struct sb_err *err)
{
	const struct sb_bench_spec *b = &s->spec->bench;
	unsigned rep, i;
	int rc;

	for (rep = 1; rep <= repeat; rep++) {
		for (i = 0; i < b->nsuites; i++) {
			struct json_object *obj = NULL;

			if (*stop)
				return sb_err_set(err, -EINTR, "interrupted");
			sb_info("%s: suite %s (repetition %u of %u) on the client, %s, in %s", s->spec->name,
				b->suites[i], rep, repeat, t->label, t->mountpoint);
			rc = sb_suite_run(b->suites[i], b, t->mountpoint, NULL, 0, rep, &obj, err);
			if (rc < 0) {
				sb_err_prefix(err, "%s: suite %s: ", t->label, b->suites[i]);
				return rc;
			}
			sb_results_add_suite(res, obj);
		}
	}
	return 0;
}

int sb_export_rows_run(struct sb_stack *s, unsigned repeat, struct json_object *local,
		       struct json_object **out, unsigned max, unsigned *nout,
		       volatile sig_atomic_t *stop, struct sb_err *err)
{
	const struct sb_layer *l = export_layer(s);
	const struct sb_export_target *t;
	unsigned n = sb_export_targets(l, &t), i;
	int rc = 0;

	*nout = 0;
	for (i = 0; i < n && i < max && !rc; i++) {
		struct json_object *res = NULL, *link;

		rc = remote_begin(local, &t[i], l, &res, err);
		if (rc < 0)
			break;
		out[(*nout)++] = res;
		rc = suites_on(s, &t[i], repeat, res, stop, err);
		link = get(get(res, "export"), "link");
		if (rc == 0)
			expected_row(res, local, t[i].label, t[i].cipher, link);
		else
			add_error(res, err->msg);
	}
	return rc;
}
