/* raid.sync: wait — follow md's initial sync and record its speed, so a
 * benchmark on small loops says what the full-size array would take (the
 * home-NAS write-up: "the sync took days"). md reports sync_speed in KiB/s
 * (1024 B/s) per member; results carry MB/s (10^6 B/s). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "layers/md_int.h"
#include "util/clock.h"
#include "layers/md_sync.h"
#include "sys/sysfs.h"
#include "util/log.h"

#define SB_MD_SYNC_PERIOD_MS 250
#define POLL_MS 100

static int attr(const char *kname, const char *name, char *buf, size_t len)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "/sys/block/%s/md/%s", kname, name);
	return sb_sysfs_read_str(p, buf, len, NULL);
}

/* resync stays PENDING on an auto-read-only array: make it active */
static void make_active(const char *kname)
{
	char p[PATH_MAX], v[32];
	FILE *f;

	if (attr(kname, "array_state", v, sizeof(v)) < 0 || strcmp(v, "read-auto"))
		return;
	snprintf(p, sizeof(p), "/sys/block/%s/md/array_state", kname);
	f = fopen(p, "we");
	if (f) {
		fputs("active", f);
		fclose(f);
	}
}

/* Nothing left to do: md starts its sync thread a moment after the
 * create, so "idle" alone may mean "not started yet". A RAID5 that mdadm
 * builds by recovering onto its last member is degraded until then; a
 * resync leaves resync_start at a sector number until it is done. */
static bool in_sync(const char *kname)
{
	char v[64];

	if (attr(kname, "degraded", v, sizeof(v)) == 0 && strtol(v, NULL, 10) != 0)
		return false;
	return attr(kname, "resync_start", v, sizeof(v)) < 0 || !strcmp(v, "none");
}

static void sample(struct sb_md_sync *s, const char *kname, double t)
{
	char v[64];
	char *end;
	double kib;

	if (s->n >= SB_MD_SYNC_SAMPLES || attr(kname, "sync_speed", v, sizeof(v)) < 0)
		return;
	kib = strtod(v, &end);
	if (end == v)   /* "none": between phases */
		return;
	s->t[s->n] = t;
	s->mbps[s->n] = kib * 1024.0 / 1e6;
	s->n++;
}

int sb_md_sync_wait(const char *kname, uint64_t member_bytes, double start, volatile sig_atomic_t *stop,
		    struct sb_md_sync *out, struct sb_err *err)
{
	char action[16], done[64];
	double next = sb_clock_s(), now;
	/* generous: 1 MB/s (md's default speed_limit_min) plus ten minutes */
	double budget = (double)(member_bytes / 1000000) + 600;
	unsigned long long a = 0, b = 0;

	memset(out, 0, sizeof(*out));
	out->member_bytes = member_bytes;
	make_active(kname);
	for (;;) {
		if (attr(kname, "sync_action", action, sizeof(action)) < 0)
			return sb_err_sys(err, -errno, "md: reading /sys/block/%s/md/sync_action", kname);
		attr(kname, "sync_completed", done, sizeof(done));
		now = sb_clock_s();
		if (!strcmp(action, "idle") && (!strcmp(done, "none") || !done[0]) && in_sync(kname))
			break;
		if (strcmp(action, "idle") && !out->action[0])
			snprintf(out->action, sizeof(out->action), "%s", action);
		if (sscanf(done, "%llu / %llu", &a, &b) == 2 && b) {
			out->member_bytes = (uint64_t)b * 512;
			sb_progress("md: %s %s %.1f%%", kname, action, 100.0 * (double)a / (double)b);
		}
		if (now >= next) {
			sample(out, kname, now - start);
			next += SB_MD_SYNC_PERIOD_MS / 1000.0;
		}
		if (stop && *stop) {
			sb_progress_done();
			return sb_err_set(err, -EINTR, "md: interrupted while waiting for the sync of %s", kname);
		}
		if (now - start > budget) {
			sb_progress_done();
			return sb_err_set(err, -ETIMEDOUT, "md: sync of %s not finished after %.0f s (%s at %s)",
					  kname, budget, action, done);
		}
		usleep(POLL_MS * 1000);
	}
	sb_progress_done();
	out->duration = sb_clock_s() - start;
	return 0;
}

/* per-member bytes over the whole wait, in MB/s */
static double average(const struct sb_md_sync *s)
{
	return s->duration > 0 ? (double)s->member_bytes / s->duration / 1e6 : 0;
}

/* "4 TB" for a decimal size, "3.6 TiB" style otherwise */
static void size_words(uint64_t b, char *buf, size_t len)
{
	if (b >= 1000000000000ULL)
		snprintf(buf, len, "%g TB", (double)b / 1e12);
	else
		snprintf(buf, len, "%g GB", (double)b / 1e9);
}

static double full_hours(const struct sb_md_sync *s, const struct sb_raid_spec *r)
{
	double avg = average(s);

	return avg > 0 ? (double)r->estimate_member / (avg * 1e6) / 3600.0 : 0;
}

void sb_md_sync_estimate(const struct sb_md_sync *s, const struct sb_raid_spec *r, char *buf, size_t len)
{
	char sz[32];
	double h = full_hours(s, r);

	buf[0] = '\0';
	if (!r->estimate_member || h <= 0)
		return;
	size_words(r->estimate_member, sz, sizeof(sz));
	snprintf(buf, len, "initial sync of %u × %s RAID%u at the measured %.1f MB/s: ~%.1f h; "
		 "a rebuild onto one new member, estimated from that speed (not measured): ~%.1f h",
		 r->devices, sz, r->level, average(s), h, h);
}

struct json_object *sb_md_sync_json(const struct sb_md_sync *s, const struct sb_raid_spec *r)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	char line[256];

	for (unsigned i = 0; i < s->n; i++) {
		struct json_object *p = json_object_new_array();

		json_object_array_add(p, json_object_new_double(s->t[i]));
		json_object_array_add(p, json_object_new_double(s->mbps[i]));
		json_object_array_add(arr, p);
	}
	json_object_object_add(o, "action", json_object_new_string(s->action[0] ? s->action : "none"));
	json_object_object_add(o, "units", json_object_new_string(
		"samples: [s since mdadm --create, MB/s]; MB/s = 10^6 B/s per member, from md's sync_speed in KiB/s; duration from mdadm --create to the end of the sync; average = member_bytes / duration"));
	json_object_object_add(o, "samples", arr);
	json_object_object_add(o, "duration_s", json_object_new_double(s->duration));
	json_object_object_add(o, "member_bytes", json_object_new_int64((int64_t)s->member_bytes));
	json_object_object_add(o, "average_mbps", json_object_new_double(average(s)));
	if (r->estimate_member && s->duration > 0) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "member_bytes", json_object_new_int64((int64_t)r->estimate_member));
		json_object_object_add(e, "initial_sync_h", json_object_new_double(full_hours(s, r)));
		json_object_object_add(e, "rebuild_h", json_object_new_double(full_hours(s, r)));
		json_object_object_add(e, "rebuild_measured", json_object_new_boolean(false));
		sb_md_sync_estimate(s, r, line, sizeof(line));
		json_object_object_add(e, "text", json_object_new_string(line));
		json_object_object_add(o, "estimate", e);
	}
	return o;
}
