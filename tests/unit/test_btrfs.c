/* The btrfs layer: fs.type btrfs selects it (from the registry), its own
 * keys (nodesize, profiles, checksum, compress) live in its own storage
 * slot, its checks point at FILE:LINE:COL, its size minimum, the exact
 * mkfs.btrfs command the plan shows, compress= joining the mount step,
 * and describe() on a real mkfs.btrfs image. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/layer.h"
#include "core/stack.h"

/* RAID1 -> LUKS -> btrfs: -f on the stack's own LUKS mapping, mkfs.btrfs's
 * single-device defaults spelled out; compress=zstd on the mount step. */
static void test_raid1_luks_btrfs(void **ctx)
{
	static struct sb_plan p;
	char top[32];

	(void)ctx;
	sb_t_plan_of("name: x\ndevices: {loop: {size: 256MiB}}\nraid: {level: 1}\nluks: {sector_size: 4096}\n"
		"fs: {type: btrfs, compress: zstd}\n", &p, NULL, top, sizeof(top));
	assert_string_equal(top, "btrfs");
	assert_string_equal(sb_t_find_step(&p, "btrfs:"),
			    "btrfs: wait for udev, then mkfs.btrfs -f -q -L stackbench -s 4096 -n 16384 -m dup -d single "
			    "--csum crc32c /dev/mapper/sb-x-crypt");
	assert_non_null(strstr(sb_t_find_step(&p, "mount:"), " as btrfs (options compress=zstd)"));
}

/* loop -> btrfs with every key given; on a given disk: no -f. */
static void test_keys_in_args(void **ctx)
{
	static struct sb_plan p;
	char top[32];

	(void)ctx;
	sb_t_plan_of("name: x\ndevices: {loop: {size: 256MiB}}\nfs: {type: btrfs, nodesize: 64KiB, metadata_profile: single, "
		"data_profile: dup, checksum: xxhash, mkfs_options: \"-O no-holes,^free-space-tree\"}\n", &p, NULL, top, sizeof(top));
	assert_string_equal(sb_t_find_step(&p, "btrfs:"),
			    "btrfs: wait for udev, then mkfs.btrfs -f -q -L stackbench -s 4096 -n 65536 -m single -d dup "
			    "--csum xxhash -O no-holes,^free-space-tree the loop device");
	assert_non_null(strstr(sb_t_find_step(&p, "mount:"), " as btrfs (options defaults)"));   /* compress: none */
	sb_t_plan_of("name: x\ndevices: {disks: [/dev/disk/by-id/ata-test]}\nfs: {type: btrfs}\n", &p, NULL, top, sizeof(top));
	assert_string_equal(sb_t_find_step(&p, "btrfs:"),
			    "btrfs: wait for udev, then mkfs.btrfs -q -L stackbench -s 4096 -n 16384 -m dup -d single "
			    "--csum crc32c /dev/disk/by-id/ata-test");
}

/* btrfs's own raid1/raid10 over the members, no raid section: mkfs.btrfs
 * over all of them (metadata follows data), a scan of each, the mount on
 * the first; the device count derived from the profile. */
