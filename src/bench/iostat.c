#include "bench/iostat.h"
#include "util/clock.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "bench/engine.h"

int sb_iostat_add(struct sb_iostat *s, const char *path, struct sb_err *err)
{
	struct stat st;
	char link[PATH_MAX], sysdir[128];
	dev_t dev;
	unsigned i;
	const char *base;

	if (stat(path, &st) < 0)
		return sb_err_sys(err, -errno, "--watch %s", path);
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(sysdir, link))
		return sb_err_sys(err, -errno, "%s: no block device %s (not a block-device filesystem?)",
				  path, sysdir);
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->dev[i].sysdir, sysdir))
			return 0;
	if (s->n >= SB_IOSTAT_MAX)
		return sb_err_set(err, -E2BIG, "at most %d watched devices", SB_IOSTAT_MAX);
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	memset(&s->dev[s->n], 0, sizeof(s->dev[s->n]));
	if (strlen(base) >= sizeof(s->dev[s->n].name))
		return sb_err_set(err, -ENAMETOOLONG, "%s: device name too long", path);
	memcpy(s->dev[s->n].name, base, strlen(base) + 1);
	snprintf(s->dev[s->n].sysdir, sizeof(s->dev[s->n].sysdir), "%s", sysdir);
	s->n++;
	return 0;
}

static void read_stat(struct sb_iostat_dev *d, struct sb_diskstat *ds)
{
	char path[160];
	FILE *f;
	unsigned long long v[11] = { 0 };

	snprintf(path, sizeof(path), "%s/stat", d->sysdir);
	memset(ds, 0, sizeof(*ds));
	ds->t_ns = sb_clock_ns();
	f = fopen(path, "re");
	if (!f)
		return;
	if (fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) == 11)
		for (int i = 0; i < 11; i++)
			ds->v[i] = v[i];
	fclose(f);
}

void sb_iostat_start(struct sb_iostat *s)
{
	for (unsigned i = 0; i < s->n; i++)
		read_stat(&s->dev[i], &s->dev[i].before);
}

void sb_iostat_stop(struct sb_iostat *s)
{
	for (unsigned i = 0; i < s->n; i++)
		read_stat(&s->dev[i], &s->dev[i].after);
}

/* Documentation/block/stat.rst field order */
enum { RIOS, RMERGE, RSECT, RTICKS, WIOS, WMERGE, WSECT, WTICKS, INFLIGHT, IOTICKS, INQUEUE };

void sb_iostat_compute(const struct sb_iostat_dev *d, struct sb_iostat_figs *f)
{
	uint64_t dv[11];
	double dt_s = (double)(d->after.t_ns - d->before.t_ns) / 1e9, dt_ms = dt_s * 1e3;

	for (int i = 0; i < 11; i++)
		dv[i] = d->after.v[i] >= d->before.v[i] ? d->after.v[i] - d->before.v[i] : 0;
	memset(f, 0, sizeof(*f));
	f->read_ios = dv[RIOS];
	f->write_ios = dv[WIOS];
	f->read_merges = dv[RMERGE];
	f->write_merges = dv[WMERGE];
	f->read_bytes = dv[RSECT] * 512;
	f->write_bytes = dv[WSECT] * 512;
	f->read_ticks = dv[RTICKS];
	f->write_ticks = dv[WTICKS];
	f->io_ticks = dv[IOTICKS];
	f->in_queue = dv[INQUEUE];
	if (dt_s <= 0)
		return;
	f->r_s = dv[RIOS] / dt_s;
	f->w_s = dv[WIOS] / dt_s;
	f->rmb_s = f->read_bytes / dt_s / 1e6;
	f->wmb_s = f->write_bytes / dt_s / 1e6;
	f->rareq_kb = dv[RIOS] ? f->read_bytes / 1024.0 / dv[RIOS] : 0;
	f->wareq_kb = dv[WIOS] ? f->write_bytes / 1024.0 / dv[WIOS] : 0;
	f->r_await_ms = dv[RIOS] ? (double)dv[RTICKS] / dv[RIOS] : 0;
	f->w_await_ms = dv[WIOS] ? (double)dv[WTICKS] / dv[WIOS] : 0;
	f->aqu_sz = dv[INQUEUE] / dt_ms;
	f->util_pct = dv[IOTICKS] / dt_ms * 100.0;
	if (f->util_pct > 100.0)
		f->util_pct = 100.0;
}

