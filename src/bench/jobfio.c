/* fio's spellings, as fio 3.33 reads them (parse.c get_mult_bytes and
 * get_mult_time, options.c get_next_str, fio_option_dup_subs and
 * fio_keyword_replace, the option table's .alias entries). */
#include "bench/jobfio.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/units.h"

/* fio 3.33's options (`fio --cmdhelp=all`, and command-line-only ones)
 * that stackbench job does not take: refused by name, never ignored. */
static const char *const fio_only[] = {
	"allow_file_create", "allow_mounted_write", "allrandrepeat", "atomic", "bandwidth-log",
	"block_error_percentiles", "buffer_compress_chunk", "buffer_compress_percentage",
	"buffer_pattern", "bwavgtime", "cgroup", "cgroup_nodelete", "cgroup_weight", "clat_percentiles",
	"clocksource", "continue_on_error", "cpuclock-test", "cpumask", "crctest", "create_only", "debug",
	"dedupe_global", "dedupe_mode", "dedupe_percentage", "dedupe_working_set_percentage", "disk_util",
	"eta", "eta-newline", "eta-interval", "error_dump", "exec_postrun", "exec_prerun", "fadvise_hint",
	"fdatasync", "file_append", "fsync_on_close", "gid", "gtod_cpu",
	"hipri", "hugepage-size", "idle-prof", "ignore_error", "ignore_zone_limits", "inflate-log",
	"iodepth_low", "iopsavgtime", "ioscheduler", "job_max_open_zones",
	"kb_base", "lat_percentiles", "lockfile", "lockmem", "log_alternate_epoch", "log_alternate_epoch_clock_id",
	"log_compression", "log_compression_cpus", "log_entries", "log_hist_coarseness", "log_hist_msec",
	"log_max_value", "log_offset", "log_prio", "log_store_compressed", "log_unix_epoch", "max-jobs",
	"max_latency", "max_open_zones", "merge_blktrace_file", "merge_blktrace_iters",
	"merge_blktrace_scalars", "minimal", "offset_align", "opendir", "parse-only", "per_job_logs",
	"percentile_list", "pre_read", "profile", "randseed", "read_beyond_wp", "read_iolog_chunked",
	"refill_buffers", "replay_align", "replay_redirect",
	"replay_scale", "replay_skip", "replay_time_scale", "scramble_buffers", "section",
	"server", "significant_figures", "slat_percentiles", "stats",
	"status-interval", "steadystate", "steadystate_duration", "steadystate_ramp_time", "sync",
	"sync_file_range", "terse-version", "thinktime_iotime", "trigger", "trim_backlog",
	"trim_backlog_batch", "trim_percentage", "trim_verify_zero", "uid", "unified_rw_reporting",
	"unique_filename", "unit_base", "unlink_each_loop", "verify_async", "verify_state_load",
	"write_barrier", "write_hint", "write_hist_log", "zero_buffers",
	"zone_reset_frequency", "zone_reset_threshold", "zonecapacity", NULL,
};

/* fio 3.33's engines' own options (their .options) that stackbench's
 * engines do not take: refused by name too (engines family) */
static const char *const fio_engine_only[] = {
	/* psync/pvsync2, libaio, io_uring */
	"hipri_percentage", "uncached", "nowait", "userspace_reap", "cmd_type", "fixedbufs", "force_async",
	"nonvectored",
	"registerfiles", "sqthread_poll", "sqthread_poll_cpu",
	/* cpuio, net, e4defrag, mmap, filestat */
	"exit_on_io_done", "interface", "mss", "netsplice", "nodelay", "pingpong", "ttl", "window_size",
	"thp", NULL,
};

/* fio's .alias of options stackbench takes under their other name */
static const char *const fio_aliases[][2] = {
	{ "timeout", "runtime" },
	{ "iodepth_batch_submit", "iodepth_batch" },
};

/* fio 3.33's .alias -> .name (options.c): fio's option dicts say the name */
static const char *const fio_names[][2] = {
	{ "readwrite", "rw" }, { "iodepth_batch_submit", "iodepth_batch" },
	{ "iodepth_batch_complete", "iodepth_batch_complete_min" }, { "io_limit", "io_size" },
	{ "fill_fs", "fill_device" }, { "fileoffset", "offset" }, { "blocksize", "bs" },
	{ "blockalign", "ba" }, { "blocksize_range", "bsrange" }, { "blocksize_unaligned", "bs_unaligned" },
	{ "nr_files", "nrfiles" }, { "timeout", "runtime" }, { "iomem", "mem" }, { "mem_align", "iomem_align" },
	{ "ratemin", "rate_min" }, { "ratecycle", "rate_cycle" }, { "wait_for_previous", "stonewall" },
	{ "disable_bw", "disable_bw_measurement" }, { "ss", "steadystate" }, { "ss_dur", "steadystate_duration" },
	{ "ss_ramp", "steadystate_ramp_time" },
};

const char *sb_jobfio_dict_name(const char *key)
{
	unsigned i;

	for (i = 0; i < sizeof(fio_names) / sizeof(fio_names[0]); i++)
		if (!strcmp(key, fio_names[i][0]))
			return fio_names[i][1];
	return key;
}

