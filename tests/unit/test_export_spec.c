/* The export section of the stack format (src/export/export_spec.c): its
 * defaults, lists (protocol, sshfs.cipher: bit masks), the link's units,
 * --set, the JSON keys, and the errors with their locations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "export/export_spec.h"
#include "spec/spec.h"

static struct sb_stack_spec *load(struct sb_spec_list *l, const char *yaml, const char *set)
{
	struct sb_err e = { 0 };
	const char *sets[1] = { set };

	if (sb_spec_load_buffer(yaml, strlen(yaml), "t.yml", sets, set ? 1 : 0, l, &e) != 0)
		fail_msg("rejected: %s\n---\n%s", e.msg, yaml);
	return &l->items[0];
}

static void bad(const char *yaml, const char *msg)
{
	struct sb_spec_list l = { 0 };
	struct sb_err e = { 0 };

	if (sb_spec_load_buffer(yaml, strlen(yaml), "t.yml", NULL, 0, &l, &e) == 0)
		fail_msg("accepted, expected: %s\n---\n%s", msg, yaml);
	assert_string_equal(e.msg, msg);
}

static void test_absent_and_defaults(void **st)
{
	struct sb_spec_list l = { 0 };
	struct sb_stack_spec *s = load(&l, "{}\n", NULL);

	(void)st;
	assert_false(sb_export_spec_of(s)->enabled);
	sb_spec_list_free(&l);
	s = load(&l, "export: {}\n", NULL);
	assert_true(sb_export_spec_of(s)->enabled);
	assert_int_equal(sb_export_spec_of(s)->protocols, SB_EXPORT_SSHFS);
	assert_int_equal(sb_export_spec_of(s)->sshfs.ciphers, 1u << 0);   /* chacha20-poly1305 */
	assert_string_equal(sb_export_ssh_ciphers[0], "chacha20-poly1305@openssh.com");
	assert_int_equal(sb_export_spec_of(s)->link.rate_bps, 0);
	assert_int_equal(sb_export_spec_of(s)->link.delay_ns, 0);
	assert_string_equal(sb_export_spec_of(s)->smb.version, "3.1.1");
	assert_string_equal(sb_export_spec_of(s)->nfs.version, "4.2");
	assert_int_equal(sb_export_spec_of(s)->nfs.sync, SB_NFS_SYNC);
	sb_spec_list_free(&l);
}

static void test_lists_and_link(void **st)
{
	struct sb_spec_list l = { 0 };
	struct sb_stack_spec *s = load(&l,
		"export:\n  protocol: [sshfs, nfs]\n  link: {rate: 2.5gbit, delay: 0.2ms}\n"
		"  sshfs: {cipher: [aes128-ctr, chacha20-poly1305@openssh.com], compression: true}\n"
		"  nfs: {version: '4.1', sync: async, rsize: 1MiB, wsize: 64KiB}\n", NULL);
	struct json_object *j = NULL, *e, *p;

	(void)st;
	assert_int_equal(sb_export_spec_of(s)->protocols, SB_EXPORT_SSHFS | SB_EXPORT_NFS);
	assert_int_equal(sb_export_spec_of(s)->sshfs.ciphers, (1u << 0) | (1u << 1));
	assert_true(sb_export_spec_of(s)->sshfs.compression);
	assert_int_equal(sb_export_spec_of(s)->link.rate_bps, 2500000000ULL);
	assert_int_equal(sb_export_spec_of(s)->link.delay_ns, 200000);
	assert_int_equal(sb_export_spec_of(s)->nfs.sync, SB_NFS_ASYNC);
	assert_int_equal(sb_export_spec_of(s)->nfs.rsize, 1 << 20);
	assert_int_equal(sb_spec_to_json(s, &j), 0);
	assert_true(json_object_object_get_ex(j, "export", &e));
	assert_true(json_object_object_get_ex(e, "protocol", &p));
	assert_string_equal(json_object_to_json_string_ext(p, JSON_C_TO_STRING_PLAIN), "[\"sshfs\",\"nfs\"]");
	json_object_put(j);
	sb_spec_list_free(&l);
	/* --set: one word replaces the list */
	s = load(&l, "export: {protocol: [sshfs, nfs]}\n", "export.protocol=nfs");
	assert_int_equal(sb_export_spec_of(s)->protocols, SB_EXPORT_NFS);
	sb_spec_list_free(&l);
}

static void test_errors(void **st)
{
	(void)st;
	bad("export:\n  protocol: [sshfs, ftp]\n",
	    "t.yml:2:21: export.protocol: 'ftp' is not allowed; allowed: sshfs, smb, nfs");
	bad("export:\n  protocol: [nfs, nfs]\n", "t.yml:2:19: export.protocol: 'nfs' is listed twice");
	bad("export:\n  link: {rate: 100MB}\n",
	    "t.yml:2:16: export.link.rate: '100MB' is not a rate; use a number with bit, kbit, mbit, gbit "
	    "or tbit (bits per second, as tc), e.g. 1gbit");
	bad("export:\n  smb: {version: '2.1', encryption: true}\n",
	    "t.yml:2:37: export.smb.encryption: needs SMB 3.0 or 3.1.1 (2.1 has no encryption)");
	bad("export:\n  nfs: {rsize: 1KiB}\n",
	    "t.yml:2:16: export.nfs: rsize and wsize are 4KiB to 1MiB (or 0: negotiated)");
	bad("export:\n  nfs: {version: 5}\n",
	    "t.yml:2:18: export.nfs.version: '5' is not allowed; allowed: 4.2, 4.1, 3");
	bad("export:\n  sftp: {}\n",
	    "t.yml:2:3: unknown key 'sftp' in export; allowed: protocol, link, sshfs, smb, nfs");
}

static void test_rate_parse(void **st)
{
	uint64_t v = 0;

	(void)st;
	assert_int_equal(sb_export_rate_parse("1gbit", &v), 0);
	assert_int_equal(v, 1000000000ULL);
	assert_int_equal(sb_export_rate_parse("100mbit", &v), 0);
	assert_int_equal(v, 100000000ULL);
	assert_int_equal(sb_export_rate_parse("1gbps", &v), -EINVAL);
	assert_int_equal(sb_export_rate_parse("gbit", &v), -EINVAL);
	assert_int_equal(sb_export_rate_parse("1bit", &v), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absent_and_defaults),
		cmocka_unit_test(test_lists_and_link),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_rate_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
