/* `stackbench job` arguments and job files, spelled as fio spells them.
 *
 * Options are data: one row per option (name, alias, type, field, range,
 * default, help), as fio's options.c. The table drives the command line
 * (--opt=value and --opt value), job files ([global] and job sections) and
 * `stackbench help job`. The generic spec machinery (src/spec/options.c) is
 * not reused: its parser is bound to YAML nodes with line:col and to YAML's
 * true/false, while fio's values are 0/1 bools that may stand alone, times
 * whose bare number is seconds, aliases and command-line-only options. */
#include "bench/jobargs.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/fileset.h"
#include "bench/ioengine.h"
#include "bench/jobfio.h"
#include "bench/jobopt.h"
#include "bench/iolog.h"
#include "bench/lattarget.h"
#include "bench/offload.h"
#include "bench/jobverify.h"
#include "util/units.h"

static const struct jopt jopts_core[] = {
	{ "name", NULL, JT_STR, F(name), 0, 0, "job", "job name; on the command line it starts a new job, as in fio", NULL },
	{ "description", NULL, JT_STR, F(description), 0, 0, NULL, "text describing the job (fio's)", NULL },
	{ "filename", NULL, JT_FILES, F(target), 0, 0, NULL, "file or block device (a missing file is created)", NULL },
	{ "target", NULL, JT_STR, F(target), 0, 0, NULL, "stackbench: block device, file or directory; must exist", NULL },
	{ "directory", NULL, JT_FILES, F(directory), 0, 0, NULL, "directory: one file NAME.N.0 per job thread", NULL },
	{ "rw", "readwrite", JT_RW, F(rw), 0, 0, "read", "read, write, randread, randwrite, rw (readwrite), randrw", NULL },
	{ "rwmixread", NULL, JT_U32, F(rwmixread), 0, 100, "50", "% reads of rw/randrw", NULL },
	{ "rwmixwrite", NULL, JT_MIXW, F(rwmixread), 0, 100, "50", "% writes of rw/randrw", NULL },
	{ "size", NULL, JT_SIZE, F(size), 1, 0, NULL, "bytes per job thread (default: device / numjobs, 1 GiB file)", NULL },
	{ "iodepth", NULL, JT_U32, F(iodepth), 1, 4096, "1", "ios in flight per job thread", NULL },
	{ "iodepth_batch", "iodepth-batch", JT_U32, F(iodepth_batch), 0, 4096, "1", "most ios per io_submit (fio's iodepth_batch_submit; 0 = iodepth)", NULL },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", JT_U32, F(batch_cmin), 0, 4096, "1",
	  "fewest completions to wait for when the queue is full", NULL },
	{ "iodepth_batch_complete_max", NULL, JT_U32, F(batch_cmax), 0, 4096, NULL,
	  "most completions reaped at once (default: the min)", NULL },
	{ "numjobs", "numjob", JT_U32, F(numjobs), 1, SB_JOB_MAX_THREADS, "1", "job threads", NULL },
	{ "ioengine", NULL, JT_ENGINE, F(ioengine), 0, 0, "psync", "psync, sync, vsync, pvsync, pvsync2, libaio, posixaio, io_uring, null, ftruncate, cpuio, exec, filecreate, filestat, filedelete, falloc, net or e4defrag", NULL },
	{ "iomem", "mem", JT_IOMEM, F(huge_buffers), 0, 0, "malloc",
	  "I/O buffers: malloc, mmap, shm (pages) or mmaphuge, shmhuge (transparent huge pages)", NULL },
	{ "direct", NULL, JT_BOOL, F(direct), 0, 0, "0", "O_DIRECT", NULL },
	{ "buffered", NULL, JT_NBOOL, F(direct), 0, 0, "1", "through the page cache (direct=0)", NULL },
	{ "invalidate", NULL, JT_BOOL, F(invalidate), 0, 0, "1", "drop the file's cached pages when it is opened", NULL },
	{ "norandommap", NULL, JT_NBOOL, F(randommap), 0, 0, "0",
	  "random offsets may repeat (default: every block once per pass)", NULL },
	{ "filesize", NULL, JT_SIZE, F(filesize), 1, 0, NULL, "the job's file is this long (size: at most this)", NULL },
	{ "offset", "fileoffset", JT_SIZE, F(offset), 0, 0, "0", "the job's region starts here in its file", NULL },
	{ "offset_increment", NULL, JT_SIZE, F(offset_increment), 0, 0, "0", "thread N starts at offset + N x this", NULL },
	{ "loops", "loop", JT_U32, F(loops), 1, UINT32_MAX, "1", "run the job this many times (the page cache dropped before each, as fio)", NULL },
	{ "thread", "threads", JT_BOOL, F(thread), 0, 0, "0", "job threads as threads (stackbench's always are; fio's default: processes)", NULL },
	{ "unlink", NULL, JT_NBOOL, F(keep_files), 0, 0, "0", "remove the job's files when it is done", NULL },
	{ "randrepeat", NULL, JT_BOOL, F(randrepeat), 0, 0, "1", "same random offsets every run", NULL },
	{ "time_based", NULL, JT_BOOL, F(time_based), 0, 0, "0", "run for runtime, wrapping around size", NULL },
	{ "runtime", NULL, JT_DUR, F(runtime_ns), 0, 0, NULL, "stop after this long (bare number: seconds)", NULL },
	{ "ramp_time", "ramp", JT_DUR, F(ramp_ns), 0, 0, NULL, "run this long before measuring", NULL },
	{ "group_reporting", NULL, JT_BOOL, F(group_reporting), 0, 0, "0", "report a job's threads as one", NULL },
	{ "stonewall", "wait_for_previous", JT_BOOL, F(stonewall), 0, 0, "0", "start after the jobs before it (a new group)", NULL },
	{ "end_fsync", NULL, JT_BOOL, F(end_fsync), 0, 0, "0", "fsync when the writes are done", NULL },
	{ "fsync", NULL, JT_U32, F(fsync_every), 0, UINT32_MAX, "0", "fsync after every N writes", NULL },
	{ "write_bw_log", NULL, JT_STR, F(log_bw), 0, 0, NULL, "bandwidth log PREFIX_bw.N.log", NULL },
	{ "write_iops_log", NULL, JT_STR, F(log_iops), 0, 0, NULL, "IOPS log PREFIX_iops.N.log", NULL },
	{ "write_lat_log", NULL, JT_STR, F(log_lat), 0, 0, NULL, "latency logs PREFIX_{slat,clat,lat}.N.log", NULL },
	{ "log_avg_msec", NULL, JT_U32, F(log_avg_msec), 0, 86400000, "0", "average log entries over this many ms", NULL },
	{ "verify", NULL, JT_BOOL, F(verify), 0, 0, "0", "fio's md5, crc32c, meta, ... (fio's header); 1 or alone: stackbench's own (write then read back and check, or check only)", NULL },
	{ "verify-seed", NULL, JT_U64, F(verify_seed), 0, 0, NULL, "stackbench: verify generation", NULL },
	{ "keep-files", NULL, JT_BOOL, F(keep_files), 0, 0, "1", "stackbench: leave the job's files (unlink=0)", NULL },
	{ "output-format", NULL, JT_FMT, NOF, 0, 0, "normal", "normal (or text), json, json+", NULL },
	{ "output", NULL, JT_OUT, NOF, 0, 0, NULL, "write the report to FILE", NULL },
	{ "watch", NULL, JT_WATCH, NOF, 0, 0, NULL, "stackbench: also report this device's statistics", NULL },
	{ NULL },
};

