/* Table rendering against golden files (tests/golden/expected), plus the
 * arithmetic under it. Regenerate goldens with UPDATE_GOLDEN=1 meson test
 * table — and read the diff before committing it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "report/results.h"
#include "report/render.h"
#include "cmd/cmd.h"
#include <unistd.h>

static const char *srcdir(void)
{
	const char *s = getenv("SB_SOURCE_DIR");
	return s && *s ? s : SB_SOURCE_DIR;
}

static struct json_object *load(const char *rel)
{
	char path[4096];
	struct json_object *o = NULL;
	struct sb_err err = { 0 };

	snprintf(path, sizeof(path), "%s/tests/golden/%s", srcdir(), rel);
	if (sb_results_read(path, &o, &err) < 0)
		fail_msg("%s", err.msg);
	return o;
}

#define HELIOS "results/omv-ext4-lvm.json", "results/ext4.json", "results/luks512.json", \
	"results/luks4096.json", "results/luks4096-cesa.json"

struct golden {
	const char *expected;
	enum sb_table_format fmt;
	const char *columns, *baseline;
	const char *files[8];
};

static const struct golden goldens[] = {
	{ "helios4.txt", SB_FMT_TEXT, NULL, NULL, { HELIOS } },
	{ "helios4.md", SB_FMT_MARKDOWN, NULL, NULL, { HELIOS } },
	{ "helios4.csv", SB_FMT_CSV, NULL, NULL, { HELIOS } },
	{ "helios4.json", SB_FMT_JSON, NULL, NULL, { HELIOS } },
	{ "helios4.bonnie.csv", SB_FMT_BONNIE_CSV, NULL, NULL, { HELIOS } },
	{ "helios4-baseline.txt", SB_FMT_TEXT, NULL, "ext4", { HELIOS } },
	{ "helios4-baseline.md", SB_FMT_MARKDOWN, NULL, "ext4", { HELIOS } },
	{ "helios4-baseline.csv", SB_FMT_CSV, NULL, "ext4", { HELIOS } },
	{ "helios4-baseline.json", SB_FMT_JSON, NULL, "ext4", { HELIOS } },
	{ "rep.txt", SB_FMT_TEXT, NULL, NULL, { "results/ext4.json", "rep/ext4-2runs.json" } },
	{ "rep.md", SB_FMT_MARKDOWN, NULL, NULL, { "results/ext4.json", "rep/ext4-2runs.json" } },
	{ "rep.csv", SB_FMT_CSV, NULL, NULL, { "results/ext4.json", "rep/ext4-2runs.json" } },
	{ "rep.json", SB_FMT_JSON, NULL, "ext4", { "results/ext4.json", "rep/ext4-2runs.json" } },
	{ "rep.bonnie.csv", SB_FMT_BONNIE_CSV, NULL, NULL, { "rep/ext4-2runs.json" } },
	{ "columns.txt", SB_FMT_TEXT,
	  "stack,write,read,seeks,create,cpu_write,cpu_read,quick.seq_read,quick.randread_iops,"
	  "quick.randread.p99,util:sda,util:sdb,kernel,sandbox,crypto_driver",
	  NULL, { HELIOS, "rep/ext4-2runs.json" } },
	{ "columns.csv", SB_FMT_CSV,
	  "setup,write,quick.seq_read,quick.randread.p99.9,util:sda", "ext4",
	  { "results/ext4.json", "rep/ext4-2runs.json", "results/luks4096.json" } },
	{ "columns.json", SB_FMT_JSON, "stack,cipher,crypto_driver,write,cpu_write,util:sda", NULL,
	  { "results/luks4096-cesa.json", "rep/ext4-2runs.json" } },
};

static char *render(const struct golden *g, size_t *len)
{
	struct json_object *res[8];
	struct sb_table_opts o = { .format = g->fmt, .columns = g->columns, .baseline = g->baseline };
	struct sb_err err = { 0 };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	unsigned n = 0, i;

	assert_non_null(f);
	while (n < 8 && g->files[n]) {
		res[n] = load(g->files[n]);
		n++;
	}
	if (sb_table_render(res, n, &o, f, &err) < 0)
		fail_msg("%s: %s", g->expected, err.msg);
	fclose(f);
	for (i = 0; i < n; i++)
		json_object_put(res[i]);
	return buf;
}

static void test_goldens(void **state)
{
	size_t i;
	int update = getenv("UPDATE_GOLDEN") && !strcmp(getenv("UPDATE_GOLDEN"), "1");

	for (i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		char path[4096], *got, *want = NULL;
		size_t glen, wlen = 0;
		FILE *f;

		got = render(&goldens[i], &glen);
		snprintf(path, sizeof(path), "%s/tests/golden/expected/%s", srcdir(), goldens[i].expected);
		if (update) {
			f = fopen(path, "w");
			assert_non_null(f);
			fwrite(got, 1, glen, f);
			fclose(f);
			free(got);
			continue;
		}
		f = fopen(path, "r");
		if (!f)
			fail_msg("missing golden file %s (UPDATE_GOLDEN=1 creates it)", path);
		want = malloc(1 << 20);
		wlen = fread(want, 1, 1 << 20, f);
		fclose(f);
		if (wlen != glen || memcmp(want, got, glen))
			fail_msg("%s differs from the rendered table:\n--- got ---\n%s--- want ---\n%.*s",
				 path, got, (int)wlen, want);
		free(want);
		free(got);
	}
}

static void test_median_minmax(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 }, mn, mx;

	assert_true(sb_stats_median(odd, 3) == 3);
	assert_true(sb_stats_median(even, 4) == 2.5);
	assert_true(sb_stats_median(one, 1) == 7);
	assert_true(isnan(sb_stats_median(one, 0)));
	assert_true(odd[0] == 5); /* input untouched */
	sb_stats_minmax(even, 4, &mn, &mx);
	assert_true(mn == 1 && mx == 4);
}

