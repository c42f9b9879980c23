/* Cipher speeds of this machine, the ceilings of an encrypted stack and
 * of an SSH export: the dm-crypt ciphers through the kernel crypto API
 * (AF_ALG, one request per sector: sys/crypto.h) and the SSH ciphers
 * through OpenSSL's EVP interface, in `openssl speed -evp`'s block sizes.
 * Every figure is MB/s = 10^6 bytes/s. */
#ifndef SB_BENCH_CIPHERS_H
#define SB_BENCH_CIPHERS_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "util/err.h"

#define SB_CIPHERS_UNIT "MB/s (10^6 bytes/s)"

/* `openssl speed`'s block sizes */
extern const unsigned sb_ciphers_ssh_blocks[];
extern const unsigned sb_ciphers_nssh_blocks;

/* The default lists: what users choose for dm-crypt ("CIPHER:KEYBITS")
 * and for ssh -c. NULL-terminated. */
extern const char *const sb_ciphers_dm_default[];
extern const char *const sb_ciphers_ssh_default[];

/* An SSH cipher name (ssh -c spelling; "@openssh.com" may be left off) ->
 * its canonical ssh name and OpenSSL EVP name; -EINVAL with the list of
 * known names if unknown. */
int sb_ciphers_ssh_lookup(const char *name, const char **ssh_name, const char **evp_name,
			  struct sb_err *err);

/* Encrypt with SSH cipher `name` in `block`-byte packets for about
 * `seconds`: MB/s. AEAD ciphers (gcm, chacha20-poly1305) take a fresh nonce,
 * 4 bytes of additional data (the packet length) and a tag per packet, as
 * SSH does; ctr ciphers are one continuous stream and SSH's separate MAC
 * is not included. MB/s per second of this thread's CPU time (user +
 * system), as openssl speed divides by CPU time. impl (may be NULL) gets which implementation OpenSSL
 * uses (see sb_ciphers_ssh_impl). For export: the SSH cipher's ceiling. */
int sb_ciphers_measure_ssh(const char *name, unsigned block, double seconds, double *mbs,
			   char *impl, size_t ilen, struct sb_err *err);

/* Which code OpenSSL dispatches to for this cipher on this CPU: from CPUID
 * as masked by the OPENSSL_ia32cap environment variable on x86, from the
 * kernel's hwcaps (NEON, AES, PMULL) as OPENSSL_armcap replaces them on ARM
 * (OpenSSL's own
 * capability vector is not exported by libcrypto 3), and the provider the
 * EVP_CIPHER came from: "AES-NI + PCLMULQDQ (default provider)". */
void sb_ciphers_ssh_impl(const char *evp_name, char *buf, size_t len);

/* "aes-xts-plain64:512" -> {"cipher","key_bits","kernel_name","driver",
 * "module","accelerated","sectors":{"512":{"encrypt_mbs","decrypt_mbs"},..}}
 * or the same with "error" when the kernel cannot run it. The key size
 * defaults to 256 bits. -EINVAL only for a malformed entry. */
int sb_ciphers_dm_json(const char *entry, const unsigned *sectors, unsigned nsectors,
		       double seconds, struct json_object **out, struct sb_err *err);
/* 0, or -EINVAL with the sentence when entry is not "SPEC[:KEYBITS]". */
int sb_ciphers_dm_check(const char *entry, struct sb_err *err);
/* {"cipher","evp","implementation","blocks":{"16":MBS,...}} or "error". */
int sb_ciphers_ssh_json(const char *name, double seconds, struct json_object **out,
			struct sb_err *err);

/* The whole table: {"unit","seconds_per_figure","dm_crypt":[...],"ssh":[...],
 * "notes":[...]}. dm/ssh: NULL-terminated lists (empty: that half left out). */
int sb_ciphers_measure(const char *const *dm, const char *const *ssh, double seconds,
		       struct json_object **out, struct sb_err *err);

/* results "ciphers" for a run: the stack's own dm-crypt cipher at its key
 * size (luks_cipher NULL: none) and the SSH ciphers named (NULL or empty:
 * none), `seconds` per figure. A cipher the kernel cannot run is a row
 * with "error"; only a malformed name fails (-EINVAL). For an export: the
 * SSH ceiling of one cipher is sb_ciphers_measure_ssh(name, 16384, ...). */
int sb_ciphers_record(struct json_object *res, const char *luks_cipher, unsigned key_bits,
		      const char *const *ssh, double seconds, struct sb_err *err);

#endif
