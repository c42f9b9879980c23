/* cmd/ciphers.c: the options of `stackbench ciphers` and its table, from
 * a fixed result (no measuring); bench/ciphers.c: the cipher names. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/ciphers.h"
#include "cmd/ciphers.h"
#include "report/backup.h"

static int parse(struct sb_ciphers_args *a, struct sb_err *err, ...)
{
	char *argv[16] = { "ciphers" };
	int argc = 1;
	va_list ap;
	char *s;

	va_start(ap, err);
	while ((s = va_arg(ap, char *)) && argc < 15)
		argv[argc++] = s;
	va_end(ap);
	memset(err, 0, sizeof(*err));
	return sb_cmd_ciphers_parse(argc, argv, a, err);
}

static void defaults_and_lists(void **state)
{
	struct sb_ciphers_args a;
	struct sb_err err;

	assert_int_equal(parse(&a, &err, NULL), 0);
	assert_true(a.seconds > 0.05 && a.seconds < 0.5);
	assert_false(a.json);
	assert_int_equal(a.ndm, 4);
	assert_string_equal(a.dm[0], "aes-xts-plain64:256");
	assert_null(a.dm[4]);
	assert_int_equal(a.nssh, 5);
	assert_string_equal(a.ssh[0], "chacha20-poly1305@openssh.com");

	/* adiantum's name has a comma: --dm-crypt repeats rather than splits */
	assert_int_equal(parse(&a, &err, "--dm-crypt", "xchacha12,aes-adiantum-plain64", "--dm-crypt=aes-cbc-essiv:sha256:128",
			       "--ssh", "aes128-gcm,chacha20-poly1305", "--json", "-t", "0.5", NULL), 0);
	assert_int_equal(a.ndm, 2);
	assert_string_equal(a.dm[0], "xchacha12,aes-adiantum-plain64");
	assert_int_equal(a.nssh, 2);
	assert_string_equal(a.ssh[0], "aes128-gcm@openssh.com");
	assert_string_equal(a.ssh[1], "chacha20-poly1305@openssh.com");
	assert_true(a.json);
	assert_true(a.seconds == 0.5);

	assert_int_equal(parse(&a, &err, "--dm-crypt", "none", "--seconds=2", NULL), 0);
	assert_int_equal(a.ndm, 0);
	assert_null(a.dm[0]);
	assert_int_equal(a.nssh, 5);
}