/* Every table of options; a family's file adds its table here. */
static const struct jopt *const jopt_tables[] = {
	jopts_core,
	jopts_output,
	sb_jopts_verify,
	sb_jobbs_opts,
	sb_jopts_cpuio,
	sb_jopts_exec,
	sb_jopts_net,
	sb_jopts_e4defrag,
	jopts_rate,
	jopts_ctl,
	jopts_files,
	sb_jopts_layout,
	jopts_cmdprio,
	jopts_err,
	jopts_numa,
	jopts_submit,
	jopts_iolog,
	jopts_lat,
};

static const struct jopt *find_opt(const char *name, size_t n)
{
	const struct jopt *o;
	const char *fio = sb_jobfio_alias(name, n);
	size_t t;

	if (fio)
		return find_opt(fio, strlen(fio));
	for (t = 0; t < sizeof(jopt_tables) / sizeof(jopt_tables[0]); t++)
		for (o = jopt_tables[t]; o->name; o++)
			if ((strlen(o->name) == n && !strncmp(o->name, name, n)) ||
			    (o->alias && strlen(o->alias) == n && !strncmp(o->alias, name, n)))
				return o;
	return NULL;
}

static bool takes_value_alone(enum jt t)
{
	return t == JT_BOOL || t == JT_NBOOL;
}

