/* fio's verify header and checksums against blocks fio 3.33 wrote
 * (tests/unit/fio-verify/): decode, check, encode byte for byte, a
 * corrupted byte found at its block's offset; the options' parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/fioverify.h"
#include "bench/jobargs.h"
#include "config.h"

#define BS 512

static void test_types(void **state)
{
	const char *refused[] = { "sha256", "sha512", "crc16", "crc7" }, *why;
	unsigned t;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		assert_int_equal(sb_fv_parse_type(refused[i], &t, &why), -ENOTSUP);
		assert_non_null(why);
	}
	assert_int_equal(sb_fv_parse_type("md6", &t, &why), -EINVAL);
	assert_int_equal(sb_fv_parse_type("pattern", &t, &why), 0);
	assert_int_equal(t, SB_FV_PATTERN_NO_HDR);
}

#if defined(SB_HAVE_ISAL) && defined(SB_HAVE_XXHASH)
static const char *const types[] = { "md5", "crc32c", "crc32", "crc64", "sha1", "sha3-256", "xxhash", "meta" };

static void load(const char *type, uint8_t *buf)
{
	const char *src = getenv("SB_SOURCE_DIR");
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/unit/fio-verify/%s.bin", src ? src : ".", type);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, 2 * BS, f), 2 * BS);
	fclose(f);
}

static struct sb_fv_opts opts(const char *type)
{
	struct sb_fv_opts o = { 0 };
	const char *why;
	unsigned t;

	assert_int_equal(sb_fv_parse_type(type, &t, &why), 0);
	o.type = (uint8_t)t;
	o.interval = BS;
	if (!strcmp(type, "meta")) {
		o.pattern_len = 4;
		memcpy(o.pattern, "\xaa\x55\x5a\xa5", 4);
	}
	return o;
}

/* the header as fio laid it out: magic, type, len, offset, thread, numberio, its crc32c */
static void test_header_decode(void **state)
{
	uint8_t buf[2 * BS];
	struct sb_fv_hdr h;

	(void)state;
	load("md5", buf);
	sb_fv_hdr_decode(buf + BS, &h);
	assert_int_equal(h.magic, 0xacca);
	assert_int_equal(h.type, SB_FV_MD5);
	assert_int_equal(h.len, BS);
	assert_int_equal(h.offset, BS);
	assert_int_equal(h.thread, 1);
	assert_int_equal(h.numberio, 1);
	assert_int_equal(h.crc32, sb_fv_crc32c(buf + BS, 36));
	assert_int_equal(sb_fv_hdr_size(SB_FV_MD5), 56);
}

/* every type fio wrote checks clean; sb_fv_fill from the decoded header
 * writes the very same bytes (data fill, header, checksum) */
static void test_fio_blocks(void **state)
{
	uint8_t buf[2 * BS], again[BS];
	struct sb_fv_fail f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct sb_fv_opts o = opts(types[i]);

		load(types[i], buf);
		for (unsigned b = 0; b < 2; b++) {
			struct sb_fv_hdr h;

			sb_fv_hdr_decode(buf + b * BS, &h);
			sb_fv_fill(&o, again, BS, b * BS, h.rand_seed, h.thread, h.numberio,
				   (uint64_t)h.time_sec * 1000000000ULL + h.time_nsec);
			if (memcmp(again, buf + b * BS, BS))
				fail_msg("%s block %u: sb_fv_fill differs from fio's bytes", types[i], b);
			if (sb_fv_check(&o, buf + b * BS, BS, b * BS, NULL, &f))
				fail_msg("%s block %u: %s", types[i], b, f.what);
		}
	}
}

/* one byte flipped: the data (checksum types), the pattern (meta), the
 * header; found at the block's offset */
static void test_corrupt(void **state)
{
	uint8_t buf[2 * BS];
	struct sb_fv_fail f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct sb_fv_opts o = opts(types[i]);

		load(types[i], buf);
		buf[BS + 300] ^= 0x10;
		assert_int_equal(sb_fv_check(&o, buf + BS, BS, BS, NULL, &f), -EILSEQ);
		assert_int_equal(f.offset, BS);
		load(types[i], buf);
		buf[BS + 20] ^= 1;   /* the header's offset field */
		assert_int_equal(sb_fv_check(&o, buf + BS, BS, BS, NULL, &f), -EILSEQ);
		assert_non_null(strstr(f.what, "bad header"));
		load(types[i], buf);   /* the right bytes at the wrong offset */
		assert_int_equal(sb_fv_check(&o, buf, BS, BS, NULL, &f), -EILSEQ);
	}
}

