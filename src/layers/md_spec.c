/* md's part of the stack description (src/spec/part.h): the raid keys,
 * their derived defaults and rules, and md's piece of the summary. In its
 * own file next to md.c only because md.c is already ~600 lines. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "spec/part.h"
#include "util/units.h"

#define FLD SB_OPT_FLD

static const char *const raid_levels[] = { "1", "10", NULL };
static const char *const md_metadata[] = { "0.90", "1.0", "1.1", "1.2", NULL };
static const char *const md_bitmap[] = { "none", "internal", NULL };
static const char *const md_sync[] = { "assume-clean", "wait", NULL };

static const struct sb_opt raid_opts[] = {
	{ "level", SB_OPT_U32, FLD(sb_raid_spec, level), "1", 0, 0, raid_levels, NULL,
	  "md RAID level" },
	{ "devices", SB_OPT_U32, FLD(sb_raid_spec, devices), NULL, 1, SB_MAX_DISKS, NULL, NULL,
	  "member count (default: 2 for RAID1, 4 for RAID10); must equal the loop count or number of disks" },
	{ "chunk", SB_OPT_SIZE, FLD(sb_raid_spec, chunk), "512KiB", 4096, 1ULL << 30, NULL, NULL,
	  "chunk size, a power of two >= 4KiB" },
	{ "layout", SB_OPT_STR, FLD(sb_raid_spec, layout), NULL, 0, 0, NULL, NULL,
	  "RAID10 only: near2|far2|offset2 (or n2|f2|o2), 2..4 copies (default near2)" },
	{ "metadata", SB_OPT_ENUM, FLD(sb_raid_spec, metadata), "1.2", 0, 0, md_metadata, NULL,
	  "md superblock version" },
	{ "bitmap", SB_OPT_ENUM, FLD(sb_raid_spec, bitmap), "internal", 0, 0, md_bitmap, NULL,
	  "write-intent bitmap" },
	{ "sync", SB_OPT_ENUMINT, FLD(sb_raid_spec, sync), "assume-clean", 0, 0, md_sync, NULL,
	  "assume-clean skips the initial resync (benchmarks); wait waits for it" },
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

static int check_raid(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_raid_spec *r = &s->raid;
	struct sb_loop_spec *l = &s->devices.loop;
	bool loop = s->devices.kind == SB_DEVICES_LOOP;
	uint32_t have = loop ? l->count : s->devices.ndisks;
	char layout[16];

	if (!r->enabled) {
		if (loop && !sb_spec_given(c, "devices.loop.count"))
			l->count = 1;
		have = loop ? l->count : s->devices.ndisks;
		if (have != 1)
			return sb_spec_fail_at(c, loop ? "devices.loop.count" : "devices.disks", true,
					    "%s: %u devices but no raid section; without raid a stack uses exactly one device (add raid: {level: 1|10})",
					    loop ? "devices.loop.count" : "devices.disks", have);
		return 0;
	}
	if (!sb_spec_given(c, "raid.devices")) {
		if (!loop)
			r->devices = s->devices.ndisks;
		else if (sb_spec_given(c, "devices.loop.count"))
			r->devices = l->count;
		else
			r->devices = r->level == 10 ? 4 : 2;
	}
	if (r->level == 10 && r->devices < 2)
		return sb_spec_fail_at(c, "raid.devices", true,
				    "raid.devices: RAID10 needs at least 2 devices, got %u", r->devices);
	if (r->level == 1 && r->devices < 2)
		return sb_spec_fail_at(c, "raid.devices", true,
				    "raid.devices: RAID1 needs at least 2 devices, got %u", r->devices);
	if (loop && !sb_spec_given(c, "devices.loop.count"))
		l->count = r->devices;
	have = loop ? l->count : s->devices.ndisks;
	if (have != r->devices)
		return sb_spec_fail_at(c, loop ? "devices.loop.count" : "devices.disks", true,
				    "%s: %u devices but raid.devices is %u; they must match",
				    loop ? "devices.loop.count" : "devices.disks", have, r->devices);
	if (r->level == 1) {
		if (sb_spec_given(c, "raid.layout"))
			return sb_spec_fail_at(c, "raid.layout", true,
					    "raid.layout: a layout is only for RAID10; remove it for RAID1");
		r->layout[0] = '\0';
		r->md_layout[0] = '\0';
		r->copies = r->devices;
	} else {
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
	}
	if (!sb_spec_is_pow2(r->chunk))
		return sb_spec_fail_at(c, "raid.chunk", false,
				    "raid.chunk: %llu bytes is not a power of two; use e.g. 64KiB, 512KiB",
				    (unsigned long long)r->chunk);
	return 0;
}

static void md_prefix(const struct sb_stack_spec *s, char *buf, size_t len)
{
	char a[32];

	if (!s->raid.enabled)
		return;
	sb_spec_append(buf, len, "RAID%u", s->raid.level);
	if (s->raid.level == 10)
		sb_spec_append(buf, len, " %s", s->raid.layout);
	sb_spec_append(buf, len, " ×%u", s->raid.devices);
	if (s->raid.level == 10) {
		sb_size_format(s->raid.chunk, a, sizeof(a));
		sb_spec_append(buf, len, ", %s chunks", a);
	}
	sb_spec_append(buf, len, " on ");
}

static void md_json(const struct sb_stack_spec *s, struct json_object *o)
{
	json_object_object_add(o, "md_layout", json_object_new_string(s->raid.md_layout));
	json_object_object_add(o, "copies", json_object_new_int64(s->raid.copies));
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
};
