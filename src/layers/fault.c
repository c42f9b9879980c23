/* fault layer: dm-delay or dm-flakey over chosen members, between the
 * devices (loop/disks) and md, so a stack can run with a slow or an
 * unreliable disk (faults.delay / faults.flakey). Members without a fault
 * pass through unchanged: dev[i] is the device below, or
 * /dev/mapper/sb-NAME-fault-I over it. Device-mapper through libdevmapper
 * (not the dmsetup CLI), with udev cookies so the node exists when create
 * returns. State objects: "dm" sb-NAME-fault-I, extra "member=I dev=/dev/loopN". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/layer.h"
#include "core/stack.h"
#include "core/state.h"
#include "layers/holders.h"
#include "sys/dm.h"
#include "sys/sysfs.h"
#include "sys/udev.h"
#include "util/log.h"

static void fault_name(const struct sb_stack_spec *spec, unsigned member, char *out, size_t len)
{
	snprintf(out, len, "sb-%s-fault-%u", spec->name, member);
}

/* Which fault member i gets: "delay", "flakey" or NULL. */
static const char *fault_kind(const struct sb_stack_spec *spec, unsigned i)
{
	if (spec->faults.delay.enabled && spec->faults.delay.member == i)
		return "delay";
	if (spec->faults.flakey.enabled && spec->faults.flakey.member == i)
		return "flakey";
	return NULL;
}

/* dm table parameters after "<start> <len> <target>": the device, offset 0,
 * then the target's own arguments. */
static void fault_params(const struct sb_stack_spec *spec, const char *kind, const char *dev,
			 char *out, size_t len)
{
	if (!strcmp(kind, "delay"))
		snprintf(out, len, "%s 0 %llu", dev,
			 (unsigned long long)(spec->faults.delay.latency_ns / 1000000ULL));
	else
		snprintf(out, len, "%s 0 %llu %llu", dev,
			 (unsigned long long)(spec->faults.flakey.up_ns / 1000000000ULL),
			 (unsigned long long)(spec->faults.flakey.down_ns / 1000000000ULL));
}

static void fault_plan(const struct sb_layer *l, struct sb_plan *p)
{
	unsigned n = l->spec->devices.kind == SB_DEVICES_LOOP ? l->spec->devices.loop.count : l->spec->devices.ndisks;
	char name[SB_NAME_MAX + 32], params[SB_PATH_MAX + 64], below[SB_PATH_MAX];
	unsigned i;

	for (i = 0; i < n; i++) {
		const char *kind = fault_kind(l->spec, i);

		if (!kind)
			continue;
		fault_name(l->spec, i, name, sizeof(name));
		if (l->below && i < l->below->ndev)
			snprintf(below, sizeof(below), "%s", l->below->dev[i]);
		else
			snprintf(below, sizeof(below), "DEV%u", i);
		fault_params(l->spec, kind, below, params, sizeof(params));
		sb_plan_build(p, "fault: dm create /dev/mapper/%s over member %u, table \"0 SECTORS %s %s\" (%s; via libdevmapper); "
			      "the other members pass through", name, i, kind, params,
			      !strcmp(kind, "delay") ? "every read and write delayed" : "all I/O fails in the down interval");
		sb_plan_teardown(p, "fault: udev settle, dm remove %s (retry while busy, at most %d s)",
				 name, SB_BUSY_BUDGET_MS / 1000);
	}
	if (l->spec->faults.fail.enabled)
		sb_plan_build(p, "fault: (during the benchmark) write a verify file, then %.1f s into the benchmark write "
			      "\"faulty\" to /sys/block/MD/md/dev-MEMBER/state for RAID member %u; record the md state "
			      "after every suite; read the verify file back at the end",
			      (double)l->spec->faults.fail.after_ns / 1e9, l->spec->faults.fail.member);
}

