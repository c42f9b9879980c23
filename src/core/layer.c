#include "core/layer.h"

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/stack.h"
#include "sys/sysfs.h"

/* Strong references: libsb is a static archive, and only a strong
 * reference pulls a layer's object file into the binary. */
#define SB_LAYER(n) extern const struct sb_layer_ops sb_layer_##n;
#include "core/registry.h"
#undef SB_LAYER

static const struct sb_layer_ops *const registry[] = {
#define SB_LAYER(n) &sb_layer_##n,
#include "core/registry.h"
#undef SB_LAYER
};

_Static_assert(sizeof(registry) / sizeof(registry[0]) <= SB_LAYER_SLOTS,
	       "more layers than SB_LAYER_SLOTS (spec/spec.h)");

const struct sb_layer_ops *sb_layer_at(unsigned i)
{
	return i < sizeof(registry) / sizeof(registry[0]) ? registry[i] : NULL;
}

const struct sb_layer_ops *sb_layer_find(const char *name)
{
	const struct sb_layer_ops *ops;
	unsigned i;

	for (i = 0; name && (ops = sb_layer_at(i)); i++)
		if (!strcmp(ops->name, name))
			return ops;
	return NULL;
}

/* For the spec module: the i-th layer that has a part, in registry order
 * (its index is also its storage slot, sb_spec_layer_data). */
const struct sb_spec_part *sb_spec_part_at(unsigned i)
{
	const struct sb_layer_ops *ops;
	unsigned k, n = 0;

	for (k = 0; (ops = sb_layer_at(k)); k++)
		if (ops->spec && n++ == i)
			return ops->spec;
	return NULL;
}

void sb_leftover_add(struct sb_leftovers *f, const char *a, const char *b, const char *c)
{
	size_t n = strlen(f->text), len = sizeof(f->text);

	if (n + 1 < len && snprintf(f->text + n, len - n, "%s%s%s%s", n ? ", " : "", a, b, c) < 0)
		f->text[n] = '\0';
}

void sb_layer_each_sysblock(const char *prefix, const char *attr,
			    void (*fn)(const char *dev, const char *val, void *ctx), void *ctx)
{
	char path[PATH_MAX], val[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir("/sys/block");

	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) ||
		    snprintf(path, sizeof(path), "/sys/block/%s/%s", de->d_name, attr) >= (int)sizeof(path))
			continue;
		if (!sb_sysfs_read_str(path, val, sizeof(val), NULL))
			fn(de->d_name, val, ctx);
	}
	if (d)
		closedir(d);
}

struct each_dm { void (*fn)(const char *dm_name, void *ctx); void *ctx; };

static void one_dm(const char *dev, const char *name, void *ctx)
{
	const struct each_dm *e = ctx;

	(void)dev;
	e->fn(name, e->ctx);
}

void sb_layer_each_dm(void (*fn)(const char *dm_name, void *ctx), void *ctx)
{
	struct each_dm e = { fn, ctx };

	sb_layer_each_sysblock("dm-", "dm/name", one_dm, &e);
}

struct dm_prefix_walk {
	struct sb_leftovers *found;
	const char *prefix;
	bool (*tail_ok)(const char *tail);
};

static void dm_prefix_seen(const char *name, void *ctx)
{
	struct dm_prefix_walk *w = ctx;
	size_t n = strlen(w->prefix);

	if (!strncmp(name, w->prefix, n) && w->tail_ok(name + n))
		sb_leftover_add(w->found, "dm device ", name, "");
}

void sb_layer_dm_leftovers(struct sb_leftovers *found, const char *prefix, bool (*tail_ok)(const char *tail))
{
	struct dm_prefix_walk w = { found, prefix, tail_ok };

	sb_layer_each_dm(dm_prefix_seen, &w);
}

/* mdadm refuses array names over 32 bytes ("Name ... is too long"), and
 * matrix expansions make long stack names: keep a readable head and make
 * the rest unique with a hash of the whole name (FNV-1a). */
#define SB_MD_NAME_MAX 32

