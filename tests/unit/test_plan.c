/* The layer list and the plan for hand-built specs: every build step
 * bottom up, then every teardown step top down, with the concrete commands;
 * plus teardown from a state file of real files and directories. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stack.h"

static struct sb_stack_spec spec;
static struct sb_stack stack;
static struct sb_plan plan;
static char dir[64];

static int setup(void **ctx)
{
	snprintf(dir, sizeof(dir), "/tmp/sb-test-plan.XXXXXX");
	assert_non_null(mkdtemp(dir));
	setenv("STACKBENCH_STATE_DIR", dir, 1);
	memset(&spec, 0, sizeof(spec));
	memset(&stack, 0, sizeof(stack));
	memset(&plan, 0, sizeof(plan));
	snprintf(spec.name, sizeof(spec.name), "plain");
	spec.devices.kind = SB_DEVICES_LOOP;
	spec.devices.loop.count = 1;
	spec.devices.loop.size = 64ull << 20;
	spec.devices.loop.sector_size = 4096;
	spec.devices.loop.direct_io = true;
	snprintf(spec.devices.loop.dir, sizeof(spec.devices.loop.dir), "/var/tmp/stackbench");
	snprintf(spec.fs.type, sizeof(spec.fs.type), "ext4");
	spec.fs.block_size = 4096;
	snprintf(spec.fs.mount_options, sizeof(spec.fs.mount_options), "noatime");
	return 0;
}

static int teardown(void **ctx)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void assert_prefix(const char *s, const char *prefix)
{
	if (strncmp(s, prefix, strlen(prefix)))
		fail_msg("\"%s\" does not start with \"%s\"", s, prefix);
}

static void assert_has(const char *s, const char *needle)
{
	if (!strstr(s, needle))
		fail_msg("\"%s\" lacks \"%s\"", s, needle);
}

static void test_plain_plan(void **ctx)
{
	struct sb_err err = { 0 };
	char mnt[128];

	assert_int_equal(sb_stack_init(&stack, &spec, &err), 0);
	assert_int_equal(stack.nlayers, 3);
	assert_string_equal(stack.rundir, "/var/tmp/stackbench/plain");
	assert_int_equal(sb_stack_plan(&stack, &plan, &err), 0);
	assert_int_equal(plan.nbuild, 4);
	assert_int_equal(plan.nteardown, 4);
	assert_prefix(plan.build[0], "state: record every object in ");
	assert_has(plan.build[0], "/plain.state");
	assert_prefix(plan.build[1], "loop: create 1 sparse backing file of 64 MiB in /var/tmp/stackbench/plain");
	assert_has(plan.build[1], "4096-byte sectors and direct I/O");
	assert_prefix(plan.build[2], "ext4: ");
	assert_has(plan.build[2], "mkfs.ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 -L stackbench on the loop device");
	assert_prefix(plan.build[3], "mount: ");
	snprintf(mnt, sizeof(mnt), "%s/mnt/plain", dir);
	assert_has(plan.build[3], mnt);
	assert_has(plan.build[3], "options noatime");

	assert_prefix(plan.teardown[0], "mount: unmount ");
	assert_prefix(plan.teardown[1], "ext4: nothing to remove");
	assert_prefix(plan.teardown[2], "loop: detach the 1 loop device");
	assert_prefix(plan.teardown[3], "state: verify");
}

static void test_lazy_and_extra_mkfs(void **ctx)
{
	struct sb_err err = { 0 };

	spec.fs.lazy_init = true;
	spec.fs.block_size = 1024;
	snprintf(spec.fs.mkfs_options, sizeof(spec.fs.mkfs_options), "-O ^has_journal");
	spec.devices.loop.direct_io = false;
	spec.devices.loop.sector_size = 512;
	assert_int_equal(sb_stack_init(&stack, &spec, &err), 0);
	assert_int_equal(sb_stack_plan(&stack, &plan, &err), 0);
	assert_has(plan.build[1], "512-byte sectors (buffered, no direct I/O)");
	assert_has(plan.build[2], "mkfs.ext4 -b 1024 -L stackbench -O ^has_journal on");
	assert_null(strstr(plan.build[2], "lazy_itable_init"));
}

static void test_raid_layers(void **ctx)
{
	struct sb_err err = { 0 };
	int rc;

	spec.raid.enabled = true;
	spec.raid.level = 10;
	spec.raid.devices = 4;
	spec.raid.chunk = 512 << 10;
	snprintf(spec.raid.layout, sizeof(spec.raid.layout), "near2");
	/* what md's spec check derives from the layout (this spec skips it) */
	snprintf(spec.raid.md_layout, sizeof(spec.raid.md_layout), "n2");
	spec.raid.copies = 2;
	spec.raid.data_disks = 2;
	spec.devices.loop.count = 4;
	rc = sb_stack_init(&stack, &spec, &err);
	assert_int_equal(rc, 0);
	assert_int_equal(stack.nlayers, 4);  /* loop, md, ext4, mount */
	assert_string_equal(stack.layers[1].ops->name, "md");
	assert_int_equal(sb_stack_plan(&stack, &plan, &err), 0);
	assert_prefix(plan.build[1], "loop: create 4 sparse backing files");
	/* 512 KiB chunk / 4 KiB blocks = 128; 4 devices near2 = 2 data disks */
	assert_has(plan.build[plan.nbuild - 2], "stride=128,stripe_width=256");
	assert_has(plan.build[plan.nbuild - 2], "on /dev/md/sb-plain");
	assert_prefix(plan.teardown[plan.nteardown - 2], "loop: ");
}

