/* The layers' own report rows (report/layer_report.h, issue 26): the
 * columns luks_sector, cipher, crypto_driver, cipher_ceiling (luks),
 * degraded and stripe_cache (md) read as they did when report/ named the layers; every
 * layer column resolves by its name to its own layer, is listed once and
 * collides with no fixed column; the HTML report's "asked != read back"
 * items (loop, LUKS, md), its rebuild command line (loop's count and
 * size) and the roles of the devices (md's members and arrays) come from
 * the layers' hooks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/layer.h"
#include "report/html.h"
#include "report/results.h"
#include "report/table.h"

/* A: everything asked differs from what was read back; the array failed a
 * member. B: LUKS asked, no build. C: neither LUKS nor md (LUKS disabled).
 * D: md degraded by md's own view, E: md without that figure. */
static const char *const files[] = {
	"{\"host\": {\"hostname\": \"h\"}, \"stack\": {\"name\": \"A\", \"source\": \"a.yml\","
	" \"requested\": {\"devices\": {\"loop\": {\"count\": 2, \"size\": 1073741824, \"direct_io\": true,"
	"  \"sector_size\": 4096}}, \"raid\": {\"level\": 5},"
	"  \"luks\": {\"cipher\": \"aes-cbc-essiv:sha256\", \"key_size\": 256, \"sector_size\": 512,"
	"  \"type\": \"luks2\"}},"
	" \"built\": [{\"layer\": \"loop\", \"loop_devices\": [{\"dev\": \"/dev/loop0\", \"direct_io\": false,"
	"  \"logical_block_size\": 512}]},"
	"  {\"layer\": \"md\", \"level\": \"raid1\", \"degraded\": 0, \"members\": [{\"device\": \"sda\"}]},"
	"  {\"layer\": \"luks\", \"cipher\": \"aes-xts-plain64\", \"key_size\": 512, \"sector_size\": 4096,"
	"  \"type\": \"LUKS2\", \"crypto_driver\": {\"name\": \"xts(aes)\", \"driver\": \"mv-xts-aes\"}}]},"
	" \"faults\": {\"fail\": {\"fired\": true, \"at_s\": 3.04}},"
	" \"environment\": {\"md_tunables\": {\"stripe_cache_size\": 4096}},"
	" \"ciphers\": {\"dm_crypt\": [{\"sectors\": {\"4096\": {\"encrypt_mbs\": 90, \"decrypt_mbs\": 120},"
	"  \"512\": {\"encrypt_mbs\": 10, \"decrypt_mbs\": 10}}}]},"
	" \"suites\": [{\"suite\": \"dd\", \"repetition\": 1, \"figures\": {},"
	"  \"disk_util\": [{\"name\": \"dm-0\", \"util_pct\": 4}, {\"name\": \"md127\", \"util_pct\": 3},"
	"  {\"name\": \"loop9\", \"util_pct\": 2}, {\"name\": \"sda\", \"util_pct\": 1}],"
	"  \"stack_state_after\": {\"md\": {\"degraded\": 1, \"failed_members\": [\"loop1\"]}}}]}",
	"{\"host\": {}, \"stack\": {\"name\": \"B\", \"requested\": {\"luks\": {\"sector_size\": 512,"
	" \"cipher\": \"aes-xts-plain64\"}}}}",
	"{\"stack\": {\"name\": \"C\", \"requested\": {\"luks\": {\"enabled\": false}}, \"built\": []}}",
	"{\"stack\": {\"name\": \"D\", \"built\": [{\"layer\": \"md\", \"degraded\": 1}]}}",
	"{\"stack\": {\"name\": \"E\", \"built\": [{\"layer\": \"md\"}]}}",
};
#define NF (sizeof(files) / sizeof(files[0]))

static const char *const want[NF][5] = {
	/* luks_sector, cipher, crypto_driver, degraded, stripe_cache */
	{ "4096", "aes-xts-plain64", "mv-xts-aes", "loop1 at 3.0 s", "4096" },
	{ "512", "aes-xts-plain64", "?", "-", "-" },
	{ "no luks", "none", "none", "-", "-" },
	{ "no luks", "none", "none", "yes", "-" },
	{ "no luks", "none", "none", "?", "-" },
};

static struct json_object *res[NF];

static int setup(void **state)
{
	(void)state;
	for (size_t i = 0; i < NF; i++)
		if (!(res[i] = json_tokener_parse(files[i])))
			return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < NF; i++)
		json_object_put(res[i]);
	return 0;
}

