#include "cmd/cmd.h"

/* Placeholder until its issue lands. */
int sb_cmd_job(int argc, char **argv, struct sb_err *err)
{
	return sb_err_set(err, -ENOSYS, "%s: not implemented yet", argv[0]);
}
