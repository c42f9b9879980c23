/* The per-layer expectation models (each layer's pl_model, applied by
 * run/per_layer.c's sb_per_layer_expect) on made-up rows: RAID1, RAID10,
 * RAID5 and RAID6 over measured members, a mapping over what is below,
 * LUKS under a cipher ceiling and a userspace cipher figure that is no
 * ceiling, dm-integrity with and without its journal, dm-cache by the hit
 * rate it counted, btrfs's raid1/raid10/dup profiles (a row measured on a
 * file of the filesystem). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "report/per_layer.h"
#include "run/per_layer.h"

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

static const char *model(struct json_object *rows, size_t i, unsigned k)
{
	struct json_object *m, *v;

	json_object_object_get_ex(json_object_array_get_idx(rows, i), "model", &m);
	return json_object_object_get_ex(m, sb_pl_keys[k], &v) && v ? json_object_get_string(v) : "(none)";
}

static const char *note(struct json_object *rows, size_t i)
{
	struct json_object *v;

	return json_object_object_get_ex(json_object_array_get_idx(rows, i), "model_note", &v) ?
		json_object_get_string(v) : "(none)";
}

static struct sb_spec_list load(const char *yaml)
{
	struct sb_err err = { 0 };

	return sb_t_load(yaml, 0, &err);
}

/* RAID5 on 4 members: writes 3 x the slowest, a stream 3 x the mean,
 * random reads the sum; 1 MiB is no whole 3 x 512 KiB stripe. */
static void test_raid5(void **state)
{
	struct sb_spec_list l = load("devices: {loop: {count: 4, size: 1GiB}}\nraid: {level: 5, devices: 4}\n");
	struct json_object *rows = json_object_new_array();
	unsigned i;

	for (i = 0; i < 4; i++)
		json_object_array_add(rows, row("loop", 180 - i * 10, 200, 1000));
	json_object_array_add(rows, row("md", 300, 550, 3800));
	sb_per_layer_expect(rows, &l.items[0]);
	assert_true(get(rows, 4, "expected", 0) == 450);   /* 3 x 150 */
	assert_true(get(rows, 4, "expected", 1) == 600);   /* 3 x 200 */
	assert_true(get(rows, 4, "expected", 2) == 4000);
	assert_non_null(strstr(model(rows, 4, 0), "RAID5: full stripes write (members - 1) = 3 x the slowest"));
	assert_non_null(strstr(model(rows, 4, 1), "RAID5: a stream reads (members - 1) = 3 x a member (up to 4 x on non-rotational"));
	assert_null(strstr(limit(rows, 4), "RAID1"));
	assert_non_null(strstr(note(rows, 4), "partial stripes (a stripe is 3 x 512 KiB = 1536 KiB)"));
	assert_non_null(strstr(note(rows, 4), "up to 4 I/Os per small write"));
	assert_true(get(rows, 4, "pct_of_below", 1) == 275);   /* of the mean member */
	json_object_put(rows);
	sb_spec_list_free(&l);
}

/* Non-rotational members (md's pl_observe recorded "nonrot_members"): a
 * stream reads every member: RAID10 near sends each chunk to the least
 * busy copy (raid10.c read_balance: any non-rotational copy), RAID5/6 skip
 * the parity chunks at no cost (every member non-rotational). Rotational
 * or not recorded: n / copies and n - parity, as before; RAID1 one member
 * either way (its sequential reads stay on one mirror). The model
 * measured against device-bound members: tests/bench/model_bands.sh. */
