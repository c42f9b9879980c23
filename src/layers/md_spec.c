/* md's part of the stack description (src/spec/part.h): the raid keys,
 * their derived defaults and rules, and md's piece of the summary. In its
 * own file next to md.c only because md.c is already ~600 lines. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "layers/md_sync.h"
#include "spec/part.h"
#include "util/units.h"

#define FLD SB_OPT_FLD

static const char *const raid_levels[] = { "1", "5", "6", "10", NULL };
static const char *const md_metadata[] = { "0.90", "1.0", "1.1", "1.2", NULL };
static const char *const md_bitmap[] = { "none", "internal", NULL };
static const char *const md_sync[] = { "assume-clean", "wait", NULL };
static const char *const md_consistency[] = { "resync", "bitmap", "ppl", NULL };

static const struct sb_opt raid_opts[] = {
	{ "level", SB_OPT_U32, FLD(sb_raid_spec, level), "1", 0, 0, raid_levels, NULL,
	  "md RAID level" },
	{ "devices", SB_OPT_U32, FLD(sb_raid_spec, devices), NULL, 1, SB_MAX_DISKS, NULL, NULL,
	  "member count (default: 2 for RAID1, 3 for RAID5, 4 for RAID6 and RAID10); must equal the loop count or number of disks" },
	{ "chunk", SB_OPT_SIZE, FLD(sb_raid_spec, chunk), "512KiB", 4096, 1ULL << 30, NULL, NULL,
	  "chunk size for RAID5/6/10, a power of two >= 4KiB (mdadm's default 512KiB)" },
	{ "layout", SB_OPT_STR, FLD(sb_raid_spec, layout), NULL, 0, 0, NULL, NULL,
	  "RAID10: near2|far2|offset2 (or n2|f2|o2), 2..4 copies (default near2); "
	  "RAID5/6: left-symmetric (default), left-asymmetric, right-symmetric, right-asymmetric (or ls|la|rs|ra), "
	  "parity-first, parity-last; RAID6 also ddf-zero-restart, ddf-N-restart, ddf-N-continue and the "
	  "RAID5-to-6 layouts left-symmetric-6, right-symmetric-6, left-asymmetric-6, right-asymmetric-6, parity-first-6" },
	{ "metadata", SB_OPT_ENUM, FLD(sb_raid_spec, metadata), "1.2", 0, 0, md_metadata, NULL,
	  "md superblock version" },
	{ "bitmap", SB_OPT_ENUM, FLD(sb_raid_spec, bitmap), "internal", 0, 0, md_bitmap, NULL,
	  "write-intent bitmap" },
	{ "sync", SB_OPT_ENUMINT, FLD(sb_raid_spec, sync), "assume-clean", 0, 0, md_sync, NULL,
	  "assume-clean skips the initial resync (benchmarks; on RAID5/6 the parity is then never computed: not for real data); "
	  "wait waits for it and records md's sync speed" },
	{ "consistency_policy", SB_OPT_ENUM, FLD(sb_raid_spec, consistency), NULL, 0, 0, md_consistency, NULL,
	  "mdadm --consistency-policy after an unclean shutdown: resync, bitmap (default with a bitmap, else resync), "
	  "ppl (RAID5 only, partial parity log against the write hole; no bitmap)" },
	{ "estimate_member_size", SB_OPT_SIZE, FLD(sb_raid_spec, estimate_member), "0", 0, 1ULL << 60, NULL, NULL,
	  "with sync: wait, also report how long a full initial sync and a rebuild would take on members of this size "
	  "(e.g. 4TB) at the measured speed; 0: no estimate" },
	{ "stripe_cache_size", SB_OPT_U32, FLD(sb_raid_spec, stripe_cache_size), "0", 0, 32768, NULL, NULL,
	  "RAID5/6: md/stripe_cache_size, stripe heads (a page per member each) md gathers writes in, 17..32768 "
	  "(0: the kernel's 256); more lets sequential writes fill whole stripes" },
	{ "sync_speed_min", SB_OPT_U32, FLD(sb_raid_spec, sync_speed_min), "0", 0, 1U << 30, NULL, NULL,
	  "md/sync_speed_min in KiB/s per member: the resync speed md keeps even under other I/O (0: the system's)" },
	{ "sync_speed_max", SB_OPT_U32, FLD(sb_raid_spec, sync_speed_max), "0", 0, 1U << 30, NULL, NULL,
	  "md/sync_speed_max in KiB/s per member (0: the system's)" },
	{ .key = NULL },
};

static const struct sb_opt_section raid_sec = {
	"raid", offsetof(struct sb_stack_spec, raid), offsetof(struct sb_stack_spec, raid.enabled), raid_opts };

/* near2/far2/offset2, n2/f2/o2, with 2..4 copies. */
static int parse_layout(const char *s, char *md, size_t mdlen, char *canon, size_t clen, uint32_t *copies)
{
	static const char *const longn[] = { "near", "far", "offset" };
	static const char shortn[] = { 'n', 'f', 'o' };
	size_t i, n;

	for (i = 0; i < 3; i++) {
		n = strlen(longn[i]);
		if (!strncmp(s, longn[i], n))
			break;
		if (s[0] == shortn[i] && isdigit((unsigned char)s[1])) {
			n = 1;
			break;
		}
	}
	if (i == 3 || s[n] < '2' || s[n] > '4' || s[n + 1])
		return -EINVAL;
	*copies = (uint32_t)(s[n] - '0');
	snprintf(md, mdlen, "%c%u", shortn[i], *copies);
	snprintf(canon, clen, "%s%u", longn[i], *copies);
	return 0;
}

