/* Suite dispatcher and the helpers every suite shares. */
#include "bench/suite.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/output.h"
#include "bench/suites/suites.h"
#include "spec/options.h"
#include "sys/sysfs.h"
#include "util/log.h"
#include "util/names.h"
#include "util/units.h"

/* The one list of suites: their names everywhere (--suite, bench.suites'
 * messages, help, completion) come from here through sb_suite_name(). A
 * new suite is its file under suites/ (its sb_suite_ops) and one row. */
static const struct sb_suite_ops *const suites[] = {
	&sb_suite_bonnie_ops,
	&sb_suite_fio_matrix_ops,
	&sb_suite_dd_ops,
	&sb_suite_smallfile_ops,
	&sb_suite_quick_ops,
	&sb_suite_copy_ops,
};

void sb_suite_phase(struct sb_suite_ctx *c, const char *what)
{
	c->phase++;
	sb_progress_context(SB_PROGRESS_SUITE, "%s phase %u of %u%s%s%s", c->suite, c->phase,
			    c->nphases > c->phase ? c->nphases : c->phase, what ? " (" : "",
			    what ? what : "", what ? ")" : "");
}

#define NSUITES (sizeof(suites) / sizeof(suites[0]))

double sb_suite_timed(const struct sb_bench_spec *b, unsigned phases, double untimed_s)
{
	return b->runtime_ns ? phases * (double)(b->runtime_ns + b->ramp_ns) / 1e9 : untimed_s;
}

const struct sb_suite_ops *sb_suite_at(size_t i)
{
	return i < NSUITES ? suites[i] : NULL;
}

const struct sb_suite_ops *sb_suite_find(const char *name)
{
	for (size_t i = 0; i < NSUITES; i++)
		if (!strcmp(suites[i]->name, name))
			return suites[i];
	return NULL;
}

const char *sb_suite_name(size_t i)
{
	return i < NSUITES ? suites[i]->name : NULL;
}

bool sb_suite_exists(const char *name)
{
	return sb_suite_find(name) != NULL;
}

/* For the spec module: bench.suites' allowed values (spec/options.h). */
const char *sb_spec_suite_at(unsigned i)
{
	return sb_suite_name(i);
}

const char *sb_suite_names(void)
{
	static char names[256];

	return names[0] ? names : sb_names_join(names, sizeof(names), ", ", sb_suite_name);
}

void sb_suite_note(struct sb_suite_ctx *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	size_t i, n;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = json_object_array_length(c->notes);
	for (i = 0; i < n; i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(c->notes, i)), buf))
			return;
	sb_verbose("%s: note: %s", c->suite, buf);
	json_object_array_add(c->notes, json_object_new_string(buf));
}

bool sb_suite_drops_caches(void)
{
	return !getenv("STACKBENCH_NO_DROP_CACHES");
}

void sb_suite_drop_caches(struct sb_suite_ctx *c)
{
	int fd;

	if (!sb_suite_drops_caches()) {
		/* only for side-by-side runs against tools that never drop (bonnie++):
		 * nor sync() between phases, which bonnie++ does not do either */
		sb_suite_note(c, "page cache NOT dropped before reads (STACKBENCH_NO_DROP_CACHES set)");
		return;
	}
	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		sb_suite_note(c, "could not drop the page cache (%s): reads may be served from cache",
			      geteuid() ? "not root" : strerror(errno));
	if (fd >= 0)
		close(fd);
}

static struct json_object *num(double v)
{
	return json_object_new_double(round(v * 1000.0) / 1000.0);
}

void sb_suite_figure(struct sb_suite_ctx *c, const char *name, double value, const char *unit,
		     double cpu_pct, uint64_t latency_ns)
{
	struct json_object *f = json_object_new_object();

	json_object_object_add(f, "value", num(value));
	json_object_object_add(f, "unit", json_object_new_string(unit));
	if (cpu_pct >= 0)
		json_object_object_add(f, "cpu_pct", num(cpu_pct));
	if (latency_ns)
		json_object_object_add(f, "latency_ns", json_object_new_int64((int64_t)latency_ns));
	json_object_object_add(c->figures, name, f);
}

uint64_t sb_suite_size(const struct sb_suite_ctx *c)
{
	return c->sz.size;
}

/* The size this run writes: the default follows this machine's RAM and the
 * free space of the target, and says so when it had to be cut down. */
