/* cache layer: dm-cache over the array (or the single device), between md
 * and LVM/LUKS, with a second, faster device as the cache: a loop device
 * on a fresh backing file in cache.dir (default /dev/shm: RAM standing in
 * for the SSD), split by dm-linear into metadata (sb-NAME-cmeta, 4 MiB +
 * 16 bytes per cache block, per the kernel's cache.rst) and data
 * (sb-NAME-cdata). The cache device is /dev/mapper/sb-NAME-cache. All
 * device-mapper work through sys/dm (libdevmapper), as the fault layer's.
 *
 * State objects, in build order (teardown runs them backwards): "file"
 * DIR/sb-NAME-cache.img (extra dev:ino once made), "loopdev" /dev/loopN
 * (extra: the file), "dm" sb-NAME-cmeta, "dm" sb-NAME-cdata, "dm"
 * sb-NAME-cache (extra "mode=M"). Writeback: teardown switches the table
 * to the cleaner policy and waits (bounded) for dirty == 0 first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/layer.h"
#include "core/stack.h"
#include "core/state.h"
#include "layers/cache_int.h"
#include "layers/loop_int.h"
#include "layers/holders.h"
#include "sys/dm.h"
#include "sys/sysfs.h"
#include "spec/part.h"
#include "sys/udev.h"
#include "util/log.h"
#include "util/units.h"

#define CACHE_FLUSH_MS 60000      /* writeback: longest wait for dirty == 0 */
#define MiB (1024ULL * 1024ULL)

struct cache_spec {
	bool enabled;
	uint64_t size;            /* cache data bytes */
	char mode[16];            /* writethrough | writeback | passthrough */
	char policy[8];           /* smq */
	uint64_t block_size;      /* dm-cache block bytes */
	char dir[160];            /* where the fast device's backing file lives */
};
_Static_assert(sizeof(struct cache_spec) <= SB_LAYER_DATA_MAX, "cache options do not fit their slot");

static const char *const mode_words[] = { "writethrough", "writeback", "passthrough", NULL };
static const char *const policy_words[] = { "smq", NULL };

static const struct sb_spec_part cache_part;

static const struct cache_spec *cache_of(const struct sb_stack_spec *s)
{
	return sb_spec_layer_cdata(s, &cache_part);
}

/* 4 MiB + 16 bytes per cache block (cache.rst), rounded up to a MiB. */
static uint64_t meta_bytes(const struct cache_spec *c)
{
	uint64_t b = 4 * MiB + 16 * (c->size / c->block_size);

	return (b + MiB - 1) / MiB * MiB;
}

void sb_cache_name(const struct sb_stack_spec *s, const char *what, char *out, size_t len)
{
	snprintf(out, len, "sb-%s-%s", s->name, what);
}

const char *sb_cache_mode(const struct sb_stack_spec *s)
{
	return cache_of(s)->mode;
}

static void cache_file(const struct sb_stack_spec *s, char *out, size_t len)
{
	snprintf(out, len, "%s/sb-%s-cache.img", cache_of(s)->dir, s->name);
}

/* The table after "0 SECTORS cache": META DATA ORIGIN BLOCK 1 MODE POLICY 0 */
static void cache_params(const struct sb_stack_spec *s, const char *meta, const char *data,
			 const char *origin, char *out, size_t len)
{
	const struct cache_spec *c = cache_of(s);

	snprintf(out, len, "%s %s %s %llu 1 %s %s 0", meta, data, origin,
		 (unsigned long long)(c->block_size / 512), c->mode, c->policy);
}

static void cache_predict(const struct sb_layer *l, char *out, size_t len)
{
	char n[SB_NAME_MAX + 16];

	sb_cache_name(l->spec, "cache", n, sizeof(n));
	snprintf(out, len, "/dev/mapper/%s", n);
}

