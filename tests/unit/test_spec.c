/* The stack description format: defaults, every section, --set, errors
 * with their locations (stack files on disk and the shipped stacks:
 * test_spec_files.c; what is derived from a stack, test_spec_derived.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dirent.h>
#include <json-c/json.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spec/part.h"
#include "spec/spec.h"

static struct sb_spec_list load_ok_sets(const char *yaml, const char *const *sets, unsigned nsets)
{
	struct sb_spec_list l = { 0 };
	struct sb_err e = { 0 };

	if (sb_spec_load_buffer(yaml, strlen(yaml), "t.yml", sets, nsets, &l, &e) != 0)
		fail_msg("rejected: %s\n---\n%s", e.msg, yaml);
	assert_true(l.n >= 1);
	return l;
}

static struct sb_spec_list load_ok(const char *yaml)
{
	return load_ok_sets(yaml, NULL, 0);
}

static void load_bad_sets(const char *yaml, const char *const *sets, unsigned nsets, const char *msg)
{
	struct sb_spec_list l = { 0 };
	struct sb_err e = { 0 };
	int rc = sb_spec_load_buffer(yaml, strlen(yaml), "t.yml", sets, nsets, &l, &e);

	if (rc == 0)
		fail_msg("accepted, expected: %s\n---\n%s", msg, yaml);
	assert_int_equal(rc, -EINVAL);
	assert_int_equal(l.n, 0);
	assert_null(l.items);
	assert_string_equal(e.msg, msg);
}

static void load_bad(const char *yaml, const char *msg)
{
	load_bad_sets(yaml, NULL, 0, msg);
}

/* The top level's keys: name, description, devices, then the sections of
 * the registry's layers in registry order (a new layer's section joins
 * them without this test changing), then fs, bench, matrix. */
static void top_keys(char *buf, size_t len)
{
	const struct sb_spec_part *p;
	unsigned i;

	snprintf(buf, len, "name, description, devices");
	for (i = 0; (p = sb_spec_part_at(i)); i++)
		if (!p->parent[0])
			sb_spec_append(buf, len, ", %s", p->opts[0].key);
	sb_spec_append(buf, len, ", fs, bench, matrix");
	assert_non_null(strstr(buf, "devices, raid, lvm, luks, faults, "));
}

static void unknown_top_key(void)
{
	char keys[400], want[512];

	top_keys(keys, sizeof(keys));
	snprintf(want, sizeof(want), "t.yml:1:1: unknown key 'foo'; allowed at the top level: %s", keys);
	load_bad("foo: 1\n", want);
	snprintf(want, sizeof(want), "t.yml:1:1: expected a mapping of keys at the top level (%s), got a list", keys);
	load_bad("- a\n- b\n", want);
}

static void test_defaults(void **st)
{
	struct sb_spec_list l = load_ok("{}\n");
	struct sb_stack_spec *s = &l.items[0];

	(void)st;
	assert_int_equal(l.n, 1);
	assert_string_equal(s->name, "t");
	assert_string_equal(s->source, "t.yml");
	assert_int_equal(s->devices.kind, SB_DEVICES_LOOP);
	assert_int_equal(s->devices.loop.count, 1);
	assert_int_equal(s->devices.loop.size, 1ULL << 30);
	assert_int_equal(s->devices.loop.sector_size, 512);
	assert_string_equal(s->devices.loop.dir, "/var/tmp/stackbench");
	assert_true(s->devices.loop.direct_io);
	assert_false(s->raid.enabled);
	assert_false(s->lvm.enabled);
	assert_false(s->luks.enabled);
	assert_string_equal(s->fs.type, "ext4");
	assert_int_equal(s->fs.block_size, 4096);
	assert_false(s->fs.lazy_init);
	assert_int_equal(s->bench.nsuites, 1);
	assert_string_equal(s->bench.suites[0], "bonnie");
	assert_int_equal(s->bench.size, 0);
	assert_int_equal(s->bench.runtime_ns, 0);
	assert_int_equal(s->bench.repeat, 1);
	assert_int_equal(s->bench.chunk, 8192);
	assert_int_equal(s->bench.files, 1);
	assert_true(s->bench.fsync);
	assert_true(s->bench.per_layer);  /* on by default (build-and-test) */
	sb_spec_list_free(&l);
}

