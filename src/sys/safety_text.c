/* The text side of the safety checks: /proc/self/mountinfo and /proc/swaps
 * parsing, and matching a list of disk names (--destroy-data, the typed
 * confirmation) against the checked disks. No system state is changed here
 * and nothing needs root, so the unit tests feed fixtures straight in. */
#include "sys/safety.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* The kernel escapes space, tab, newline and backslash in paths as \ooo
 * (seq_file's mangle_path / seq_escape). */
static void unescape(const char *s, size_t n, char *out, size_t olen)
{
	size_t i = 0, o = 0;

	if (!olen)
		return;
	while (i < n && o + 1 < olen) {
		if (s[i] == '\\' && i + 3 < n &&
		    s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			out[o++] = (char)(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
			i += 4;
		} else {
			out[o++] = s[i++];
		}
	}
	out[o] = '\0';
}

/* Next blank-separated field of the line [*p, end); false at end of line. */
static bool next_field(const char **p, const char *end, const char **f, size_t *flen)
{
	const char *s = *p;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= end)
		return false;
	*f = s;
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	*flen = (size_t)(s - *f);
	*p = s;
	return true;
}

/* mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTS */
static bool parse_mountinfo_line(const char *s, const char *end, struct sb_mountinfo_ent *e)
{
	const char *f, *p = s;
	size_t fl;
	char buf[32];
	int i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < 3; i++)
		if (!next_field(&p, end, &f, &fl))
			return false;
	if (fl >= sizeof(buf))
		return false;
	memcpy(buf, f, fl);
	buf[fl] = '\0';
	if (sscanf(buf, "%u:%u", &e->major, &e->minor) != 2)
		return false;
	if (!next_field(&p, end, &f, &fl))        /* root */
		return false;
	if (!next_field(&p, end, &f, &fl))        /* mount point */
		return false;
	unescape(f, fl, e->mountpoint, sizeof(e->mountpoint));
	for (;;) {                                /* options, optional fields, "-" */
		if (!next_field(&p, end, &f, &fl))
			return false;
		if (fl == 1 && f[0] == '-')
			break;
	}
	if (!next_field(&p, end, &f, &fl))
		return false;
	unescape(f, fl, e->fstype, sizeof(e->fstype));
	if (next_field(&p, end, &f, &fl))
		unescape(f, fl, e->source, sizeof(e->source));
	return true;
}

int sb_safety_mountinfo_next(const char **cur, struct sb_mountinfo_ent *e)
{
	const char *s, *end;

	while (*cur && **cur) {
		s = *cur;
		end = strchr(s, '\n');
		if (!end)
			end = s + strlen(s);
		*cur = *end ? end + 1 : end;
		if (parse_mountinfo_line(s, end, e))
			return 1;
	}
	return 0;
}

static dev_t node_rdev(const char *path)
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) != 0 || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

/* The block device behind a mount: major:minor, unless that is an anonymous
 * device (major 0: btrfs, overlay, tmpfs...), then the source node if it is
 * a block device. 0 when not block-backed. */
static dev_t mount_dev(const struct sb_mountinfo_ent *e)
{
	if (e->major != 0)
		return makedev(e->major, e->minor);
	return node_rdev(e->source);
}

int sb_safety_mountinfo_find(const char *text, const dev_t *devs, unsigned ndev,
			     char *where, size_t wlen)
{
	struct sb_mountinfo_ent e;
	const char *cur = text;
	dev_t d;
	unsigned i;

	while (sb_safety_mountinfo_next(&cur, &e) == 1) {
		d = mount_dev(&e);
		if (!d)
			continue;
		for (i = 0; i < ndev; i++) {
			if (devs[i] == d) {
				if (where && wlen)
					snprintf(where, wlen, "%s", e.mountpoint);
				return (int)i;
			}
		}
	}
	return -1;
}

int sb_safety_mountinfo_dev(const char *text, const char *mountpoint, dev_t *dev)
{
	struct sb_mountinfo_ent e;
	const char *cur = text;
	dev_t found = 0;

	/* The last entry wins: later mounts cover earlier ones. */
	while (sb_safety_mountinfo_next(&cur, &e) == 1)
		if (strcmp(e.mountpoint, mountpoint) == 0)
			found = mount_dev(&e);
	if (!found)
		return -ENOENT;
	*dev = found;
	return 0;
}

