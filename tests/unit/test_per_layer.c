/* The per-layer expectation model (src/report/per_layer.c) on made-up rows:
 * RAID1 and RAID10 over measured members, a mapping over what is below,
 * LUKS under a cipher ceiling, and a userspace cipher figure that is no
 * ceiling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "report/per_layer.h"

static struct json_object *row(const char *layer, double w, double r, double iops)
{
	struct json_object *o = json_object_new_object(), *f = json_object_new_object();

	json_object_object_add(o, "layer", json_object_new_string(layer));
	json_object_object_add(o, "device", json_object_new_string("/dev/x"));
	json_object_object_add(f, "seq_write_mbs", json_object_new_double(w));
	json_object_object_add(f, "seq_read_mbs", json_object_new_double(r));
	json_object_object_add(f, "randread_4k_iops", json_object_new_double(iops));
	json_object_object_add(o, "figures", f);
	return o;
}

static double get(struct json_object *rows, size_t i, const char *part, unsigned k)
{
	struct sb_pl_figs f;

	sb_pl_get(json_object_array_get_idx(rows, i), part, &f);
	return f.v[k];
}

static const char *limit(struct json_object *rows, size_t i)
{
	struct json_object *v;

	json_object_object_get_ex(json_object_array_get_idx(rows, i), "limit", &v);
	return json_object_get_string(v);
}

static void test_raid1_luks(void **state)
{
	struct sb_stack_spec spec;
	struct json_object *rows = json_object_new_array(), *luks, *c;

	memset(&spec, 0, sizeof(spec));
	spec.raid.enabled = true;
	spec.raid.level = 1;
	json_object_array_add(rows, row("loop", 500, 900, 10000));
	json_object_array_add(rows, row("loop", 400, 1100, 12000));
	json_object_array_add(rows, row("md", 390, 950, 20000));
	luks = row("luks", 183, 200, 9000);
	c = json_object_new_object();
	json_object_object_add(c, "encrypt_mbs", json_object_new_double(190));
	json_object_object_add(c, "decrypt_mbs", json_object_new_double(400));
	json_object_object_add(luks, "cipher_ceiling", c);
	json_object_array_add(rows, luks);
	sb_per_layer_expect(rows, &spec);
	/* members: nothing below */
	assert_true(get(rows, 0, "expected", 0) < 0);
	assert_non_null(strstr(limit(rows, 0), "the base of the stack"));
	/* RAID1: write = slowest member, read = one member (mean), randread = sum */
	assert_true(get(rows, 2, "expected", 0) == 400);
	assert_true(get(rows, 2, "expected", 1) == 1000);
	assert_true(get(rows, 2, "expected", 2) == 22000);
	assert_true(get(rows, 2, "pct_of_below", 0) == 86.7);  /* 390 of the 450 mean */
	/* LUKS: write capped by the cipher (190 < 390), read by what is below */
	assert_true(get(rows, 3, "expected", 0) == 190);
	assert_true(get(rows, 3, "expected", 1) == 400);
	assert_string_equal(limit(rows, 3), "luks: 4k randread 9000 of 20000 IOPS expected (45 %): "
			    "what is below, under the cipher ceiling; it gets less than that allows");
	json_object_put(rows);
}

static void test_cipher_no_ceiling(void **state)
{
	struct sb_stack_spec spec;
	struct json_object *rows = json_object_new_array(), *luks, *c;

	memset(&spec, 0, sizeof(spec));
	json_object_array_add(rows, row("loop", 1000, 1000, 1000));
	luks = row("luks", 150, 90, 500);
	c = json_object_new_object();
	json_object_object_add(c, "encrypt_mbs", json_object_new_double(43));
	json_object_object_add(luks, "cipher_ceiling", c);
	json_object_array_add(rows, luks);
	sb_per_layer_expect(rows, &spec);
	/* 150 measured through dm-crypt > 43 from userspace: not a ceiling */
	assert_true(get(rows, 1, "expected", 0) == 1000);
	assert_true(get(rows, 1, "pct_of_below", 1) == 9);
	json_object_put(rows);
}

static void test_raid10_far(void **state)
{
	struct sb_stack_spec spec;
	struct json_object *rows = json_object_new_array();
	unsigned i;

	memset(&spec, 0, sizeof(spec));
	spec.raid.enabled = true;
	spec.raid.level = 10;
	spec.raid.copies = 2;
	strcpy(spec.raid.md_layout, "f2");
	for (i = 0; i < 4; i++)
		json_object_array_add(rows, row("loop", 100 + i * 10, 200, 1000));
	json_object_array_add(rows, row("md", 180, 700, 3900));
	json_object_array_add(rows, row("lvm", 170, 690, 3800));
	sb_per_layer_expect(rows, &spec);
	assert_true(get(rows, 4, "expected", 0) == 200);   /* 4 / 2 x slowest 100 */
	assert_true(get(rows, 4, "expected", 1) == 800);   /* far: 4 x 200 */
	assert_true(get(rows, 4, "expected", 2) == 4000);
	strcpy(spec.raid.md_layout, "n2");
	sb_per_layer_expect(rows, &spec);
	assert_true(get(rows, 4, "expected", 1) == 400);   /* near: 4 / 2 x 200 */
	/* LVM: what is below */
	assert_true(get(rows, 5, "expected", 1) == 700);
	assert_non_null(strstr(limit(rows, 5), "lvm: "));
	json_object_put(rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raid1_luks),
		cmocka_unit_test(test_cipher_no_ceiling),
		cmocka_unit_test(test_raid10_far),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
