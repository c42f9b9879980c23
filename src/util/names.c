#include "util/names.h"

#include <stdio.h>

const char *sb_names_join(char *buf, size_t len, const char *sep, const char *(*nth)(size_t i))
{
	const char *n;
	size_t i, used = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; (n = nth(i)) && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? sep : "", n);
	return buf;
}
