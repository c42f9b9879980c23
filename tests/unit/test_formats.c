/* Table rendering against golden files (tests/golden/expected), the other
 * formats (bonnie++ CSV, the fio-matrix table) and the compare command.
 * Regenerate goldens with UPDATE_GOLDEN=1 meson test formats — and read
 * the diff before committing it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "report/results.h"
#include "report/render.h"
#include "cmd/cmd.h"
#include "golden.h"

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
		res[n] = sb_test_load(g->files[n]);
		n++;
	}
	if (sb_table_render(res, n, &o, f, &err) < 0)
		fail_msg("%s: %s", g->expected, err.msg);
	fclose(f);
	for (i = 0; i < n; i++)
		json_object_put(res[i]);
	return buf;
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

/* bonnie++ 1.98 lines have 50 fields; block output of 146 MB/s is 142578 K/sec. */
static void test_bonnie_line(void **state)
{
	struct json_object *res[1] = { sb_test_load("results/omv-ext4-lvm.json") };
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

static void test_goldens(void **state)
{
	size_t i;
	int update = getenv("UPDATE_GOLDEN") && !strcmp(getenv("UPDATE_GOLDEN"), "1");

	for (i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		char path[4096], *got, *want = NULL;
		size_t glen, wlen = 0;
		FILE *f;

		got = render(&goldens[i], &glen);
		snprintf(path, sizeof(path), "%s/tests/golden/expected/%s", sb_test_srcdir(), goldens[i].expected);
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

/* bonnie++ 2.00a's CSV with -s 0 -n 1:4096:1024:4 (its own line, run on
 * Debian's build): no I/O fields at all, then "1,4096,1024,,4" - the
 * directories land in field 25, where bonnie++ writes them; links are
 * "link"/"symlink"; a whole number of GiB is "1G", the chunk never shown. */
static char *bonnie_line(const char *suite_keys)
{
	char js[1024], *buf = NULL;
	struct json_object *res[1];
	struct sb_err err = { 0 };
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	snprintf(js, sizeof(js), "{\"stack\":{\"name\":\"vm\"},\"suites\":[{\"suite\":\"bonnie\",%s,"
		 "\"figures\":{\"seq_create\":{\"value\":1566.2,\"unit\":\"/s\",\"cpu_pct\":4,"
		 "\"elapsed_s\":0.65,\"latency_ns\":26900000}}}]}", suite_keys);
	res[0] = json_tokener_parse(js);
	assert_non_null(res[0]);
	assert_int_equal(sb_bonnie_csv_write(res, 1, f, &err), 0);
	fclose(f);
	json_object_put(res[0]);
	return buf;
}

static void test_bonnie_file_params(void **state)
{
	char *l;

	(void)state;
	l = bonnie_line("\"concurrency\":1,\"seed\":7,\"num_files\":1,\"file_max_bytes\":4096,"
			"\"file_min_bytes\":1024,\"num_dirs\":4,\"file_chunk_bytes\":4096");
	if (!strstr(l, ",vm,1,7,,,,,,,,,,,,,,,,,1,4096,1024,,4,1566,4,,,"))
		fail_msg("-s 0 -n 1:4096:1024:4:4k: %s", l);
	free(l);
	l = bonnie_line("\"num_files\":2,\"file_max_bytes\":-2,\"file_min_bytes\":0,\"num_dirs\":1");
	if (!strstr(l, ",,2,symlink,,,,1566,4,"))
		fail_msg("-n 2:-2: %s", l);
	free(l);
	l = bonnie_line("\"num_files\":1,\"file_max_bytes\":2000,\"file_min_bytes\":0,\"num_dirs\":1,"
			"\"file_size_bytes\":1073741824,\"chunk_bytes\":4096,\"seeks\":100,\"seek_procs\":2");
	if (!strstr(l, ",1G,,100,2,") || !strstr(l, ",,1,2000,,,,1566,4,"))
		fail_msg("-s 1024:4096:100:2 -n 1:2000: %s", l);
	free(l);
}

/* bonnie++ prints "+++++" (and "+++" for %CPU) for a test that took less
 * than half a second, and seeks of 1000/s or more without a decimal. */
static void test_bonnie_too_fast(void **state)
{
	struct json_object *res[1] = { sb_test_load("results/omv-ext4-lvm.json") };
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
		res[i] = sb_test_load(files[i]);
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

	snprintf(good, sizeof(good), "%s/tests/golden/results/ext4.json", sb_test_srcdir());
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

	snprintf(dir, sizeof(dir), "%s/tests/golden/results", sb_test_srcdir());
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
	snprintf(want_path, sizeof(want_path), "%s/tests/golden/expected/helios4.txt", sb_test_srcdir());
	f = fopen(want_path, "r");
	assert_non_null(f);
	assert_int_equal(fread(want, 1, sizeof(want) - 1, f) > 0, 1);
	fclose(f);
	assert_string_equal(got, want);
}

/* The format table: every name parses (md as markdown's alias), an
 * unknown one is refused naming them all, and each format renders. */
static void test_format_table(void **state)
{
	struct json_object *res[1] = { sb_test_load("results/ext4.json") };
	struct sb_table_opts o = { 0 };
	const char *names = sb_table_format_names();
	struct sb_err err = { 0 };
	enum sb_table_format f;
	char *buf, *save = NULL, *tok, *copy = strdup(names);
	size_t len;
	FILE *m;

	assert_string_equal(names, "text, markdown, csv, json, bonnie-csv, html, fio-matrix");
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		assert_int_equal(sb_table_format_parse(tok, &f, NULL), 0);
		if (f == SB_FMT_FIO_MATRIX)     /* refuses results without fio-matrix */
			continue;
		o.format = f;
		buf = NULL;
		m = open_memstream(&buf, &len);
		assert_non_null(m);
		if (sb_table_render(res, 1, &o, m, &err) < 0)
			fail_msg("%s: %s", tok, err.msg);
		fclose(m);
		assert_true(len > 0);
		free(buf);
	}
	free(copy);
	assert_int_equal(sb_table_format_parse("md", &f, NULL), 0);
	assert_int_equal(f, SB_FMT_MARKDOWN);
	assert_int_equal(sb_table_format_parse("xml", &f, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown format 'xml' (text, markdown, csv, json, bonnie-csv, html, fio-matrix)"));
	json_object_put(res[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_bonnie_line),
		cmocka_unit_test(test_bonnie_too_fast),
		cmocka_unit_test(test_bonnie_file_params),
		cmocka_unit_test(test_fio_matrix),
		cmocka_unit_test(test_goldens),
		cmocka_unit_test(test_bon_tools),
		cmocka_unit_test(test_cmd_compare_bad_file),
		cmocka_unit_test(test_cmd_compare_dir),
		cmocka_unit_test(test_format_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
