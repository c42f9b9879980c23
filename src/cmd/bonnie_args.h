/* `stackbench bonnie`'s command line: bonnie++ 2.00a's options, read as
 * bonnie++ reads them (bonnie++.cpp's getopt loop and size_from_str). */
#ifndef SB_CMD_BONNIE_ARGS_H
#define SB_CMD_BONNIE_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

struct sb_bonnie_args {
	const char *dir, *user, *group, *machine;
	uint64_t size;            /* bytes; 0 with no_io */
	uint64_t chunk;           /* -s SIZE:CHUNK, bytes (0 = 8192) */
	uint32_t seeks, procs;    /* -s SIZE:CHUNK:SEEKS:PROCS (0 = 8192, 5) */
	uint64_t ram;             /* bytes */
	bool size_set, ram_set, quiet, sync;
	bool no_io;               /* -s 0: only the file tests */
	uint32_t files;           /* -n NUMBER, x1024 (0 skips the file tests) */
	int64_t fmax, fmin;       /* -n NUMBER:MAX:MIN bytes; MAX -1 links, -2 symlinks */
	uint32_t dirs;            /* -n ...:DIRS (0 = 1) */
	uint64_t fchunk;          /* -n ...:CHUNK bytes (0 = 8192) */
};

/* 0, or -EINVAL with the message; refusals read "not supported by
 * stackbench bonnie: -X ..." */
int sb_bonnie_args_parse(int argc, char **argv, struct sb_bonnie_args *a, struct sb_err *err);

#endif
