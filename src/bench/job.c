#include "bench/job.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

static const char *const rw_names[] = {
	[SB_RW_READ] = "read", [SB_RW_WRITE] = "write", [SB_RW_RANDREAD] = "randread",
	[SB_RW_RANDWRITE] = "randwrite", [SB_RW_RW] = "rw", [SB_RW_RANDRW] = "randrw",
};

int sb_rw_parse(const char *s, enum sb_rw *out)
{
	unsigned i;

	for (i = 0; i < sizeof(rw_names) / sizeof(rw_names[0]); i++)
		if (!strcmp(s, rw_names[i])) {
			*out = (enum sb_rw)i;
			return 0;
		}
	/* fio spells rw also as readwrite */
	if (!strcmp(s, "readwrite")) {
		*out = SB_RW_RW;
		return 0;
	}
	return -EINVAL;
}

const char *sb_rw_name(enum sb_rw rw)
{
	return rw_names[rw];
}

void sb_job_opts_init(struct sb_job_opts *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->name, sizeof(o->name), "job");
	o->rw = SB_RW_READ;
	o->rwmixread = 50;
	o->bs = 4096;
	o->iodepth = 1;
	o->numjobs = 1;
	o->direct = true;
}

static int parse_u32(const char *opt, const char *s, uint32_t min, uint32_t max,
		     uint32_t *out, struct sb_err *err)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max)
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not a whole number in %u..%u",
				  opt, s, min, max);
	*out = (uint32_t)v;
	return 0;
}

static int parse_size_opt(const char *opt, const char *s, uint64_t *out, struct sb_err *err)
{
	int rc = sb_size_parse(s, out, err);

	if (rc < 0)
		sb_err_prefix(err, "--%s: ", opt);
	return rc;
}

static int parse_dur_opt(const char *opt, const char *s, uint64_t *out, struct sb_err *err)
{
	int rc = sb_duration_parse(s, out, err);

	if (rc < 0)
		sb_err_prefix(err, "--%s: ", opt);
	return rc;
}

