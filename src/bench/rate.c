/* fio 3.33's pacing, as its backend.c, io_u.c and flow.c do it:
 * - rate: after each io issued, the next one in that direction is due at
 *   (bytes issued / bps) s after the epoch (linear), or one exponential gap
 *   later (poisson); an io not yet due waits for everything in flight
 *   (inline submission quiesces) and then sleeps; a mixed job takes the
 *   other direction when that one is due.
 * - thinktime: every thinktime_blocks ios (completed, or issued), drain,
 *   spin thinktime_spin, sleep the rest of thinktime.
 * - flow: jobs sharing a flow_id keep their io counts in the ratio of their
 *   weights; a job ahead sleeps flow_sleep (after draining) or asks again.
 * - rate_min / rate_iops_min: after a 2 s settling time, every rate_cycle
 *   the completed rate since the last check must reach the minimum. */
#include "bench/rate.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"

#define MAX_FLOWS 64

struct sb_flow {
	uint32_t id;
	_Atomic int64_t counter;       /* fio's flow->flow_counter, from 1 */
	_Atomic int64_t weight;        /* fio's total_weight */
};

static struct sb_flow flows[MAX_FLOWS];
static unsigned nflows;

uint64_t sb_rate_linear_us(uint64_t bytes, uint64_t bps)
{
	if (!bps)
		return 0;
	return bytes / bps * 1000000ULL + bytes % bps * 1000000ULL / bps;
}

uint64_t sb_rate_poisson_gap_us(uint64_t iops, double u)
{
	if (!iops)
		return 0;
	/* fio: (int64_t)(1000000 / iops) * -logf(u), the quotient an integer */
	return (uint64_t)((double)(int64_t)(1000000 / iops) * -log(u));
}

