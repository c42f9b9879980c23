/* lvm layer: PV -> VG sb_<vg> -> LV sb_<lv> through libblockdev's lvm plugin.
 * Every LVM command runs with a device filter that admits only this stack's
 * PV (and ignores any devices file), so a host with its own volume groups is
 * never scanned for changes, let alone touched; and only VGs named sb_* are
 * ever removed. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <blockdev/blockdev.h>
#include <blockdev/lvm.h>

#include "core/layer.h"
#include "spec/part.h"
#include "core/stack.h"
#include "core/state.h"
#include "layers/holders.h"
#include "sys/blockdev.h"
#include "sys/udev.h"
#include "util/log.h"
#include "util/units.h"

/* device-mapper name of vg/lv: '-' doubled in each part */
static void dm_name(const char *vg, const char *lv, char *out, size_t len)
{
	size_t o = 0;
	const char *parts[2] = { vg, lv };
	int i;

	for (i = 0; i < 2; i++) {
		const char *c;

		if (i && o + 1 < len)
			out[o++] = '-';
		for (c = parts[i]; *c && o + 2 < len; c++) {
			out[o++] = *c;
			if (*c == '-')
				out[o++] = '-';
		}
	}
	out[o] = '\0';
}

/* Restrict LVM to one device for this process's following lvm calls. */
static int lvm_scope(const char *pvdev, struct sb_err *err)
{
	char rp[PATH_MAX], cfg[PATH_MAX + 128];
	GError *gerr = NULL;

	if (!pvdev || !pvdev[0]) {
		cfg[0] = '\0';
	} else {
		if (!realpath(pvdev, rp))
			snprintf(rp, sizeof(rp), "%s", pvdev);
		if (strpbrk(rp, "|\"\\"))
			return sb_err_set(err, -EINVAL, "lvm: device path %s cannot be put in a filter", rp);
		snprintf(cfg, sizeof(cfg),
			 "devices { use_devicesfile=0 filter=[ \"a|^%s$|\", \"r|.*|\" ] }", rp);
	}
	if (!bd_lvm_set_global_config(cfg[0] ? cfg : NULL, &gerr)) {
		int r = sb_err_set(err, -EIO, "lvm: cannot set the device filter: %s", gerr ? gerr->message : "?");

		g_clear_error(&gerr);
		return r;
	}
	return 0;
}

static void lvm_plan(const struct sb_layer *l, struct sb_plan *p)
{
	const struct sb_lvm_spec *s = &l->spec->lvm;
	char vg[SB_NAME_MAX + 4], lv[SB_NAME_MAX + 4], ext[32], size[48];
	const char *below = l->below && l->below->ndev ? l->below->dev[0] : "the device below";

	sb_layer_lvm_names(l->spec, vg, sizeof(vg), lv, sizeof(lv));
	sb_size_format(s->extent_size, ext, sizeof(ext));
	if (s->size_pct_free)
		snprintf(size, sizeof(size), "%u%% of the free space", s->size_pct_free);
	else
		sb_size_format(s->size_bytes, size, sizeof(size));
	sb_plan_build(p, "lvm: pvcreate %s; vgcreate %s with %s extents; lvcreate %s/%s of %s (via libblockdev, LVM restricted to %s)",
		      below, vg, ext, vg, lv, size, below);
	sb_plan_teardown(p, "lvm: lvremove %s/%s, vgremove %s, pvremove %s (label wiped)", vg, lv, vg, below);
}

/* Refuse a VG or LV node of our names that already exists, then restrict
 * LVM to the PV below. */
