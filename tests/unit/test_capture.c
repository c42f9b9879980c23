/* The environment capture's parsers (sys/capture.c, layers/luks_describe.c)
 * on fixture text: dm tables with their keys hidden (the key must never
 * appear, whole or in part), smartctl --json output (tests/unit/capture/,
 * in smartctl 7.3's shape) and its exit status, a queue/ directory's
 * attributes, and the LUKS header summary of a real header libcryptsetup
 * writes into a file (never the volume key, the passphrase, a salt or a
 * digest). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <json-c/json.h>
#include <libcryptsetup.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layers/luks_int.h"
#include "sys/capture.h"

/* 512 bits of key as dm-crypt's table shows them */
#define KEY_HEX "6b1f3a9c0d2e4f5061728394a5b6c7d8e9fa0b1c2d3e4f5a6b7c8d9eafb0c1d2" \
		"f3e4d5c6b7a8998a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a"
#define HMAC_KEY "00112233445566778899aabbccddeeff0123456789abcdef0123456789abcdef"

/* No 12-character window of secret appears in text. */
static void assert_no_part_of(const char *text, const char *secret)
{
	char w[13];
	size_t i, n = strlen(secret);

	for (i = 0; i + 12 <= n; i++) {
		memcpy(w, secret + i, 12);
		w[12] = 0;
		if (strstr(text, w))
			fail_msg("a piece of the key (%s) is in: %s", w, text);
	}
}

static void test_dm_crypt_key_hidden(void **ctx)
{
	char line[2048];

	(void)ctx;
	assert_int_equal(sb_capture_dm_line(8388608, "crypt", "aes-xts-plain64 " KEY_HEX " 0 9:127 32768 "
					    "2 sector_size:4096 no_read_workqueue", line, sizeof(line)), 0);
	assert_string_equal(line, "0 8388608 crypt aes-xts-plain64 <key hidden> 0 9:127 32768 2 "
			    "sector_size:4096 no_read_workqueue");
	assert_no_part_of(line, KEY_HEX);
	/* a key in the kernel keyring: its description is hidden too */
	assert_int_equal(sb_capture_dm_line(2048, "crypt", "aes-xts-plain64 :64:logon:cryptsetup:3c8e-d0 0 7:1 4096",
					    line, sizeof(line)), 0);
	assert_string_equal(line, "0 2048 crypt aes-xts-plain64 <key hidden> 0 7:1 4096");
	/* dm-crypt with integrity (LUKS2 aead): integrity:28:aead is no key */
	assert_int_equal(sb_capture_dm_line(1024, "crypt", "capi:gcm(aes)-random " KEY_HEX " 0 253:3 0 "
					    "1 integrity:28:aead", line, sizeof(line)), 0);
	assert_string_equal(line, "0 1024 crypt capi:gcm(aes)-random <key hidden> 0 253:3 0 1 integrity:28:aead");
	assert_no_part_of(line, KEY_HEX);
}

static void test_dm_integrity_keys_hidden(void **ctx)
{
	char line[2048];

	(void)ctx;
	assert_int_equal(sb_capture_dm_line(65536, "integrity", "7:1 0 32 J 4 journal_sectors:1024 "
					    "internal_hash:hmac(sha256):" HMAC_KEY " journal_crypt:ctr(aes):" KEY_HEX
					    " journal_mac:hmac(sha256):" HMAC_KEY, line, sizeof(line)), 0);
	assert_string_equal(line, "0 65536 integrity 7:1 0 32 J 4 journal_sectors:1024 "
			    "internal_hash:hmac(sha256):<key hidden> journal_crypt:ctr(aes):<key hidden> "
			    "journal_mac:hmac(sha256):<key hidden>");
	assert_no_part_of(line, HMAC_KEY);
	assert_no_part_of(line, KEY_HEX);
	/* an unkeyed checksum is kept whole, and so is any other target */
	assert_int_equal(sb_capture_dm_line(65536, "integrity", "7:1 0 4 J 2 internal_hash:crc32c block_size:4096",
					    line, sizeof(line)), 0);
	assert_string_equal(line, "0 65536 integrity 7:1 0 4 J 2 internal_hash:crc32c block_size:4096");
	assert_int_equal(sb_capture_dm_line(40960, "cache", "253:1 253:2 9:127 128 1 writethrough smq 0",
					    line, sizeof(line)), 0);
	assert_string_equal(line, "0 40960 cache 253:1 253:2 9:127 128 1 writethrough smq 0");
	/* a line cut short by its buffer still shows no key */
	assert_int_equal(sb_capture_dm_line(8, "crypt", "aes-xts-plain64 " KEY_HEX " 0 7:0 0", line, 40), 0);
	assert_no_part_of(line, KEY_HEX);
}

