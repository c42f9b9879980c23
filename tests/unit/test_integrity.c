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

static void absent_is_off(void **st)
{
	(void)st;
	sb_t_section_off("integrity", "integrity");
}

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

static bool has_step(char (*steps)[512], unsigned n, const char *what)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (strstr(steps[i], what))
			return true;
	return false;
}

static void order_plan_needs(void **st)
{
	struct sb_err e;
	struct sb_spec_list l = sb_t_load("raid: {level: 1}\nfaults:\n  delay: {member: 1}\n"
				     "integrity: {algorithm: hmac-sha256, journal: bitmap, sector_size: 4096}\n", 0, &e);
	struct sb_stack *s = calloc(1, sizeof(*s));
	struct sb_plan *p = calloc(1, sizeof(*p));
	struct sb_kernel_needs n = { 0 };

	(void)st;
	assert_int_equal(sb_stack_init(s, &l.items[0], &e), 0);
	assert_string_equal(s->layers[0].ops->name, "loop");
	assert_string_equal(s->layers[1].ops->name, "fault");
	assert_string_equal(s->layers[2].ops->name, "integrity");
	assert_string_equal(s->layers[3].ops->name, "md");
	assert_int_equal(sb_stack_plan(s, p, &e), 0);
	assert_true(has_step(p->build, p->nbuild, "format dm-integrity on DEV1 (libcryptsetup CRYPT_INTEGRITY: "
			     "hmac(sha256), tag 32 B, sector 4096 B, bitmap mode"));
	assert_true(has_step(p->build, p->nbuild, "open /dev/mapper/sb-t-integrity-0 with a random key in locked memory, never stored"));
	assert_true(has_step(p->build, p->nbuild, "then zero all of it through the mapping"));
	assert_true(has_step(p->teardown, p->nteardown, "close sb-t-integrity-1"));
	sb_stack_needs(&l.items[0], &n);
	assert_true(sb_kernel_needs_has(&n, "dm"));
	sb_stack_release(s);
	sb_spec_list_free(&l);
	free(p);
	free(s);
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
