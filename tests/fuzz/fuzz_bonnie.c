/* libFuzzer target for `stackbench bonnie`'s command line (bonnie++'s, as
 * cmd/bonnie_args.c reads it): the input's words (split at spaces and
 * newlines) are the arguments. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/bonnie_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line, *argv[64], *save = NULL, *t;
	struct sb_bonnie_args a;
	struct sb_err e = { 0 };
	int argc = 0, rc;

	if (memchr(data, '\0', size) || !(line = strndup((const char *)data, size)))
		return 0;
	argv[argc++] = "bonnie";
	for (t = strtok_r(line, " \n", &save); t && argc < 63; t = strtok_r(NULL, " \n", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	rc = sb_bonnie_args_parse(argc, argv, &a, &e);
	if (rc < 0 && (!e.msg[0] || e.code >= 0))
		abort();   /* every failure must say why */
	/* -s 0, and only -s 0, skips the I/O tests: no size wraps to 0 */
	if (rc == 0 && (!a.dir || (a.size_set && a.no_io != (a.size == 0))))
		abort();
	free(line);
	return 0;
}
