#include "core/layer.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/stack.h"

/* Every layer type. Strong references: libsb is a static archive, and only
 * a strong reference pulls a layer's object file into the binary. Adding a
 * layer: one file in src/layers/, one line here, one in its meson.build. */
extern const struct sb_layer_ops sb_layer_loop, sb_layer_disks, sb_layer_md,
	sb_layer_lvm, sb_layer_luks, sb_layer_ext4, sb_layer_mount, sb_layer_fault,
	sb_layer_export;

const struct sb_layer_ops *sb_layer_find(const char *name)
{
	const struct sb_layer_ops *const registry[] = {
		&sb_layer_loop, &sb_layer_disks, &sb_layer_md, &sb_layer_lvm,
		&sb_layer_luks, &sb_layer_ext4, &sb_layer_mount, &sb_layer_fault,
		&sb_layer_export,
	};
	unsigned i;

	if (!name)
		return NULL;
	for (i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (registry[i] && !strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
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
	char vg[SB_NAME_MAX + 4], lv[SB_NAME_MAX + 4], name[SB_NAME_MAX + 16];
	const char *n = l->ops->name;

	out[0] = '\0';
	if (l->ndev) {
		snprintf(out, len, "%s", l->dev[0]);
	} else if (!strcmp(n, "md")) {
		sb_layer_md_name(l->spec, out, len);
	} else if (!strcmp(n, "lvm")) {
		sb_layer_lvm_names(l->spec, vg, sizeof(vg), lv, sizeof(lv));
		snprintf(out, len, "/dev/%s/%s", vg, lv);
	} else if (!strcmp(n, "luks")) {
		sb_layer_luks_name(l->spec, name, sizeof(name));
		snprintf(out, len, "/dev/mapper/%s", name);
	} else if (!strcmp(n, "loop")) {
		snprintf(out, len, "%s", l->spec->devices.loop.count > 1 ? "the loop devices" : "the loop device");
	} else if (!strcmp(n, "disks")) {
		snprintf(out, len, "%s", l->spec->devices.disks[0]);
	} else if (l->below) {
		sb_layer_predict_dev(l->below, out, len);
	}
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
