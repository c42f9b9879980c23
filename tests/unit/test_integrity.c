/* integrity: the integrity section's keys (defaults, JSON, every rejection
 * with its location), its place in the stack (above a fault device, below
 * md), its plan steps (per member, the wipe, the key never stored), its
 * kernel need and its summary. */
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
		"algorithm", "crc32c",
		"journal", "journal",
		"tag_size", "0",
		"sector_size", "512",
		NULL,
	};

	(void)st;
	sb_t_section_off("integrity", "integrity");
	sb_t_section_has("raid: {level: 1}\nintegrity: {}\n", "integrity", want,
			 "+ dm-integrity crc32c (journal)");
}

static void rejections(void **st)
{
	(void)st;
	sb_t_load_bad("integrity:\n  algorithm: md5\n",
	    "t.yml:2:14: integrity.algorithm: 'md5' is not allowed; allowed: crc32c, crc32, sha1, sha256, hmac-sha256, hmac-sha512");
	sb_t_load_bad("integrity:\n  journal: on\n",
	    "t.yml:2:12: integrity.journal: 'on' is not allowed; allowed: journal, bitmap, none");
	sb_t_load_bad("integrity:\n  tag_size: 8\n",
	    "t.yml:2:13: integrity.tag_size: 8 is more than crc32c's 4-byte digest (0..4; 0: 4)");
	sb_t_load_bad("integrity:\n  sector_size: 1000\n",
	    "t.yml:2:16: integrity.sector_size: '1000' is not allowed; allowed: 512, 1024, 2048, 4096");
	sb_t_load_bad("devices: {loop: {sector_size: 4096}}\nintegrity:\n  sector_size: 512\n",
	    "t.yml:3:16: integrity.sector_size: 512 is below the devices' 4096-byte sector");
	sb_t_load_bad("fs: {block_size: 1024}\nintegrity:\n  sector_size: 4096\n",
	    "t.yml:3:16: integrity.sector_size: 4096 is above fs.block_size 1024 (the filesystem would write part of a tagged sector)");
}

static void order_plan_needs(void **st)
{
	static const char *const order[] = { "loop", "fault", "integrity", "md" };
	struct sb_plan *p = calloc(1, sizeof(*p));

	(void)st;
	sb_t_dm_plan("raid: {level: 1}\nfaults:\n  delay: {member: 1}\n"
		     "integrity: {algorithm: hmac-sha256, journal: bitmap, sector_size: 4096}\n", order, 4, p);
	assert_true(sb_t_has_step(p->build, p->nbuild, "format dm-integrity on DEV1 (libcryptsetup CRYPT_INTEGRITY: "
				  "hmac(sha256), tag 32 B, sector 4096 B, bitmap mode"));
	assert_true(sb_t_has_step(p->build, p->nbuild, "open /dev/mapper/sb-t-integrity-0 with a random key in locked memory, never stored"));
	assert_true(sb_t_has_step(p->build, p->nbuild, "then zero all of it through the mapping"));
	assert_true(sb_t_has_step(p->teardown, p->nteardown, "close sb-t-integrity-1"));
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