static void test_section_defaults(void **st)
{
	struct sb_spec_list l = load_ok("raid: {}\nlvm: {}\nluks:\n");
	struct sb_stack_spec *s = &l.items[0];

	(void)st;
	assert_true(s->raid.enabled);
	assert_int_equal(s->raid.level, 1);
	assert_int_equal(s->raid.devices, 2);
	assert_int_equal(s->devices.loop.count, 2);
	assert_int_equal(s->raid.chunk, 512 * 1024);
	assert_string_equal(s->raid.layout, "");
	assert_string_equal(s->raid.metadata, "1.2");
	assert_string_equal(s->raid.bitmap, "internal");
	assert_int_equal(s->raid.sync, SB_SYNC_ASSUME_CLEAN);
	assert_true(s->lvm.enabled);
	assert_string_equal(s->lvm.vg, "vg0");
	assert_string_equal(s->lvm.lv, "data");
	assert_string_equal(s->lvm.size, "100%FREE");
	assert_int_equal(s->lvm.size_pct_free, 100);
	assert_int_equal(s->lvm.size_bytes, 0);
	assert_int_equal(s->lvm.extent_size, 4ULL << 20);
	assert_true(s->luks.enabled);
	assert_string_equal(s->luks.type, "luks2");
	assert_string_equal(s->luks.cipher, "aes-xts-plain64");
	assert_int_equal(s->luks.key_size, 512);
	assert_int_equal(s->luks.sector_size, 512);
	assert_string_equal(s->luks.pbkdf, "pbkdf2");
	assert_int_equal(s->luks.pbkdf_iterations, 1000);
	assert_string_equal(s->luks.hash, "sha256");
	assert_false(s->luks.no_read_workqueue || s->luks.no_write_workqueue ||
		     s->luks.same_cpu_crypt || s->luks.allow_discards);
	sb_spec_list_free(&l);
}

static void test_raid10(void **st)
{
	struct sb_spec_list l = load_ok("raid: {level: 10}\n");
	struct sb_stack_spec *s = &l.items[0];

	(void)st;
	assert_int_equal(s->raid.level, 10);
	assert_int_equal(s->raid.devices, 4);
	assert_int_equal(s->devices.loop.count, 4);
	assert_string_equal(s->raid.layout, "near2");
	assert_string_equal(s->raid.md_layout, "n2");
	assert_int_equal(s->raid.copies, 2);
	sb_spec_list_free(&l);

	l = load_ok("raid: {level: 10, devices: 3, layout: o3, chunk: 64KiB, sync: wait, bitmap: none}\n");
	s = &l.items[0];
	assert_string_equal(s->raid.layout, "offset3");
	assert_string_equal(s->raid.md_layout, "o3");
	assert_int_equal(s->raid.copies, 3);
	assert_int_equal(s->raid.chunk, 65536);
	assert_int_equal(s->raid.sync, SB_SYNC_WAIT);
	assert_string_equal(s->raid.bitmap, "none");
	assert_int_equal(s->devices.loop.count, 3);
	sb_spec_list_free(&l);

	l = load_ok("raid: {level: 10, layout: far2}\ndevices: {loop: {count: 4}}\n");
	assert_string_equal(l.items[0].raid.md_layout, "f2");
	sb_spec_list_free(&l);
}