static int parse_uint(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	/* as fio's str_to_decimal: hex with 0x, else decimal ("010" is ten) */
	*v = strtoull(s, &end, strstr(s, "0x") || strstr(s, "0X") ? 16 : 10);
	return errno || *end ? -EINVAL : 0;
}

/* One value into a job (or, for command-line-only options, the cli). */

/* fio's iomem: malloc, mmap, shm (plain pages), mmaphuge[:FILE] or shmhuge.
 * fio's huge kinds use hugetlbfs (mmaphuge maps FILE on it); we ask for
 * transparent huge pages instead, which need no reservation. */
static int parse_iomem(struct sb_job_opts *j, const char *v, struct sb_err *err)
{
	static const char *const plain[] = { "malloc", "mmap", "shm" };
	size_t n = strcspn(v, ":"), i;

	if (v[n] == ':' && (n != 8 || strncmp(v, "mmaphuge", 8) || !v[n + 1]))
		return sb_err_set(err, -EINVAL, "--iomem=%s: only mmaphuge takes a :FILE", v);
	for (i = 0; i < 3; i++)
		if (!strcmp(v, plain[i])) {
			j->huge_buffers = false;
			return 0;
		}
	if (!strcmp(v, "shmhuge") || (n == 8 && !strncmp(v, "mmaphuge", 8))) {
		j->huge_buffers = true;
		return 0;
	}
	return sb_err_set(err, -EINVAL, "not supported by stackbench job: --iomem=%s "
			  "(malloc, mmap, shm, mmaphuge or shmhuge)", v);
}

/* fio's rw= values that trim (options.c "rw" .posval) */
static bool fio_trim(const char *v)
{
	return !strcmp(v, "trim") || !strcmp(v, "randtrim") || !strcmp(v, "trimwrite") ||
	       !strcmp(v, "randtrimwrite");
}

static int set_size(const struct jopt *o, const char *v, void *field, struct sb_err *err)
{
	struct sb_err e = { 0 };
	uint64_t u;

	if (!strcmp(o->name, "filesize") && strchr(v, '-'))
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --filesize=%s (a range)", v);
	if (*v && v[strlen(v) - 1] == '%')
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --%s=%s (a percentage)",
				  o->name, v);
	if (sb_jobfio_size(v, &u, &e) < 0)
		return sb_err_set(err, -EINVAL, "--%s: %s", o->name, e.msg);
	if (u < o->min || (o->max && u > o->max)) {
		char lo[32], hi[32];

		sb_size_format(o->min, lo, sizeof(lo));
		if (!o->max)
			return sb_err_set(err, -EINVAL, "--%s: %s is out of range; at least %s", o->name, v, lo);
		sb_size_format(o->max, hi, sizeof(hi));
		return sb_err_set(err, -EINVAL, "--%s: %s is out of range; allowed %s to %s",
				  o->name, v, lo, hi);
	}
	*(uint64_t *)field = u;
	return 0;
}