static int build_refuse_existing(const struct sb_layer *l, const char *vg, const char *node,
				 const char *pv, struct sb_err *err)
{
	BDLVMVGdata *vgi;
	GError *gerr = NULL;
	int r;

	r = sb_blockdev_init(err);
	if (r)
		return r;
	/* An existing VG of that name anywhere (scan without our filter) is
	 * someone's: refuse rather than make a second one with the same name. */
	r = lvm_scope(NULL, err);
	if (r)
		return r;
	vgi = bd_lvm_vginfo(vg, &gerr);
	g_clear_error(&gerr);
	if (vgi) {
		bd_lvm_vgdata_free(vgi);
		return sb_err_set(err, -EEXIST, "lvm: a volume group named %s already exists; stackbench will not touch it (an earlier run? try `stackbench teardown %s`)",
				  vg, l->spec->name);
	}
	if (access(node, F_OK) == 0)
		return sb_err_set(err, -EEXIST, "lvm: %s already exists", node);
	return lvm_scope(pv, err);
}

/* The LV's size in bytes from the VG just made, checked against its free
 * space. */
static int lv_size(const struct sb_lvm_spec *s, const char *vg, uint64_t *out, struct sb_err *err)
{
	char a[32], b[32];
	BDLVMVGdata *vgi;
	GError *gerr = NULL;
	uint64_t size;
	int r;

	vgi = bd_lvm_vginfo(vg, &gerr);
	if (!vgi) {
		r = sb_err_set(err, -EIO, "lvm: reading back %s failed: %s", vg, gerr ? gerr->message : "?");
		g_clear_error(&gerr);
		return r;
	}
	if (s->size_pct_free) {
		/* whole extents, as lvcreate -l N%FREE counts them */
		size = vgi->free_count * s->size_pct_free / 100 * vgi->extent_size;
	} else {
		size = s->size_bytes;
	}
	if (size == 0 || size > vgi->free) {
		sb_size_format(size, a, sizeof(a));
		sb_size_format(vgi->free, b, sizeof(b));
		bd_lvm_vgdata_free(vgi);
		return sb_err_set(err, -ENOSPC, "lvm: LV size %s (%s) does not fit in %s's free space %s",
				  a, s->size, vg, b);
	}
	bd_lvm_vgdata_free(vgi);
	*out = size;
	return 0;
}

static int lvm_build(struct sb_layer *l, struct sb_err *err)
{
	const struct sb_lvm_spec *s = &l->spec->lvm;
	char vg[SB_NAME_MAX + 4], lv[SB_NAME_MAX + 4], id[SB_PATH_MAX], dm[2 * SB_NAME_MAX + 16];
	char node[SB_PATH_MAX], a[32];
	const gchar *pvs[2];
	/* libblockdev passes --yes itself; never let lvcreate stop to ask */
	BDExtraArg wipe = { "--wipesignatures", "y" };
	const BDExtraArg *lvextra[] = { &wipe, NULL };
	GError *gerr = NULL;
	const char *pv;
	uint64_t size = 0;
	int r;

	if (!l->below || l->below->ndev < 1)
		return sb_err_set(err, -EINVAL, "lvm: no device below");
	pv = l->below->dev[0];
	sb_layer_lvm_names(l->spec, vg, sizeof(vg), lv, sizeof(lv));
	dm_name(vg, lv, dm, sizeof(dm));
	snprintf(node, sizeof(node), "/dev/mapper/%s", dm);
	r = build_refuse_existing(l, vg, node, pv, err);
	if (r)
		return r;

	r = sb_state_add(&l->stack->state, "lvm", "pv", pv, pv, err);
	if (r)
		return r;
	if (!bd_lvm_pvcreate(pv, 0, 0, NULL, &gerr))
		goto fail_pv;
	r = sb_state_add(&l->stack->state, "lvm", "vg", vg, pv, err);
	if (r)
		return r;
	pvs[0] = pv;
	pvs[1] = NULL;
	if (!bd_lvm_vgcreate(vg, pvs, s->extent_size, NULL, &gerr))
		goto fail_vg;

	r = lv_size(s, vg, &size, err);
	if (r)
		return r;
	snprintf(id, sizeof(id), "%s/%s", vg, lv);
	r = sb_state_add(&l->stack->state, "lvm", "lv", id, pv, err);
	if (r)
		return r;
	if (!bd_lvm_lvcreate(vg, lv, size, NULL, NULL, lvextra, &gerr)) {
		sb_size_format(size, a, sizeof(a));
		r = sb_err_set(err, -EIO, "lvm: lvcreate %s of %s failed: %s", id, a, gerr ? gerr->message : "?");
		g_clear_error(&gerr);
		return r;
	}
	r = sb_udev_wait_node(node, SB_UDEV_TIMEOUT_MS, err);
	if (r)
		return r;
	snprintf(l->dev[0], sizeof(l->dev[0]), "%s", node);
	l->ndev = 1;
	return 0;

fail_pv:
	r = sb_err_set(err, -EIO, "lvm: pvcreate %s failed: %s", pv, gerr ? gerr->message : "?");
	g_clear_error(&gerr);
	return r;
fail_vg:
	sb_size_format(s->extent_size, a, sizeof(a));
	r = sb_err_set(err, -EIO, "lvm: vgcreate %s (%s extents) on %s failed: %s", vg, a, pv,
		       gerr ? gerr->message : "?");
	g_clear_error(&gerr);
	return r;
}