static void test_every_section(void **st)
{
	static const char y[] =
		"name: full-1\n"
		"description: every key\n"
		"devices:\n"
		"  loop: {count: 2, size: 256MiB, sector_size: 4096, dir: /tmp/sbtest, direct_io: false}\n"
		"raid: {level: 1, devices: 2, chunk: 64KiB, metadata: '1.0', bitmap: none, sync: wait}\n"
		"lvm: {vg: myvg, lv: mylv, size: 50%FREE, extent_size: 1MiB}\n"
		"luks:\n"
		"  type: luks2\n"
		"  cipher: aes-cbc-essiv:sha256\n"
		"  key_size: 128\n"
		"  sector_size: 4096\n"
		"  pbkdf: {type: argon2id, iterations: 4, memory: 64MiB, parallel: 2, hash: sha512}\n"
		"  flags: [no_read_workqueue, same_cpu_crypt]\n"
		"  allow_discards: true\n"
		"fs: {type: ext4, block_size: 4096, mkfs_options: '-E nodiscard', mount_options: 'noatime,nodiratime', stride: 16, stripe_width: 32, lazy_init: true}\n"
		"bench: {suites: [dd, quick, smallfile], size: 100MiB, runtime: 30s, ramp_time: 500ms, repeat: 3, chunk: 16k, files: 0, fsync: false, per_layer: true}\n";
	struct sb_spec_list l = load_ok(y);
	struct sb_stack_spec *s = &l.items[0];

	(void)st;
	assert_string_equal(s->name, "full-1");
	assert_string_equal(s->description, "every key");
	assert_int_equal(s->devices.loop.count, 2);
	assert_int_equal(s->devices.loop.size, 256ULL << 20);
	assert_int_equal(s->devices.loop.sector_size, 4096);
	assert_string_equal(s->devices.loop.dir, "/tmp/sbtest");
	assert_false(s->devices.loop.direct_io);
	assert_string_equal(s->raid.metadata, "1.0");
	assert_int_equal(s->raid.chunk, 65536);
	assert_string_equal(s->lvm.vg, "myvg");
	assert_string_equal(s->lvm.lv, "mylv");
	assert_int_equal(s->lvm.size_pct_free, 50);
	assert_int_equal(s->lvm.extent_size, 1ULL << 20);
	assert_string_equal(s->luks.cipher, "aes-cbc-essiv:sha256");
	assert_int_equal(s->luks.key_size, 128);
	assert_int_equal(s->luks.sector_size, 4096);
	assert_string_equal(s->luks.pbkdf, "argon2id");
	assert_int_equal(s->luks.pbkdf_iterations, 4);
	assert_int_equal(s->luks.pbkdf_memory_kib, 65536);
	assert_int_equal(s->luks.pbkdf_parallel, 2);
	assert_string_equal(s->luks.hash, "sha512");
	assert_true(s->luks.no_read_workqueue);
	assert_false(s->luks.no_write_workqueue);
	assert_true(s->luks.same_cpu_crypt);
	assert_true(s->luks.allow_discards);
	assert_string_equal(s->fs.mkfs_options, "-E nodiscard");
	assert_string_equal(s->fs.mount_options, "noatime,nodiratime");
	assert_int_equal(s->fs.stride, 16);
	assert_int_equal(s->fs.stripe_width, 32);
	assert_true(s->fs.lazy_init);
	assert_int_equal(s->bench.nsuites, 3);
	assert_string_equal(s->bench.suites[2], "smallfile");
	assert_int_equal(s->bench.size, 100ULL << 20);
	assert_int_equal(s->bench.runtime_ns, 30000000000ULL);
	assert_int_equal(s->bench.ramp_ns, 500000000ULL);
	assert_int_equal(s->bench.repeat, 3);
	assert_int_equal(s->bench.chunk, 16384);
	assert_int_equal(s->bench.files, 0);
	assert_false(s->bench.fsync);
	assert_true(s->bench.per_layer);
	sb_spec_list_free(&l);

	l = load_ok("luks: {cipher: serpent-xts-plain64, flags: {allow_discards: true, same_cpu_crypt: false}}\nlvm: {size: 512MiB}\n");
	assert_int_equal(l.items[0].luks.key_size, 512);
	assert_true(l.items[0].luks.allow_discards);
	assert_int_equal(l.items[0].lvm.size_bytes, 512ULL << 20);
	assert_int_equal(l.items[0].lvm.size_pct_free, 0);
	sb_spec_list_free(&l);

	l = load_ok("devices: {disks: [/dev/disk/by-id/a, /dev/disk/by-id/b]}\nraid: {level: 1}\n");
	assert_int_equal(l.items[0].devices.kind, SB_DEVICES_DISKS);
	assert_int_equal(l.items[0].devices.ndisks, 2);
	assert_int_equal(l.items[0].raid.devices, 2);
	assert_string_equal(l.items[0].devices.disks[1], "/dev/disk/by-id/b");
	sb_spec_list_free(&l);
}

/* Stacks refused, with the exact message (file:line:col: key: why). */
struct bad_case {
	const char *yaml, *msg;
};

