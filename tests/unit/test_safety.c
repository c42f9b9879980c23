/* The parts of the real-disk safety checks that need no root and no real
 * disk: mountinfo and swaps parsing on fixture text, the sysfs walks
 * (partitions, holders, parents) on a fake sysfs tree in a temp directory,
 * and matching --destroy-data lists and typed confirmations. The checks on
 * real block devices are in tests/integration/{host,uml}/safety_*.sh. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "sys/safety.h"

/* ------------------------------------------------------------ mountinfo */

static const char mountinfo[] =
	"21 26 0:20 / /proc rw,relatime - proc proc rw\n"
	"26 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n"
	"27 26 254:1 / /boot rw,relatime shared:5 master:1 - ext2 /dev/vda1 rw\n"
	"40 26 7:3 / /mnt/my\\040disk rw,relatime shared:7 - ext4 /dev/loop3 rw\n"
	"41 26 259:1 /sub /srv/p2 rw - xfs /dev/loop3p2 rw\n"
	"garbage line without fields\n"
	"42 26 0:45 / /run/user rw,nosuid - tmpfs tmpfs rw\n"
	"43 26 8:16 / /boot rw - vfat /dev/sdb rw\n"   /* covers the /boot above */
	"44 26 0:46 / /data rw - btrfs /nonexistent/dev/sdz rw";  /* no final newline */

static void test_mountinfo_next(void **state)
{
	struct sb_mountinfo_ent e;
	const char *cur = mountinfo;
	int n = 0;

	(void)state;
	assert_int_equal(sb_safety_mountinfo_next(&cur, &e), 1);
	assert_int_equal(e.major, 0);
	assert_int_equal(e.minor, 20);
	assert_string_equal(e.mountpoint, "/proc");
	assert_string_equal(e.fstype, "proc");
	assert_int_equal(sb_safety_mountinfo_next(&cur, &e), 1);
	assert_string_equal(e.mountpoint, "/");
	assert_string_equal(e.source, "/dev/vda");
	assert_int_equal(e.major, 254);
	/* Optional fields before "-" are skipped. */
	assert_int_equal(sb_safety_mountinfo_next(&cur, &e), 1);
	assert_string_equal(e.mountpoint, "/boot");
	assert_string_equal(e.fstype, "ext2");
	assert_string_equal(e.source, "/dev/vda1");
	/* Octal escapes are decoded. */
	assert_int_equal(sb_safety_mountinfo_next(&cur, &e), 1);
	assert_string_equal(e.mountpoint, "/mnt/my disk");
	assert_int_equal(e.minor, 3);
	n = 4;
	while (sb_safety_mountinfo_next(&cur, &e) == 1)
		n++;
	/* The garbage line is skipped: 9 lines, 8 entries. */
	assert_int_equal(n, 8);
	assert_string_equal(e.mountpoint, "/data");
	assert_string_equal(e.fstype, "btrfs");
	assert_int_equal(sb_safety_mountinfo_next(&cur, &e), 0);
}

static void test_mountinfo_find(void **state)
{
	char where[512];
	dev_t devs[3] = { makedev(7, 4), makedev(259, 0), makedev(259, 1) };
	dev_t loop3 = makedev(7, 3);

	(void)state;
	/* A partition (index 2) of the disk is mounted. */
	assert_int_equal(sb_safety_mountinfo_find(mountinfo, devs, 3, where, sizeof(where)), 2);
	assert_string_equal(where, "/srv/p2");
	/* Only the first two: nothing. */
	assert_int_equal(sb_safety_mountinfo_find(mountinfo, devs, 2, where, sizeof(where)), -1);
	assert_int_equal(sb_safety_mountinfo_find(mountinfo, &loop3, 1, where, sizeof(where)), 0);
	assert_string_equal(where, "/mnt/my disk");
	/* Anonymous devices (0:N) never match a disk whose source is no node. */
	devs[0] = makedev(0, 45);
	assert_int_equal(sb_safety_mountinfo_find(mountinfo, devs, 1, where, sizeof(where)), -1);
	assert_int_equal(sb_safety_mountinfo_find("", devs, 1, where, sizeof(where)), -1);
}