static void cache_plan(const struct sb_layer *l, struct sb_plan *p)
{
	const struct cache_spec *c = cache_of(l->spec);
	char file[SB_PATH_MAX], size[32], msize[32], bsize[32], origin[SB_PATH_MAX], params[4 * SB_PATH_MAX];
	char nm[SB_NAME_MAX + 16], nd[SB_NAME_MAX + 16], nc[SB_NAME_MAX + 16], m[SB_PATH_MAX], d[SB_PATH_MAX];
	uint64_t meta = meta_bytes(c);

	cache_file(l->spec, file, sizeof(file));
	sb_cache_name(l->spec, "cmeta", nm, sizeof(nm));
	sb_cache_name(l->spec, "cdata", nd, sizeof(nd));
	sb_cache_name(l->spec, "cache", nc, sizeof(nc));
	sb_size_format(c->size, size, sizeof(size));
	sb_size_format(meta, msize, sizeof(msize));
	sb_size_format(c->block_size, bsize, sizeof(bsize));
	origin[0] = '\0';
	if (l->below)
		sb_layer_predict_dev(l->below, origin, sizeof(origin));
	snprintf(m, sizeof(m), "/dev/mapper/%s", nm);
	snprintf(d, sizeof(d), "/dev/mapper/%s", nd);
	cache_params(l->spec, m, d, origin[0] ? origin : "ORIGIN", params, sizeof(params));
	sb_plan_build(p, "cache: create %s fresh (O_EXCL, %s metadata + %s data) and attach a loop device "
		      "to it: the fast device%s", file, msize, size,
		      !strncmp(c->dir, "/dev/shm", 8) ? " (RAM in /dev/shm standing in for an SSD)" : "");
	sb_plan_build(p, "cache: dm create %s (linear, the first %s) and %s (linear, the rest); "
		      "zero the first 4 KiB of %s (a fresh dm-cache needs zeroed metadata)", nm, msize, nd, nm);
	sb_plan_build(p, "cache: dm create /dev/mapper/%s, table \"0 SECTORS cache %s\" (%s blocks, %s, "
		      "policy %s; via libdevmapper)", nc, params, bsize, c->mode, c->policy);
	if (!strcmp(c->mode, "writeback"))
		sb_plan_teardown(p, "cache: reload %s with the cleaner policy and wait for 0 dirty blocks "
				 "(at most %d s)", nc, CACHE_FLUSH_MS / 1000);
	sb_plan_teardown(p, "cache: dm remove %s, %s, %s (retry while busy, at most %d s each), detach the "
			 "loop device and delete %s", nc, nd, nm, SB_BUSY_BUDGET_MS / 1000, file);
}

/* ---- device-mapper (sys/dm) ---- */
static int dm_make(const char *name, uint64_t sectors, const char *target, const char *params,
		   struct sb_err *err)
{
	char node[SB_PATH_MAX];

	if (sb_dm_create(name, sectors, target, params))
		return sb_err_set(err, -EIO, "cache: creating dm device %s (%s %s) failed: %s", name, target, params,
				  sb_dm_last()[0] ? sb_dm_last() : "device-mapper error (is dm-cache there?)");
	snprintf(node, sizeof(node), "/dev/mapper/%s", name);
	return sb_udev_wait_node(node, SB_UDEV_TIMEOUT_MS, err);
}

/* dm-cache status: ... <#dirty> is the 11th field (cache.rst). */
static long long status_dirty(const char *name)
{
	struct sb_dm_target t;
	long long v[11];

	if (sb_dm_first(name, 1, &t))
		return -1;
	if (sscanf(t.params, "%lld %lld/%*d %lld %lld/%*d %lld %lld %lld %lld %lld %lld %lld",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) != 11)
		return -1;
	return v[10];
}

/* Writeback: the cleaner policy writes every dirty block back (cache.rst);
 * swap it in (same devices, same block size) and wait for dirty == 0. */
static int cache_flush(const char *name, struct sb_err *err)
{
	char table[1024], meta[256], data[256], origin[256];
	struct sb_dm_target t;
	unsigned long long block;
	long long dirty;
	int waited;

	dirty = status_dirty(name);
	if (dirty <= 0)
		return 0;
	if (sb_dm_first(name, 0, &t) ||
	    sscanf(t.params, "%255s %255s %255s %llu", meta, data, origin, &block) != 4)
		return sb_err_set(err, -EIO, "cache: cannot read the table of %s", name);
	snprintf(table, sizeof(table), "%s %s %s %llu 1 writethrough cleaner 0", meta, data, origin, block);
	if (sb_dm_reload(name, t.sectors, "cache", table) || sb_dm_suspend(name) || sb_dm_resume(name))
		return sb_err_set(err, -EIO, "cache: switching %s to the cleaner policy failed: %s", name,
				  sb_dm_last()[0] ? sb_dm_last() : "device-mapper error");
	for (waited = 0; (dirty = status_dirty(name)) > 0 && waited < CACHE_FLUSH_MS; waited += 100)
		usleep(100000);
	if (dirty != 0)
		return sb_err_set(err, -EBUSY, "cache: %s still has %lld dirty blocks after %d s of cleaning",
				  name, dirty, CACHE_FLUSH_MS / 1000);
	sb_verbose("cache: %s cleaned in %d ms", name, waited);
	return 0;
}