static const struct bad_case bad_stacks[] = {
	{ "raid: {level: 10, devices: 1}\n",
	  "t.yml:1:19: raid.devices: RAID10 needs at least 2 devices, got 1" },
	{ "raid:\n  level: 1\n  layout: near2\n",
	  "t.yml:3:3: raid.layout: RAID1 has no layout (only RAID5/6/10); remove it" },
	{ "raid:\n  level: 10\n  layout: near5\n",
	  "t.yml:3:11: raid.layout: unknown layout 'near5'; allowed: near2, far2, offset2 (or n2, f2, o2), with 2 to 4 copies" },
	{ "raid: {level: 10, devices: 2, layout: n3}\n",
	  "t.yml:1:39: raid.layout: near3 keeps 3 copies but the array has only 2 devices" },
	{ "raid: {level: 7}\n",
	  "t.yml:1:15: raid.level: '7' is not allowed; allowed: 1, 5, 6, 10" },
	{ "raid: {chunk: 12KiB}\n",
	  "t.yml:1:15: raid.chunk: 12288 bytes is not a power of two; use e.g. 64KiB, 512KiB" },
	{ "raid: {level: 1, devices: 2}\ndevices:\n  loop: {count: 3}\n",
	  "t.yml:3:10: devices.loop.count: 3 devices but raid.devices is 2; they must match" },
	{ "devices:\n  loop: {count: 2}\n",
	  "t.yml:2:10: devices.loop.count: 2 devices but no raid section; without raid a stack uses exactly one device (add raid: {level: 1|5|6|10})" },
	{ "devices: {loop: {}, disks: [/dev/sda]}\n",
	  "t.yml:1:21: devices: give either loop or disks, not both" },
	{ "devices: {}\n",
	  "t.yml:1:1: devices: needs either loop: {count, size, sector_size, dir} or disks: [/dev/disk/by-id/...]" },
	{ "luks: {key_size: 384}\n",
	  "t.yml:1:18: luks.key_size: 384 bits is not valid for aes-xts-plain64; xts takes 256 or 512" },
	{ "luks: {cipher: aes-cbc-essiv:sha256, key_size: 512}\n",
	  "t.yml:1:48: luks.key_size: 512 bits is not valid for aes-cbc-essiv:sha256; cbc takes 128, 192 or 256" },
	{ "luks: {type: luks1, integrity: hmac-sha256}\n",
	  "t.yml:1:32: luks.integrity: hmac-sha256 needs type: luks2 (LUKS1 has no integrity)" },
	{ "luks: {integrity: aead}\n",
	  "t.yml:1:19: luks.integrity: aead needs an AEAD cipher with random IVs (luks.cipher aes-gcm-random or aes-ccm-random), not aes-xts-plain64" },
	{ "luks: {cipher: aes-gcm-random, key_size: 256}\n",
	  "t.yml:1:16: luks.cipher: aes-gcm-random is an AEAD cipher: it needs luks.integrity: aead" },
	{ "luks: {integrity: sha256}\n",
	  "t.yml:1:19: luks.integrity: 'sha256' is not allowed; allowed: none, hmac-sha256, hmac-sha512, aead" },
	{ "luks: {cipher: aes}\n",
	  "t.yml:1:16: luks.cipher: 'aes' is not of the form cipher-mode[-iv]; e.g. aes-xts-plain64, aes-cbc-essiv:sha256" },
	{ "luks: {cipher: 'aes-xts-plain64-x'}\n",
	  "t.yml:1:16: luks.cipher: 'aes-xts-plain64-x' is not of the form cipher-mode[-iv]; e.g. aes-xts-plain64, aes-cbc-essiv:sha256" },
	{ "devices: {loop: {sector_size: 4096}}\nluks: {sector_size: 512}\n",
	  "t.yml:2:21: luks.sector_size: 512 is smaller than the 4096-byte logical sectors of the loop devices (devices.loop.sector_size); use 4096 or larger" },
	{ "luks: {sector_size: 4096}\nfs: {block_size: 2048}\n",
	  "t.yml:2:18: fs.block_size: 2048 is smaller than luks.sector_size 4096; use 4096 or larger" },
	{ "devices: {loop: {sector_size: 4096}}\nfs: {block_size: 1024}\n",
	  "t.yml:2:18: fs.block_size: 1024 is smaller than the 4096-byte logical sectors of the loop devices; use 4096 or larger" },
	{ "luks: {type: luks1, sector_size: 4096}\nfs: {block_size: 4096}\n",
	  "t.yml:1:34: luks.sector_size: LUKS1 encrypts 512-byte sectors only; use type: luks2 for 4096" },
	{ "lvm: {extent_size: 3MiB}\n",
	  "t.yml:1:20: lvm.extent_size: 3145728 bytes is not a power of two; use e.g. 4MiB" },
	{ "lvm: {size: 101%FREE}\n",
	  "t.yml:1:13: lvm.size: '101%FREE' is not allowed; use N%FREE with N from 1 to 100, or a size such as 10GiB" },
	{ "luks: {}\ndevices: {loop: {size: 32MiB}}\n",
	  "t.yml:2:24: devices.loop.size: 32 MiB is too small for this stack; at least 64 MiB with luks (its header alone is 16 MiB)" },
	{ "devices: {loop: {size: 8MiB}}\n",
	  "t.yml:1:24: devices.loop.size: 8 MiB is too small for this stack; at least 16 MiB" },
	{ "devices: {loop: {size: 65TiB}}\n",
	  "t.yml:1:24: devices.loop.size: '65TiB' is out of range; allowed 1 MiB to 64 TiB" },
	{ "devices: {loop: {size: -1GiB}}\n",
	  "t.yml:1:24: devices.loop.size: '-1GiB' is not a size; use a number with a unit such as 512KiB, 4GiB or 100MB" },
	{ "lvm: {size: 2GiB}\n",
	  "t.yml:1:13: lvm.size: 2 GiB is larger than the 1.0 GiB the devices below provide; use N%FREE or a smaller size" },
	{ "raid: {level: 10}\ndevices: {loop: {size: 64MiB}}\nbench: {size: 200MiB}\n",
	  "t.yml:3:15: bench.size: 200 MiB is larger than the 128.0 MiB the stack's devices provide; use a smaller size or 0 (automatic)" },
	{ "devices: {loop: {dir: relative/dir}}\n",
	  "t.yml:1:23: devices.loop.dir: 'relative/dir' is not an absolute path" },
};