static int set_engine(const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	const struct sb_ioengine_ops *e = sb_ioengine_find(v);

	if (!e)
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --ioengine=%s (%s)", v,
				  sb_ioengine_list());
	j->ioengine = e->id;
	return 0;
}

static int set_fmt(const char *v, struct sb_job_cli *cli, struct sb_err *err)
{
	if (!strcmp(v, "normal") || !strcmp(v, "text"))
		cli->fmt = SB_OUT_TEXT;
	else if (!strcmp(v, "json"))
		cli->fmt = SB_OUT_JSON;
	else if (!strcmp(v, "json+"))
		cli->fmt = SB_OUT_JSONPLUS;
	else
		return sb_err_set(err, -EINVAL, "--output-format: '%s' is not normal, json or json+"
				  "%s", v, strcmp(v, "terse") ? "" : " (terse is not supported by stackbench job)");
	return 0;
}

static int set_value(const struct jopt *o, const char *v, struct sb_job_opts *j,
		     struct sb_job_cli *cli, struct sb_err *err)
{
	void *field = (char *)j + o->off;
	uint64_t u;
	int rc;
	struct sb_err e = { 0 };

	switch (o->type) {
	case JT_STR:
		if (!*v || strlen(v) >= o->size)
			return sb_err_set(err, -EINVAL, "--%s: '%s' must be 1..%zu characters", o->name, v, o->size - 1);
		if (!strcmp(o->name, "name") && strchr(v, '/'))
			return sb_err_set(err, -EINVAL, "--name: '%s' must not contain '/'", v);
		snprintf(field, o->size, "%s", v);
		return 0;
	case JT_FILES:
		/* several names: the file engines' set (bench/fileset.c) */
		if (!strcmp(o->name, "filename") && (rc = sb_fileset_list(v, j, err)) != 0)
			return rc < 0 ? rc : 0;
		return sb_jobfio_one_name(o->name, v, field, o->size, err);
	case JT_RW: {
		char mode[16];

		snprintf(mode, sizeof(mode), "%.*s", (int)strcspn(v, ":"), v);
		if (fio_trim(mode))
			return sb_err_set(err, -EINVAL, "not supported by stackbench job: --%s=%s (fio's "
					  "trims)", o->name, v);
		return sb_jobbs_rw(o->name, v, j, err);
	}
	case JT_SIZE:
		return set_size(o, v, field, err);
	case JT_U32:
	case JT_MIXW:
		if (parse_uint(v, &u) < 0 || u < o->min || u > o->max)
			return sb_err_set(err, -EINVAL, "--%s: '%s' is not a whole number in %llu..%llu",
					  o->name, v, (unsigned long long)o->min, (unsigned long long)o->max);
		*(uint32_t *)field = o->type == JT_MIXW ? (uint32_t)(100 - u) : (uint32_t)u;
		return 0;
	case JT_BOOL:
	case JT_NBOOL:
		if (!strcmp(o->name, "verify"))
			return sb_jobverify_set(v, j, err);
		if (strcmp(v, "0") && strcmp(v, "1"))
			return sb_err_set(err, -EINVAL, "--%s: '%s' is not 0 or 1", o->name, v);
		*(bool *)field = (v[0] == '1') != (o->type == JT_NBOOL);
		return 0;
	case JT_DUR:
		if (sb_jobfio_duration(v, &u, &e) < 0)
			return sb_err_set(err, -EINVAL, "--%s: %s", o->name, e.msg);
		*(uint64_t *)field = u;
		return 0;
	case JT_U64:
		if (parse_uint(v, &u) < 0)
			return sb_err_set(err, -EINVAL, "--%s: '%s' is not a number", o->name, v);
		*(uint64_t *)field = u;
		if (!strcmp(o->name, "verify-seed"))
			j->verify_seed_set = true;
		return 0;
	case JT_ENGINE:
		return set_engine(v, j, err);
	case JT_CB:
		return o->cb(o, v, j, err);
	case JT_IOMEM:
		return parse_iomem(j, v, err);
	case JT_FMT:
		return set_fmt(v, cli, err);
	case JT_OUT:
		if (!*v || strlen(v) >= sizeof(cli->output))
			return sb_err_set(err, -EINVAL, "--output: bad file name '%s'", v);
		snprintf(cli->output, sizeof(cli->output), "%s", v);
		return 0;
	case JT_WATCH:
		if (cli->nwatch >= SB_JOB_MAX_WATCH)
			return sb_err_set(err, -EINVAL, "--watch: at most %d devices", SB_JOB_MAX_WATCH);
		cli->watch[cli->nwatch++] = strdup(v);
		return cli->watch[cli->nwatch - 1] ? 0 : sb_err_set(err, -ENOMEM, "out of memory");
	}
	return -EINVAL;
}

