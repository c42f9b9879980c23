/* fio's job control options (fio 3.33 options.c, init.c add_job and
 * wait_for_ok, backend.c run_threads and libfio.c fio_terminate_threads):
 * new_group, wait_for, exitall, exit_what, exitall_on_error, number_ios;
 * what a job thread sets up first (backend.c thread_main): cpus_allowed,
 * cpus_allowed_policy, prio, prioclass, nice. The running of the jobs is
 * src/cmd/job.c's. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/jobopt.h"
#include "bench/rate.h"

#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_CLASS_BE 2
#define IOPRIO_WHO_PROCESS 1

/* fio's fio_cpus_split and fio_setaffinity */
static int affinity(const struct sb_job_opts *o, unsigned thread, struct sb_err *err)
{
	unsigned i, n = 0, k = 0;
	cpu_set_t set;

	for (i = 0; i < 256; i++)
		n += (o->cpus[i / 64] >> (i % 64)) & 1;
	if (!n)
		return 0;
	CPU_ZERO(&set);
	for (i = 0; i < 256; i++) {
		if (!((o->cpus[i / 64] >> (i % 64)) & 1))
			continue;
		if (!o->cpus_split || k == thread % n)
			CPU_SET(i, &set);
		k++;
	}
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return sb_err_sys(err, -errno, "cpu_set_affinity (cpus_allowed)");
	return 0;
}

int sb_jobctl_thread(const struct sb_job_opts *o, unsigned thread, struct sb_err *err)
{
	int rc;

	if ((rc = affinity(o, thread, err)) < 0)
		return rc;
	if (o->ioprio) {
		/* fio's ioprio_value: no class given is best effort */
		int v = ((o->prioclass ? o->prioclass : IOPRIO_CLASS_BE) << IOPRIO_CLASS_SHIFT) | o->prio;

		if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, v) < 0)
			return sb_err_sys(err, -errno, "ioprio_set (prioclass=%u prio=%u)", o->prioclass, o->prio);
	}
	errno = 0;
	if (o->nice && nice(o->nice) == -1 && errno != 0)
		return sb_err_sys(err, -errno, "nice(%d)", o->nice);
	return 0;
}

/* fio's set_cpus_allowed: "a-b,c", each CPU below the configured count */
static int cb_cpus(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	long max = sysconf(_SC_NPROCESSORS_CONF);
	const char *p = v;

	memset(j->cpus, 0, sizeof(j->cpus));
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p)
			return sb_err_set(err, -EINVAL, "--%s: '%s' is not a CPU list (0-3,5)", o->name, v);
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a)
				return sb_err_set(err, -EINVAL, "--%s: '%s' is not a CPU list (0-3,5)", o->name, v);
		}
		if (max > 256)
			max = 256;
		if ((long)b >= max) /* fio names the first CPU past the end */
			return sb_err_set(err, -EINVAL, "--%s: CPU %lu too large (max=%ld)", o->name,
					  (long)a >= max ? a : (unsigned long)max, max - 1);
		for (; a <= b; a++)
			j->cpus[a / 64] |= 1ULL << (a % 64);
		if (*end && *end != ',')
			return sb_err_set(err, -EINVAL, "--%s: '%s' is not a CPU list (0-3,5)", o->name, v);
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int cb_cpus_policy(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	if (strcmp(v, "shared") && strcmp(v, "split"))
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not shared or split", o->name, v);
	j->cpus_split = !strcmp(v, "split");
	return 0;
}

static int cb_nice(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (!*v || *end || errno || n < -20 || n > 19)
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not a whole number in -20..19", o->name, v);
	j->nice = (int32_t)n;
	return 0;
}

static int cb_prio(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	bool cls = !strcmp(o->name, "prioclass");
	unsigned max = cls ? 3 : 7;

	if (strlen(v) != 1 || v[0] < '0' || (unsigned)(v[0] - '0') > max)
		return sb_err_set(err, -EINVAL, "--%s: '%s' is not a whole number in 0..%u", o->name, v, max);
	*(cls ? &j->prioclass : &j->prio) = (uint8_t)(v[0] - '0');
	j->ioprio = true;
	return 0;
}