/* Refused for their shape: unknown keys, types, names, duplicates, a second
 * document, anchors and tags, YAML syntax, encoding. */
static const struct bad_case bad_yaml[] = {
	{ "luks:\n  cypher: aes-xts-plain64\n",
	  "t.yml:2:3: unknown key 'cypher' in luks; allowed: type, cipher, key_size, sector_size, integrity, pbkdf, flags, no_read_workqueue, no_write_workqueue, same_cpu_crypt, allow_discards, read_ahead_kb" },
	{ "raid: [1, 10]\n",
	  "t.yml:1:7: raid: expected a mapping (keys: level, devices, chunk, layout, metadata, bitmap, sync, consistency_policy, estimate_member_size, stripe_cache_size, sync_speed_min, sync_speed_max, read_ahead_kb), got a list" },
	{ "fs: {lazy_init: yes}\n",
	  "t.yml:1:17: fs.lazy_init: expected true or false, got 'yes'" },
	{ "bench: {repeat: two}\n",
	  "t.yml:1:17: bench.repeat: expected auto or a whole number from 1 to 100, got 'two'" },
	{ "bench: {repeat: -1}\n",
	  "t.yml:1:17: bench.repeat: expected auto or a whole number from 1 to 100, got '-1'" },
	{ "bench: {suites: [bonnie, iozone]}\n",
	  "t.yml:1:26: bench.suites: 'iozone' is not allowed; allowed: bonnie, fio-matrix, dd, smallfile, quick, copy" },
	{ "bench: {runtime: 5 sec}\n",
	  "t.yml:1:18: bench.runtime: '5 sec' has an unknown unit 'sec'; allowed: ns, us, ms, s, m, h" },
	{ "name: Bad Name\n",
	  "t.yml:1:7: name: 'Bad Name' is not a valid name; use a-z, 0-9, '.', '_', '-', starting with a letter or digit" },
	{ "fs:\n  block_size:\n",
	  "t.yml:2:14: fs.block_size: expected one of 1024, 2048, 4096, got nothing (null)" },
	{ "fs:\n  type: ext4\n  type: xfs\n",
	  "t.yml:3:3: duplicate key 'type'; each key may appear once" },
	{ "", "t.yml:1:1: empty stack description; expected a mapping with keys such as devices, raid, lvm, luks, fs, bench" },
	{ "# only a comment\n", "t.yml:1:1: empty stack description; expected a mapping with keys such as devices, raid, lvm, luks, fs, bench" },
	{ "a: b\n---\nc: d\n", "t.yml:2:1: a second YAML document; a stack file holds exactly one" },
	{ "fs: &a {type: ext4}\n", "t.yml:1:5: anchors (&a) are not allowed in a stack file; write the value out" },
	{ "fs: !!map {type: ext4}\n", "t.yml:1:5: tags (tag:yaml.org,2002:map) are not allowed in a stack file; write plain values" },
	{ "fs: {type: [ext4}\n", "t.yml:1:17: invalid YAML: did not find expected ',' or ']' while parsing a flow sequence" },
	{ "x: \"\xff\"\n", "t.yml:1:5: invalid leading UTF-8 octet (0xFF); a stack file must be UTF-8 text" },
	{ "x: \x01\n", "t.yml:1:4: control characters are not allowed (0x01); a stack file must be UTF-8 text" },
};