void sb_layer_md_name(const struct sb_stack_spec *spec, char *out, size_t len)
{
	const unsigned char *p;
	uint32_t h = 2166136261u;
	int head = 20;

	if (strlen(spec->name) + 3 <= SB_MD_NAME_MAX) {
		snprintf(out, len, "/dev/md/sb-%s", spec->name);
		return;
	}
	for (p = (const unsigned char *)spec->name; *p; p++)
		h = (h ^ *p) * 16777619u;
	/* "sb-" + at most 20 + "-" + 8 hex = 32; no "--" where the head is cut */
	while (head > 1 && strchr("-._", spec->name[head - 1]))
		head--;
	snprintf(out, len, "/dev/md/sb-%.*s-%08x", head, spec->name, h);
}

void sb_layer_lvm_names(const struct sb_stack_spec *spec, char *vg, size_t vglen,
			char *lv, size_t lvlen)
{
	snprintf(vg, vglen, "sb_%s", spec->lvm.vg[0] ? spec->lvm.vg : "vg");
	snprintf(lv, lvlen, "sb_%s", spec->lvm.lv[0] ? spec->lvm.lv : "lv");
}

void sb_layer_luks_name(const struct sb_stack_spec *spec, char *out, size_t len)
{
	snprintf(out, len, "sb-%s-crypt", spec->name);
}

void sb_layer_predict_dev(const struct sb_layer *l, char *out, size_t len)
{
	out[0] = '\0';
	if (l->ndev)
		snprintf(out, len, "%s", l->dev[0]);
	else if (l->ops->predict_dev)
		l->ops->predict_dev(l, out, len);
	else if (l->below)
		sb_layer_predict_dev(l->below, out, len);
}

static void plan_add(char (*steps)[512], unsigned *n, const char *fmt, va_list ap)
{
	if (*n >= 64)
		return; /* sb_stack_plan reports the overflow */
	vsnprintf(steps[*n], 512, fmt, ap);
	(*n)++;
}

void sb_plan_build(struct sb_plan *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plan_add(p->build, &p->nbuild, fmt, ap);
	va_end(ap);
}

void sb_plan_teardown(struct sb_plan *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plan_add(p->teardown, &p->nteardown, fmt, ap);
	va_end(ap);
}

bool sb_layer_wanted(const struct sb_layer_ops *ops, const struct sb_stack_spec *spec)
{
	if (ops->wanted)
		return ops->wanted(spec);
	return ops->spec && ops->spec->fs_type && !strcmp(spec->fs.type, ops->spec->fs_type);
}

void sb_layer_needs(const struct sb_layer_ops *ops, const struct sb_stack_spec *spec,
		    struct sb_kernel_needs *n)
{
	const char *const *k;

	for (k = ops->kernel_needs; k && *k; k++)
		sb_kernel_need(n, *k);
	if (ops->needs)
		ops->needs(spec, n);
}

int sb_layer_teardown(const struct sb_layer_ops *ops, const struct sb_state_obj *obj, struct sb_err *err)
{
	return ops->teardown ? ops->teardown(obj, err) : 0;
}

bool sb_layer_exists(const struct sb_layer_ops *ops, const struct sb_state_obj *obj)
{
	return ops->exists ? ops->exists(obj) : false;
}

bool sb_layer_dev_is_ours(const struct sb_layer *l, const char *dev)
{
	const struct sb_state *st = &l->stack->state;
	char path[SB_PATH_MAX + 16];
	struct stat want, got;
	unsigned i, k;

	if (stat(dev, &want) < 0 || !S_ISBLK(want.st_mode))
		return false;
	for (i = 0; i < st->nobj; i++) {
		const char *id = st->obj[i].id;
		const char *fmt[] = { "%s", "/dev/mapper/%s", "/dev/%s" };

		for (k = 0; k < 3; k++) {
			snprintf(path, sizeof(path), fmt[k], id);
			if (stat(path, &got) == 0 && S_ISBLK(got.st_mode) && got.st_rdev == want.st_rdev)
				return true;
		}
	}
	return false;
}
