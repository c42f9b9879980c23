/* The layer registry as the one list: every layer type complete, the stack
 * order from .order/.wanted, keys and checks and summary pieces from the
 * layers' parts, kernel needs, and the per-layer storage slots. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/layer.h"
#include "core/stack.h"
#include "spec/part.h"

static void test_registry_complete(void **ctx)
{
	const struct sb_layer_ops *ops;
	unsigned i, n = 0;

	(void)ctx;
	for (i = 0; (ops = sb_layer_at(i)); i++, n++) {
		assert_non_null(ops->name);
		/* wanted: its own, or a filesystem's fs_type */
		assert_true(ops->wanted || (ops->spec && ops->spec->fs_type));
		assert_non_null(ops->plan);
		assert_non_null(ops->build);
		/* a layer records objects only if it can remove them */
		assert_true(!ops->teardown == !ops->exists);
		/* export sits over the mount: SB_ORDER_MOUNT + 5 */
		assert_true(ops->order >= SB_ORDER_DEVICES && ops->order < SB_ORDER_MOUNT + 10);
		assert_ptr_equal(sb_layer_find(ops->name), ops);
	}
	assert_true(n >= 8);
	assert_true(n <= SB_LAYER_SLOTS);
	assert_null(sb_layer_find("nonesuch"));
}

/* Every layer names itself for the report: a block layer or a filesystem
 * has a label, every layer but the mount a section; the labels land in a
 * results file's built objects, and a file's own words are replaced. */
static void test_labels(void **ctx)
{
	const struct sb_layer_ops *ops;
	struct json_object *built = json_object_new_array(), *o;
	unsigned i;

	(void)ctx;
	for (i = 0; (ops = sb_layer_at(i)); i++) {
		bool fs = ops->spec && !strcmp(ops->spec->parent, "fs");

		if ((ops->spec && ops->spec->block_device) || fs)
			assert_non_null(ops->label);
		if (ops->order != SB_ORDER_MOUNT)
			assert_true(ops->spec || ops->section);
		o = json_object_new_object();
		json_object_object_add(o, "layer", json_object_new_string(ops->name));
		json_object_object_add(o, "table_label", json_object_new_string("<planted>"));
		if (ops->fault_target)
			json_object_object_add(o, "level", json_object_new_string("raid6"));
		json_object_array_add(built, o);
	}
	o = json_object_new_object();
	json_object_object_add(o, "layer", json_object_new_string("nonesuch"));
	json_object_object_add(o, "table_label", json_object_new_string("<planted>"));
	json_object_array_add(built, o);
	sb_layer_label_built(built);
	for (i = 0; (ops = sb_layer_at(i)); i++) {
		struct json_object *l = json_object_array_get_idx(built, i), *v, *sec;

		json_object_object_get_ex(l, "table_label", &v);
		if (ops->label)
			assert_string_not_equal(json_object_get_string(v), "<planted>");
		else
			assert_null(v);
		json_object_object_get_ex(l, "spec_section", &sec);
		if (ops->order != SB_ORDER_MOUNT)
			assert_non_null(sec);
	}
	assert_string_equal(json_object_get_string(json_object_object_get(
		json_object_array_get_idx(built, i - 1 + 0), "layer")), sb_layer_at(i - 1)->name);
	assert_null(json_object_object_get(json_object_array_get_idx(built, i), "table_label"));
	for (i = 0; (ops = sb_layer_at(i)); i++) {
		struct json_object *l = json_object_array_get_idx(built, i);

		if (ops->fault_target)
			assert_string_equal(json_object_get_string(json_object_object_get(l, "table_label")), "RAID6");
		if (!strcmp(ops->name, "luks"))
			assert_string_equal(json_object_get_string(json_object_object_get(l, "spec_section")), "luks");
		if (!strcmp(ops->name, "loop"))
			assert_string_equal(json_object_get_string(json_object_object_get(l, "spec_section")), "devices");
	}
	json_object_put(built);
}

static const char full[] =
	"name: full\n"
	"devices: {loop: {size: 256MiB}}\n"
	"raid: {level: 1}\n"
	"lvm: {vg: v, lv: l}\n"
	"luks: {sector_size: 4096}\n"
	"faults: {delay: {member: 1}}\n";

/* The stack order comes from each layer's .order, not from the registry's
 * (fault is registered after luks but sits under md). */
static void test_order_and_needs(void **ctx)
{
	static const char *const want[] = { "loop", "fault", "md", "lvm", "luks", "ext4", "mount" };
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load(full, 0, &err);
	struct sb_kernel_needs n = { 0 };
	struct sb_stack s = { 0 };
	unsigned i;

	(void)ctx;
	assert_int_equal(sb_stack_init(&s, &l.items[0], &err), 0);
	assert_int_equal(s.nlayers, 7);
	for (i = 0; i < 7; i++)
		assert_string_equal(s.layers[i].ops->name, want[i]);
	sb_stack_needs(&l.items[0], &n);
	assert_int_equal(n.n, 3);   /* md, dm once (lvm, luks, fault), fs:ext4 */
	assert_true(sb_kernel_needs_has(&n, "md"));
	assert_true(sb_kernel_needs_has(&n, "dm"));
	assert_true(sb_kernel_needs_has(&n, "fs:ext4"));
	sb_spec_list_free(&l);
}

