/* bonnie++'s own CSV line (format "1.98", as bonnie++ 1.98 and 2.00 write
 * with -q and bon_csv2txt/bon_csv2html read), one line per `bonnie` suite
 * run, so bonnie++'s tools render stackbench results. Fields:
 *   0 format version  1 bonnie version  2 name  3 concurrency  4 seed
 *   5 file size  6 chunk size  7 seeks  8 seek processes
 *   9-20 putc, block output, rewrite, getc, block input, seeks (value, %CPU each)
 *   21-25 files (x1024), max size, min size, dirs, file chunk size (as
 *         bonnie++ 2.00a fills them: file_params)
 *   26-37 seq create/stat/delete, random create/stat/delete (value, %CPU each)
 *   38-43 latencies of the six I/O tests  44-49 latencies of the six file tests
 * bonnie++ counts throughput in K/sec with K = 1024 bytes, so MB/s
 * (10^6 B/s) figures are converted; per-char tests (-f) stay empty. */
#include "report/render.h"
#include "report/results.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/text.h"

#include "config.h"
#include "util/json.h"

#define BON_FIELDS 50

/* bonnie++'s latency style: "276us", "90292us", "104ms", "1146ms". */
static void latency(double ns, char *buf, size_t len)
{
	double us = ns / 1000.0;

	if (us < 100000)
		snprintf(buf, len, "%.0fus", us);
	else if (us < 100000000)
		snprintf(buf, len, "%.0fms", us / 1000.0);
	else
		snprintf(buf, len, "%.0fs", us / 1e6);
}

/* value and %CPU of one figure into f[i], f[i+1]; kind 0: rate in K/sec,
 * 1: seeks (one decimal below 1000, as bonnie++), 2: files/s (integer). */
static void pair(struct json_object *figs, const char *name, int kind,
		 char f[][128], int i, char *lat, size_t latlen)
{
	struct json_object *fig = sb_json_get(figs, name);
	const char *unit;
	double v, cpu, ns, el;

	if (!sb_json_num(fig, "value", &v))
		return;
	if (lat && sb_json_num(fig, "latency_ns", &ns))
		latency(ns, lat, latlen);
	/* bonnie++ does not time a test shorter than half a second (its MinTime) */
	if (sb_json_num(fig, "elapsed_s", &el) && el < 0.5) {
		snprintf(f[i], 128, "+++++");
		snprintf(f[i + 1], 128, "+++");
		return;
	}
	unit = sb_json_get(fig, "unit") ? json_object_get_string(sb_json_get(fig, "unit")) : "MB/s";
	if (kind == 0) {
		if (sb_unit_convert(v, unit, "KiB/s", &v) < 0)
			return;
		snprintf(f[i], 128, "%.0f", v);
	} else if (kind == 1) {
		snprintf(f[i], 128, v >= 1000 ? "%.0f" : "%.1f", v);
	} else {
		snprintf(f[i], 128, "%.0f", v);
	}
	if (sb_json_num(fig, "cpu_pct", &cpu))
		snprintf(f[i + 1], 128, "%.0f", cpu);
}

/* bonnie++'s CSV has no quoting: commas and controls become '_', and a
 * name a spreadsheet would run as a formula gets a leading apostrophe. */
static void clean_name(const char *in, char *out, size_t len)
{
	size_t i, o = 0;

	if (sb_text_csv_formula(in) && len > 1)
		out[o++] = '\'';
	for (i = 0; in[i] && o + 1 < len; i++)
		out[o++] = (in[i] == ',' || (unsigned char)in[i] < 0x20 || in[i] == 0x7f) ? '_' : in[i];
	out[o] = '\0';
}

/* bonnie++'s print_size(size, "MG"): MiB, or GiB when a whole number of them */
static void mib_or_gib(double bytes, char *out)
{
	uint64_t m = (uint64_t)(bytes / 1048576.0);

	if (m && m % 1024 == 0)
		snprintf(out, 128, "%lluG", (unsigned long long)(m / 1024));
	else
		snprintf(out, 128, "%lluM", (unsigned long long)m);
}