static void test_units(void **state)
{
	double v;

	assert_int_equal(sb_unit_convert(1, "MiB/s", "MB/s", &v), 0);
	assert_true(fabs(v - 1.048576) < 1e-12);
	assert_int_equal(sb_unit_convert(146, "MB/s", "KiB/s", &v), 0);
	assert_true(fabs(v - 142578.125) < 1e-9);
	assert_int_equal(sb_unit_convert(2500000, "ns", "ms", &v), 0);
	assert_true(fabs(v - 2.5) < 1e-12);
	assert_int_equal(sb_unit_convert(3, "/s", "/s", &v), 0);
	assert_true(v == 3);
	assert_int_equal(sb_unit_convert(1, "MB/s", "ms", &v), -EINVAL);
	assert_int_equal(sb_unit_convert(1, "furlongs", "MB/s", &v), -EINVAL);
}

static void test_num_format(void **state)
{
	char b[32];

	sb_num_format(146.4, b, sizeof(b));
	assert_string_equal(b, "146");
	sb_num_format(96.6, b, sizeof(b));
	assert_string_equal(b, "97");
	sb_num_format(2.5, b, sizeof(b));
	assert_string_equal(b, "2.5");
	sb_num_format(0.01234, b, sizeof(b));
	assert_string_equal(b, "0.0123");
	sb_num_format(0, b, sizeof(b));
	assert_string_equal(b, "0");
}

static void test_csv_quoting(void **state)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	sb_csv_field(f, "plain", 1);
	sb_csv_field(f, "a,b", 0);
	sb_csv_field(f, "say \"hi\"", 0);
	sb_csv_field(f, "two\nlines", 0);
	sb_csv_field(f, "", 0);
	fclose(f);
	assert_string_equal(buf, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",");
	free(buf);
}

static void test_baseline_pct(void **state)
{
	struct json_object *res[2] = { load("results/ext4.json"), load("results/luks4096.json") };
	struct sb_table_opts o = { .format = SB_FMT_TEXT, .baseline = "ext4" };
	struct sb_table t;
	struct sb_err err = { 0 };
	unsigned c;

	assert_int_equal(sb_table_build(res, 2, &o, &t, &err), 0);
	assert_int_equal(t.baseline, 0);
	for (c = 0; c < t.ncols && strcmp(t.cols[c].name, "write"); c++)
		;
	assert_true(c < t.ncols);
	assert_true(sb_table_cell(&t, 0, c)->has_pct);
	assert_true(fabs(sb_table_cell(&t, 0, c)->pct - 100.0) < 1e-9);
	assert_true(fabs(sb_table_cell(&t, 1, c)->pct - 73.0 / 160.0 * 100.0) < 1e-9);
	sb_table_free(&t);

	o.baseline = "nosuch";
	assert_int_equal(sb_table_build(res, 2, &o, &t, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "nosuch"));
	assert_non_null(strstr(err.msg, "ext4, luks4096"));
	json_object_put(res[0]);
	json_object_put(res[1]);
}