/* Every layer's piece of the summary, around the devices. */
static void test_summary_pieces(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load(full, 0, &err);
	char sum[512];

	(void)ctx;
	sb_spec_summary(&l.items[0], sum, sizeof(sum));
	assert_string_equal(sum, "RAID1 ×2 on loop 2×256 MiB (512 B sectors) → LVM v/l 100%FREE (4 MiB extents) "
				 "→ LUKS2 aes-xts-plain64/512, 4096 B sectors → ext4 4 KiB");
	sb_spec_list_free(&l);
}

/* fs.type's allowed values are the registry's filesystem layers; a
 * filesystem's own keys are refused under another type. */
static void test_fs_types_from_registry(void **ctx)
{
	const char *const *t = sb_spec_fs_types();
	struct sb_err err = { 0 };
	struct sb_spec_list l;
	bool ext4 = false;

	(void)ctx;
	for (; *t; t++)
		ext4 |= !strcmp(*t, "ext4");
	assert_true(ext4);
	l = sb_t_load("fs: {type: zfs}\n", -EINVAL, &err);
	assert_non_null(strstr(err.msg, "fs.type: 'zfs' is not allowed; allowed: ext4"));
	l = sb_t_load("fs: {type: ext4, stride: 16}\n", 0, &err);
	assert_int_equal(l.items[0].fs.stride, 16);
	sb_spec_list_free(&l);
}

/* A layer's rows show in the JSON (md's extra values too). */
static void test_json_from_parts(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load(full, 0, &err);
	struct json_object *j = NULL, *raid, *fs, *v;

	(void)ctx;
	assert_int_equal(sb_spec_to_json(&l.items[0], &j), 0);
	assert_true(json_object_object_get_ex(j, "raid", &raid));
	assert_true(json_object_object_get_ex(raid, "copies", &v));
	assert_int_equal(json_object_get_int(v), 2);
	assert_true(json_object_object_get_ex(j, "fs", &fs));
	assert_true(json_object_object_get_ex(fs, "stride", &v));
	assert_true(json_object_object_get_ex(j, "faults", &v));
	json_object_put(j);
	sb_spec_list_free(&l);
}

/* One storage slot per part, distinct and inside the spec; none for a
 * part the registry does not list. */
static void test_layer_data_slots(void **ctx)
{
	static const struct sb_spec_part stranger = { .parent = "" };
	static struct sb_stack_spec s;
	const struct sb_spec_part *p;
	unsigned char *prev = NULL, *d;
	unsigned i;

	(void)ctx;
	for (i = 0; (p = sb_spec_part_at(i)); i++) {
		d = sb_spec_layer_data(&s, p);
		assert_non_null(d);
		assert_true(d >= (unsigned char *)&s && d + SB_LAYER_DATA_MAX <= (unsigned char *)(&s + 1));
		assert_true(d != prev);
		assert_int_equal((uintptr_t)d % _Alignof(max_align_t), 0);
		prev = d;
	}
	assert_null(sb_spec_layer_data(&s, &stranger));
}

/* read_ahead_kb: one shared row that every block layer's section has
 * (md, LVM, LUKS, integrity, cache), each value in its own layer's slot,
 * through the file, --set and a matrix; refused out of range and on
 * sections without a block device of their own. */
