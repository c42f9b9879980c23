/* md layer: RAID1 / RAID5 / RAID6 / RAID10 through libblockdev's mdraid plugin (mdadm
 * underneath). The array is named /dev/md/sb-<stack> with --homehost=any so
 * its name does not depend on the host; members' superblocks are zeroed on
 * teardown so later runs on the same backing files never auto-assemble it. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <blockdev/blockdev.h>
#include <blockdev/mdraid.h>
#include <blockdev/utils.h>

#include "core/layer.h"
#include "util/clock.h"
#include "core/stack.h"
#include "core/state.h"
#include "layers/holders.h"
#include "layers/md_int.h"
#include "layers/md_sync.h"
#include "sys/blockdev.h"
#include "sys/sysfs.h"
#include "sys/udev.h"
#include "util/log.h"
#include "util/units.h"

bool sb_md_present(const char *kname)
{
	char p[PATH_MAX];
	struct stat st;

	if (!kname[0])
		return false;
	snprintf(p, sizeof(p), "/sys/block/%s/md", kname);
	return stat(p, &st) == 0;
}

/* kernel name of the md array holding member dev ("" if none) */
static void holder_md(const char *member, char *out, size_t len)
{
	char kname[64], p[PATH_MAX];
	struct dirent *de;
	DIR *d;

	out[0] = '\0';
	sb_sysfs_dev_kname(member, kname, sizeof(kname), NULL);
	if (!kname[0])
		return;
	snprintf(p, sizeof(p), "/sys/class/block/%s/holders", kname);
	d = opendir(p);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "md", 2) && strlen(de->d_name) < len) {
			strcpy(out, de->d_name);
			break;
		}
	closedir(d);
}

/* The state's extra field: "kernel=md127 uuid=U members=/dev/loop0,/dev/loop1" */
static void extra_get(const char *extra, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);
	const char *p = extra;

	out[0] = '\0';
	while ((p = strstr(p, key))) {
		if ((p == extra || p[-1] == ' ') && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " ");

			snprintf(out, len, "%.*s", (int)n, p + kl + 1);
			return;
		}
		p += kl;
	}
}

/* Find the array a state object describes, whether or not its kernel name
 * was recorded: recorded name (if its members are ours), the /dev/md link,
 * then the holders of the recorded members. */
static void md_find(const struct sb_state_obj *obj, char *kname, size_t len)
{
	char members[SB_PATH_MAX], *save = NULL, *m;

	extra_get(obj->extra, "members", members, sizeof(members));
	extra_get(obj->extra, "kernel", kname, len);
	if (sb_md_present(kname)) {
		char first[SB_PATH_MAX], h[32];

		snprintf(first, sizeof(first), "%s", members);
		first[strcspn(first, ",")] = '\0';
		if (!first[0])
			return;
		holder_md(first, h, sizeof(h));
		if (!strcmp(h, kname))
			return;
	}
	sb_sysfs_dev_kname(obj->id, kname, len, NULL);
	if (sb_md_present(kname))
		return;
	kname[0] = '\0';
	for (m = strtok_r(members, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		holder_md(m, kname, len);
		if (kname[0])
			return;
	}
}

/* mdadm's options beyond level/devices/metadata, for the plan and the
 * build alike (r->md_layout was normalised by md_spec.c's check). */
static void md_opt_words(const struct sb_raid_spec *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->level != 1)
		snprintf(buf, len, " --layout=%s --chunk=%lluK", r->md_layout,
			 (unsigned long long)(r->chunk / 1024));
	if (!strcmp(r->consistency, "ppl"))
		snprintf(buf + strlen(buf), len - strlen(buf), " --consistency-policy=ppl");
}