static int choose_size(struct sb_suite_ctx *c, struct sb_err *err)
{
	struct statvfs v;
	char a[32], b[32];

	if (statvfs(c->target, &v) < 0)
		return sb_err_sys(err, -errno, "statvfs %s", c->target);
	sb_sizing_choose(c->suite, c->b->size, c->ram,
			 sb_sizing_room((uint64_t)v.f_bavail * v.f_frsize), &c->sz);
	if (c->sz.capped) {
		sb_size_format_human(c->sz.wanted, a, sizeof(a));
		sb_size_format_human(c->sz.size, b, sizeof(b));
		sb_suite_note(c, "bench.size automatic: %s (%s) does not fit in the filesystem; "
			      "capped to %s, what fits in %s", c->sz.twice_ram ? "twice RAM" : "the default",
			      a, b, c->target);
	}
	return 0;
}

void sb_suite_job_init(struct sb_suite_ctx *c, struct sb_job_opts *o, const char *name)
{
	sb_job_opts_init(o);
	snprintf(o->name, sizeof(o->name), "sb-%s", name);
	snprintf(o->phase, sizeof(o->phase), "%s %s", c->suite, name);
	snprintf(o->target, sizeof(o->target), "%s", c->target);
	o->runtime_ns = c->b->runtime_ns;
	o->ramp_ns = c->b->runtime_ns ? c->b->ramp_ns : 0;
}

int sb_suite_check_room(struct sb_suite_ctx *c, uint64_t bytes, struct sb_err *err)
{
	struct statvfs v;
	uint64_t avail;
	char a[32], b[32];

	if (statvfs(c->target, &v) < 0)
		return sb_err_sys(err, -errno, "statvfs %s", c->target);
	avail = (uint64_t)v.f_bavail * v.f_frsize;
	if (avail >= bytes + bytes / 50)
		return 0;
	sb_size_format_human(bytes, a, sizeof(a));
	sb_size_format_human(avail, b, sizeof(b));
	return sb_err_set(err, -ENOSPC, "suite %s needs %s in %s, only %s free "
			  "(set a smaller bench.size, e.g. --set bench.size=256MiB)", c->suite, a, c->target, b);
}

struct sb_job_result *sb_suite_begin(struct sb_suite_ctx *c, uint64_t bytes, int *rc, struct sb_err *err)
{
	struct sb_job_result *r;

	if ((*rc = sb_suite_check_room(c, bytes, err)) < 0)
		return NULL;
	r = malloc(sizeof(*r));
	if (!r)
		*rc = sb_err_set(err, -ENOMEM, "out of memory");
	return r;
}

int sb_suite_grid(struct sb_suite_ctx *c, unsigned ni, unsigned nj,
		  int (*cell)(struct sb_suite_ctx *c, unsigned i, unsigned j, uint64_t total,
			      struct sb_job_opts *o, struct sb_job_result *r, struct sb_err *err),
		  struct sb_err *err)
{
	uint64_t total = sb_suite_size(c);
	struct sb_job_opts o = { 0 };
	struct sb_job_result *r;
	int rc = 0;

	if (!(r = sb_suite_begin(c, total, &rc, err)))
		return rc;
	for (unsigned i = 0; i < ni && rc >= 0; i++)
		for (unsigned j = 0; j < nj && rc >= 0; j++)
			rc = cell(c, i, j, total, &o, r, err);
	if (rc < 0 && o.keep_files)
		sb_suite_remove_files(&o);
	free(r);
	return rc;
}

static bool reads(enum sb_rw rw)
{
	return rw != SB_RW_WRITE && rw != SB_RW_RANDWRITE;
}

int sb_suite_job(struct sb_suite_ctx *c, struct sb_job_opts *o, struct sb_job_result *r,
		 struct sb_err *err)
{
	struct sb_iostat io = c->io; /* same devices, this phase's counters */
	struct json_object *j;
	int rc;

	sb_suite_phase(c, NULL);   /* the engine's line names the job */
	if (reads(o->rw))
		sb_suite_drop_caches(c);
	if (!o->direct && o->size * o->numjobs < 2 * c->ram) {
		char a[32], b[32];

		sb_size_format_human(o->size * o->numjobs, a, sizeof(a));
		sb_size_format_human(2 * c->ram, b, sizeof(b));
		sb_suite_note(c, "%s: buffered, %s of files < 2x RAM (%s): possibly cache-served",
			      o->name, a, b);
	}
	sb_iostat_start(&io);
	rc = sb_engine_run(o, r, err);
	sb_iostat_stop(&io);
	if (rc < 0) {
		sb_err_prefix(err, "suite %s, job %s: ", c->suite, o->name);
		return rc;
	}
	j = sb_job_result_json(o, r);
	json_object_object_add(j, "disk_util", sb_iostat_json(&io));
	json_object_array_add(c->jobs, j);
	return 0;
}

