/* What is derived from a stack description: matrix expansion and the
 * stack names it makes, the JSON the results file records, the one-line
 * summary of the tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "fixture.h"
#include "spec/spec.h"

static void test_matrix(void **st)
{
	static const char y[] =
		"name: mx\n"
		"raid: {level: 1}\n"
		"luks: {key_size: 256}\n"
		"matrix:\n"
		"  luks.sector_size: [512, 4096]\n"
		"  luks.cipher: [aes-xts-plain64, 'aes-cbc-essiv:sha256', serpent-cbc-plain]\n";
	struct sb_err e;
	struct sb_spec_list l = sb_t_load(y, 0, &e);
	const char *names[] = { "mx-512-aes-xts-plain64", "mx-512-aes-cbc-essiv-sha256", "mx-512-serpent-cbc-plain",
				"mx-4096-aes-xts-plain64", "mx-4096-aes-cbc-essiv-sha256", "mx-4096-serpent-cbc-plain" };
	unsigned i;

	(void)st;
	assert_int_equal(l.n, 6);
	for (i = 0; i < 6; i++) {
		assert_string_equal(l.items[i].name, names[i]);
		assert_int_equal(l.items[i].luks.sector_size, i < 3 ? 512 : 4096);
		assert_int_equal(l.items[i].luks.key_size, 256);
		assert_int_equal(l.items[i].raid.devices, 2);
	}
	assert_string_equal(l.items[4].luks.cipher, "aes-cbc-essiv:sha256");
	sb_spec_list_free(&l);

	/* --set applies on top of every expansion */
	{
		const char *sets[] = { "devices.loop.size=128MiB" }, *y2 = "matrix: {raid.level: [1, 10]}\nraid: {}\n";

		assert_int_equal(sb_spec_load_buffer(y2, strlen(y2), "t.yml", sets, 1, &l, &e), 0);
		assert_int_equal(l.n, 2);
		assert_string_equal(l.items[0].name, "t-1");
		assert_string_equal(l.items[1].name, "t-10");
		assert_int_equal(l.items[1].raid.devices, 4);
		assert_int_equal(l.items[1].devices.loop.size, 128ULL << 20);
		sb_spec_list_free(&l);
	}
	sb_t_load_bad("matrix:\n  luks.sektor: [1]\n",
		 "t.yml:2:3: unknown key 'luks.sektor'; allowed in luks: type, cipher, key_size, sector_size, integrity, pbkdf, flags, no_read_workqueue, no_write_workqueue, same_cpu_crypt, allow_discards, read_ahead_kb");
	sb_t_load_bad("matrix:\n  luks.sector_size: 512\n",
		 "t.yml:2:21: matrix: luks.sector_size: expected a non-empty list of values, got a scalar");
	sb_t_load_bad("matrix: [1]\n",
		 "t.yml:1:1: matrix: expected a mapping of dotted key -> list of values, e.g. luks.sector_size: [512, 4096]");
	/* an invalid value points at the matrix entry and names the combination */
	sb_t_load_bad("luks: {}\nmatrix:\n  luks.sector_size: [512, 333]\n",
		 "t.yml:3:27: luks.sector_size: '333' is not allowed; allowed: 512, 1024, 2048, 4096 (matrix combination 2 of 2)");
	sb_t_load_bad("matrix:\n  bench.repeat: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]\n  bench.files: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n",
		 "t.yml:1:1: matrix: expands into more than 256 stacks; split it into several files");
	sb_t_load_bad("matrix:\n  description: [a b, a-b]\n",
		 "t.yml:1:1: matrix: two combinations get the same stack name 't-a-b'; use values that differ in letters or digits");
}

