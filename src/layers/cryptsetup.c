/* See cryptsetup_int.h. */
#include "layers/cryptsetup_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "layers/holders.h"
#include "util/log.h"

/* libcryptsetup's last error line: one process builds one layer at a time. */
static char cs_last[256];

static void cs_log(int level, const char *msg, void *usrptr)
{
	(void)usrptr;
	if (level == CRYPT_LOG_ERROR) {
		snprintf(cs_last, sizeof(cs_last), "%s", msg);
		cs_last[strcspn(cs_last, "\n")] = '\0';
	}
	if (level == CRYPT_LOG_DEBUG)
		return;
	sb_debug("libcryptsetup: %s", msg);
}

void sb_cs_reset(void)
{
	cs_last[0] = '\0';
	crypt_set_log_callback(NULL, cs_log, NULL);
}

const char *sb_cs_detail(const char *none)
{
	return cs_last[0] ? cs_last : none;
}

int sb_cs_init(struct crypt_device **cd, const char *dev, const char *layer, struct sb_err *err)
{
	int r;

	sb_cs_reset();
	r = crypt_init(cd, dev);
	if (r < 0)
		return sb_err_sys(err, r, "%s: cannot open %s", layer, dev);
	crypt_set_log_callback(*cd, cs_log, NULL);
	return 0;
}

struct cs_close_arg {
	const char *name;
	uint32_t flags;
};

static int close_once(void *a)
{
	const struct cs_close_arg *c = a;
	int r = crypt_deactivate_by_name(NULL, c->name, c->flags);

	if (r == -ENODEV || crypt_status(NULL, c->name) == CRYPT_INACTIVE)
		return 0;
	return r;
}

int sb_cs_close(const char *layer, const char *name, uint32_t flags, const char *none, struct sb_err *err)
{
	struct cs_close_arg c = { name, flags };
	int r;

	sb_cs_reset();
	r = sb_holders_retry_dm(layer, name, close_once, &c, err);
	if (r == -EBUSY)
		return r;
	if (r < 0)
		return sb_err_sys(err, r, "%s: closing %s failed (%s)", layer, name, sb_cs_detail(none));
	return 0;
}