/* Split "sb_vg/sb_lv". */
static int split_id(const char *id, char *vg, size_t vl, char *lv, size_t ll)
{
	const char *slash = strchr(id, '/');

	if (!slash || (size_t)(slash - id) >= vl || strlen(slash + 1) >= ll)
		return -EINVAL;
	memcpy(vg, id, (size_t)(slash - id));
	vg[slash - id] = '\0';
	strcpy(lv, slash + 1);
	return 0;
}

static bool obj_exists(const struct sb_state_obj *obj)
{
	char vg[SB_NAME_MAX + 4], lv[SB_NAME_MAX + 4];
	GError *gerr = NULL;
	struct stat st;
	bool found = false;

	if (sb_blockdev_init(NULL) || lvm_scope(obj->extra, NULL))
		return false;
	if (!strcmp(obj->kind, "lv")) {
		BDLVMLVdata *d;

		if (split_id(obj->id, vg, sizeof(vg), lv, sizeof(lv)))
			return false;
		d = bd_lvm_lvinfo(vg, lv, &gerr);
		found = d != NULL;
		bd_lvm_lvdata_free(d);
	} else if (!strcmp(obj->kind, "vg")) {
		BDLVMVGdata *d = bd_lvm_vginfo(obj->id, &gerr);

		found = d != NULL;
		bd_lvm_vgdata_free(d);
	} else if (!strcmp(obj->kind, "pv")) {
		BDLVMPVdata *d;

		if (stat(obj->id, &st) < 0 || !S_ISBLK(st.st_mode))
			return false;
		d = bd_lvm_pvinfo(obj->id, &gerr);
		found = d != NULL;
		bd_lvm_pvdata_free(d);
	}
	g_clear_error(&gerr);
	return found;
}

struct rm_arg {
	const struct sb_state_obj *obj;
	char msg[512];
};

static int rm_once(void *a)
{
	struct rm_arg *ra = a;
	const struct sb_state_obj *obj = ra->obj;
	char vg[SB_NAME_MAX + 4], lv[SB_NAME_MAX + 4];
	GError *gerr = NULL;
	gboolean ok = FALSE;

	if (!obj_exists(obj))
		return 0;
	if (!strcmp(obj->kind, "lv")) {
		split_id(obj->id, vg, sizeof(vg), lv, sizeof(lv));
		ok = bd_lvm_lvremove(vg, lv, TRUE, NULL, &gerr);
	} else if (!strcmp(obj->kind, "vg")) {
		ok = bd_lvm_vgremove(obj->id, NULL, &gerr);
	} else {
		ok = bd_lvm_pvremove(obj->id, NULL, &gerr);
	}
	if (ok)
		return 0;
	snprintf(ra->msg, sizeof(ra->msg), "%s", gerr ? gerr->message : "?");
	g_clear_error(&gerr);
	if (!obj_exists(obj))
		return 0;
	/* lvm says "in use" / "Device or resource busy" (udev's blkid): retry */
	return strstr(ra->msg, "in use") || strstr(ra->msg, "busy") || strstr(ra->msg, "Busy") ? -EBUSY : -EIO;
}

