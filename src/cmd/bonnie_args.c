/* bonnie++ 2.00a's command line, as its main() reads it:
 *   -s SIZE[:CHUNK[:SEEKS[:PROCS]]]   SIZE in MiB (g, t), 0 skips the I/O
 *       tests; CHUNK bytes (k), a power of two 256..1m; SEEKS (k); PROCS
 *   -n NUMBER[:MAX[:MIN][:DIRS[:CHUNK]]]   NUMBER x1024 files (m: x1024
 *       more), 0 skips the file tests; MAX/MIN bytes (k, m, g), MAX -1 hard
 *       links, -2 symlinks; DIRS (k); CHUNK bytes (k, m, g)
 * The fields are split as bonnie++'s strtok(":") splits them: empty ones
 * are skipped ("1:4096::4" is MIN 4). bonnie++'s per-char tests (-f N),
 * concurrency above 1, -x, -p, -y, -z, -Z, -D and -l are refused. */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/bonnie_args.h"

#define UNIT_MAX (1u << 20)           /* bonnie++'s Unit: the largest chunk */
#define MAX_DATA_PER_FILE 37          /* bonnie++'s MaxDataPerFile on 64-bit */

static int unsupported(const char *what, struct sb_err *err)
{
	return sb_err_set(err, -EINVAL, "not supported by stackbench bonnie: %s", what);
}

/* bonnie++'s size_from_str: a number, times 1024, 1024^2 or 1024^3 for
 * the 1st, 2nd or 3rd letter of conv as its last character (any case). */
static int bnum(char opt, const char *s, const char *conv, bool neg_ok, int64_t *out, struct sb_err *err)
{
	const char *d = s + (neg_ok && *s == '-');
	char *end;
	long long v;
	const char *u;

	errno = 0;
	v = isdigit((unsigned char)*d) ? strtoll(s, &end, 10) : 0;
	if (!isdigit((unsigned char)*d) || errno)
		return sb_err_set(err, -EINVAL, "-%c: '%s' is not a number", opt, s);
	if (*end) {
		if (end[1] || !conv || !(u = strchr(conv, tolower((unsigned char)*end))))
			return sb_err_set(err, -EINVAL, "-%c: '%s' has an unknown unit%s%s", opt, s,
					  conv ? " (one of: " : "", conv ? conv : "");
		/* checked before it is scaled: bonnie++'s shift would overflow */
		if (__builtin_mul_overflow(v, 1LL << (10 * (u - conv + 1)), &v))
			return sb_err_set(err, -EINVAL, "-%c: '%s' is too large", opt, s);
	}
	*out = v;
	return 0;
}

/* -s and -r: MiB, or with k, m, g, t */
static int mib(char opt, const char *s, uint64_t *out, struct sb_err *err)
{
	static const char conv[] = "kmgt";
	char *end;
	unsigned long long v;
	unsigned shift;
	const char *u;

	errno = 0;
	v = isdigit((unsigned char)*s) ? strtoull(s, &end, 10) : 0;
	if (!isdigit((unsigned char)*s) || errno || (*end && (end[1] || !(u = strchr(conv, tolower((unsigned char)*end))))))
		return sb_err_set(err, -EINVAL, "-%c: '%s' is not a size (MiB, or with k, m, g, t)", opt, s);
	shift = *end ? 10 * (unsigned)(u - conv + 1) : 20;
	if (v > UINT64_MAX >> shift)
		return sb_err_set(err, -EINVAL, "-%c: '%s' is too large", opt, s);
	*out = v << shift;
	return 0;
}

static bool pow2_chunk(int64_t v)
{
	return v >= 256 && v <= UNIT_MAX && (v & (v - 1)) == 0;
}

/* the ":"-separated fields, empty ones skipped as strtok skips them */
static unsigned split(char *s, char **f, unsigned max)
{
	char *save = NULL, *t;
	unsigned n = 0;

	for (t = strtok_r(s, ":", &save); t && n < max; t = strtok_r(NULL, ":", &save))
		f[n++] = t;
	return t ? max + 1 : n;
}

/* Field i of the n ":"-fields f of -s or -n, when given (else *out is
 * left as it is): a number (units conv) in lo..hi, or for a chunk (lo 0) a
 * power of two in 256..1m; what names it in the message. */
static int field(char opt, char **f, unsigned n, unsigned i, const char *conv, int64_t lo, int64_t hi,
		 const char *what, int64_t *out, struct sb_err *err)
{
	const char *s = i < n ? f[i] : NULL;
	int rc = s ? bnum(opt, s, conv, false, out, err) : 0;

	if (rc < 0 || !s)
		return rc;
	if (lo == 0 && !pow2_chunk(*out))
		return sb_err_set(err, -EINVAL, "-%c: chunk %s is not a power of two in 256..1m", opt, s);
	if (lo > 0 && (*out < lo || *out > hi))
		return sb_err_set(err, -EINVAL, "-%c: %s %s is out of range %lld..%lld", opt, s, what,
				  (long long)lo, (long long)hi);
	return 0;
}