static bool same(const char *a, const char *name, size_t n)
{
	return strlen(a) == n && !strncmp(a, name, n);
}

bool sb_jobfio_known(const char *name, size_t n)
{
	unsigned i;

	for (i = 0; fio_only[i]; i++)
		if (same(fio_only[i], name, n))
			return true;
	for (i = 0; fio_engine_only[i]; i++)
		if (same(fio_engine_only[i], name, n))
			return true;
	return false;
}

const char *sb_jobfio_alias(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(fio_aliases) / sizeof(fio_aliases[0]); i++)
		if (same(fio_aliases[i][0], name, n))
			return fio_aliases[i][1];
	return NULL;
}

/* s as stackbench spells it, into buf: its number (digits[.digits]) and
 * canon[i / group] for the unit that is names[i] (any case, after optional
 * blanks); returns i, or -1 for a unit not in names. */
static int canonical(const char *s, const char *const *names, size_t nnames, const char *const *canon,
		     int group, char *buf, size_t len)
{
	size_t n = strspn(s, "0123456789."), i, k;
	const char *u = s + n + strspn(s + n, " ");
	char unit[8];

	if (n == 0 || n > 64 || strlen(u) >= sizeof(unit))
		return -1;
	for (k = 0; u[k]; k++)
		unit[k] = (char)tolower((unsigned char)u[k]);
	unit[k] = '\0';
	for (i = 0; i < nnames; i++)
		if (!strcmp(unit, names[i])) {
			snprintf(buf, len, "%.*s%s", (int)n, s, canon[(int)i / group]);
			return (int)i;
		}
	return -1;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

int sb_jobfio_size(const char *s, uint64_t *out, struct sb_err *err)
{
	/* groups of three: fio's SI spellings mean 1024 (kb_base=1024) */
	static const char *const names[] = { "", "b", "", "k", "kb", "kib", "m", "mb", "mib",
					     "g", "gb", "gib", "t", "tb", "tib", "p", "pb", "pib" };
	static const char *const canon[] = { "B", "KiB", "MiB", "GiB", "TiB", "TiB" };
	char buf[96];
	int i = canonical(s, names, N(names), canon, 3, buf, sizeof(buf));

	if (i < 0)
		return sb_err_set(err, -EINVAL, "'%s' is not a size (a number with k, m, g, t, p, "
				  "or KiB .. TiB)", s);
	if (sb_size_parse(buf, out, err) < 0)
		return -EINVAL;
	if (i / 3 == 5 && __builtin_mul_overflow(*out, 1024, out))
		return sb_err_set(err, -EINVAL, "'%s' is too large", s);
	return 0;
}

int sb_jobfio_duration(const char *s, uint64_t *ns, struct sb_err *err)
{
	static const char *const names[] = { "", "ns", "us", "usec", "ms", "msec", "s", "m", "h", "d" };
	static const char *const canon[] = { "s", "ns", "us", "us", "ms", "ms", "s", "m", "h", "h" };
	char buf[96];
	int i = canonical(s, names, N(names), canon, 1, buf, sizeof(buf));

	if (i < 0)
		return sb_err_set(err, -EINVAL, "'%s' is not a time (a number of seconds, or with "
				  "us, ms, s, m, h, d)", s);
	if (sb_duration_parse(buf, ns, err) < 0)
		return -EINVAL;
	if ((i == 9 && __builtin_mul_overflow(*ns, 24, ns)) || *ns > SB_JOB_MAX_DUR_NS)
		return sb_err_set(err, -EINVAL, "'%s' is too long; at most %llu days", s,
				  SB_JOB_MAX_DUR_NS / 86400000000000ULL);
	return 0;
}

int sb_jobfio_usec(const char *name, const char *v, uint64_t max_us, uint64_t *us, struct sb_err *err)
{
	struct sb_err e = { 0 };
	char buf[96];
	uint64_t ns;

	if (strlen(v) > 64)
		return sb_err_set(err, -EINVAL, "--%s: '%s' is too long", name, v);
	snprintf(buf, sizeof(buf), "%s%s", v, v[strspn(v, "0123456789")] ? "" : "us");
	if (sb_jobfio_duration(buf, &ns, &e) < 0 || ns / 1000 > max_us) {
		if (max_us == UINT64_MAX)
			return sb_err_set(err, -EINVAL, "--%s: '%s' is not a time (bare number: microseconds)",
					  name, v);
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not a time (bare number: microseconds) "
				  "up to %llu us", name, v, (unsigned long long)max_us);
	}
	*us = ns / 1000;
	return 0;
}

