/* Programs a stack runs (a daemon, a mount helper), in one place: a layer
 * names what its spec will execute and the Debian package that has it
 * (sb_layer_ops.programs); build, build-and-test and plan ask here before
 * anything is built, so a missing one is said first, with the apt-get
 * line, not after the layers below it were built. */
#ifndef SB_SYS_PROGRAMS_H
#define SB_SYS_PROGRAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

#define SB_PROGRAMS_MAX 24

struct sb_program_needs {
	unsigned n;
	/* static strings: a name looked up in $PATH as execvp does, or an
	 * absolute path; the package that installs it */
	const char *name[SB_PROGRAMS_MAX];
	const char *package[SB_PROGRAMS_MAX];
};

/* Add a need (once per name). */
void sb_program_need(struct sb_program_needs *n, const char *name, const char *package);
/* Is it there and executable: an absolute path as is, a bare name in
 * $PATH (execvp's default when unset)? */
bool sb_program_found(const char *name);
/* 0 when every one is found; else -ENOENT and "WHO needs smbd, mount.cifs,
 * which this machine lacks (apt-get install samba cifs-utils)". */
int sb_programs_check(const struct sb_program_needs *n, const char *who, struct sb_err *err);

#endif
