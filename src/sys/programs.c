/* Programs a stack runs: found or not, said before anything is built. */
#include "sys/programs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sb_program_need(struct sb_program_needs *n, const char *name, const char *package)
{
	unsigned i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->name[i], name))
			return;
	if (n->n < SB_PROGRAMS_MAX) {
		n->name[n->n] = name;
		n->package[n->n++] = package;
	}
}

bool sb_program_found(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	char full[PATH_MAX];

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	if (!path)
		path = "/bin:/usr/bin";   /* execvp's default */
	for (p = path; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		/* an empty entry is the current directory, as for execvp */
		snprintf(full, sizeof(full), "%.*s/%s", end > p ? (int)(end - p) : 1, end > p ? p : ".", name);
		if (access(full, X_OK) == 0)
			return true;
	}
	return false;
}

/* " a, b" appended to out (each word once). */
static void add_word(char *out, size_t len, const char *w)
{
	size_t used = strlen(out), wl = strlen(w);
	const char *s;

	for (s = strstr(out, w); s; s = strstr(s + 1, w))
		if ((s == out || s[-1] == ' ') && (s[wl] == '\0' || s[wl] == ' ' || s[wl] == ','))
			return;
	snprintf(out + used, len - used, "%s%s", used ? " " : "", w);
}

int sb_programs_check(const struct sb_program_needs *n, const char *who, struct sb_err *err)
{
	char names[512] = "", pkgs[256] = "";
	unsigned i, k = 0;

	for (i = 0; i < n->n; i++) {
		if (sb_program_found(n->name[i]))
			continue;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", k++ ? ", " : "",
			 n->name[i]);
		add_word(pkgs, sizeof(pkgs), n->package[i]);
	}
	if (!k)
		return 0;
	return sb_err_set(err, -ENOENT, "%s needs %s, which this machine lacks (apt-get install %s)", who,
			  names, pkgs);
}