static void test_raid1_no_stride_and_order(void **ctx)
{
	struct sb_err err = { 0 };
	const char *order[] = { "loop", "md", "lvm", "luks", "ext4", "mount" };
	unsigned i;

	spec.raid.enabled = true;
	spec.raid.level = 1;
	spec.raid.devices = 2;
	spec.devices.loop.count = 2;
	spec.lvm.enabled = true;
	spec.luks.enabled = true;
	if (!sb_layer_find("md") || !sb_layer_find("lvm") || !sb_layer_find("luks")) {
		assert_int_equal(sb_stack_init(&stack, &spec, &err), -ENOSYS);
		return;
	}
	assert_int_equal(sb_stack_init(&stack, &spec, &err), 0);
	assert_int_equal(stack.nlayers, 6);
	for (i = 0; i < 6; i++)
		assert_string_equal(stack.layers[i].ops->name, order[i]);
	assert_int_equal(sb_stack_plan(&stack, &plan, &err), 0);
	for (i = 0; i < plan.nbuild; i++)
		assert_null(strstr(plan.build[i], "stride="));
	assert_has(plan.build[plan.nbuild - 2], "on /dev/mapper/sb-plain-crypt");
}

static void test_md_name_fits_mdadm(void **ctx)
{
	char a[SB_PATH_MAX], b[SB_PATH_MAX];

	sb_layer_md_name(&spec, a, sizeof(a));
	assert_string_equal(a, "/dev/md/sb-plain");
	/* 29 characters still fit as they are: sb- + 29 = 32 */
	snprintf(spec.name, sizeof(spec.name), "abcdefghijabcdefghijabcdefghi");
	sb_layer_md_name(&spec, a, sizeof(a));
	assert_string_equal(a, "/dev/md/sb-abcdefghijabcdefghijabcdefghi");
	/* matrix names are longer: at most 32 bytes after /dev/md/, distinct */
	snprintf(spec.name, sizeof(spec.name), "matrix-luks-512-aes-xts-plain64");
	sb_layer_md_name(&spec, a, sizeof(a));
	snprintf(spec.name, sizeof(spec.name), "matrix-luks-512-aes-cbc-essiv-sha256");
	sb_layer_md_name(&spec, b, sizeof(b));
	assert_true(strlen(a) - strlen("/dev/md/") <= 32);
	assert_true(strlen(b) - strlen("/dev/md/") <= 32);
	assert_string_not_equal(a, b);
	assert_prefix(a, "/dev/md/sb-matrix-luks-512-aes-");
	assert_null(strstr(a, "--"));
}

