/* Key memory: LUKS passphrases and volume keys live only in buffers from
 * here (crypt_safe_alloc-like): mmap'd, mlock'ed, excluded from core dumps,
 * wiped on free. While any secret is held the process is made non-dumpable
 * (prctl PR_SET_DUMPABLE 0) so no core file or ptrace peer can read it; the
 * previous setting is restored when the last secret is freed. */
#ifndef SB_SYS_SECRET_H
#define SB_SYS_SECRET_H

#include <stddef.h>

#include "util/err.h"

/* Zeroed, locked buffer of size bytes, or NULL with errno set (ENOMEM when
 * mlock fails: RLIMIT_MEMLOCK too small). */
void *sb_secret_alloc(size_t size);
/* explicit_bzero + munlock + munmap. NULL is fine. */
void sb_secret_free(void *p);
/* Number of secrets currently held (tests). */
unsigned sb_secret_held(void);
/* Fill a secret with random bytes from getrandom(). */
int sb_secret_random(void *p, size_t size, struct sb_err *err);

#endif