static int cache_build(struct sb_layer *l, struct sb_err *err)
{
	const struct cache_spec *c = cache_of(l->spec);
	char loop[64], nm[SB_NAME_MAX + 16], nd[SB_NAME_MAX + 16], nc[SB_NAME_MAX + 16];
	char m[SB_PATH_MAX], d[SB_PATH_MAX], file[SB_PATH_MAX], params[4 * SB_PATH_MAX], extra[32];
	uint64_t meta = meta_bytes(c) / 512, data = c->size / 512, origin;
	int rc;

	if (!l->below || l->below->ndev != 1)
		return sb_err_set(err, -EINVAL, "cache: needs exactly one device below");
	origin = sb_sysfs_dev_sectors(l->below->dev[0]);
	if (!origin)
		return sb_err_set(err, -ENODEV, "cache: cannot read the size of %s", l->below->dev[0]);
	cache_file(l->spec, file, sizeof(file));
	rc = sb_cache_fast_make(l, file, (meta + data) * 512, loop, sizeof(loop), err);
	if (rc)
		return rc;
	sb_cache_name(l->spec, "cmeta", nm, sizeof(nm));
	sb_cache_name(l->spec, "cdata", nd, sizeof(nd));
	sb_cache_name(l->spec, "cache", nc, sizeof(nc));
	snprintf(params, sizeof(params), "%s 0", loop);
	if ((rc = sb_state_add(&l->stack->state, "cache", "dm", nm, "", err)) ||
	    (rc = dm_make(nm, meta, "linear", params, err)))
		return rc;
	snprintf(params, sizeof(params), "%s %llu", loop, (unsigned long long)meta);
	if ((rc = sb_state_add(&l->stack->state, "cache", "dm", nd, "", err)) ||
	    (rc = dm_make(nd, data, "linear", params, err)))
		return rc;
	snprintf(m, sizeof(m), "/dev/mapper/%s", nm);
	snprintf(d, sizeof(d), "/dev/mapper/%s", nd);
	if ((rc = sb_cache_zero_head(m, err)))
		return rc;
	cache_params(l->spec, m, d, l->below->dev[0], params, sizeof(params));
	snprintf(extra, sizeof(extra), "mode=%s", c->mode);
	if ((rc = sb_state_add(&l->stack->state, "cache", "dm", nc, extra, err)) ||
	    (rc = dm_make(nc, origin, "cache", params, err)))
		return rc;
	snprintf(l->dev[0], sizeof(l->dev[0]), "/dev/mapper/%s", nc);
	l->ndev = 1;
	sb_info("cache: %s over %s (%s, %s), fast device %s", l->dev[0], l->below->dev[0], c->mode, c->policy, loop);
	return 0;
}

static int cache_attach(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	(void)st;
	(void)err;
	cache_predict(l, l->dev[0], sizeof(l->dev[0]));
	l->ndev = 1;
	return 0;
}

/* ---- teardown ---- */
static bool cache_name_ok(const char *id)
{
	size_t n = strlen(id);

	return !strncmp(id, "sb-", 3) && n > 9 &&
	       (!strcmp(id + n - 6, "-cache") || !strcmp(id + n - 6, "-cmeta") || !strcmp(id + n - 6, "-cdata"));
}

static int teardown_dm(const struct sb_state_obj *obj, struct sb_err *err)
{
	int r;

	if (!cache_name_ok(obj->id))
		return sb_err_set(err, -SB_EREFUSED, "cache: refusing to remove %s: not a stackbench cache device", obj->id);
	if (strstr(obj->extra, "mode=writeback") && sb_dm_exists(obj->id) == 1 && (r = cache_flush(obj->id, err)))
		return r;
	return sb_holders_dm_remove("cache", obj->id, err);
}

