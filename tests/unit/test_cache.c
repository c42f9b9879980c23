/* cache: the cache section's keys (defaults, JSON, every rejection with
 * its location), its place in the stack (over md or the single device,
 * below LVM and LUKS), its plan steps (the dm table, metadata size, the
 * writeback flush), its kernel need and its summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "core/stack.h"
#include "fixture.h"
#include "spec/spec.h"

static void absent_is_off(void **st)
{
	(void)st;
	sb_t_section_off("cache", "dm-cache");
}

static void defaults_and_summary(void **st)
{
	static const char *const want[] = {
		"size", "67108864",
		"mode", "writethrough",
		"policy", "smq",
		"block_size", "65536",
		"dir", "/dev/shm",
		NULL,
	};

	(void)st;
	sb_t_section_has("raid: {level: 1}\ncache: {}\n", "cache", want,
			 "RAID1 ×2 on loop 2×1 GiB (512 B sectors) → dm-cache 64 MiB writethrough → ext4");
}

static void rejections(void **st)
{
	(void)st;
	sb_t_load_bad("raid: {level: 1}\ncache:\n  mode: writearound\n",
	    "t.yml:3:9: cache.mode: 'writearound' is not allowed; allowed: writethrough, writeback, passthrough");
	sb_t_load_bad("raid: {level: 1}\ncache:\n  policy: mq\n",
	    "t.yml:3:11: cache.policy: 'mq' is not allowed; allowed: smq");
	sb_t_load_bad("raid: {level: 1}\ncache:\n  block_size: 48KiB\n",
	    "t.yml:3:15: cache.block_size: must be 32KiB..1GiB and a multiple of 32KiB (dm-cache)");
	sb_t_load_bad("raid: {level: 1}\ncache:\n  block_size: 16KiB\n",
	    "t.yml:3:15: cache.block_size: must be 32KiB..1GiB and a multiple of 32KiB (dm-cache)");
	sb_t_load_bad("raid: {level: 1}\ncache:\n  size: 1040KiB\n",
	    "t.yml:3:9: cache.size: must be a whole number of cache.block_size blocks");
	sb_t_load_bad("raid: {level: 1}\ncache:\n  dir: shm\n",
	    "t.yml:3:8: cache.dir: must be an absolute path");
}

static bool has_step(char (*steps)[512], unsigned n, const char *what)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (strstr(steps[i], what))
			return true;
	return false;
}

static void plan_of(const char *yaml, const char **names, unsigned nnames, struct sb_plan *p)
{
	struct sb_err e;
	struct sb_spec_list l = sb_t_load(yaml, 0, &e);
	struct sb_stack *s = calloc(1, sizeof(*s));
	struct sb_kernel_needs n = { 0 };
	unsigned i;

	assert_int_equal(sb_stack_init(s, &l.items[0], &e), 0);
	for (i = 0; i < nnames; i++)
		assert_string_equal(s->layers[i].ops->name, names[i]);
	assert_int_equal(sb_stack_plan(s, p, &e), 0);
	sb_stack_needs(&l.items[0], &n);
	assert_true(sb_kernel_needs_has(&n, "dm"));
	sb_stack_release(s);
	sb_spec_list_free(&l);
	free(s);
}

static void order_plan_needs(void **st)
{
	static const char *over_md[] = { "loop", "md", "cache", "lvm", "luks", "ext4" };
	static const char *single[] = { "loop", "cache", "luks", "ext4" };
	struct sb_plan *p = calloc(1, sizeof(*p));

	(void)st;
	plan_of("raid: {level: 1}\nlvm: {}\nluks: {}\n"
		"cache: {size: 32MiB, mode: writeback, block_size: 128KiB}\n", over_md, 6, p);
	/* 4 MiB + 16 B x 256 blocks, rounded up to 5 MiB = 10240 sectors */
	assert_true(has_step(p->build, p->nbuild, "the first 5 MiB"));
	assert_true(has_step(p->build, p->nbuild, "zero the first 4 KiB of sb-t-cmeta"));
	assert_true(has_step(p->build, p->nbuild, "table \"0 SECTORS cache /dev/mapper/sb-t-cmeta /dev/mapper/sb-t-cdata "
			     "/dev/md/sb-t 256 1 writeback smq 0\""));
	assert_true(has_step(p->build, p->nbuild, "/dev/shm/sb-t-cache.img fresh (O_EXCL"));
	assert_true(has_step(p->build, p->nbuild, "(RAM in /dev/shm standing in for an SSD)"));
	assert_true(has_step(p->teardown, p->nteardown, "reload sb-t-cache with the cleaner policy"));
	assert_true(has_step(p->teardown, p->nteardown, "dm remove sb-t-cache, sb-t-cdata, sb-t-cmeta"));
	memset(p, 0, sizeof(*p));
	plan_of("devices: {loop: {count: 1}}\nluks: {}\ncache: {mode: passthrough, dir: /var/tmp/x}\n", single, 4, p);
	assert_true(has_step(p->build, p->nbuild, "/dev/mapper/sb-t-cdata the loop device 128 1 passthrough smq 0\""));
	assert_true(has_step(p->build, p->nbuild, "/var/tmp/x/sb-t-cache.img"));
	assert_false(has_step(p->teardown, p->nteardown, "cleaner"));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(absent_is_off),
		cmocka_unit_test(defaults_and_summary),
		cmocka_unit_test(rejections),
		cmocka_unit_test(order_plan_needs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