/* fields 21-25 as bonnie++ 2.00a writes them for -n NUM:MAX:MIN:DIRS: the
 * count, MAX ("link"/"symlink" for -1/-2), MIN when not 0, and - its
 * quirk, which bon_csv2txt shows as ":DIRS" - the directories in field 25
 * (file_chunk_size) when more than one, field 24 (num_dirs) left empty. */
static void file_params(struct json_object *suite, char f[][128])
{
	double v, max = 0, min = 0;

	snprintf(f[21], 128, "%.0f", sb_json_num(suite, "num_files", &v) ? v : 1.0);
	sb_json_num(suite, "file_max_bytes", &max);
	sb_json_num(suite, "file_min_bytes", &min);
	if (max == -1 || max == -2)
		snprintf(f[22], 128, "%s", max == -1 ? "link" : "symlink");
	else if (max > 0) {
		snprintf(f[22], 128, "%.0f", max);
		if (min > 0)
			snprintf(f[23], 128, "%.0f", min);
	}
	if (sb_json_num(suite, "num_dirs", &v) && v > 1)
		snprintf(f[25], 128, "%.0f", v);
}

/* hosts: the files come from more than one host; the name (bonnie++'s
 * machine field) is then "STACK on HOST", so two hosts' lines of one stack
 * stay apart. */
static void line(struct json_object *res, struct json_object *suite, bool hosts, FILE *out)
{
	static const char *io[] = { NULL, "block_output", "rewrite", NULL, "block_input", "seeks" };
	static const char *files[] = { "seq_create", "seq_stat", "seq_delete",
				       "ran_create", "ran_stat", "ran_delete" };
	struct json_object *figs = sb_results_suite_figures(suite);
	char f[BON_FIELDS][128], name[256];
	double v;
	int i, any_file = 0;

	memset(f, 0, sizeof(f));
	snprintf(f[0], 128, "1.98");
	snprintf(f[1], 128, "stackbench-%s", SB_VERSION);
	snprintf(name, sizeof(name), hosts ? "%s on %s" : "%s", sb_results_stack_name(res), sb_results_host_name(res));
	clean_name(name, f[2], 128);
	snprintf(f[3], 128, "%.0f", sb_json_num(suite, "concurrency", &v) ? v : 1.0);
	if (sb_json_num(suite, "seed", &v))
		snprintf(f[4], 128, "%.0f", v);
	if (sb_json_num(suite, "file_size_bytes", &v))
		mib_or_gib(v, f[5]);
	/* f[6], the chunk size, stays empty: bonnie++ 2.00a never writes it */
	if (sb_json_num(suite, "seeks", &v))
		snprintf(f[7], 128, "%.0f", v);
	if (sb_json_num(suite, "seek_procs", &v))
		snprintf(f[8], 128, "%.0f", v);
	for (i = 0; i < 6; i++)
		if (io[i])
			pair(figs, io[i], i == 5, f, 9 + 2 * i, f[38 + i], 128);
	for (i = 0; i < 6; i++) {
		pair(figs, files[i], 2, f, 26 + 2 * i, f[44 + i], 128);
		any_file |= f[26 + 2 * i][0] != '\0';
	}
	/* bonnie++ leaves the file test columns empty when it did not run them (-n 0). */
	if (any_file)
		file_params(suite, f);
	for (i = 0; i < BON_FIELDS; i++) {
		if (i)
			fputc(',', out);
		fputs(f[i], out);
	}
	fputc('\n', out);
}

int sb_bonnie_csv_write(struct json_object *const *results, unsigned n, FILE *out, struct sb_err *err)
{
	unsigned i, lines = 0;
	bool hosts = false;

	for (i = 1; i < n; i++)
		hosts |= strcmp(sb_results_host_name(results[0]), sb_results_host_name(results[i])) != 0;
	for (i = 0; i < n; i++) {
		struct json_object *s;
		size_t j;

		for (j = 0; (s = sb_results_suite(results[i], j)); j++) {
			if (strcmp(sb_results_suite_name(s), "bonnie"))
				continue;
			line(results[i], s, hosts, out);
			lines++;
		}
	}
	if (!lines)
		return sb_err_set(err, -EINVAL, "bonnie-csv: none of the results has a bonnie suite run");
	if (fflush(out) != 0 || ferror(out))
		return sb_err_sys(err, -EIO, "writing the bonnie++ CSV");
	return 0;
}