/* Repetitions pool across files of one stack and within a file. */
static void test_repetitions(void **state)
{
	struct json_object *res[3] = { load("rep/ext4-2runs.json"), load("rep/ext4-2runs.json"),
				       load("results/ext4.json") };
	struct sb_table_opts o = { .columns = "write,seeks" };
	struct sb_table t;
	struct sb_err err = { 0 };

	assert_int_equal(sb_table_build(res, 3, &o, &t, &err), 0);
	assert_int_equal(t.nrows, 2);
	assert_int_equal(sb_table_cell(&t, 0, 0)->n, 4);
	assert_true(sb_table_cell(&t, 0, 0)->med == 162);
	assert_true(sb_table_cell(&t, 0, 0)->min == 160 && sb_table_cell(&t, 0, 0)->max == 164);
	assert_int_equal(sb_table_cell(&t, 1, 0)->n, 1);
	assert_true(t.any_reps);
	sb_table_free(&t);
	for (int i = 0; i < 3; i++)
		json_object_put(res[i]);
}

/* Same setup twice (near2 vs far2): the default table names the stacks;
 * differing RAID levels appear in Setup. */
static void test_ambiguous_and_raid(void **state)
{
	struct json_object *a = load("results/ext4.json"), *b = load("results/ext4.json"), *name, *md;
	struct json_object *res[2] = { a, b };
	struct sb_table_opts o = { 0 };
	struct sb_table t;
	struct sb_err err = { 0 };

	json_object_object_get_ex(b, "stack", &name);
	json_object_object_add(name, "name", json_object_new_string("ext4-raid10"));
	assert_int_equal(sb_table_build(res, 2, &o, &t, &err), 0);
	assert_string_equal(t.cols[0].name, "stack");
	assert_string_equal(sb_table_cell(&t, 0, 1)->str, "EXT4");
	sb_table_free(&t);

	md = sb_results_built_layer(b, "md");
	json_object_object_add(md, "level", json_object_new_string("raid10"));
	assert_int_equal(sb_table_build(res, 2, &o, &t, &err), 0);
	assert_string_equal(t.cols[0].name, "setup");
	assert_string_equal(sb_table_cell(&t, 0, 0)->str, "EXT4 on RAID1");
	assert_string_equal(sb_table_cell(&t, 1, 0)->str, "EXT4 on RAID10");
	sb_table_free(&t);
	json_object_put(a);
	json_object_put(b);
}

