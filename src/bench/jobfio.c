/* fio's spellings, as fio 3.33 reads them (parse.c get_mult_bytes and
 * get_mult_time, options.c get_next_str and fio_option_dup_subs, the
 * option table's .alias entries). */
#include "bench/jobfio.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

/* fio 3.33's options (`fio --cmdhelp=all`, and command-line-only ones)
 * that stackbench job does not take: refused by name, never ignored. */
static const char *const fio_only[] = {
	"allow_file_create", "allow_mounted_write", "allrandrepeat", "atomic", "bandwidth-log",
	"block_error_percentiles", "buffer_compress_chunk",
	"buffer_compress_percentage", "buffer_pattern", "bwavgtime", "cgroup", "cgroup_nodelete",
	"cgroup_weight", "clat_percentiles", "clocksource", "continue_on_error", "cpuclock-test",
	"cpumask", "cpus_allowed", "cpus_allowed_policy", "crctest", "create_fsync", "create_on_open",
	"create_only", "debug", "dedupe_global", "dedupe_mode", "dedupe_percentage",
	"dedupe_working_set_percentage", "disable_bw_measurement", "disable_clat",
	"disable_lat", "disable_slat", "disk_util", "eta", "eta-newline", "eta-interval",
	"error_dump", "exec_postrun", "exec_prerun", "exit_what", "exitall", "exitall_on_error",
	"fadvise_hint", "fallocate", "fdatasync", "file_append",
	"file_service_type", "filename_format", "fill_device", "flow", "flow_id",
	"flow_sleep", "fsync_on_close", "gid", "gtod_cpu", "gtod_reduce", "hipri", "hugepage-size",
	"idle-prof", "ignore_error", "ignore_zone_limits", "inflate-log", "io_size",
	"io_submit_mode", "iodepth_low", "iopsavgtime",
	"ioscheduler", "job_max_open_zones", "kb_base", "lat_percentiles", "latency_percentile",
	"latency_run", "latency_target", "latency_window", "lockfile", "lockmem", "log_alternate_epoch",
	"log_alternate_epoch_clock_id", "log_compression", "log_compression_cpus", "log_entries",
	"log_hist_coarseness", "log_hist_msec", "log_max_value", "log_offset", "log_prio",
	"log_store_compressed", "log_unix_epoch", "max-jobs", "max_latency",
	"max_open_zones", "merge_blktrace_file", "merge_blktrace_iters",
	"merge_blktrace_scalars", "minimal", "new_group", "nice", "nrfiles",
	"numa_cpu_nodes", "numa_mem_policy", "number_ios", "offset_align",
	"opendir", "openfiles", "overwrite", "parse-only", "per_job_logs",
	"percentile_list", "pre_read", "prio", "prioclass", "profile",
	"randseed", "rate", "rate_cycle",
	"rate_ignore_thinktime", "rate_iops", "rate_iops_min", "rate_min", "rate_process",
	"read_beyond_wp", "read_iolog", "read_iolog_chunked", "refill_buffers", "replay_align",
	"replay_no_stall", "replay_redirect", "replay_scale", "replay_skip", "replay_time_scale",
	"scramble_buffers", "section", "serialize_overlap", "server",
	"significant_figures", "slat_percentiles", "startdelay", "stats", "status-interval",
	"steadystate", "steadystate_duration", "steadystate_ramp_time", "sync", "sync_file_range",
	"terse-version", "thinktime", "thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime",
	"thinktime_spin", "trigger", "trim_backlog", "trim_backlog_batch",
	"trim_percentage", "trim_verify_zero", "uid", "unified_rw_reporting", "unique_filename",
	"unit_base", "unlink_each_loop", "verify_async", "verify_state_load", "wait_for",
	"write_barrier", "write_hint", "write_hist_log", "write_iolog", "zero_buffers",
	"zone_reset_frequency", "zone_reset_threshold", "zonecapacity", 
	NULL,
};

/* fio's .alias of options stackbench takes under their other name */
static const char *const fio_aliases[][2] = {
	{ "timeout", "runtime" },
	{ "iodepth_batch_submit", "iodepth_batch" },
};

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
