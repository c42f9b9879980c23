/* sys/crypto.c: /proc/crypto parsing on a fixed sample, dm-crypt cipher ->
 * crypto API names; sys/secret.c: locked key memory; layers/luks.c: damaged
 * header vs wrong key, on an image file (no root, no device-mapper). */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cmocka.h>
#include <libcryptsetup.h>

#include "layers/luks.h"
#include "sys/crypto.h"
#include "sys/secret.h"

/* Trimmed from a real x86_64 /proc/crypto after dm-crypt opened an
 * aes-xts-plain64 and an aes-cbc-essiv:sha256 mapping, plus a failed
 * self-test entry and a higher-priority internal one that must not win. */
static const char sample[] =
	"name         : essiv(cbc(aes),sha256)\n"
	"driver       : essiv(cbc-aes-aesni,sha256-avx2)\n"
	"module       : essiv\n"
	"priority     : 400\n"
	"refcnt       : 1\n"
	"selftest     : passed\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"async        : yes\n"
	"blocksize    : 16\n"
	"min keysize  : 16\n"
	"max keysize  : 32\n"
	"ivsize       : 16\n"
	"chunksize    : 16\n"
	"walksize     : 16\n"
	"\n"
	"name         : xts(aes)\n"
	"driver       : xts(ecb(aes-generic))\n"
	"module       : kernel\n"
	"priority     : 100\n"
	"refcnt       : 1\n"
	"selftest     : passed\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"\n"
	"name         : xts(aes)\n"
	"driver       : xts-aes-aesni\n"
	"module       : aesni_intel\n"
	"priority     : 401\n"
	"refcnt       : 2\n"
	"selftest     : passed\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"\n"
	"name         : xts(aes)\n"
	"driver       : xts-aes-broken\n"
	"module       : broken\n"
	"priority     : 900\n"
	"refcnt       : 1\n"
	"selftest     : unknown\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"\n"
	"name         : __xts(aes)\n"
	"driver       : __xts-aes-aesni\n"
	"module       : aesni_intel\n"
	"priority     : 1000\n"
	"refcnt       : 1\n"
	"selftest     : passed\n"
	"internal     : yes\n"
	"type         : skcipher\n"
	"\n"
	"name         : cbc(aes)\n"
	"driver       : cbc(aes-generic)\n"
	"module       : kernel\n"
	"priority     : 100\n"
	"refcnt       : 1\n"
	"selftest     : passed\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"\n"
	"name         : aes\n"
	"driver       : aes-generic\n"
	"module       : kernel\n"
	"priority     : 100\n"
	"refcnt       : 1\n"
	"selftest     : passed\n"
	"internal     : no\n"
	"type         : cipher\n"
	"blocksize    : 16\n";

static void parse_picks_highest_priority_passed(void **state)
{
	struct sb_crypto_alg a;

	assert_int_equal(sb_crypto_parse(sample, "xts(aes)", &a), 0);
	assert_string_equal(a.driver, "xts-aes-aesni");
	assert_string_equal(a.module, "aesni_intel");
	assert_int_equal(a.priority, 401);
	assert_true(a.accelerated);

	assert_int_equal(sb_crypto_parse(sample, "essiv(cbc(aes),sha256)", &a), 0);
	assert_string_equal(a.driver, "essiv(cbc-aes-aesni,sha256-avx2)");
	assert_true(a.accelerated);

	assert_int_equal(sb_crypto_parse(sample, "cbc(aes)", &a), 0);
	assert_string_equal(a.driver, "cbc(aes-generic)");
	assert_false(a.accelerated);

	/* a bare cipher is not a dm-crypt skcipher */
	assert_int_equal(sb_crypto_parse(sample, "aes", &a), -ENOENT);
	assert_int_equal(sb_crypto_parse(sample, "xts(serpent)", &a), -ENOENT);
	/* last entry without trailing blank line still counts */
	assert_int_equal(sb_crypto_parse("name : ecb(aes)\ndriver : ecb-aes-ce\nmodule : kernel\n"
					 "priority : 300\nselftest : passed\ntype : skcipher", "ecb(aes)", &a), 0);
	assert_string_equal(a.driver, "ecb-aes-ce");
	assert_int_equal(a.priority, 300);
}

