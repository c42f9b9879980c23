/* The report's section per stack: the stack as asked (stack.requested) and
 * as read back (stack.built) side by side, layer by layer, with what
 * differs called out; the host (and the outer host of a sandboxed run);
 * the notes and caveats; the command line that reproduces it; then each
 * results file's device statistics and per-layer view (html_dev.c). */
#include "report/html_int.h"
#include "report/results.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define G sb_json_get
#define S sb_json_str

/* 671088640 -> "640MiB"; sizes that are not whole units stay in bytes. */
static void iec(double v, char *buf, size_t len)
{
	static const char *const u[] = { "TiB", "GiB", "MiB", "KiB" };
	double f = 1099511627776.0;

	for (int i = 0; i < 4; i++, f /= 1024)
		if (v >= f && fmod(v, f) == 0) {
			snprintf(buf, len, "%.0f%s", v / f, u[i]);
			return;
		}
	snprintf(buf, len, "%.0f", v);
}

static int sizeish(const char *key)
{
	size_t l = strlen(key);

	return (l >= 4 && !strcmp(key + l - 4, "size")) || (l >= 5 && !strcmp(key + l - 5, "bytes")) ||
	       !strcmp(key, "ram_bytes") ||
	       !strcmp(key, "memory") || !strcmp(key, "chunk");
}

/* 25276510208 -> "23.5 GiB" */
static void human(double v, char *buf, size_t len)
{
	static const char *const u[] = { "KiB", "MiB", "GiB", "TiB" };
	int i = -1;

	while (v >= 1024 && i < 3) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f %s", v, i < 0 ? "B" : u[i]);
}

static void scalar(FILE *out, const char *key, struct json_object *v)
{
	char buf[64];

	if (!v) {
		fputs("null", out);
		return;
	}
	if (json_object_is_type(v, json_type_string)) {
		sb_html_esc(out, *json_object_get_string(v) ? json_object_get_string(v) : "\"\"");
		return;
	}
	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			fputs(i ? ", " : "", out);
			scalar(out, key, json_object_array_get_idx(v, i));
		}
		if (!json_object_array_length(v))
			fputs("none", out);
		return;
	}
	sb_html_esc(out, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	if (json_object_is_type(v, json_type_int) && sizeish(key) && json_object_get_int64(v) >= 1024) {
		iec((double)json_object_get_int64(v), buf, sizeof(buf));
		if (strspn(buf, "0123456789") == strlen(buf) || strtod(buf, NULL) >= 10000)
			human((double)json_object_get_int64(v), buf, sizeof(buf));
		fprintf(out, " (%s)", buf);
	}
}

/* Every key of o as "key value" items; nested objects as "a.b", arrays of
 * objects as "key[i].x". skip names keys not to repeat. */
static void kv(FILE *out, struct json_object *o, const char *prefix, const char *skip, int *first)
{
	char name[256];

	json_object_object_foreach(o, k, v) {
		if (!*prefix && skip && strstr(skip, k) && strstr(skip, k)[strlen(k)] == ' ')
			continue;
		snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "." : "", k);
		if (v && json_object_is_type(v, json_type_object)) {
			kv(out, v, name, NULL, first);
			continue;
		}
		if (v && json_object_is_type(v, json_type_array) && json_object_array_length(v) &&
		    json_object_is_type(json_object_array_get_idx(v, 0), json_type_object)) {
			for (size_t i = 0; i < json_object_array_length(v); i++) {
				char sub[280];

				snprintf(sub, sizeof(sub), "%s[%zu]", name, i);
				kv(out, json_object_array_get_idx(v, i), sub, NULL, first);
			}
			continue;
		}
		fputs(*first ? "" : "; ", out);
		*first = 0;
		fputs("<code>", out);
		sb_html_esc(out, name);
		fputs("</code>&nbsp;", out);
		scalar(out, k, v);
	}
}

