/* Which kernel crypto driver serves a dm-crypt cipher: generic C or an
 * accelerated one (AES-NI, ARMv8 CE, Marvell CESA ...). Read from
 * /proc/crypto, which lists an algorithm only once something instantiated
 * it, so call this while the dm-crypt mapping is active. */
#ifndef SB_REPORT_CRYPTO_H
#define SB_REPORT_CRYPTO_H

#include <stddef.h>
#include <json-c/json.h>

#include "util/err.h"

/* dm-crypt cipher spec ("aes-xts-plain64", "aes-cbc-essiv:sha256",
 * "capi:xts(aes)-plain64") -> the kernel algorithm names to look for, most
 * specific first ("essiv(cbc(aes),sha256)", then "cbc(aes)"). Returns how
 * many were written (0 if the spec is not understood). */
int sb_crypto_api_names(const char *spec, char names[][128], int max);

/* {"name", "driver", "priority", "accelerated"} for the highest-priority
 * skcipher implementation of spec found in proc_crypto (NULL means
 * /proc/crypto). -ENOENT (message set) when none is listed. */
int sb_crypto_driver(const char *spec, const char *proc_crypto,
		     struct json_object **out, struct sb_err *err);

#endif