static void generic_detection(void **state)
{
	assert_true(sb_crypto_driver_is_generic("xts(ecb(aes-generic))"));
	assert_true(sb_crypto_driver_is_generic("cbc(aes-fixed-time)"));
	assert_true(sb_crypto_driver_is_generic("essiv(cbc(aes-generic),sha256-generic)"));
	assert_false(sb_crypto_driver_is_generic("xts-aes-aesni"));
	assert_false(sb_crypto_driver_is_generic("mv-cbc-aes"));
	assert_false(sb_crypto_driver_is_generic("essiv(cbc-aes-ce,sha256-ce)"));
}

static void kernel_names(void **state)
{
	char n[128], fb[128];
	struct sb_err err = { 0 };

	assert_int_equal(sb_crypto_kernel_name("aes-xts-plain64", n, sizeof(n), fb, sizeof(fb), &err), 0);
	assert_string_equal(n, "xts(aes)");
	assert_string_equal(fb, "");
	assert_int_equal(sb_crypto_kernel_name("aes-cbc-essiv:sha256", n, sizeof(n), fb, sizeof(fb), &err), 0);
	assert_string_equal(n, "essiv(cbc(aes),sha256)");
	assert_string_equal(fb, "cbc(aes)");
	assert_int_equal(sb_crypto_kernel_name("serpent-xts-plain", n, sizeof(n), NULL, 0, &err), 0);
	assert_string_equal(n, "xts(serpent)");
	assert_int_equal(sb_crypto_kernel_name("aes-ecb", n, sizeof(n), NULL, 0, &err), 0);
	assert_string_equal(n, "ecb(aes)");
	assert_int_equal(sb_crypto_kernel_name("capi:xts(aes)-plain64", n, sizeof(n), NULL, 0, &err), 0);
	assert_string_equal(n, "xts(aes)");
	assert_int_equal(sb_crypto_kernel_name("aes", n, sizeof(n), NULL, 0, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "aes-xts-plain64"));
}

static void secret_memory(void **state)
{
	int before = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	unsigned char *a, *b;
	size_t i, nz = 0;

	a = sb_secret_alloc(64);
	assert_non_null(a);
	assert_int_equal(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 0);
	b = sb_secret_alloc(5000);
	assert_non_null(b);
	assert_int_equal(sb_secret_held(), 2);
	for (i = 0; i < 64; i++)
		assert_int_equal(a[i], 0);
	assert_int_equal(sb_secret_random(a, 64, NULL), 0);
	for (i = 0; i < 64; i++)
		nz += a[i] != 0;
	assert_true(nz > 32); /* 64 random bytes: almost surely mostly non-zero */
	sb_secret_free(a);
	assert_int_equal(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 0); /* b still held */
	sb_secret_free(b);
	assert_int_equal(sb_secret_held(), 0);
	assert_int_equal(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), before);
	sb_secret_free(NULL);
}

/* A LUKS2 image file with one keyslot for `pass`. */
static void make_luks_image(char *path, const char *pass)
{
	struct crypt_pbkdf_type pbkdf = { .type = CRYPT_KDF_PBKDF2, .hash = "sha256",
					  .iterations = 1000, .flags = CRYPT_PBKDF_NO_BENCHMARK };
	struct crypt_params_luks2 p2 = { .pbkdf = &pbkdf, .sector_size = 4096 };
	struct crypt_device *cd;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 20 << 20), 0);
	close(fd);
	assert_int_equal(crypt_init(&cd, path), 0);
	assert_int_equal(crypt_format(cd, CRYPT_LUKS2, "aes", "xts-plain64", NULL, NULL, 64, &p2), 0);
	assert_true(crypt_keyslot_add_by_volume_key(cd, CRYPT_ANY_SLOT, NULL, 0, pass, strlen(pass)) >= 0);
	crypt_free(cd);
}