/* md resync/recovery on any watched md device or the target's own device. */
static void detect_md_sync(struct sb_suite_ctx *c)
{
	for (unsigned i = 0; i < c->io.n; i++) {
		char path[256], buf[64] = "";

		snprintf(path, sizeof(path), "%s/md/sync_action", c->io.dev[i].sysdir);
		if (sb_sysfs_read_str(path, buf, sizeof(buf), NULL))
			continue;
		if (buf[0] && strcmp(buf, "idle"))
			sb_suite_note(c, "md %s: %s running during the benchmark (sync_action=%s): "
				      "figures are lowered by it", c->io.dev[i].name, buf, buf);
	}
}

/* ext4 lazy inode-table init writes in the background after mkfs. */
static void detect_lazyinit(struct sb_suite_ctx *c)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[300], comm[64] = "";
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "ext4lazyinit", 12))
			sb_suite_note(c, "ext4 lazy init running (an ext4lazyinit kernel thread exists; it "
				      "may belong to another ext4 on this machine): its background writes "
				      "can lower the figures");
		fclose(f);
	}
	closedir(d);
}

/* What a run that failed had collected. */
static void ctx_put(struct sb_suite_ctx *c)
{
	json_object_put(c->notes);
	json_object_put(c->figures);
	json_object_put(c->jobs);
	json_object_put(c->params);
}

int sb_suite_run(const char *suite, const struct sb_bench_spec *b, const char *target_dir,
		 const char *const *watch_devs, unsigned nwatch, unsigned repetition,
		 struct json_object **out, struct sb_err *err)
{
	struct sb_suite_ctx c = { .suite = suite, .b = b, .target = target_dir,
				  .watch = watch_devs, .nwatch = nwatch };
	struct json_object *o;
	struct sysinfo si;
	struct stat st;
	const struct sb_suite_ops *ops = sb_suite_find(suite);
	int rc;

	*out = NULL;
	if (!ops)
		return sb_err_set(err, -EINVAL, "unknown suite '%s' (known: %s)", suite, sb_suite_names());
	if (stat(target_dir, &st) < 0)
		return sb_err_sys(err, -errno, "target %s", target_dir);
	if (!S_ISDIR(st.st_mode))
		return sb_err_set(err, -EINVAL, "suite %s: target %s is not a directory "
				  "(suites run on a mounted filesystem)", suite, target_dir);
	if (sysinfo(&si) < 0)
		return sb_err_sys(err, -errno, "sysinfo");
	c.ram = b->ram ? b->ram : (uint64_t)si.totalram * si.mem_unit;
	if (sb_iostat_add(&c.io, target_dir, NULL) < 0)
		sb_debug("%s: no block device behind it; no device statistics for it", target_dir);
	for (unsigned k = 0; k < nwatch; k++)
		if ((rc = sb_iostat_add(&c.io, watch_devs[k], err)) < 0)
			return rc;
	c.notes = json_object_new_array();
	c.figures = json_object_new_object();
	c.jobs = json_object_new_array();
	c.params = json_object_new_object();
	if ((rc = choose_size(&c, err)) < 0) {
		ctx_put(&c);
		return rc;
	}
	detect_md_sync(&c);
	detect_lazyinit(&c);
	sb_iostat_start(&c.io);
	c.nphases = ops->phases;
	rc = ops->run(&c, err);
	sb_iostat_stop(&c.io);
	sb_progress_done();
	sb_progress_context(SB_PROGRESS_SUITE, NULL);
	if (rc < 0) {
		ctx_put(&c);
		return rc;
	}
	/* state at the end too: a resync that started mid-run counts */
	detect_md_sync(&c);
	detect_lazyinit(&c);
	o = json_object_new_object();
	json_object_object_add(o, "suite", json_object_new_string(suite));
	json_object_object_add(o, "repetition", json_object_new_int((int)repetition));
	json_object_object_add(o, "target", json_object_new_string(target_dir));
	json_object_object_foreach(c.params, pk, pv)
		json_object_object_add(o, pk, json_object_get(pv));
	json_object_put(c.params);
	json_object_object_add(o, "notes", c.notes);
	json_object_object_add(o, "figures", c.figures);
	json_object_object_add(o, "jobs", c.jobs);
	json_object_object_add(o, "disk_util", sb_iostat_json(&c.io));
	*out = o;
	return 0;
}

void sb_suite_remove_files(const struct sb_job_opts *o)
{
	char path[600];

	for (unsigned i = 0; i < o->numjobs; i++) {
		sb_engine_job_file(o, i, path, sizeof(path));
		unlink(path);
	}
}
