/* The VERIFY family of `stackbench job` options, as fio 3.33's (options.c,
 * init.c fixup_options): verify=<type>, do_verify, verify_interval,
 * verify_offset, verify_pattern, verify_fatal, verify_dump, verify_backlog
 * (+_batch), verify_only, experimental_verify, verify_state_save=0.
 *
 * stackbench's own verify (its block header, used by the suites and by
 * degrade.c) stays `--verify` alone or `--verify=1` (o->verify): fio has
 * no verify=1, so the two never mean the same spelling. verify=<type> is
 * fio's (o->fv), verify=0 turns both off. */
#include "bench/jobverify.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bench/jobfio.h"
#include "bench/jobopt.h"
#include "util/log.h"

int sb_jobverify_set(const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	const char *why;
	unsigned t;
	int rc;

	j->verify = false;
	j->fv.type = SB_FV_NONE;
	j->fv.type_set = true;
	if (!strcmp(v, "0"))
		return 0;
	if (!strcmp(v, "1")) {
		j->verify = true;  /* stackbench's own header */
		return 0;
	}
	rc = sb_fv_parse_type(v, &t, &why);
	if (rc == -ENOTSUP)
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --verify=%s (%s)", v, why);
	if (rc < 0)
		return sb_err_set(err, -EINVAL, "--verify: '%s' is not one of fio's md5, crc64, crc32, crc32c, "
				  "crc32c-intel, crc16, crc7, sha1, sha256, sha512, sha3-224, sha3-256, sha3-384, "
				  "sha3-512, xxhash, meta, pattern, null (or 0; 1 is stackbench's own)", v);
	j->fv.type = (uint8_t)t;
	return 0;
}

bool sb_jobverify_is_type(const char *s)
{
	const char *why;
	unsigned t;

	return sb_fv_parse_type(s, &t, &why) != -EINVAL;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* fio's verify_pattern (lib/pattern.c): 0xHEX and "quoted" pieces, one
 * after another; fio's %o (the offset pasted in) and bare decimals are
 * refused. */
static int cb_pattern(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_fv_opts *f = &j->fv;
	const char *p = v;
	uint32_t n = 0;

	(void)o;
	while (*p) {
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			const char *h = p + 2;
			size_t k = strspn(h, "0123456789abcdefABCDEF"), i = 0;

			if (k && (h[k] == 'x' || h[k] == 'X') && h[k - 1] == '0')
				k--;   /* 0xff0x14: two pieces, as fio's parse_number */
			if (!k)
				goto bad;
			if (k % 2) {   /* an odd count: the first nibble alone, as fio */
				if (n >= SB_FV_PATTERN_MAX)
					goto big;
				f->pattern[n++] = (uint8_t)hexval(h[0]);
				i = 1;
			}
			for (; i < k; i += 2) {
				if (n >= SB_FV_PATTERN_MAX)
					goto big;
				f->pattern[n++] = (uint8_t)(hexval(h[i]) << 4 | hexval(h[i + 1]));
			}
			p = h + k;
		} else if (*p == '"' || *p == '\'') {
			const char *e = strchr(p + 1, *p);

			if (!e)
				goto bad;
			for (p++; p < e; p++) {
				if (n >= SB_FV_PATTERN_MAX)
					goto big;
				f->pattern[n++] = (uint8_t)*p;
			}
			p++;
		} else if (*p == '%') {
			return sb_err_set(err, -EINVAL, "not supported by stackbench job: --verify_pattern=%s "
					  "(fio's %%o formats)", v);
		} else {
			goto bad;
		}
	}
	if (!n)
		goto bad;
	f->pattern_len = n;
	return 0;
bad:
	return sb_err_set(err, -EINVAL, "not supported by stackbench job: --verify_pattern=%s (stackbench "
			  "takes fio's 0xHEX and \"text\" pieces)", v);
big:
	return sb_err_set(err, -EINVAL, "--verify_pattern: longer than %d bytes", SB_FV_PATTERN_MAX);
}

static int cb_size32(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_err e = { 0 };
	uint64_t u;

	if (sb_jobfio_size(v, &u, &e) < 0)
		return sb_err_set(err, -EINVAL, "--%s: %s", o->name, e.msg);
	if (u < o->min || u > o->max)
		return sb_err_set(err, -EINVAL, "--%s: %s is out of range (%llu..%llu)", o->name, v,
				  (unsigned long long)o->min, (unsigned long long)o->max);
	if (o->size == sizeof(uint64_t))
		*(uint64_t *)((char *)j + o->off) = u;
	else
		*(uint32_t *)((char *)j + o->off) = (uint32_t)u;
	return 0;
}

