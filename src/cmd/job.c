/* stackbench job: I/O jobs, like fio - its command line, job files and
 * output. Jobs of one stonewall group run at the same time, groups one
 * after the other, as in fio. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "bench/engine.h"
#include "bench/ioengine.h"
#include "bench/iostat.h"
#include "bench/job.h"
#include "bench/jobargs.h"
#include "bench/output.h"
#include "bench/rate.h"
#include "util/clock.h"
#include "cmd/cmd.h"
#include "sys/safety.h"

struct sched;

struct run {
	const struct sb_job_opts *o;
	struct sb_job_result *r;
	struct sb_err err;
	int rc;
	pthread_t tid;
	struct sched *s;
	_Atomic int state;            /* 0 not started, 1 running, 2 done */
	_Atomic int term;             /* fio's td->terminate */
	_Atomic int arrived;          /* at its wave's start gate */
};

/* fio's run_threads: what every job's start and end looks at */
struct sched {
	struct run *runs;
	unsigned n;
	uint64_t genesis;
	bool exitall;                 /* fio's exitall_on_terminate: any job gave exitall */
	struct sb_wave_gate *gates;   /* one per wave */
};

/* fio's fio_terminate_threads(groupid, exit_what) for the job x that ended */
static void terminate_others(struct sched *s, const struct run *x)
{
	unsigned k;

	for (k = 0; k < s->n; k++) {
		struct run *y = &s->runs[k];

		if (y == x)
			continue;
		if ((x->o->exit_what == 0 && y->o->groupid == x->o->groupid) ||
		    (x->o->exit_what == 1 && atomic_load(&y->state) == 1) || x->o->exit_what == 2)
			atomic_store(&y->term, 1);
	}
}

/* a job thread ended (bench/rate.c sb_pace_end): fio's exitall */
static void thread_exit(void *arg, int rc)
{
	struct run *x = arg;

	if (x->s->exitall || (x->o->exitall_on_error && rc < 0))
		terminate_others(x->s, x);
}

/* fio's waitee_running: the job named by wait_for has not exited */
static bool waitee_running(struct run *x)
{
	unsigned k;

	for (k = 0; k < x->s->n; k++)
		if (!strcmp(x->s->runs[k].o->name, x->o->wait_for))
			return atomic_load(&x->s->runs[k].state) < 2;
	return false;
}

static void *run_one(void *arg)
{
	struct run *x = arg;
	struct sched *s = x->s;
	const struct timespec tick = { 0, 10000000 };

	/* fio: startdelay counts from its start (genesis), wait_for until the
	 * waitee has exited; a job terminated before it started never runs */
	while (!atomic_load(&x->term) && sb_clock_ns() < s->genesis + x->o->startdelay_ns)
		nanosleep(&tick, NULL);
	while (!atomic_load(&x->term) && x->o->wait_for[0] && waitee_running(x))
		nanosleep(&tick, NULL);
	if (!atomic_load(&x->term)) {
		atomic_store(&x->state, 1);
		x->rc = sb_engine_run(x->o, x->r, &x->err);
	}
	sb_wave_arrive(x->o); /* a job that failed before its start gate, or never started */
	atomic_store(&x->state, 2);
	if (s->exitall || (x->o->exitall_on_error && x->rc < 0))
		terminate_others(s, x);
	return NULL;
}

/* Jobs [first, end) at once; the first error wins. */
static int run_group(struct run *runs, unsigned first, unsigned end, struct sb_err *err)
{
	unsigned i;
	int rc = 0;

	if (end - first == 1) {
		run_one(&runs[first]);
	} else {
		for (i = first; i < end; i++)
			if ((rc = -pthread_create(&runs[i].tid, NULL, run_one, &runs[i])) < 0) {
				sb_err_sys(err, rc, "starting job %s", runs[i].o->name);
				for (unsigned k = i; k < end; k++)
					sb_wave_leave(runs[k].o); /* the started ones do not wait for it */
				end = i;
				break;
			}
		for (i = first; i < end; i++)
			pthread_join(runs[i].tid, NULL);
	}
	for (i = first; i < end; i++)
		if (runs[i].rc < 0 && rc == 0) {
			rc = runs[i].rc;
			sb_err_set(err, rc, "%s", runs[i].err.msg);
		}
	return rc;
}