static int cache_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	if (!strcmp(obj->kind, "dm"))
		return teardown_dm(obj, err);
	if (!strcmp(obj->kind, "loopdev"))
		return sb_loop_detach(obj, err);
	if (!strcmp(obj->kind, "file"))
		return sb_cache_teardown_file(obj, err);
	return sb_err_set(err, -EINVAL, "cache: unknown object kind '%s'", obj->kind);
}

static bool cache_exists(const struct sb_state_obj *obj)
{
	struct stat st;

	if (!strcmp(obj->kind, "dm"))
		return sb_dm_exists(obj->id) != 0;
	if (!strcmp(obj->kind, "loopdev"))
		return sb_loop_is_ours(obj->id, obj->extra);
	return lstat(obj->id, &st) == 0;
}

static void cache_dm_name(const struct sb_state_obj *o, char *out, size_t len)
{
	snprintf(out, len, "%s", !strcmp(o->kind, "dm") ? o->id : "");
}

/* sb-STACK-cache, -cmeta, -cdata */
static bool cache_dm_tail(const char *tail)
{
	return !strcmp(tail, "cache") || !strcmp(tail, "cmeta") || !strcmp(tail, "cdata");
}

static void cache_leftovers(const struct sb_stack *s, struct sb_leftovers *found)
{
	char file[SB_PATH_MAX], prefix[SB_NAME_MAX + 8];
	struct stat st;

	snprintf(prefix, sizeof(prefix), "sb-%s-", s->spec->name);
	sb_layer_dm_leftovers(found, prefix, cache_dm_tail);
	cache_file(s->spec, file, sizeof(file));
	if (!lstat(file, &st))
		sb_leftover_add(found, "file ", file, "");
}

/* ---- describe: dm-cache's status line (cache.rst) ---- */
static int cache_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	const struct cache_spec *c = cache_of(l->spec);
	char name[SB_NAME_MAX + 16], feat[64] = "", policy[32] = "";
	struct sb_dm_target t;
	const char *st = t.params;
	long long mb, mu, mt, cb, cu, ct, rh, rm, wh, wm, dem, pro, dirty;
	int nf, nc, n = 0;

	sb_cache_name(l->spec, "cache", name, sizeof(name));
	json_object_object_add(out, "device", json_object_new_string(l->dev[0]));
	json_object_object_add(out, "over", json_object_new_string(l->below ? l->below->dev[0] : ""));
	json_object_object_add(out, "fast_dir", json_object_new_string(c->dir));
	if (sb_dm_first(name, 1, &t) ||
	    sscanf(st, "%lld %lld/%lld %lld %lld/%lld %lld %lld %lld %lld %lld %lld %lld %d%n",
		   &mb, &mu, &mt, &cb, &cu, &ct, &rh, &rm, &wh, &wm, &dem, &pro, &dirty, &nf, &n) != 14)
		return sb_err_set(err, -EIO, "cache: cannot read the status of %s", name);
	/* features ("writeback", "metadata2"...), core args, then the policy */
	{
		const char *p = st + n;
		char w[64];
		int k, used;

		for (k = 0; k < nf && sscanf(p, "%63s%n", w, &used) == 1; k++, p += used)
			if (!strcmp(w, "writeback") || !strcmp(w, "writethrough") || !strcmp(w, "passthrough"))
				snprintf(feat, sizeof(feat), "%s", w);
		if (sscanf(p, "%d%n", &nc, &used) == 1)
			for (p += used; nc-- > 0 && sscanf(p, "%63s%n", w, &used) == 1;)
				p += used;
		(void)sscanf(p, "%31s", policy);
	}
	json_object_object_add(out, "metadata_blocks_used", json_object_new_int64(mu));
	json_object_object_add(out, "metadata_blocks_total", json_object_new_int64(mt));
	json_object_object_add(out, "block_bytes", json_object_new_int64(cb * 512));
	json_object_object_add(out, "cache_blocks_used", json_object_new_int64(cu));
	json_object_object_add(out, "cache_blocks_total", json_object_new_int64(ct));
	json_object_object_add(out, "read_hits", json_object_new_int64(rh));
	json_object_object_add(out, "read_misses", json_object_new_int64(rm));
	json_object_object_add(out, "write_hits", json_object_new_int64(wh));
	json_object_object_add(out, "write_misses", json_object_new_int64(wm));
	json_object_object_add(out, "dirty", json_object_new_int64(dirty));
	json_object_object_add(out, "mode", json_object_new_string(feat[0] ? feat : "writethrough"));
	json_object_object_add(out, "policy", json_object_new_string(policy));
	(void)mb;
	return 0;
}