double sb_rate_unit(struct rng *r)
{
	return (double)((rng_next(r) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

int sb_flow_setup(const struct sb_job_opts *jobs, unsigned njobs, struct sb_err *err)
{
	unsigned i, k;

	nflows = 0;
	for (i = 0; i < njobs; i++) {
		if (!jobs[i].flow)
			continue;
		for (k = 0; k < nflows && flows[k].id != jobs[i].flow_id; k++)
			;
		if (k == nflows) {
			if (nflows == MAX_FLOWS)
				return sb_err_set(err, -EINVAL, "more than %d flow_ids", MAX_FLOWS);
			flows[k].id = jobs[i].flow_id;
			atomic_store(&flows[k].counter, 1);
			atomic_store(&flows[k].weight, 0);
			nflows++;
		}
		atomic_fetch_add(&flows[k].weight, (int64_t)jobs[i].flow * jobs[i].numjobs);
	}
	return 0;
}

void sb_flow_teardown(void)
{
	nflows = 0;
}

static struct sb_flow *flow_find(uint32_t id)
{
	unsigned k;

	for (k = 0; k < nflows; k++)
		if (flows[k].id == id)
			return &flows[k];
	return NULL;
}

static bool terminated(const struct sb_pace *p)
{
	return p && p->o->terminate && atomic_load_explicit(p->o->terminate, memory_order_relaxed);
}

/* us, in slices of at most 20 ms so that a terminated job stops (fio's usec_sleep) */
static void sleep_us(const struct sb_pace *p, uint64_t us)
{
	while (us && !terminated(p)) {
		uint64_t n = us < 20000 ? us : 20000;
		struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)n * 1000 };

		while (nanosleep(&ts, &ts) < 0)
			;
		us -= n;
	}
}

bool sb_measure_off(const struct sb_job_opts *o, enum sb_log_kind k)
{
	switch (k) {
	case SB_LOG_SLAT: return o->disable_slat;
	case SB_LOG_CLAT: return o->disable_clat;
	case SB_LOG_LAT: return o->disable_lat;
	case SB_LOG_BW: return o->disable_bw && !o->log_avg_msec;
	default: return false;
	}
}

void sb_wave_leave(const struct sb_job_opts *o)
{
	if (o->wave_gate && !atomic_exchange(o->wave_arrived, 1))
		atomic_fetch_add(&o->wave_gate->arrived, 1);
}

void sb_wave_arrive(const struct sb_job_opts *o)
{
	if (!o->wave_gate || atomic_exchange(o->wave_arrived, 1))
		return;
	atomic_fetch_add(&o->wave_gate->arrived, 1);
	while (atomic_load(&o->wave_gate->arrived) < o->wave_gate->expected)
		sleep_us(NULL, 100);
}

void sb_pace_start(struct sb_pace *p, const struct sb_job_opts *o, enum sb_rw rw, uint64_t seed)
{
	int d;

	memset(p, 0, sizeof(*p));
	p->o = o;
	p->bs = o->bs;
	p->mixed = rw == SB_RW_RW || rw == SB_RW_RANDRW;
	p->only = rw == SB_RW_WRITE || rw == SB_RW_RANDWRITE;
	if (p->mixed && (o->rwmixread == 0 || o->rwmixread == 100)) {
		p->only = o->rwmixread == 0;
		p->mixed = false; /* fio: td->o.rwmix[odir] is 0 */
	}
	for (d = 0; d < 2; d++) {
		p->bps[d] = o->rate[d] ? o->rate[d] : (uint64_t)o->rate_iops[d] * o->bs;
		if (p->bps[d] || o->rate_min[d] || o->rate_iops_min[d])
			p->rated = true;
		rng_seed(&p->prng[d], seed + (uint64_t)d);
	}
	p->flow = o->flow ? flow_find(o->flow_id) : NULL;
	p->on = p->rated || o->thinktime_us || p->flow || o->terminate;
	p->epoch = p->start = sb_clock_ns();
}

void sb_pace_end(struct sb_pace *p, int rc)
{
	/* exitall: fio terminates the others when a job thread exits; here
	 * before this job's flow weight goes, so none of them runs unheld */
	if (p->o && p->o->on_exit)
		p->o->on_exit(p->o->on_exit_arg, rc);
	if (p->flow) {
		/* fio's flow_put: the others go on without this job */
		atomic_fetch_sub(&p->flow->counter, (int64_t)p->flow_counter);
		atomic_fetch_sub(&p->flow->weight, (int64_t)p->o->flow);
		p->flow = NULL;
	}
}

void sb_pace_reset(struct sb_pace *p, uint64_t now)
{
	int d;

	p->epoch = now;
	for (d = 0; d < 2; d++) {
		p->issue_bytes[d] = p->next_us[d] = p->last_us[d] = 0;
		p->chk_bytes[d] = p->chk_ios[d] = 0;
	}
}

/* fio's flow_threshold_exceeded; true: held back */
static bool flow_held(struct sb_pace *p)
{
	int64_t total = atomic_load_explicit(&p->flow->counter, memory_order_relaxed);
	int64_t weight = atomic_load_explicit(&p->flow->weight, memory_order_relaxed);

	if (weight > 0 && total > 0 &&
	    (double)p->flow_counter / (double)total > (double)p->o->flow / (double)weight)
		return true;
	atomic_fetch_add_explicit(&p->flow->counter, 1, memory_order_relaxed);
	p->flow_counter++;
	return false;
}

static uint64_t spin_us(uint64_t us)
{
	uint64_t t0 = sb_clock_ns();

	while (sb_clock_ns() - t0 < us * 1000)
		;
	return us;
}

/* fio's handle_thinktime: 0 done or not due, DRAIN first */
static int thinktime(struct sb_pace *p, int inflight, uint64_t *now)
{
	const struct sb_job_opts *o = p->o;
	uint64_t b = o->thinktime_issue ? p->issued : p->issued - (uint64_t)inflight, total = 0;
	int d;

	if (b < p->think_last + o->thinktime_blocks)
		return SB_PACE_GO;
	if (inflight > 0)
		return SB_PACE_DRAIN;
	if (o->thinktime_spin_us)
		total = spin_us(o->thinktime_spin_us);
	if (o->thinktime_us > total) {
		uint64_t t0 = sb_clock_ns();

		sleep_us(p, o->thinktime_us - total);
		total += (sb_clock_ns() - t0) / 1000;
	}
	/* rate_ignore_thinktime: the rate's clock does not count the pause
	 * (fio adds the bytes it would have moved, less one block) */
	for (d = 0; d < 2 && o->rate_ign_think; d++) {
		if (!p->bps[d] || !total)
			continue;
		uint64_t missed = p->bps[d] * total / 1000000ULL, usperop = p->bs * 1000000ULL / p->bps[d];
		uint64_t over = usperop <= total ? p->bs : (usperop - total) / usperop * (uint64_t)-(int64_t)p->bs;

		p->issue_bytes[d] += missed - over;
		p->last_us[d] += total;
	}
	p->think_last = b;
	*now = sb_clock_ns();
	return SB_PACE_GO;
}

/* fio's rate_ddir without the switch: sleep until a direction is due */
static int rate_wait(struct sb_pace *p, int inflight, uint64_t *now, uint64_t end_ns)
{
	uint64_t t = (*now - p->epoch) / 1000, due = p->next_us[p->only];

	if (p->mixed)
		due = p->next_us[0] < p->next_us[1] ? p->next_us[0] : p->next_us[1];
	if (due <= t)
		return SB_PACE_GO;
	if (inflight > 0)
		return SB_PACE_DRAIN; /* inline submission: io_u_quiesce first */
	if (end_ns && p->epoch + due * 1000 > end_ns) {
		if (*now < end_ns)
			sleep_us(p, (end_ns - *now) / 1000);
		*now = sb_clock_ns();
		return SB_PACE_STOP;
	}
	sleep_us(p, due - t);
	*now = sb_clock_ns();
	return SB_PACE_GO;
}

int sb_pace_gate(struct sb_pace *p, int inflight, uint64_t *now, uint64_t end_ns)
{
	int rc;

	if (terminated(p))
		return SB_PACE_STOP;
	if (p->flow && flow_held(p)) {
		if (!p->o->flow_sleep_us) {
			*now = sb_clock_ns();
			return SB_PACE_AGAIN;
		}
		if (inflight > 0)
			return SB_PACE_DRAIN;
		sleep_us(p, p->o->flow_sleep_us);
		*now = sb_clock_ns();
		return SB_PACE_AGAIN;
	}
	if (p->o->thinktime_us && (rc = thinktime(p, inflight, now)) != SB_PACE_GO)
		return rc;
	if (p->rated)
		return rate_wait(p, inflight, now, end_ns);
	return SB_PACE_GO;
}

int sb_pace_dir(struct sb_pace *p, int dir, uint64_t now)
{
	uint64_t t = (now - p->epoch) / 1000;

	if (p->rated && p->mixed && p->next_us[dir] > t && p->next_us[!dir] <= t)
		dir = !dir;
	p->issued++;
	if (!p->rated)
		return dir;
	p->issue_bytes[dir] += p->bs;
	if (p->o->rate_poisson && p->bps[dir]) {
		p->last_us[dir] += sb_rate_poisson_gap_us(p->bps[dir] / p->bs, sb_rate_unit(&p->prng[dir]));
		p->next_us[dir] = p->last_us[dir];
	} else {
		p->next_us[dir] = sb_rate_linear_us(p->issue_bytes[dir], p->bps[dir]);
	}
	return dir;
}

int sb_pace_check_min(struct sb_pace *p, const struct sb_dir_result *res, uint64_t now, struct sb_err *err)
{
	const struct sb_job_opts *o = p->o;
	int d;

	if (!p->rated || now - p->start < 2000000000ULL)
		return 0; /* fio: a 2 s settling time */
	for (d = 0; d < 2; d++) {
		uint64_t spent;

		if ((!o->rate_min[d] && !o->rate_iops_min[d]) || !res[d].io_bytes)
			continue;
		if (p->chk_bytes[d] || p->chk_ios[d]) {
			spent = (now - p->chk_t[d]) / 1000000ULL;
			if (spent < o->rate_cycle_ms || !spent)
				continue;
			if (o->rate_min[d]) {
				uint64_t r = (res[d].io_bytes - p->chk_bytes[d]) * 1000 / spent;

				if (r < o->rate_min[d])
					return sb_err_set(err, -EIO, "%s: rate_min=%lluB/s not met, got %lluB/s",
							  o->name, (unsigned long long)o->rate_min[d],
							  (unsigned long long)r);
			} else {
				uint64_t r = (res[d].ios - p->chk_ios[d]) * 1000 / spent;

				if (r < o->rate_iops_min[d])
					return sb_err_set(err, -EIO, "%s: rate_iops_min=%u not met, got %llu IOPS",
							  o->name, o->rate_iops_min[d], (unsigned long long)r);
			}
		}
		p->chk_bytes[d] = res[d].io_bytes;
		p->chk_ios[d] = res[d].ios;
		p->chk_t[d] = now;
	}
	return 0;
}
