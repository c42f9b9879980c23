#include "bench/degrade.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/job.h"
#include "sys/sysfs.h"
#include "util/log.h"

#define VERIFY_NAME "sb-fault-verify"

int sb_md_set_faulty(const char *md_dev, const char *member_dev, struct sb_err *err)
{
	char md[64], mem[64], p[PATH_MAX];
	int fd, r;

	if ((r = sb_sysfs_dev_kname(md_dev, md, sizeof(md), NULL)) < 0)
		return sb_err_sys(err, r, "fail: cannot find the kernel name of %s", md_dev);
	if ((r = sb_sysfs_dev_kname(member_dev, mem, sizeof(mem), NULL)) < 0)
		return sb_err_sys(err, r, "fail: cannot find the kernel name of %s", member_dev);
	snprintf(p, sizeof(p), "/sys/block/%s/md/dev-%s/state", md, mem);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "fail: %s is not a member of %s (%s)", member_dev, md_dev, p);
	if (write(fd, "faulty", 6) != 6) {
		r = -errno;
		close(fd);
		/* md refuses (EBUSY) to fail the last working copy of some data */
		return sb_err_sys(err, r, "fail: md refused to mark %s faulty in %s", mem, md);
	}
	close(fd);
	return 0;
}

static void verify_opts(const struct sb_degrade *d, struct sb_job_opts *o, enum sb_rw rw)
{
	sb_job_opts_init(o);
	snprintf(o->name, sizeof(o->name), VERIFY_NAME);
	snprintf(o->target, sizeof(o->target), "%s", d->dir);
	snprintf(o->phase, sizeof(o->phase), "fault verify %s", rw == SB_RW_WRITE ? "write" : "read");
	o->rw = rw;
	o->bs = 1 << 20;
	o->iodepth = 4;
	o->size = d->verify_size;
	o->verify = true;
	o->verify_seed = d->verify_seed;
	o->verify_seed_set = true;
	o->keep_files = true;
}

static void *timer_main(void *arg)
{
	struct sb_degrade *d = arg;
	struct timespec until;
	struct sb_err e = { 0 };
	int rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)(d->after_ns / 1000000000ULL);
	until.tv_nsec += (long)(d->after_ns % 1000000000ULL);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&d->lock);
	while (!d->cancel && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&d->cond, &d->lock, &until);
	if (d->cancel) {
		pthread_mutex_unlock(&d->lock);
		return NULL;
	}
	pthread_mutex_unlock(&d->lock);

	rc = sb_md_set_faulty(d->md_dev, d->member_dev, &e);
	pthread_mutex_lock(&d->lock);
	d->fired = true;
	d->fired_ns = sb_clock_ns() - d->start_ns;
	d->fire_rc = rc;
	snprintf(d->fire_msg, sizeof(d->fire_msg), "%.*s", (int)sizeof(d->fire_msg) - 1, rc ? e.msg : "");
	pthread_mutex_unlock(&d->lock);
	if (rc)
		sb_warn("%s", e.msg);
	else
		sb_info("fault: marked member %u (%s) of %s faulty at %.1f s", d->member, d->member_dev,
			d->md_dev, (double)d->fired_ns / 1e9);
	return NULL;
}

int sb_degrade_begin(struct sb_degrade *d, const char *dir, const char *md_dev, const char *member_dev,
		     unsigned member, uint64_t after_ns, uint64_t verify_bytes, struct sb_err *err)
{
	struct sb_job_opts o;
	struct sb_job_result *r;
	int rc;

	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "%s", dir);
	snprintf(d->md_dev, sizeof(d->md_dev), "%s", md_dev);
	snprintf(d->member_dev, sizeof(d->member_dev), "%s", member_dev ? member_dev : "");
	d->member = member;
	d->after_ns = after_ns;
	d->verify_size = verify_bytes - verify_bytes % (1 << 20);
	if (!d->verify_size)
		d->verify_size = 1 << 20;
	d->verify_seed = sb_clock_ns() ^ ((uint64_t)getpid() << 40);
	pthread_mutex_init(&d->lock, NULL);
	{
		/* the timer's deadline is on CLOCK_MONOTONIC (not the default realtime) */
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&d->cond, &ca);
		pthread_condattr_destroy(&ca);
	}

	/* the data that must survive the failure */
	r = calloc(1, sizeof(*r));
	if (!r)
		return sb_err_set(err, -ENOMEM, "out of memory");
	verify_opts(d, &o, SB_RW_WRITE);
	rc = sb_engine_run(&o, r, err);
	free(r);
	if (rc < 0) {
		sb_err_prefix(err, "fault verify write: ");
		return rc;
	}
	sync();
	d->start_ns = sb_clock_ns();
	if (!member_dev || !member_dev[0])
		return 0;   /* no faults.fail: only the verify file and the md state */
	rc = pthread_create(&d->thread, NULL, timer_main, d);
	if (rc)
		return sb_err_sys(err, -rc, "fail: cannot start the timer thread");
	d->running = true;
	return 0;
}

static void stop_timer(struct sb_degrade *d)
{
	if (!d->running)
		return;
	pthread_mutex_lock(&d->lock);
	d->cancel = true;
	pthread_cond_signal(&d->cond);
	pthread_mutex_unlock(&d->lock);
	pthread_join(d->thread, NULL);
	d->running = false;
}