static struct json_object *smart_file(const char *name, int status)
{
	const char *src = getenv("SB_SOURCE_DIR");
	char path[1024], *text;
	struct json_object *o;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tests/unit/capture/%s", src ? src : ".", name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	o = sb_capture_smart_parse(text, status);
	free(text);
	return o;
}

static const char *path_str(struct json_object *o, const char *a, const char *b)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, a, &v))
		return "(absent)";
	if (b && !json_object_object_get_ex(v, b, &v))
		return "(absent)";
	return json_object_get_string(v);
}

static void test_smart_identity_and_health(void **ctx)
{
	struct json_object *o;

	(void)ctx;
	o = smart_file("smartctl-sata.json", 0);
	assert_true(json_object_is_type(o, json_type_object));
	assert_string_equal(path_str(o, "model_name", NULL), "WDC WD40EFRX-68N32N0");
	assert_string_equal(path_str(o, "serial_number", NULL), "WD-WCC7K0ABCDEF");
	assert_string_equal(path_str(o, "firmware_version", NULL), "82.00A82");
	assert_string_equal(path_str(o, "rotation_rate", NULL), "5400");
	assert_string_equal(path_str(o, "user_capacity", "bytes"), "4000787030016");
	assert_string_equal(path_str(o, "smart_status", "passed"), "true");
	assert_string_equal(path_str(o, "power_on_time", "hours"), "31337");
	assert_string_equal(path_str(o, "temperature", "current"), "34");
	assert_string_equal(path_str(o, "reallocated_sectors", NULL), "8");
	assert_string_equal(path_str(o, "smartctl_exit_status", NULL), "0");
	/* what is not asked for is not copied */
	assert_string_equal(path_str(o, "ata_smart_attributes", NULL), "(absent)");
	json_object_put(o);
	/* a failing drive is still described: exit status 24 (bits 3, 4) */
	o = smart_file("smartctl-failing.json", 24);
	assert_string_equal(path_str(o, "smart_status", "passed"), "false");
	assert_string_equal(path_str(o, "reallocated_sectors", NULL), "65528");
	assert_string_equal(path_str(o, "smartctl_exit_status", NULL), "24");
	json_object_put(o);
	/* NVMe: no ATA attributes, no reallocated count */
	o = smart_file("smartctl-nvme.json", 0);
	assert_string_equal(path_str(o, "model_name", NULL), "Samsung SSD 970 EVO Plus 1TB");
	assert_string_equal(path_str(o, "power_on_time", "hours"), "8123");
	assert_string_equal(path_str(o, "reallocated_sectors", NULL), "(absent)");
	json_object_put(o);
}