/* RAID5/6 layouts as mdadm names them (the kernel's ALGORITHM_* in
 * drivers/md/raid5.h); the kernel takes the ddf and *-6 ones for RAID6
 * only (algorithm_valid_raid5: 0..5). */
static const struct { const char *name, *alias; int algo; bool raid6_only; } r56_layouts[] = {
	{ "left-asymmetric", "la", 0, false },   { "right-asymmetric", "ra", 1, false },
	{ "left-symmetric", "ls", 2, false },    { "right-symmetric", "rs", 3, false },
	{ "parity-first", NULL, 4, false },      { "parity-last", NULL, 5, false },
	{ "ddf-zero-restart", NULL, 8, true },   { "ddf-N-restart", NULL, 9, true },
	{ "ddf-N-continue", NULL, 10, true },    { "left-asymmetric-6", NULL, 16, true },
	{ "right-asymmetric-6", NULL, 17, true }, { "left-symmetric-6", NULL, 18, true },
	{ "right-symmetric-6", NULL, 19, true }, { "parity-first-6", NULL, 20, true },
};

const char *sb_md_r56_layout_name(int algo)
{
	for (size_t i = 0; i < sizeof(r56_layouts) / sizeof(r56_layouts[0]); i++)
		if (r56_layouts[i].algo == algo)
			return r56_layouts[i].name;
	return NULL;
}

static int check_r56_layout(const struct sb_spec_ctx *c, struct sb_raid_spec *r)
{
	size_t i, n = sizeof(r56_layouts) / sizeof(r56_layouts[0]);

	if (!r->layout[0])
		snprintf(r->layout, sizeof(r->layout), "left-symmetric");
	for (i = 0; i < n; i++)
		if (!strcmp(r->layout, r56_layouts[i].name) ||
		    (r56_layouts[i].alias && !strcmp(r->layout, r56_layouts[i].alias)))
			break;
	if (i == n)
		return sb_spec_fail_at(c, "raid.layout", false,
				    "raid.layout: unknown RAID%u layout '%s'; allowed: left-symmetric, left-asymmetric, right-symmetric, right-asymmetric (or ls, la, rs, ra), parity-first, parity-last%s",
				    r->level, r->layout, r->level == 6 ? ", ddf-zero-restart, ddf-N-restart, ddf-N-continue, left-symmetric-6, right-symmetric-6, left-asymmetric-6, right-asymmetric-6, parity-first-6" : "");
	if (r->level == 5 && r56_layouts[i].raid6_only)
		return sb_spec_fail_at(c, "raid.layout", false,
				    "raid.layout: %s is a RAID6 layout; the kernel's RAID5 takes left/right-symmetric/asymmetric, parity-first and parity-last",
				    r56_layouts[i].name);
	snprintf(r->layout, sizeof(r->layout), "%s", r56_layouts[i].name);
	snprintf(r->md_layout, sizeof(r->md_layout), "%s", r56_layouts[i].name);
	r->copies = 1;
	r->data_disks = r->devices - (r->level == 6 ? 2 : 1);
	return 0;
}

