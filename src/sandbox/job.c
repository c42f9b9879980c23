/* The throwaway kernel, part two: what the kernel's init runs. The job
 * script is shell, written by us and run as root inside, so every name in
 * it is checked and every value single-quoted; the modprobe wrapper points
 * the kernel's module loader at user-mode-linux's own module tree. */
#include "sandbox/sandbox_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/log.h"

/* Single-quote for sh. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

bool sb_sandbox_env_name_ok(const char *name, size_t len)
{
	size_t i;

	if (len == 0 || !((name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!((name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return false;
	return true;
}

/* Ours to set inside (written below from what the host knows): never
 * taken from the caller's environment. And the state directory stays the
 * throwaway kernel's own (/run/stackbench in its tmpfs): its objects die
 * with that kernel, so a state file of theirs on the host would outlive
 * them and block the next run of the stack ("an earlier run left ...")
 * after a kill. */
static bool env_reserved(const char *kv)
{
	return !strncmp(kv, "SB_UBD_MEMBERS=", 15) || !strncmp(kv, "SB_OUTER_", 9) ||
		!strncmp(kv, "SB_SANDBOX_", 11) || !strncmp(kv, "STACKBENCH_STATE_DIR=", 21);
}

static bool env_passed(const char *kv)
{
	static const char *const prefixes[] = { "SB_", "STACKBENCH_", "ASAN_", "UBSAN_", "LSAN_", NULL };
	static const char *const names[] = { "CI=", "TZ=", "TMPDIR=", NULL };
	unsigned i;

	for (i = 0; prefixes[i]; i++)
		if (!strncmp(kv, prefixes[i], strlen(prefixes[i])))
			return true;
	for (i = 0; names[i]; i++)
		if (!strncmp(kv, names[i], strlen(names[i])))
			return true;
	return false;
}

static void put_var(FILE *f, const char *name, const char *value)
{
	fprintf(f, "export %s=", name);
	put_quoted(f, value);
	fputc('\n', f);
}

/* Value of the first "key<spaces>: value" line of /proc/cpuinfo, or "". */
static void cpuinfo_get(const char *key, char *buf, size_t len)
{
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "re");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + klen;

		if (strncmp(line, key, klen))
			continue;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		p += 1 + strspn(p + 1, " ");
		p[strcspn(p, "\n")] = '\0';
		snprintf(buf, len, "%s", p);
		break;
	}
	fclose(f);
}

/* The machine the throwaway kernel runs on, for the results' host.outer:
 * inside, only UML's own view is visible ("UML", 1 CPU). */
static void put_outer_host(FILE *f, const struct sb_mem_touch *touched)
{
	char host[256] = "", model[256], num[32];
	struct utsname u;
	struct sysinfo si;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	if (gethostname(host, sizeof(host) - 1) == 0)
		put_var(f, "SB_OUTER_HOSTNAME", host);
	cpuinfo_get("model name", model, sizeof(model));
	if (model[0])
		put_var(f, "SB_OUTER_CPU_MODEL", model);
	snprintf(num, sizeof(num), "%ld", cores > 0 ? cores : 0);
	put_var(f, "SB_OUTER_CORES", num);
	if (sysinfo(&si) == 0) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)si.totalram * si.mem_unit);
		put_var(f, "SB_OUTER_RAM_BYTES", num);
	}
	if (uname(&u) == 0) {
		put_var(f, "SB_OUTER_KERNEL", u.release);
		put_var(f, "SB_OUTER_MACHINE", u.machine);
	}
	if (touched && touched->bytes) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)touched->bytes);
		put_var(f, "SB_OUTER_MEM_TOUCHED_BYTES", num);
		snprintf(num, sizeof(num), "%.3f", touched->ns / 1e9);
		put_var(f, "SB_OUTER_MEM_TOUCHED_SECONDS", num);
	}
}

int sb_sbx_write_job(const char *path, const char *exe, int argc, char **argv,
		     const char *members, const struct sb_mem_touch *touched, struct sb_err *err)
{
	extern char **environ;
	char cwd[PATH_MAX];
	enum sb_log_level lvl = sb_log_get_level();
	char **e;
	FILE *f;
	int i, fd;

	if (!getcwd(cwd, sizeof(cwd)))
		return sb_err_sys(err, -errno, "sandbox: cannot get the working directory");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return sb_err_sys(err, -errno, "sandbox: cannot write %s", path);
	}
	fputs("export PATH=", f);
	put_quoted(f, getenv("PATH") ? getenv("PATH") : "/usr/sbin:/usr/bin:/sbin:/bin");
	fputc('\n', f);
	for (e = environ; *e; e++) {
		const char *eq = strchr(*e, '=');

		if (!eq || !env_passed(*e) || env_reserved(*e))
			continue;
		/* A name is written as is: only plain names, or it is shell code. */
		if (!sb_sandbox_env_name_ok(*e, eq - *e)) {
			sb_warn("sandbox: not passing the environment variable '%.*s' in: not a plain name "
				"(A-Z, 0-9, _)", (int)(eq - *e), *e);
			continue;
		}
		fprintf(f, "export %.*s=", (int)(eq - *e), *e);
		put_quoted(f, eq + 1);
		fputc('\n', f);
	}
	put_outer_host(f, touched);
	if (members && *members)
		put_var(f, "SB_UBD_MEMBERS", members);
	fputs("cd ", f);
	put_quoted(f, cwd);
	fputs(" || exit 1\nexec ", f);
	put_quoted(f, exe);
	fputs(" --in-sandbox", f);
	fputs(sb_log_progress_enabled() ? " --progress" : " --no-progress", f);
	if (lvl == SB_LOG_QUIET)
		fputs(" -q", f);
	for (i = SB_LOG_INFO; i < (int)lvl; i++)
		fputs(" -v", f);
	for (i = 0; i < argc; i++) {
		fputc(' ', f);
		put_quoted(f, argv[i]);
	}
	fputc('\n', f);
	if (fclose(f) != 0)
		return sb_err_sys(err, -errno, "sandbox: cannot write %s", path);
	return 0;
}

int sb_sbx_write_modprobe(const char *dir, struct sb_err *err)
{
	char p[PATH_MAX + 32], q[PATH_MAX + 32];
	FILE *f;

	snprintf(p, sizeof(p), "%s/modroot", dir);
	snprintf(q, sizeof(q), "%s/modroot/lib", dir);
	if (mkdir(p, 0700) < 0 || mkdir(q, 0700) < 0)
		return sb_err_sys(err, -errno, "sandbox: cannot create %s", q);
	snprintf(q, sizeof(q), "%s/modroot/lib/modules", dir);
	if (symlink(UML_MODULES, q) < 0)
		return sb_err_sys(err, -errno, "sandbox: cannot create %s", q);
	snprintf(p, sizeof(p), "%s/modprobe", dir);
	f = fopen(p, "we");
	if (!f)
		return sb_err_sys(err, -errno, "sandbox: cannot write %s", p);
	fputs("#!/bin/sh\nexec /sbin/modprobe -d ", f);
	put_quoted(f, dir);
	fputs("/modroot \"$@\"\n", f);
	if (fclose(f) != 0 || chmod(p, 0700) < 0)
		return sb_err_sys(err, -errno, "sandbox: cannot write %s", p);
	return 0;
}