static void test_mountinfo_dev(void **state)
{
	dev_t d = 0;

	(void)state;
	assert_int_equal(sb_safety_mountinfo_dev(mountinfo, "/", &d), 0);
	assert_true(d == makedev(254, 0));
	/* The later mount covers the earlier one. */
	assert_int_equal(sb_safety_mountinfo_dev(mountinfo, "/boot", &d), 0);
	assert_true(d == makedev(8, 16));
	/* tmpfs and a btrfs whose source is not a node: not block-backed. */
	assert_int_equal(sb_safety_mountinfo_dev(mountinfo, "/run/user", &d), -ENOENT);
	assert_int_equal(sb_safety_mountinfo_dev(mountinfo, "/data", &d), -ENOENT);
	assert_int_equal(sb_safety_mountinfo_dev(mountinfo, "/boot/efi", &d), -ENOENT);
}

/* ---------------------------------------------------------------- swaps */

static const char swaps[] =
	"Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	"/dev/fake-zram0                         partition\t4194300\t\t0\t\t100\n"
	"/var/swap\\040file                       file\t\t1048572\t\t0\t\t-2\n"
	"/dev/nonexistent-swap-dev               partition\t1048572\t\t0\t\t-3\n";

static void test_swaps_next(void **state)
{
	char name[512], type[32];
	const char *cur = swaps;

	(void)state;
	assert_int_equal(sb_safety_swaps_next(&cur, name, sizeof(name), type, sizeof(type)), 1);
	assert_string_equal(name, "/dev/fake-zram0");
	assert_string_equal(type, "partition");
	assert_int_equal(sb_safety_swaps_next(&cur, name, sizeof(name), type, sizeof(type)), 1);
	assert_string_equal(name, "/var/swap file");
	assert_string_equal(type, "file");
	assert_int_equal(sb_safety_swaps_next(&cur, name, sizeof(name), type, sizeof(type)), 1);
	assert_string_equal(name, "/dev/nonexistent-swap-dev");
	assert_int_equal(sb_safety_swaps_next(&cur, name, sizeof(name), type, sizeof(type)), 0);
	cur = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n";
	assert_int_equal(sb_safety_swaps_next(&cur, name, sizeof(name), type, sizeof(type)), 0);
}

/* Any block device node on this machine (to test matching by st_rdev). */
static bool find_block_node(char *path, size_t len, dev_t *rdev)
{
	struct dirent *de;
	struct stat st;
	DIR *d = opendir("/dev");
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		snprintf(path, len, "/dev/%s", de->d_name);
		if (lstat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
			*rdev = st.st_rdev;
			found = true;
		}
	}
	closedir(d);
	return found;
}

static void test_swaps_find(void **state)
{
	char node[300], text[1024], where[512];
	dev_t devs[2];

	(void)state;
	devs[0] = makedev(7, 99);
	assert_int_equal(sb_safety_swaps_find(swaps, devs, 1, where, sizeof(where)), -1);
	if (!find_block_node(node, sizeof(node), &devs[1]))
		skip();
	snprintf(text, sizeof(text), "%s%s partition 100 0 -2\n", swaps, node);
	assert_int_equal(sb_safety_swaps_find(text, devs, 2, where, sizeof(where)), 1);
	assert_string_equal(where, node);
	/* The same node as a swap *file* entry is not a device match. */
	snprintf(text, sizeof(text), "%s%s file 100 0 -2\n", swaps, node);
	assert_int_equal(sb_safety_swaps_find(text, devs, 2, where, sizeof(where)), -1);
}

/* ------------------------------------------------------------ fake sysfs */

static char sysroot[64];

