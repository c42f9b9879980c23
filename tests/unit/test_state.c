/* State files: round trip, atomic rewrite, -EEXIST with a useful message,
 * listing, and refusal of bad names. Each test gets its own temp dir. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/state.h"

static char dir[64];

static int setup(void **ctx)
{
	snprintf(dir, sizeof(dir), "/tmp/sb-test-state.XXXXXX");
	assert_non_null(mkdtemp(dir));
	setenv("STACKBENCH_STATE_DIR", dir, 1);
	return 0;
}

static int teardown(void **ctx)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static unsigned count_files(void)
{
	struct dirent *de;
	unsigned n = 0;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void test_dir_from_env(void **ctx)
{
	assert_string_equal(sb_state_dir(), dir);
	unsetenv("STACKBENCH_STATE_DIR");
	assert_string_equal(sb_state_dir(), "/run/stackbench");
	setenv("STACKBENCH_STATE_DIR", dir, 1);
}

static void test_round_trip(void **ctx)
{
	static struct sb_state st, back;
	struct sb_err err = { 0 };
	char path[256];

	assert_int_equal(sb_state_create(&st, "ext4", "stacks/ext4.yml", &err), 0);
	snprintf(path, sizeof(path), "%s/ext4.state", dir);
	assert_string_equal(st.path, path);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(sb_state_add(&st, "loop", "file", "/var/tmp/stackbench/ext4/d0", NULL, &err), 0);
	assert_int_equal(sb_state_add(&st, "loop", "loopdev", "/dev/loop3", "/var/tmp/stackbench/ext4/d0", &err), 0);
	assert_int_equal(sb_state_add(&st, "md", "md", "/dev/md/sb-ext4", "", &err), 0);
	assert_int_equal(sb_state_set_extra(&st, "md", "md", "/dev/md/sb-ext4", "uuid=1234", &err), 0);

	assert_int_equal(sb_state_load("ext4", &back, &err), 0);
	assert_string_equal(back.stack, "ext4");
	assert_string_equal(back.source, "stacks/ext4.yml");
	assert_int_equal(back.pid, getpid());
	assert_int_equal(strlen(back.started), 20);
	assert_int_equal(back.nobj, 3);
	assert_string_equal(back.obj[1].layer, "loop");
	assert_string_equal(back.obj[1].kind, "loopdev");
	assert_string_equal(back.obj[1].id, "/dev/loop3");
	assert_string_equal(back.obj[1].extra, "/var/tmp/stackbench/ext4/d0");
	assert_string_equal(back.obj[2].extra, "uuid=1234");

	assert_int_equal(sb_state_remove(&st, 1, &err), 0);
	assert_int_equal(sb_state_load("ext4", &back, &err), 0);
	assert_int_equal(back.nobj, 2);
	assert_string_equal(back.obj[1].layer, "md");
	assert_int_equal(err.code, 0);
}

static void test_atomic_no_tmp_left(void **ctx)
{
	static struct sb_state st, back;
	struct sb_err err = { 0 };
	char id[32];
	unsigned i;

	assert_int_equal(sb_state_create(&st, "a", "", &err), 0);
	for (i = 0; i < 20; i++) {
		snprintf(id, sizeof(id), "/dev/loop%u", i);
		assert_int_equal(sb_state_add(&st, "loop", "loopdev", id, "f", &err), 0);
		/* every rewrite leaves exactly the one state file behind */
		assert_int_equal(count_files(), 1);
		assert_int_equal(sb_state_load("a", &back, &err), 0);
		assert_int_equal(back.nobj, i + 1);
	}
	assert_int_equal(sb_state_delete(&st, &err), 0);
	assert_int_equal(count_files(), 0);
	assert_int_equal(sb_state_load("a", &back, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "no stack named a"));
}

static void test_full(void **ctx)
{
	static struct sb_state st;
	struct sb_err err = { 0 };
	unsigned i;

	assert_int_equal(sb_state_create(&st, "full", "", &err), 0);
	for (i = 0; i < SB_STATE_MAX_OBJS; i++)
		assert_int_equal(sb_state_add(&st, "loop", "file", "x", NULL, &err), 0);
	assert_int_equal(sb_state_add(&st, "loop", "file", "x", NULL, &err), -E2BIG);
	assert_int_equal(st.nobj, SB_STATE_MAX_OBJS);
}

