/* What the layers over libcryptsetup (luks.c, integrity.c) share, in
 * cryptsetup.c: its last error line for our messages, and opening a
 * device with that log in place. */
#ifndef SB_LAYERS_CRYPTSETUP_INT_H
#define SB_LAYERS_CRYPTSETUP_INT_H

#include <stdint.h>

#include <libcryptsetup.h>

#include "util/err.h"

/* Forget libcryptsetup's last error line and log into it from now on. */
void sb_cs_reset(void);
/* That line (never key material), or none when it logged no error. */
const char *sb_cs_detail(const char *none);
/* crypt_init of dev with the log in place; on failure "LAYER: cannot
 * open DEV" in err. */
int sb_cs_init(struct crypt_device **cd, const char *dev, const char *layer, struct sb_err *err);

/* Close the dm mapping name (crypt_deactivate_by_name with flags),
 * retrying while it is busy (SB_BUSY_BUDGET_MS); gone already is fine.
 * Still busy: -EBUSY naming its holders; else -errno with libcryptsetup's
 * line (none when it logged none). Messages start "LAYER: ". */
int sb_cs_close(const char *layer, const char *name, uint32_t flags, const char *none, struct sb_err *err);

#endif