int sb_jobfio_one_name(const char *opt, const char *v, char *out, size_t len, struct sb_err *err)
{
	size_t o = 0, names = 0;
	bool in_name = false;
	const char *p;

	for (p = v; *p; p++) {
		if (*p == ':') {
			in_name = false;
			continue;
		}
		if (!in_name && ++names > 1)
			return sb_err_set(err, -EINVAL, "--%s=%s: fio's ':' separates several files; "
					  "stackbench job runs one file per job (write '\\:' for a ':' "
					  "in a name)", opt, v);
		in_name = true;
		if (*p == '\\' && p[1] == ':')
			p++;
		if (o + 1 >= len)
			return sb_err_set(err, -EINVAL, "--%s: '%s' is longer than %zu characters", opt, v, len - 1);
		out[o++] = *p;
	}
	if (!names)
		return sb_err_set(err, -EINVAL, "--%s: no name in '%s'", opt, v);
	out[o] = '\0';
	return 0;
}

char *sb_jobfio_expand(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	const char *p, *close;

	if (!m)
		return NULL;
	for (p = s; *p; p++) {
		if (p[0] == '$' && p[1] == '{' && (close = strchr(p + 2, '}'))) {
			char *name = strndup(p + 2, (size_t)(close - p - 2));
			const char *val = name ? getenv(name) : NULL;

			free(name);
			if (val)
				fputs(val, m);
			p = close;
			continue;
		}
		fputc(*p, m);
	}
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* bc's integer arithmetic on what fio hands it: + - * / and ( ), unary
 * minus, left to right within a precedence; no overflow, no division by 0. */
struct calc {
	const char *p;
	int bad;
	unsigned depth; /* of ( and unary -: a bound, so no input runs the stack out */
};

static long long calc_sum(struct calc *c);

static long long calc_atom(struct calc *c);

static long long calc_atom1(struct calc *c)
{
	long long v = 0;

	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
	if (*c->p == '-') {
		c->p++;
		v = calc_atom(c);
		return v == LLONG_MIN ? (c->bad = 1, 0) : -v;
	}
	if (*c->p == '(') {
		c->p++;
		v = calc_sum(c);
		while (*c->p == ' ' || *c->p == '\t')
			c->p++;
		if (*c->p++ != ')')
			c->bad = 1;
		return v;
	}
	if (!isdigit((unsigned char)*c->p))
		c->bad = 1;
	for (; isdigit((unsigned char)*c->p); c->p++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *c->p - '0', &v))
			c->bad = 1;
	return v;
}

static long long calc_atom(struct calc *c)
{
	long long v = 0;

	if (++c->depth > 64)
		c->bad = 1;
	else
		v = calc_atom1(c);
	c->depth--;
	return v;
}

static long long calc_product(struct calc *c)
{
	long long v = calc_atom(c), w;
	char op;

	for (;;) {
		while (*c->p == ' ' || *c->p == '\t')
			c->p++;
		if (c->bad || (*c->p != '*' && *c->p != '/'))
			return v;
		op = *c->p++;
		w = calc_atom(c);
		if (op == '*' ? __builtin_mul_overflow(v, w, &v) : (w == 0 || (v == LLONG_MIN && w == -1)))
			c->bad = 1;
		else if (op == '/')
			v /= w;
	}
}

static long long calc_sum(struct calc *c)
{
	long long v = calc_product(c), w;
	char op;

	for (;;) {
		if (c->bad || (*c->p != '+' && *c->p != '-'))
			return v;
		op = *c->p++;
		w = calc_product(c);
		if (op == '+' ? __builtin_add_overflow(v, w, &v) : __builtin_sub_overflow(v, w, &v))
			c->bad = 1;
	}
}

/* fio's fio_keyword_replace + bc_calc on "key=value": the value's sum, or
 * the line as it was when it holds no + - * / (or a quote, as fio). */
static int keyword_calc(char **line, struct sb_err *err)
{
	char *eq = strchr(*line, '='), *out;
	struct calc c;
	long long v;

	if (!eq || !strpbrk(eq + 1, "+-*/") || strchr(*line, '\''))
		return 0;
	c = (struct calc){ .p = eq + 1 };
	v = calc_sum(&c);
	if (c.bad || *c.p)
		return sb_err_set(err, -EINVAL, "'%s': fio hands this to bc; stackbench job computes "
				  "+ - * / and ( ) on whole numbers only", eq + 1);
	if (asprintf(&out, "%.*s=%lld", (int)(eq - *line), *line, v) < 0)
		return sb_err_set(err, -ENOMEM, "out of memory");
	free(*line);
	*line = out;
	return 0;
}

int sb_jobfio_keywords(char **line, struct sb_err *err)
{
	static const char *const words[] = { "$pagesize", "$mb_memory", "$ncpus" };
	long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
	unsigned long long val[3] = {
		(unsigned long long)page,
		page > 0 && pages > 0 ? (unsigned long long)page * (unsigned long long)pages / (1024 * 1024) : 0,
		(unsigned long long)sysconf(_SC_NPROCESSORS_CONF),
	};
	bool any = false;
	char *s, *out;
	unsigned i;

	for (i = 0; i < 3; i++)
		while ((s = strstr(*line, words[i]))) {
			if (asprintf(&out, "%.*s%llu%s", (int)(s - *line), *line, val[i], s + strlen(words[i])) < 0)
				return sb_err_set(err, -ENOMEM, "out of memory");
			free(*line);
			*line = out;
			any = true;
		}
	return any ? keyword_calc(line, err) : 0;
}