static int lvm_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	char vg[SB_NAME_MAX + 4], lv[SB_NAME_MAX + 4];
	struct rm_arg ra = { obj, "" };
	int r;

	if (strcmp(obj->kind, "lv") && strcmp(obj->kind, "vg") && strcmp(obj->kind, "pv"))
		return sb_err_set(err, -EINVAL, "lvm: unknown object kind '%s'", obj->kind);
	if (!strcmp(obj->kind, "lv") &&
	    (split_id(obj->id, vg, sizeof(vg), lv, sizeof(lv)) || strncmp(vg, "sb_", 3)))
		return sb_err_set(err, -EINVAL, "lvm: refusing to remove %s: not in a stackbench VG (sb_*)", obj->id);
	if (!strcmp(obj->kind, "vg") && strncmp(obj->id, "sb_", 3))
		return sb_err_set(err, -EINVAL, "lvm: refusing to remove VG %s: not a stackbench VG (sb_*)", obj->id);
	r = sb_blockdev_init(err);
	if (r)
		return r;
	r = lvm_scope(obj->extra, err);
	if (r)
		return r;
	(void)sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
	r = sb_retry_busy(rm_once, &ra, SB_BUSY_BUDGET_MS);
	if (r == -EBUSY) {
		char h[512], node[SB_PATH_MAX], dm[2 * SB_NAME_MAX + 16];

		if (!strcmp(obj->kind, "lv")) {
			dm_name(vg, lv, dm, sizeof(dm));
			snprintf(node, sizeof(node), "/dev/mapper/%s", dm);
			sb_holders_describe(node, h, sizeof(h));
		} else {
			snprintf(h, sizeof(h), "in use");
		}
		return sb_err_set(err, -EBUSY, "lvm: %s %s still busy after %d s: %s (%s)", obj->kind, obj->id,
				  SB_BUSY_BUDGET_MS / 1000, h, ra.msg);
	}
	if (r)
		return sb_err_set(err, r, "lvm: removing %s %s failed: %s", obj->kind, obj->id, ra.msg);
	return 0;
}

static bool lvm_exists(const struct sb_state_obj *obj)
{
	return obj_exists(obj);
}

static int lvm_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	char vg[SB_NAME_MAX + 4], lv[SB_NAME_MAX + 4];
	BDLVMVGdata *vgi;
	BDLVMLVdata *lvi;
	GError *gerr = NULL;
	int r;

	sb_layer_lvm_names(l->spec, vg, sizeof(vg), lv, sizeof(lv));
	r = sb_blockdev_init(err);
	if (r)
		return r;
	r = lvm_scope(l->below ? l->below->dev[0] : NULL, err);
	if (r)
		return r;
	vgi = bd_lvm_vginfo(vg, &gerr);
	if (!vgi) {
		r = sb_err_set(err, -ENODEV, "lvm: VG %s: %s", vg, gerr ? gerr->message : "?");
		g_clear_error(&gerr);
		return r;
	}
	lvi = bd_lvm_lvinfo(vg, lv, &gerr);
	if (!lvi) {
		bd_lvm_vgdata_free(vgi);
		r = sb_err_set(err, -ENODEV, "lvm: LV %s/%s: %s", vg, lv, gerr ? gerr->message : "?");
		g_clear_error(&gerr);
		return r;
	}
	json_object_object_add(out, "pv", json_object_new_string(l->below ? l->below->dev[0] : ""));
	json_object_object_add(out, "vg", json_object_new_string(vg));
	json_object_object_add(out, "lv", json_object_new_string(lv));
	json_object_object_add(out, "device", json_object_new_string(l->dev[0]));
	json_object_object_add(out, "extent_size", json_object_new_int64((int64_t)vgi->extent_size));
	json_object_object_add(out, "vg_size", json_object_new_int64((int64_t)vgi->size));
	json_object_object_add(out, "vg_free", json_object_new_int64((int64_t)vgi->free));
	json_object_object_add(out, "lv_size", json_object_new_int64((int64_t)lvi->size));
	json_object_object_add(out, "segtype", lvi->segtype ? json_object_new_string(lvi->segtype) : NULL);
	bd_lvm_lvdata_free(lvi);
	bd_lvm_vgdata_free(vgi);
	return 0;
}