int sb_safety_swaps_next(const char **cur, char *name, size_t nlen, char *type, size_t tlen)
{
	const char *s, *end, *p, *f;
	size_t fl;

	while (*cur && **cur) {
		s = *cur;
		end = strchr(s, '\n');
		if (!end)
			end = s + strlen(s);
		*cur = *end ? end + 1 : end;
		p = s;
		if (!next_field(&p, end, &f, &fl))
			continue;
		if (fl == 8 && strncmp(f, "Filename", 8) == 0)
			continue;                 /* header */
		unescape(f, fl, name, nlen);
		if (!next_field(&p, end, &f, &fl))
			continue;
		unescape(f, fl, type, tlen);
		return 1;
	}
	return 0;
}

int sb_safety_swaps_find(const char *text, const dev_t *devs, unsigned ndev,
			 char *where, size_t wlen)
{
	const char *cur = text;
	char name[512], type[32];
	dev_t d;
	unsigned i;

	while (sb_safety_swaps_next(&cur, name, sizeof(name), type, sizeof(type)) == 1) {
		/* Swap files live on a mounted filesystem, which the mount check
		 * already refuses; only block devices matter here. */
		if (strcmp(type, "partition") != 0)
			continue;
		d = node_rdev(name);
		if (!d)
			continue;
		for (i = 0; i < ndev; i++) {
			if (devs[i] == d) {
				if (where && wlen)
					snprintf(where, wlen, "%s", name);
				return (int)i;
			}
		}
	}
	return -1;
}

/* Which disk does one name mean? -1 if none. */
static int name_index(const char *tok, const struct sb_disk_info *infos, unsigned n)
{
	char real[PATH_MAX];
	dev_t d;
	unsigned i;

	for (i = 0; i < n; i++)
		if (strcmp(tok, infos[i].name) == 0 || strcmp(tok, infos[i].path) == 0 ||
		    strcmp(tok, infos[i].resolved) == 0)
			return (int)i;
	if (tok[0] != '/')
		return -1;
	if (realpath(tok, real)) {
		for (i = 0; i < n; i++)
			if (strcmp(real, infos[i].resolved) == 0)
				return (int)i;
	}
	d = node_rdev(tok);
	for (i = 0; d && i < n; i++)
		if (infos[i].dev == d)
			return (int)i;
	return -1;
}

static void append(char *buf, size_t len, const char *fmt, const char *arg)
{
	size_t l = strlen(buf);

	if (l < len)
		snprintf(buf + l, len - l, fmt, arg);
}

int sb_safety_names_match(const char *list, const struct sb_disk_info *infos, unsigned n,
			  char *why, size_t wlen)
{
	bool named[64] = { false };
	char *copy, *tok, *save = NULL;
	char dummy[8];
	unsigned i, ntok = 0;
	int idx, rc = 0;

	if (!why || !wlen) {
		why = dummy;
		wlen = sizeof(dummy);
	}
	why[0] = '\0';
	if (n > 64)
		return -EINVAL;
	copy = strdup(list ? list : "");
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", \t\r\n", &save); tok; tok = strtok_r(NULL, ", \t\r\n", &save)) {
		ntok++;
		idx = name_index(tok, infos, n);
		if (idx < 0) {
			append(why, wlen, "%s", why[0] ? "; " : "");
			append(why, wlen, "'%s' is not one of the disks being checked", tok);
			rc = -EINVAL;
			continue;
		}
		named[idx] = true;
	}
	for (i = 0; i < n; i++) {
		if (!named[i]) {
			append(why, wlen, "%s", why[0] ? "; " : "");
			append(why, wlen, "%s is not named", infos[i].name[0] ? infos[i].name : infos[i].path);
			rc = -EINVAL;
		}
	}
	if (!ntok && !why[0]) {
		append(why, wlen, "%s", "no disk is named");
		rc = -EINVAL;
	}
	free(copy);
	return rc;
}

bool sb_safety_confirm_ok(const char *answer, const struct sb_disk_info *infos, unsigned n)
{
	char line[256], want[64];
	size_t len;
	const char *s;

	if (!answer || !n)
		return false;
	s = answer;
	while (isspace((unsigned char)*s))
		s++;
	snprintf(line, sizeof(line), "%s", s);
	len = strlen(line);
	while (len && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (!len)
		return false;
	snprintf(want, sizeof(want), "destroy %u disks", n);
	if (strcmp(line, want) == 0)
		return true;
	if (n == 1 && strcmp(line, "destroy 1 disk") == 0)
		return true;
	/* "destroy" alone or "yes" must not slip through as a name list. */
	return sb_safety_names_match(line, infos, n, NULL, 0) == 0;
}
