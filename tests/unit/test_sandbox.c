/* Unit tests of the sandbox decision on injected kernel facts, and of the
 * host info. The same binary doubles as the probe that
 * tests/integration/host/sandbox_rerun.sh boots in the throwaway kernel:
 *   test_sandbox rerun ARGS...      sb_sandbox_rerun(ARGS), exit with its code
 *   test_sandbox rerun-members N SIZE DIR ARGS...   the same with N member
 *                                   files of SIZE bytes under DIR
 *   test_sandbox --in-sandbox ...   (what runs inside) echo what it sees */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "sandbox/sandbox.h"
#include "util/log.h"

static struct sb_kernel_facts facts(bool md, bool dm, bool uml_ok)
{
	struct sb_kernel_facts f = { .md = md, .dm = dm, .uml_available = uml_ok };

	strcpy(f.release, "6.18.44-test");
	return f;
}

static bool ours;

static void decide(const struct sb_kernel_facts *f, int mode, bool inside, bool md, bool dm,
		   bool disks, int want_rc, bool want_use, const char *want_msg)
{
	struct sb_err err = { 0 };
	bool use = !want_use;
	int rc;

	rc = sb_sandbox_decide_facts(f, mode, inside, ours, md, dm, disks, &use, &err);
	assert_int_equal(rc, want_rc);
	assert_int_equal(use, want_use);
	if (want_msg)
		assert_non_null(strstr(err.msg, want_msg));
	else
		assert_string_equal(err.msg, "");
}

static void test_auto(void **state)
{
	struct sb_kernel_facts none = facts(false, false, true), all = facts(true, true, true);
	struct sb_kernel_facts md_only = facts(true, false, true);

	sb_log_set_level(SB_LOG_QUIET);
	/* kernel has everything: run here */
	decide(&all, -1, false, true, true, false, 0, false, NULL);
	decide(&all, -1, false, true, true, true, 0, false, NULL);
	/* lacks md and dm: sandbox */
	decide(&none, -1, false, true, true, false, 0, true, NULL);
	/* needs only md, has it */
	decide(&md_only, -1, false, true, false, false, 0, false, NULL);
	/* needs dm, lacks it */
	decide(&md_only, -1, false, true, true, false, 0, true, NULL);
	/* needs nothing (e.g. loop-only) */
	decide(&none, -1, false, false, false, false, 0, false, NULL);
	/* disks cannot go to the sandbox */
	decide(&none, -1, false, true, true, true, -EINVAL, false, "has no md and device-mapper, and this stack lists disks");
}

static void test_forced(void **state)
{
	struct sb_kernel_facts none = facts(false, false, true), all = facts(true, true, true);
	struct sb_kernel_facts md_only = facts(true, false, true);

	sb_log_set_level(SB_LOG_QUIET);
	decide(&all, 1, false, true, true, false, 0, true, NULL);
	decide(&all, 1, false, true, true, true, -EINVAL, false, "--sandbox: this stack lists disks");
	decide(&none, 0, false, true, true, false, -ENOTSUP, false, "has no md and device-mapper");
	decide(&md_only, 0, false, true, true, false, -ENOTSUP, false, "has no device-mapper and");
	decide(&all, 0, false, true, true, true, 0, false, NULL);
}

static void test_no_uml(void **state)
{
	struct sb_kernel_facts none = facts(false, false, false);

	decide(&none, -1, false, true, true, false, -ENOTSUP, false, "apt-get install user-mode-linux");
	decide(&none, 1, false, false, false, false, -ENOTSUP, false, "apt-get install user-mode-linux");
}

static void test_inside(void **state)
{
	struct sb_kernel_facts none = facts(false, false, true), all = facts(true, true, true);

	/* never nest, whatever the mode */
	decide(&all, 1, true, true, true, false, 0, false, NULL);
	decide(&all, -1, true, true, true, false, 0, false, NULL);
	decide(&none, -1, true, true, true, false, -ENOTSUP, false, "has no md and device-mapper");
	/* a UML the user booted is just a kernel: disks allowed there */
	ours = false;
	decide(&all, -1, true, true, true, true, 0, false, NULL);
	/* the one stackbench booted cannot see the host's disks */
	ours = true;
	decide(&all, -1, true, true, true, true, -EINVAL, false, "cannot reach the host's disks");
	ours = false;
}

static bool name_ok(const char *kv)
{
	return sb_sandbox_env_name_ok(kv, strcspn(kv, "="));
}

/* Finding 8: only plain names reach the job script. */
static void test_env_names(void **state)
{
	assert_true(name_ok("SB_X=1"));
	assert_true(name_ok("STACKBENCH_UML_MEM=1G"));
	assert_true(name_ok("_A9=x"));
	assert_false(name_ok("SB_X;touch pwned;: =1"));
	assert_false(name_ok("SB_X Y=1"));
	assert_false(name_ok("SB_$(id)=1"));
	assert_false(name_ok("sb_lower=1"));
	assert_false(name_ok("9SB=1"));
	assert_false(name_ok("=1"));
	assert_false(name_ok("SB_X\n=1"));
}

