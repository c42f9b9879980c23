/* Small filesystem helpers shared by the layers, the state and the results. */
#ifndef SB_UTIL_FS_H
#define SB_UTIL_FS_H

#include <sys/types.h>

#include "util/err.h"

/* mkdir -p: create path and its missing parents with mode; existing
 * directories are fine. The message names the component that failed. */
int sb_mkdir_p(const char *path, mode_t mode, struct sb_err *err);

#endif