static void mkdirs(const char *rel)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s/%s", sysroot, rel);
	for (s = p + strlen(sysroot) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *content)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", sysroot, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void link_to(const char *target, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", sysroot, rel);
	assert_int_equal(symlink(target, p), 0);
}

#define VB "devices/virtual/block/"

/* loop3 with partitions loop3p1 (member of md127) and loop3p2; md127 under
 * dm-0 "sb-crypt"; loop4 held directly by dm-0; loop5 free. */
static int sysfs_setup(void **state)
{
	(void)state;
	snprintf(sysroot, sizeof(sysroot), "/tmp/sb-test-sysfs.XXXXXX");
	if (!mkdtemp(sysroot))
		return -1;
	mkdirs(VB "loop3/holders");
	mkdirs(VB "loop3/slaves");
	put(VB "loop3/dev", "7:3\n");
	mkdirs(VB "loop3/loop3p1/holders");
	put(VB "loop3/loop3p1/dev", "259:0\n");
	put(VB "loop3/loop3p1/partition", "1\n");
	mkdirs(VB "loop3/loop3p2/holders");
	put(VB "loop3/loop3p2/dev", "259:1\n");
	put(VB "loop3/loop3p2/partition", "2\n");
	mkdirs(VB "loop3/power");                       /* not a partition */
	mkdirs(VB "md127/md");
	mkdirs(VB "md127/slaves");
	mkdirs(VB "md127/holders");
	put(VB "md127/dev", "9:127\n");
	mkdirs(VB "dm-0/dm");
	mkdirs(VB "dm-0/slaves");
	mkdirs(VB "dm-0/holders");
	put(VB "dm-0/dev", "253:0\n");
	put(VB "dm-0/dm/name", "sb-crypt\n");
	mkdirs(VB "loop4/holders");
	mkdirs(VB "loop4/slaves");
	put(VB "loop4/dev", "7:4\n");
	mkdirs(VB "loop5/holders");
	put(VB "loop5/dev", "7:5\n");
	link_to("../../md127", VB "loop3/loop3p1/holders/md127");
	link_to("../../loop3/loop3p1", VB "md127/slaves/loop3p1");
	link_to("../../dm-0", VB "md127/holders/dm-0");
	link_to("../../md127", VB "dm-0/slaves/md127");
	link_to("../../loop4", VB "dm-0/slaves/loop4");
	link_to("../../dm-0", VB "loop4/holders/dm-0");
	mkdirs("block");
	mkdirs("dev/block");
	link_to("../" VB "loop3", "block/loop3");
	link_to("../" VB "loop4", "block/loop4");
	link_to("../" VB "loop5", "block/loop5");
	link_to("../" VB "md127", "block/md127");
	link_to("../" VB "dm-0", "block/dm-0");
	link_to("../../" VB "loop3", "dev/block/7:3");
	link_to("../../" VB "loop3/loop3p1", "dev/block/259:0");
	link_to("../../" VB "loop3/loop3p2", "dev/block/259:1");
	link_to("../../" VB "loop4", "dev/block/7:4");
	link_to("../../" VB "loop5", "dev/block/7:5");
	link_to("../../" VB "md127", "dev/block/9:127");
	link_to("../../" VB "dm-0", "dev/block/253:0");
	return 0;
}

static int sysfs_teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	if (strncmp(sysroot, "/tmp/sb-test-sysfs.", 19) != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sysroot);
	return system(cmd) == 0 ? 0 : -1;
}

static bool has(const dev_t *v, int n, dev_t d)
{
	for (int i = 0; i < n; i++)
		if (v[i] == d)
			return true;
	return false;
}