static int fault_build(struct sb_layer *l, struct sb_err *err)
{
	char name[SB_NAME_MAX + 32], node[SB_PATH_MAX], params[SB_PATH_MAX + 64], extra[SB_PATH_MAX];
	unsigned i;
	int rc;

	if (!l->below || !l->below->ndev)
		return sb_err_set(err, -EINVAL, "fault: no devices below");
	for (i = 0; i < l->below->ndev; i++) {
		const char *kind = fault_kind(l->spec, i);
		unsigned long long sectors;

		snprintf(l->dev[i], sizeof(l->dev[i]), "%s", l->below->dev[i]);
		if (!kind)
			continue;
		fault_name(l->spec, i, name, sizeof(name));
		sectors = sb_sysfs_dev_sectors(l->below->dev[i]);
		if (!sectors)
			return sb_err_set(err, -ENODEV, "fault: cannot read the size of %s", l->below->dev[i]);
		snprintf(extra, sizeof(extra), "member=%u dev=%s", i, l->below->dev[i]);
		rc = sb_state_add(&l->stack->state, "fault", "dm", name, extra, err);
		if (rc)
			return rc;
		fault_params(l->spec, kind, l->below->dev[i], params, sizeof(params));
		rc = sb_dm_create(name, sectors, kind, params);
		if (rc)
			return sb_err_set(err, rc, "fault: creating dm device %s (%s %s) failed: %s", name, kind, params,
					  sb_dm_last()[0] ? sb_dm_last() :
					  "device-mapper error (is the dm-delay/dm-flakey module there?)");
		snprintf(node, sizeof(node), "/dev/mapper/%s", name);
		rc = sb_udev_wait_node(node, SB_UDEV_TIMEOUT_MS, err);
		if (rc)
			return rc;
		snprintf(l->dev[i], sizeof(l->dev[i]), "%s", node);
		sb_info("fault: %s over member %u (%s): %s", node, i, l->below->dev[i], kind);
	}
	l->ndev = l->below->ndev;
	return 0;
}

static int fault_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	if (strcmp(obj->kind, "dm"))
		return sb_err_set(err, -EINVAL, "fault: unknown object kind '%s'", obj->kind);
	if (strncmp(obj->id, "sb-", 3) || !strstr(obj->id, "-fault-"))
		return sb_err_set(err, -EINVAL, "fault: refusing to remove %s: not a stackbench fault device", obj->id);
	return sb_holders_dm_remove("fault", obj->id, err);
}

static bool fault_exists(const struct sb_state_obj *obj)
{
	return sb_dm_exists(obj->id) != 0;   /* cannot ask: say it may be there */
}

/* dm status line of the target ("delay": the device and delay; "flakey":
 * up/down), plus which member it wraps. */
static int fault_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	struct json_object *arr = json_object_new_array();
	char name[SB_NAME_MAX + 32];
	unsigned i;

	for (i = 0; i < l->ndev; i++) {
		const char *kind = fault_kind(l->spec, i);
		struct json_object *o = json_object_new_object();
		struct sb_dm_target t;

		json_object_object_add(o, "member", json_object_new_int((int)i));
		json_object_object_add(o, "device", json_object_new_string(l->dev[i]));
		sb_sysfs_dev_kname(l->dev[i], name, sizeof(name), NULL);
		json_object_object_add(o, "kernel_name", json_object_new_string(name));
		json_object_object_add(o, "fault", kind ? json_object_new_string(kind) : NULL);
		if (kind) {
			fault_name(l->spec, i, name, sizeof(name));
			json_object_object_add(o, "over", json_object_new_string(l->below ? l->below->dev[i] : ""));
			if (!sb_dm_first(name, 0, &t)) {
				json_object_object_add(o, "target", json_object_new_string(t.target));
				json_object_object_add(o, "table", json_object_new_string(t.params));
				json_object_object_add(o, "sectors", json_object_new_int64((int64_t)t.sectors));
			}
		}
		json_object_array_add(arr, o);
	}
	json_object_object_add(out, "members", arr);
	(void)err;
	return 0;
}

/* `bench STACK` on a stack an earlier command built: the devices below,
 * with the recorded fault devices in their members' places. */
