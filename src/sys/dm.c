/* libdevmapper calls shared by the dm layers; see dm.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <libdevmapper.h>

#include "sys/dm.h"

static char dm_last[256];

__attribute__((format(printf, 5, 6)))
static void dm_logfn(int level, const char *file, int line, int dm_errno_or_class, const char *f, ...)
{
	va_list ap;

	(void)file;
	(void)line;
	(void)dm_errno_or_class;
	if ((level & 7) > 3)   /* _LOG_ERR is 3; warnings and debug are noise here */
		return;
	va_start(ap, f);
	vsnprintf(dm_last, sizeof(dm_last), f, ap);
	va_end(ap);
}

static void dm_init(void)
{
	static bool done;

	if (done)
		return;
	dm_log_with_errno_init(dm_logfn);
	dm_udev_set_sync_support(1);
	done = true;
}

const char *sb_dm_last(void)
{
	return dm_last;
}

/* One task on NAME, with one target when target is set; a udev cookie only
 * where udev hears of it (not SUSPEND, not RELOAD). */
static int dm_run(int type, const char *name, uint64_t sectors, const char *target, const char *params)
{
	struct dm_task *dmt;
	uint32_t cookie = 0;
	int ok;

	dm_init();
	dm_last[0] = '\0';
	dmt = dm_task_create(type);
	if (!dmt)
		return -ENOMEM;
	ok = dm_task_set_name(dmt, name) && (!target || dm_task_add_target(dmt, 0, sectors, target, params));
	if (ok && (type == DM_DEVICE_CREATE || type == DM_DEVICE_RESUME))
		ok = dm_task_set_cookie(dmt, &cookie, 0);
	ok = ok && dm_task_run(dmt);
	if (cookie)
		(void)dm_udev_wait(cookie);
	dm_task_destroy(dmt);
	return ok ? 0 : -EIO;
}

int sb_dm_create(const char *name, uint64_t sectors, const char *target, const char *params)
{
	return dm_run(DM_DEVICE_CREATE, name, sectors, target, params);
}

int sb_dm_reload(const char *name, uint64_t sectors, const char *target, const char *params)
{
	return dm_run(DM_DEVICE_RELOAD, name, sectors, target, params);
}

int sb_dm_suspend(const char *name)
{
	return dm_run(DM_DEVICE_SUSPEND, name, 0, NULL, NULL);
}

int sb_dm_resume(const char *name)
{
	return dm_run(DM_DEVICE_RESUME, name, 0, NULL, NULL);
}

int sb_dm_exists(const char *name)
{
	struct dm_task *dmt;
	struct dm_info info;
	int r = -EIO;

	dm_init();
	dmt = dm_task_create(DM_DEVICE_INFO);
	if (!dmt)
		return -ENOMEM;
	if (dm_task_set_name(dmt, name) && dm_task_run(dmt) && dm_task_get_info(dmt, &info))
		r = info.exists ? 1 : 0;
	dm_task_destroy(dmt);
	return r;
}

int sb_dm_remove(const char *name)
{
	struct dm_task *dmt;
	uint32_t cookie = 0;
	int ok, e;

	if (sb_dm_exists(name) == 0)
		return 0;
	dm_last[0] = '\0';
	dmt = dm_task_create(DM_DEVICE_REMOVE);
	if (!dmt)
		return -ENOMEM;
	ok = dm_task_set_name(dmt, name) && dm_task_set_cookie(dmt, &cookie, 0) && dm_task_run(dmt);
	e = ok ? 0 : dm_task_get_errno(dmt);
	if (cookie)
		(void)dm_udev_wait(cookie);
	dm_task_destroy(dmt);
	if (ok || sb_dm_exists(name) == 0)
		return 0;
	return e == EBUSY || strstr(dm_last, "busy") ? -EBUSY : -EIO;
}

int sb_dm_first(const char *name, int status, struct sb_dm_target *t)
{
	struct dm_task *dmt;
	uint64_t start = 0, length = 0;
	char *target = NULL, *params = NULL;
	int rc = -EIO;

	dm_init();
	t->target[0] = t->params[0] = '\0';
	t->sectors = 0;
	dmt = dm_task_create(status ? DM_DEVICE_STATUS : DM_DEVICE_TABLE);
	if (!dmt)
		return -ENOMEM;
	if (dm_task_set_name(dmt, name) && dm_task_run(dmt)) {
		(void)dm_get_next_target(dmt, NULL, &start, &length, &target, &params);
		snprintf(t->target, sizeof(t->target), "%s", target ? target : "");
		snprintf(t->params, sizeof(t->params), "%s", params ? params : "");
		t->sectors = length;
		rc = 0;
	}
	dm_task_destroy(dmt);
	return rc;
}