/* numberio is checked when the writer is known (fio: td_write) */
static void test_expect(void **state)
{
	uint8_t buf[2 * BS];
	struct sb_fv_opts o = opts("crc32c");
	struct sb_fv_expect e = { .numberio_set = true, .numberio = 1 };
	struct sb_fv_fail f;

	(void)state;
	load("crc32c", buf);
	assert_int_equal(sb_fv_check(&o, buf + BS, BS, BS, &e, &f), 0);
	e.numberio = 2;
	assert_int_equal(sb_fv_check(&o, buf + BS, BS, BS, &e, &f), -EILSEQ);
	assert_non_null(strstr(f.what, "numberio"));
}

/* verify_offset: the header moves and comes back (fio's memswp) */
static void test_offset(void **state)
{
	struct sb_fv_opts o = opts("md5");
	uint8_t buf[BS];
	struct sb_fv_fail f;

	(void)state;
	o.offset = 100;
	sb_fv_fill(&o, buf, BS, 4096, 42, 1, 0, 0);
	assert_int_equal(buf[100], 0xca);
	assert_int_equal(buf[101], 0xac);
	assert_int_equal(sb_fv_check(&o, buf, BS, 4096, NULL, &f), 0);
}

static int parse(struct sb_job_cli *c, struct sb_err *err, ...)
{
	char *argv[32] = { "job" };
	int argc = 1;
	va_list ap;

	va_start(ap, err);
	while (argc < 31 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	memset(err, 0, sizeof(*err));   /* the first error set is kept: a fresh one each time */
	return sb_job_cli_parse(argc, argv, c, err);
}

/* verify=<type> is fio's, verify alone stackbench's own; fio's fixups */
static void test_options(void **state)
{
	struct sb_job_cli c;
	struct sb_err err = { 0 };

	(void)state;
	assert_int_equal(parse(&c, &err, "--filename=x", "--size=1m", "--bs=64k", "--verify=md5",
			       "--verify_interval=1m", NULL), 0);
	assert_int_equal(c.jobs[0].fv.type, SB_FV_MD5);
	assert_false(c.jobs[0].verify);
	assert_int_equal(c.jobs[0].fv.interval, 65536);  /* at most the block, as fio */
	sb_job_cli_free(&c);
	assert_int_equal(parse(&c, &err, "--filename=x", "--size=1m", "--verify", "crc32c", NULL), 0);
	assert_int_equal(c.jobs[0].fv.type, SB_FV_CRC32C);    /* fio's getopt: the next word */
	sb_job_cli_free(&c);
	assert_int_equal(parse(&c, &err, "--filename=x", "--size=1m", "--verify", NULL), 0);
	assert_true(c.jobs[0].verify);
	assert_int_equal(c.jobs[0].fv.type, SB_FV_NONE);
	sb_job_cli_free(&c);
	assert_int_equal(parse(&c, &err, "--filename=x", "--size=1m", "--verify_pattern=0xaa555aa5", NULL), 0);
	assert_int_equal(c.jobs[0].fv.type, SB_FV_PATTERN);   /* fio: pattern alone means verify=pattern, headers kept */
	assert_int_equal(c.jobs[0].fv.pattern_len, 4);
	assert_int_equal(c.jobs[0].fv.pattern[1], 0x55);
	sb_job_cli_free(&c);
	/* fio's parse_number: an odd count starts with one nibble; 0x..0x.. are two pieces */
	assert_int_equal(parse(&c, &err, "--filename=x", "--size=1m", "--verify_pattern=0xaaa0x14\"ab\"", NULL), 0);
	assert_int_equal(c.jobs[0].fv.pattern_len, 5);
	assert_memory_equal(c.jobs[0].fv.pattern, "\x0a\xaa\x14" "ab", 5);
	sb_job_cli_free(&c);
	assert_int_equal(parse(&c, &err, "--filename=x", "--size=1m", "--verify=sha256", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: --verify=sha256"));
	assert_int_equal(parse(&c, &err, "--filename=x", "--size=1m", "--verify_async=2", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: --verify_async"));
	assert_int_equal(parse(&c, &err, "--filename=x", "--size=1m", "--bs=512", "--verify=md5", "--verify_offset=500",
			       NULL), -EINVAL);
}

#else
/* a build without ISA-L refuses every type that needs fio's crc32c, by name */
static void test_no_isal(void **state)
{
	const char *why;
	unsigned t;

	(void)state;
	assert_int_equal(sb_fv_parse_type("md5", &t, &why), -ENOTSUP);
	assert_non_null(strstr(why, "ISA-L"));
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types),
#if defined(SB_HAVE_ISAL) && defined(SB_HAVE_XXHASH)
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_header_decode),
		cmocka_unit_test(test_fio_blocks),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_expect),
		cmocka_unit_test(test_offset),
#else
		cmocka_unit_test(test_no_isal),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