/* ---- its part of the stack description ---- */
#define FLD SB_OPT_FLD

static const struct sb_opt cache_opts[] = {
	{ "size", SB_OPT_SIZE, FLD(cache_spec, size), "64MiB", MiB, 1ULL << 40, NULL, NULL,
	  "cache data size on the fast device (a multiple of block_size); metadata comes on top" },
	{ "mode", SB_OPT_ENUM, FLD(cache_spec, mode), "writethrough", 0, 0, mode_words, NULL,
	  "writethrough: writes reach the array before completing; writeback: the cache holds them; passthrough" },
	{ "policy", SB_OPT_ENUM, FLD(cache_spec, policy), "smq", 0, 0, policy_words, NULL,
	  "dm-cache policy: which blocks are promoted to the cache" },
	{ "block_size", SB_OPT_SIZE, FLD(cache_spec, block_size), "64KiB", 0, 0, NULL, NULL,
	  "dm-cache block: 32KiB..1GiB, a multiple of 32KiB" },
	{ "dir", SB_OPT_STR, FLD(cache_spec, dir), "/dev/shm", 0, 0, NULL, NULL,
	  "directory of the fast device's backing file (/dev/shm: RAM standing in for an SSD)" },
	{ .key = NULL },
};

static const struct sb_opt_section cache_sec = { "cache", 0, offsetof(struct cache_spec, enabled), cache_opts };

static const struct sb_opt cache_top[] = {
	{ "cache", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &cache_sec,
	  "dm-cache over the array with a faster loop device as the cache (absent: none)" },
	{ .key = NULL },
};

static int cache_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	const struct cache_spec *g = cache_of(s);

	if (!g->enabled)
		return 0;
	if (g->block_size < 32768 || g->block_size > (1ULL << 30) || g->block_size % 32768)
		return sb_spec_fail_at(c, "cache.block_size", false,
				       "cache.block_size: must be 32KiB..1GiB and a multiple of 32KiB (dm-cache)");
	if (g->size % g->block_size || g->size / g->block_size < 1)
		return sb_spec_fail_at(c, "cache.size", false,
				       "cache.size: must be a whole number of cache.block_size blocks");
	if (g->dir[0] != '/')
		return sb_spec_fail_at(c, "cache.dir", false, "cache.dir: must be an absolute path");
	return 0;
}

static void cache_summary(const struct sb_stack_spec *s, char *buf, size_t len)
{
	const struct cache_spec *g = cache_of(s);
	char size[32];

	if (!g->enabled)
		return;
	sb_size_format(g->size, size, sizeof(size));
	sb_spec_append(buf, len, " → dm-cache %s %s", size, g->mode);
}

static const struct sb_spec_part cache_part = {
	.parent = "",
	.opts = cache_top,
	.base = SB_SPEC_OWN,
	.data_size = sizeof(struct cache_spec),
	.check = cache_check,
	.summary = cache_summary,
	.block_device = true,
};

static bool cache_wanted(const struct sb_stack_spec *spec)
{
	return cache_of(spec)->enabled;
}

const struct sb_layer_ops sb_layer_cache = {
	.name = "cache",
	.label = sb_layer_label_name,
	.spec = &cache_part,
	.order = SB_ORDER_ARRAY + 5,   /* over md (or the one device), below LVM and LUKS */
	.wanted = cache_wanted,
	.kernel_needs = (const char *const[]){ "dm", NULL },
	.predict_dev = cache_predict,
	.leftovers = cache_leftovers,
	.dm_name = cache_dm_name,
	.plan = cache_plan,
	.build = cache_build,
	.describe = cache_describe,
	.teardown = cache_teardown,
	.exists = cache_exists,
	.attach = cache_attach,
	.per_layer = true,
	.pl_observe = sb_cache_pl_observe,
	.pl_model = sb_cache_pl_model,
};
