/* Derived defaults and impossible combinations. Every error points at the
 * offending key (or the nearest section present) via sb_spec_where. */
#include "spec/spec_int.h"

#include <ctype.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "util/units.h"

#define AT(path) sb_spec_where(c->root, path)
#define GIVEN(path) (sb_spec_node(c->root, path) != NULL)

static int check_devices(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	const struct sb_ynode *dev = sb_spec_node(c->root, "devices");
	bool loop = GIVEN("devices.loop"), disks = GIVEN("devices.disks");

	if (loop && disks)
		return sb_spec_fail(c, AT("devices.disks"), true,
				    "devices: give either loop or disks, not both");
	if (dev && !loop && !disks)
		return sb_spec_fail(c, dev, true,
				    "devices: needs either loop: {count, size, sector_size, dir} or disks: [/dev/disk/by-id/...]");
	s->devices.kind = disks ? SB_DEVICES_DISKS : SB_DEVICES_LOOP;
	return 0;
}

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
		if (loop && !GIVEN("devices.loop.count"))
			l->count = 1;
		have = loop ? l->count : s->devices.ndisks;
		if (have != 1)
			return sb_spec_fail(c, AT(loop ? "devices.loop.count" : "devices.disks"), true,
					    "%s: %u devices but no raid section; without raid a stack uses exactly one device (add raid: {level: 1|10})",
					    loop ? "devices.loop.count" : "devices.disks", have);
		return 0;
	}
	if (!GIVEN("raid.devices")) {
		if (!loop)
			r->devices = s->devices.ndisks;
		else if (GIVEN("devices.loop.count"))
			r->devices = l->count;
		else
			r->devices = r->level == 10 ? 4 : 2;
	}
	if (r->level == 10 && r->devices < 2)
		return sb_spec_fail(c, AT("raid.devices"), true,
				    "raid.devices: RAID10 needs at least 2 devices, got %u", r->devices);
	if (r->level == 1 && r->devices < 2)
		return sb_spec_fail(c, AT("raid.devices"), true,
				    "raid.devices: RAID1 needs at least 2 devices, got %u", r->devices);
	if (loop && !GIVEN("devices.loop.count"))
		l->count = r->devices;
	have = loop ? l->count : s->devices.ndisks;
	if (have != r->devices)
		return sb_spec_fail(c, AT(loop ? "devices.loop.count" : "devices.disks"), true,
				    "%s: %u devices but raid.devices is %u; they must match",
				    loop ? "devices.loop.count" : "devices.disks", have, r->devices);
	if (r->level == 1) {
		if (GIVEN("raid.layout"))
			return sb_spec_fail(c, AT("raid.layout"), true,
					    "raid.layout: a layout is only for RAID10; remove it for RAID1");
		r->layout[0] = '\0';
		r->md_layout[0] = '\0';
		r->copies = r->devices;
	} else {
		if (!r->layout[0])
			snprintf(r->layout, sizeof(r->layout), "near2");
		if (parse_layout(r->layout, r->md_layout, sizeof(r->md_layout), layout, sizeof(layout), &r->copies) < 0)
			return sb_spec_fail(c, AT("raid.layout"), false,
					    "raid.layout: unknown layout '%s'; allowed: near2, far2, offset2 (or n2, f2, o2), with 2 to 4 copies",
					    r->layout);
		memcpy(r->layout, layout, sizeof(r->layout));
		if (r->copies > r->devices)
			return sb_spec_fail(c, AT("raid.layout"), false,
					    "raid.layout: %s keeps %u copies but the array has only %u devices",
					    r->layout, r->copies, r->devices);
	}
	if (!sb_spec_is_pow2(r->chunk))
		return sb_spec_fail(c, AT("raid.chunk"), false,
				    "raid.chunk: %llu bytes is not a power of two; use e.g. 64KiB, 512KiB",
				    (unsigned long long)r->chunk);
	return 0;
}

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
		return sb_spec_fail(c, AT("lvm.vg"), false,
				    "lvm.vg: '%s' is not a valid name; use letters, digits and + _ . - (not starting with -)", l->vg);
	if (!lvm_name_ok(l->lv))
		return sb_spec_fail(c, AT("lvm.lv"), false,
				    "lvm.lv: '%s' is not a valid name; use letters, digits and + _ . - (not starting with -)", l->lv);
	if (!sb_spec_is_pow2(l->extent_size))
		return sb_spec_fail(c, AT("lvm.extent_size"), false,
				    "lvm.extent_size: %llu bytes is not a power of two; use e.g. 4MiB",
				    (unsigned long long)l->extent_size);
	return 0;
}