static void test_read_ahead_rows(void **ctx)
{
	static const char *const block[] = { "integrity", "md", "cache", "lvm", "luks" };
	static const char yaml[] =
		"devices: {loop: {size: 256MiB}}\n"
		"integrity: {read_ahead_kb: 128}\n"
		"raid: {level: 1, read_ahead_kb: 256}\n"
		"cache: {read_ahead_kb: 512}\n"
		"lvm: {vg: v, lv: l, read_ahead_kb: 1024}\n"
		"luks: {read_ahead_kb: 2048}\n";
	static const char *const sets[] = { "luks.read_ahead_kb=4096" };
	struct sb_err err = { 0 };
	struct sb_spec_list l = { 0 };
	struct json_object *sec, *v;
	const struct sb_layer_ops *ops;
	unsigned i, n = 0;

	(void)ctx;
	for (i = 0; (ops = sb_layer_at(i)); i++) {
		bool want = false;
		unsigned k;

		for (k = 0; k < 5; k++)
			want |= !strcmp(ops->name, block[k]);
		assert_true(!ops->spec || ops->spec->block_device == want);
		n += want;
	}
	assert_int_equal(n, 5);
	l = sb_t_load(yaml, 0, &err);
	for (i = 0; i < 5; i++)
		assert_int_equal(sb_spec_read_ahead_kb(&l.items[0], sb_layer_find(block[i])->spec), 128U << i);
	assert_int_equal(sb_spec_read_ahead_kb(&l.items[0], sb_layer_find("loop")->spec), 0);
	sec = sb_t_section(&l.items[0], "lvm");
	assert_true(json_object_object_get_ex(sec, "read_ahead_kb", &v));
	assert_int_equal(json_object_get_int(v), 1024);
	json_object_put(sec);
	sb_spec_list_free(&l);
	/* --set and a matrix reach the same slots */
	assert_int_equal(sb_spec_load_buffer(yaml, sizeof(yaml) - 1, "t.yml", sets, 1, &l, &err), 0);
	assert_int_equal(sb_spec_read_ahead_kb(&l.items[0], sb_layer_find("luks")->spec), 4096);
	assert_int_equal(sb_spec_read_ahead_kb(&l.items[0], sb_layer_find("md")->spec), 256);
	sb_spec_list_free(&l);
	l = sb_t_load("devices: {loop: {size: 256MiB}}\nraid: {level: 1}\nluks: {}\n"
		      "matrix: {luks.read_ahead_kb: [0, 8192]}\n", 0, &err);
	assert_int_equal(l.n, 2);
	assert_int_equal(sb_spec_read_ahead_kb(&l.items[0], sb_layer_find("luks")->spec), 0);
	assert_int_equal(sb_spec_read_ahead_kb(&l.items[1], sb_layer_find("luks")->spec), 8192);
	assert_int_equal(sb_spec_read_ahead_kb(&l.items[1], sb_layer_find("md")->spec), 0);
	sb_spec_list_free(&l);
	sb_t_expect_error("raid: {level: 1}\nluks: {read_ahead_kb: 2000000}\n", "luks.read_ahead_kb");
	sb_t_expect_error("raid: {level: 1}\ncache: {read_ahead_kb: -1}\n", "cache.read_ahead_kb");
	sb_t_expect_error("raid: {level: 1}\nlvm: {read_ahead_kb: lots}\n", "lvm.read_ahead_kb");
	sb_t_expect_error("raid: {level: 1}\nfaults: {read_ahead_kb: 64}\n", "unknown key");
	sb_t_expect_error("fs: {type: ext4, read_ahead_kb: 64}\n", "unknown key");
}

/* Plans name the devices the layers will create (predict_dev). */
static void test_predicted_devices(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load(full, 0, &err);
	struct sb_stack s = { 0 };
	char dev[256];

	(void)ctx;
	assert_int_equal(sb_stack_init(&s, &l.items[0], &err), 0);
	sb_layer_predict_dev(&s.layers[2], dev, sizeof(dev));
	assert_string_equal(dev, "/dev/md/sb-full");
	sb_layer_predict_dev(&s.layers[3], dev, sizeof(dev));
	assert_string_equal(dev, "/dev/sb_v/sb_l");
	sb_layer_predict_dev(&s.layers[4], dev, sizeof(dev));
	assert_string_equal(dev, "/dev/mapper/sb-full-crypt");
	sb_layer_predict_dev(&s.layers[5], dev, sizeof(dev));   /* ext4: the one below */
	assert_string_equal(dev, "/dev/mapper/sb-full-crypt");
	sb_spec_list_free(&l);
}

/* The ciphers a stack's layers ask for come from the layers' own op (luks:
 * its dm-crypt cipher), and exactly one layer is what faults.* act on. */
static void test_ciphers_and_fault_target(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load(full, 0, &err);
	struct sb_cipher_wants w = { 0 };
	const struct sb_layer_ops *ops;
	unsigned i, targets = 0;

	(void)ctx;
	for (i = 0; (ops = sb_layer_at(i)); i++) {
		targets += ops->fault_target;
		if (ops->ciphers && sb_layer_wanted(ops, &l.items[0]))
			ops->ciphers(&l.items[0], &w);
	}
	assert_int_equal(targets, 1);
	assert_true(sb_layer_find("md")->fault_target);
	assert_non_null(w.dm_crypt);
	assert_string_equal(w.dm_crypt, l.items[0].luks.cipher);
	assert_int_equal(w.key_bits, l.items[0].luks.key_size);
	assert_int_equal(w.nssh, 0);
	sb_spec_list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_complete),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_order_and_needs),
		cmocka_unit_test(test_summary_pieces),
		cmocka_unit_test(test_fs_types_from_registry),
		cmocka_unit_test(test_json_from_parts),
		cmocka_unit_test(test_layer_data_slots),
		cmocka_unit_test(test_predicted_devices),
		cmocka_unit_test(test_ciphers_and_fault_target),
		cmocka_unit_test(test_read_ahead_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
