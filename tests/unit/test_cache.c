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

/* Absent: off, and not in the summary; present: its defaults. */
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
	sb_t_section_off("cache", "dm-cache");
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

static void order_plan_needs(void **st)
{
	static const char *const over_md[] = { "loop", "md", "cache", "lvm", "luks", "ext4" };
	static const char *const single[] = { "loop", "cache", "luks", "ext4" };
	struct sb_plan *p = calloc(1, sizeof(*p));

	(void)st;
	sb_t_dm_plan("raid: {level: 1}\nlvm: {}\nluks: {}\n"
		"cache: {size: 32MiB, mode: writeback, block_size: 128KiB}\n", over_md, 6, p);
	/* 4 MiB + 16 B x 256 blocks, rounded up to 5 MiB = 10240 sectors */
	assert_true(sb_t_has_step(p->build, p->nbuild, "the first 5 MiB"));
	assert_true(sb_t_has_step(p->build, p->nbuild, "zero the first 4 KiB of sb-t-cmeta"));
	assert_true(sb_t_has_step(p->build, p->nbuild, "table \"0 SECTORS cache /dev/mapper/sb-t-cmeta /dev/mapper/sb-t-cdata "
			     "/dev/md/sb-t 256 1 writeback smq 0\""));
	assert_true(sb_t_has_step(p->build, p->nbuild, "/dev/shm/sb-t-cache.img fresh (O_EXCL"));
	assert_true(sb_t_has_step(p->build, p->nbuild, "(RAM in /dev/shm standing in for an SSD)"));
	assert_true(sb_t_has_step(p->teardown, p->nteardown, "reload sb-t-cache with the cleaner policy"));
	assert_true(sb_t_has_step(p->teardown, p->nteardown, "dm remove sb-t-cache, sb-t-cdata, sb-t-cmeta"));
	memset(p, 0, sizeof(*p));
	sb_t_dm_plan("devices: {loop: {count: 1}}\nluks: {}\ncache: {mode: passthrough, dir: /var/tmp/x}\n", single, 4, p);
	assert_true(sb_t_has_step(p->build, p->nbuild, "/dev/mapper/sb-t-cdata the loop device 128 1 passthrough smq 0\""));
	assert_true(sb_t_has_step(p->build, p->nbuild, "/var/tmp/x/sb-t-cache.img"));
	assert_false(sb_t_has_step(p->teardown, p->nteardown, "cleaner"));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_and_summary),
		cmocka_unit_test(rejections),
		cmocka_unit_test(order_plan_needs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