static int check_r10_layout(const struct sb_spec_ctx *c, struct sb_raid_spec *r)
{
	char layout[sizeof(r->layout)];

	if (!r->layout[0])
		snprintf(r->layout, sizeof(r->layout), "near2");
	if (parse_layout(r->layout, r->md_layout, sizeof(r->md_layout), layout, sizeof(layout), &r->copies) < 0)
		return sb_spec_fail_at(c, "raid.layout", false,
				    "raid.layout: unknown layout '%s'; allowed: near2, far2, offset2 (or n2, f2, o2), with 2 to 4 copies",
				    r->layout);
	memcpy(r->layout, layout, sizeof(r->layout));
	if (r->copies > r->devices)
		return sb_spec_fail_at(c, "raid.layout", false,
				    "raid.layout: %s keeps %u copies but the array has only %u devices",
				    r->layout, r->copies, r->devices);
	r->data_disks = r->devices / r->copies;
	return 0;
}

/* The fewest members md takes for a level (RAID6: two parities + two data). */
static uint32_t min_members(uint32_t level)
{
	return level == 5 ? 3 : level == 6 ? 4 : 2;
}

/* bitmap, consistency_policy and sync, after the level is known. */
static int check_policy(const struct sb_spec_ctx *c, struct sb_raid_spec *r)
{
	bool given = sb_spec_given(c, "raid.consistency_policy");

	if (given && !strcmp(r->consistency, "ppl")) {
		if (r->level != 5)
			return sb_spec_fail_at(c, "raid.consistency_policy", false,
					    "raid.consistency_policy: ppl (partial parity log) is for RAID5 only, not RAID%u",
					    r->level);
		if (sb_spec_given(c, "raid.bitmap") && strcmp(r->bitmap, "none"))
			return sb_spec_fail_at(c, "raid.bitmap", false,
					    "raid.bitmap: md takes a partial parity log or a write-intent bitmap, not both; set bitmap: none with consistency_policy: ppl");
		snprintf(r->bitmap, sizeof(r->bitmap), "none");
		if (r->metadata[0] == '0')
			return sb_spec_fail_at(c, "raid.metadata", false,
					    "raid.metadata: ppl needs a 1.x superblock, not %s", r->metadata);
	}
	if (given && !strcmp(r->consistency, "bitmap") && !strcmp(r->bitmap, "none"))
		return sb_spec_fail_at(c, "raid.consistency_policy", false,
				    "raid.consistency_policy: bitmap needs raid.bitmap: internal");
	if (given && !strcmp(r->consistency, "resync") && strcmp(r->bitmap, "none")) {
		if (sb_spec_given(c, "raid.bitmap"))
			return sb_spec_fail_at(c, "raid.consistency_policy", false,
					    "raid.consistency_policy: resync means no write-intent bitmap, but raid.bitmap is %s",
					    r->bitmap);
		snprintf(r->bitmap, sizeof(r->bitmap), "none");
	}
	if (!given)
		snprintf(r->consistency, sizeof(r->consistency), "%s", strcmp(r->bitmap, "none") ? "bitmap" : "resync");
	if (sb_spec_given(c, "raid.stripe_cache_size") && r->level != 5 && r->level != 6)
		return sb_spec_fail_at(c, "raid.stripe_cache_size", false,
				    "raid.stripe_cache_size: only RAID5/6 have a stripe cache, not RAID%u", r->level);
	if (r->stripe_cache_size && r->stripe_cache_size < 17)
		return sb_spec_fail_at(c, "raid.stripe_cache_size", false,
				    "raid.stripe_cache_size: %u; md takes 17..32768", r->stripe_cache_size);
	if (r->sync_speed_min && r->sync_speed_max && r->sync_speed_min > r->sync_speed_max)
		return sb_spec_fail_at(c, "raid.sync_speed_min", false,
				    "raid.sync_speed_min: %u KiB/s is above sync_speed_max %u", r->sync_speed_min,
				    r->sync_speed_max);
	if (r->estimate_member && r->sync != SB_SYNC_WAIT)
		return sb_spec_fail_at(c, "raid.estimate_member_size", false,
				    "raid.estimate_member_size: the estimate comes from the measured initial sync; it needs raid.sync: wait");
	return 0;
}