static void test_json(void **st)
{
	struct sb_err e;
	struct sb_spec_list l = sb_t_load("raid: {level: 10}\nluks: {}\nlvm: {}\n", 0, &e);
	struct json_object *j, *sec, *v;

	(void)st;
	assert_int_equal(sb_spec_to_json(&l.items[0], &j), 0);
	assert_true(json_object_object_get_ex(j, "name", &v));
	assert_string_equal(json_object_get_string(v), "t");
	assert_true(json_object_object_get_ex(j, "devices", &sec));
	assert_true(json_object_object_get_ex(sec, "kind", &v));
	assert_string_equal(json_object_get_string(v), "loop");
	assert_true(json_object_object_get_ex(sec, "loop", &sec));
	assert_true(json_object_object_get_ex(sec, "size", &v));
	assert_int_equal(json_object_get_int64(v), 1LL << 30);
	assert_true(json_object_object_get_ex(sec, "count", &v));
	assert_int_equal(json_object_get_int64(v), 4);
	assert_true(json_object_object_get_ex(j, "raid", &sec));
	assert_true(json_object_object_get_ex(sec, "chunk", &v));
	assert_int_equal(json_object_get_int64(v), 512 * 1024);
	assert_true(json_object_object_get_ex(sec, "layout", &v));
	assert_string_equal(json_object_get_string(v), "near2");
	assert_true(json_object_object_get_ex(sec, "sync", &v));
	assert_string_equal(json_object_get_string(v), "assume-clean");
	assert_true(json_object_object_get_ex(j, "luks", &sec));
	assert_true(json_object_object_get_ex(sec, "key_size", &v));
	assert_int_equal(json_object_get_int64(v), 512);
	assert_true(json_object_object_get_ex(sec, "pbkdf", &sec));
	assert_true(json_object_object_get_ex(sec, "memory", &v));
	assert_int_equal(json_object_get_int64(v), 32LL << 20);
	assert_true(json_object_object_get_ex(sec, "iterations", &v));
	assert_int_equal(json_object_get_int64(v), 1000);
	assert_true(json_object_object_get_ex(j, "lvm", &sec));
	assert_true(json_object_object_get_ex(sec, "extent_size", &v));
	assert_int_equal(json_object_get_int64(v), 4LL << 20);
	assert_true(json_object_object_get_ex(j, "bench", &sec));
	assert_true(json_object_object_get_ex(sec, "runtime", &v));
	assert_int_equal(json_object_get_int64(v), 0);
	assert_true(json_object_object_get_ex(sec, "suites", &v));
	assert_int_equal(json_object_array_length(v), 1);
	assert_true(json_object_object_get_ex(j, "fs", &sec));
	assert_true(json_object_object_get_ex(sec, "block_size", &v));
	assert_int_equal(json_object_get_int64(v), 4096);
	assert_false(json_object_object_get_ex(j, "matrix", &v));
	json_object_put(j);
	sb_spec_list_free(&l);

	l = sb_t_load("{}\n", 0, &e);
	assert_int_equal(sb_spec_to_json(&l.items[0], &j), 0);
	assert_true(json_object_object_get_ex(j, "luks", &sec));
	assert_string_equal(json_object_to_json_string_ext(sec, JSON_C_TO_STRING_PLAIN), "{\"enabled\":false}");
	json_object_put(j);
	sb_spec_list_free(&l);
}

static void test_summary(void **st)
{
	struct sb_err e;
	struct sb_spec_list l = sb_t_load("raid: {level: 1}\nluks: {sector_size: 4096}\n", 0, &e);
	char buf[256];

	(void)st;
	sb_spec_summary(&l.items[0], buf, sizeof(buf));
	assert_string_equal(buf, "RAID1 ×2 on loop 2×1 GiB (512 B sectors) → LUKS2 aes-xts-plain64/512, 4096 B sectors → ext4 4 KiB");
	sb_spec_list_free(&l);
	l = sb_t_load("{}\n", 0, &e);
	sb_spec_summary(&l.items[0], buf, sizeof(buf));
	assert_string_equal(buf, "loop 1×1 GiB (512 B sectors) → ext4 4 KiB");
	sb_spec_list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