/* Re-attach to an LV that `build` left up: its node follows from the names
 * the spec derives, and it must still exist. */
static int lvm_attach(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	char vg[SB_NAME_MAX + 8], lv[SB_NAME_MAX + 8], dm[2 * SB_NAME_MAX + 16];
	struct stat sb;

	sb_layer_lvm_names(l->spec, vg, sizeof(vg), lv, sizeof(lv));
	dm_name(vg, lv, dm, sizeof(dm));
	snprintf(l->dev[0], sizeof(l->dev[0]), "/dev/mapper/%s", dm);
	if (stat(l->dev[0], &sb) < 0 || !S_ISBLK(sb.st_mode))
		return sb_err_set(err, -ENOENT, "lvm: %s is not there any more", l->dev[0]);
	l->ndev = 1;
	return 0;
}

/* ---- lvm's part of the stack description (src/spec/part.h) ---- */
#define FLD SB_OPT_FLD

static const struct sb_opt lvm_opts[] = {
	{ "vg", SB_OPT_STR, FLD(sb_lvm_spec, vg), "vg0", 0, 0, NULL, NULL,
	  "volume group name (built prefixed sb_)" },
	{ "lv", SB_OPT_STR, FLD(sb_lvm_spec, lv), "data", 0, 0, NULL, NULL,
	  "logical volume name" },
	{ "size", SB_OPT_LVSIZE, FLD(sb_lvm_spec, size), "100%FREE", 0, 0, NULL, NULL,
	  "LV size: 100%FREE, N%FREE or a size" },
	{ "extent_size", SB_OPT_SIZE, FLD(sb_lvm_spec, extent_size), "4MiB", 1024, 16 * SB_GiB, NULL, NULL,
	  "physical extent size, a power of two >= 1KiB" },
	{ .key = NULL },
};

static const struct sb_opt_section lvm_sec = {
	"lvm", offsetof(struct sb_stack_spec, lvm), offsetof(struct sb_stack_spec, lvm.enabled), lvm_opts };

static bool lvm_name_ok(const char *s)
{
	if (!*s || *s == '-' || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("+_.-", *s))
			return false;
	return true;
}

static int check_lvm(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_lvm_spec *l = &s->lvm;

	if (!l->enabled)
		return 0;
	if (!lvm_name_ok(l->vg))
		return sb_spec_fail_at(c, "lvm.vg", false,
				    "lvm.vg: '%s' is not a valid name; use letters, digits and + _ . - (not starting with -)", l->vg);
	if (!lvm_name_ok(l->lv))
		return sb_spec_fail_at(c, "lvm.lv", false,
				    "lvm.lv: '%s' is not a valid name; use letters, digits and + _ . - (not starting with -)", l->lv);
	if (!sb_spec_is_pow2(l->extent_size))
		return sb_spec_fail_at(c, "lvm.extent_size", false,
				    "lvm.extent_size: %llu bytes is not a power of two; use e.g. 4MiB",
				    (unsigned long long)l->extent_size);
	return 0;
}

