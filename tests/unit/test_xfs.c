/* The xfs layer: fs.type xfs selects it (from the registry), its own keys
 * fs.su/fs.sw live in its own storage slot, su/sw follow the RAID geometry
 * (RAID10: chunk and data disks; RAID1: none), its checks, its size
 * minimum, and the mkfs.xfs command the plan shows. */
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

/* RAID1 -> LUKS -> xfs: the xfs layer in the stack, no stripe geometry,
 * -f on the stack's own LUKS mapping. */
static void test_raid1_luks_xfs(void **ctx)
{
	static struct sb_plan p;
	char top[32];
	unsigned n;

	(void)ctx;
	sb_t_plan_of("name: x\ndevices: {loop: {size: 512MiB}}\nraid: {level: 1}\nluks: {sector_size: 4096}\n"
		"fs: {type: xfs}\n", &p, &n, top, sizeof(top));
	assert_int_equal(n, 5);
	assert_string_equal(top, "xfs");
	assert_string_equal(sb_t_find_step(&p, "xfs:"),
			    "xfs: wait for udev, then mkfs.xfs -f -b size=4096 -L stackbench on /dev/mapper/sb-x-crypt "
			    "(libblockdev fs plugin)");
}

/* RAID10 near2 x4, 256 KiB chunks: su = chunk, sw = 4 / 2 data disks. */
static void test_raid10_geometry(void **ctx)
{
	static struct sb_plan p;
	char top[32];
	unsigned n;

	(void)ctx;
	sb_t_plan_of("name: x\ndevices: {loop: {size: 512MiB}}\nraid: {level: 10, chunk: 256KiB}\n"
		"fs: {type: xfs}\n", &p, &n, top, sizeof(top));
	assert_non_null(strstr(sb_t_find_step(&p, "xfs:"), " -d su=262144,sw=2 "));
	sb_t_plan_of("name: x\ndevices: {loop: {size: 512MiB}}\nraid: {level: 10, chunk: 256KiB}\n"
		"fs: {type: xfs, su: 64KiB, sw: 3}\n", &p, &n, top, sizeof(top));
	assert_non_null(strstr(sb_t_find_step(&p, "xfs:"), " -d su=65536,sw=3 "));
}

/* On a given disk itself: no -f (it must be clean, as safety left it). */
static void test_disk_no_force(void **ctx)
{
	static struct sb_plan p;
	char top[32];
	unsigned n;

	(void)ctx;
	sb_t_plan_of("name: x\ndevices: {disks: [/dev/disk/by-id/ata-test]}\nfs: {type: xfs}\n", &p, &n, top, sizeof(top));
	assert_string_equal(sb_t_find_step(&p, "xfs:"),
			    "xfs: wait for udev, then mkfs.xfs -b size=4096 -L stackbench on /dev/disk/by-id/ata-test "
			    "(libblockdev fs plugin)");
}

static void test_checks(void **ctx)
{
	(void)ctx;
	/* each filesystem's keys only under its own type */
	sb_t_expect_error("fs: {type: xfs, stride: 16}\n", "fs.stride: is a key of fs.type ext4, and this stack's fs.type is xfs");
	sb_t_expect_error("fs: {type: ext4, su: 64KiB}\n", "fs.su: is a key of fs.type xfs, and this stack's fs.type is ext4");
	sb_t_expect_error("devices: {loop: {size: 512MiB}}\nfs: {type: xfs, lazy_init: true}\n", "fs.lazy_init: is ext4's");
	sb_t_expect_error("devices: {loop: {size: 512MiB}}\nfs: {type: xfs, sw: 2}\n", "fs.sw: needs fs.su");
	sb_t_expect_error("devices: {loop: {size: 512MiB}}\nfs: {type: xfs, su: 6KiB}\n", "fs.su: 6144 bytes must be a power of two");
	sb_t_expect_error("devices: {loop: {size: 512MiB}}\nfs: {type: xfs, mkfs_options: \"-p /etc/passwd\"}\n",
		     "fs.mkfs_options: '-p' is not allowed for xfs");
	sb_t_expect_error("devices: {loop: {size: 512MiB}}\nfs: {type: xfs, mkfs_options: \"-l logdev=/dev/sda\"}\n",
		     "fs.mkfs_options: '-l logdev=/dev/sda' is not allowed for xfs");
	/* mkfs.xfs refuses filesystems under 300 MiB (513 with stripes) */
	sb_t_expect_error("devices: {loop: {size: 256MiB}}\nfs: {type: xfs}\n",
		     "devices.loop.size: 256 MiB is too small for this stack; at least 300 MiB (mkfs.xfs refuses");
	sb_t_expect_error("devices: {loop: {size: 300MiB}}\nraid: {level: 1}\nluks: {}\nfs: {type: xfs}\n",
		     "at least 327 MiB");
}

/* Allowed options pass; the own slot holds the values; the JSON shows
 * xfs's keys (and not ext4's) for an xfs stack. */
