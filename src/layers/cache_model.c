/* The cache layer's part of bench.per_layer. Around the raw jobs on the
 * cache device it records the fast device's own read figures (read-only
 * jobs on sb-NAME-cdata: a write there would destroy the cache) and the
 * hits and misses dm-cache counts over the jobs (its status line,
 * cache.rst). Its model: a read at the fast device's figure on a hit and
 * the origin's on a miss, weighted by the hit rate the kernel reports
 * (time adds up: 1 / (h / fast + (1 - h) / origin)); writes: writethrough
 * and passthrough reach the origin (its figure), writeback hits stay on
 * the fast device. */
#include <stdio.h>
#include <string.h>

#include "bench/engine.h"
#include "layers/cache_int.h"
#include "sys/dm.h"
#include "sys/sysfs.h"
#include "util/log.h"

#define FAST_SIZE (64ULL << 20)
#define FAST_RAND_NS 1000000000ULL

/* read hits, read misses, write hits, write misses of the cache device */
static int counters(const struct sb_stack_spec *s, long long c[4])
{
	char name[SB_NAME_MAX + 16];
	struct sb_dm_target t;
	long long x;

	sb_cache_name(s, "cache", name, sizeof(name));
	if (sb_dm_first(name, 1, &t) ||
	    sscanf(t.params, "%lld %lld/%lld %lld %lld/%lld %lld %lld %lld %lld", &x, &x, &x, &x, &x, &x,
		   &c[0], &c[1], &c[2], &c[3]) != 10)
		return -1;
	return 0;
}

/* The fast device's sequential read and random read, read-only. */
static void fast_figures(const struct sb_layer *l, struct json_object *o)
{
	char name[SB_NAME_MAX + 16], dev[SB_PATH_MAX];
	uint64_t sectors = 0, size = FAST_SIZE;
	double r = -1, iops = -1;
	struct sb_err e = { 0 };

	sb_cache_name(l->spec, "cdata", name, sizeof(name));
	snprintf(dev, sizeof(dev), "/dev/mapper/%s", name);
	json_object_object_add(o, "fast_device", json_object_new_string(dev));
	if (sb_sysfs_dev_attr_u64(dev, "size", &sectors, NULL) == 0 && sectors * 512 < size)
		size = sectors * 512 / (1 << 20) * (1 << 20);
	if (sb_engine_figure(dev, SB_RW_READ, 1 << 20, 4, size, 0, false, &r, &e) < 0 ||
	    sb_engine_figure(dev, SB_RW_RANDREAD, 4096, 32, size, FAST_RAND_NS, true, &iops, &e) < 0)
		sb_warn("per-layer: cache: %s: %s", dev, e.msg);
	if (r >= 0)
		json_object_object_add(o, "fast_seq_read_mbs", json_object_new_double(r));
	if (iops >= 0)
		json_object_object_add(o, "fast_randread_4k_iops", json_object_new_double((double)(int64_t)(iops + 0.5)));
}

void sb_cache_pl_observe(const struct sb_layer *l, unsigned i, bool after, struct json_object *row)
{
	static const char *const names[4] = { "read_hits", "read_misses", "write_hits", "write_misses" };
	struct json_object *o, *v;
	long long c[4], d[4];
	unsigned k;

	(void)i;
	if (!after) {
		o = json_object_new_object();
		fast_figures(l, o);
		json_object_object_add(row, "cache", o);
		if (counters(l->spec, c) == 0)
			for (k = 0; k < 4; k++)
				json_object_object_add(o, names[k], json_object_new_int64(c[k]));
		return;
	}
	/* the counters before the jobs become the counts over them */
	if (!json_object_object_get_ex(row, "cache", &o) || counters(l->spec, c) < 0)
		return;
	for (k = 0; k < 4; k++) {
		if (!json_object_object_get_ex(o, names[k], &v))
			return;
		d[k] = c[k] - json_object_get_int64(v);
		json_object_object_add(o, names[k], json_object_new_int64(d[k]));
	}
	if (d[0] + d[1] > 0)
		json_object_object_add(o, "read_hit_rate", json_object_new_double((double)d[0] / (double)(d[0] + d[1])));
	if (d[2] + d[3] > 0)
		json_object_object_add(o, "write_hit_rate", json_object_new_double((double)d[2] / (double)(d[2] + d[3])));
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, key, &v) && v ? json_object_get_double(v) : -1;
}

/* h of the time at fast, the rest at origin */
static double mix(double h, double fast, double origin)
{
	if (h <= 0 || fast <= 0)
		return origin;
	if (origin <= 0)
		return -1;
	return 1 / (h / fast + (1 - h) / origin);
}

void sb_cache_pl_model(const struct sb_stack_spec *spec, struct json_object *row,
		       const struct sb_pl_below *b, struct sb_pl_model *m)
{
	const char *mode = sb_cache_mode(spec);
	struct json_object *o = NULL;
	double hr, hw, fast[2];

	json_object_object_get_ex(row, "cache", &o);
	hr = num(o, "read_hit_rate");
	hw = num(o, "write_hit_rate");
	fast[0] = num(o, "fast_seq_read_mbs");
	fast[1] = num(o, "fast_randread_4k_iops");
	if (!o || hr < 0 || fast[0] < 0) {
		sb_pl_why(m, 1, "cache: the origin's (the hits were not counted or the fast device not measured)");
		sb_pl_why(m, 2, "cache: the origin's (the hits were not counted or the fast device not measured)");
	} else {
		m->exp.v[1] = mix(hr, fast[0], b->mean.v[1]);
		m->exp.v[2] = mix(hr, fast[1], b->mean.v[2]);
		sb_pl_why(m, 1, "cache: reads hit %.0f %% (dm-cache's counters over the jobs): the fast device's "
			  "%.0f MB/s on hits, the origin's on misses", hr * 100, fast[0]);
		sb_pl_why(m, 2, "cache: reads hit %.0f %%: the fast device's %.0f IOPS on hits, the origin's on misses",
			  hr * 100, fast[1]);
	}
	if (strcmp(mode, "writeback") || hw < 0 || fast[0] < 0) {
		sb_pl_why(m, 0, "cache %s: every write reaches the origin: the origin's", mode);
		return;
	}
	m->exp.v[0] = mix(hw, fast[0], b->mean.v[0]);
	sb_pl_why(m, 0, "cache writeback: writes hit %.0f %%: the fast device on hits (its read figure stands in: "
		  "a raw write would destroy the cache), the origin's on misses", hw * 100);
}
