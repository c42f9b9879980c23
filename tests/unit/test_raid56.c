/* md RAID5 / RAID6: the keys and their defaults, the errors (FILE:LINE:COL),
 * capacity and md's stripe geometry, ext4's stride from it, the plan's
 * mdadm arguments, and the sync-time estimate from a measured sync. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/layer.h"
#include "core/stack.h"
#include "layers/md_sync.h"
#include "spec/part.h"

static void test_defaults(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l;
	const struct sb_raid_spec *r;
	uint64_t chunk;
	uint32_t data;
	char sum[256];

	(void)ctx;
	l = sb_t_load("devices: {loop: {size: 1GiB}}\nraid: {level: 5}\n", 0, &err);
	r = &l.items[0].raid;
	assert_int_equal(r->devices, 3);                 /* RAID5's minimum */
	assert_int_equal(l.items[0].devices.loop.count, 3);
	assert_string_equal(r->layout, "left-symmetric"); /* mdadm's default */
	assert_int_equal(r->chunk, 512 << 10);
	assert_int_equal(r->data_disks, 2);
	assert_string_equal(r->consistency, "bitmap");    /* internal bitmap by default */
	assert_int_equal(sb_spec_device_bytes(&l.items[0]), 2ULL << 30);   /* (n-1) x member */
	assert_int_equal(sb_spec_copies(&l.items[0]), 2);  /* 3 writes per 2 data: 1.5, rounded up */
	assert_true(sb_spec_raid_stripes(&l.items[0], &chunk, &data));
	assert_int_equal(chunk, 512 << 10);
	assert_int_equal(data, 2);
	sum[0] = '\0';
	sb_spec_summary(&l.items[0], sum, sizeof(sum));
	assert_non_null(strstr(sum, "RAID5 left-symmetric ×3, 512 KiB chunks"));
	sb_spec_list_free(&l);

	l = sb_t_load("devices: {loop: {count: 6, size: 1GiB}}\nraid: {level: 6, layout: ra, chunk: 64KiB}\n", 0, &err);
	r = &l.items[0].raid;
	assert_int_equal(r->devices, 6);
	assert_string_equal(r->layout, "right-asymmetric");   /* short name, canonical */
	assert_int_equal(r->data_disks, 4);
	assert_int_equal(sb_spec_device_bytes(&l.items[0]), 4ULL << 30);   /* (n-2) x member */
	sb_spec_list_free(&l);

	l = sb_t_load("raid: {level: 1}\n", 0, &err);
	assert_false(sb_spec_raid_stripes(&l.items[0], &chunk, &data));  /* RAID1: no stripes */
	sb_spec_list_free(&l);
}

static void test_errors(void **ctx)
{
	(void)ctx;
	sb_t_load_bad("raid: {level: 5, devices: 2}\n",
		 "t.yml:1:18: raid.devices: RAID5 needs at least 3 devices, got 2");
	sb_t_load_bad("raid: {level: 6, devices: 3}\n",
		 "t.yml:1:18: raid.devices: RAID6 needs at least 4 devices, got 3");
	sb_t_load_bad("raid: {level: 5, layout: ddf-N-continue}\n",
		 "t.yml:1:26: raid.layout: ddf-N-continue is a RAID6 layout; the kernel's RAID5 takes left/right-symmetric/asymmetric, parity-first and parity-last");
	sb_t_load_bad("raid: {level: 6, layout: far2}\n",
		 "t.yml:1:26: raid.layout: unknown RAID6 layout 'far2'; allowed: left-symmetric, left-asymmetric, right-symmetric, right-asymmetric (or ls, la, rs, ra), parity-first, parity-last, ddf-zero-restart, ddf-N-restart, ddf-N-continue, left-symmetric-6, right-symmetric-6, left-asymmetric-6, right-asymmetric-6, parity-first-6");
	sb_t_load_bad("raid: {level: 6, consistency_policy: ppl}\n",
		 "t.yml:1:38: raid.consistency_policy: ppl (partial parity log) is for RAID5 only, not RAID6");
	sb_t_load_bad("raid: {level: 5, bitmap: none, consistency_policy: bitmap}\n",
		 "t.yml:1:52: raid.consistency_policy: bitmap needs raid.bitmap: internal");
	sb_t_load_bad("raid: {level: 5, estimate_member_size: 4TB}\n",
		 "t.yml:1:40: raid.estimate_member_size: the estimate comes from the measured initial sync; it needs raid.sync: wait");
}