static int fault_attach(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	unsigned i;

	if (!l->below)
		return sb_err_set(err, -EINVAL, "fault: no devices below");
	for (i = 0; i < l->below->ndev; i++)
		snprintf(l->dev[i], sizeof(l->dev[i]), "%s", l->below->dev[i]);
	l->ndev = l->below->ndev;
	for (i = 0; i < st->nobj; i++) {
		const char *m;
		unsigned member;

		if (strcmp(st->obj[i].layer, "fault") || strcmp(st->obj[i].kind, "dm"))
			continue;
		m = strstr(st->obj[i].extra, "member=");
		if (!m || sscanf(m, "member=%u", &member) != 1 || member >= l->ndev)
			continue;
		snprintf(l->dev[member], sizeof(l->dev[member]), "/dev/mapper/%s", st->obj[i].id);
	}
	return 0;
}


/* ---- the faults' part of the stack description (src/spec/part.h) ---- */
#define FLD SB_OPT_FLD

static const struct sb_opt fault_delay_opts[] = {
	{ "member", SB_OPT_U32, FLD(sb_fault_delay_spec, member), "0", 0, SB_MAX_DISKS - 1, NULL, NULL,
	  "which device (0-based, below the RAID) gets a dm-delay device over it" },
	{ "latency", SB_OPT_DURATION, FLD(sb_fault_delay_spec, latency_ns), "50ms", 0, 0, NULL, NULL,
	  "added to every read and write of that member, whole milliseconds (1ms..10s)" },
	{ .key = NULL },
};

static const struct sb_opt_section fault_delay_sec = {
	"faults.delay", offsetof(struct sb_stack_spec, faults.delay),
	offsetof(struct sb_stack_spec, faults.delay.enabled), fault_delay_opts };

static const struct sb_opt fault_flakey_opts[] = {
	{ "member", SB_OPT_U32, FLD(sb_fault_flakey_spec, member), "0", 0, SB_MAX_DISKS - 1, NULL, NULL,
	  "which device (0-based, below the RAID) gets a dm-flakey device over it" },
	{ "up", SB_OPT_DURATION, FLD(sb_fault_flakey_spec, up_ns), "5s", 0, 0, NULL, NULL,
	  "time the member works, whole seconds (1s..1h)" },
	{ "down", SB_OPT_DURATION, FLD(sb_fault_flakey_spec, down_ns), "1s", 0, 0, NULL, NULL,
	  "then time every I/O to it fails, whole seconds (1s..1h)" },
	{ .key = NULL },
};

static const struct sb_opt_section fault_flakey_sec = {
	"faults.flakey", offsetof(struct sb_stack_spec, faults.flakey),
	offsetof(struct sb_stack_spec, faults.flakey.enabled), fault_flakey_opts };

static const struct sb_opt fault_fail_opts[] = {
	{ "member", SB_OPT_U32, FLD(sb_fault_fail_spec, member), "0", 0, SB_MAX_DISKS - 1, NULL, NULL,
	  "which RAID member (0-based) md marks faulty" },
	{ "after", SB_OPT_DURATION, FLD(sb_fault_fail_spec, after_ns), "3s", 0, 0, NULL, NULL,
	  "how long into the benchmark" },
	{ .key = NULL },
};

static const struct sb_opt_section fault_fail_sec = {
	"faults.fail", offsetof(struct sb_stack_spec, faults.fail),
	offsetof(struct sb_stack_spec, faults.fail.enabled), fault_fail_opts };

static const struct sb_opt faults_opts[] = {
	{ "delay", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &fault_delay_sec,
	  "dm-delay over one member: a slow disk" },
	{ "flakey", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &fault_flakey_sec,
	  "dm-flakey over one member: a disk that fails all I/O for `down` every `up`" },
	{ "fail", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &fault_fail_sec,
	  "md marks one member faulty during the benchmark (needs raid)" },
	{ .key = NULL },
};

static const struct sb_opt_section faults_sec = {
	"faults", offsetof(struct sb_stack_spec, faults), offsetof(struct sb_stack_spec, faults.enabled), faults_opts };