static void test_multi_device(void **ctx)
{
	static struct sb_plan p;
	struct sb_err err = { 0 };
	struct sb_spec_list l;
	struct sb_stack s = { 0 };
	char top[128];

	(void)ctx;
	sb_t_plan_of("name: x\ndevices: {loop: {size: 256MiB}}\nfs: {type: btrfs, data_profile: raid1}\n", &p, NULL, top, sizeof(top));
	assert_string_equal(top, "btrfs");
	assert_string_equal(sb_t_find_step(&p, "btrfs:"),
			    "btrfs: wait for udev, then mkfs.btrfs -f -q -L stackbench -s 4096 -n 16384 -m raid1 -d raid1 "
			    "--csum crc32c the loop devices (all 2), then btrfs device scan each; the first is the one mounted");
	assert_non_null(strstr(sb_t_find_step(&p, "mount:"), " and mount the first of the loop devices there as btrfs"));
	assert_string_equal(p.teardown[1], "btrfs: btrfs device scan --forget each member");
	sb_t_plan_of("name: x\ndevices: {loop: {size: 256MiB}}\nfs: {type: btrfs, data_profile: raid10, metadata_profile: raid1}\n",
		&p, NULL, top, sizeof(top));
	assert_non_null(strstr(sb_t_find_step(&p, "btrfs:"), " -m raid1 -d raid10 --csum crc32c the loop devices (all 4), "));
	l = sb_t_load("name: x\ndevices: {loop: {size: 256MiB, count: 3}}\nfs: {type: btrfs, data_profile: raid1}\n", 0, &err);
	assert_int_equal(l.items[0].devices.loop.count, 3);
	assert_int_equal(sb_stack_init(&s, &l.items[0], &err), 0);
	assert_int_equal(s.nlayers, 3);   /* loop, btrfs, mount: no md */
	sb_spec_summary(&l.items[0], top, sizeof(top));
	assert_string_equal(top, "btrfs raid1 ×3 on loop 3×256 MiB (512 B sectors) → btrfs 4 KiB");
	assert_string_equal(s.layers[0].ops->name, "loop");
	sb_spec_list_free(&l);
	sb_t_plan_of("name: x\ndevices: {disks: [/dev/disk/by-id/a, /dev/disk/by-id/b]}\nfs: {type: btrfs, data_profile: raid1}\n",
		&p, NULL, top, sizeof(top));
	assert_non_null(strstr(sb_t_find_step(&p, "btrfs:"), "mkfs.btrfs -q -L stackbench"));   /* disks: no -f */
}


static void test_checks(void **ctx)
{
	(void)ctx;
	sb_t_expect_error("fs: {type: ext4, nodesize: 16KiB}\n",
		     "fs.nodesize: is a key of fs.type btrfs, and this stack's fs.type is ext4");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nfs:\n  type: btrfs\n  nodesize: 24KiB\n",
		     "t.yml:4:13: fs.nodesize: 24576 bytes must be a power of two");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nfs: {type: btrfs, block_size: 1024}\n",
		     "fs.block_size: btrfs's sector size must be the page size, 4096, not 1024");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nfs: {type: btrfs, checksum: md5}\n", "fs.checksum");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nfs: {type: btrfs, data_profile: raid5}\n", "fs.data_profile");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nfs: {type: btrfs, lazy_init: true}\n", "fs.lazy_init: is ext4's");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nfs: {type: btrfs, mkfs_options: \"--rootdir /etc\"}\n",
		     "fs.mkfs_options: '--rootdir' is not allowed for btrfs");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nfs: {type: btrfs, mkfs_options: \"-O a;b\"}\n",
		     "fs.mkfs_options: '-O a;b' is not allowed for btrfs");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nfs: {type: btrfs, mount_options: compress=lzo}\n",
		     "fs.mount_options: 'compress=lzo' is not allowed");
	/* several devices: only with a raid profile; raid profiles: no md, LVM, LUKS; >= 2 devices */
	sb_t_expect_error("devices: {loop: {size: 256MiB, count: 2}}\nfs: {type: btrfs}\n",
		     "t.yml:1:32: devices.loop.count: 2 devices but no raid section");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nraid: {level: 1}\nfs: {type: btrfs, data_profile: raid1}\n",
		     "t.yml:2:7: raid: btrfs profile raid1 mirrors over the member devices itself");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nluks: {}\nfs: {type: btrfs, data_profile: raid10}\n",
		     "luks: btrfs profile raid10 takes the member devices themselves; LUKS would give it one");
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nlvm: {}\nfs: {type: btrfs, metadata_profile: raid1}\n",
		     "lvm: btrfs profile raid1 takes the member devices themselves; LVM would give it one");
	sb_t_expect_error("devices: {loop: {size: 256MiB, count: 1}}\nfs: {type: btrfs, data_profile: raid1}\n",
		     "devices.loop.count: btrfs profile raid1 needs at least 2 devices, got 1");
	sb_t_expect_error("devices: {disks: [/dev/disk/by-id/a]}\nfs: {type: btrfs, data_profile: raid10}\n",
		     "devices.disks: btrfs profile raid10 needs at least 2 devices, got 1");
	sb_t_expect_error("devices: {loop: {size: 100MiB}}\nfs: {type: btrfs}\n",
		     "devices.loop.size: 100 MiB is too small for this stack; at least 109 MiB (mkfs.btrfs refuses");
	sb_t_expect_error("devices: {loop: {size: 120MiB}}\nfs: {type: btrfs, data_profile: raid1}\n",
		     "devices.loop.size: 120 MiB is too small for this stack; at least 125 MiB");
	sb_t_expect_error("devices: {loop: {size: 200MiB}}\nfs: {type: btrfs, data_profile: dup}\n",
		     "at least 229 MiB");
}