static void test_columns(void **state)
{
	struct sb_table_opts o = { .columns = "stack,luks_sector,cipher,crypto_driver,degraded,stripe_cache,"
					       "cipher_ceiling" };
	struct sb_err err = { 0 };
	struct sb_table t;

	(void)state;
	assert_int_equal(sb_table_build(res, NF, &o, &t, &err), 0);
	assert_int_equal(t.nrows, NF);
	assert_string_equal(t.cols[1].header, "LUKS sector size");
	assert_string_equal(t.cols[2].header, "encryption");
	assert_string_equal(t.cols[3].header, "crypto driver");
	assert_string_equal(t.cols[4].header, "degraded");
	assert_string_equal(t.cols[5].header, "md stripe cache");
	assert_string_equal(t.cols[6].header, "cipher MB/s");
	assert_true(t.cols[6].numeric);
	for (unsigned r = 0; r < NF; r++) {
		unsigned f;

		for (f = 0; f < NF && strcmp(sb_results_stack_name(res[f]), t.row_stack[r]); f++)
			;
		assert_true(f < NF);
		for (unsigned c = 0; c < 5; c++)
			assert_string_equal(sb_table_cell(&t, r, c + 1)->str, want[f][c]);
		/* the slower direction at the mapping's own sector size (4096) */
		assert_int_equal(sb_table_cell(&t, r, 6)->present, f == 0);
		if (f == 0)
			assert_true(sb_table_cell(&t, r, 6)->med == 90);
	}
	sb_table_free(&t);
}

/* Each layer's column resolves to that layer, by its name, once. */
static void test_registry(void **state)
{
	const char *names = sb_column_names();
	const struct sb_layer_ops *ops;
	unsigned n = 0;

	(void)state;
	for (unsigned i = 0; (ops = sb_layer_at(i)); i++)
		for (const struct sb_layer_column *c = ops->report ? ops->report->columns : NULL; c && c->name; c++) {
			struct sb_column col;
			char word[140];

			assert_int_equal(sb_column_resolve(c->name, &col, NULL), 0);
			assert_ptr_equal(col.lcol, c);
			assert_string_equal(col.layer.name, ops->name);
			assert_non_null(c->cell);
			assert_non_null(c->note);
			snprintf(word, sizeof(word), "%s, ", c->name);
			assert_non_null(strstr(names, word));
			assert_null(strstr(strstr(names, word) + 1, word));
			n++;
		}
	assert_true(n >= 6);   /* luks's four and md's two at least */
	assert_string_equal(sb_column_stack_defaults(), "setup,luks_sector,cipher");
}

static char *render(struct json_object *r)
{
	struct sb_table_opts o = { .columns = "stack,luks_sector" };
	struct sb_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(sb_html_render(&r, NULL, 1, &o, f, &err), 0);
	fclose(f);
	return buf;
}

#define MIS "<li class=\"mismatch\"><strong>asked \xe2\x89\xa0 read back:</strong> "

static void test_html(void **state)
{
	char *html = render(res[0]);
	const char *loop, *heat;

	(void)state;
	loop = strstr(html, MIS "/dev/loop0 direct I/O asked true, read back false</li>");
	assert_non_null(loop);
	assert_non_null(strstr(loop, MIS "/dev/loop0 logical sector size asked 4096, read back 512</li>"));
	assert_non_null(strstr(loop, MIS "LUKS cipher asked aes-cbc-essiv:sha256, read back aes-xts-plain64</li>"));
	assert_non_null(strstr(loop, MIS "LUKS key_size asked 256, read back 512</li>"));
	assert_non_null(strstr(loop, MIS "LUKS sector_size asked 512, read back 4096</li>"));
	assert_non_null(strstr(loop, MIS "RAID level asked raid5, read back raid1</li>"));
	assert_null(strstr(html, "LUKS type"));   /* luks2 and LUKS2 are the same */
	assert_non_null(strstr(html, "build-and-test a.yml --set devices.loop.count=2 "
				     "--set devices.loop.size=1GiB</code>"));
	/* members, other devices, md arrays, device-mapper: bottom up */
	heat = strstr(html, "<table class=\"heat\">");
	assert_non_null(heat);
	assert_non_null(strstr(heat, "sda <span class=\"unit\">(RAID member)</span>"));
	assert_true(strstr(heat, "sda <span") < strstr(heat, "loop9 <span class=\"unit\">(device)</span>"));
	assert_true(strstr(heat, "loop9 <span") < strstr(heat, "md127 <span class=\"unit\">(md array)</span>"));
	assert_true(strstr(heat, "md127 <span") < strstr(heat, "dm-0 <span class=\"unit\">(device-mapper)</span>"));
	free(html);
	html = render(res[1]);   /* nothing built: nothing to compare */
	assert_null(strstr(html, "class=\"mismatch\""));
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_html),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