static int run_jobs(struct sb_job_cli *c, struct run *runs, struct sb_err *err)
{
	struct sched s = { .runs = runs, .n = c->njobs, .genesis = sb_clock_ns() };
	unsigned i, first = 0;
	int rc = 0, grc;
	bool stops = false;

	for (i = 0; i < c->njobs; i++) {
		s.exitall |= c->jobs[i].exitall;
		stops |= c->jobs[i].exitall || c->jobs[i].exitall_on_error;
	}
	s.gates = calloc(c->njobs, sizeof(*s.gates));
	if (!s.gates)
		return sb_err_set(err, -ENOMEM, "out of memory");
	/* the jobs of a wave that start at once wait for each other (fio's
	 * run_threads starts a group's set-up threads together) */
	for (i = 0; i < c->njobs; i++)
		if (!c->jobs[i].startdelay_ns && !c->jobs[i].wait_for[0])
			s.gates[c->jobs[i].wave].expected++;
	for (i = 0; i < c->njobs; i++) {
		runs[i].s = &s;
		if (!c->jobs[i].startdelay_ns && !c->jobs[i].wait_for[0] && s.gates[c->jobs[i].wave].expected > 1) {
			c->jobs[i].wave_gate = &s.gates[c->jobs[i].wave];
			c->jobs[i].wave_arrived = &runs[i].arrived;
		}
		if (stops) {
			c->jobs[i].terminate = &runs[i].term;
			c->jobs[i].on_exit = thread_exit;
			c->jobs[i].on_exit_arg = &runs[i];
		}
		runs[i].o = &c->jobs[i];
		runs[i].r = calloc(1, sizeof(*runs[i].r));
		if (!runs[i].r) {
			rc = sb_err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
	}
	for (i = 1; i <= c->njobs; i++) {
		if (i < c->njobs && c->jobs[i].wave == c->jobs[first].wave)
			continue;
		if (i - first > 1)
			for (unsigned k = first; k < i; k++)
				c->jobs[k].no_progress = true;
		grc = run_group(runs, first, i, err);
		/* a failed verify still reports what ran, then fails */
		if (grc < 0 && rc == 0)
			rc = grc;
		if (grc < 0 && !runs[first].r->verify_errors)
			goto out;
		first = i;
	}
out:
	free(s.gates);
	return rc;
}

/* the first job of the group_reporting report that job i joins */
static unsigned group_first(const struct run *runs, unsigned i)
{
	while (i > 0 && runs[i].o->group_reporting && runs[i - 1].o->groupid == runs[i].o->groupid)
		i--;
	return i;
}

static int report(const struct sb_job_cli *c, struct run *runs, const struct sb_iostat *io,
		  struct sb_err *err)
{
	const struct sb_job_opts *opts[c->njobs];
	const struct sb_job_result *res[c->njobs];
	FILE *f = stdout;
	unsigned i, n = 0;

	for (i = 0; i < c->njobs; i++) {
		/* fio's group_reporting: a job of the group before it joins that
		 * report (its name the first's, its options the last's, as fio) */
		if (n && runs[i].o->group_reporting && opts[n - 1]->groupid == runs[i].o->groupid) {
			sb_job_result_merge(runs[group_first(runs, i)].r, runs[i].r);
			opts[n - 1] = runs[i].o;
			continue;
		}
		opts[n] = runs[i].o;
		res[n++] = runs[i].r;
	}
	if (c->output[0] && !(f = fopen(c->output, "w")))
		return sb_err_sys(err, -errno, "--output %s", c->output);
	if (c->fmt == SB_OUT_TEXT) {
		sb_jobs_report_text(f, opts, res, n, io);
	} else {
		struct json_object *j = sb_jobs_report_json(&c->global, opts, res, n, io, c->fmt == SB_OUT_JSONPLUS);

		fputs(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE), f);
		fputc('\n', f);
		json_object_put(j);
	}
	if (f != stdout && fclose(f) != 0)
		return sb_err_sys(err, -errno, "writing %s", c->output);
	fflush(stdout);
	return 0;
}