static void test_keys_and_json(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load("devices: {loop: {size: 1GiB}}\nfs: {type: xfs, su: 128KiB, sw: 2, "
				     "mkfs_options: \"-K -m crc=1,reflink=1 -i size=512 -d agcount=4\"}\n", 0, &err);
	struct json_object *j = NULL, *fs, *v;
	char sum[256];

	(void)ctx;
	assert_int_equal(sb_spec_to_json(&l.items[0], &j), 0);
	assert_true(json_object_object_get_ex(j, "fs", &fs));
	assert_true(json_object_object_get_ex(fs, "su", &v));
	assert_int_equal(json_object_get_int64(v), 128 * 1024);
	assert_true(json_object_object_get_ex(fs, "sw", &v));
	assert_int_equal(json_object_get_int(v), 2);
	assert_false(json_object_object_get_ex(fs, "stride", &v));
	json_object_put(j);
	sb_spec_summary(&l.items[0], sum, sizeof(sum));
	assert_string_equal(sum, "loop 1×1 GiB (512 B sectors) → xfs 4 KiB");
	sb_spec_list_free(&l);
}

/* The kernel must have xfs; the registry lists it as a filesystem. */
static void test_registry(void **ctx)
{
	const char *const *t = sb_spec_fs_types();
	struct sb_err err = { 0 };
	struct sb_spec_list l = sb_t_load("devices: {loop: {size: 1GiB}}\nfs: {type: xfs}\n", 0, &err);
	struct sb_kernel_needs n = { 0 };
	bool xfs = false;

	(void)ctx;
	for (; *t; t++)
		xfs |= !strcmp(*t, "xfs");
	assert_true(xfs);
	assert_non_null(sb_layer_find("xfs"));
	sb_stack_needs(&l.items[0], &n);
	assert_true(sb_kernel_needs_has(&n, "fs:xfs"));
	assert_false(sb_kernel_needs_has(&n, "fs:ext4"));
	sb_spec_list_free(&l);
}

/* describe() reads back what mkfs.xfs put in the superblock: a real
 * mkfs.xfs on a sparse file (no root needed), compared with xfs_db's view. */
static void test_describe_reads_superblock(void **ctx)
{
	char img[] = "/tmp/sb-test-xfs.XXXXXX", cmd[512], db[256] = "";
	const struct sb_layer_ops *ops = sb_layer_find("xfs");
	struct sb_layer l = { .ops = ops, .ndev = 1 };
	struct json_object *o = json_object_new_object(), *v;
	struct sb_err err = { 0 };
	unsigned unit = 0, width = 0, agcount = 0;
	long long dblocks = 0;
	FILE *p;
	int fd;

	(void)ctx;
	if (system("command -v mkfs.xfs >/dev/null && command -v xfs_db >/dev/null") != 0) {
		json_object_put(o);
		skip();
	}
	fd = mkstemp(img);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1LL << 30), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "mkfs.xfs -q -f -b size=4096 -d su=64k,sw=3 -L stackbench %s", img);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "xfs_db -r -c 'sb 0' -c 'p unit width agcount dblocks' %s", img);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(db, sizeof(db), p))
		if (sscanf(db, "unit = %u", &unit) != 1 && sscanf(db, "width = %u", &width) != 1 &&
		    sscanf(db, "agcount = %u", &agcount) != 1)
			(void)sscanf(db, "dblocks = %lld", &dblocks);
	pclose(p);
	assert_int_equal(unit, 16);   /* 64 KiB in 4 KiB blocks */
	assert_int_equal(dblocks, 262144);   /* 1 GiB */
	snprintf(l.dev[0], sizeof(l.dev[0]), "%s", img);
	assert_int_equal(ops->describe(&l, o, &err), 0);
	unlink(img);
	assert_true(json_object_object_get_ex(o, "type", &v));
	assert_string_equal(json_object_get_string(v), "xfs");
	assert_true(json_object_object_get_ex(o, "label", &v));
	assert_string_equal(json_object_get_string(v), "stackbench");
	assert_true(json_object_object_get_ex(o, "block_size", &v));
	assert_int_equal(json_object_get_int(v), 4096);
	assert_true(json_object_object_get_ex(o, "blocks", &v));
	assert_int_equal(json_object_get_int64(v), dblocks);
	assert_true(json_object_object_get_ex(o, "su", &v));
	assert_int_equal(json_object_get_int(v), unit * 4096);
	assert_true(json_object_object_get_ex(o, "sw", &v));
	assert_int_equal(json_object_get_int(v), width / unit);
	assert_int_equal(json_object_get_int(v), 3);
	assert_true(json_object_object_get_ex(o, "agcount", &v));
	assert_int_equal(json_object_get_int(v), agcount);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raid1_luks_xfs),
		cmocka_unit_test(test_raid10_geometry),
		cmocka_unit_test(test_disk_no_force),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_keys_and_json),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_describe_reads_superblock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
