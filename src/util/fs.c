#include "util/fs.h"

#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

int sb_mkdir_p(const char *path, mode_t mode, struct sb_err *err)
{
	char tmp[PATH_MAX], *p;

	if (!*path)
		return sb_err_set(err, -EINVAL, "cannot create a directory with an empty name");
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s", path) >= sizeof(tmp))
		return sb_err_set(err, -ENAMETOOLONG, "path too long: %s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return sb_err_sys(err, -errno, "cannot create %s", tmp);
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return sb_err_sys(err, -errno, "cannot create %s", tmp);
	return 0;
}