static void test_bad_layouts(void **ctx)
{
	struct sb_err err = { 0 };

	spec.devices.loop.count = 2; /* two devices and no raid to join them */
	assert_int_equal(sb_stack_init(&stack, &spec, &err), -EINVAL);
	assert_has(err.msg, "exactly one device");
	sb_err_clear(&err);
	spec.devices.loop.count = 1;
	snprintf(spec.fs.type, sizeof(spec.fs.type), "zfs");
	assert_int_equal(sb_stack_init(&stack, &spec, &err), -EINVAL);
	assert_has(err.msg, "no layer of this build takes fs.type zfs");
}

static void test_disks_plan(void **ctx)
{
	struct sb_err err = { 0 };

	spec.devices.kind = SB_DEVICES_DISKS;
	spec.devices.ndisks = 1;
	snprintf(spec.devices.disks[0], SB_PATH_MAX, "/dev/disk/by-id/ata-X");
	assert_int_equal(sb_stack_init(&stack, &spec, &err), 0);
	assert_string_equal(stack.layers[0].ops->name, "disks");
	assert_int_equal(sb_stack_plan(&stack, &plan, &err), 0);
	assert_has(plan.build[1], "/dev/disk/by-id/ata-X");
	assert_has(plan.build[1], "--destroy-data");
	assert_has(plan.build[2], "on /dev/disk/by-id/ata-X");
}

/* Teardown is driven by the state file alone: real files and directories
 * recorded by the loop and mount layers are removed top down, the state
 * file goes only when nothing is left. */
static void test_teardown_state_files(void **ctx)
{
	static struct sb_state st;
	struct sb_err err = { 0 };
	char run[128], f0[160], f1[160], state[SB_PATH_MAX], junk[160];
	int fd;

	snprintf(run, sizeof(run), "%s/run", dir);
	snprintf(f0, sizeof(f0), "%s/d0", run);
	snprintf(f1, sizeof(f1), "%s/d1", run);
	snprintf(junk, sizeof(junk), "%s/junk", run);
	assert_int_equal(sb_state_create(&st, "files", "", &err), 0);
	snprintf(state, sizeof(state), "%s", st.path);
	assert_int_equal(sb_state_add(&st, "loop", "dir", run, NULL, &err), 0);
	assert_int_equal(mkdir(run, 0755), 0);
	assert_int_equal(sb_state_add(&st, "loop", "file", f0, NULL, &err), 0);
	assert_true((fd = creat(f0, 0600)) >= 0);
	close(fd);
	/* recorded but never created (killed in between): must be fine */
	assert_int_equal(sb_state_add(&st, "loop", "file", f1, NULL, &err), 0);
	/* a loop device that is not attached to our file: left alone, gone */
	assert_int_equal(sb_state_add(&st, "loop", "loopdev", "/dev/loop999", f1, &err), 0);

	/* something foreign in the run dir: the dir cannot go, state stays */
	assert_true((fd = creat(junk, 0600)) >= 0);
	close(fd);
	assert_int_equal(sb_stack_teardown_state(&st, &err), -ENOTEMPTY);
	assert_has(err.msg, run);
	assert_int_equal(access(f0, F_OK), -1);
	assert_int_equal(access(state, F_OK), 0);
	assert_int_equal(st.nobj, 1);
	assert_string_equal(st.obj[0].kind, "dir");

	/* clean up the foreign file: a second teardown finishes the job */
	assert_int_equal(unlink(junk), 0);
	sb_err_clear(&err);
	assert_int_equal(sb_state_load("files", &st, &err), 0);
	assert_int_equal(sb_stack_teardown_state(&st, &err), 0);
	assert_int_equal(access(run, F_OK), -1);
	assert_int_equal(access(state, F_OK), -1);
}

static void test_unknown_layer_in_state(void **ctx)
{
	static struct sb_state st;
	struct sb_err err = { 0 };

	assert_int_equal(sb_state_create(&st, "odd", "", &err), 0);
	assert_int_equal(sb_state_add(&st, "bcache", "dev", "/dev/bcache0", NULL, &err), 0);
	assert_int_equal(sb_stack_teardown_state(&st, &err), -ENOSYS);
	assert_has(err.msg, "bcache layer");
	assert_int_equal(access(st.path, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plain_plan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lazy_and_extra_mkfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raid_layers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raid1_no_stride_and_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_md_name_fits_mdadm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_layouts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disks_plan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_teardown_state_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_layer_in_state, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
