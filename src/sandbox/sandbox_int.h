/* Internals of the sandbox runner, shared by its files (not for use outside
 * src/sandbox/). */
#ifndef SB_SANDBOX_INT_H
#define SB_SANDBOX_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sandbox/sandbox.h"
#include "util/err.h"

#define UML_MODULES "/usr/lib/uml/modules"
#define MARK_START "\036\036sb-start\036\036"
#define MARK_END "\036\036sb-end\036\036"
#define DIAG_MAX 8192
#define SB_SANDBOX_RECORDS_DEFAULT "/run/stackbench/sandbox"

/* probe.c */
bool sb_sbx_path_exists(const char *p);
int sb_sbx_read_small(const char *path, char *buf, size_t len);
bool sb_sbx_probe_uml(void);
int sb_sbx_find_kernel(char *out, size_t len, struct sb_err *err);
int sb_sbx_find_init(char *out, size_t len, struct sb_err *err);
void sb_sbx_find_xstate_shim(char *out, size_t len);

/* job.c: the job script (cd, environment, exec of this binary) and the
 * modprobe wrapper, in the run's temp dir. members: the devices inside
 * ("" none); outer: written as SB_OUTER_* so the results name the host. */
/* touched: the host memory touched before the boot (passed in as
 * SB_OUTER_MEM_TOUCHED_*), or NULL */
int sb_sbx_write_job(const char *path, const char *exe, int argc, char **argv,
		     const char *members, const struct sb_mem_touch *touched, struct sb_err *err);
/* Touch min(want, what is free less a sixteenth of it and at least
 * keep_min) bytes of anonymous memory once, and give it back. */
int sb_sbx_touch_memory(uint64_t want, uint64_t keep_min, struct sb_mem_touch *w, struct sb_err *err);
int sb_sbx_write_modprobe(const char *dir, struct sb_err *err);

/* console.c: the kernel's console stream, framed by the init's markers. */
struct sb_sbx_console {
	int state;           /* 0 before start, 1 copying, 2 after end */
	size_t held;         /* bytes of the current marker matched */
	char diag[DIAG_MAX]; /* the kernel's own output, for errors */
	size_t ndiag;
};
void sb_sbx_console_byte(struct sb_sbx_console *c, char ch);
void sb_sbx_diag_add(struct sb_sbx_console *c, const char *p, size_t n);
void sb_sbx_write_all(int fd, const char *p, size_t n);
bool sb_sbx_mconsole_cad(const char *sock);

/* record.c: the host-side record of one run. */
struct sb_sbx_record {
	char path[PATH_MAX];      /* the record file */
	char dir[256];            /* the run's temp dir */
	char members_dir[PATH_MAX]; /* "" when no members */
	char umid[32];
	pid_t owner;              /* the host-side stackbench */
	unsigned long long owner_start; /* its start time (clock ticks since boot) */
	pid_t uml_pgid;           /* 0 until booted */
	pid_t guard;              /* the guardian process, 0 until started */
	int guard_fd;             /* our end of its pipe, -1 none */
};
/* Decide the names (temp dir under tmp, member dir under members_parent or
 * none), write the record, start the guardian (before anything named there
 * exists; it re-reads the record when the run dies), then create the temp
 * dir. Test pause point "sandbox:recorded": guardian up, nothing created. */
int sb_sbx_record_open(struct sb_sbx_record *r, const char *tmp, const char *members_parent,
		       struct sb_err *err);
int sb_sbx_record_write(const struct sb_sbx_record *r, struct sb_err *err);
/* Remove the run's files and its record (a normal end). */
void sb_sbx_record_close(struct sb_sbx_record *r);
/* Create m->count preallocated member files ubd0.. in r->members_dir.
 * Test pause point "sandbox:member": ubd0 allocated, not yet written. */
int sb_sbx_members_create(struct sb_sbx_record *r, const struct sb_sandbox_members *m,
			  struct sb_err *err);
/* A normal end: tell the guardian (started by sb_sbx_record_open) to go. */
void sb_sbx_guard_stop(struct sb_sbx_record *r);
void sb_sbx_rm_tree(const char *dir);

#endif