int sb_job_parse_args(int argc, char **argv, struct sb_job_opts *o,
		      const char **watch, unsigned *nwatch,
		      enum sb_output_format *fmt, struct sb_err *err)
{
	enum { O_TARGET = 256, O_RW, O_BS, O_IODEPTH, O_NUMJOBS, O_RUNTIME, O_SIZE, O_MIX,
	       O_RAMP, O_BUFFERED, O_DIRECT, O_FSYNC, O_VERIFY, O_SEED, O_WATCH, O_FMT, O_NAME,
	       O_KEEP, O_BATCH };
	static const struct option opts[] = {
		{ "target", required_argument, NULL, O_TARGET },
		{ "filename", required_argument, NULL, O_TARGET },
		{ "rw", required_argument, NULL, O_RW },
		{ "bs", required_argument, NULL, O_BS },
		{ "iodepth", required_argument, NULL, O_IODEPTH },
		{ "numjobs", required_argument, NULL, O_NUMJOBS },
		{ "runtime", required_argument, NULL, O_RUNTIME },
		{ "size", required_argument, NULL, O_SIZE },
		{ "rwmixread", required_argument, NULL, O_MIX },
		{ "ramp", required_argument, NULL, O_RAMP },
		{ "ramp_time", required_argument, NULL, O_RAMP },
		{ "buffered", no_argument, NULL, O_BUFFERED },
		{ "direct", required_argument, NULL, O_DIRECT },
		{ "fsync", required_argument, NULL, O_FSYNC },
		{ "verify", no_argument, NULL, O_VERIFY },
		{ "verify-seed", required_argument, NULL, O_SEED },
		{ "watch", required_argument, NULL, O_WATCH },
		{ "output-format", required_argument, NULL, O_FMT },
		{ "name", required_argument, NULL, O_NAME },
		{ "keep-files", no_argument, NULL, O_KEEP },
		{ "iodepth-batch", required_argument, NULL, O_BATCH },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t u;
	int c, rc = 0;

	sb_job_opts_init(o);
	*nwatch = 0;
	*fmt = SB_OUT_TEXT;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case O_TARGET:
			if (strlen(optarg) >= sizeof(o->target))
				return sb_err_set(err, -EINVAL, "--target: path too long");
			snprintf(o->target, sizeof(o->target), "%s", optarg);
			break;
		case O_RW:
			if (sb_rw_parse(optarg, &o->rw) < 0)
				return sb_err_set(err, -EINVAL, "--rw: '%s' is not one of read, write, "
						  "randread, randwrite, rw, randrw", optarg);
			break;
		case O_BS: rc = parse_size_opt("bs", optarg, &o->bs, err); break;
		case O_IODEPTH: rc = parse_u32("iodepth", optarg, 1, 4096, &o->iodepth, err); break;
		case O_NUMJOBS: rc = parse_u32("numjobs", optarg, 1, SB_JOB_MAX_THREADS, &o->numjobs, err); break;
		case O_RUNTIME: rc = parse_dur_opt("runtime", optarg, &o->runtime_ns, err); break;
		case O_SIZE: rc = parse_size_opt("size", optarg, &o->size, err); break;
		case O_MIX: rc = parse_u32("rwmixread", optarg, 0, 100, &o->rwmixread, err); break;
		case O_RAMP: rc = parse_dur_opt("ramp", optarg, &o->ramp_ns, err); break;
		case O_BUFFERED: o->direct = false; break;
		case O_DIRECT:
			rc = parse_u32("direct", optarg, 0, 1, &u, err);
			o->direct = u;
			break;
		case O_FSYNC: rc = parse_u32("fsync", optarg, 0, UINT32_MAX, &o->fsync_every, err); break;
		case O_VERIFY: o->verify = true; break;
		case O_SEED: {
			char *end;

			errno = 0;
			o->verify_seed = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end)
				return sb_err_set(err, -EINVAL, "--verify-seed: '%s' is not a number", optarg);
			o->verify_seed_set = true;
			break;
		}
		case O_WATCH:
			if (*nwatch >= SB_JOB_MAX_WATCH)
				return sb_err_set(err, -EINVAL, "--watch: at most %d devices", SB_JOB_MAX_WATCH);
			watch[(*nwatch)++] = optarg;
			break;
		case O_FMT:
			if (!strcmp(optarg, "json"))
				*fmt = SB_OUT_JSON;
			else if (!strcmp(optarg, "text"))
				*fmt = SB_OUT_TEXT;
			else
				return sb_err_set(err, -EINVAL, "--output-format: '%s' is not text or json", optarg);
			break;
		case O_NAME:
			if (!optarg[0] || strlen(optarg) >= sizeof(o->name) || strchr(optarg, '/'))
				return sb_err_set(err, -EINVAL, "--name: '%s' must be 1..63 characters without '/'", optarg);
			snprintf(o->name, sizeof(o->name), "%s", optarg);
			break;
		case O_KEEP: o->keep_files = true; break;
		case O_BATCH: rc = parse_u32("iodepth-batch", optarg, 1, 4096, &o->iodepth_batch, err); break;
		case ':':
			return sb_err_set(err, -EINVAL, "option '%s' needs a value", argv[optind - 1]);
		default:
			return sb_err_set(err, -EINVAL, "unknown option '%s'; see `stackbench help job`",
					  argv[optind - 1]);
		}
		if (rc < 0)
			return rc;
	}
	if (optind < argc)
		return sb_err_set(err, -EINVAL, "unexpected argument '%s'", argv[optind]);
	if (!o->target[0])
		return sb_err_set(err, -EINVAL, "--target PATH is required");
	return sb_job_opts_check(o, err);
}

int sb_job_opts_check(const struct sb_job_opts *o, struct sb_err *err)
{
	if (o->bs < 512 || o->bs % 512)
		return sb_err_set(err, -EINVAL, "--bs: %llu is not a multiple of 512 bytes",
				  (unsigned long long)o->bs);
	if (o->bs > (64u << 20))
		return sb_err_set(err, -EINVAL, "--bs: at most 64 MiB");
	if (o->size && o->size < o->bs)
		return sb_err_set(err, -EINVAL, "--size: smaller than --bs");
	if (o->ramp_ns && !o->runtime_ns)
		return sb_err_set(err, -EINVAL, "--ramp needs --runtime (a time-based job)");
	if (o->verify && o->runtime_ns)
		return sb_err_set(err, -EINVAL, "--verify works on size-based jobs; drop --runtime");
	if (o->verify && (o->rw == SB_RW_RW || o->rw == SB_RW_RANDRW))
		return sb_err_set(err, -EINVAL, "--verify: use write/randwrite (write, then read back) "
				  "or read/randread (check data written earlier)");
	if (o->verify && o->bs < 4096 && o->bs % 512)
		return sb_err_set(err, -EINVAL, "--verify: bs must be a multiple of 512");
	return 0;
}