static int check_member(const struct sb_spec_ctx *c, const char *key, uint32_t member, uint32_t have)
{
	char path[64];

	if (member < have)
		return 0;
	snprintf(path, sizeof(path), "faults.%s.member", key);
	return sb_spec_fail_at(c, path, false, "%s: %u is not a device of this stack; it has %u (members 0..%u)",
			    path, member, have, have - 1);
}

static int check_whole(const struct sb_spec_ctx *c, const char *path, uint64_t ns, uint64_t unit,
		       uint64_t min, uint64_t max, const char *what)
{
	if (ns % unit == 0 && ns >= min && ns <= max)
		return 0;
	return sb_spec_fail_at(c, path, false, "%s: must be %s", path, what);
}

/* Faults: members exist, one dm device per member, fail needs md. */
static int check_faults(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_faults_spec *f = &s->faults;
	uint32_t have = s->devices.kind == SB_DEVICES_LOOP ? s->devices.loop.count : s->devices.ndisks;
	const uint64_t ms = 1000000ULL, sec = 1000000000ULL;
	int rc;

	if (!f->enabled)
		return 0;
	if (!f->delay.enabled && !f->flakey.enabled && !f->fail.enabled)
		return sb_spec_fail_at(c, "faults", true, "faults: give at least one of delay, flakey, fail");
	if (f->delay.enabled &&
	    ((rc = check_member(c, "delay", f->delay.member, have)) < 0 ||
	     (rc = check_whole(c, "faults.delay.latency", f->delay.latency_ns, ms, ms, 10 * sec,
			       "whole milliseconds from 1ms to 10s")) < 0))
		return rc;
	if (f->flakey.enabled &&
	    ((rc = check_member(c, "flakey", f->flakey.member, have)) < 0 ||
	     (rc = check_whole(c, "faults.flakey.up", f->flakey.up_ns, sec, sec, 3600 * sec,
			       "whole seconds from 1s to 1h (dm-flakey counts seconds)")) < 0 ||
	     (rc = check_whole(c, "faults.flakey.down", f->flakey.down_ns, sec, sec, 3600 * sec,
			       "whole seconds from 1s to 1h (dm-flakey counts seconds)")) < 0))
		return rc;
	if (f->delay.enabled && f->flakey.enabled && f->delay.member == f->flakey.member)
		return sb_spec_fail_at(c, "faults.flakey.member", false,
				    "faults.flakey.member: member %u already has faults.delay; one fault device per member",
				    f->flakey.member);
	if (f->fail.enabled) {
		if (!s->raid.enabled)
			return sb_spec_fail_at(c, "faults.fail", true,
					    "faults.fail: needs a raid section (md marks a RAID member faulty)");
		rc = check_member(c, "fail", f->fail.member, have);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const struct sb_opt faults_top[] = {
	{ "faults", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &faults_sec,
	  "faults injected into the run: delay, flakey, fail (absent: none)" },
	{ .key = NULL },
};

static const struct sb_spec_part fault_part = {
	.parent = "",
	.opts = faults_top,
	.base = offsetof(struct sb_stack_spec, faults),
	.check = check_faults,
};

static bool fault_wanted(const struct sb_stack_spec *spec)
{
	return spec->faults.enabled;
}

/* faults.fail is md's own (mdadm --fail); delay and flakey are dm targets. */
static void fault_needs(const struct sb_stack_spec *spec, struct sb_kernel_needs *n)
{
	if (spec->faults.delay.enabled || spec->faults.flakey.enabled)
		sb_kernel_need(n, "dm");
}

const struct sb_layer_ops sb_layer_fault = {
	.spec = &fault_part,
	.order = SB_ORDER_MEMBER,
	.wanted = fault_wanted,
	.needs = fault_needs,
	.name = "fault",
	.plan = fault_plan,
	.build = fault_build,
	.describe = fault_describe,
	.teardown = fault_teardown,
	.exists = fault_exists,
	.attach = fault_attach,
	.per_layer = true,
};
