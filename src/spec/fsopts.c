/* fs.mkfs_options and fs.mount_options against an allow-list. Both strings
 * reach root's tools (mke2fs argv, mount(2) data), and free text there can
 * do more than shape a benchmark: mke2fs -z writes an undo file anywhere,
 * -d copies a host directory into the filesystem, -F/-S force or rewrite,
 * -l reads a bad-block list from any file; mount's journal_path= opens
 * another device, errors=panic takes the host down. So only what changes
 * the filesystem's geometry or behaviour under a benchmark is accepted,
 * each value in the form that option takes; everything else is refused,
 * naming the word and the list. */
#include "spec/spec_int.h"
#include "spec/part.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define AT(path) sb_spec_where(c->root, path)

enum val { V_NONE, V_NUM, V_FEATURES, V_EXT, V_JOURNAL, V_DATA, V_BOOL01 };

struct allowed {
	const char *name;   /* "-b" (mkfs) or "commit" (mount, before '=') */
	enum val val;
};

static const struct allowed mkfs_allowed[] = {
	{ "-b", V_NUM }, { "-I", V_NUM }, { "-i", V_NUM }, { "-m", V_NUM }, { "-N", V_NUM },
	{ "-g", V_NUM }, { "-G", V_NUM }, { "-O", V_FEATURES }, { "-E", V_EXT }, { "-J", V_JOURNAL },
	{ "-j", V_NONE }, { NULL, V_NONE },
};

static const char mkfs_list[] =
	"-b N, -I N, -i N, -m N, -N N, -g N, -G N, -O FEATURE[,^FEATURE...], "
	"-E stride=N,stripe_width=N,lazy_itable_init=0|1,lazy_journal_init=0|1,packed_meta_blocks=0|1,"
	"num_backup_sb=0|1|2,discard,nodiscard, -J size=N, -j";

static const char *const ext_num_keys[] = {
	"stride", "stripe_width", "stripe-width", "lazy_itable_init", "lazy_journal_init",
	"packed_meta_blocks", "num_backup_sb", NULL,
};
static const char *const ext_flags[] = { "discard", "nodiscard", NULL };

static const struct allowed mount_allowed[] = {
	{ "noatime", V_NONE }, { "relatime", V_NONE }, { "strictatime", V_NONE },
	{ "nodiratime", V_NONE }, { "lazytime", V_NONE }, { "nolazytime", V_NONE },
	{ "sync", V_NONE }, { "async", V_NONE }, { "rw", V_NONE },
	{ "nosuid", V_NONE }, { "nodev", V_NONE }, { "noexec", V_NONE },
	{ "data", V_DATA }, { "barrier", V_BOOL01 }, { "nobarrier", V_NONE },
	{ "commit", V_NUM }, { "discard", V_NONE }, { "nodiscard", V_NONE },
	{ "delalloc", V_NONE }, { "nodelalloc", V_NONE },
	{ "dioread_nolock", V_NONE }, { "dioread_lock", V_NONE },
	{ "auto_da_alloc", V_NONE }, { "noauto_da_alloc", V_NONE },
	{ "journal_checksum", V_NONE }, { "nojournal_checksum", V_NONE },
	{ "journal_async_commit", V_NONE },
	{ "max_batch_time", V_NUM }, { "min_batch_time", V_NUM },
	{ "stripe", V_NUM }, { "inode_readahead_blks", V_NUM },
	{ "init_itable", V_NUM }, { "noinit_itable", V_NONE },
	{ "block_validity", V_NONE }, { "noblock_validity", V_NONE },
	{ NULL, V_NONE },
};

static const char mount_list[] =
	"noatime, relatime, strictatime, nodiratime, lazytime, nolazytime, sync, async, rw, nosuid, "
	"nodev, noexec, data=ordered|writeback|journal, barrier[=0|1], nobarrier, commit=N, discard, "
	"nodiscard, delalloc, nodelalloc, dioread_nolock, dioread_lock, auto_da_alloc, "
	"noauto_da_alloc, journal_checksum, nojournal_checksum, journal_async_commit, "
	"max_batch_time=N, min_batch_time=N, stripe=N, inode_readahead_blks=N, init_itable=N, "
	"noinit_itable, block_validity, noblock_validity";

static bool is_num(const char *s)
{
	if (!*s || strlen(s) > 10)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static bool in(const char *const *list, const char *s, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && !strncmp(*list, s, n))
			return true;
	return false;
}