static void test_partitions(void **state)
{
	char names[8][64];
	dev_t devs[8];
	int n;

	(void)state;
	n = sb_safety_partitions(sysroot, "loop3", names, devs, 8);
	assert_int_equal(n, 2);
	assert_true(has(devs, n, makedev(259, 0)));
	assert_true(has(devs, n, makedev(259, 1)));
	assert_int_equal(sb_safety_partitions(sysroot, "loop3", names, devs, 1), 1);
	assert_int_equal(sb_safety_partitions(sysroot, "loop5", names, devs, 8), 0);
	assert_int_equal(sb_safety_partitions(sysroot, "nope", names, devs, 8), 0);
}

static void test_holders(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(sb_safety_holders(sysroot, "loop3", out, sizeof(out)), 1);
	assert_string_equal(out, "md127 (of loop3p1)");
	assert_int_equal(sb_safety_holders(sysroot, "loop4", out, sizeof(out)), 1);
	assert_string_equal(out, "dm-0 [sb-crypt]");
	assert_int_equal(sb_safety_holders(sysroot, "loop5", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(sb_safety_holders(sysroot, "nope", out, sizeof(out)), -ENOENT);
}

static void test_parents(void **state)
{
	dev_t out[16];
	int n;

	(void)state;
	/* dm-0 -> md127 -> loop3p1 -> loop3, and dm-0 -> loop4. */
	n = sb_safety_dev_parents(sysroot, makedev(253, 0), out, 16);
	assert_int_equal(n, 4);
	assert_true(has(out, n, makedev(253, 0)));
	assert_true(has(out, n, makedev(9, 127)));
	assert_true(has(out, n, makedev(7, 3)));
	assert_true(has(out, n, makedev(7, 4)));
	assert_false(has(out, n, makedev(259, 0)));
	/* A partition stands for its disk. */
	n = sb_safety_dev_parents(sysroot, makedev(259, 1), out, 16);
	assert_int_equal(n, 1);
	assert_true(out[0] == makedev(7, 3));
	/* Unknown to sysfs: itself. */
	n = sb_safety_dev_parents(sysroot, makedev(8, 0), out, 16);
	assert_int_equal(n, 1);
	assert_true(out[0] == makedev(8, 0));
	/* Bounded by max. */
	assert_int_equal(sb_safety_dev_parents(sysroot, makedev(253, 0), out, 2), 2);
}

/* ------------------------------------------------------ names, consent */

static void two_disks(struct sb_disk_info *d)
{
	memset(d, 0, 2 * sizeof(*d));
	snprintf(d[0].path, sizeof(d[0].path), "/dev/disk/by-id/fake-disk-A");
	snprintf(d[0].resolved, sizeof(d[0].resolved), "/dev/fake-sdx");
	snprintf(d[0].name, sizeof(d[0].name), "fake-sdx");
	d[0].dev = makedev(250, 1);
	snprintf(d[1].path, sizeof(d[1].path), "/dev/fake-sdy");
	snprintf(d[1].resolved, sizeof(d[1].resolved), "/dev/fake-sdy");
	snprintf(d[1].name, sizeof(d[1].name), "fake-sdy");
	d[1].dev = makedev(250, 2);
}

static void test_names_match(void **state)
{
	struct sb_disk_info d[2];
	char why[256];

	(void)state;
	two_disks(d);
	assert_int_equal(sb_safety_names_match("/dev/disk/by-id/fake-disk-A,/dev/fake-sdy", d, 2, why, sizeof(why)), 0);
	assert_int_equal(sb_safety_names_match("fake-sdy,fake-sdx", d, 2, why, sizeof(why)), 0);
	assert_int_equal(sb_safety_names_match("/dev/fake-sdx, fake-sdy", d, 2, why, sizeof(why)), 0);
	/* Naming one twice is still the same set. */
	assert_int_equal(sb_safety_names_match("fake-sdx,fake-sdy,/dev/fake-sdy", d, 2, why, sizeof(why)), 0);
	/* Missing one. */
	assert_int_equal(sb_safety_names_match("fake-sdx", d, 2, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "fake-sdy is not named"));
	/* An extra one. */
	assert_int_equal(sb_safety_names_match("fake-sdx,fake-sdy,sdz", d, 2, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "'sdz' is not one of"));
	/* A different one. */
	assert_int_equal(sb_safety_names_match("fake-sdx,/dev/fake-sdq", d, 2, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "/dev/fake-sdq"));
	assert_non_null(strstr(why, "fake-sdy is not named"));
	/* Prefixes and case do not count. */
	assert_int_equal(sb_safety_names_match("fake-sd,FAKE-SDY", d, 2, why, sizeof(why)), -EINVAL);
	assert_int_equal(sb_safety_names_match("", d, 2, why, sizeof(why)), -EINVAL);
	assert_int_equal(sb_safety_names_match(" , ", d, 2, why, sizeof(why)), -EINVAL);
	assert_int_equal(sb_safety_names_match(NULL, d, 2, NULL, 0), -EINVAL);
}

static void test_names_match_by_node(void **state)
{
	struct sb_disk_info d[1];
	char node[300];
	dev_t rdev;

	(void)state;
	memset(d, 0, sizeof(d));
	if (!find_block_node(node, sizeof(node), &rdev))
		skip();
	/* The info knows the disk under another path; the given node resolves
	 * to the same device number. */
	snprintf(d[0].path, sizeof(d[0].path), "/dev/disk/by-id/elsewhere");
	snprintf(d[0].resolved, sizeof(d[0].resolved), "/dev/elsewhere");
	snprintf(d[0].name, sizeof(d[0].name), "elsewhere");
	d[0].dev = rdev;
	assert_int_equal(sb_safety_names_match(node, d, 1, NULL, 0), 0);
	d[0].dev = rdev + 1;
	assert_int_equal(sb_safety_names_match(node, d, 1, NULL, 0), -EINVAL);
}

static void test_confirm(void **state)
{
	struct sb_disk_info d[2];

	(void)state;
	two_disks(d);
	assert_true(sb_safety_confirm_ok("destroy 2 disks", d, 2));
	assert_true(sb_safety_confirm_ok("  destroy 2 disks \n", d, 2));
	assert_true(sb_safety_confirm_ok("fake-sdx fake-sdy\n", d, 2));
	assert_true(sb_safety_confirm_ok("fake-sdy, fake-sdx", d, 2));
	assert_false(sb_safety_confirm_ok("destroy 2 disk", d, 2));
	assert_false(sb_safety_confirm_ok("destroy 3 disks", d, 2));
	assert_false(sb_safety_confirm_ok("Destroy 2 disks", d, 2));
	assert_false(sb_safety_confirm_ok("destroy  2 disks", d, 2));
	assert_false(sb_safety_confirm_ok("destroy", d, 2));
	assert_false(sb_safety_confirm_ok("yes", d, 2));
	assert_false(sb_safety_confirm_ok("y\n", d, 2));
	assert_false(sb_safety_confirm_ok("", d, 2));
	assert_false(sb_safety_confirm_ok("\n", d, 2));
	assert_false(sb_safety_confirm_ok(NULL, d, 2));
	assert_false(sb_safety_confirm_ok("fake-sdx", d, 2));
	assert_false(sb_safety_confirm_ok("destroy 1 disk", d, 2));
	assert_true(sb_safety_confirm_ok("destroy 1 disk", d, 1));
	assert_true(sb_safety_confirm_ok("destroy 1 disks", d, 1));
	assert_true(sb_safety_confirm_ok("fake-sdx", d, 1));
	assert_false(sb_safety_confirm_ok("fake-sdy", d, 1));
	assert_false(sb_safety_confirm_ok("destroy 0 disks", d, 0));
}

/* ---------------------------------------------- cheap real-system checks */

static void test_check_disk_refuses_non_devices(void **state)
{
	struct sb_disk_info info;
	struct sb_err err = { 0 };
	char tmpl[] = "/tmp/sb-test-safety.XXXXXX";
	int fd;

	(void)state;
	assert_int_equal(sb_safety_check_disk("/nonexistent/disk", false, &info, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/disk"));
	sb_err_clear(&err);
	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sb_safety_check_disk(tmpl, true, &info, &err), -SB_EREFUSED);
	assert_non_null(strstr(err.msg, "regular file"));
	unlink(tmpl);
	sb_err_clear(&err);
	assert_int_equal(sb_safety_check_disk("/dev/null", true, &info, &err), -SB_EREFUSED);
	assert_non_null(strstr(err.msg, "character device"));
	sb_err_clear(&err);
	assert_int_equal(sb_safety_check_disk("", true, &info, &err), -EINVAL);
	sb_err_clear(&err);
	assert_int_equal(sb_safety_check_disks(NULL, 0, false, NULL, false, &info, &err), -EINVAL);
}

/* Disk paths lead only through root-owned directories others cannot
 * write: a link planted in /tmp or /dev/shm is refused, wherever it points
 * (issue 12, finding 1). */
static void test_check_place(void **state)
{
	struct sb_err err = { 0 };
	char dir[] = "/tmp/sb-test-place.XXXXXX", link[64];

	(void)state;
	assert_int_equal(sb_safety_check_place("/dev/null", &err), 0);
	assert_int_equal(sb_safety_check_place("/dev/../dev/./null", &err), 0);
	assert_non_null(mkdtemp(dir));
	snprintf(link, sizeof(link), "%s/disk", dir);
	assert_int_equal(symlink("/dev/null", link), 0);
	/* mkdtemp's directory is 0700, but /tmp above it is 1777 */
	assert_int_equal(sb_safety_check_place(link, &err), -SB_EREFUSED);
	assert_non_null(strstr(err.msg, "passes /tmp, which others can write to"));
	sb_err_clear(&err);
	if (access("/dev/shm", F_OK) == 0) {
		assert_int_equal(sb_safety_check_place("/dev/shm/x", &err), -SB_EREFUSED);
		assert_non_null(strstr(err.msg, "/dev/shm"));
		sb_err_clear(&err);
	}
	/* a link in a trusted place that leads through an untrusted one */
	if (geteuid() == 0 && access("/run", W_OK) == 0) {
		char tdir[] = "/run/sb-test-place.XXXXXX", tlink[64];

		assert_non_null(mkdtemp(tdir));
		snprintf(tlink, sizeof(tlink), "%s/disk", tdir);
		assert_int_equal(symlink(link, tlink), 0);
		assert_int_equal(sb_safety_check_place(tlink, &err), -SB_EREFUSED);
		assert_non_null(strstr(err.msg, "/tmp"));
		sb_err_clear(&err);
		unlink(tlink);
		assert_int_equal(symlink("/dev/null", tlink), 0);
		assert_int_equal(sb_safety_check_place(tlink, &err), 0);
		unlink(tlink);
		rmdir(tdir);
	}
	unlink(link);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest text[] = {
		cmocka_unit_test(test_mountinfo_next),
		cmocka_unit_test(test_mountinfo_find),
		cmocka_unit_test(test_mountinfo_dev),
		cmocka_unit_test(test_swaps_next),
		cmocka_unit_test(test_swaps_find),
		cmocka_unit_test(test_names_match),
		cmocka_unit_test(test_names_match_by_node),
		cmocka_unit_test(test_confirm),
		cmocka_unit_test(test_check_disk_refuses_non_devices),
		cmocka_unit_test(test_check_place),
	};
	const struct CMUnitTest sysfs[] = {
		cmocka_unit_test(test_partitions),
		cmocka_unit_test(test_holders),
		cmocka_unit_test(test_parents),
	};
	int rc;

	rc = cmocka_run_group_tests_name("safety text", text, NULL, NULL);
	rc += cmocka_run_group_tests_name("safety fake sysfs", sysfs, sysfs_setup, sysfs_teardown);
	return rc;
}