static void test_errors(void **st)
{
	size_t i;

	(void)st;
	for (i = 0; i < sizeof(bad_stacks) / sizeof(bad_stacks[0]); i++)
		load_bad(bad_stacks[i].yaml, bad_stacks[i].msg);
	unknown_top_key();
	for (i = 0; i < sizeof(bad_yaml) / sizeof(bad_yaml[0]); i++)
		load_bad(bad_yaml[i].yaml, bad_yaml[i].msg);
}

static void test_depth_and_aliases(void **st)
{
	char *deep = malloc(20010);
	int i;

	(void)st;
	for (i = 0; i < 10000; i++)
		deep[i] = '[';
	for (i = 0; i < 10000; i++)
		deep[10000 + i] = ']';
	deep[20000] = '\n';
	deep[20001] = '\0';
	load_bad(deep, "t.yml:1:33: nesting deeper than 32 levels; a stack file needs at most a few");
	free(deep);
	load_bad("a: &a [x, x]\nb: &b [*a, *a]\n", "t.yml:1:4: anchors (&a) are not allowed in a stack file; write the value out");
	load_bad("a: *b\n", "t.yml:1:4: aliases (*b) are not allowed in a stack file; write the value out");
}

/* fs.mkfs_options / fs.mount_options: what a benchmark needs passes (both
 * spellings of getopt values), the rest is refused (issue 12, finding 9). */
static void test_fs_option_allow_list(void **st)
{
	struct sb_spec_list l;

	(void)st;
	l = load_ok("fs:\n  mkfs_options: \"-b 4096 -E stride=16,stripe_width=32,lazy_itable_init=0 -O ^has_journal,sparse_super2 -J size=8 -m0 -i 65536 -j\"\n"
		    "  mount_options: noatime,nodiratime,data=writeback,commit=30,barrier=0,discard\n");
	assert_string_equal(l.items[0].fs.mount_options, "noatime,nodiratime,data=writeback,commit=30,barrier=0,discard");
	sb_spec_list_free(&l);
	load_bad("fs: {mkfs_options: \"-b 4096 -z /tmp/undo\"}\n",
		 "t.yml:1:20: fs.mkfs_options: '-z' is not allowed; allowed: -b N, -I N, -i N, -m N, -N N, -g N, -G N, -O FEATURE[,^FEATURE...], -E stride=N,stripe_width=N,lazy_itable_init=0|1,lazy_journal_init=0|1,packed_meta_blocks=0|1,num_backup_sb=0|1|2,discard,nodiscard, -J size=N, -j");
	load_bad("fs: {mkfs_options: \"-E stride=16,offset=1\"}\n",
		 "t.yml:1:20: fs.mkfs_options: '-E stride=16,offset=1' is not allowed; allowed: -b N, -I N, -i N, -m N, -N N, -g N, -G N, -O FEATURE[,^FEATURE...], -E stride=N,stripe_width=N,lazy_itable_init=0|1,lazy_journal_init=0|1,packed_meta_blocks=0|1,num_backup_sb=0|1|2,discard,nodiscard, -J size=N, -j");
	load_bad("fs: {mkfs_options: \"-b\"}\n",
		 "t.yml:1:20: fs.mkfs_options: '-b' is not allowed; allowed: -b N, -I N, -i N, -m N, -N N, -g N, -G N, -O FEATURE[,^FEATURE...], -E stride=N,stripe_width=N,lazy_itable_init=0|1,lazy_journal_init=0|1,packed_meta_blocks=0|1,num_backup_sb=0|1|2,discard,nodiscard, -J size=N, -j");
}

