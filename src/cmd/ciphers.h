/* stackbench ciphers: its options and its table, apart so the unit tests
 * can reach them without measuring. */
#ifndef SB_CMD_CIPHERS_H
#define SB_CMD_CIPHERS_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "util/err.h"

#define SB_CIPHERS_MAX 16

struct sb_ciphers_args {
	double seconds;                         /* per figure */
	bool json;
	const char *dm[SB_CIPHERS_MAX + 1];     /* NULL-terminated; into argv or the defaults */
	const char *ssh[SB_CIPHERS_MAX + 1];    /* canonical ssh names (static) */
	unsigned ndm, nssh;
	bool dm_given, ssh_given;               /* a list was named (possibly "none") */
};

int sb_cmd_ciphers_parse(int argc, char **argv, struct sb_ciphers_args *a, struct sb_err *err);
/* The table of sb_ciphers_measure's object. */
void sb_cmd_ciphers_print(struct json_object *res, FILE *f);

#endif