int sb_cmd_job(int argc, char **argv, struct sb_err *err)
{
	struct sb_job_cli c = { 0 };
	struct sb_iostat io = { 0 };
	struct run *runs = NULL;
	const char *destroy;
	unsigned i;
	int rc;

	if (argc == 2 && !strcmp(argv[1], "--cmdhelp")) {
		/* fio's --cmdhelp: every option this job takes */
		sb_job_cli_help(stdout);
		return 0;
	}
	if ((rc = sb_cmd_take_destroy_data(&argc, argv, &destroy, err)) < 0 ||
	    (rc = sb_job_cli_parse(argc, argv, &c, err)) < 0)
		goto out;
	/* a write job on a block device: the checks a stack's disks get */
	for (i = 0; i < c.njobs && rc == 0; i++)
		rc = sb_safety_check_target(c.jobs[i].target,
					    c.jobs[i].rw != SB_RW_READ && c.jobs[i].rw != SB_RW_RANDREAD,
					    destroy, err);
	if (rc < 0)
		goto out;
	/* each job's target device is watched (a file to be created: its
	 * directory's); an engine that opens no file has none, as in fio */
	for (i = 0; i < c.njobs; i++)
		if (!(sb_ioengine_get(c.jobs[i].ioengine)->flags & SB_IOF_NOFILE) &&
		    sb_iostat_add(&io, c.jobs[i].target, NULL) < 0) {
			char dir[sizeof(c.jobs[i].target)], *sl;

			snprintf(dir, sizeof(dir), "%s", c.jobs[i].target);
			sl = strrchr(dir, '/');
			if (sl)
				*(sl == dir ? sl + 1 : sl) = '\0';
			sb_iostat_add(&io, sl ? dir : ".", NULL);
		}
	for (i = 0; i < c.nwatch; i++)
		if ((rc = sb_iostat_add(&io, c.watch[i], err)) < 0)
			goto out;
	io.x_figures = c.nwatch > 0; /* stackbench_iostat: asked for with --watch only */
	runs = calloc(c.njobs, sizeof(*runs));
	if (!runs) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = sb_flow_setup(c.jobs, c.njobs, err)) < 0)
		goto out;
	sb_iostat_start(&io);
	rc = run_jobs(&c, runs, err);
	sb_iostat_stop(&io);
	sb_flow_teardown();
	if (rc < 0 && !(runs[0].r && runs[0].r->verify_errors))
		goto out;
	{
		int r2 = report(&c, runs, &io, err);

		if (rc == 0)
			rc = r2;
	}
out:
	for (i = 0; runs && i < c.njobs; i++)
		if (runs[i].r) {
			sb_job_result_release(runs[i].r);
			free(runs[i].r);
		}
	free(runs);
	sb_job_cli_free(&c);
	return rc;
}

/* job parses its own options (fio's option rows); its text lists them. */
const struct sb_cmd sb_cmd_job_row = {
	.name = "job",
	.fn = sb_cmd_job,
	.flags = SB_CMD_OWN_OPTIONS,
	.opts = NULL,
	.summary = "run I/O jobs, like fio (its options, job files and output)",
	.usage =
	  "usage: stackbench job [--OPTION=VALUE | --OPTION VALUE]... [JOBFILE.fio]...\n"
	  "  fio's spellings: --name (starts a new job) --filename --directory --size --bs\n"
	  "  --rw/--readwrite --rwmixread --rwmixwrite --iodepth --iodepth_batch --numjobs/--numjob\n"
	  "  --ioengine=psync|sync|vsync|pvsync|pvsync2|libaio|posixaio|io_uring|null|ftruncate|\n"
	  "  cpuio (--cpuload --cpuchunks --cpumode)|exec (--program --arguments --grace_time\n"
	  "  --std_redirect)|filecreate|filestat (--stat_type)|filedelete|falloc; file sets:\n"
	  "  --nrfiles --openfiles --create_on_open --file_service_type --filename_format\n"
	  "  --iomem --direct --buffered --randrepeat --time_based\n"
	  "  --runtime --ramp_time --group_reporting --stonewall --end_fsync --fsync --write_bw_log\n"
	  "  --write_iops_log --write_lat_log --log_avg_msec --log_offset --per_job_logs --log_prio\n"
	  "  --ss/--steadystate --ss_dur --ss_ramp --output-format=normal|json|json+\n"
	  "  --output FILE --verify=md5|crc32c|meta|... --do_verify --verify_only --verify_backlog\n"
	  "  (fio's header: either tool checks what the other wrote; --cmdhelp lists them all);\n"
	  "  stackbench's own: --target PATH (must exist) --verify alone [--verify-seed N]\n"
	  "  --keep-files --watch DEV. Bools take 0|1 or stand alone; a bare time is seconds.\n"
	  "  Defaults are fio 3.33's: direct=0, ioengine=psync, iodepth_batch=1, invalidate=1,\n"
	  "  a random map (norandommap), unlink=0; no filename/directory: NAME.N.0 here.\n"
	  "  Options before the first --name are global; a job file has [global] and job sections\n"
	  "  (';'/'#' comments, ${VAR} from the environment, name= and description=, 4096 jobs at\n"
	  "  most; filename=a:b is two files: the file engines' set, refused for the others;\n"
	  "  a\\:b names the file a:b). Several files a thread: the file engines only.\n"
	  "  Jobs run at the same time unless stonewall; an option fio has and stackbench does not\n"
	  "  is refused (exit 2). MODE: read, write, randread, randwrite, rw, randrw.\n"
	  "  PATH: a block device, a regular file, or a directory (one file per job thread).\n"
	  "  A write MODE on a block device needs --destroy-data=PATH and a device that is not\n"
	  "  mounted, held, open elsewhere or carrying a signature (exit 5 otherwise).\n",
};