static void test_ppl_and_ddf(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l;

	(void)ctx;
	l = sb_t_load("raid: {level: 5, consistency_policy: ppl}\n", 0, &err);
	assert_string_equal(l.items[0].raid.bitmap, "none");   /* ppl replaces the bitmap */
	sb_spec_list_free(&l);
	l = sb_t_load("raid: {level: 6, layout: ddf-N-restart}\n", 0, &err);
	assert_string_equal(l.items[0].raid.md_layout, "ddf-N-restart");
	assert_int_equal(l.items[0].raid.devices, 4);
	sb_spec_list_free(&l);
	l = sb_t_load("raid: {level: 5, bitmap: none}\n", 0, &err);
	assert_string_equal(l.items[0].raid.consistency, "resync");
	sb_spec_list_free(&l);
	/* the sysfs layout numbers md_describe reads back (drivers/md/raid5.h) */
	assert_string_equal(sb_md_r56_layout_name(2), "left-symmetric");
	assert_string_equal(sb_md_r56_layout_name(5), "parity-last");
	assert_string_equal(sb_md_r56_layout_name(18), "left-symmetric-6");
	assert_null(sb_md_r56_layout_name(7));
}

static void test_plan(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l;
	struct sb_stack *s = calloc(1, sizeof(*s));
	struct sb_plan *p = calloc(1, sizeof(*p));
	char dir[] = "/tmp/sb-test-raid56.XXXXXX";
	bool md = false, ext4 = false;

	(void)ctx;
	assert_non_null(mkdtemp(dir));
	setenv("STACKBENCH_STATE_DIR", dir, 1);
	l = sb_t_load("name: r6\ndevices: {loop: {size: 256MiB}}\n"
		 "raid: {level: 6, layout: parity-first, chunk: 64KiB}\nfs: {block_size: 4096}\n", 0, &err);
	assert_int_equal(sb_stack_init(s, &l.items[0], &err), 0);
	assert_int_equal(sb_stack_plan(s, p, &err), 0);
	for (unsigned i = 0; i < p->nbuild; i++) {
		if (!strncmp(p->build[i], "md: ", 4)) {
			md = true;
			assert_non_null(strstr(p->build[i], "--level=6 --layout=parity-first --chunk=64K --raid-devices=4"));
			assert_non_null(strstr(p->build[i], "--assume-clean"));
			assert_non_null(strstr(p->build[i], "unsafe for real data"));
		}
		/* 64 KiB / 4 KiB = 16; 4 members - 2 parities = 2 data disks */
		if (!strncmp(p->build[i], "ext4: ", 6))
			ext4 = strstr(p->build[i], "stride=16,stripe_width=32") != NULL;
	}
	assert_true(md);
	assert_true(ext4);
	sb_stack_release(s);
	sb_spec_list_free(&l);
	/* xfs takes the same geometry: su = chunk, sw = n-1 on a 5-member RAID5 */
	memset(s, 0, sizeof(*s));
	memset(p, 0, sizeof(*p));
	l = sb_t_load("name: r5x\ndevices: {loop: {size: 1GiB}}\n"
		 "raid: {level: 5, devices: 5, chunk: 128KiB}\nfs: {type: xfs}\n", 0, &err);
	assert_int_equal(sb_stack_init(s, &l.items[0], &err), 0);
	assert_int_equal(sb_stack_plan(s, p, &err), 0);
	ext4 = false;
	for (unsigned i = 0; i < p->nbuild; i++)
		if (!strncmp(p->build[i], "xfs: ", 5))
			ext4 = strstr(p->build[i], "-d su=131072,sw=4") != NULL;
	assert_true(ext4);
	sb_stack_release(s);
	sb_spec_list_free(&l);
	free(s);
	free(p);
	rmdir(dir);
}