static void bad_input(void **state)
{
	struct sb_ciphers_args a;
	struct sb_err err;

	assert_int_equal(parse(&a, &err, "--ssh", "aes128-cbc", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown SSH cipher 'aes128-cbc'"));
	assert_non_null(strstr(err.msg, "stackbench help ciphers"));
	assert_int_equal(parse(&a, &err, "--dm-crypt", "aes", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "CIPHER-CHAIN-IV"));
	assert_int_equal(parse(&a, &err, "--dm-crypt", "aes-xts-plain64:300", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "300 bits"));
	assert_int_equal(parse(&a, &err, "--seconds", "x", NULL), -EINVAL);
	assert_int_equal(parse(&a, &err, "--seconds", "100", NULL), -EINVAL);
	assert_int_equal(parse(&a, &err, "--seconds", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "needs a value"));
	assert_int_equal(parse(&a, &err, "extra", NULL), -EINVAL);
	assert_int_equal(parse(&a, &err, "--frobnicate", NULL), -EINVAL);
}

static const char result[] =
	"{\"unit\":\"MB/s (10^6 bytes/s)\",\"dm_crypt\":["
	"{\"cipher\":\"aes-xts-plain64\",\"key_bits\":512,\"driver\":\"xts-aes-aesni\",\"module\":\"aesni_intel\","
	" \"sectors\":{\"512\":{\"encrypt_mbs\":812.3,\"decrypt_mbs\":800.1},\"4096\":{\"encrypt_mbs\":2100.4,\"decrypt_mbs\":2050}},"
	" \"request_1MiB\":{\"encrypt_mbs\":3001.5,\"decrypt_mbs\":2990}},"
	"{\"cipher\":\"xchacha12,aes-adiantum-plain64\",\"key_bits\":256,\"sectors\":{},"
	" \"error\":\"the kernel has no skcipher 'adiantum(xchacha12,aes)'\"}],"
	"\"ssh\":[{\"cipher\":\"aes128-ctr\",\"implementation\":\"AES-NI (default provider)\","
	" \"blocks\":{\"16\":409.4,\"64\":579.4,\"256\":626.0,\"1024\":629.5,\"8192\":627.4,\"16384\":625.4}},"
	"{\"cipher\":\"aes256-gcm@openssh.com\",\"error\":\"OpenSSL has no AES-256-GCM\",\"blocks\":{}}],"
	"\"notes\":[\"a note\"]}";

static void table(void **state)
{
	struct json_object *res = json_tokener_parse(result);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(res);
	sb_cmd_ciphers_print(res, f);
	fclose(f);
	printf("%s", buf);
	assert_non_null(strstr(buf, "MB/s (10^6 bytes/s)"));
	assert_non_null(strstr(buf, "aes-xts-plain64                       512    512     812.3     800.1  xts-aes-aesni (aesni_intel)\n"));
	assert_non_null(strstr(buf, "\n                                      512   4096    2100.4    2050.0\n"));
	assert_non_null(strstr(buf, "\n                                      512   1MiB    3001.5    2990.0  (libcryptsetup benchmark: 1 MiB requests)\n"));
	assert_non_null(strstr(buf, "xchacha12,aes-adiantum-plain64        256      -  not measured: the kernel has no skcipher"));
	assert_non_null(strstr(buf, "    16384 B  implementation\n"));
	assert_non_null(strstr(buf, "aes128-ctr                           409.4       579.4       626.0       629.5       627.4       625.4  AES-NI (default provider)\n"));
	assert_non_null(strstr(buf, "aes256-gcm@openssh.com                   -           -           -           -           -           -  OpenSSL has no AES-256-GCM\n"));
	assert_non_null(strstr(buf, "\nnote: a note\n"));
	free(buf);
	json_object_put(res);
}

static void ssh_names(void **state)
{
	const char *ssh, *evp;
	struct sb_err err = { 0 };

	assert_int_equal(sb_ciphers_ssh_lookup("aes256-gcm@openssh.com", &ssh, &evp, &err), 0);
	assert_string_equal(evp, "AES-256-GCM");
	assert_int_equal(sb_ciphers_ssh_lookup("chacha20-poly1305", &ssh, &evp, &err), 0);
	assert_string_equal(ssh, "chacha20-poly1305@openssh.com");
	assert_string_equal(evp, "ChaCha20-Poly1305");
	assert_int_equal(sb_ciphers_ssh_lookup("aes128", &ssh, &evp, &err), -EINVAL);
}

/* compare --backup-size's durations */
static void backup_duration(void **state)
{
	char b[32];

	sb_backup_duration(0.2, b, sizeof(b));
	assert_string_equal(b, "1 s");
	sb_backup_duration(75, b, sizeof(b));
	assert_string_equal(b, "75 s");
	sb_backup_duration(45 * 60 + 10, b, sizeof(b));
	assert_string_equal(b, "45 min 10 s");
	/* 2 TiB at 190 MB/s: 11574 s */
	sb_backup_duration(2.0 * (1ULL << 40) / 190e6, b, sizeof(b));
	assert_string_equal(b, "3 h 13 min");
	sb_backup_duration(3 * 86400 + 5 * 3600 + 100, b, sizeof(b));
	assert_string_equal(b, "3 d 5 h");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_and_lists),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(table),
		cmocka_unit_test(ssh_names),
		cmocka_unit_test(backup_duration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