static void md_plan(const struct sb_layer *l, struct sb_plan *p)
{
	const struct sb_raid_spec *r = &l->spec->raid;
	char path[SB_PATH_MAX], opts[128], members[1024] = "";
	bool parity = r->level == 5 || r->level == 6;
	unsigned i;

	sb_layer_md_name(l->spec, path, sizeof(path));
	md_opt_words(r, opts, sizeof(opts));
	for (i = 0; l->below && i < l->below->ndev && i < r->devices; i++) {
		size_t u = strlen(members);

		snprintf(members + u, sizeof(members) - u, "%s%s", i ? "," : "", l->below->dev[i]);
	}
	if (!members[0])
		snprintf(members, sizeof(members), "the %u devices below", r->devices);
	sb_plan_build(p, "md: mdadm --create %s --level=%u%s --raid-devices=%u --metadata=%s --bitmap=%s%s --homehost=any on %s (via libblockdev)%s%s",
		      path, r->level, opts, r->devices,
		      r->metadata[0] ? r->metadata : "1.2", r->bitmap[0] ? r->bitmap : "internal",
		      r->sync == SB_SYNC_ASSUME_CLEAN ? " --assume-clean" : "", members,
		      r->sync == SB_SYNC_WAIT ? "; wait for the initial sync to finish, sampling md's sync_speed" : "",
		      parity && r->sync == SB_SYNC_ASSUME_CLEAN ?
		      " (note: --assume-clean on RAID5/6 leaves the parity uncomputed: fine for a benchmark, unsafe for real data; sync: wait computes it)" : "");
	sb_plan_teardown(p, "md: udev settle, mdadm --stop %s (retry while busy, at most %d s), then mdadm --zero-superblock on each member",
			 path, SB_BUSY_BUDGET_MS / 1000);
}

/* After the create: the kernel name and the array UUID, recorded in the
 * state for teardown. */
static int md_record(struct sb_layer *l, const char *path, const char *member0, const char *members,
		     struct sb_err *err)
{
	char extra[SB_PATH_MAX], node[SB_PATH_MAX];
	struct md_priv *priv = calloc(1, sizeof(*priv));
	int r;

	if (!priv)
		return sb_err_set(err, -ENOMEM, "md: out of memory");
	l->priv = priv;
	/* The kernel name from the members' holders: does not depend on udev
	 * having made the /dev/md link yet. */
	holder_md(member0, priv->kname, sizeof(priv->kname));
	if (!priv->kname[0])
		return sb_err_set(err, -EIO, "md: %s was created but %s has no md holder", path, member0);
	snprintf(node, sizeof(node), "/dev/%s", priv->kname);
	/* The node only: the layer above opens and writes it, which udev's
	 * probe of the new array at the same time does not disturb. */
	r = sb_udev_wait_devnode(node, SB_UDEV_TIMEOUT_MS, err);
	if (r)
		return r;
	/* The UUID from the member's superblock mdadm just wrote: the same
	 * value as `mdadm --detail`, without running it. */
	if (sb_blockdev_md_member_uuid(member0, priv->uuid, sizeof(priv->uuid)))
		sb_warn("md: no md superblock readable on %s right after the create", member0);
	if (snprintf(extra, sizeof(extra), "kernel=%s uuid=%s members=%s", priv->kname,
		     priv->uuid[0] ? priv->uuid : "-", members) >= (int)sizeof(extra))
		return sb_err_set(err, -ENAMETOOLONG, "md: member list too long to record");
	r = sb_state_set_extra(&l->stack->state, "md", "md", path, extra, err);
	if (r)
		return r;
	snprintf(l->dev[0], sizeof(l->dev[0]), "%s", node);
	l->ndev = 1;
	return 0;
}

/* sync: wait — wait for and sample the initial sync; say what a full-size
 * array would take (raid.estimate_member_size). */