static int parse_s(struct sb_bonnie_args *a, char *arg, struct sb_err *err)
{
	char *f[4];
	unsigned n = split(arg, f, 4);
	int64_t chunk = (int64_t)a->chunk, seeks = a->seeks, procs = a->procs;
	int rc;

	if (n == 0 || n > 4)
		return sb_err_set(err, -EINVAL, "-s: '%s' is not SIZE[:CHUNK[:SEEKS[:PROCS]]]", arg);
	if ((rc = mib('s', f[0], &a->size, err)) < 0)
		return rc;
	a->size_set = true;
	a->no_io = a->size == 0;
	if ((rc = field('s', f, n, 1, "k", 0, 0, "", &chunk, err)) < 0 ||
	    (rc = field('s', f, n, 2, "k", 1, 1 << 30, "seeks", &seeks, err)) < 0 ||
	    (rc = field('s', f, n, 3, NULL, 1, 1000, "seek processes", &procs, err)) < 0)
		return rc;
	a->chunk = (uint64_t)chunk;
	a->seeks = (uint32_t)seeks;
	a->procs = (uint32_t)procs;
	return 0;
}

static int parse_n(struct sb_bonnie_args *a, char *arg, struct sb_err *err)
{
	char *f[5];
	unsigned n = split(arg, f, 5);
	int64_t v;
	int rc;

	if (n == 0 || n > 5)
		return sb_err_set(err, -EINVAL, "-n: '%s' is not NUMBER[:MAX[:MIN][:DIRS[:CHUNK]]]", arg);
	if ((rc = bnum('n', f[0], "m", false, &v, err)) < 0)
		return rc;
	/* bonnie++ keeps the names in RAM and refuses beyond 1 GiB of them */
	if (v > (1 << 20) / MAX_DATA_PER_FILE)
		return sb_err_set(err, -EINVAL, "-n: not enough RAM to test with %lldK files (as bonnie++)", (long long)v);
	a->files = (uint32_t)v;
	if (n > 1 && (rc = bnum('n', f[1], "kmg", true, &a->fmax, err)) < 0)
		return rc;
	if (n > 2 && (rc = bnum('n', f[2], "kmg", false, &a->fmin, err)) < 0)
		return rc;
	if (a->fmax != -1 && a->fmax != -2 && (a->fmax < a->fmin || a->fmax < 0))
		return sb_err_set(err, -EINVAL, "-n: MAX %s is below MIN or negative (-1 links, -2 symlinks)", f[1]);
	v = a->dirs;
	if ((rc = field('n', f, n, 3, "k", 1, 99999, "directories", &v, err)) < 0)
		return rc;
	a->dirs = (uint32_t)v;
	v = (int64_t)a->fchunk;
	if ((rc = field('n', f, n, 4, "kmg", 0, 0, "", &v, err)) < 0)
		return rc;
	a->fchunk = (uint64_t)v;
	return 0;
}

/* -f, or -fN: per-char tests of N MiB, which stackbench does not run */
static int parse_f(const char *arg, struct sb_err *err)
{
	if (arg && strspn(arg, "0") != strlen(arg))
		return unsupported("-f SIZE (the per-char tests; -f alone skips them)", err);
	return 0;
}

static int option(struct sb_bonnie_args *a, int c, char *arg, struct sb_err *err)
{
	char opt[3] = "-?";

	switch (c) {
	case 'd': a->dir = arg; return 0;
	case 's': return parse_s(a, arg, err);
	case 'r': a->ram_set = true; return mib('r', arg, &a->ram, err);
	case 'n': return parse_n(a, arg, err);
	case 'm': a->machine = arg; return 0;
	case 'c': return strcmp(arg, "1") ? unsupported("-c above 1 (one process)", err) : 0;
	case 'f': return parse_f(arg, err);
	case 'b': a->sync = true; return 0;
	case 'u': a->user = arg; return 0;
	case 'g': a->group = arg; return 0;
	case 'q': a->quiet = true; return 0;
	case '?':
		opt[1] = (char)optopt;
		if (strchr("dsrnmcuglxpzZ", optopt))
			return sb_err_set(err, -EINVAL, "-%c needs a value", optopt);
		return sb_err_set(err, -EINVAL, "unknown option '%s'; see `stackbench help bonnie`", opt);
	default:                      /* bonnie++'s others: -x -p -y -z -Z -D -l */
		opt[1] = (char)c;
		return unsupported(opt, err);
	}
}

int sb_bonnie_args_parse(int argc, char **argv, struct sb_bonnie_args *a, struct sb_err *err)
{
	int c, rc = 0;

	memset(a, 0, sizeof(*a));
	a->files = 16; /* bonnie++'s default -n */
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = getopt(argc, argv, "+d:s:r:n:m:c:f::bu:g:ql:x:p:yDz:Z:")) != -1)
		rc = option(a, c, optarg, err);
	if (rc < 0)
		return rc;
	if (optind < argc)
		return sb_err_set(err, -EINVAL, "unexpected argument '%s'", argv[optind]);
	if (!a->dir)
		return sb_err_set(err, -EINVAL, "-d DIR is required");
	if (a->no_io && !a->files)
		return sb_err_set(err, -EINVAL, "-s 0 and -n 0: no test left to run (bonnie++ refuses it too)");
	if (a->ram_set && a->size_set && !a->no_io && a->size / 2 < a->ram)
		return sb_err_set(err, -EINVAL, "file size should be double RAM for good results, RAM is %lluM "
				  "(bonnie++'s rule: -s at least twice -r)", (unsigned long long)(a->ram >> 20));
	if (a->ram_set && a->ram && (uint64_t)a->files * MAX_DATA_PER_FILE * 2 > (a->ram >> 10))
		return sb_err_set(err, -EINVAL, "-n: when testing %uK files in %llu MiB of RAM the names would page "
				  "(bonnie++ refuses it): use fewer files", a->files,
				  (unsigned long long)(a->ram >> 20));
	return 0;
}