static void test_check_exec(void **state)
{
	char path[] = "/tmp/sb-test-exec-XXXXXX";
	struct sb_err err = { 0 };
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	if (geteuid() != 0) {
		unlink(path);
		skip();
	}
	assert_int_equal(chmod(path, 0755), 0);
	assert_int_equal(sb_sandbox_check_exec("K", path, &err), 0);
	assert_int_equal(chmod(path, 0757), 0);
	assert_int_equal(sb_sandbox_check_exec("K", path, &err), -SB_EREFUSED);
	assert_non_null(strstr(err.msg, "writable by everyone"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(sb_sandbox_check_exec("K", path, &err), -SB_EREFUSED);
	assert_non_null(strstr(err.msg, "not an executable"));
	unlink(path);
}

static void test_probe_consistent(void **state)
{
	struct sb_kernel_facts f;
	char why[64];
	bool has;

	sb_sandbox_probe(&f, true, true, false);
	has = sb_sandbox_kernel_has(true, true, why, sizeof(why));
	assert_int_equal(has, f.md && f.dm);
	assert_int_equal(why[0] == '\0', has);
	assert_true(f.release[0] != '\0');
}

/* Discard each whole member, as mkfs does to a device that takes it:
 * "punch /dev/ubda: discard <result>". */
static void punch_members(void)
{
	const char *e = getenv("SB_UBD_MEMBERS");
	char buf[1024], *save = NULL, *d;

	snprintf(buf, sizeof(buf), "%s", e ? e : "");
	for (d = strtok_r(buf, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		uint64_t range[2] = { 0, 0 };
		int fd = open(d, O_RDWR | O_CLOEXEC), rd;

		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &range[1]) < 0) {
			printf("punch %s: cannot open: %s\n", d, strerror(errno));
			if (fd >= 0)
				close(fd);
			continue;
		}
		rd = ioctl(fd, BLKDISCARD, range) < 0 ? errno : 0;
		fsync(fd);
		printf("punch %s: discard %s\n", d, rd ? strerror(rd) : "done");
		close(fd);
	}
}

/* The member files' allocation as the host has it (seen through hostfs):
 * "allocated ubd0 100%" for each file ubd* in DIR's .sb-sandbox-* dirs. */
static void allocated(const char *dir)
{
	char pat[4096];
	glob_t g;
	int fd;

	/* hostfs keeps what it stat'ed: drop dentries and inodes first */
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "2\n", 2) != 2)
		printf("allocated: cannot drop the dentry cache: %s\n", strerror(errno));
	if (fd >= 0)
		close(fd);
	snprintf(pat, sizeof(pat), "%s/.sb-sandbox-*/ubd*", dir);
	if (glob(pat, 0, NULL, &g) != 0) {
		printf("allocated: no member files match %s\n", pat);
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct stat st;

		if (stat(g.gl_pathv[i], &st) == 0 && st.st_size > 0)
			printf("allocated %s %lld%%\n", strrchr(g.gl_pathv[i], '/') + 1,
			       (long long)((uint64_t)st.st_blocks * 512 * 100 / (uint64_t)st.st_size));
	}
	globfree(&g);
}

/* Inside the throwaway kernel: report what we see, in a way the host test
 * can check byte for byte. */
static int echo_mode(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--in-sandbox") || !strcmp(a, "--progress") || !strcmp(a, "--no-progress") ||
		    !strcmp(a, "-v") || !strcmp(a, "-q"))
			printf("flag %s\n", a);
		else if (!strcmp(a, "where")) {
			struct sb_kernel_facts f;

			sb_sandbox_probe(&f, true, true, false);
			printf("inside %d uml %d md %d dm %d\n", sb_sandbox_inside(ours), f.uml, f.md, f.dm);
		}
		else if (!strcmp(a, "cwd")) {
			char buf[4096];
			printf("cwd %s\n", getcwd(buf, sizeof(buf)) ? buf : "?");
		} else if (!strcmp(a, "tty"))
			printf("tty out %d err %d\n", isatty(1), isatty(2));
		else if (!strncmp(a, "env=", 4))
			printf("env %s=%s\n", a + 4, getenv(a + 4) ? getenv(a + 4) : "(unset)");
		else if (!strcmp(a, "tricky")) {
			/* partial markers, CR/LF, tabs, a NUL: must pass unchanged */
			fwrite("a\036\036sb-en\tb\r\n\036\036\036x\0y\n", 1, 19, stdout);
		} else if (!strncmp(a, "err=", 4))
			fprintf(stderr, "%s\n", a + 4);
		else if (!strncmp(a, "exit=", 5)) {
			fflush(stdout);
			return atoi(a + 5);
		} else if (!strcmp(a, "punch"))
			punch_members();
		else if (!strncmp(a, "allocated=", 10))
			allocated(a + 10);
		else if (!strcmp(a, "sleep"))
			sleep(3600);
		else
			printf("arg '%s'\n", a);
		fflush(stdout);
	}
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_forced),
		cmocka_unit_test(test_no_uml),
		cmocka_unit_test(test_inside),
		cmocka_unit_test(test_probe_consistent),
		cmocka_unit_test(test_env_names),
		cmocka_unit_test(test_check_exec),
	};

	if (argc > 1 && !strcmp(argv[1], "--in-sandbox")) {
		ours = true;
		return echo_mode(argc, argv);
	}
	if (argc > 1 && !strcmp(argv[1], "rerun")) {
		struct sb_err err = { 0 };
		int code, rc;

		rc = sb_sandbox_rerun(argc - 2, argv + 2, NULL, &code, &err);
		if (rc < 0) {
			fprintf(stderr, "test_sandbox: %s\n", err.msg);
			return 100;
		}
		return code;
	}
	if (argc > 4 && !strcmp(argv[1], "rerun-members")) {
		struct sb_sandbox_members m = { .count = (unsigned)atoi(argv[2]),
						.size = strtoull(argv[3], NULL, 10) };
		struct sb_err err = { 0 };
		int code, rc;

		snprintf(m.dir, sizeof(m.dir), "%s", argv[4]);
		rc = sb_sandbox_rerun(argc - 5, argv + 5, &m, &code, &err);
		if (rc < 0) {
			fprintf(stderr, "test_sandbox: %s\n", err.msg);
			return 100;
		}
		return code;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