static int md_sync(struct sb_layer *l, struct md_priv *priv, uint64_t member_bytes, double t0, struct sb_err *err)
{
	char line[256];
	int r;

	priv->sync = calloc(1, sizeof(*priv->sync));
	if (!priv->sync)
		return sb_err_set(err, -ENOMEM, "md: out of memory");
	r = sb_md_sync_wait(priv->kname, member_bytes, t0, l->ctx ? l->ctx->stop : NULL, priv->sync, err);
	if (r)
		return r;
	sb_info("md: %s resync finished in %.1f s (md's action: %s; %.1f MB/s per member; md reports KiB/s, converted to 10^6 B/s)",
		priv->kname, priv->sync->duration,
		priv->sync->action[0] ? priv->sync->action : "done before the first look",
		priv->sync->duration > 0 ? (double)priv->sync->member_bytes / priv->sync->duration / 1e6 : 0);
	sb_md_sync_estimate(priv->sync, &l->spec->raid, line, sizeof(line));
	if (line[0])
		sb_info("md: %s", line);
	return 0;
}

/* Options libblockdev has no parameter for go as extra mdadm args
 * (at most 5; lay holds the --layout word). */
static unsigned md_extra_args(const struct sb_raid_spec *rs, BDExtraArg *args, char *lay, size_t laylen)
{
	unsigned na = 0;

	if (rs->level != 1) {
		snprintf(lay, laylen, "--layout=%s", rs->md_layout);
		args[na++] = (BDExtraArg){ lay, NULL };
	}
	if (!strcmp(rs->consistency, "ppl"))
		args[na++] = (BDExtraArg){ "--consistency-policy=ppl", NULL };
	/* mdadm adds an internal bitmap on its own to large arrays */
	if (!strcmp(rs->bitmap, "none"))
		args[na++] = (BDExtraArg){ "--bitmap=none", NULL };
	if (rs->sync == SB_SYNC_ASSUME_CLEAN)
		args[na++] = (BDExtraArg){ "--assume-clean", NULL };
	args[na++] = (BDExtraArg){ "--homehost=any", NULL };
	return na;
}

static int md_build(struct sb_layer *l, struct sb_err *err)
{
	const struct sb_raid_spec *rs = &l->spec->raid;
	const gchar *disks[SB_MAX_DISKS + 1];
	BDExtraArg args[8], *argp[9];
	char path[SB_PATH_MAX], extra[SB_PATH_MAX], members[SB_PATH_MAX - 64] = "", level[8];
	char lay[48];
	struct md_priv *priv;
	GError *gerr = NULL;
	unsigned i, na = 0;
	double t0;
	int r;

	if (!l->below || l->below->ndev < rs->devices || rs->devices < 2)
		return sb_err_set(err, -EINVAL, "md: RAID%u needs %u devices, %u below", rs->level, rs->devices,
				  l->below ? l->below->ndev : 0);
	r = sb_blockdev_require(BD_PLUGIN_MDRAID, err);
	if (r)
		return r;
	sb_layer_md_name(l->spec, path, sizeof(path));
	if (access(path, F_OK) == 0)
		return sb_err_set(err, -EEXIST, "md: %s already exists (an earlier run? try `stackbench teardown %s`)",
				  path, l->spec->name);
	for (i = 0; i < rs->devices; i++) {
		size_t u = strlen(members);

		disks[i] = l->below->dev[i];
		snprintf(members + u, sizeof(members) - u, "%s%s", i ? "," : "", l->below->dev[i]);
	}
	disks[rs->devices] = NULL;
	snprintf(level, sizeof(level), "raid%u", rs->level);

	na = md_extra_args(rs, args, lay, sizeof(lay));
	for (i = 0; i < na; i++)
		argp[i] = &args[i];
	argp[na] = NULL;

	if (snprintf(extra, sizeof(extra), "members=%s", members) >= (int)sizeof(extra))
		return sb_err_set(err, -ENAMETOOLONG, "md: member list too long to record");
	r = sb_state_add(&l->stack->state, "md", "md", path, extra, err);
	if (r)
		return r;
	t0 = sb_clock_s();
	if (!bd_md_create(path, level, disks, 0, rs->metadata[0] ? rs->metadata : "1.2",
			  strcmp(rs->bitmap, "none") != 0, rs->level != 1 ? rs->chunk : 0,
			  (const BDExtraArg **)argp, &gerr)) {
		r = sb_err_set(err, -EIO, "md: creating %s (RAID%u on %s) failed: %s", path, rs->level, members,
			       gerr ? gerr->message : "?");
		g_clear_error(&gerr);
		return r;
	}
	r = md_record(l, path, disks[0], members, err);
	if (r)
		return r;
	r = sb_md_tune(rs, l->dev[0], err);
	if (r)
		return r;
	priv = l->priv;
	if (rs->sync == SB_SYNC_WAIT)
		return md_sync(l, priv, sb_sysfs_dev_sectors(disks[0]) * 512, t0, err);
	return 0;
}