static int add_job(struct sb_job_cli *c, const struct sb_job_opts *from, struct sb_err *err)
{
	struct sb_job_opts *n;

	if (c->njobs >= SB_JOB_MAX_JOBS)
		return sb_err_set(err, -EINVAL, "more than %d jobs (fio's limit)", SB_JOB_MAX_JOBS);
	if (c->njobs == c->cap) {
		n = realloc(c->jobs, (c->cap ? 2 * c->cap : 4) * sizeof(*n));
		if (!n)
			return sb_err_set(err, -ENOMEM, "out of memory");
		c->jobs = n;
		c->cap = c->cap ? 2 * c->cap : 4;
	}
	c->jobs[c->njobs++] = *from;
	return 0;
}

/* fio: "name" starts a job that inherits the global options; "global" (a
 * job file's [global], or --name=global) edits those instead. */
int sb_job_cli_section(struct sb_job_cli *c, const char *name, struct sb_job_opts **out,
		       struct sb_err *err)
{
	int rc;

	if (!strcmp(name, "global")) {
		*out = &c->global;
		return 0;
	}
	if ((rc = add_job(c, &c->global, err)) < 0)
		return rc;
	*out = &c->jobs[c->njobs - 1];
	(*out)->name[0] = '\0';
	(*out)->given[0] = '\0';
	snprintf((*out)->section, sizeof((*out)->section), "%s", name);
	return 0;
}

/* fio's "job options" / "global options": each option as written, under
 * its own name, the last value winning; a bare flag (v NULL) is kept as
 * "name" without '=': fio's dict then exists but does not list it. */
static int remember(struct sb_job_opts *j, const char *name, const char *v, struct sb_err *err)
{
	size_t len = strlen(j->given), n = strlen(name);
	char *p = j->given, *e;

	while ((p = strstr(p, name))) {
		if ((p == j->given || p[-1] == '\n') && (p[n] == '=' || p[n] == '\n') && (e = strchr(p, '\n'))) {
			memmove(p, e + 1, strlen(e + 1) + 1);
			len = strlen(j->given);
			continue;
		}
		p += n;
	}
	if (len + n + (v ? strlen(v) : 0) + 2 >= sizeof(j->given))
		return sb_err_set(err, -EINVAL, "--%s: the job's options are longer than %zu characters",
				  name, sizeof(j->given) - 1);
	snprintf(j->given + len, sizeof(j->given) - len, "%s%s%s\n", name, v ? "=" : "", v ? v : "");
	return 0;
}

static int unknown(const char *name, size_t n, bool file, struct sb_err *err)
{
	if (sb_jobfio_known(name, n))
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: %s%.*s",
				  file ? "" : "--", (int)n, name);
	return sb_err_set(err, -EINVAL, "unknown option '%s%.*s'; see `stackbench help job`",
			  file ? "" : "--", (int)n, name);
}