static void zero_range(const char *path, off_t off, size_t len)
{
	char *z = calloc(1, len);
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, z, len, off), (ssize_t)len);
	close(fd);
	free(z);
}

static void luks_damaged_header_vs_wrong_key(void **state)
{
	char path[] = "/tmp/sb-test-luks.XXXXXX";
	struct sb_err err = { 0 };

	make_luks_image(path, "right passphrase");
	assert_int_equal(sb_luks_check_header(path, &err), 0);
	assert_int_equal(sb_luks_check_key(path, "right passphrase", 16, &err), 0);
	sb_err_clear(&err);
	assert_int_equal(sb_luks_check_key(path, "wrong passphrase", 16, &err), -EPERM);
	assert_non_null(strstr(err.msg, "wrong key"));

	/* Primary header alone damaged: LUKS2 recovers from the second copy. */
	zero_range(path, 0, 4096);
	sb_err_clear(&err);
	assert_int_equal(sb_luks_check_header(path, &err), 0);

	/* Both header copies damaged (LUKS2 default: 16 KiB each, from 0). */
	zero_range(path, 0, 32768);
	sb_err_clear(&err);
	assert_int_equal(sb_luks_check_header(path, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no valid LUKS header"));
	assert_non_null(strstr(err.msg, path));
	sb_err_clear(&err);
	assert_int_equal(sb_luks_check_key(path, "right passphrase", 16, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "damaged or not LUKS"));
	unlink(path);
}

/* Per-sector AF_ALG: both directions at both sector sizes, the larger
 * sector not slower per byte (fewer requests for the same bytes), the
 * driver read back; bad key and sector sizes and unknown ciphers refused. */
static void sector_measure(void **state)
{
	struct sb_err err = { 0 };
	struct sb_crypto_sector s512, s4096;
	int rc = sb_crypto_sector_measure("aes-xts-plain64", 256, 512, 50000000ULL, &s512, &err);

	if (rc == -EAFNOSUPPORT || rc == -ENOENT) {
		printf("skip: no AF_ALG skcipher xts(aes) here: %s\n", err.msg);
		skip();
	}
	assert_int_equal(rc, 0);
	assert_int_equal(sb_crypto_sector_measure("aes-xts-plain64", 256, 4096, 50000000ULL, &s4096, &err), 0);
	assert_true(s512.enc_mbs > 0 && s4096.enc_mbs > 0 && s512.dec_mbs > 0 && s4096.dec_mbs > 0);
	assert_true(s4096.enc_mbs > s512.enc_mbs * 0.9);
	assert_string_equal(s512.kname, "xts(aes)");
	assert_true(s512.driver[0] != '\0');
	assert_int_equal(s512.ivsize, 16);
	assert_int_equal(sb_crypto_sector_measure("aes-xts-plain64", 255, 512, 1, &s512, &err), -EINVAL);
	assert_int_equal(sb_crypto_sector_measure("aes-xts-plain64", 256, 1000, 1, &s512, &err), -EINVAL);
	memset(&err, 0, sizeof(err));
	assert_int_equal(sb_crypto_sector_measure("aes-xts-benbi", 256, 512, 1, &s512, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "IV mode 'benbi'"));
	assert_true(sb_crypto_sector_measure("nosuch-xts-plain64", 256, 512, 1, &s512, &err) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_picks_highest_priority_passed),
		cmocka_unit_test(generic_detection),
		cmocka_unit_test(kernel_names),
		cmocka_unit_test(sector_measure),
		cmocka_unit_test(secret_memory),
		cmocka_unit_test(luks_damaged_header_vs_wrong_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