struct stop_arg {
	const char *node;
	char msg[512];
};

static int stop_once(void *a)
{
	struct stop_arg *s = a;
	GError *gerr = NULL;
	char kname[32];

	if (!bd_md_deactivate(s->node, &gerr)) {
		snprintf(s->msg, sizeof(s->msg), "%s", gerr ? gerr->message : "?");
		g_clear_error(&gerr);
		sb_sysfs_dev_kname(s->node, kname, sizeof(kname), NULL);
		if (!sb_md_present(kname))
			return 0;
		/* mdadm says "Cannot get exclusive access" / "Device or resource busy" */
		return -EBUSY;
	}
	return 0;
}

/* Zero the members' superblocks (only those of this array, by UUID) so
 * udev's incremental assembly never brings it back: one mdadm run for all
 * of them. members: "a,b,..." (modified). */
static int md_zero_members(char *members, const char *uuid, struct sb_err *err)
{
	const gchar *argv[SB_MAX_DISKS + 3] = { "mdadm", "--zero-superblock" };
	char *m, *save = NULL, list[SB_PATH_MAX] = "";
	GError *gerr = NULL;
	unsigned n = 2;
	int r;

	for (m = strtok_r(members, ",", &save); m && n < SB_MAX_DISKS + 2; m = strtok_r(NULL, ",", &save)) {
		char h[32], have[64];
		struct stat st;

		if (stat(m, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		holder_md(m, h, sizeof(h));
		if (h[0]) {
			sb_warn("md: %s is (again) a member of %s, leaving its superblock alone", m, h);
			continue;
		}
		/* libblkid reads the member's superblock (mdadm --examine would be
		 * three mdadm runs per member) */
		if (sb_blockdev_md_member_uuid(m, have, sizeof(have)))
			continue; /* no md superblock: nothing to zero */
		if (uuid[0] && strcmp(uuid, "-") && strcmp(have, uuid)) {
			sb_warn("md: %s belongs to array %s, not %s: leaving it alone", m, have, uuid);
			continue;
		}
		argv[n++] = m;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", n > 3 ? ", " : "", m);
	}
	argv[n] = NULL;
	if (n == 2 || bd_utils_exec_and_report_error(argv, NULL, &gerr))
		return 0;
	r = sb_err_set(err, -EIO, "md: zeroing the superblock on %s failed: %s", list, gerr ? gerr->message : "?");
	g_clear_error(&gerr);
	return r;
}

static int md_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	char kname[32], uuid[64], members[SB_PATH_MAX], node[SB_PATH_MAX];
	struct stop_arg s;
	int r, i;

	if (strcmp(obj->kind, "md"))
		return sb_err_set(err, -EINVAL, "md: unknown object kind '%s'", obj->kind);
	if (strncmp(obj->id, "/dev/md/sb-", 11))
		return sb_err_set(err, -EINVAL, "md: refusing to stop %s: not a stackbench array", obj->id);
	r = sb_blockdev_require(BD_PLUGIN_MDRAID, err);
	if (r)
		return r;
	(void)sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
	md_find(obj, kname, sizeof(kname));
	if (kname[0]) {
		snprintf(node, sizeof(node), "/dev/%s", kname);
		s.node = node;
		s.msg[0] = '\0';
		r = sb_retry_busy(stop_once, &s, SB_BUSY_BUDGET_MS);
		if (r == -EBUSY) {
			char h[512];

			sb_holders_describe(node, h, sizeof(h));
			return sb_err_set(err, -EBUSY, "md: %s (%s) still busy after %d s: %s (%s)", obj->id, kname,
					  SB_BUSY_BUDGET_MS / 1000, h, s.msg);
		}
		/* the kernel removes /sys/block/mdX shortly after the stop */
		for (i = 0; i < 500 && sb_md_present(kname); i++)
			usleep(10000);
		if (sb_md_present(kname))
			return sb_err_set(err, -EBUSY, "md: %s stopped but /sys/block/%s is still there", obj->id, kname);
	}
	(void)sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
	extra_get(obj->extra, "uuid", uuid, sizeof(uuid));
	extra_get(obj->extra, "members", members, sizeof(members));
	return md_zero_members(members, uuid, err);
}

static bool md_exists(const struct sb_state_obj *obj)
{
	char kname[32];

	md_find(obj, kname, sizeof(kname));
	return kname[0] != '\0';
}

static void md_release(struct sb_layer *l)
{
	struct md_priv *priv = l->priv;

	if (priv)
		free(priv->sync);
	free(l->priv);
	l->priv = NULL;
}

/* Re-attach to the array `build` left up: find it from the recorded md
 * object (kernel name, /dev/md link or the members' holder), so describe
 * and the fault timer see the live array. */
static int md_attach(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	const struct sb_state_obj *obj = NULL;
	struct md_priv *priv;
	unsigned i;

	for (i = 0; i < st->nobj; i++)
		if (!strcmp(st->obj[i].layer, "md") && !strcmp(st->obj[i].kind, "md"))
			obj = &st->obj[i];
	if (!obj)
		return sb_err_set(err, -ENOENT, "md: the state records no array");
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return sb_err_set(err, -ENOMEM, "out of memory");
	md_find(obj, priv->kname, sizeof(priv->kname));
	if (!priv->kname[0]) {
		free(priv);
		return sb_err_set(err, -ENOENT, "md: the array %s is not there any more", obj->id);
	}
	extra_get(obj->extra, "uuid", priv->uuid, sizeof(priv->uuid));
	l->priv = priv;
	snprintf(l->dev[0], sizeof(l->dev[0]), "/dev/%s", priv->kname);
	l->ndev = 1;
	return 0;
}

extern const struct sb_spec_part sb_spec_md;   /* md_spec.c */

static bool md_wanted(const struct sb_stack_spec *spec)
{
	return spec->raid.enabled;
}

static void md_predict(const struct sb_layer *l, char *out, size_t len)
{
	sb_layer_md_name(l->spec, out, len);
}

static void md_leftovers(const struct sb_stack *s, struct sb_leftovers *found)
{
	char path[PATH_MAX];

	sb_layer_md_name(s->spec, path, sizeof(path));
	if (!access(path, F_OK))
		sb_leftover_add(found, path, "", "");
}

/* "RAID1", "RAID10": the level md reports, as the tables name it. */
static void md_label(struct json_object *built, char *out, size_t len)
{
	char lvl[32];

	sb_layer_label_upper(built, "level", "", lvl, sizeof(lvl));
	if (!lvl[0])
		out[0] = '\0';
	else
		snprintf(out, len, "RAID%s", strncmp(lvl, "RAID", 4) ? lvl : lvl + 4);
}

const struct sb_layer_ops sb_layer_md = {
	.spec = &sb_spec_md,
	.order = SB_ORDER_ARRAY,
	.wanted = md_wanted,
	.kernel_needs = (const char *const[]){ "md", NULL },
	.predict_dev = md_predict,
	.leftovers = md_leftovers,
	.name = "md",
	.label = md_label,
	.label_if_differs = true,
	.attach = md_attach,
	.plan = md_plan,
	.build = md_build,
	.describe = sb_md_describe,
	.teardown = md_teardown,
	.exists = md_exists,
	.release = md_release,
	.per_layer = true,
	.pl_model = sb_md_pl_model,
	.pl_observe = sb_md_pl_observe,
	.capture = sb_md_capture,
	.fault_target = true,
	.report = &sb_md_report,
};
