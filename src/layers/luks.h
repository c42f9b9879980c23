/* LUKS layer extras that other parts call (safety issue: reopening a stack). */
#ifndef SB_LAYERS_LUKS_H
#define SB_LAYERS_LUKS_H

#include <stddef.h>

#include "util/err.h"

/* 0 if dev carries a LUKS1/LUKS2 header libcryptsetup can load; -EINVAL with
 * "luks: no valid LUKS header on DEV (damaged or not LUKS)" otherwise, so a
 * damaged header is never reported as a generic failure. Works on image files
 * without root. */
int sb_luks_check_header(const char *dev, struct sb_err *err);

/* Check a passphrase against dev's keyslots without activating anything:
 * 0 if it opens a keyslot, -EPERM "luks: wrong key for DEV" if the header is
 * fine but no keyslot opens, -EINVAL (as above) if the header is damaged. */
int sb_luks_check_key(const char *dev, const void *key, size_t keylen, struct sb_err *err);

#endif
