/* The stack description format read from files: every shipped stack in
 * stacks/ (the Helios4 five exactly, RAID10 layouts, matrix expansions, and
 * CI's small sizes), the file checks (directory, empty, too big, missing,
 * not regular, the name taken from the file) and the free-space check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spec/spec.h"

/* The five stacks of the helios64 write-up: RAID1 of two, metadata 1.2,
 * assume-clean, 4 KiB blocks, bonnie with fsync. 1 if base is one of them. */
static int check_helios(const char *base, const struct sb_stack_spec *s)
{
	if (strcmp(base, "ext4") && strcmp(base, "omv-ext4-lvm") && strcmp(base, "luks512") &&
	    strcmp(base, "luks4096") && strcmp(base, "luks4096-cesa"))
		return 0;
	assert_true(s->raid.enabled);
	assert_int_equal(s->raid.level, 1);
	assert_int_equal(s->raid.devices, 2);
	assert_string_equal(s->raid.metadata, "1.2");
	assert_int_equal(s->raid.sync, SB_SYNC_ASSUME_CLEAN);
	assert_int_equal(s->fs.block_size, 4096);
	assert_string_equal(s->bench.suites[0], "bonnie");
	assert_true(s->bench.fsync);
	assert_int_equal(s->bench.chunk, 8192);
	assert_int_equal(s->bench.files, 1);
	assert_int_equal(s->lvm.enabled, !strcmp(base, "omv-ext4-lvm"));
	assert_int_equal(s->luks.enabled, !strncmp(base, "luks", 4));
	if (!strcmp(base, "luks4096-cesa")) {
		assert_string_equal(s->luks.cipher, "aes-cbc-essiv:sha256");
		assert_int_equal(s->luks.key_size, 256);
		assert_int_equal(s->luks.sector_size, 4096);
	} else if (s->luks.enabled) {
		assert_string_equal(s->luks.cipher, "aes-xts-plain64");
		assert_int_equal(s->luks.key_size, 512);
		assert_int_equal(s->luks.sector_size, !strcmp(base, "luks512") ? 512 : 4096);
	}
	return 1;
}

/* CI's small sizes validate too: 64 MiB, or the stack's own
 * smallest where a layer needs more (a filesystem's minimum); frees *lp. */
static void check_small_sizes(const char *path, struct sb_spec_list *lp)
{
	char size[64];
	const char *sets[] = { size, "bench.size=16MiB" };
	struct sb_spec_list l2 = { 0 };
	struct sb_err e = { 0 };
	uint64_t min = 64ULL << 20;
	unsigned k;

	for (k = 0; k < lp->n; k++)
		if (sb_spec_min_loop_size(&lp->items[k]) > min)
			min = sb_spec_min_loop_size(&lp->items[k]);
	snprintf(size, sizeof(size), "devices.loop.size=%lluB", (unsigned long long)min);
	sb_spec_list_free(lp);
	if (sb_spec_load(path, sets, 2, &l2, &e) != 0)
		fail_msg("%s with --set: %s", path, e.msg);
	sb_spec_list_free(&l2);
}

