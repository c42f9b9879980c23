/* What a teardown waits for before it removes anything: the tools a killed
 * build started, and the processes an earlier teardown left at a removal
 * that hung. Either may still create or remove the very objects teardown is
 * about to touch. */
#include "core/state.h"
#include "sys/sysfs.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* A build runs mdadm, lvm, mkfs as children; SIGKILL of the build leaves
 * them running, and one that finishes after teardown has looked creates an
 * object nobody removes (finding 12 of issue 12: lvcreate completing after
 * `teardown --all` had found no LV, so the VG, PV and array stayed). Every
 * child inherits the build's environment, so the build marks it with a
 * token naming this very state, and teardown waits until no process
 * carries it any more. */
static void builder_entry(const struct sb_state *st, char *out, size_t len)
{
	snprintf(out, len, "%s=%s:%d:%s", SB_BUILDER_ENV, st->stack, st->pid, st->started);
}

int sb_state_mark_builder(const struct sb_state *st, struct sb_err *err)
{
	char entry[SB_NAME_MAX + 96];
	const char *eq;

	builder_entry(st, entry, sizeof(entry));
	eq = strchr(entry, '=');
	if (setenv(SB_BUILDER_ENV, eq + 1, 1))
		return sb_err_sys(err, -errno, "cannot set %s", SB_BUILDER_ENV);
	return 0;
}

int sb_state_wait_builder(const struct sb_state *st, unsigned timeout_ms, struct sb_err *err)
{
	char entry[SB_NAME_MAX + 96], who[128];
	struct timespec ts = { 0, 100000000 };
	unsigned waited = 0;
	int n;

	builder_entry(st, entry, sizeof(entry));
	while ((n = sb_proc_with_env(entry, who, sizeof(who))) > 0) {
		if (waited == 0)
			sb_info("%s: waiting for %d process(es) of its build to end (%s)", st->stack, n, who);
		if (waited >= timeout_ms)
			return sb_err_set(err, -EBUSY, "%s: %d process(es) of its build (pid %d) still run after "
					  "%u s: %s; not tearing down under them", st->stack, n, st->pid,
					  timeout_ms / 1000, who);
		nanosleep(&ts, NULL);
		waited += 100;
	}
	return 0;
}

/* ------------------------------------- an earlier teardown's processes */

int sb_state_add_pending(struct sb_state *st, pid_t pid, const char *doing, struct sb_err *err)
{
	struct sb_state_pending *p;
	unsigned long long start = sb_proc_start(pid);

	if (!start)
		return 0; /* it ended meanwhile: nothing to wait for */
	if (st->npending >= SB_STATE_MAX_PENDING)
		return sb_err_set(err, -E2BIG, "state of %s already records %d pending processes", st->stack,
				  SB_STATE_MAX_PENDING);
	p = &st->pending[st->npending++];
	p->pid = (int)pid;
	p->start = start;
	snprintf(p->doing, sizeof(p->doing), "%s", doing);
	return sb_state_save(st, err);
}

/* Drop the pending processes that have ended; how many still run, the
 * first of them in *first. */
static unsigned pending_prune(struct sb_state *st, const struct sb_state_pending **first)
{
	unsigned i, kept = 0;

	for (i = 0; i < st->npending; i++)
		if (sb_proc_start(st->pending[i].pid) == st->pending[i].start)
			st->pending[kept++] = st->pending[i];
	st->npending = kept;
	*first = kept ? &st->pending[0] : NULL;
	return kept;
}

int sb_state_wait_pending(struct sb_state *st, unsigned timeout_ms, struct sb_err *err)
{
	struct timespec ts = { 0, 100000000 };
	const struct sb_state_pending *p;
	unsigned had = st->npending, waited = 0, n;

	while ((n = pending_prune(st, &p)) > 0) {
		if (waited == 0)
			sb_info("%s: waiting for %u process(es) an earlier teardown left behind (pid %d, %s)",
				st->stack, n, p->pid, p->doing);
		if (waited >= timeout_ms)
			return sb_err_set(err, -EBUSY, "%s: process %d of an earlier teardown is still %s after "
					  "%u more s (a hung device below?); not tearing down beside it", st->stack,
					  p->pid, p->doing, timeout_ms / 1000);
		nanosleep(&ts, NULL);
		waited += 100;
	}
	return had ? sb_state_save(st, err) : 0;
}

int sb_state_wait_others(struct sb_state *st, unsigned timeout_ms, struct sb_err *err)
{
	int rc = sb_state_wait_builder(st, timeout_ms, err);

	return rc ? rc : sb_state_wait_pending(st, timeout_ms, err);
}