/* The own slot holds the values; the JSON shows btrfs's keys (not
 * ext4's or xfs's); compress joins the mount options once. */
static void test_keys_and_json(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load("devices: {loop: {size: 1GiB}}\nfs: {type: btrfs, compress: lzo, "
				     "mount_options: noatime}\n", 0, &err);
	struct json_object *j = NULL, *fs, *v;

	(void)ctx;
	assert_int_equal(sb_spec_to_json(&l.items[0], &j), 0);
	assert_true(json_object_object_get_ex(j, "fs", &fs));
	assert_true(json_object_object_get_ex(fs, "nodesize", &v));
	assert_int_equal(json_object_get_int64(v), 16384);
	assert_true(json_object_object_get_ex(fs, "metadata_profile", &v));
	assert_string_equal(json_object_get_string(v), "dup");
	assert_true(json_object_object_get_ex(fs, "checksum", &v));
	assert_string_equal(json_object_get_string(v), "crc32c");
	assert_true(json_object_object_get_ex(fs, "mount_options", &v));
	assert_string_equal(json_object_get_string(v), "noatime");   /* compress joins at mount */
	assert_false(json_object_object_get_ex(fs, "su", &v));
	assert_false(json_object_object_get_ex(fs, "stride", &v));
	json_object_put(j);
	sb_spec_list_free(&l);
}

static void test_registry(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load("devices: {loop: {size: 1GiB}}\nfs: {type: btrfs}\n", 0, &err);
	struct sb_kernel_needs n = { 0 };

	(void)ctx;
	assert_non_null(sb_layer_find("btrfs"));
	sb_stack_needs(&l.items[0], &n);
	assert_true(sb_kernel_needs_has(&n, "fs:btrfs"));
	assert_false(sb_kernel_needs_has(&n, "fs:ext4"));
	sb_spec_list_free(&l);
}

/* describe() without a mount: what libblkid reads of a real mkfs.btrfs
 * image (sysfs has nothing until the kernel mounts it). */
static void test_describe_blkid(void **ctx)
{
	char img[] = "/tmp/sb-test-btrfs.XXXXXX", cmd[512];
	const struct sb_layer_ops *ops = sb_layer_find("btrfs");
	struct sb_layer l = { .ops = ops, .ndev = 1 };
	struct json_object *o = json_object_new_object(), *v;
	struct sb_err err = { 0 };
	int fd;

	(void)ctx;
	if (system("command -v mkfs.btrfs >/dev/null") != 0) {
		json_object_put(o);
		skip();
	}
	fd = mkstemp(img);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 256LL << 20), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "mkfs.btrfs -q -f -L stackbench %s", img);
	assert_int_equal(system(cmd), 0);
	snprintf(l.dev[0], sizeof(l.dev[0]), "%s", img);
	assert_int_equal(ops->describe(&l, o, &err), 0);
	unlink(img);
	assert_true(json_object_object_get_ex(o, "type", &v));
	assert_string_equal(json_object_get_string(v), "btrfs");
	assert_true(json_object_object_get_ex(o, "label", &v));
	assert_string_equal(json_object_get_string(v), "stackbench");
	assert_true(json_object_object_get_ex(o, "uuid", &v));
	assert_int_equal(strlen(json_object_get_string(v)), 36);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raid1_luks_btrfs),
		cmocka_unit_test(test_keys_in_args),
		cmocka_unit_test(test_multi_device),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_keys_and_json),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_describe_blkid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
