/* The throwaway user-mode-linux kernel, part one: probing the running
 * kernel, finding the UML kernel, its init and the xstate shim, deciding
 * whether to use the sandbox, and what the results say about it. */
#include "sandbox/sandbox_int.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "sys/child.h"
#include "util/fs.h"
#include "util/log.h"
#include "util/units.h"

bool sb_sbx_path_exists(const char *p)
{
	return access(p, F_OK) == 0;
}

/* Whole small file into buf (NUL-terminated); -errno on failure. */
int sb_sbx_read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return 0;
}

static bool file_contains(const char *path, const char *needle)
{
	char buf[16384];

	return sb_sbx_read_small(path, buf, sizeof(buf)) == 0 && strstr(buf, needle);
}

/* First executable called name in the system's own directories. Not $PATH:
 * what we find here runs as root (modprobe, linux.uml), and a PATH entry
 * another user can write would let them choose it. */
static bool find_exe(const char *name, char *out, size_t len)
{
	static const char *const dirs[] = { "/usr/sbin", "/sbin", "/usr/bin", "/bin",
					    "/usr/local/sbin", "/usr/local/bin", NULL };
	unsigned i;

	for (i = 0; dirs[i]; i++) {
		snprintf(out, len, "%s/%s", dirs[i], name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

int sb_sandbox_check_exec(const char *what, const char *path, struct sb_err *err)
{
	char dir[PATH_MAX];
	struct stat st;

	if (stat(path, &st) < 0)
		return sb_err_sys(err, -errno, "%s: cannot use %s", what, path);
	if (!S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR))
		return sb_err_set(err, -SB_EREFUSED, "%s: %s is not an executable file", what, path);
	if (st.st_uid != 0)
		return sb_err_set(err, -SB_EREFUSED, "%s: refusing to run %s as root: it is owned by uid %u, "
				  "not root", what, path, (unsigned)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return sb_err_set(err, -SB_EREFUSED, "%s: refusing to run %s as root: it is writable by "
				  "%s", what, path, st.st_mode & S_IWOTH ? "everyone" : "its group");
	snprintf(dir, sizeof(dir), "%s", path);
	if (stat(dirname(dir), &st) < 0)
		return sb_err_sys(err, -errno, "%s: cannot check the directory of %s", what, path);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !((st.st_mode & S_ISVTX) && st.st_uid == 0))
		return sb_err_set(err, -SB_EREFUSED, "%s: refusing to run %s as root: its directory is "
				  "writable by others, who could replace it", what, path);
	return 0;
}

static bool run_quiet(char *const argv[])
{
	struct sb_child c = { .argv = (const char *const *)argv, .in = SB_CHILD_NULL, .out = SB_CHILD_NULL,
			      .err = SB_CHILD_NULL };

	return sb_child_run(&c, 0, NULL) == 0;
}

/* The kernel facts themselves live in sys/kernel.c (one place). */
static bool probe_md(void)
{
	return sb_kernel_has("md");
}

static bool probe_dm(void)
{
	return sb_kernel_has("dm");
}

bool sb_sbx_probe_uml(void)
{
	return file_contains("/proc/cpuinfo", "User Mode Linux");
}

#if defined(__aarch64__)
#define SB_ARCH_NAME "arm64"
#elif defined(__arm__)
#define SB_ARCH_NAME "armhf"
#else
#define SB_ARCH_NAME "non-amd64"
#endif

/* $STACKBENCH_UML_KERNEL (checked: it runs as root), else linux.uml in the
 * system's directories. */
int sb_sbx_find_kernel(char *out, size_t len, struct sb_err *err)
{
	const char *e = getenv("STACKBENCH_UML_KERNEL");

#if !defined(__x86_64__)
	/* Debian builds user-mode-linux for amd64 only (UML itself runs on x86) */
	if (!(e && *e))
		return sb_err_set(err, -ENOTSUP, "sandbox: user-mode-linux exists for amd64 only, so this "
				  "%s build has no throwaway kernel: run stackbench without --sandbox on this "
				  "machine's own disks (an ARM board such as the Helios4 has md and dm-crypt in its "
				  "kernel), or on an amd64 machine with --sandbox", SB_ARCH_NAME);
#endif
	if (e && *e) {
		snprintf(out, len, "%s", e);
		return sb_sandbox_check_exec("STACKBENCH_UML_KERNEL", out, err);
	}
	if (!find_exe("linux.uml", out, len))
		return sb_err_set(err, -ENOTSUP, "sandbox: no user-mode-linux kernel (linux.uml) found; "
				  "apt-get install user-mode-linux");
	return 0;
}

/* The init script: $STACKBENCH_UML_INIT; else the copy that belongs to this
 * binary (source tree for a build-tree binary, the installed one otherwise);
 * else whichever exists. */
int sb_sbx_find_init(char *out, size_t len, struct sb_err *err)
{
	const char *e = getenv("STACKBENCH_UML_INIT");
	const char *src = SB_SOURCE_DIR "/scripts/sandbox/uml-init.sh";
	const char *inst = SB_UML_INIT_INSTALLED;

	if (e && *e) {
		snprintf(out, len, "%s", e);
		return sb_sandbox_check_exec("STACKBENCH_UML_INIT", out, err);
	}
	if (sb_fs_own_copy(out, len, src, inst, X_OK) == 0)
		return 0;
	return sb_err_set(err, -ENOENT, "sandbox: uml-init.sh not found (looked for %s and %s; "
			  "set STACKBENCH_UML_INIT)", inst, src);
}

/* The xstate shim (src/sandbox/uml_xstate.c) that belongs to this binary,
 * as for the init; "" when there is none (then linux.uml runs as is and
 * boots only where the host's XSAVE area fits UML's). */
void sb_sbx_find_xstate_shim(char *out, size_t len)
{
	if (sb_fs_own_copy(out, len, SB_UML_XSTATE_BUILT, SB_UML_XSTATE_INSTALLED, R_OK) < 0)
		out[0] = '\0';
}

void sb_sandbox_probe(struct sb_kernel_facts *f, bool need_md, bool need_dm, bool try_modprobe)
{
	char buf[64], path[PATH_MAX], modprobe[PATH_MAX];
	struct utsname u;

	memset(f, 0, sizeof(*f));
	if (uname(&u) == 0)
		snprintf(f->release, sizeof(f->release), "%s", u.release);
	f->uml = sb_sbx_probe_uml();
	f->md = probe_md();
	f->dm = probe_dm();
	snprintf(path, sizeof(path), "/lib/modules/%s", f->release);
	f->can_modprobe = geteuid() == 0 &&
		sb_sbx_read_small("/proc/sys/kernel/modules_disabled", buf, sizeof(buf)) == 0 &&
		atoi(buf) == 0 && sb_sbx_path_exists(path) && find_exe("modprobe", modprobe, sizeof(modprobe));
	if (try_modprobe && f->can_modprobe) {
		if (need_md && !f->md) {
			char *argv[] = { modprobe, "-q", "md_mod", NULL };
			run_quiet(argv);
			f->md = probe_md();
		}
		if (need_dm && !f->dm) {
			char *argv[] = { modprobe, "-q", "dm_mod", NULL };
			run_quiet(argv);
			f->dm = probe_dm();
		}
	}
	f->uml_available = sb_sbx_find_kernel(path, sizeof(path), NULL) == 0 &&
		sb_sbx_find_init(path, sizeof(path), NULL) == 0 && sb_sbx_path_exists(UML_MODULES);
}

/* "md and device-mapper", "md", "device-mapper" or "" */
static void missing(const struct sb_kernel_facts *f, bool need_md, bool need_dm, char *why, size_t len)
{
	bool nmd = need_md && !f->md, ndm = need_dm && !f->dm;

	snprintf(why, len, "%s%s%s", nmd ? "md" : "", nmd && ndm ? " and " : "", ndm ? "device-mapper" : "");
}

bool sb_sandbox_kernel_has(bool need_md, bool need_dm, char *why, size_t len)
{
	struct sb_kernel_facts f;

	sb_sandbox_probe(&f, need_md, need_dm, true);
	if (why && len)
		missing(&f, need_md, need_dm, why, len);
	return !(need_md && !f.md) && !(need_dm && !f.dm);
}

bool sb_sandbox_inside(bool ours)
{
	return ours || sb_sbx_probe_uml();
}

/* The decision, given what this kernel lacks in words (why, "" for nothing). */
static int decide_why(const struct sb_kernel_facts *f, int mode, bool inside, bool ours,
		      const char *why, bool has_disks, bool *use_sandbox, struct sb_err *err)
{
	bool lacks = why[0] != '\0';

	*use_sandbox = false;
	if (inside) {
		/* Never nest. In the kernel stackbench booted itself, the host's
		 * disks are not there (--sandbox re-runs any command before its
		 * stack is read, so this is where such a stack is caught then). */
		if (has_disks && ours)
			return sb_err_set(err, -EINVAL, "this stack lists disks, but the throwaway kernel "
					  "cannot reach the host's disks (loop devices only); run it without --sandbox "
					  "on a kernel with md and device-mapper");
		if (lacks)
			return sb_err_set(err, -ENOTSUP, "this user-mode-linux kernel (%s) has no %s",
					  f->release, why);
		return 0;
	}
	if (mode == 0 && lacks)
		return sb_err_set(err, -ENOTSUP, "this kernel (%s) has no %s and cannot load it; "
				  "drop --no-sandbox to run in the throwaway user-mode-linux kernel "
				  "(loop devices only)", f->release, why);
	if (mode == 0 || (mode < 0 && !lacks))
		return 0;
	if (has_disks && mode > 0)
		return sb_err_set(err, -EINVAL, "--sandbox: this stack lists disks, and the throwaway "
				  "kernel cannot reach the host's disks (loop devices only)");
	if (has_disks)
		return sb_err_set(err, -EINVAL, "this kernel (%s) has no %s, and this stack lists disks, "
				  "which the throwaway kernel cannot reach (it sees only loop "
				  "devices, not the host's disks): run it on a kernel with md and device-mapper",
				  f->release, why);
	if (!f->uml_available && mode > 0)
		return sb_err_set(err, -ENOTSUP, "--sandbox needs the throwaway user-mode-linux kernel, "
				  "which is not installed (apt-get install user-mode-linux)");
	if (!f->uml_available)
		return sb_err_set(err, -ENOTSUP, "this kernel (%s) has no %s, and the throwaway "
				  "user-mode-linux kernel that would stand in is not installed "
				  "(apt-get install user-mode-linux)", f->release, why);
	if (mode < 0)
		sb_info("this kernel has no %s: running in the throwaway user-mode-linux kernel "
			"(members are its own block devices, backed by files here)", why);
	*use_sandbox = true;
	return 0;
}

int sb_sandbox_decide_facts(const struct sb_kernel_facts *f, int mode, bool inside, bool ours,
			    bool need_md, bool need_dm, bool has_disks,
			    bool *use_sandbox, struct sb_err *err)
{
	char why[64];

	missing(f, need_md, need_dm, why, sizeof(why));
	return decide_why(f, mode, inside, ours, why, has_disks, use_sandbox, err);
}

/* Beyond md and dm (sb_sandbox_probe loads those): a filesystem or
 * anything else a layer needs, loaded where this kernel can. */
static void load_other(const struct sb_kernel_facts *f, const struct sb_kernel_needs *n)
{
	char modprobe[PATH_MAX];
	unsigned i;

	if (!f->can_modprobe || !find_exe("modprobe", modprobe, sizeof(modprobe)))
		return;
	for (i = 0; i < n->n; i++) {
		char mod[64], *argv[] = { modprobe, "-q", mod, NULL };

		if (!strcmp(n->what[i], "md") || !strcmp(n->what[i], "dm") || sb_kernel_has(n->what[i]))
			continue;
		snprintf(mod, sizeof(mod), "%s", sb_kernel_module(n->what[i]));
		run_quiet(argv);
	}
}

int sb_sandbox_decide(int mode, bool ours, const struct sb_kernel_needs *needs, bool has_disks,
		      bool *use_sandbox, struct sb_err *err)
{
	struct sb_kernel_facts f;
	bool inside = sb_sandbox_inside(ours), try_load = mode != 1 || inside;
	char why[256];

	/* Load modules only when this kernel would otherwise be given up on. */
	sb_sandbox_probe(&f, sb_kernel_needs_has(needs, "md"), sb_kernel_needs_has(needs, "dm"), try_load);
	if (try_load)
		load_other(&f, needs);
	sb_kernel_lacking(needs, why, sizeof(why));
	return decide_why(&f, mode, inside, ours, why, has_disks, use_sandbox, err);
}

bool sb_sandbox_would_use(int mode, bool ours, const struct sb_kernel_needs *needs)
{
	char why[256];

	if (sb_sandbox_inside(ours) || mode == 0)
		return false;
	if (mode == 1)
		return true;
	sb_kernel_lacking(needs, why, sizeof(why));
	return why[0] != '\0';
}

uint64_t sb_sandbox_mem_bytes(void)
{
	const char *mem = getenv("STACKBENCH_UML_MEM");
	struct sb_err e = { 0 };
	uint64_t v;

	if (mem && *mem && sb_size_parse(mem, &v, &e) == 0 && v >= (64ULL << 20))
		return v;
	return 1ULL << 30;
}

unsigned sb_sandbox_members(char devs[][64], unsigned max)
{
	const char *e = getenv("SB_UBD_MEMBERS");
	char buf[SB_SANDBOX_MAX_UBD * 64], *save, *d;
	unsigned n = 0;

	if (!e || !*e || strlen(e) >= sizeof(buf))
		return 0;
	snprintf(buf, sizeof(buf), "%s", e);
	for (d = strtok_r(buf, ",", &save); d && n < max; d = strtok_r(NULL, ",", &save)) {
		/* only our own kind of device: never a path someone planted */
		if (strncmp(d, "/dev/ubd", 8) || strlen(d) != 9 || d[8] < 'a' || d[8] > 'p')
			continue;
		snprintf(devs[n++], 64, "%s", d);
	}
	return n;
}