/* A job file's size that fio 3.33 reads otherwise than stackbench's command
 * line (parse.c __get_mult_bytes, kb_base=1024): "4KiB" is 4000 bytes to
 * fio (the IEC units inverted "for old scripts"), and "1.5m" is 1 byte (the
 * number ends at the '.'). Refused, never read with another meaning. */
static int fio_size_form(const struct jopt *o, const char *v, struct sb_err *err)
{
	size_t n = strspn(v, "0123456789");
	const char *u = v + n;

	/* the block-size family's rows parse sizes in their callbacks (jobbs.c) */
	bool sizes = o->type == JT_SIZE || (o->type == JT_CB && (!strcmp(o->name, "bs") ||
			!strcmp(o->name, "bsrange") || !strcmp(o->name, "blockalign")));

	if (!sizes || !n)
		return 0;
	if (*u == '.')
		return sb_err_set(err, -EINVAL, "%s=%s: fio reads the number up to the '.' (%.*s "
				  "bytes); write a whole number with k, m, g", o->name, v, (int)n, v);
	if (strlen(u) >= 3 && strchr("kmgtpKMGTP", u[0]) && (u[1] == 'i' || u[1] == 'I') &&
	    (u[2] == 'b' || u[2] == 'B'))
		return sb_err_set(err, -EINVAL, "%s=%s: fio 3.33 reads %c%c%c as powers of 1000 "
				  "(kb_base=1024 inverts them); write %.*s%c for powers of 1024", o->name,
				  v, u[0], u[1], u[2], (int)n, v, u[0] | 0x20);
	return 0;
}

/* write_bw_log, write_iops_log, write_lat_log: their log_jobname bit */
static unsigned log_bit(const struct jopt *o)
{
	if (o->type != JT_STR)
		return 0;
	return !strcmp(o->name, "write_bw_log") ? 1 : !strcmp(o->name, "write_iops_log") ? 2 :
	       !strcmp(o->name, "write_lat_log") ? 4 : 0;
}

/* One option with its value (NULL when none was written). In a job file,
 * name= names the section's job (as fio); on the command line it starts one. */
static int apply(struct sb_job_cli *c, struct sb_job_opts **cur, const struct jopt *o,
		 const char *key, size_t klen, const char *v, bool file, struct sb_err *err)
{
	bool cli_only = o->type == JT_FMT || o->type == JT_OUT || o->type == JT_WATCH;
	bool bare = !v;
	unsigned lb;
	int rc;

	if ((lb = log_bit(o)) && (!v || !*v)) {
		/* fio: a log without a name is named after the job (make_log_name) */
		(*cur)->log_jobname |= lb;
		*((char *)*cur + o->off) = '\0';
		return remember(*cur, o->name, NULL, err);
	}
	if (lb)
		(*cur)->log_jobname &= ~lb;
	if (!v && takes_value_alone(o->type))
		v = "1";
	if (!v)
		return sb_err_set(err, -EINVAL, "--%s needs a value", o->name);
	if (file && cli_only)
		return sb_err_set(err, -EINVAL, "%s is a command-line option, not one of a job file", o->name);
	if (file && (rc = fio_size_form(o, v, err)) < 0)
		return rc;
	if (!file && !strcmp(o->name, "name")) {
		if ((rc = sb_job_cli_section(c, v, cur, err)) < 0)
			return rc;
		if (*cur == &c->global)
			return 0;
	}
	if ((rc = set_value(o, v, *cur, c, err)) < 0 || cli_only)
		return rc;
	if (!strcmp(o->name, "filename"))
		(*cur)->create = true;
	if (!strcmp(o->name, "target"))
		(*cur)->create = false;
	/* under the name as written (fio's dict says "threads" for threads=1) */
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)(klen < sizeof(name) ? klen : sizeof(name) - 1), key);
	if (jopt_output_row(o))
		snprintf(name, sizeof(name), "%s", o->name);
	return remember(*cur, sb_jobfio_dict_name(name), bare ? NULL : v, err);
}