static void test_set(void **st)
{
	const char *sets[] = { "devices.loop.size=64MiB", "luks={sector_size: 4096}", "bench.suites=[dd, quick]",
			       "raid.level=10", "lvm={}" };
	struct sb_spec_list l = load_ok_sets("raid: {level: 1}\n", sets, 5);
	struct sb_stack_spec *s = &l.items[0];

	(void)st;
	assert_int_equal(s->devices.loop.size, 64ULL << 20);
	assert_true(s->luks.enabled);        /* section enabled explicitly by --set */
	assert_int_equal(s->luks.sector_size, 4096);
	assert_int_equal(s->bench.nsuites, 2);
	assert_string_equal(s->bench.suites[1], "quick");
	assert_int_equal(s->raid.level, 10);
	assert_int_equal(s->raid.devices, 4);
	assert_true(s->lvm.enabled);
	sb_spec_list_free(&l);

	/* later --set wins; null section in the file becomes a mapping */
	{
		const char *s2[] = { "fs.block_size=1024", "fs.block_size=2048", "lvm.vg=big" };

		l = load_ok_sets("lvm:\n", s2, 3);
		assert_int_equal(l.items[0].fs.block_size, 2048);
		assert_string_equal(l.items[0].lvm.vg, "big");
		sb_spec_list_free(&l);
	}
	{
		const char *b1[] = { "raid.foo=1" };
		const char *b2[] = { "devices.loop.size=lots" };
		const char *b3[] = { "novalue" };
		const char *b4[] = { "raid.level=10", "raid.devices=1" };
		const char *b5[] = { "fs.block_size=512" };
		const char *b6[] = { "fs.type.x=1" };
		const char *b7[] = { "matrix.luks.cipher=[a]" };
		const char *b8[] = { "fs.block_size=[1" };
		const char *b9[] = { "fs.lazy_init=" };
		const char *s2[] = { "fs.block_size=2048" };

		load_bad_sets("{}\n", b1, 1, "--set raid.foo=1: unknown key 'raid.foo'; allowed in raid: level, devices, chunk, layout, metadata, bitmap, sync, consistency_policy, estimate_member_size, stripe_cache_size, sync_speed_min, sync_speed_max, read_ahead_kb");
		load_bad_sets("{}\n", b2, 1, "--set devices.loop.size=lots: devices.loop.size: 'lots' is not a size; use a number with a unit such as 512KiB, 4GiB or 100MB");
		load_bad_sets("{}\n", b3, 1, "--set novalue: expected KEY=VALUE, e.g. --set devices.loop.size=256MiB");
		load_bad_sets("raid:\n", b4, 2, "--set raid.devices=1: raid.devices: RAID10 needs at least 2 devices, got 1");
		/* a key of a section the stack lacks never adds the layer (issue 12, finding 13) */
		load_bad_sets("{}\n", b4, 2, "--set raid.level=10: raid.level: this stack has no raid section, and setting one of its keys would add that layer silently; enable it explicitly (raid: in the file, or --set raid={})");
		load_bad_sets("{}\n", b5, 1, "--set fs.block_size=512: fs.block_size: '512' is not allowed; allowed: 1024, 2048, 4096");
		load_bad_sets("{}\n", b6, 1, "--set fs.type.x=1: unknown key 'fs.type.x'; type has no sub-keys");
		load_bad_sets("{}\n", b7, 1, "--set matrix.luks.cipher=[a]: the matrix cannot be set or nested; put it in the file");
		load_bad_sets("{}\n", b8, 1, "--set fs.block_size=[1: invalid YAML: did not find expected ',' or ']' while parsing a flow sequence");
		load_bad_sets("{}\n", b9, 1, "--set fs.lazy_init=: fs.lazy_init: expected true or false, got nothing (null)");
		/* the file's own errors still point into the file */
		load_bad_sets("raid: {level: 1, layout: far2}\n", s2, 1,
			      "t.yml:1:18: raid.layout: RAID1 has no layout (only RAID5/6/10); remove it");
	}
}

static void test_keys_help(void **st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)st;
	sb_spec_print_keys(f);
	fclose(f);
	assert_non_null(strstr(text, "luks.pbkdf.iterations"));
	assert_non_null(strstr(text, "devices.loop.sector_size"));
	assert_non_null(strstr(text, "allowed: 512, 1024, 2048, 4096"));
	assert_non_null(strstr(text, "default: 1GiB"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_section_defaults),
		cmocka_unit_test(test_raid10),
		cmocka_unit_test(test_every_section),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_depth_and_aliases),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_fs_option_allow_list),
		cmocka_unit_test(test_keys_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