static struct json_object *jd(double v)
{
	/* two decimals are plenty and keep the JSON readable */
	return json_object_new_double((double)(long long)(v * 100.0 + (v >= 0 ? 0.5 : -0.5)) / 100.0);
}

/* fio's counters of one device (disk_util's keys but its util) */
static void add_fio_counters(struct json_object *o, const struct sb_iostat_figs *f)
{
	json_object_object_add(o, "read_ios", json_object_new_int64((int64_t)f->read_ios));
	json_object_object_add(o, "write_ios", json_object_new_int64((int64_t)f->write_ios));
	json_object_object_add(o, "read_merges", json_object_new_int64((int64_t)f->read_merges));
	json_object_object_add(o, "write_merges", json_object_new_int64((int64_t)f->write_merges));
	json_object_object_add(o, "read_ticks", json_object_new_int64((int64_t)f->read_ticks));
	json_object_object_add(o, "write_ticks", json_object_new_int64((int64_t)f->write_ticks));
	json_object_object_add(o, "in_queue", json_object_new_int64((int64_t)f->in_queue));
}

/* the 12 iostat -x keys that are not fio's */
static void add_x_figures(struct json_object *o, const struct sb_iostat_figs *f)
{
	json_object_object_add(o, "read_bytes", json_object_new_int64((int64_t)f->read_bytes));
	json_object_object_add(o, "write_bytes", json_object_new_int64((int64_t)f->write_bytes));
	json_object_object_add(o, "util_pct", jd(f->util_pct));
	json_object_object_add(o, "r_per_s", jd(f->r_s));
	json_object_object_add(o, "w_per_s", jd(f->w_s));
	json_object_object_add(o, "read_mbps", jd(f->rmb_s));
	json_object_object_add(o, "write_mbps", jd(f->wmb_s));
	json_object_object_add(o, "rareq_kb", jd(f->rareq_kb));
	json_object_object_add(o, "wareq_kb", jd(f->wareq_kb));
	json_object_object_add(o, "r_await_ms", jd(f->r_await_ms));
	json_object_object_add(o, "w_await_ms", jd(f->w_await_ms));
	json_object_object_add(o, "aqu_sz", jd(f->aqu_sz));
}

enum { FIO_KEYS = 1, X_KEYS = 2, FIO_UTIL = 4 };

/* one object per device: its name and the keys asked for */
static struct json_object *devices(const struct sb_iostat *s, int what)
{
	struct json_object *arr = json_object_new_array();
	char buf[64];

	for (unsigned i = 0; i < s->n; i++) {
		struct json_object *o = json_object_new_object();
		struct sb_iostat_figs f;

		sb_iostat_compute(&s->dev[i], &f);
		json_object_object_add(o, "name", json_object_new_string(s->dev[i].name));
		if (what & FIO_KEYS) {
			add_fio_counters(o, &f);
			snprintf(buf, sizeof(buf), "%f", f.util_pct);   /* fio prints %f */
			json_object_object_add(o, "util", what & FIO_UTIL ?
					       json_object_new_double_s(f.util_pct, buf) : jd(f.util_pct));
		}
		if (what & X_KEYS)
			add_x_figures(o, &f);
		json_object_array_add(arr, o);
	}
	return arr;
}

/* the suites' results: fio's names and the iostat -x figures together */
struct json_object *sb_iostat_json(const struct sb_iostat *s)
{
	return devices(s, FIO_KEYS | X_KEYS);
}

/* fio's disk_util element: name and fio's keys only (fio's consumers check them) */
struct json_object *sb_iostat_json_fio(const struct sb_iostat *s)
{
	return devices(s, FIO_KEYS | FIO_UTIL);
}

/* stackbench's iostat -x figures of the same devices: name and the 12 keys
 * that are not fio's */
struct json_object *sb_iostat_json_x(const struct sb_iostat *s)
{
	return devices(s, X_KEYS);
}
