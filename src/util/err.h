/* Error contract (as libcryptsetup / dm's ti->error): functions return 0 or a
 * negative errno, and the human sentence is set once, where the failure
 * happens. Callers pass the same struct sb_err down; the first message set
 * wins, so a caller's cleanup failures never overwrite the root cause. */
#ifndef SB_UTIL_ERR_H
#define SB_UTIL_ERR_H

#include <errno.h>

#define SB_ERR_MSG_MAX 1024

struct sb_err {
	int code;                 /* negative errno of the first failure, 0 if none */
	char msg[SB_ERR_MSG_MAX]; /* human sentence; empty if none */
};

/* Set the error if none is set yet; returns code (negative errno) so a
 * failure site can write `return sb_err_set(err, -EIO, "...")`.
 * err may be NULL. code must be negative. */
int sb_err_set(struct sb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like sb_err_set, with ": strerror(-code)" appended. */
int sb_err_sys(struct sb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix an already-set message with more context ("layer md: ..."). */
void sb_err_prefix(struct sb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void sb_err_clear(struct sb_err *err);

static inline int sb_err_isset(const struct sb_err *err) { return err && err->code; }

/* Exit codes; only main.c turns errors into these. */
enum sb_exit {
	SB_EXIT_OK = 0,
	SB_EXIT_FAIL = 1,      /* anything else that went wrong */
	SB_EXIT_USAGE = 2,     /* bad usage or bad stack description (-EINVAL) */
	SB_EXIT_NOROOT = 3,    /* needs root (-EPERM, -EACCES) */
	SB_EXIT_BUSY = 4,      /* device busy / earlier run still present (-EBUSY, -EEXIST) */
	SB_EXIT_REFUSED = 5,   /* refused for safety: a disk or path failed a check (SB_EREFUSED) */
	SB_EXIT_PARTIAL = 6,   /* partial: some hosts of a fleet failed, the others' rows stand (SB_EPARTIAL) */
	SB_EXIT_INTERRUPTED = 130, /* stopped by SIGINT/SIGTERM (-EINTR) */
};

/* "Refused for safety" (a disk in use, a signature, no consent, an untrusted
 * path): its own errno so that every refusal maps to one exit code, whatever
 * check made it. Set it with sb_err_set (its strerror text says nothing). */
#define SB_EREFUSED EMEDIUMTYPE

/* "Partial" (stackbench fleet): some hosts or cells failed, the others'
 * results were fetched and shown. EREMOTEIO because what failed is remote:
 * nothing local returns it, so it maps to exit 6 alone. */
#define SB_EPARTIAL EREMOTEIO

int sb_err_exit_code(int code);

#endif