/* 64 MiB per member in 3.2 s = 20.97 MB/s; 4 TB at that speed: 52.98 h */
static void test_estimate(void **ctx)
{
	struct sb_err err = { 0 };
	struct sb_spec_list l;
	struct sb_md_sync *m = calloc(1, sizeof(*m));
	struct json_object *o, *e, *v;
	char line[256];

	(void)ctx;
	l = sb_t_load("raid: {level: 5, sync: wait, estimate_member_size: 4TB}\n", 0, &err);
	m->duration = 3.2;
	m->member_bytes = 64ULL << 20;
	m->n = 1;
	m->t[0] = 0.5;
	m->mbps[0] = 20000 * 1024 / 1e6;
	sb_md_sync_estimate(m, &l.items[0].raid, line, sizeof(line));
	assert_string_equal(line, "initial sync of 3 × 4 TB RAID5 at the measured 21.0 MB/s: ~53.0 h; "
			    "a rebuild onto one new member, estimated from that speed (not measured): ~53.0 h");
	o = sb_md_sync_json(m, &l.items[0].raid);
	assert_true(json_object_object_get_ex(o, "average_mbps", &v));
	assert_true(json_object_get_double(v) > 20.97 && json_object_get_double(v) < 20.98);
	assert_true(json_object_object_get_ex(o, "samples", &v));
	assert_int_equal(json_object_array_length(v), 1);
	assert_true(json_object_get_double(json_object_array_get_idx(json_object_array_get_idx(v, 0), 1)) == 20.48);
	assert_true(json_object_object_get_ex(o, "estimate", &e));
	assert_true(json_object_object_get_ex(e, "initial_sync_h", &v));
	assert_true(json_object_get_double(v) > 52.9 && json_object_get_double(v) < 53.0);
	json_object_put(o);
	sb_spec_list_free(&l);
	free(m);
}

/* The tunables: RAID5/6 only for the stripe cache, md's range, min <= max,
 * the members' scheduler and nr_requests; accepted values reach the spec
 * and the summary. */
static void test_tunables(void **state)
{
	struct sb_spec_list l;
	struct sb_err err = { 0 };

	sb_t_expect_error("raid: {level: 1, stripe_cache_size: 1024}\n",
			  "raid.stripe_cache_size: only RAID5/6 have a stripe cache, not RAID1");
	sb_t_expect_error("raid: {level: 5, stripe_cache_size: 16}\n", "md takes 17..32768");
	sb_t_expect_error("raid: {level: 5, stripe_cache_size: 40000}\n", "stripe_cache_size");
	sb_t_expect_error("raid: {level: 5, sync_speed_min: 9000, sync_speed_max: 100}\n",
			  "raid.sync_speed_min: 9000 KiB/s is above sync_speed_max 100");
	sb_t_expect_error("devices: {loop: {size: 1GiB}, nr_requests: 3}\n", "the kernel takes 4 or more");
	sb_t_expect_error("devices: {loop: {size: 1GiB}, scheduler: cfq}\n", "allowed: none, mq-deadline, bfq, kyber");
	l = sb_t_load("devices: {loop: {size: 1GiB}, scheduler: mq-deadline, nr_requests: 64, read_ahead_kb: 512}\n"
		      "raid: {level: 6, stripe_cache_size: 4096, sync_speed_min: 1000, sync_speed_max: 2000, "
		      "read_ahead_kb: 1024}\n", 0, &err);
	assert_int_equal(l.items[0].raid.stripe_cache_size, 4096);
	assert_int_equal(l.items[0].raid.sync_speed_min, 1000);
	assert_int_equal(l.items[0].raid.sync_speed_max, 2000);
	assert_int_equal(sb_spec_read_ahead_kb(&l.items[0], sb_layer_find("md")->spec), 1024);
	assert_string_equal(l.items[0].devices.scheduler, "mq-deadline");
	assert_int_equal(l.items[0].devices.nr_requests, 64);
	assert_int_equal(l.items[0].devices.read_ahead_kb, 512);
	{
		char sum[512];

		sb_spec_summary(&l.items[0], sum, sizeof(sum));
		assert_non_null(strstr(sum, "stripe cache 4096"));
	}
	sb_spec_list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_ppl_and_ddf),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_estimate),
		cmocka_unit_test(test_tunables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