static void test_smart_not_available(void **ctx)
{
	struct json_object *o;

	(void)ctx;
	o = smart_file("smartctl-open-failed.json", 2);
	assert_true(json_object_is_type(o, json_type_string));
	assert_string_equal(json_object_get_string(o), "not available: smartctl exit status 2: "
			    "Smartctl open device: /dev/sdz failed: No such device");
	json_object_put(o);
	o = sb_capture_smart_parse("/dev/sdb: Unknown USB bridge [0x152d:0x0578 (0x214)]\n", 1);
	assert_string_equal(json_object_get_string(o), "not available: smartctl gave no JSON");
	json_object_put(o);
	o = sb_capture_smart_parse("[1, 2]", 0);
	assert_string_equal(json_object_get_string(o), "not available: smartctl gave no JSON");
	json_object_put(o);
	o = sb_capture_smart_parse("{\"smartctl\": {\"messages\": 7}}", 1);
	assert_string_equal(json_object_get_string(o), "not available: smartctl exit status 1: no message");
	json_object_put(o);
	o = sb_capture_smart_parse(NULL, 0);
	assert_string_equal(json_object_get_string(o), "not available: smartctl gave no JSON");
	json_object_put(o);
	assert_string_equal(sb_capture_no_smart("loop3"), "loop");
	assert_string_equal(sb_capture_no_smart("ubda"), "user-mode-linux block");
	assert_string_equal(sb_capture_no_smart("dm-0"), "device-mapper");
	assert_string_equal(sb_capture_no_smart("md127"), "md");
	assert_null(sb_capture_no_smart("sda"));
	assert_null(sb_capture_no_smart("nvme0n1"));
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_queue_dir(void **ctx)
{
	char dir[] = "/tmp/sb-capture-queue.XXXXXX";
	struct json_object *q, *v;
	char cmd[600];

	(void)ctx;
	assert_non_null(mkdtemp(dir));
	put(dir, "rotational", "1\n");
	put(dir, "scheduler", "mq-deadline kyber [bfq] none\n");
	put(dir, "nr_requests", "64\n");
	put(dir, "max_sectors_kb", "1280\n");
	put(dir, "read_ahead_kb", "4096\n");
	put(dir, "write_cache", "write back\n");
	put(dir, "logical_block_size", "512\n");
	/* physical_block_size: absent (null) */
	q = sb_capture_queue_dir(dir);
	assert_true(json_object_object_get_ex(q, "rotational", &v) && json_object_is_type(v, json_type_int));
	assert_int_equal(json_object_get_int(v), 1);
	assert_string_equal(path_str(q, "scheduler", NULL), "mq-deadline kyber [bfq] none");
	assert_true(json_object_object_get_ex(q, "nr_requests", &v) && json_object_get_int(v) == 64);
	assert_true(json_object_object_get_ex(q, "read_ahead_kb", &v) && json_object_get_int(v) == 4096);
	assert_true(json_object_object_get_ex(q, "max_sectors_kb", &v) && json_object_get_int(v) == 1280);
	assert_true(json_object_object_get_ex(q, "write_cache", &v) && json_object_is_type(v, json_type_string));
	assert_string_equal(json_object_get_string(v), "write back");
	assert_true(json_object_object_get_ex(q, "physical_block_size", &v));
	assert_null(v);
	json_object_put(q);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void quiet(int level, const char *msg, void *usrptr)
{
	(void)level, (void)msg, (void)usrptr;
}

/* A real LUKS2 header (libcryptsetup, in a file, no mapping) summarised:
 * its facts are there, its secrets are not. */
static void test_luks_header_summary(void **ctx)
{
	static const char pass[] = "correct horse battery staple";
	char file[] = "/tmp/sb-capture-luks.XXXXXX", vk[64], hex[129];
	struct crypt_pbkdf_type pbkdf = { .type = CRYPT_KDF_PBKDF2, .hash = "sha256", .iterations = 1000,
					  .flags = CRYPT_PBKDF_NO_BENCHMARK };
	struct crypt_params_luks2 p2 = { .sector_size = 4096 };
	struct crypt_device *cd = NULL;
	struct json_object *o, *v;
	const char *text;
	int fd;
	unsigned i;

	(void)ctx;
	for (i = 0; i < sizeof(vk); i++)
		vk[i] = (char)(0xa5 ^ (i * 37));
	for (i = 0; i < sizeof(vk); i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)vk[i]);
	fd = mkstemp(file);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 32 << 20), 0);
	close(fd);
	crypt_set_log_callback(NULL, quiet, NULL);   /* "Cannot initialize device-mapper" without dm */
	assert_int_equal(crypt_init(&cd, file), 0);
	crypt_set_log_callback(cd, quiet, NULL);
	assert_int_equal(crypt_set_pbkdf_type(cd, &pbkdf), 0);
	assert_int_equal(crypt_format(cd, CRYPT_LUKS2, "aes", "xts-plain64", NULL, vk, sizeof(vk), &p2), 0);
	assert_int_equal(crypt_keyslot_add_by_volume_key(cd, CRYPT_ANY_SLOT, vk, sizeof(vk), pass, strlen(pass)), 0);
	o = sb_luks_header_summary(cd, "sb-capture-test-not-active");
	crypt_free(cd);
	unlink(file);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_string_equal(path_str(o, "type", NULL), "LUKS2");
	assert_string_equal(path_str(o, "cipher", NULL), "aes-xts-plain64");
	assert_string_equal(path_str(o, "volume_key_bits", NULL), "512");
	assert_string_equal(path_str(o, "sector_size", NULL), "4096");
	assert_string_equal(path_str(o, "pbkdf", "type"), "pbkdf2");
	assert_string_equal(path_str(o, "pbkdf", "iterations"), "1000");
	assert_true(json_object_object_get_ex(o, "segments", &v));
	assert_true(json_object_object_get_ex(o, "keyslots_kdf", &v));
	assert_non_null(strstr(text, "\"keyslots_kdf\":{\"0\":{\"type\":\"pbkdf2\""));
	/* the secrets: the volume key (hex or raw), the passphrase, the salt,
	 * the digests */
	assert_no_part_of(text, hex);
	assert_null(memmem(text, strlen(text), vk, 8));
	assert_null(strstr(text, "horse"));
	assert_null(strstr(text, "salt"));
	assert_null(strstr(text, "digest"));
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dm_crypt_key_hidden),
		cmocka_unit_test(test_dm_integrity_keys_hidden),
		cmocka_unit_test(test_smart_identity_and_health),
		cmocka_unit_test(test_smart_not_available),
		cmocka_unit_test(test_queue_dir),
		cmocka_unit_test(test_luks_header_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