static void test_nonrot_streams(void **state)
{
	struct sb_spec_list l5 = load("devices: {loop: {count: 3, size: 1GiB}}\nraid: {level: 5, devices: 3}\n");
	struct sb_spec_list l1 = load("devices: {loop: {count: 2, size: 1GiB}}\nraid: {level: 1, devices: 2}\n");
	struct sb_stack_spec s10;
	struct json_object *r10 = json_object_new_array(), *r5 = json_object_new_array(), *r1 = json_object_new_array();
	unsigned i;

	(void)state;
	memset(&s10, 0, sizeof(s10));
	s10.raid.enabled = true;
	s10.raid.level = 10;
	s10.raid.copies = 2;
	strcpy(s10.raid.md_layout, "n2");
	for (i = 0; i < 4; i++)
		json_object_array_add(r10, row("loop", 8, 8, 400));
	json_object_array_add(r10, row("md", 16, 32, 1600));
	for (i = 0; i < 3; i++)
		json_object_array_add(r5, row("loop", 8, 8, 400));
	json_object_array_add(r5, row("md", 16, 24, 1200));
	for (i = 0; i < 2; i++)
		json_object_array_add(r1, row("loop", 8, 8, 400));
	json_object_array_add(r1, row("md", 8, 8, 800));
	sb_per_layer_expect(r10, &s10);                        /* not recorded */
	assert_true(get(r10, 4, "expected", 1) == 16);
	assert_non_null(strstr(model(r10, 4, 1), "every member when they are non-rotational"));
	json_object_object_add(json_object_array_get_idx(r10, 4), "nonrot_members", json_object_new_int(0));
	sb_per_layer_expect(r10, &s10);
	assert_true(get(r10, 4, "expected", 1) == 16);
	assert_non_null(strstr(model(r10, 4, 1), "rotational members"));
	json_object_object_add(json_object_array_get_idx(r10, 4), "nonrot_members", json_object_new_int(1));
	sb_per_layer_expect(r10, &s10);
	assert_true(get(r10, 4, "expected", 1) == 32);         /* 4 x 8 */
	assert_true(get(r10, 4, "expected", 0) == 16);         /* writes: 2 x the slowest still */
	assert_non_null(strstr(model(r10, 4, 1), "RAID10 near/offset: on non-rotational members each chunk"));
	sb_per_layer_expect(r5, &l5.items[0]);
	assert_true(get(r5, 3, "expected", 1) == 16);          /* 2 x 8 */
	json_object_object_add(json_object_array_get_idx(r5, 3), "nonrot_members", json_object_new_int(2));
	sb_per_layer_expect(r5, &l5.items[0]);
	assert_true(get(r5, 3, "expected", 1) == 16);          /* one rotational member: n - 1 */
	json_object_object_add(json_object_array_get_idx(r5, 3), "nonrot_members", json_object_new_int(3));
	sb_per_layer_expect(r5, &l5.items[0]);
	assert_true(get(r5, 3, "expected", 1) == 24);          /* 3 x 8 */
	assert_true(get(r5, 3, "expected", 0) == 16);
	assert_non_null(strstr(model(r5, 3, 1), "RAID5: on non-rotational members a stream reads every member = 3 x"));
	json_object_object_add(json_object_array_get_idx(r1, 2), "nonrot_members", json_object_new_int(2));
	sb_per_layer_expect(r1, &l1.items[0]);
	assert_true(get(r1, 2, "expected", 1) == 8);
	json_object_put(r10);
	json_object_put(r5);
	json_object_put(r1);
	sb_spec_list_free(&l5);
	sb_spec_list_free(&l1);
}

/* btrfs over its members: raid1 is md's RAID1 arithmetic for writes
 * (the slowest member) and a stream (one member), but one job's random
 * reads go to one copy: one member's IOPS, not the sum; raid10 on 4:
 * 2 x each; on 3 devices a chunk still takes 2 (1 x); dup on one device
 * halves the writes. */
static void test_btrfs_profiles(void **state)
{
	static const char *const y[] = {
		"devices: {loop: {count: 2, size: 1GiB}}\nfs: {type: btrfs, data_profile: raid1}\n",
		"devices: {loop: {count: 4, size: 1GiB}}\nfs: {type: btrfs, data_profile: raid10}\n",
		"devices: {loop: {count: 3, size: 1GiB}}\nfs: {type: btrfs, data_profile: raid10}\n",
		"devices: {loop: {size: 1GiB}}\nfs: {type: btrfs, data_profile: dup}\n",
	};
	static const double want[4][3] = { { 90, 210, 1050 }, { 180, 460, 2300 }, { 90, 220, 1100 }, { 45, 200, 1000 } };
	static const char *const words[4] = { "btrfs raid1: two copies of every block: 1 x the slowest",
					      "btrfs raid10: two copies of every block: 2 x the slowest",
					      "btrfs raid10: two copies of every block: 1 x the slowest",
					      "btrfs dup: every block written twice" };
	unsigned c, i, n;

	(void)state;
	for (c = 0; c < 4; c++) {
		struct sb_spec_list l = load(y[c]);
		struct json_object *rows = json_object_new_array();

		n = c == 3 ? 1 : c == 2 ? 3 : c == 1 ? 4 : 2;
		for (i = 0; i < n; i++)
			json_object_array_add(rows, row("loop", 90 + i * 10, 200 + i * 20, 1000 + i * 100));
		json_object_array_add(rows, row("btrfs", 80, 190, 900));
		sb_per_layer_expect(rows, &l.items[0]);
		for (i = 0; i < 3; i++)
			if (get(rows, n, "expected", i) < want[c][i] - 1e-9 || get(rows, n, "expected", i) > want[c][i] + 1e-9)
				fail_msg("case %u key %u: expected %g, the model gave %g", c, i, want[c][i],
					 get(rows, n, "expected", i));
		assert_non_null(strstr(model(rows, n, 0), words[c]));
		if (c < 3)
			assert_non_null(strstr(model(rows, n, 2), "its pid picks"));
		assert_non_null(strstr(note(rows, n), "measured on a file of the mounted filesystem"));
		json_object_put(rows);
		sb_spec_list_free(&l);
	}
}

/* RAID6 on 4 members with a 256 KiB chunk: 2 data members, 1 MiB is two
 * whole stripes. */
