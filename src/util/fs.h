/* Small filesystem helpers shared by the layers, the state and the results. */
#ifndef SB_UTIL_FS_H
#define SB_UTIL_FS_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/err.h"

/* mkdir -p: create path and its missing parents with mode; existing
 * directories are fine. The message names the component that failed. */
int sb_mkdir_p(const char *path, mode_t mode, struct sb_err *err);

/* Open (with create: make, mode 0700, each missing component) a directory
 * stackbench keeps its own files in: the state directory, the loop work
 * directory and a stack's run directory below it. Walked from / with
 * openat: no component may be a link other than a root-owned one on the
 * way, parents must be root's (or sticky, like /var/tmp), and the directory
 * itself must be a real directory owned by us that no one else can write.
 * Anything else: -SB_EREFUSED and a message saying what is wrong. Returns
 * an O_DIRECTORY fd. */
int sb_dir_open_trusted(const char *path, bool create, struct sb_err *err);

/* The copy of a shipped file that belongs to this binary: `built` (in the
 * source or build tree) when this binary runs from the build tree, else
 * `installed`; when that one is not accessible with mode (R_OK, X_OK),
 * the other. 0 with its path in out, or -ENOENT (no message: the caller
 * says what it looked for). */
int sb_fs_own_copy(char *out, size_t len, const char *built, const char *installed, int mode);

/* The whole of a (small, e.g. /proc) text file, NUL-terminated, in memory
 * the caller frees; NULL with errno set when it cannot be read. Read until
 * EOF, not by st_size: /proc files report 0. */
char *sb_fs_read_text(const char *path);

/* Write all of text and a newline to fd (EINTR retried), then fsync: the
 * body of a file written to a temporary name and linked or renamed into
 * place. 0, or -errno with "cannot write PATH". */
int sb_fs_write_synced(int fd, const char *text, const char *path, struct sb_err *err);

/* Write text to path, mode 0600, never through a link: with excl a new
 * file (O_EXCL), else created or truncated. 0, or -errno with a message. */
int sb_fs_write_text(const char *path, const char *text, bool excl, struct sb_err *err);

/* An output file the user names (report -o, compare --chart, --per-layer
 * --chart): sb_fs_out_begin makes a new file beside path (its name in tmp,
 * an fd open for writing, mode 0644), sb_fs_out_end renames it over path
 * when r (the writing's result) is 0, else removes it and returns r. So an existing link at path is replaced,
 * never written through, and a failed write leaves the old file whole.
 * what starts the messages ("--chart a.png"). */
int sb_fs_out_begin(const char *path, char *tmp, size_t len, const char *what, struct sb_err *err);
int sb_fs_out_end(const char *tmp, const char *path, int r, const char *what, struct sb_err *err);

#endif
