/* --destroy-data=DEV for `job` and `bench --target`: taken out of argv
 * before the command's own parser sees it, so the job option table (which
 * mirrors fio's) stays about the job alone. */
#include <string.h>

#include "cmd/cmd.h"

int sb_cmd_take_destroy_data(int *argc, char **argv, const char **val, struct sb_err *err)
{
	int i, j, take;

	*val = NULL;
	for (i = 1; i < *argc;) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strncmp(argv[i], "--destroy-data=", 15)) {
			*val = argv[i] + 15;
			take = 1;
		} else if (!strcmp(argv[i], "--destroy-data")) {
			if (i + 1 >= *argc)
				return sb_err_set(err, -EINVAL, "option '--destroy-data' needs a value");
			*val = argv[i + 1];
			take = 2;
		} else {
			i++;
			continue;
		}
		for (j = i; j + take <= *argc; j++)
			argv[j] = argv[j + take];
		*argc -= take;
	}
	return 0;
}