static void test_exists_names_leftovers(void **ctx)
{
	static struct sb_state st, again;
	struct sb_err err = { 0 };

	assert_int_equal(sb_state_create(&st, "luks512", "x.yml", &err), 0);
	assert_int_equal(sb_state_add(&st, "loop", "loopdev", "/dev/loop7", "/f", &err), 0);
	assert_int_equal(sb_state_add(&st, "luks", "dm", "sb-luks512-crypt", NULL, &err), 0);
	assert_int_equal(sb_state_create(&again, "luks512", "x.yml", &err), -EEXIST);
	assert_non_null(strstr(err.msg, "loopdev /dev/loop7"));
	assert_non_null(strstr(err.msg, "dm sb-luks512-crypt"));
	assert_non_null(strstr(err.msg, "run `stackbench teardown luks512`"));
	/* the leftover state is untouched */
	assert_int_equal(sb_state_load("luks512", &again, NULL), 0);
	assert_int_equal(again.nobj, 2);
}

static void test_corrupt_and_bad_names(void **ctx)
{
	static struct sb_state st;
	struct sb_err err = { 0 };
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/broken.state", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{ \"stack\": \"broken\", \"objects\": [ {\"layer\": \"loop\"} ] }", f);
	fclose(f);
	assert_int_equal(sb_state_load("broken", &st, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "lacks layer, kind or id"));
	sb_err_clear(&err);
	assert_int_equal(sb_state_create(&st, "broken", "", &err), -EEXIST);
	assert_non_null(strstr(err.msg, "cannot be read"));
	sb_err_clear(&err);
	assert_int_equal(sb_state_load("../etc/passwd", &st, &err), -EINVAL);
	sb_err_clear(&err);
	assert_int_equal(sb_state_create(&st, ".hidden", "", &err), -EINVAL);
}

/* A process an earlier teardown left behind is recorded with its start
 * time, read back, waited for while it runs, and dropped once it ends. */
static void test_pending(void **ctx)
{
	static struct sb_state st, back;
	struct sb_err err = { 0 };
	int status;
	pid_t child = fork();

	assert_true(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	assert_int_equal(sb_state_create(&st, "hung", "", &err), 0);
	assert_int_equal(sb_state_add_pending(&st, child, "removing md md /dev/md/sb-hung", &err), 0);
	assert_int_equal(sb_state_load("hung", &back, &err), 0);
	assert_int_equal(back.npending, 1);
	assert_int_equal(back.pending[0].pid, child);
	assert_true(back.pending[0].start > 0);
	assert_string_equal(back.pending[0].doing, "removing md md /dev/md/sb-hung");

	assert_int_equal(sb_state_wait_pending(&back, 300, &err), -EBUSY);
	assert_non_null(strstr(err.msg, "still removing md md /dev/md/sb-hung"));
	/* the same pid with another start time is another process: not waited for */
	back.pending[0].start++;
	assert_int_equal(sb_state_wait_pending(&back, 300, &err), 0);
	assert_int_equal(back.npending, 0);

	assert_int_equal(sb_state_load("hung", &back, &err), 0);
	assert_int_equal(back.npending, 0);
	assert_int_equal(sb_state_add_pending(&back, child, "removing mount mount /x", &err), 0);
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(sb_state_wait_pending(&back, 5000, &err), 0);
	assert_int_equal(back.npending, 0);
	/* a process that is already gone is not recorded at all */
	assert_int_equal(sb_state_add_pending(&back, child, "removing mount mount /x", &err), 0);
	assert_int_equal(back.npending, 0);
}

static void test_list(void **ctx)
{
	static struct sb_state st;
	char **names;
	unsigned n, i;

	assert_int_equal(sb_state_list(&names, &n, NULL), 0);
	assert_int_equal(n, 0);
	free(names);
	assert_int_equal(sb_state_create(&st, "zeta", "", NULL), 0);
	assert_int_equal(sb_state_create(&st, "alpha", "", NULL), 0);
	assert_int_equal(sb_state_create(&st, "mid.1", "", NULL), 0);
	assert_int_equal(sb_state_list(&names, &n, NULL), 0);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "alpha");
	assert_string_equal(names[1], "mid.1");
	assert_string_equal(names[2], "zeta");
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dir_from_env, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_atomic_no_tmp_left, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exists_names_leftovers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_and_bad_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