static void test_raid6(void **state)
{
	struct sb_spec_list l = load("devices: {loop: {count: 4, size: 1GiB}}\nraid: {level: 6, devices: 4, chunk: 256KiB}\n");
	struct json_object *rows = json_object_new_array();
	unsigned i;

	for (i = 0; i < 4; i++)
		json_object_array_add(rows, row("loop", 100, 200 + i * 20, 1000));
	json_object_array_add(rows, row("md", 150, 420, 3000));
	sb_per_layer_expect(rows, &l.items[0]);
	assert_true(get(rows, 4, "expected", 0) == 200);   /* 2 x 100 */
	assert_true(get(rows, 4, "expected", 1) == 460);   /* 2 x 230 */
	assert_non_null(strstr(model(rows, 4, 0), "RAID6: full stripes write (members - 2) = 2 x"));
	assert_non_null(strstr(note(rows, 4), "cover whole stripes (2 x 256 KiB = 512 KiB)"));
	json_object_put(rows);
	sb_spec_list_free(&l);
}

/* dm-integrity on each member: the journal halves the writes of the
 * member of the same index; without it the member's. */
static void test_integrity(void **state)
{
	struct sb_spec_list j = load("devices: {loop: {count: 2, size: 1GiB}}\nintegrity: {journal: journal}\n"
				     "raid: {level: 1}\n");
	struct sb_spec_list n = load("devices: {loop: {count: 2, size: 1GiB}}\nintegrity: {journal: none}\n"
				     "raid: {level: 1}\n");
	struct json_object *rows = json_object_new_array();

	json_object_array_add(rows, row("loop", 400, 900, 10000));
	json_object_array_add(rows, row("loop", 200, 1100, 12000));
	json_object_array_add(rows, row("integrity", 150, 800, 9000));
	json_object_array_add(rows, row("integrity", 90, 1000, 11000));
	json_object_array_add(rows, row("md", 90, 900, 20000));
	sb_per_layer_expect(rows, &j.items[0]);
	assert_true(get(rows, 2, "expected", 0) == 200);   /* 1/2 x 400 */
	assert_true(get(rows, 3, "expected", 0) == 100);   /* 1/2 x 200 */
	assert_true(get(rows, 3, "expected", 1) == 1100);
	assert_non_null(strstr(model(rows, 2, 0), "integrity with a journal"));
	/* md over the integrity devices: RAID1's model on their figures */
	assert_true(get(rows, 4, "expected", 0) == 90);
	sb_per_layer_expect(rows, &n.items[0]);
	assert_true(get(rows, 3, "expected", 0) == 200);
	assert_non_null(strstr(model(rows, 3, 0), "integrity without a journal (none)"));
	json_object_put(rows);
	sb_spec_list_free(&j);
	sb_spec_list_free(&n);
}

static struct json_object *cache_row(double hr, double hw)
{
	struct json_object *r = row("cache", 90, 300, 5000), *c = json_object_new_object();

	json_object_object_add(c, "fast_seq_read_mbs", json_object_new_double(1000));
	json_object_object_add(c, "fast_randread_4k_iops", json_object_new_double(50000));
	json_object_object_add(c, "read_hit_rate", json_object_new_double(hr));
	json_object_object_add(c, "write_hit_rate", json_object_new_double(hw));
	json_object_object_add(r, "cache", c);
	return r;
}

/* dm-cache: the fast device on hits, the origin on misses, by the hit
 * rate counted; writethrough writes at the origin's figure. */
static void test_cache(void **state)
{
	struct sb_spec_list wt = load("raid: {level: 1}\ncache: {mode: writethrough}\n");
	struct sb_spec_list wb = load("raid: {level: 1}\ncache: {mode: writeback}\n");
	struct json_object *rows = json_object_new_array();

	json_object_array_add(rows, row("md", 100, 250, 2000));
	json_object_array_add(rows, cache_row(0.5, 0.5));
	sb_per_layer_expect(rows, &wt.items[0]);
	assert_true(get(rows, 1, "expected", 0) == 100);
	assert_non_null(strstr(model(rows, 1, 0), "cache writethrough: every write reaches the origin"));
	/* 1 / (0.5 / 1000 + 0.5 / 250) = 400 */
	assert_true(get(rows, 1, "expected", 1) == 400);
	assert_true(get(rows, 1, "expected", 2) == 3846.2);   /* 1 / (0.5 / 50000 + 0.5 / 2000) */
	assert_non_null(strstr(model(rows, 1, 1), "reads hit 50 %"));
	sb_per_layer_expect(rows, &wb.items[0]);
	assert_true(get(rows, 1, "expected", 0) == 181.8);    /* 1 / (0.5 / 1000 + 0.5 / 100) */
	/* no counters: the origin's, and the sentence says why */
	json_object_object_del(json_object_array_get_idx(rows, 1), "cache");
	sb_per_layer_expect(rows, &wt.items[0]);
	assert_true(get(rows, 1, "expected", 1) == 250);
	assert_non_null(strstr(model(rows, 1, 1), "the hits were not counted"));
	json_object_put(rows);
	sb_spec_list_free(&wt);
	sb_spec_list_free(&wb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raid1_luks),
		cmocka_unit_test(test_cipher_no_ceiling),
		cmocka_unit_test(test_raid10_far),
		cmocka_unit_test(test_raid5),
		cmocka_unit_test(test_nonrot_streams),
		cmocka_unit_test(test_raid6),
		cmocka_unit_test(test_integrity),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_btrfs_profiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
