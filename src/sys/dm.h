/* Device-mapper through libdevmapper (not the dmsetup CLI), for the layers
 * that make dm devices (fault, cache): one log callback that keeps the last
 * libdevmapper error for the caller's message (nothing reaches stderr on its
 * own), and udev cookies on the tasks udev hears of (create, resume, remove)
 * so a node exists / is gone when the call returns. A cookie on SUSPEND is
 * never answered: suspend gets none. Functions return 0 or -errno and set no
 * sb_err: the layer words the sentence, with sb_dm_last() in it. */
#ifndef SB_SYS_DM_H
#define SB_SYS_DM_H

#include <stdint.h>
#include <stddef.h>

/* The first target of a table or status line. */
struct sb_dm_target {
	char target[32];          /* "linear", "cache", "delay"... */
	char params[1024];        /* the table's params, or the status line */
	uint64_t sectors;         /* its length */
};

/* The last error libdevmapper logged during the latest create / reload /
 * suspend / resume / remove; "" when it said nothing. */
const char *sb_dm_last(void);
/* 1 exists, 0 gone, -errno when device-mapper cannot be asked. */
int sb_dm_exists(const char *name);
/* Create NAME with one target over sectors 0..sectors-1 (waits for udev). */
int sb_dm_create(const char *name, uint64_t sectors, const char *target, const char *params);
/* Load a new one-target table into NAME's inactive slot; it takes effect on
 * sb_dm_suspend + sb_dm_resume. */
int sb_dm_reload(const char *name, uint64_t sectors, const char *target, const char *params);
int sb_dm_suspend(const char *name);
int sb_dm_resume(const char *name);
/* Remove NAME once: 0 when removed or already gone, -EBUSY when open (by
 * errno or libdevmapper's "busy" message), -EIO otherwise. For sb_retry_busy. */
int sb_dm_remove(const char *name);
/* NAME's first target: its table (status 0) or its status line (status 1). */
int sb_dm_first(const char *name, int status, struct sb_dm_target *t);

#endif