static void test_shipped_stacks(void **st)
{
	const char *src = getenv("SB_SOURCE_DIR");
	char dir[1024], path[2048];
	struct dirent *d;
	unsigned n = 0, helios = 0;
	DIR *dp;

	(void)st;
	assert_non_null(src);
	snprintf(dir, sizeof(dir), "%s/stacks", src);
	dp = opendir(dir);
	assert_non_null(dp);
	while ((d = readdir(dp))) {
		struct sb_spec_list l = { 0 };
		struct sb_err e = { 0 };
		size_t nl = strlen(d->d_name);
		char base[256];

		if (nl < 5 || strcmp(d->d_name + nl - 4, ".yml"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (sb_spec_load(path, NULL, 0, &l, &e) != 0)
			fail_msg("%s: %s", path, e.msg);
		snprintf(base, sizeof(base), "%.*s", (int)(nl - 4), d->d_name);
		if (l.n == 1) {
			assert_string_equal(l.items[0].name, base);
		} else {
			assert_int_equal(strncmp(l.items[0].name, base, strlen(base)), 0);
		}
		helios += check_helios(base, &l.items[0]);
		if (!strncmp(base, "raid10-", 7)) {
			assert_int_equal(l.items[0].raid.level, 10);
			assert_int_equal(l.items[0].raid.devices, 4);
			assert_string_equal(l.items[0].raid.layout, base + 7);
			assert_int_equal(l.items[0].raid.chunk, 512 * 1024);
		}
		if (!strcmp(base, "matrix-luks"))
			assert_int_equal(l.n, 4);
		if (!strcmp(base, "raid5-stripe-cache")) {
			static const uint32_t sizes[4] = { 256, 1024, 4096, 8192 };

			assert_int_equal(l.n, 4);
			for (unsigned i = 0; i < 4; i++)
				assert_int_equal(l.items[i].raid.stripe_cache_size, sizes[i]);
		}
		check_small_sizes(path, &l);
		n++;
	}
	closedir(dp);
	assert_true(n >= 8);
	assert_int_equal(helios, 5);
}

static void test_files(void **st)
{
	char dir[] = "/tmp/sbspecXXXXXX", path[256];
	struct sb_spec_list l = { 0 };
	struct sb_err e = { 0 };
	char *big;
	FILE *f;

	(void)st;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(sb_spec_load(dir, NULL, 0, &l, &e), -EINVAL);
	snprintf(path, sizeof(path), "%s:1:1: is a directory; expected a YAML stack file", dir);
	assert_string_equal(e.msg, path);

	snprintf(path, sizeof(path), "%s/empty.yml", dir);
	f = fopen(path, "w");
	fclose(f);
	sb_err_clear(&e);
	assert_int_equal(sb_spec_load(path, NULL, 0, &l, &e), -EINVAL);
	assert_non_null(strstr(e.msg, ":1:1: empty stack description"));
	unlink(path);

	snprintf(path, sizeof(path), "%s/big.yml", dir);
	f = fopen(path, "w");
	big = calloc(1, 2 << 20);
	memset(big, '#', (2 << 20) - 1);
	fputs(big, f);
	fclose(f);
	free(big);
	sb_err_clear(&e);
	assert_int_equal(sb_spec_load(path, NULL, 0, &l, &e), -EINVAL);
	assert_non_null(strstr(e.msg, ":1:1: file is 2097151 bytes; a stack file may be at most 1 MiB"));
	unlink(path);

	snprintf(path, sizeof(path), "%s/missing.yml", dir);
	sb_err_clear(&e);
	assert_int_equal(sb_spec_load(path, NULL, 0, &l, &e), -EINVAL);
	assert_non_null(strstr(e.msg, ":1:1: cannot open the stack file: No such file or directory"));

	sb_err_clear(&e);
	assert_int_equal(sb_spec_load("/dev/null", NULL, 0, &l, &e), -EINVAL);
	assert_string_equal(e.msg, "/dev/null:1:1: is not a regular file; expected a YAML stack file");

	/* the name comes from the file */
	snprintf(path, sizeof(path), "%s/My_Stack.yaml", dir);
	f = fopen(path, "w");
	fputs("fs: {}\n", f);
	fclose(f);
	assert_int_equal(sb_spec_load(path, NULL, 0, &l, &e), 0);
	assert_string_equal(l.items[0].name, "my_stack");
	sb_spec_list_free(&l);
	unlink(path);
	rmdir(dir);
}

static void test_free_space(void **st)
{
	const char *sets[] = { "devices.loop.dir=/tmp/sb-nonexistent/deeper", "devices.loop.size=64TiB" };
	struct sb_spec_list l = { 0 };
	struct sb_err e = { 0 };

	(void)st;
	/* /tmp has nowhere near 64 TiB free: the nearest existing parent is measured */
	assert_int_equal(sb_spec_load_buffer("{}\n", 3, "t.yml", sets, 2, &l, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "--set devices.loop.size=64TiB: devices.loop.size: 1 x 64 TiB = 64.0 TiB does not fit in the "));
	assert_non_null(strstr(e.msg, " free under /tmp (sparse files fill up when benchmarked)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_stacks),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_free_space),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
