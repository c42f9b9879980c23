/* The pieces ext4, xfs and btrfs share (mkfs_int.h). */
#include "layers/mkfs_int.h"
#include "sys/udev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/blockdev.h"
#include "util/log.h"

void sb_mkfs_args_add(struct sb_mkfs_args *a, const char *opt, const char *val)
{
	if (a->n >= SB_MKFS_ARGS_MAX)
		return;
	snprintf(a->opt[a->n], SB_OPTSTR_MAX, "%s", opt);
	snprintf(a->val[a->n], SB_OPTSTR_MAX, "%s", val ? val : "");
	a->n++;
}

void sb_mkfs_args_words(struct sb_mkfs_args *a, const char *words)
{
	char buf[SB_OPTSTR_MAX], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", words);
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		sb_mkfs_args_add(a, tok, NULL);
}

void sb_mkfs_args_join(const struct sb_mkfs_args *a, char *buf, size_t len)
{
	size_t n = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < a->n && n < len; i++)
		n += snprintf(buf + n, len - n, " %s%s%s", a->opt[i], a->val[i][0] ? " " : "", a->val[i]);
}

bool sb_mkfs_plan_force(const struct sb_layer *l)
{
	return l->below && !(l->below->ops->order == SB_ORDER_DEVICES &&
			     l->spec->devices.kind == SB_DEVICES_DISKS);
}

int sb_mkfs_begin(const struct sb_layer *l, struct sb_mkfs_args **a, struct sb_err *err)
{
	int rc;

	*a = NULL;
	if (!l->below || l->below->ndev != 1)
		return sb_err_set(err, -EINVAL, "%s needs exactly one device below it, not %u",
				  l->ops->name, l->below ? l->below->ndev : 0);
	rc = sb_blockdev_require(BD_PLUGIN_FS, err);
	if (rc)
		return rc;
	*a = calloc(1, sizeof(**a));
	return *a ? 0 : sb_err_set(err, -ENOMEM, "out of memory");
}

int sb_mkfs_run(gboolean (*mkfs)(const gchar *, const BDExtraArg **, GError **), const char *tool,
		const char *dev, const struct sb_mkfs_args *a, struct sb_err *err)
{
	const BDExtraArg *extra[SB_MKFS_ARGS_MAX + 1];
	BDExtraArg args[SB_MKFS_ARGS_MAX];
	GError *gerr = NULL;
	unsigned i;

	for (i = 0; i < a->n; i++) {
		args[i].opt = (char *)a->opt[i];
		args[i].val = (char *)a->val[i];
		extra[i] = &args[i];
	}
	extra[a->n] = NULL;
	sb_verbose("%s: mkfs on %s", tool + strlen("mkfs."), dev);
	if (mkfs(dev, extra, &gerr)) {
		struct sb_err uerr = { 0 };

		/* the build is done with the filesystem: a udev that does not
		 * answer is a warning (its links may follow), not a failure */
		if (sb_udev_reprobe(dev, SB_UDEV_TIMEOUT_MS, &uerr) < 0)
			sb_warn("%s: %s", tool, uerr.msg);
		return 0;
	}
	sb_err_set(err, -EIO, "%s on %s failed: %s", tool, dev, gerr ? gerr->message : "unknown error");
	g_clear_error(&gerr);
	return -EIO;
}

void sb_mkfs_expose(struct sb_layer *l)
{
	l->ndev = 1;
	snprintf(l->dev[0], SB_PATH_MAX, "%s", l->below->dev[0]);
}

int sb_mkfs_describe(const struct sb_layer *l, int (*read)(const char *dev, struct sb_mkfs_super *sb,
							    struct sb_err *err),
		     bool with_label, struct json_object *out, struct sb_err *err)
{
	struct sb_mkfs_super sb;
	unsigned i;
	int rc;

	if (!l->ndev)
		return 0;
	memset(&sb, 0, sizeof(sb));
	rc = read(l->dev[0], &sb, err);
	if (rc)
		return rc;
	sb_fs_ids_json(&sb.ids, with_label, out);
	json_object_object_add(out, "block_size", json_object_new_int64(sb.block_size));
	json_object_object_add(out, "blocks", json_object_new_int64((int64_t)sb.blocks));
	for (i = 0; i < sb.nfig; i++)
		json_object_object_add(out, sb.fig[i].key, json_object_new_int64(sb.fig[i].v));
	return 0;
}