/* An LV larger than what the loop devices below give cannot be made. */
static int check_lvm_room(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	uint64_t cap = sb_spec_device_bytes(s);
	char a[32], b[32];
	int rc = check_lvm(c, s);

	if (rc < 0 || !s->lvm.enabled || s->devices.kind != SB_DEVICES_LOOP || s->lvm.size_bytes <= cap)
		return rc;
	sb_size_format_human(cap, b, sizeof(b));
	sb_size_format(s->lvm.size_bytes, a, sizeof(a));
	return sb_spec_fail_at(c, "lvm.size", false,
			       "lvm.size: %s is larger than the %s the devices below provide; use N%%FREE or a smaller size",
			       a, b);
}

static void lvm_summary(const struct sb_stack_spec *s, char *buf, size_t len)
{
	char b[32];

	if (!s->lvm.enabled)
		return;
	sb_size_format(s->lvm.extent_size, b, sizeof(b));
	sb_spec_append(buf, len, " → LVM %s/%s %s (%s extents)", s->lvm.vg, s->lvm.lv, s->lvm.size, b);
}

static void lvm_json(const struct sb_stack_spec *s, struct json_object *o)
{
	json_object_object_add(o, "size_bytes", json_object_new_int64((int64_t)s->lvm.size_bytes));
	json_object_object_add(o, "size_pct_free", json_object_new_int64(s->lvm.size_pct_free));
}

static const struct sb_opt lvm_top[] = {
	{ "lvm", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &lvm_sec,
	  "LVM PV/VG/LV (absent: none; lvm: {} for defaults)" },
	{ .key = NULL },
};

static const struct sb_spec_part lvm_part = {
	.parent = "",
	.opts = lvm_top,
	.base = offsetof(struct sb_stack_spec, lvm),
	.check = check_lvm_room,
	.summary = lvm_summary,
	.json = lvm_json,
	.block_device = true,
};

static bool lvm_wanted(const struct sb_stack_spec *spec)
{
	return spec->lvm.enabled;
}

static void lvm_predict(const struct sb_layer *l, char *out, size_t len)
{
	char vg[SB_NAME_MAX + 4], lv[SB_NAME_MAX + 4];

	sb_layer_lvm_names(l->spec, vg, sizeof(vg), lv, sizeof(lv));
	snprintf(out, len, "/dev/%s/%s", vg, lv);
}

/* LV dm names are VG-LV (dashes inside doubled) */
static bool lvm_dm_tail(const char *tail)
{
	return tail[0] == '-' && tail[1] != '-';
}

static void lvm_leftovers(const struct sb_stack *s, struct sb_leftovers *found)
{
	char vg[SB_NAME_MAX + 4], lv[SB_NAME_MAX + 4];

	sb_layer_lvm_names(s->spec, vg, sizeof(vg), lv, sizeof(lv));
	sb_layer_dm_leftovers(found, vg, lvm_dm_tail);
}

/* An LV as VG-LV with dashes inside each part doubled (as lvm names them). */
static void lvm_dm_name(const struct sb_state_obj *o, char *out, size_t len)
{
	const char *p;
	size_t n = 0;

	out[0] = '\0';
	if (strcmp(o->kind, "lv") || !strchr(o->id, '/'))
		return;
	for (p = o->id; *p && n + 3 < len; p++) {
		if (*p == '/') {
			out[n++] = '-';
			continue;
		}
		if (*p == '-')
			out[n++] = '-';
		out[n++] = *p;
	}
	out[n] = '\0';
}

const struct sb_layer_ops sb_layer_lvm = {
	.spec = &lvm_part,
	.order = SB_ORDER_VOLUME,
	.wanted = lvm_wanted,
	.kernel_needs = (const char *const[]){ "dm", NULL },
	.predict_dev = lvm_predict,
	.leftovers = lvm_leftovers,
	.dm_name = lvm_dm_name,
	.name = "lvm",
	.label = sb_layer_label_name,
	.attach = lvm_attach,
	.plan = lvm_plan,
	.build = lvm_build,
	.describe = lvm_describe,
	.teardown = lvm_teardown,
	.exists = lvm_exists,
	.per_layer = true,
};