static int cb_exit_what(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	static const char *const what[] = { "group", "stonewall", "all" };
	unsigned i;

	for (i = 0; i < 3; i++)
		if (!strcmp(v, what[i])) {
			j->exit_what = (uint8_t)i;
			return 0;
		}
	return sb_err_set(err, -EINVAL, "--%s: '%s' is not group, stonewall or all", o->name, v);
}

const struct jopt jopts_ctl[] = {
	{ "new_group", NULL, JT_BOOL, F(new_group), 0, 0, "0", "start a new reporting group (run with the others)", NULL },
	{ "wait_for", NULL, JT_STR, F(wait_for), 0, 0, NULL, "start once the job of this name has finished", NULL },
	{ "exitall", NULL, JT_BOOL, F(exitall), 0, 0, NULL, "when one job finishes, stop others (exit_what)", NULL },
	{ "exit_what", NULL, JT_CB, NOF, 0, 0, "group", "exitall stops: group, stonewall (running) or all", cb_exit_what },
	{ "number_ios", NULL, JT_U64, F(number_ios), 0, 0, "0",
	  "stop after this many ios (x loops; a time_based job ignores it, as fio's)", NULL },
	{ "nice", NULL, JT_CB, NOF, 0, 0, "0", "the job threads' nice increment (-20..19)", cb_nice },
	{ "prio", NULL, JT_CB, NOF, 0, 0, NULL, "I/O priority in the class, 0 (highest) to 7", cb_prio },
	{ "prioclass", NULL, JT_CB, NOF, 0, 0, NULL, "I/O priority class: 1 realtime, 2 best effort, 3 idle", cb_prio },
	{ "cpus_allowed", NULL, JT_CB, NOF, 0, 0, NULL, "the job threads run on these CPUs (0-3,5)", cb_cpus },
	{ "cpus_allowed_policy", NULL, JT_CB, NOF, 0, 0, "shared", "shared, or split: one CPU of the list per thread", cb_cpus_policy },
	{ "exitall_on_error", NULL, JT_BOOL, F(exitall_on_error), 0, 0, "0", "when a job fails, stop others", NULL },
	{ NULL },
};

/* fio's add_job groupids (stonewall or new_group: a new one) and waves
 * (stonewall), and wait_for_ok: a named job, not itself, not twice; and
 * (stackbench) not in a later wave than the waiter. */
int sb_jobctl_finish(struct sb_job_opts *jobs, unsigned n, struct sb_err *err)
{
	unsigned i, k, found, at = 0, group = 0, wave = 0;

	for (i = 0; i < n; i++) {
		/* fio's str_exitall_cb sets exitall_on_terminate whatever the value */
		if (!strncmp(jobs[i].given, "exitall=", 8) || strstr(jobs[i].given, "\nexitall="))
			jobs[i].exitall = true;
		if (i > 0 && (jobs[i].stonewall || jobs[i].new_group))
			group++;
		if (i > 0 && jobs[i].stonewall)
			wave++;
		jobs[i].groupid = group;
		jobs[i].wave = wave;
	}
	for (i = 0; i < n; i++) {
		if (!jobs[i].wait_for[0])
			continue;
		if (!strcmp(jobs[i].wait_for, jobs[i].name))
			return sb_err_set(err, -EINVAL, "%s: a job cannot wait for itself (wait_for=%s).",
					  jobs[i].name, jobs[i].wait_for);
		for (k = found = 0; k < n; k++)
			if (!strcmp(jobs[k].name, jobs[i].wait_for)) {
				found++;
				at = k;
			}
		if (!found)
			return sb_err_set(err, -EINVAL, "%s: waitee job %s unknown.", jobs[i].name, jobs[i].wait_for);
		if (found > 1)
			return sb_err_set(err, -EINVAL, "%s: multiple waitees %s found, please avoid duplicates "
					  "when using wait_for option.", jobs[i].name, jobs[i].wait_for);
		if (jobs[at].wave > jobs[i].wave)
			return sb_err_set(err, -EINVAL, "not supported by stackbench job: wait_for=%s (job %s "
					  "waits for a job after a later stonewall)", jobs[i].wait_for, jobs[i].name);
	}
	return 0;
}