/* raid.devices and the loop count/disks, which must agree. */
static int check_members(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_raid_spec *r = &s->raid;
	struct sb_loop_spec *l = &s->devices.loop;
	bool loop = s->devices.kind == SB_DEVICES_LOOP;
	uint32_t have;

	if (!sb_spec_given(c, "raid.devices")) {
		if (!loop)
			r->devices = s->devices.ndisks;
		else if (sb_spec_given(c, "devices.loop.count"))
			r->devices = l->count;
		else
			r->devices = r->level == 10 ? 4 : min_members(r->level);
	}
	if (r->devices < min_members(r->level))
		return sb_spec_fail_at(c, "raid.devices", true,
				    "raid.devices: RAID%u needs at least %u devices, got %u", r->level,
				    min_members(r->level), r->devices);
	if (loop && !sb_spec_given(c, "devices.loop.count"))
		l->count = r->devices;
	have = loop ? l->count : s->devices.ndisks;
	if (have != r->devices)
		return sb_spec_fail_at(c, loop ? "devices.loop.count" : "devices.disks", true,
				    "%s: %u devices but raid.devices is %u; they must match",
				    loop ? "devices.loop.count" : "devices.disks", have, r->devices);
	return 0;
}

static int check_raid(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_raid_spec *r = &s->raid;
	struct sb_loop_spec *l = &s->devices.loop;
	bool loop = s->devices.kind == SB_DEVICES_LOOP;
	uint32_t have;
	int rc;

	if (!r->enabled) {
		if (loop && !sb_spec_given(c, "devices.loop.count"))
			l->count = 1;
		have = loop ? l->count : s->devices.ndisks;
		/* a filesystem over several devices counts its own (its check) */
		if (have != 1 && !sb_spec_fs_spans(s))
			return sb_spec_fail_at(c, loop ? "devices.loop.count" : "devices.disks", true,
					    "%s: %u devices but no raid section; without raid a stack uses exactly one device (add raid: {level: 1|5|6|10})",
					    loop ? "devices.loop.count" : "devices.disks", have);
		return 0;
	}
	rc = check_members(c, s);
	if (rc)
		return rc;
	if (r->level == 1) {
		if (sb_spec_given(c, "raid.layout"))
			return sb_spec_fail_at(c, "raid.layout", true,
					    "raid.layout: RAID1 has no layout (only RAID5/6/10); remove it");
		r->layout[0] = '\0';
		r->md_layout[0] = '\0';
		r->copies = r->devices;
		r->data_disks = 0;
	} else {
		rc = r->level == 10 ? check_r10_layout(c, r) : check_r56_layout(c, r);
		if (rc)
			return rc;
	}
	if (!sb_spec_is_pow2(r->chunk))
		return sb_spec_fail_at(c, "raid.chunk", false,
				    "raid.chunk: %llu bytes is not a power of two; use e.g. 64KiB, 512KiB",
				    (unsigned long long)r->chunk);
	return check_policy(c, r);
}

static void md_prefix(const struct sb_stack_spec *s, char *buf, size_t len)
{
	char a[32];

	if (!s->raid.enabled)
		return;
	sb_spec_append(buf, len, "RAID%u", s->raid.level);
	if (s->raid.level != 1)
		sb_spec_append(buf, len, " %s", s->raid.layout);
	sb_spec_append(buf, len, " ×%u", s->raid.devices);
	if (s->raid.level != 1) {
		sb_size_format(s->raid.chunk, a, sizeof(a));
		sb_spec_append(buf, len, ", %s chunks", a);
	}
	if (s->raid.stripe_cache_size)
		sb_spec_append(buf, len, ", stripe cache %u", s->raid.stripe_cache_size);
	sb_spec_append(buf, len, " on ");
}

static void md_json(const struct sb_stack_spec *s, struct json_object *o)
{
	json_object_object_add(o, "md_layout", json_object_new_string(s->raid.md_layout));
	json_object_object_add(o, "copies", json_object_new_int64(s->raid.copies));
	json_object_object_add(o, "data_disks", json_object_new_int64(s->raid.data_disks));
}

static const struct sb_opt md_top[] = {
	{ "raid", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &raid_sec,
	  "md RAID (absent: a single device)" },
	{ .key = NULL },
};

const struct sb_spec_part sb_spec_md = {
	.parent = "",
	.opts = md_top,
	.base = offsetof(struct sb_stack_spec, raid),
	.check = check_raid,
	.prefix = md_prefix,
	.json = md_json,
	.block_device = true,
};
