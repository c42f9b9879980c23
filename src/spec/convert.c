/* YAML tree -> struct sb_stack_spec, driven by the option tables. */
#include "spec/spec_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

int sb_spec_fail(const struct sb_spec_ctx *c, const struct sb_ynode *n, bool at_key,
		 const char *fmt, ...)
{
	char msg[SB_ERR_MSG_MAX];
	va_list ap;

	char *p;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* values quoted in messages may hold escapes ("\e[2J"): not on a terminal */
	for (p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	if (n && n->origin)
		return sb_err_set(c->err, -EINVAL, "%s: %s", n->origin, msg);
	if (n && at_key && n->kline)
		return sb_err_set(c->err, -EINVAL, "%s:%d:%d: %s", c->file, n->kline, n->kcol, msg);
	if (n)
		return sb_err_set(c->err, -EINVAL, "%s:%d:%d: %s", c->file, n->line, n->col, msg);
	return sb_err_set(c->err, -EINVAL, "%s:1:1: %s", c->file, msg);
}

const struct sb_ynode *sb_spec_node(const struct sb_ynode *root, const char *dotted)
{
	char buf[256], *save = NULL, *tok;
	const struct sb_ynode *n = root;

	snprintf(buf, sizeof(buf), "%s", dotted);
	for (tok = strtok_r(buf, ".", &save); tok && n; tok = strtok_r(NULL, ".", &save))
		n = sb_ytree_get(n, tok);
	return n;
}

const struct sb_ynode *sb_spec_where(const struct sb_ynode *root, const char *dotted)
{
	char buf[256], *dot;
	const struct sb_ynode *n;

	snprintf(buf, sizeof(buf), "%s", dotted);
	for (;;) {
		n = sb_spec_node(root, buf);
		if (n)
			return n;
		dot = strrchr(buf, '.');
		if (!dot)
			return NULL;
		*dot = '\0';
	}
}

bool sb_spec_is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static bool parse_uint(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return true;
}

static int find_allowed(const char *const *allowed, const char *s)
{
	int i;

	for (i = 0; allowed[i]; i++)
		if (!strcmp(allowed[i], s))
			return i;
	return -1;
}

static int fail_allowed(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
			const char *const *allowed, const char *val)
{
	char list[512];

	sb_opt_allowed_list(allowed, list, sizeof(list));
	return sb_spec_fail(c, n, false, "%s: '%s' is not allowed; allowed: %s", path, val, list);
}

static int set_str(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
		   const struct sb_opt *o, void *field, const char *s)
{
	const char *p;

	/* "\n" and friends arrive through double-quoted escapes: no value
	 * needs them, and they would garble state files, logs and argv */
	for (p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return sb_spec_fail(c, n, false, "%s: contains a control character (0x%02X); use printable text",
					    path, (unsigned)(unsigned char)*p);
	if (strlen(s) >= o->size)
		return sb_spec_fail(c, n, false, "%s: '%.40s...' is too long; at most %zu characters",
				    path, s, o->size - 1);
	memcpy(field, s, strlen(s) + 1);
	return 0;
}

static int range_size(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
		      const struct sb_opt *o, uint64_t v)
{
	char lo[32], hi[32];

	if (v < o->min || (o->max && v > o->max)) {
		sb_size_format(o->min, lo, sizeof(lo));
		sb_size_format(o->max, hi, sizeof(hi));
		return sb_spec_fail(c, n, false, "%s: '%s' is out of range; allowed %s to %s",
				    path, n->str, lo, hi);
	}
	return 0;
}

/* A stack or layer name: a-z, 0-9, '.', '_', '-', starting with a letter or
 * digit. */
static int parse_name(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
		      const struct sb_opt *o, void *field)
{
	const char *s = n->str, *p;

	if (!*s || !(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
		return sb_spec_fail(c, n, false, "%s: '%s' is not a valid name; use a-z, 0-9, '.', '_', '-', starting with a letter or digit", path, s);
	for (p = s; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || strchr("._-", *p)))
			return sb_spec_fail(c, n, false, "%s: '%s' is not a valid name; use a-z, 0-9, '.', '_', '-', starting with a letter or digit", path, s);
	return set_str(c, n, path, o, field, s);
}

static int parse_u32(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
		     const struct sb_opt *o, void *field)
{
	const char *s = n->str;
	uint64_t v;

	if (!parse_uint(s, &v) || v > UINT32_MAX) {
		if (o->allowed) {
			char list[256];

			sb_opt_allowed_list(o->allowed, list, sizeof(list));
			return sb_spec_fail(c, n, false, "%s: expected one of %s, got '%s'", path, list, s);
		}
		return sb_spec_fail(c, n, false, "%s: expected a whole number from %llu to %llu, got '%s'", path,
				    (unsigned long long)o->min, (unsigned long long)(o->max ? o->max : UINT32_MAX), s);
	}
	if (o->allowed && find_allowed(o->allowed, s) < 0) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		if (find_allowed(o->allowed, buf) < 0)
			return fail_allowed(c, n, path, o->allowed, s);
	}
	if (v < o->min || (o->max && v > o->max))
		return sb_spec_fail(c, n, false, "%s: %llu is out of range; allowed %llu to %llu", path,
				    (unsigned long long)v, (unsigned long long)o->min,
				    (unsigned long long)(o->max ? o->max : UINT32_MAX));
	*(uint32_t *)field = (uint32_t)v;
	return 0;
}

/* SB_OPT_SIZE (bytes) and SB_OPT_SIZE_KIB (whole KiB). */
static int parse_size(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
		      const struct sb_opt *o, void *field)
{
	struct sb_err e = { 0 };
	const char *s = n->str;
	uint64_t v;

	if (sb_size_parse(s, &v, &e) < 0)
		return sb_spec_fail(c, n, false, "%s: %s", path, e.msg);
	if (range_size(c, n, path, o, v) < 0)
		return -EINVAL;
	if (o->type == SB_OPT_SIZE) {
		*(uint64_t *)field = v;
	} else {
		if (v % 1024)
			return sb_spec_fail(c, n, false, "%s: '%s' is not a whole number of KiB", path, s);
		*(uint32_t *)field = (uint32_t)(v / 1024);
	}
	return 0;
}

/* SB_OPT_U32_AUTO: auto (0) or a whole number min..max. */
static int parse_u32_auto(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
			  const struct sb_opt *o, void *field)
{
	uint64_t v;

	if (!strcmp(n->str, "auto")) {
		*(uint32_t *)field = 0;
		return 0;
	}
	if (!parse_uint(n->str, &v) || v < o->min || v > o->max)
		return sb_spec_fail(c, n, false, "%s: expected auto or a whole number from %llu to %llu, got '%s'",
				    path, (unsigned long long)o->min, (unsigned long long)o->max, n->str);
	*(uint32_t *)field = (uint32_t)v;
	return 0;
}

/* SB_OPT_PERCENT: 5%, 5 or 2.5%: above 0, below 100. */
static int parse_percent(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
			 void *field)
{
	const char *s = n->str;
	char *end;
	double p;

	errno = 0;
	p = isdigit((unsigned char)*s) ? strtod(s, &end) : 0;
	if (p && strspn(s, "0123456789.") != (size_t)(end - s))   /* no 0x, no exponent */
		p = 0;
	if (p && *end == '%')
		end++;
	if (!p || errno || *end || !(p > 0 && p < 100))
		return sb_spec_fail(c, n, false, "%s: expected a percentage above 0 and below 100 such as 5%% or "
				    "2.5%%, got '%s'", path, s);
	*(double *)field = p;
	return 0;
}

/* An LV size: N%FREE or a size from 1 MiB to 64 TiB. */
static int parse_lvsize(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
			void *field)
{
	struct sb_lvm_spec *l = field;
	struct sb_err e = { 0 };
	const char *s = n->str;
	char *end;
	unsigned long pct;
	size_t len = strlen(s);
	uint64_t v;

	l->size_bytes = 0;
	l->size_pct_free = 0;
	if (len > 5 && !strcmp(s + len - 5, "%FREE")) {
		errno = 0;
		pct = isdigit((unsigned char)*s) ? strtoul(s, &end, 10) : 0;
		if (errno || end != s + len - 5 || pct < 1 || pct > 100)
			return sb_spec_fail(c, n, false, "%s: '%s' is not allowed; use N%%FREE with N from 1 to 100, or a size such as 10GiB", path, s);
		l->size_pct_free = (uint32_t)pct;
	} else {
		if (sb_size_parse(s, &v, &e) < 0)
			return sb_spec_fail(c, n, false, "%s: %s; or 100%%FREE, N%%FREE", path, e.msg);
		if (v < (1ULL << 20) || v > (64ULL << 40))
			return sb_spec_fail(c, n, false, "%s: '%s' is out of range; allowed 1 MiB to 64 TiB", path, s);
		l->size_bytes = v;
	}
	snprintf(l->size, sizeof(l->size), "%s", s);
	if (strlen(s) >= sizeof(l->size))
		return sb_spec_fail(c, n, false, "%s: '%.40s' is too long", path, s);
	return 0;
}

int sb_spec_parse_scalar(const struct sb_spec_ctx *c, const struct sb_ynode *n,
			 const char *path, const struct sb_opt *o, void *field)
{
	struct sb_err e = { 0 };
	const char *s = n->str;
	uint64_t v;
	int i;

	switch (o->type) {
	case SB_OPT_NAME:
		return parse_name(c, n, path, o, field);
	case SB_OPT_STR:
		return set_str(c, n, path, o, field, s);
	case SB_OPT_ENUM:
		if (find_allowed(o->allowed, s) < 0)
			return fail_allowed(c, n, path, o->allowed, s);
		return set_str(c, n, path, o, field, s);
	case SB_OPT_ENUMINT:
		i = find_allowed(o->allowed, s);
		if (i < 0)
			return fail_allowed(c, n, path, o->allowed, s);
		*(int *)field = i;
		return 0;
	case SB_OPT_U32:
		return parse_u32(c, n, path, o, field);
	case SB_OPT_U32_AUTO:
		return parse_u32_auto(c, n, path, o, field);
	case SB_OPT_PERCENT:
		return parse_percent(c, n, path, field);
	case SB_OPT_SIZE:
	case SB_OPT_SIZE_KIB:
		return parse_size(c, n, path, o, field);
	case SB_OPT_BOOL:
		if (!strcmp(s, "true"))
			*(bool *)field = true;
		else if (!strcmp(s, "false"))
			*(bool *)field = false;
		else
			return sb_spec_fail(c, n, false, "%s: expected true or false, got '%s'", path, s);
		return 0;
	case SB_OPT_DURATION:
		if (sb_duration_parse(s, &v, &e) < 0)
			return sb_spec_fail(c, n, false, "%s: %s", path, e.msg);
		if (v > 7ULL * 24 * 3600 * 1000000000ULL)
			return sb_spec_fail(c, n, false, "%s: '%s' is out of range; at most 7 days", path, s);
		*(uint64_t *)field = v;
		return 0;
	case SB_OPT_LVSIZE:
		return parse_lvsize(c, n, path, field);
	default:
		return sb_spec_fail(c, n, false, "%s: expected %s", path, sb_opt_type_desc(o));
	}
}

/* What a key takes, for "expected ..." messages: the allowed values when
 * the table lists them. */
static const char *expect_desc(const struct sb_opt *o, char *buf, size_t len)
{
	char list[256];

	if (o->allowed && (o->type == SB_OPT_U32 || o->type == SB_OPT_ENUM || o->type == SB_OPT_ENUMINT)) {
		sb_opt_allowed_list(o->allowed, list, sizeof(list));
		snprintf(buf, len, "one of %s", list);
		return buf;
	}
	return sb_opt_type_desc(o);
}

static int conv_suites(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
		       const struct sb_opt *o, struct sb_bench_spec *b)
{
	unsigned i, cnt = n->type == SB_Y_SEQ ? n->n : 1;
	const struct sb_ynode *it;

	if (cnt < 1)
		return sb_spec_fail(c, n, false, "%s: the list is empty; name at least one suite", path);
	if (cnt > SB_MAX_SUITES)
		return sb_spec_fail(c, n, false, "%s: %u suites; at most %d", path, cnt, SB_MAX_SUITES);
	for (i = 0; i < cnt; i++) {
		it = n->type == SB_Y_SEQ ? n->kids[i] : n;
		if (it->type != SB_Y_SCALAR || sb_ytree_is_null(it))
			return sb_spec_fail(c, it, false, "%s: expected a suite name, got %s", path, sb_ytree_type_name(it));
		if (find_allowed(o->allowed, it->str) < 0)
			return fail_allowed(c, it, path, o->allowed, it->str);
		snprintf(b->suites[i], sizeof(b->suites[i]), "%s", it->str);
	}
	b->nsuites = cnt;
	return 0;
}

static int conv_disks(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
		      struct sb_devices_spec *d)
{
	const struct sb_ynode *it;
	unsigned i, j;

	if (n->type != SB_Y_SEQ)
		return sb_spec_fail(c, n, false, "%s: expected a list of device paths such as [/dev/disk/by-id/ata-X, ...], got %s",
				    path, sb_ytree_type_name(n));
	if (n->n < 1 || n->n > SB_MAX_DISKS)
		return sb_spec_fail(c, n, false, "%s: %u disks; allowed 1 to %d", path, n->n, SB_MAX_DISKS);
	for (i = 0; i < n->n; i++) {
		it = n->kids[i];
		if (it->type != SB_Y_SCALAR || sb_ytree_is_null(it))
			return sb_spec_fail(c, it, false, "%s: expected a device path, got %s", path, sb_ytree_type_name(it));
		if (strncmp(it->str, "/dev/", 5) || strlen(it->str) >= SB_PATH_MAX || strstr(it->str, "/../"))
			return sb_spec_fail(c, it, false, "%s: '%s' is not a device path; use /dev/disk/by-id/... (or another path under /dev/)",
					    path, it->str);
		/* Directories under /dev that anyone may write to (or that hold
		 * no block devices) are no place for a disk: a link planted
		 * there would aim root's mkfs at any device. The build checks
		 * every directory on the way again (sb_safety_check_disk). */
		if (!strncmp(it->str, "/dev/shm/", 9) || !strncmp(it->str, "/dev/mqueue/", 12) ||
		    !strncmp(it->str, "/dev/pts/", 9) || !strncmp(it->str, "/dev/hugepages/", 15) ||
		    !strncmp(it->str, "/dev/fd/", 8))
			return sb_spec_fail(c, it, false, "%s: '%s' is not a place for disks (anyone can plant "
					    "files there); use /dev/disk/by-id/... or /dev/NAME", path, it->str);
		for (j = 0; j < i; j++)
			if (!strcmp(d->disks[j], it->str))
				return sb_spec_fail(c, it, false, "%s: '%s' is listed twice", path, it->str);
		snprintf(d->disks[i], SB_PATH_MAX, "%s", it->str);
	}
	d->ndisks = n->n;
	return 0;
}

static int conv_flags(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
		      const struct sb_opt *o, struct sb_luks_spec *l)
{
	bool *fl[] = { &l->no_read_workqueue, &l->no_write_workqueue, &l->same_cpu_crypt, &l->allow_discards };
	const struct sb_ynode *it;
	unsigned i;
	int k;

	if (n->type == SB_Y_SEQ) {
		for (i = 0; i < n->n; i++) {
			it = n->kids[i];
			if (it->type != SB_Y_SCALAR)
				return sb_spec_fail(c, it, false, "%s: expected a flag name, got %s", path, sb_ytree_type_name(it));
			k = find_allowed(o->allowed, it->str);
			if (k < 0)
				return fail_allowed(c, it, path, o->allowed, it->str);
			*fl[k] = true;
		}
		return 0;
	}
	if (n->type == SB_Y_MAP) {
		for (i = 0; i < n->n; i++) {
			it = n->kids[i];
			k = find_allowed(o->allowed, it->key);
			if (k < 0) {
				char list[256];

				sb_opt_allowed_list(o->allowed, list, sizeof(list));
				return sb_spec_fail(c, it, true, "unknown key '%s' in %s; allowed: %s", it->key, path, list);
			}
			if (it->type != SB_Y_SCALAR || (strcmp(it->str, "true") && strcmp(it->str, "false")))
				return sb_spec_fail(c, it, false, "%s.%s: expected true or false", path, it->key);
			*fl[k] = !strcmp(it->str, "true");
		}
		return 0;
	}
	if (sb_ytree_is_null(n))
		return 0;
	return sb_spec_fail(c, n, false, "%s: expected %s, got %s", path, sb_opt_type_desc(o), sb_ytree_type_name(n));
}

/* SB_OPT_WORDS: "a" or [a, b] of the allowed words, as a bit mask. */
static int conv_words(const struct sb_spec_ctx *c, const struct sb_ynode *n, const char *path,
		      const struct sb_opt *o, uint32_t *mask)
{
	unsigned i, cnt = n->type == SB_Y_SEQ ? n->n : 1;
	const struct sb_ynode *it;
	int k;

	if (n->type == SB_Y_MAP || sb_ytree_is_null(n) || cnt < 1)
		return sb_spec_fail(c, n, false, "%s: expected %s", path, sb_opt_type_desc(o));
	*mask = 0;
	for (i = 0; i < cnt; i++) {
		it = n->type == SB_Y_SEQ ? n->kids[i] : n;
		if (it->type != SB_Y_SCALAR || sb_ytree_is_null(it))
			return sb_spec_fail(c, it, false, "%s: expected a word, got %s", path, sb_ytree_type_name(it));
		k = find_allowed(o->allowed, it->str);
		if (k < 0)
			return fail_allowed(c, it, path, o->allowed, it->str);
		if (*mask & (1u << k))
			return sb_spec_fail(c, it, false, "%s: '%s' is listed twice", path, it->str);
		*mask |= 1u << k;
	}
	return 0;
}

static int conv_section(const struct sb_spec_ctx *c, const struct sb_opt_section *sec,
			const struct sb_ynode *map, struct sb_stack_spec *s)
{
	const struct sb_opt *o;
	const struct sb_ynode *n;
	char path[128], keys[512];
	unsigned i;
	int rc;

	if (sec->enabled_off >= 0)
		*(bool *)((char *)s + sec->enabled_off) = true;
	if (sb_ytree_is_null(map))
		return 0;   /* "lvm:" alone: enabled with defaults */
	if (map->type != SB_Y_MAP) {
		sb_opt_keys_list(sec, keys, sizeof(keys));
		if (!sec->path[0])
			return sb_spec_fail(c, map, false, "expected a mapping of keys at the top level (%s), got %s",
					    keys, sb_ytree_type_name(map));
		return sb_spec_fail(c, map, false, "%s: expected a mapping (keys: %s), got %s",
				    sec->path, keys, sb_ytree_type_name(map));
	}
	for (i = 0; i < map->n; i++) {
		n = map->kids[i];
		for (o = sec->opts; o->key; o++)
			if (!strcmp(o->key, n->key))
				break;
		if (!o->key) {
			sb_opt_keys_list(sec, keys, sizeof(keys));
			if (!sec->path[0])
				return sb_spec_fail(c, n, true, "unknown key '%s'; allowed at the top level: %s", n->key, keys);
			return sb_spec_fail(c, n, true, "unknown key '%s' in %s; allowed: %s", n->key, sec->path, keys);
		}
		snprintf(path, sizeof(path), "%s%s%s", sec->path, sec->path[0] ? "." : "", o->key);
		switch (o->type) {
		case SB_OPT_SECTION:
			rc = conv_section(c, o->sub, n, s);
			break;
		case SB_OPT_MATRIX:
			rc = 0;   /* expanded before conversion */
			break;
		case SB_OPT_SUITES:
			if (n->type == SB_Y_MAP || sb_ytree_is_null(n))
				rc = sb_spec_fail(c, n, false, "%s: expected %s, got %s", path, sb_opt_type_desc(o), sb_ytree_type_name(n));
			else
				rc = conv_suites(c, n, path, o, &s->bench);
			break;
		case SB_OPT_DISKS:
			rc = conv_disks(c, n, path, &s->devices);
			break;
		case SB_OPT_LUKSFLAGS:
			rc = conv_flags(c, n, path, o, &s->luks);
			break;
		case SB_OPT_WORDS:
			rc = conv_words(c, n, path, o, sb_opt_field(s, sec, o));
			break;
		default:
			if (n->type != SB_Y_SCALAR || sb_ytree_is_null(n))
				rc = sb_spec_fail(c, n, false, "%s: expected %s, got %s", path,
						  expect_desc(o, keys, sizeof(keys)), sb_ytree_type_name(n));
			else
				rc = sb_spec_parse_scalar(c, n, path, o,
							  o->type == SB_OPT_LVSIZE ? (void *)&s->lvm : sb_opt_field(s, sec, o));
			break;
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

int sb_spec_convert(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	return conv_section(c, sb_opt_root(), c->root, s);
}

static int defaults_section(const struct sb_spec_ctx *c, const struct sb_opt_section *sec,
			    struct sb_stack_spec *s)
{
	struct sb_ynode tmp = { .type = SB_Y_SCALAR, .plain = true, .origin = (char *)"built-in default" };
	const struct sb_opt *o;
	int rc;

	for (o = sec->opts; o->key; o++) {
		if (o->type == SB_OPT_SECTION) {
			rc = defaults_section(c, o->sub, s);
		} else if (!o->def) {
			continue;
		} else {
			tmp.str = (char *)o->def;
			if (o->type == SB_OPT_SUITES)
				rc = conv_suites(c, &tmp, o->key, o, &s->bench);
			else if (o->type == SB_OPT_WORDS)
				rc = conv_words(c, &tmp, o->key, o, sb_opt_field(s, sec, o));
			else
				rc = sb_spec_parse_scalar(c, &tmp, o->key, o,
							  o->type == SB_OPT_LVSIZE ? (void *)&s->lvm : sb_opt_field(s, sec, o));
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

int sb_spec_defaults(struct sb_stack_spec *s, struct sb_err *err)
{
	struct sb_spec_ctx c = { .file = "defaults", .err = err };

	return defaults_section(&c, sb_opt_root(), s);
}