int sb_job_cli_option(struct sb_job_cli *c, struct sb_job_opts **cur, const char *key,
		      const char *v, bool file, struct sb_err *err)
{
	const struct jopt *o = find_opt(key, strlen(key));

	return o ? apply(c, cur, o, key, strlen(key), v, file, err) : unknown(key, strlen(key), file, err);
}

/* A command-line value: "--opt=value", or the next word unless that is
 * another option; a bool takes the next word only when it is 0 or 1. */
static int parse_argv(struct sb_job_cli *c, int argc, char **argv, struct sb_err *err)
{
	struct sb_job_opts *cur = &c->global;
	int i, rc;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL, *eq;
		const struct jopt *o;
		size_t n;

		if (strncmp(a, "--", 2) || !a[2]) {
			if ((rc = sb_job_cli_file(c, a, err)) < 0)
				return rc;
			cur = &c->global;
			continue;
		}
		a += 2;
		eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		if (!(o = find_opt(a, n)))
			return unknown(a, n, false, err);
		if (eq) {
			v = eq + 1;
		} else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) {
			if (!takes_value_alone(o->type) || !strcmp(argv[i + 1], "0") || !strcmp(argv[i + 1], "1") ||
			    (!strcmp(o->name, "verify") && sb_jobverify_is_type(argv[i + 1])))
				v = argv[++i];
		}
		if ((rc = apply(c, &cur, o, a, n, v, false, err)) < 0)
			return rc;
	}
	return 0;
}

/* What fio derives once all options are in: the target from directory and
 * filename, the runtime's meaning, the group of each job. */
static int finish_job(struct sb_job_opts *j, unsigned idx, struct sb_err *err)
{
	const struct sb_ioengine_ops *e = sb_ioengine_get(j->ioengine);
	int rc;

	if (!j->name[0])
		snprintf(j->name, sizeof(j->name), "job%u", idx);
	if (j->log_jobname & 1)
		snprintf(j->log_bw, sizeof(j->log_bw), "%s", j->name);
	if (j->log_jobname & 2)
		snprintf(j->log_iops, sizeof(j->log_iops), "%s", j->name);
	if (j->log_jobname & 4)
		snprintf(j->log_lat, sizeof(j->log_lat), "%s", j->name);
	if (j->directory[0]) {
		char t[sizeof(j->target)];

		if (!j->target[0])
			snprintf(j->target, sizeof(j->target), "%s", j->directory);
		else if (j->target[0] != '/') {
			if ((size_t)snprintf(t, sizeof(t), "%s/%s", j->directory, j->target) >= sizeof(t))
				return sb_err_set(err, -EINVAL, "--directory + --filename: path too long");
			memcpy(j->target, t, sizeof(t));
		}
	}
	/* fio's file set (bench/fileset.c): the size over its files */
	if ((rc = sb_fileset_finish(j, err)) < 0)
		return rc;
	/* fio's filesize: the job's size is that of its file (capped, as fio's) */
	if (j->files.nrfiles > 1 || (e->flags & SB_IOF_NOSTATS))
		; /* set by sb_fileset_finish */
	else if (j->filesize && j->size && j->size < j->filesize)
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: --filesize larger than "
				  "--size (job %s)", j->name);
	else if (j->filesize)
		j->size = j->filesize;
	/* as fio: files NAME.N.0 in the current directory, of a size given */
	if ((!j->target[0] || j->directory[0]) && !j->size && !(e->flags & SB_IOF_NOFILE))
		return sb_err_set(err, -EINVAL, "job %s: you need to specify size= (as fio, for its "
				  "files NAME.N.0)", j->name[0] ? j->name : "job");
	if (!j->target[0])
		snprintf(j->target, sizeof(j->target), ".");
	if ((rc = sb_offload_check(j, err)) < 0 || (rc = sb_iolog_check(j, err)) < 0)
		return rc;
	if (e->flags & SB_IOF_SYNC)
		j->iodepth = 1; /* synchronous engines have one io in flight, as fio */
	if ((rc = sb_jobbs_finish(j, err)) < 0)
		return rc;
	if (e->check && (rc = e->check(j, err)) < 0)
		return rc;
	j->runtime_limit = j->runtime_ns && !j->time_based;
	if (j->time_based && !j->runtime_ns)
		return sb_err_set(err, -EINVAL, "job %s: --time_based needs --runtime", j->name);
	if ((rc = sb_jobverify_finish(j, err)) < 0)
		return rc;
	return sb_job_opts_check(j, err);
}