static int cb_state_save(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	(void)o;
	(void)j;
	if (!strcmp(v, "0"))
		return 0;
	return sb_err_set(err, -EINVAL, "not supported by stackbench job: verify_state_save=%s (stackbench "
			  "writes no verify state file; verify_state_save=0 only)", v);
}

const struct jopt sb_jopts_verify[] = {
	{ "do_verify", NULL, JT_NBOOL, F(fv.no_verify), 0, 0, "1", "fio's verify=: read back and check after the writes", NULL },
	{ "verify_interval", NULL, JT_CB, F(fv.interval), 2 * SB_FV_HDR_LEN, 64 * MiB, "bs",
	  "a verify header every this many bytes", cb_size32 },
	{ "verify_offset", NULL, JT_CB, F(fv.offset), SB_FV_HDR_LEN, 64 * MiB, "0",
	  "the verify header swapped to this offset in each interval", cb_size32 },
	{ "verify_pattern", NULL, JT_CB, NOF, 0, 0, NULL, "write (and check) this pattern (0xHEX, \"text\")", cb_pattern },
	{ "verify_fatal", NULL, JT_BOOL, F(fv.fatal), 0, 0, "0", "stop at the first bad interval of a block", NULL },
	{ "verify_dump", NULL, JT_BOOL, F(fv.dump), 0, 0, "0",
	  "a bad block's received and expected bytes to FILE.OFFSET.{received,expected}", NULL },
	{ "verify_backlog", NULL, JT_CB, F(fv.backlog), 1, UINT64_MAX, NULL, "check the blocks written every this many writes", cb_size32 },
	{ "verify_backlog_batch", NULL, JT_CB, F(fv.backlog_batch), 0, UINT32_MAX, NULL,
	  "check this many of them each time (default: verify_backlog)", cb_size32 },
	{ "verify_only", NULL, JT_BOOL, F(fv.only), 0, 0, "0", "write nothing: check what this job wrote before", NULL },
	{ "experimental_verify", NULL, JT_BOOL, F(fv.experimental), 0, 0, "0",
	  "fio's replayed verify: the same check here (stackbench's verify always replays the offsets)", NULL },
	{ "verify_state_save", NULL, JT_CB, NOF, 0, 0, "0", "fio's state file on exit: not written (0 only)", cb_state_save },
	/* examples/surface-scan.fio's: stackbench lays the files out one after
	 * another before any I/O is timed, which is what 1 means and all 0
	 * changes is the order of the layouts */
	{ "create_serialize", NULL, JT_BOOL, F(fv.create_serialize), 0, 0, "1",
	  "lay the job threads' files out one after another (stackbench always does)", NULL },
	{ NULL },
};

static bool writes(enum sb_rw rw)
{
	return rw != SB_RW_READ && rw != SB_RW_RANDREAD;
}

int sb_jobverify_finish(struct sb_job_opts *j, struct sb_err *err)
{
	struct sb_fv_opts *f = &j->fv;
	unsigned hs;

	/* fio's str_verify_pattern_cb: a pattern without verify= is verify=pattern with headers */
	if (f->pattern_len && !f->type_set)
		f->type = SB_FV_PATTERN;
	if (f->type == SB_FV_NONE)
		return 0;
	if (f->type == SB_FV_PATTERN_NO_HDR && !f->pattern_len)
		return sb_err_set(err, -EINVAL, "job %s: --verify=pattern needs --verify_pattern", j->name);
	/* fio's fixup_options: the interval at most the block, a factor of it */
	if (!f->interval || f->interval > j->bs || j->bs % f->interval)
		f->interval = (uint32_t)j->bs;
	hs = sb_fv_hdr_size(f->type);
	if (hs && f->interval <= hs)
		return sb_err_set(err, -EINVAL, "job %s: --bs/--verify_interval %u too small for the %u-byte "
				  "%s header (fio: Blocksize too small)", j->name, f->interval, hs, sb_fv_name(f->type));
	if (f->offset && f->offset + hs > f->interval)
		return sb_err_set(err, -EINVAL, "job %s: --verify_offset %u + the %u-byte header is past the "
				  "%u-byte interval", j->name, f->offset, hs, f->interval);
	if (f->only && writes(j->rw) && sb_rw_random(j->rw) && !j->randommap)
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --verify_only of random "
				  "writes with --norandommap (which blocks were written is not known)");
	if ((j->rw == SB_RW_WRITE || j->rw == SB_RW_RANDWRITE) && !f->no_verify && j->time_based &&
	    !f->backlog)
		sb_warn("job %s: verification read phase will never start because write phase uses all of "
			"runtime (as fio)", j->name);
	if (!f->backlog_batch || f->backlog_batch > f->backlog)
		f->backlog_batch = (uint32_t)(f->backlog < UINT32_MAX ? f->backlog : UINT32_MAX);
	return 0;
}