void sb_degrade_after_suite(struct sb_degrade *d, struct json_object *suite_obj, struct json_object *md_desc)
{
	struct json_object *st = json_object_new_object(), *md = json_object_new_object();
	struct json_object *failed = json_object_new_array(), *v, *mem, *notes;
	const char *kname = "md";
	bool fired, note;
	uint64_t at;
	size_t i;

	if (md_desc) {
		if (json_object_object_get_ex(md_desc, "kernel_name", &v))
			kname = json_object_get_string(v);
		json_object_object_add(md, "device", json_object_new_string(kname));
		if (json_object_object_get_ex(md_desc, "degraded", &v))
			json_object_object_add(md, "degraded", json_object_get(v));
		if (json_object_object_get_ex(md_desc, "array_state", &v))
			json_object_object_add(md, "array_state", json_object_get(v));
		if (json_object_object_get_ex(md_desc, "sync_action", &v))
			json_object_object_add(md, "sync_action", json_object_get(v));
		if (json_object_object_get_ex(md_desc, "members", &mem)) {
			for (i = 0; i < json_object_array_length(mem); i++) {
				struct json_object *m = json_object_array_get_idx(mem, i), *s, *dv;

				if (json_object_object_get_ex(m, "state", &s) &&
				    strstr(json_object_get_string(s), "faulty") &&
				    json_object_object_get_ex(m, "device", &dv))
					json_object_array_add(failed, json_object_get(dv));
			}
			json_object_object_add(md, "members", json_object_get(mem));
		}
	}
	json_object_object_add(md, "failed_members", failed);
	json_object_object_add(st, "md", md);
	json_object_object_add(suite_obj, "stack_state_after", st);

	pthread_mutex_lock(&d->lock);
	fired = d->fired && !d->fire_rc;
	/* a member md failed on its own (dm-flakey) is noted too, without a time */
	note = (fired || json_object_array_length(failed) > 0) && !d->noted;
	if (note)
		d->noted = true;
	at = d->fired_ns;
	pthread_mutex_unlock(&d->lock);
	if (note && json_object_object_get_ex(suite_obj, "notes", &notes)) {
		char buf[256], mk[64];

		if (!fired)
			snprintf(mk, sizeof(mk), "%.63s", json_object_get_string(json_object_array_get_idx(failed, 0)));
		else if (sb_sysfs_dev_kname(d->member_dev, mk, sizeof(mk), NULL) < 0)
			snprintf(mk, sizeof(mk), "%.63s", d->member_dev);
		if (fired)
			snprintf(buf, sizeof(buf), "%s degraded during this suite: %s failed at %.1f s", kname, mk,
				 (double)at / 1e9);
		else
			snprintf(buf, sizeof(buf), "%s degraded during this suite: %s failed", kname, mk);
		json_object_array_add(notes, json_object_new_string(buf));
	}
}

int sb_degrade_end(struct sb_degrade *d, struct json_object *res, struct sb_err *err)
{
	struct json_object *faults, *fail = json_object_new_object(), *ver = json_object_new_object();
	struct sb_job_opts o;
	struct sb_job_result *r;
	struct sb_err verr = { 0 };
	char path[600];
	uint64_t blocks;
	int rc;

	stop_timer(d);
	if (!json_object_object_get_ex(res, "faults", &faults)) {
		faults = json_object_new_object();
		json_object_object_add(res, "faults", faults);
	}
	if (!d->member_dev[0]) {
		json_object_put(fail);
		fail = NULL;
		goto verify;
	}
	json_object_object_add(fail, "member", json_object_new_int((int)d->member));
	json_object_object_add(fail, "device", json_object_new_string(d->member_dev));
	json_object_object_add(fail, "array", json_object_new_string(d->md_dev));
	json_object_object_add(fail, "after_s", json_object_new_double((double)d->after_ns / 1e9));
	json_object_object_add(fail, "fired", json_object_new_boolean(d->fired && !d->fire_rc));
	if (d->fired && !d->fire_rc)
		json_object_object_add(fail, "at_s", json_object_new_double(round((double)d->fired_ns / 1e8) / 10));
	else if (d->fired)
		json_object_object_add(fail, "error", json_object_new_string(d->fire_msg));
	else
		json_object_object_add(fail, "error", json_object_new_string(
			"the benchmark ended before `after`: the member was never failed"));
	json_object_object_add(faults, "fail", fail);
verify:

	r = calloc(1, sizeof(*r));
	if (!r)
		return sb_err_set(err, -ENOMEM, "out of memory");
	verify_opts(d, &o, SB_RW_READ);
	o.keep_files = false;
	rc = sb_engine_run(&o, r, &verr);
	json_object_object_add(ver, "bytes", json_object_new_int64((int64_t)d->verify_size));
	json_object_object_add(ver, "verified_blocks", json_object_new_int64((int64_t)r->verified_blocks));
	json_object_object_add(ver, "errors", json_object_new_int64((int64_t)r->verify_errors));
	json_object_object_add(ver, "ok", json_object_new_boolean(rc == 0 && !r->verify_errors));
	if (rc < 0)
		json_object_object_add(ver, "message", json_object_new_string(verr.msg));
	json_object_object_add(faults, "verify", ver);
	blocks = r->verified_blocks;
	if (rc == 0 && r->verify_errors)
		rc = sb_err_set(&verr, -EILSEQ, "%llu corrupted blocks", (unsigned long long)r->verify_errors);
	free(r);
	sb_engine_job_file(&o, 0, path, sizeof(path));
	unlink(path);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	if (rc < 0) {
		*err = verr;
		sb_err_prefix(err, "fault verify read (data written before the failure): ");
		return rc;
	}
	sb_info("fault: verify read of %llu MiB written before the failure: %llu blocks, no corruption",
		(unsigned long long)(d->verify_size >> 20), (unsigned long long)blocks);
	return 0;
}