/* "feature,^feature": names of letters, digits and '_', each optionally
 * negated; mke2fs checks that the feature exists. */
static bool ok_features(const char *s)
{
	bool start = true;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s == ',') {
			if (start)
				return false;
			start = true;
			continue;
		}
		if (*s == '^' && start)
			continue;
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
		start = false;
	}
	return !start;
}

/* -E: key=N for the keys above, or one of the bare flags. */
static bool ok_ext(const char *s)
{
	char item[64];
	const char *end, *eq;
	size_t n;

	if (!*s)
		return false;
	for (;;) {
		end = strchr(s, ',');
		n = end ? (size_t)(end - s) : strlen(s);
		if (!n || n >= sizeof(item))
			return false;
		memcpy(item, s, n);
		item[n] = '\0';
		eq = strchr(item, '=');
		if (eq ? !in(ext_num_keys, item, (size_t)(eq - item)) || !is_num(eq + 1)
		       : !in(ext_flags, item, n))
			return false;
		if (!end)
			return true;
		s = end + 1;
	}
}

static bool ok_value(enum val v, const char *s)
{
	switch (v) {
	case V_NONE: return s == NULL;
	case V_NUM: return s && is_num(s);
	case V_FEATURES: return s && ok_features(s);
	case V_EXT: return s && ok_ext(s);
	case V_JOURNAL: return s && !strncmp(s, "size=", 5) && is_num(s + 5);
	case V_DATA: return s && (!strcmp(s, "ordered") || !strcmp(s, "writeback") || !strcmp(s, "journal"));
	case V_BOOL01: return !s || !strcmp(s, "0") || !strcmp(s, "1");
	}
	return false;
}

static const struct allowed *find(const struct allowed *t, const char *name, size_t n)
{
	for (; t->name; t++)
		if (strlen(t->name) == n && !strncmp(t->name, name, n))
			return t;
	return NULL;
}

static int check_mkfs(const struct sb_spec_ctx *c, const char *opts)
{
	char words[SB_OPTSTR_MAX], *save = NULL, *w, *val;
	const struct allowed *a;

	snprintf(words, sizeof(words), "%s", opts);
	for (w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		/* "-b 4096" and "-b4096" are the same to mke2fs (getopt). */
		a = w[0] == '-' && w[1] && w[1] != '-' ? find(mkfs_allowed, w, 2) : NULL;
		if (!a)
			return sb_spec_fail(c, AT("fs.mkfs_options"), false,
					    "fs.mkfs_options: '%s' is not allowed; allowed: %s", w, mkfs_list);
		val = w[2] ? w + 2 : NULL;
		if (!val && a->val != V_NONE)
			val = strtok_r(NULL, " \t", &save);
		if (!ok_value(a->val, val))
			return sb_spec_fail(c, AT("fs.mkfs_options"), false,
					    "fs.mkfs_options: '%s%s%s' is not allowed; allowed: %s", a->name,
					    val ? " " : "", val ? val : "", mkfs_list);
	}
	return 0;
}

static int check_mount(const struct sb_spec_ctx *c, const char *opts)
{
	char words[SB_OPTSTR_MAX], *save = NULL, *w, *eq;
	const struct allowed *a;

	snprintf(words, sizeof(words), "%s", opts);
	if (opts[0] && (opts[0] == ',' || opts[strlen(opts) - 1] == ',' || strstr(opts, ",,")))
		return sb_spec_fail(c, AT("fs.mount_options"), false,
				    "fs.mount_options: '%s' has an empty option; give them comma-separated, e.g. noatime,commit=30",
				    opts);
	for (w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		eq = strchr(w, '=');
		a = find(mount_allowed, w, eq ? (size_t)(eq - w) : strlen(w));
		if (!a || !ok_value(a->val, eq ? eq + 1 : NULL))
			return sb_spec_fail(c, AT("fs.mount_options"), false,
					    "fs.mount_options: '%s' is not allowed; allowed: %s", w, mount_list);
	}
	return 0;
}

int sb_spec_check_mke2fs_options(const struct sb_spec_ctx *c, const struct sb_stack_spec *s)
{
	return check_mkfs(c, s->fs.mkfs_options);
}

int sb_spec_check_mount_options(const struct sb_spec_ctx *c, const struct sb_stack_spec *s)
{
	return check_mount(c, s->fs.mount_options);
}