static void test_bad_columns(void **state)
{
	struct sb_column col;
	struct sb_err err = { 0 };
	enum sb_table_format f;

	assert_int_equal(sb_column_resolve("bogus", &col, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown column 'bogus'"));
	assert_int_equal(sb_column_resolve("fio-matrix.read_qd32_j4", &col, NULL), 0);
	assert_int_equal(col.numeric, 1);
	assert_int_equal(sb_column_resolve("quick.randread.p99.9", &col, NULL), 0);
	assert_string_equal(col.unit, "ms");
	assert_int_equal(sb_column_resolve("util:loop0", &col, NULL), 0);
	assert_string_equal(col.arg, "loop0");
	assert_int_equal(sb_table_format_parse("markdown", &f, NULL), 0);
	assert_int_equal(f, SB_FMT_MARKDOWN);
	assert_int_equal(sb_table_format_parse("xml", &f, NULL), -EINVAL);
}

/* The home-NAS table: reads first, each cell's MB/s, then one row per device
 * with its iostat -x columns; a result without fio-matrix is refused. */
static void test_fio_matrix(void **state)
{
	static const char js[] =
		"{\"stack\":{\"name\":\"raid10\"},\"suites\":[{\"suite\":\"fio-matrix\",\"jobs\":["
		"{\"job options\":{\"rw\":\"write\",\"iodepth\":32,\"numjobs\":4},\"write\":{\"bw_bytes\":254000000},"
		"\"disk_util\":[{\"name\":\"sdc\",\"w_per_s\":272,\"write_mbps\":135.5,\"w_await_ms\":32.98,"
		"\"wareq_kb\":510.13,\"aqu_sz\":8.43,\"util_pct\":89.6}]},"
		"{\"job options\":{\"rw\":\"read\",\"iodepth\":1,\"numjobs\":1},\"read\":{\"bw_bytes\":318000000},"
		"\"disk_util\":[{\"name\":\"sdc\",\"r_per_s\":294,\"read_mbps\":147,\"r_await_ms\":1.79,"
		"\"rareq_kb\":512,\"aqu_sz\":0.08,\"util_pct\":100},{\"name\":\"sde\",\"r_per_s\":295,"
		"\"read_mbps\":147.5,\"r_await_ms\":1.42,\"rareq_kb\":512,\"util_pct\":92}]}]}]}";
	struct json_object *res[1] = { json_tokener_parse(js) }, *none[1] = { json_tokener_parse("{}") };
	struct sb_err err = { 0 };
	char *buf = NULL, *rd, *wr;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	enum sb_table_format fmt;

	assert_int_equal(sb_table_format_parse("fio-matrix", &fmt, NULL), 0);
	assert_int_equal(fmt, SB_FMT_FIO_MATRIX);
	assert_int_equal(sb_fio_matrix_write(res, 1, f, &err), 0);
	fclose(f);
	rd = strstr(buf, "raid10               read     1    1     318.0  sdc          294.00   147.00     1.79   512.00");
	wr = strstr(buf, "raid10               write   32    4     254.0  sdc               -        -        -        -   272.00   135.50    32.98   510.13    8.43  89.60");
	if (!rd || !wr || wr < rd || !strstr(buf, "  sde          295.00   147.50") || !strstr(buf, "rareq-sz"))
		fail_msg("table:\n%s", buf);
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(sb_fio_matrix_write(none, 1, f, &err), -EINVAL);
	fclose(f);
	free(buf);
	json_object_put(res[0]);
	json_object_put(none[0]);
}

/* bonnie++ 1.98 lines have 50 fields; block output of 146 MB/s is 142578 K/sec. */
static void test_bonnie_line(void **state)
{
	struct json_object *res[1] = { load("results/omv-ext4-lvm.json") };
	struct sb_err err = { 0 };
	char *buf = NULL, *p;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	int commas = 0;

	assert_int_equal(sb_bonnie_csv_write(res, 1, f, &err), 0);
	fclose(f);
	for (p = buf; *p; p++)
		commas += *p == ',';
	assert_int_equal(commas, 49);
	assert_true(!strncmp(buf, "1.98,stackbench-", 16));
	assert_non_null(strstr(buf, ",142578,48,76172,34,,,172852,45,147.1,5,"));
	assert_non_null(strstr(buf, ",185ms,383ms,,104ms,435ms,"));
	free(buf);
	json_object_put(res[0]);
}

/* bonnie++ prints "+++++" (and "+++" for %CPU) for a test that took less
 * than half a second, and seeks of 1000/s or more without a decimal. */
static void test_bonnie_too_fast(void **state)
{
	struct json_object *res[1] = { load("results/omv-ext4-lvm.json") };
	struct json_object *figs = json_object_object_get(json_object_array_get_idx(
		json_object_object_get(res[0], "suites"), 0), "figures");
	struct sb_err err = { 0 };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	json_object_object_add(json_object_object_get(figs, "rewrite"), "elapsed_s", json_object_new_double(0.49));
	json_object_object_add(json_object_object_get(figs, "block_output"), "elapsed_s", json_object_new_double(0.5));
	json_object_object_add(json_object_object_get(figs, "seeks"), "value", json_object_new_double(1234.4));
	assert_int_equal(sb_bonnie_csv_write(res, 1, f, &err), 0);
	fclose(f);
	if (!strstr(buf, ",142578,48,+++++,+++,,,172852,45,1234,5,") || !strstr(buf, ",185ms,383ms,,104ms,435ms,"))
		fail_msg("line: %s", buf);
	free(buf);
	json_object_put(res[0]);
}


/* Debian's own bon_csv2txt and bon_csv2html read our lines. */
static void test_bon_tools(void **state)
{
	struct json_object *res[6];
	const char *files[] = { HELIOS, "rep/ext4-2runs.json" };
	char path[] = "/tmp/sb-test-bon.XXXXXX", cmd[256], line[512];
	struct sb_err err = { 0 };
	int fd, i, saw_omv = 0, saw_create = 0, rows = 0;
	FILE *f, *p;

	if (access("/usr/bin/bon_csv2txt", X_OK) || access("/usr/bin/bon_csv2html", X_OK))
		skip();
	for (i = 0; i < 6; i++)
		res[i] = load(files[i]);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_int_equal(sb_bonnie_csv_write(res, 6, f, &err), 0);
	fclose(f);
	for (i = 0; i < 6; i++)
		json_object_put(res[i]);

	snprintf(cmd, sizeof(cmd), "bon_csv2txt < %s 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		assert_null(strstr(line, "Expected"));     /* its complaint about a bad line */
		/* 146 MB/s is 139 MiB/s: bonnie++'s "m" */
		if (strstr(line, "omv-ext4-lvm  4024M            139m  48 74.4m  34            169m  45 147.1   5"))
			saw_omv = 1;
		if (strstr(line, "ext4-2runs        1  1672   0"))
			saw_create = 1;
		rows += !strncmp(line, "Latency", 7);
	}
	assert_int_equal(pclose(p), 0);
	assert_true(saw_omv);
	assert_true(saw_create);
	assert_int_equal(rows, 8); /* 7 I/O rows + 1 file-test row carry latencies */

	snprintf(cmd, sizeof(cmd), "bon_csv2html < %s | grep -c luks4096-cesa", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(line, sizeof(line), p));
	assert_int_equal(pclose(p), 0);
	assert_true(atoi(line) >= 1);
	unlink(path);
}

/* The command: a bad file is bad usage (exit 2) and is named. */
static void test_cmd_compare_bad_file(void **state)
{
	char good[4096], bad[] = "/tmp/sb-test-bad.XXXXXX";
	char *argv[] = { "compare", "--format", "csv", good, bad, NULL };
	char *argv2[] = { "compare", "--format", "xml", good, NULL };
	char *argv3[] = { "compare", "--baseline", "nosuch", good, NULL };
	struct sb_err err = { 0 };
	int fd;

	snprintf(good, sizeof(good), "%s/tests/golden/results/ext4.json", srcdir());
	fd = mkstemp(bad);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"schema\":\"other/9\"}", 20), 20);
	close(fd);
	assert_int_equal(sb_cmd_compare(5, argv, &err), -EINVAL);
	assert_int_equal(sb_err_exit_code(err.code), SB_EXIT_USAGE);
	assert_non_null(strstr(err.msg, bad));
	sb_err_clear(&err);
	assert_int_equal(sb_cmd_compare(4, argv2, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown format 'xml'"));
	sb_err_clear(&err);
	assert_int_equal(sb_cmd_compare(4, argv3, &err), -EINVAL);
	unlink(bad);
}

/* A directory stands for its *.json files, in measured order: the Helios4
 * fixtures' directory prints exactly the Helios4 golden table. */
static void test_cmd_compare_dir(void **state)
{
	char dir[4096], out[] = "/tmp/sb-test-out.XXXXXX", want_path[4096];
	char *argv[] = { "compare", dir, NULL };
	char got[4096] = "", want[4096] = "";
	struct sb_err err = { 0 };
	int fd, saved;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/tests/golden/results", srcdir());
	fd = mkstemp(out);
	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	assert_int_equal(sb_cmd_compare(2, argv, &err), 0);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	f = fopen(out, "r");
	assert_int_equal(fread(got, 1, sizeof(got) - 1, f) > 0, 1);
	fclose(f);
	unlink(out);
	snprintf(want_path, sizeof(want_path), "%s/tests/golden/expected/helios4.txt", srcdir());
	f = fopen(want_path, "r");
	assert_non_null(f);
	assert_int_equal(fread(want, 1, sizeof(want) - 1, f) > 0, 1);
	fclose(f);
	assert_string_equal(got, want);
}

/* Odd shapes in optional parts (a helper's bug, a hand-edited file) give
 * "-" cells, never a crash. */
static void test_odd_shapes(void **state)
{
	struct json_object *r = load("rep/ext4-2runs.json"), *suites, *s0, *figs;
	struct json_object *res[1] = { r };
	struct sb_table_opts o = { .columns = "write,quick.randread.p99,util:sda,quick.seq_read",
				   .format = SB_FMT_CSV };
	struct sb_err err = { 0 };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	json_object_object_get_ex(r, "suites", &suites);
	for (size_t i = 0; i < json_object_array_length(suites); i++) {
		s0 = json_object_array_get_idx(suites, i);
		json_object_object_add(s0, "jobs", json_object_new_string("x"));
		json_object_object_add(s0, "disk_util", json_object_new_object());
		json_object_object_get_ex(s0, "figures", &figs);
		json_object_object_add(figs, "block_output", json_object_new_string("fast"));
		json_object_object_add(figs, "seq_read", json_object_new_array());
	}
	assert_int_equal(sb_table_render(res, 1, &o, f, &err), 0);
	fclose(f);
	assert_string_equal(buf, "stack,write MB/s,quick.randread.p99 ms,sda util %,quick.seq_read\r\n"
				 "ext4-2runs,,,,\r\n");
	free(buf);
	json_object_put(r);
}

/* Without stack.built (a run that failed before read-back), the text
 * columns come from the stack as requested. */
static void test_requested_fallback(void **state)
{
	struct json_object *r = load("results/ext4.json"), *stack, *req, *luks, *fs;
	struct json_object *res[1] = { r };
	struct sb_table_opts o = { .columns = "setup,luks_sector,cipher,crypto_driver" };
	struct sb_table t;
	struct sb_err err = { 0 };

	json_object_object_get_ex(r, "stack", &stack);
	json_object_object_del(stack, "built");
	req = json_object_new_object();
	luks = json_object_new_object();
	fs = json_object_new_object();
	json_object_object_add(luks, "cipher", json_object_new_string("aes-xts-plain64"));
	json_object_object_add(luks, "sector_size", json_object_new_int(4096));
	json_object_object_add(fs, "type", json_object_new_string("ext4"));
	json_object_object_add(req, "luks", luks);
	json_object_object_add(req, "fs", fs);
	json_object_object_add(stack, "requested", req);
	assert_int_equal(sb_table_build(res, 1, &o, &t, &err), 0);
	assert_string_equal(sb_table_cell(&t, 0, 0)->str, "EXT4 on LUKS");
	assert_string_equal(sb_table_cell(&t, 0, 1)->str, "4096");
	assert_string_equal(sb_table_cell(&t, 0, 2)->str, "aes-xts-plain64");
	assert_string_equal(sb_table_cell(&t, 0, 3)->str, "?"); /* LUKS asked for, driver never read back */
	sb_table_free(&t);
	json_object_put(r);
}

/* What sb_spec_to_json writes: a disabled section is {"enabled": false},
 * which is no LUKS, not an unknown one. */
static void test_requested_disabled(void **state)
{
	struct json_object *r[1];
	struct sb_table_opts o = { .columns = "setup,luks_sector,cipher" };
	struct sb_table t;
	struct sb_err err = { 0 };

	r[0] = json_tokener_parse(
		"{\"schema\":\"stackbench-results/1\",\"host\":{},\"suites\":[],"
		"\"stack\":{\"name\":\"ext4\",\"requested\":{\"fs\":{\"type\":\"ext4\"},"
		"\"luks\":{\"enabled\":false},\"lvm\":{\"enabled\":false}}}}");
	assert_non_null(r[0]);
	assert_int_equal(sb_table_build(r, 1, &o, &t, &err), 0);
	assert_string_equal(sb_table_cell(&t, 0, 0)->str, "EXT4");
	assert_string_equal(sb_table_cell(&t, 0, 1)->str, "no luks");
	assert_string_equal(sb_table_cell(&t, 0, 2)->str, "none");
	sb_table_free(&t);
	json_object_put(r[0]);
}

/* No bonnie suite: the default columns are the stack and its suite's figures. */
static void test_default_without_bonnie(void **state)
{
	struct json_object *r[1];
	struct sb_table_opts o = { 0 };
	struct sb_table t;
	struct sb_err err = { 0 };

	r[0] = json_tokener_parse(
		"{\"schema\":\"stackbench-results/1\",\"host\":{},"
		"\"stack\":{\"name\":\"raid10-near2\"},"
		"\"suites\":[{\"suite\":\"fio-matrix\",\"repetition\":1,\"figures\":{"
		"\"read_qd1_j1\":{\"value\":300.5,\"unit\":\"MB/s\"},"
		"\"write_qd32_j4\":{\"value\":250,\"unit\":\"MB/s\"}}}]}");
	assert_non_null(r[0]);
	assert_int_equal(sb_table_build(r, 1, &o, &t, &err), 0);
	assert_int_equal(t.ncols, 3);
	assert_string_equal(sb_table_cell(&t, 0, 0)->str, "raid10-near2");
	assert_true(sb_table_cell(&t, 0, 1)->present);
	assert_true(sb_table_cell(&t, 0, 2)->present);
	sb_table_free(&t);
	json_object_put(r[0]);
}

/* bound_by_machine figures carry a mark and a footnote in every format. */
static void test_bound_by_machine(void **state)
{
	struct json_object *r[1];
	struct sb_table_opts o = { .columns = "dd.write,dd.read" };
	struct sb_err err = { 0 };
	enum sb_table_format f;
	char *buf;
	size_t len;
	FILE *m;

	r[0] = json_tokener_parse(
		"{\"schema\":\"stackbench-results/1\",\"host\":{},\"stack\":{\"name\":\"ext4\"},"
		"\"suites\":[{\"suite\":\"dd\",\"repetition\":1,\"figures\":{"
		"\"write\":{\"value\":300,\"unit\":\"MB/s\",\"bound_by_machine\":true},"
		"\"read\":{\"value\":900,\"unit\":\"MB/s\"}}}]}");
	assert_non_null(r[0]);
	for (f = SB_FMT_TEXT; f <= SB_FMT_JSON; f++) {
		o.format = f;
		m = open_memstream(&buf, &len);
		assert_int_equal(sb_table_render(r, 1, &o, m, &err), 0);
		fclose(m);
		if (f == SB_FMT_TEXT || f == SB_FMT_MARKDOWN) {
			assert_non_null(strstr(buf, "300 \xe2\x80\xa0"));
			assert_null(strstr(buf, "900 \xe2\x80\xa0"));
			assert_non_null(strstr(buf, "bound by the machine, not the stack"));
		} else if (f == SB_FMT_CSV) {
			assert_non_null(strstr(buf, "bound by machine"));
			assert_non_null(strstr(buf, "bound_by_machine"));
		} else {
			assert_non_null(strstr(buf, "\"dd.write_bound_by_machine\": true"));
			assert_null(strstr(buf, "dd.read_bound_by_machine"));
		}
		free(buf);
	}
	json_object_put(r[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_minmax),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_num_format),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_baseline_pct),
		cmocka_unit_test(test_repetitions),
		cmocka_unit_test(test_ambiguous_and_raid),
		cmocka_unit_test(test_bad_columns),
		cmocka_unit_test(test_bonnie_line),
		cmocka_unit_test(test_bonnie_too_fast),
		cmocka_unit_test(test_fio_matrix),
		cmocka_unit_test(test_goldens),
		cmocka_unit_test(test_requested_fallback),
		cmocka_unit_test(test_requested_disabled),
		cmocka_unit_test(test_default_without_bonnie),
		cmocka_unit_test(test_bound_by_machine),
		cmocka_unit_test(test_odd_shapes),
		cmocka_unit_test(test_bon_tools),
		cmocka_unit_test(test_cmd_compare_bad_file),
		cmocka_unit_test(test_cmd_compare_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