/* cipher-mode[-iv]: "aes-xts-plain64", "aes-cbc-essiv:sha256", "serpent-xts". */
static bool cipher_split(const char *cipher, char *mode, size_t mlen)
{
	char buf[64], *parts[4], *save = NULL, *tok;
	const char *p;
	unsigned n = 0;

	if (strlen(cipher) >= sizeof(buf) || !*cipher || *cipher == '-' || cipher[strlen(cipher) - 1] == '-' ||
	    strstr(cipher, "--"))
		return false;
	for (p = cipher; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_:", *p))
			return false;
	snprintf(buf, sizeof(buf), "%s", cipher);
	for (tok = strtok_r(buf, "-", &save); tok; tok = strtok_r(NULL, "-", &save)) {
		if (n == 3)
			return false;
		parts[n++] = tok;
	}
	if (n < 2 || strchr(parts[0], ':') || strchr(parts[1], ':'))
		return false;
	if (n == 3 && (parts[2][0] == ':' || parts[2][strlen(parts[2]) - 1] == ':'))
		return false;
	if (strlen(parts[1]) >= mlen)
		return false;
	snprintf(mode, mlen, "%s", parts[1]);
	return true;
}

static int check_luks(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_luks_spec *l = &s->luks;
	char mode[32];
	bool xts;

	if (!l->enabled)
		return 0;
	if (!cipher_split(l->cipher, mode, sizeof(mode)))
		return sb_spec_fail(c, AT("luks.cipher"), false,
				    "luks.cipher: '%s' is not of the form cipher-mode[-iv]; e.g. aes-xts-plain64, aes-cbc-essiv:sha256",
				    l->cipher);
	xts = !strcmp(mode, "xts");
	if (!GIVEN("luks.key_size"))
		l->key_size = xts ? 512 : 256;
	if (xts && l->key_size != 256 && l->key_size != 512)
		return sb_spec_fail(c, AT("luks.key_size"), false,
				    "luks.key_size: %u bits is not valid for %s; xts takes 256 or 512",
				    l->key_size, l->cipher);
	if (!xts && l->key_size != 128 && l->key_size != 192 && l->key_size != 256)
		return sb_spec_fail(c, AT("luks.key_size"), false,
				    "luks.key_size: %u bits is not valid for %s; %s takes 128, 192 or 256",
				    l->key_size, l->cipher, mode);
	if (!strcmp(l->type, "luks1")) {
		if (l->sector_size != 512)
			return sb_spec_fail(c, AT("luks.sector_size"), false,
					    "luks.sector_size: LUKS1 encrypts 512-byte sectors only; use type: luks2 for %u",
					    l->sector_size);
		if (strcmp(l->pbkdf, "pbkdf2"))
			return sb_spec_fail(c, AT("luks.pbkdf.type"), false,
					    "luks.pbkdf.type: LUKS1 supports only pbkdf2");
	}
	if (s->devices.kind == SB_DEVICES_LOOP && l->sector_size < s->devices.loop.sector_size)
		return sb_spec_fail(c, AT("luks.sector_size"), false,
				    "luks.sector_size: %u is smaller than the %u-byte logical sectors of the loop devices (devices.loop.sector_size); use %u or larger",
				    l->sector_size, s->devices.loop.sector_size, s->devices.loop.sector_size);
	return 0;
}

static int check_fs(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_fs_spec *f = &s->fs;

	if (s->luks.enabled && f->block_size < s->luks.sector_size)
		return sb_spec_fail(c, AT("fs.block_size"), false,
				    "fs.block_size: %u is smaller than luks.sector_size %u; use %u or larger",
				    f->block_size, s->luks.sector_size, s->luks.sector_size);
	if (s->devices.kind == SB_DEVICES_LOOP && f->block_size < s->devices.loop.sector_size)
		return sb_spec_fail(c, AT("fs.block_size"), false,
				    "fs.block_size: %u is smaller than the %u-byte logical sectors of the loop devices; use %u or larger",
				    f->block_size, s->devices.loop.sector_size, s->devices.loop.sector_size);
	return sb_spec_check_fsopts(c, s);
}

/* The directory, or its nearest existing parent, must hold every backing
 * file at full size: sparse files still fill up when benchmarked. */
static int check_space(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_loop_spec *l = &s->devices.loop;
	char dir[SB_PATH_MAX], a[32], b[32], e[32];
	struct statvfs sv;
	uint64_t need, avail;

	snprintf(dir, sizeof(dir), "%s", l->dir);
	while (statvfs(dir, &sv) < 0) {
		char *slash = strrchr(dir, '/');

		if (!slash || slash == dir)
			return 0;   /* nothing to measure against */
		*slash = '\0';
	}
	need = (uint64_t)l->count * l->size;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (need > avail) {
		sb_size_format(l->size, e, sizeof(e));
		sb_size_format_human(need, a, sizeof(a));
		sb_size_format_human(avail, b, sizeof(b));
		return sb_spec_fail(c, AT("devices.loop.size"), false,
				    "devices.loop.size: %u x %s = %s does not fit in the %s free under %s (sparse files fill up when benchmarked); use a smaller size or another devices.loop.dir",
				    l->count, e, a, b, dir);
	}
	return 0;
}

static int check_loop(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	struct sb_loop_spec *l = &s->devices.loop;
	uint64_t min = s->luks.enabled ? 64ULL << 20 : 16ULL << 20;
	char a[32];

	if (s->devices.kind != SB_DEVICES_LOOP)
		return 0;
	if (l->dir[0] != '/' || strstr(l->dir, "/../") || strstr(l->dir, "/./"))
		return sb_spec_fail(c, AT("devices.loop.dir"), false,
				    "devices.loop.dir: '%s' is not an absolute path", l->dir);
	/* <dir>/<stack>/d<N> is recorded in the state and handed to the kernel:
	 * it must fit SB_PATH_MAX whole, never cut (a cut path names another
	 * file and teardown would lose the loop device). */
	if (strlen(l->dir) > SB_LOOP_DIR_MAX)
		return sb_spec_fail(c, AT("devices.loop.dir"), false,
				    "devices.loop.dir: %zu characters is too long; at most %d (the backing files "
				    "<dir>/<stack>/dN must fit in %d)", strlen(l->dir), SB_LOOP_DIR_MAX, SB_PATH_MAX - 1);
	if (l->size < min) {
		sb_size_format(l->size, a, sizeof(a));
		return sb_spec_fail(c, AT("devices.loop.size"), false,
				    "devices.loop.size: %s is too small for this stack; at least %s%s",
				    a, s->luks.enabled ? "64 MiB" : "16 MiB",
				    s->luks.enabled ? " with luks (its header alone is 16 MiB)" : "");
	}
	if (l->size % l->sector_size)
		return sb_spec_fail(c, AT("devices.loop.size"), false,
				    "devices.loop.size: %llu bytes is not a multiple of the %u-byte sector size",
				    (unsigned long long)l->size, l->sector_size);
	return check_space(c, s);
}

/* Rough usable size of the loop-backed stack (before LVM/LUKS/ext4
 * overhead): an LV or a benchmark file larger than this cannot fit. */
static int check_capacity(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	uint64_t cap = sb_spec_device_bytes(s);
	char a[32], b[32];

	if (s->devices.kind != SB_DEVICES_LOOP)
		return 0;
	sb_size_format_human(cap, b, sizeof(b));
	if (s->lvm.enabled && s->lvm.size_bytes > cap) {
		sb_size_format(s->lvm.size_bytes, a, sizeof(a));
		return sb_spec_fail(c, AT("lvm.size"), false,
				    "lvm.size: %s is larger than the %s the devices below provide; use N%%FREE or a smaller size",
				    a, b);
	}
	if (s->bench.size > cap) {
		sb_size_format(s->bench.size, a, sizeof(a));
		return sb_spec_fail(c, AT("bench.size"), false,
				    "bench.size: %s is larger than the %s the stack's devices provide; use a smaller size or 0 (automatic)",
				    a, b);
	}
	return 0;
}

static int check_member(const struct sb_spec_ctx *c, const char *key, uint32_t member, uint32_t have)
{
	char path[64];

	if (member < have)
		return 0;
	snprintf(path, sizeof(path), "faults.%s.member", key);
	return sb_spec_fail(c, AT(path), false, "%s: %u is not a device of this stack; it has %u (members 0..%u)",
			    path, member, have, have - 1);
}

static int check_whole(const struct sb_spec_ctx *c, const char *path, uint64_t ns, uint64_t unit,
		       uint64_t min, uint64_t max, const char *what)
{
	if (ns % unit == 0 && ns >= min && ns <= max)
		return 0;
	return sb_spec_fail(c, AT(path), false, "%s: must be %s", path, what);
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
		return sb_spec_fail(c, AT("faults"), true, "faults: give at least one of delay, flakey, fail");
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
		return sb_spec_fail(c, AT("faults.flakey.member"), false,
				    "faults.flakey.member: member %u already has faults.delay; one fault device per member",
				    f->flakey.member);
	if (f->fail.enabled) {
		if (!s->raid.enabled)
			return sb_spec_fail(c, AT("faults.fail"), true,
					    "faults.fail: needs a raid section (md marks a RAID member faulty)");
		rc = check_member(c, "fail", f->fail.member, have);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int sb_spec_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	int rc;

	if ((rc = check_devices(c, s)) < 0 ||
	    (rc = check_raid(c, s)) < 0 ||
	    (rc = check_lvm(c, s)) < 0 ||
	    (rc = check_luks(c, s)) < 0 ||
	    (rc = check_fs(c, s)) < 0 ||
	    (rc = check_loop(c, s)) < 0 ||
	    (rc = check_capacity(c, s)) < 0 ||
	    (rc = check_faults(c, s)) < 0 ||
	    (rc = sb_export_spec_check(c, s)) < 0)
		return rc;
	return 0;
}
