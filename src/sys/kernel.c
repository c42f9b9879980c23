#include "sys/kernel.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

void sb_kernel_need(struct sb_kernel_needs *n, const char *what)
{
	unsigned i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->what[i], what))
			return;
	if (n->n < SB_KERNEL_NEEDS_MAX)
		n->what[n->n++] = what;
}

bool sb_kernel_needs_has(const struct sb_kernel_needs *n, const char *what)
{
	unsigned i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->what[i], what))
			return true;
	return false;
}

static bool file_has_word(const char *path, const char *word)
{
	char line[512], *p;
	size_t wl = strlen(word);
	bool found = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		for (p = strstr(line, word); p && !found; p = strstr(p + 1, word))
			found = (p == line || strchr(" \t/", p[-1])) && strchr(" \t\n.", p[wl]);
	fclose(f);
	return found;
}

/* A filesystem is there when /proc/filesystems lists it, or when this
 * kernel's modules include it (mount(2) loads it on first use). */
static bool has_fs(const char *name)
{
	char path[600], mod[64];
	struct utsname u;

	if (file_has_word("/proc/filesystems", name))
		return true;
	if (uname(&u) < 0)
		return false;
	snprintf(mod, sizeof(mod), "%s.ko", name);
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	if (file_has_word(path, mod))
		return true;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.builtin", u.release);
	return file_has_word(path, mod);
}

bool sb_kernel_has(const char *what)
{
	if (!strcmp(what, "md"))
		return access("/proc/mdstat", F_OK) == 0 || access("/sys/module/md_mod", F_OK) == 0;
	if (!strcmp(what, "dm"))
		return access("/dev/mapper/control", F_OK) == 0 || file_has_word("/proc/misc", "device-mapper");
	if (!strncmp(what, "fs:", 3))
		return has_fs(what + 3);
	return false;
}

const char *sb_kernel_module(const char *what)
{
	if (!strcmp(what, "md"))
		return "md_mod";
	if (!strcmp(what, "dm"))
		return "dm_mod";
	if (!strncmp(what, "fs:", 3))
		return what + 3;
	return what;
}

static void words(const char *what, char *out, size_t len)
{
	if (!strcmp(what, "md"))
		snprintf(out, len, "md");
	else if (!strcmp(what, "dm"))
		snprintf(out, len, "device-mapper");
	else if (!strncmp(what, "fs:", 3))
		snprintf(out, len, "the %s filesystem", what + 3);
	else
		snprintf(out, len, "%s", what);
}

void sb_kernel_lacking(const struct sb_kernel_needs *n, char *why, size_t len)
{
	const char *lack[SB_KERNEL_NEEDS_MAX];
	char w[64];
	unsigned i, k = 0;
	size_t used = 0;

	why[0] = '\0';
	for (i = 0; i < n->n; i++)
		if (!sb_kernel_has(n->what[i]))
			lack[k++] = n->what[i];
	for (i = 0; i < k && used + 1 < len; i++) {
		words(lack[i], w, sizeof(w));
		used += (size_t)snprintf(why + used, len - used, "%s%s",
					 !i ? "" : i + 1 == k ? " and " : ", ", w);
	}
}