static void kv_cell(FILE *out, struct json_object *o, const char *skip)
{
	int first = 1;

	fputs("<td class=\"kv\">", out);
	if (o && json_object_is_type(o, json_type_object))
		kv(out, o, "", skip, &first);
	if (first)
		fputs("-", out);
	fputs("</td>", out);
}

static void facts(FILE *out, struct json_object *res)
{
	struct json_object *req = sb_results_requested(res), *built = sb_results_built(res);
	char shown[256] = " name description source ";

	fputs("<table class=\"facts\"><caption>The stack as asked (<code>stack.requested</code>) and as "
	      "read back from the system (<code>stack.built</code>), bottom up</caption>\n<thead><tr>"
	      "<th scope=\"col\">layer</th><th scope=\"col\">as asked</th><th scope=\"col\">as read back</th>"
	      "</tr></thead><tbody>\n", out);
	for (size_t i = 0; built && i < json_object_array_length(built); i++) {
		struct json_object *l = json_object_array_get_idx(built, i);
		/* the section its layer names (sb_layer_label_built) */
		const char *name = S(l, "layer", "?"), *sec = S(l, "spec_section", NULL);

		fputs("<tr><th scope=\"row\">", out);
		sb_html_esc(out, name);
		fputs("</th>", out);
		if (sec && !strstr(shown, sec)) {
			kv_cell(out, G(req, sec), NULL);
			snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), "%s ", sec);
		} else {
			fputs(sec ? "<td class=\"kv\">(above)</td>" : "<td class=\"kv\">(see fs)</td>", out);
		}
		kv_cell(out, l, " layer table_label table_label_if_differs spec_section ");
		fputs("</tr>\n", out);
	}
	/* sections asked for that no built layer stands for (bench, ...) */
	json_object_object_foreach(req, k, v) {
		struct json_object *en = G(v, "enabled");
		char key[80];

		snprintf(key, sizeof(key), " %s ", k);
		if (strstr(shown, key) || !v || !json_object_is_type(v, json_type_object) ||
		    (en && !json_object_get_boolean(en)))
			continue;
		fputs("<tr><th scope=\"row\">", out);
		sb_html_esc(out, k);
		fputs("</th>", out);
		kv_cell(out, v, NULL);
		fputs("<td class=\"kv\">-</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

/* ---- asked vs read back: the keys where a difference changes a figure ---- */

static void differs(FILE *out, const char *what, const char *asked, const char *got, int *n)
{
	if (!strcasecmp(asked, got))
		return;
	fputs("<li class=\"mismatch\"><strong>asked \xe2\x89\xa0 read back:</strong> ", out);
	sb_html_escf(out, "%s asked %s, read back %s", what, asked, got);
	fputs("</li>\n", out);
	(*n)++;
}

struct differs_ctx {
	FILE *out;
	int *n;
};

static void differs_cb(void *ctx, const char *what, const char *asked, const char *got)
{
	struct differs_ctx *c = ctx;

	differs(c->out, what, asked, got, c->n);
}

/* Each built layer's own checks (layer_report.h), in registry order:
 * its pairs of keys, then its callback. */
static void mismatches(FILE *out, struct json_object *res, int *n)
{
	struct json_object *req = sb_results_requested(res);
	struct differs_ctx ctx = { out, n };
	struct sb_report_layer l;

	for (unsigned i = 0; sb_report_layer_at(i, &l); i++) {
		struct json_object *built = l.r ? sb_results_built_layer(res, l.name) : NULL;
		struct json_object *asked = l.section ? G(req, l.section) : NULL;

		if (!built)
			continue;
		for (const struct sb_layer_check *c = l.r->checks; c && c->asked; c++) {
			struct json_object *x = G(asked, c->asked), *y = G(built, c->got);

			if (x && y)
				differs(out, c->what, json_object_get_string(x), json_object_get_string(y), n);
		}
		if (l.r->check)
			l.r->check(asked, built, differs_cb, &ctx);
	}
}

/* ---- host ---- */

static void host_cell(FILE *out, const char *k, struct json_object *h)
{
	fputs("<td>", out);
	if (G(h, k))
		scalar(out, k, G(h, k));
	else
		fputs("-", out);
	fputs("</td>", out);
}

static void host_row(FILE *out, const char *k, struct json_object *a, struct json_object *b, int two)
{
	fputs("<tr><th scope=\"row\">", out);
	sb_html_esc(out, k);
	fputs("</th>", out);
	host_cell(out, k, a);
	if (two)
		host_cell(out, k, b);
	fputs("</tr>\n", out);
}

static void host(FILE *out, struct json_object *res)
{
	struct json_object *h = sb_results_host(res), *outer = sb_results_host_outer(res);
	int two = outer != NULL;

	fputs("<table class=\"host\"><caption>Where it was measured (<code>host</code>", out);
	fputs(two ? ", and <code>host.outer</code>: the machine the throwaway kernel ran on" : "", out);
	fputs(")</caption>\n<thead><tr><th scope=\"col\">key</th><th scope=\"col\">", out);
	fputs(two ? "measured in (sandbox)" : "measured on", out);
	fputs("</th>", out);
	if (two)
		fputs("<th scope=\"col\">outer host</th>", out);
	fputs("</tr></thead><tbody>\n", out);
	json_object_object_foreach(h, k, v) {
		if (!strcmp(k, "outer") || (v && (json_object_is_type(v, json_type_object) ||
						  json_object_is_type(v, json_type_array))))
			continue;
		host_row(out, k, h, outer, two);
	}
	if (two) {
		json_object_object_foreach(outer, k2, v2) {
			(void)v2;
			if (!G(h, k2) && !(v2 && json_object_is_type(v2, json_type_object)))
				host_row(out, k2, h, outer, two);
		}
	}
	fputs("</tbody></table>\n", out);
}

/* ---- notes and caveats ---- */

static void note_list(FILE *out, struct json_object *arr, const char *what, int *n)
{
	for (size_t i = 0; arr && json_object_is_type(arr, json_type_array) &&
			   i < json_object_array_length(arr); i++) {
		fputs("<li>", out);
		if (what) {
			sb_html_esc(out, what);
			fputs(": ", out);
		}
		sb_html_esc(out, json_object_get_string(json_object_array_get_idx(arr, i)));
		fputs("</li>\n", out);
		(*n)++;
	}
}

/* Suite notes once each (repetitions repeat them), errors, bound figures. */
static void notes(const struct sb_html *h, struct json_object *const *files, unsigned nf)
{
	FILE *out = h->out;
	int n = 0;

	fputs("<h4>Notes and caveats</h4>\n<ul class=\"notes\">\n", out);
	for (unsigned f = 0; f < nf; f++) {
		struct json_object *su;
		char seen[4096] = "";

		if (sb_results_sandboxed(files[f]) && f == 0) {
			fputs("<li>measured inside the throwaway user-mode-linux kernel: every system call is a "
			      "host context switch; compare only with stacks measured the same way</li>\n", out);
			n++;
		}
		note_list(out, sb_results_notes(files[f]), NULL, &n);
		note_list(out, G(files[f], "errors"), "error", &n);
		for (size_t s = 0; (su = sb_results_suite(files[f], s)); s++) {
			struct json_object *nt = sb_results_suite_notes(su);

			for (size_t i = 0; nt && i < json_object_array_length(nt); i++) {
				const char *txt = json_object_get_string(json_object_array_get_idx(nt, i));

				if (strstr(seen, txt))
					continue;
				if (strlen(seen) + strlen(txt) + 2 < sizeof(seen))
					snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s\n", txt);
				fputs("<li>", out);
				sb_html_esc(out, S(su, "suite", "?"));
				fputs(": ", out);
				sb_html_esc(out, txt);
				fputs("</li>\n", out);
				n++;
			}
			if (!sb_results_suite_figures(su))
				continue;
			json_object_object_foreach(sb_results_suite_figures(su), fig, v) {
				if (!json_object_get_boolean(G(v, "bound_by_machine")))
					continue;
				fputs("<li>", out);
				sb_html_escf(out, "%s.%s (repetition %s): bound by the machine, not the stack",
					     S(su, "suite", "?"), fig, json_object_get_string(G(su, "repetition")));
				fputs("</li>\n", out);
				n++;
			}
		}
		mismatches(out, files[f], &n);
	}
	if (!n)
		fputs("<li>none recorded</li>\n", out);
	fputs("</ul>\n", out);
}

/* ---- the command line ---- */

static int max_repetition(struct json_object *res)
{
	double rep;
	int m = 1;

	for (size_t s = 0; s < sb_results_nsuites(res); s++)
		if (sb_json_num(sb_results_suite(res, s), "repetition", &rep) && rep > m)
			m = (int)rep;
	return m;
}

static void set_opt(FILE *out, struct json_object *sec, const char *key, const char *name, int size)
{
	struct json_object *v = G(sec, key);
	char buf[64];

	if (!v)
		return;
	if (size && json_object_is_type(v, json_type_int)) {
		iec((double)json_object_get_int64(v), buf, sizeof(buf));
		sb_html_escf(out, " --set %s=%s", name, buf);
	} else if (json_object_is_type(v, json_type_array)) {
		fprintf(out, " --set '%s=[", name);
		for (size_t i = 0; i < json_object_array_length(v); i++)
			sb_html_escf(out, "%s%s", i ? "," : "", json_object_get_string(json_object_array_get_idx(v, i)));
		fputs("]'", out);
	} else {
		sb_html_escf(out, " --set %s=%s", name, json_object_get_string(v));
	}
}

/* The keys each layer names to rebuild its stack at the same size
 * (layer_report.h .rerun: "loop.size" of its section "devices"). */
static void rerun(FILE *out, struct json_object *req)
{
	const struct sb_layer_rerun *k;
	struct sb_report_layer l;
	char name[160], part[80];

	for (unsigned i = 0; sb_report_layer_at(i, &l); i++)
		for (k = l.r && l.section ? l.r->rerun : NULL; k && k->key; k++) {
			struct json_object *sec = G(req, l.section);
			const char *p = k->key, *dot;

			for (; sec && (dot = strchr(p, '.')); p = dot + 1) {
				snprintf(part, sizeof(part), "%.*s", (int)(dot - p), p);
				sec = G(sec, part);
			}
			snprintf(name, sizeof(name), "%s.%s", l.section, k->key);
			set_opt(out, sec, p, name, k->size);
		}
}

static void command(FILE *out, struct json_object *res, unsigned nfiles)
{
	struct json_object *st = G(res, "stack"), *req = sb_results_requested(res), *cl = G(res, "command_line");
	int reps = max_repetition(res);

	fputs("<h4>Reproduce</h4>\n", out);
	if (cl && json_object_is_type(cl, json_type_string)) {
		fputs("<pre><code>", out);
		sb_html_esc(out, json_object_get_string(cl));
		fputs("</code></pre>\n<p class=\"fn\">As recorded in the results file "
		      "(<code>command_line</code>).</p>\n", out);
		return;
	}
	fputs("<pre><code>stackbench ", out);
	if (sb_results_sandboxed(res))
		fputs("--sandbox ", out);
	fputs("build-and-test ", out);
	sb_html_esc(out, S(st, "source", S(req, "source", "STACK.yml")));
	rerun(out, req);
	set_opt(out, G(req, "bench"), "size", "bench.size", 1);
	set_opt(out, G(req, "bench"), "suites", "bench.suites", 0);
	if (G(G(req, "bench"), "runtime") && json_object_get_int64(G(G(req, "bench"), "runtime")) > 0)
		fprintf(out, " --set bench.runtime=%gs", json_object_get_int64(G(G(req, "bench"), "runtime")) / 1e9);
	if (reps > 1 || nfiles > 1)
		fprintf(out, " --repeat %d", reps > 1 ? reps : (int)nfiles);
	fputs("</code></pre>\n<p class=\"fn\">Rebuilt from the results file: the stack file named in "
	      "<code>stack.source</code> with the sizes and suites of <code>stack.requested</code> "
	      "(the file may have changed since; <code>stack.requested</code> above is what ran).</p>\n", out);
}

/* ---- the section ---- */

/* The machine beside the figures (the results' "environment"): one table
 * row per part, its keys flattened as the stack's. */
static void environment(FILE *out, struct json_object *res)
{
	struct json_object *env = G(res, "environment");

	if (!env || !json_object_is_type(env, json_type_object))
		return;
	fputs("<details><summary>Environment (members' queues and SMART, dm tables, md tunables, "
	      "LUKS header)</summary>\n<table class=\"facts\"><caption>The machine beside the figures "
	      "(<code>environment</code>): what the kernel reported once the stack was built</caption>\n", out);
	json_object_object_foreach(env, k, v) {
		struct json_object *wrap = json_object_new_object();

		json_object_object_add(wrap, k, json_object_get(v));
		fputs("<tr><th scope=\"row\">", out);
		sb_html_esc(out, k);
		fputs("</th>", out);
		kv_cell(out, wrap, NULL);
		fputs("</tr>\n", out);
		json_object_put(wrap);
	}
	fputs("</table></details>\n", out);
}

static void stack_section(const struct sb_html *h, unsigned row)
{
	struct json_object *first = h->t->row_first[row], **files;
	const char *desc = S(sb_results_requested(first), "description", S(G(first, "stack"), "description", NULL));
	FILE *out = h->out;
	unsigned nf = 0;
	char id[160], name[512];

	files = calloc(h->n, sizeof(*files));
	if (!files)
		return;
	for (unsigned i = 0; i < h->n; i++)
		if (sb_html_in_row(h, row, h->res[i]))
			files[nf++] = h->res[i];
	sb_html_stack_id(h, row, id, sizeof(id));
	fprintf(out, "<section class=\"stack\" id=\"%s\">\n<h3>", id);
	sb_html_swatch(out, row);
	fputc(' ', out);
	sb_html_esc(out, sb_html_row_name(h, row, name, sizeof(name)));
	fputs("</h3>\n", out);
	if (desc) {
		fputs("<p>", out);
		sb_html_esc(out, desc);
		fputs("</p>\n", out);
	}
	fprintf(out, "<p>Results file%s: ", nf == 1 ? "" : "s");
	for (unsigned f = 0; f < nf; f++) {
		fputs(f ? ", " : "", out);
		sb_html_src_link(h, (unsigned)sb_html_file_index(h, files[f]));
	}
	fputs(nf > 1 ? " (pooled as repetitions; the stack below is the first file's)</p>\n" : "</p>\n", out);
	facts(out, first);
	host(out, first);
	environment(out, first);
	notes(h, files, nf);
	command(out, first, nf);
	for (unsigned f = 0; f < nf; f++)
		sb_html_heat(h, files[f], (unsigned)sb_html_file_index(h, files[f]));
	for (unsigned f = 0; f < nf; f++)
		sb_html_per_layer(h, files[f], (unsigned)sb_html_file_index(h, files[f]), row);
	fputs("</section>\n", out);
	free(files);
}

void sb_html_stacks(const struct sb_html *h)
{
	fputs("<section id=\"stacks\"><h2>The stacks</h2>\n", h->out);
	for (unsigned r = 0; r < h->t->nrows; r++)
		stack_section(h, r);
	fputs("</section>\n", h->out);
}