void sb_job_cli_init(struct sb_job_cli *c)
{
	memset(c, 0, sizeof(*c));
	sb_job_opts_init(&c->global);
	c->global.randrepeat = true; /* fio's default */
	c->global.name[0] = '\0';
	c->fmt = SB_OUT_TEXT;
}

int sb_job_cli_parse(int argc, char **argv, struct sb_job_cli *c, struct sb_err *err)
{
	int rc;

	sb_job_cli_init(c);
	if ((rc = parse_argv(c, argc, argv, err)) < 0 || (rc = sb_job_cli_finish(c, err)) < 0)
		sb_job_cli_free(c);   /* nothing for the caller to free after an error */
	return rc;
}

int sb_job_cli_finish(struct sb_job_cli *c, struct sb_err *err)
{
	unsigned i, threads = 0;
	int rc;

	/* no job at all: the global options are the one job, named "job" */
	if (!c->njobs) {
		if ((rc = add_job(c, &c->global, err)) < 0)
			return rc;
		if (!c->jobs[0].name[0])
			snprintf(c->jobs[0].name, sizeof(c->jobs[0].name), "job");
		/* (fio wants a --name; stackbench's spelling does without) the
		 * options are then the job's own, not global ones */
		c->global.given[0] = '\0';
	}
	for (i = 0; i < c->njobs; i++) {
		if ((rc = finish_job(&c->jobs[i], i, err)) < 0)
			return rc;
		/* fio numbers its threads across jobs: the logs' .N. */
		c->jobs[i].log_base = threads;
		threads += c->jobs[i].numjobs;
		if (threads > SB_JOB_MAX_JOBS)
			return sb_err_set(err, -EINVAL, "more than %d job threads (fio's limit on jobs)",
					  SB_JOB_MAX_JOBS);
		c->jobs[i].per_thread = !c->jobs[i].group_reporting;
		/* as fio; a verify job needs each thread's blocks to itself */
		c->jobs[i].shared_region = !c->jobs[i].verify;
	}
	return sb_jobctl_finish(c->jobs, c->njobs, err);
}

void sb_job_cli_free(struct sb_job_cli *c)
{
	unsigned i;

	for (i = 0; i < c->nwatch; i++)
		free((char *)c->watch[i]);
	free(c->jobs);
	c->jobs = NULL;
	c->njobs = c->cap = c->nwatch = 0;
}

void sb_job_cli_help(FILE *f)
{
	const struct jopt *o;
	char name[64];
	size_t t;

	for (t = 0; t < sizeof(jopt_tables) / sizeof(jopt_tables[0]); t++)
		for (o = jopt_tables[t]; o->name; o++) {
			snprintf(name, sizeof(name), "--%s%s%s", o->name, o->alias ? " --" : "",
				 o->alias ? o->alias : "");
			fprintf(f, "  %-30s %s%s%s%s\n", name, o->help, o->def ? " (default " : "",
				o->def ? o->def : "", o->def ? ")" : "");
		}
}
