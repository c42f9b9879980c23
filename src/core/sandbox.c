/* The throwaway user-mode-linux kernel: probing the running kernel, deciding
 * whether to use the sandbox, and re-running this binary inside it.
 *
 * How a re-run works (the measured recipe of scripts/uml-run.sh, in C):
 * a private temp dir holds the job script (cd, environment, exec of this
 * binary), a modprobe wrapper pointing at /usr/lib/uml/modules, UML's own
 * umid directory (uml_dir=, so nothing is left in ~/.uml) and, afterwards,
 * the job's exit status (the kernel's own exit status does not carry it).
 * linux.uml runs in its own process group with its console (tty0) on one
 * pipe and tty1 on another; uml-init.sh sends the job's stdout to the
 * console and its stderr to tty1 with output post-processing off, and frames
 * the console output with markers so the kernel's own boot and halt chatter
 * is dropped. We copy both pipes live to our stdout and stderr. */
#include "core/sandbox.h"

#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "cmd/cmd.h"
#include "util/log.h"
#include "util/units.h"

#define UML_MODULES "/usr/lib/uml/modules"
#define MARK_START "\036\036sb-start\036\036"
#define MARK_END "\036\036sb-end\036\036"
#define GRACE_MS (120 * 1000)   /* after a stop request: time to tear down inside */
#define DIAG_MAX 8192

static bool path_exists(const char *p)
{
	return access(p, F_OK) == 0;
}

/* Whole small file into buf (NUL-terminated); -errno on failure. */
static int read_small(const char *path, char *buf, size_t len)
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

	return read_small(path, buf, sizeof(buf)) == 0 && strstr(buf, needle);
}

/* First executable called name in $PATH, or in the sbin dirs (root's tools
 * live there and a user's PATH may lack them). */
static bool find_exe(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char dirs[4096];
	char *save, *d;

	snprintf(dirs, sizeof(dirs), "%s:/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin", path ? path : "");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (!*d)
			continue;
		snprintf(out, len, "%s/%s", d, name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

static bool run_quiet(char *const argv[])
{
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0) {
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool probe_md(void)
{
	return path_exists("/proc/mdstat") || path_exists("/sys/module/md_mod");
}

static bool probe_dm(void)
{
	return path_exists("/dev/mapper/control") || file_contains("/proc/misc", "device-mapper");
}

static bool probe_uml(void)
{
	return file_contains("/proc/cpuinfo", "User Mode Linux");
}

static bool find_kernel(char *out, size_t len)
{
	const char *e = getenv("STACKBENCH_UML_KERNEL");

	if (e && *e) {
		snprintf(out, len, "%s", e);
		return access(out, X_OK) == 0;
	}
	return find_exe("linux.uml", out, len);
}

/* The init script: $STACKBENCH_UML_INIT; else the copy that belongs to this
 * binary (source tree for a build-tree binary, the installed one otherwise);
 * else whichever exists. */
static bool find_init(char *out, size_t len)
{
	const char *e = getenv("STACKBENCH_UML_INIT");
	const char *src = SB_SOURCE_DIR "/scripts/sandbox/uml-init.sh";
	const char *inst = SB_UML_INIT_INSTALLED;
	char exe[PATH_MAX];
	bool in_build = false;

	if (e && *e) {
		snprintf(out, len, "%s", e);
		return access(out, X_OK) == 0;
	}
	if (realpath("/proc/self/exe", exe))
		in_build = !strncmp(exe, SB_BUILD_DIR "/", strlen(SB_BUILD_DIR) + 1);
	snprintf(out, len, "%s", in_build ? src : inst);
	if (access(out, X_OK) == 0)
		return true;
	snprintf(out, len, "%s", in_build ? inst : src);
	return access(out, X_OK) == 0;
}

/* The xstate shim (src/sandbox/uml_xstate.c) that belongs to this binary,
 * as find_init does; "" when there is none (then linux.uml runs as is and
 * boots only where the host's XSAVE area fits UML's). */
static void find_xstate_shim(char *out, size_t len)
{
	char exe[PATH_MAX];
	bool in_build = false;

	if (realpath("/proc/self/exe", exe))
		in_build = !strncmp(exe, SB_BUILD_DIR "/", strlen(SB_BUILD_DIR) + 1);
	snprintf(out, len, "%s", in_build ? SB_UML_XSTATE_BUILT : SB_UML_XSTATE_INSTALLED);
	if (access(out, R_OK) == 0)
		return;
	snprintf(out, len, "%s", in_build ? SB_UML_XSTATE_INSTALLED : SB_UML_XSTATE_BUILT);
	if (access(out, R_OK) != 0)
		out[0] = '\0';
}

void sb_sandbox_probe(struct sb_kernel_facts *f, bool need_md, bool need_dm, bool try_modprobe)
{
	char buf[64], path[PATH_MAX], modprobe[PATH_MAX];
	struct utsname u;

	memset(f, 0, sizeof(*f));
	if (uname(&u) == 0)
		snprintf(f->release, sizeof(f->release), "%s", u.release);
	f->uml = probe_uml();
	f->md = probe_md();
	f->dm = probe_dm();
	snprintf(path, sizeof(path), "/lib/modules/%s", f->release);
	f->can_modprobe = geteuid() == 0 &&
		read_small("/proc/sys/kernel/modules_disabled", buf, sizeof(buf)) == 0 &&
		atoi(buf) == 0 && path_exists(path) && find_exe("modprobe", modprobe, sizeof(modprobe));
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
	f->uml_available = find_kernel(path, sizeof(path)) && find_init(path, sizeof(path)) &&
		path_exists(UML_MODULES);
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

bool sb_sandbox_inside(void)
{
	return sb_globals.in_sandbox || probe_uml();
}

int sb_sandbox_decide_facts(const struct sb_kernel_facts *f, int mode, bool inside,
			    bool need_md, bool need_dm, bool has_disks,
			    bool *use_sandbox, struct sb_err *err)
{
	char why[64];
	bool lacks;

	*use_sandbox = false;
	missing(f, need_md, need_dm, why, sizeof(why));
	lacks = why[0] != '\0';
	if (inside) {
		/* Never nest. In the kernel stackbench booted itself, the host's
		 * disks are not there (--sandbox re-runs any command before its
		 * stack is read, so this is where such a stack is caught then). */
		if (has_disks && sb_globals.in_sandbox)
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
			"(loop devices only)", why);
	*use_sandbox = true;
	return 0;
}

int sb_sandbox_decide(bool need_md, bool need_dm, bool has_disks, bool *use_sandbox,
		      struct sb_err *err)
{
	struct sb_kernel_facts f;
	bool inside = sb_sandbox_inside();

	/* Load modules only when this kernel would otherwise be given up on. */
	sb_sandbox_probe(&f, need_md, need_dm, sb_globals.sandbox != 1 || inside);
	return sb_sandbox_decide_facts(&f, sb_globals.sandbox, inside, need_md, need_dm,
				       has_disks, use_sandbox, err);
}

int sb_sandbox_host_info(struct json_object *host)
{
	struct utsname u;
	bool uml = probe_uml(), inside = sb_globals.in_sandbox || uml;

	if (!host || uname(&u) < 0)
		return -EINVAL;
	json_object_object_add(host, "kernel", json_object_new_string(u.release));
	json_object_object_add(host, "kernel_version", json_object_new_string(u.version));
	json_object_object_add(host, "kernel_build", json_object_new_string(u.version));
	json_object_object_add(host, "machine", json_object_new_string(u.machine));
	json_object_object_add(host, "sandbox", json_object_new_boolean(inside));
	if (inside)
		json_object_object_add(host, "sandbox_kind",
				       json_object_new_string(uml ? "user-mode-linux" : "unknown"));
	return 0;
}

/* ---- re-running inside the throwaway kernel ---- */

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

static int write_job(const char *path, const char *exe, int argc, char **argv, struct sb_err *err)
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

		if (!eq || !env_passed(*e))
			continue;
		fprintf(f, "export %.*s=", (int)(eq - *e), *e);
		put_quoted(f, eq + 1);
		fputc('\n', f);
	}
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

static int write_modprobe(const char *dir, struct sb_err *err)
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
	fprintf(f, "#!/bin/sh\nexec /sbin/modprobe -d '%s/modroot' \"$@\"\n", dir);
	if (fclose(f) != 0 || chmod(p, 0700) < 0)
		return sb_err_sys(err, -errno, "sandbox: cannot write %s", p);
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(p);
	return 0;
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= w;
	}
}

/* The console stream: drop everything up to MARK_START (kept in diag for
 * error messages), copy to stdout until MARK_END, drop the rest. A partial
 * marker is held back until it either completes or turns out to be data. */
struct console {
	int state;           /* 0 before start, 1 copying, 2 after end */
	size_t held;         /* bytes of the current marker matched */
	char diag[DIAG_MAX]; /* the kernel's own output, for errors */
	size_t ndiag;
};

static void diag_add(struct console *c, const char *p, size_t n)
{
	if (n >= DIAG_MAX) {
		p += n - (DIAG_MAX - 1);
		n = DIAG_MAX - 1;
	}
	if (c->ndiag + n >= DIAG_MAX) {
		size_t drop = c->ndiag + n - (DIAG_MAX - 1);

		memmove(c->diag, c->diag + drop, c->ndiag - drop);
		c->ndiag -= drop;
	}
	memcpy(c->diag + c->ndiag, p, n);
	c->ndiag += n;
	c->diag[c->ndiag] = '\0';
}

static void console_emit(struct console *c, const char *p, size_t n)
{
	if (c->state == 1)
		write_all(STDOUT_FILENO, p, n);
	else if (c->state == 0)
		diag_add(c, p, n);
}

static void console_byte(struct console *c, char ch)
{
	const char *mark = c->state == 0 ? MARK_START : MARK_END;
	size_t mlen = strlen(mark), len, k;
	char tmp[32];

	if (c->state == 2)
		return;
	if (ch == mark[c->held]) {
		if (++c->held == mlen) {
			c->state++;
			c->held = 0;
		}
		return;
	}
	/* Mismatch: keep the longest tail of held bytes + ch that still starts
	 * the marker; everything before it was data. */
	memcpy(tmp, mark, c->held);
	tmp[c->held] = ch;
	len = c->held + 1;
	for (k = 1; k <= len; k++)
		if (!memcmp(tmp + k, mark, len - k))
			break;
	console_emit(c, tmp, k);
	c->held = len - k;
}

/* Ask the kernel to deliver SIGINT to its init (ctrl-alt-del through UML's
 * management console); uml-init.sh turns that into SIGTERM for the job. */
static bool mconsole_cad(const char *sock)
{
	struct {
		uint32_t magic, version, len;
		char data[512];
	} req = { 0xcafebabe, 2, 3, "cad" };
	struct sockaddr_un to = { .sun_family = AF_UNIX }, me = { .sun_family = AF_UNIX };
	bool ok;
	int fd;

	if (strlen(sock) >= sizeof(to.sun_path))
		return false;
	strcpy(to.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	/* autobind: the kernel replies to our address */
	ok = bind(fd, (struct sockaddr *)&me, sizeof(sa_family_t)) == 0 &&
		sendto(fd, &req, offsetof(__typeof__(req), data) + req.len, 0,
		       (struct sockaddr *)&to, sizeof(to)) >= 0;
	close(fd);
	return ok;
}

struct uml_run {
	char dir[200];       /* short: the mconsole socket path inside must fit sun_path */
	char kernel[PATH_MAX], init[PATH_MAX], exe[PATH_MAX], shim[PATH_MAX];
	char umid[32], sock[PATH_MAX];
	uint64_t mem_mib;
	uint64_t timeout_ms;      /* 0: none */
	pid_t pid;
};

static int run_config(struct uml_run *r, struct sb_err *err)
{
	const char *mem = getenv("STACKBENCH_UML_MEM"), *to = getenv("STACKBENCH_UML_TIMEOUT");
	uint64_t v;
	struct sb_err e2 = { 0 };

	if (!find_kernel(r->kernel, sizeof(r->kernel)))
		return sb_err_set(err, -ENOTSUP, "sandbox: no user-mode-linux kernel (linux.uml) found; "
				  "apt-get install user-mode-linux");
	if (!path_exists(UML_MODULES))
		return sb_err_set(err, -ENOTSUP, "sandbox: %s is missing; apt-get install user-mode-linux",
				  UML_MODULES);
	if (!find_init(r->init, sizeof(r->init)))
		return sb_err_set(err, -ENOENT, "sandbox: uml-init.sh not found (looked for %s and %s; "
				  "set STACKBENCH_UML_INIT)", SB_UML_INIT_INSTALLED,
				  SB_SOURCE_DIR "/scripts/sandbox/uml-init.sh");
	if (!realpath("/proc/self/exe", r->exe))
		return sb_err_sys(err, -errno, "sandbox: cannot resolve /proc/self/exe");
	find_xstate_shim(r->shim, sizeof(r->shim));
	r->mem_mib = 1024;
	if (mem && *mem) {
		if (sb_size_parse(mem, &v, &e2) < 0 || v < (64ULL << 20))
			return sb_err_set(err, -EINVAL, "STACKBENCH_UML_MEM=%s: expected a size of at "
					  "least 64MiB such as 1G or 2GiB%s%s", mem, e2.msg[0] ? ": " : "", e2.msg);
		r->mem_mib = v >> 20;
	}
	r->timeout_ms = 0;
	if (to && *to) {
		if (sb_duration_parse(to, &v, &e2) < 0 || v == 0)
			return sb_err_set(err, -EINVAL, "STACKBENCH_UML_TIMEOUT=%s: expected seconds "
					  "or a duration such as 10m%s%s", to, e2.msg[0] ? ": " : "", e2.msg);
		r->timeout_ms = v / 1000000;
	}
	return 0;
}

static void child_exec(const struct uml_run *r, int out, int errw, int diag, bool out_tty, bool err_tty)
{
	char a[20][PATH_MAX + 32];
	char *argv[21];
	int n = 0, fd;
	sigset_t none;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDONLY);
	/* fd 0 null, 1 console, 2 kernel's own diagnostics, 3 tty1 */
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(out, 1) < 0 || dup2(diag, 2) < 0 || dup2(errw, 3) < 0)
		_exit(127);
	closefrom(4);
#define ARG(...) (snprintf(a[n], sizeof(a[n]), __VA_ARGS__), argv[n] = a[n], n++)
	ARG("%s", r->kernel);
	ARG("mem=%lluM", (unsigned long long)r->mem_mib);
	ARG("root=/dev/root");
	ARG("rootfstype=hostfs");
	ARG("rw");
	ARG("quiet");
	ARG("con=null");
	ARG("con0=fd:0,fd:1");
	ARG("con1=null,fd:3");
	ARG("umid=%s", r->umid);
	ARG("uml_dir=%s/uml", r->dir);
	ARG("init=%s", r->init);
	/* Unknown name=value parameters become init's environment. */
	ARG("SB_JOB=%s/job", r->dir);
	ARG("SB_MODROOT=%s", r->dir);
	ARG("SB_MARK=1");
	ARG("SB_ERRTTY=/dev/tty1");
	ARG("SB_PIPE_OUT=%d", !out_tty);
	ARG("SB_PIPE_ERR=%d", !err_tty);
#undef ARG
	argv[n] = NULL;
	/* linux.uml's own environment (not its init's, which comes from the
	 * command line above): the xstate shim. */
	if (r->shim[0])
		setenv("LD_PRELOAD", r->shim, 1);
	execv(argv[0], argv);
	_exit(127);
}

/* Stop the whole process group: UML forks helper processes of its own. */
static void kill_group(pid_t pgid)
{
	if (pgid <= 0)
		return;
	kill(-pgid, SIGTERM);
	usleep(200000);
	kill(-pgid, SIGKILL);
}

int sb_sandbox_rerun(int argc, char **argv, int *exit_code, struct sb_err *err)
{
	struct uml_run r = { .pid = -1 };
	struct console con = { 0 };
	int pout[2] = { -1, -1 }, perr[2] = { -1, -1 }, pdiag[2] = { -1, -1 }, sfd = -1;
	sigset_t mask, old;
	char path[PATH_MAX + 16], buf[65536];
	const char *tmp = getenv("TMPDIR");
	uint64_t deadline = 0, start;
	bool exited = false, stopping = false, timed_out = false, killed = false;
	int rc, status = 0, open_fds;

	*exit_code = SB_EXIT_FAIL;
	rc = run_config(&r, err);
	if (rc < 0)
		return rc;
	if (!tmp || !*tmp || strlen(tmp) > 64)
		tmp = "/tmp";
	snprintf(r.dir, sizeof(r.dir), "%s/sb-uml.XXXXXX", tmp);
	if (!mkdtemp(r.dir))
		return sb_err_sys(err, -errno, "sandbox: cannot create a temp dir in %s", tmp);
	snprintf(r.umid, sizeof(r.umid), "sb-%d", (int)getpid());
	snprintf(r.sock, sizeof(r.sock), "%s/uml/%s/mconsole", r.dir, r.umid);
	snprintf(path, sizeof(path), "%s/job", r.dir);
	rc = write_job(path, r.exe, argc, argv, err);
	if (rc < 0)
		goto out;
	rc = write_modprobe(r.dir, err);
	if (rc < 0)
		goto out;
	if (pipe2(pout, O_CLOEXEC) < 0 || pipe2(perr, O_CLOEXEC) < 0 || pipe2(pdiag, O_CLOEXEC) < 0) {
		rc = sb_err_sys(err, -errno, "sandbox: pipe");
		goto out;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, &old);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		rc = sb_err_sys(err, -errno, "sandbox: signalfd");
		goto out_mask;
	}
	fflush(stdout);
	fflush(stderr);
	sb_verbose("booting the throwaway kernel (%s, init %s, mem=%lluM)", r.kernel, r.init,
		   (unsigned long long)r.mem_mib);
	start = now_ms();
	r.pid = fork();
	if (r.pid < 0) {
		rc = sb_err_sys(err, -errno, "sandbox: fork");
		goto out_mask;
	}
	if (r.pid == 0)
		child_exec(&r, pout[1], perr[1], pdiag[1], isatty(STDOUT_FILENO), isatty(STDERR_FILENO));
	setpgid(r.pid, r.pid); /* also in the child: whichever runs first */
	close(pout[1]);
	close(perr[1]);
	close(pdiag[1]);
	pout[1] = perr[1] = pdiag[1] = -1;
	if (r.timeout_ms)
		deadline = start + r.timeout_ms;

	/* Until the kernel has exited and every pipe is at EOF (its helpers may
	 * hold them a moment longer; bounded below). */
	open_fds = 3;
	while (!exited || open_fds > 0) {
		struct pollfd p[4] = {
			{ pout[0], POLLIN, 0 }, { perr[0], POLLIN, 0 }, { pdiag[0], POLLIN, 0 }, { sfd, POLLIN, 0 },
		};
		int wait_ms = -1, i;
		uint64_t now = now_ms();

		if (deadline)
			wait_ms = deadline > now ? (int)(deadline - now) : 0;
		if (exited)
			wait_ms = 2000;
		i = poll(p, 4, wait_ms);
		if (i < 0 && errno != EINTR) {
			rc = sb_err_sys(err, -errno, "sandbox: poll");
			break;
		}
		if (i == 0 && exited)
			break;  /* helpers kept a pipe open; the group is killed below */
		if (!exited && deadline && now_ms() >= deadline) {
			if (!stopping && !killed) {
				timed_out = true;
				stopping = true;
				sb_warn("the throwaway kernel ran longer than STACKBENCH_UML_TIMEOUT; stopping it");
				deadline = con.state >= 1 && mconsole_cad(r.sock) ? now_ms() + 10000 : now_ms();
			} else if (!killed) {
				kill_group(r.pid);
				killed = true;
				deadline = 0;
			}
		}
		for (i = 0; i < 3; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(p[i].fd, buf, sizeof(buf));
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				close(p[i].fd);
				if (i == 0)
					pout[0] = -1;
				else if (i == 1)
					perr[0] = -1;
				else
					pdiag[0] = -1;
				open_fds--;
				continue;
			}
			if (i == 0) {
				ssize_t k;

				for (k = 0; k < n; k++)
					console_byte(&con, buf[k]);
			} else if (i == 1) {
				write_all(STDERR_FILENO, buf, n);
			} else {
				diag_add(&con, buf, n);
			}
		}
		if (p[3].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGCHLD) {
					if (!exited && waitpid(r.pid, &status, WNOHANG) == r.pid)
						exited = true;
					continue;
				}
				if (exited || killed)
					continue;
				/* Before the job started there is nothing to stop
				 * gracefully (and ctrl-alt-del would reboot). */
				if (!stopping && con.state >= 1 && mconsole_cad(r.sock)) {
					stopping = true;
					sb_warn("interrupted: asking the command in the throwaway kernel to stop "
						"(interrupt again to kill the kernel)");
					deadline = now_ms() + GRACE_MS;
				} else {
					sb_warn("interrupted: killing the throwaway kernel");
					kill_group(r.pid);
					killed = true;
					deadline = 0;
				}
			}
		}
		if (!exited && waitpid(r.pid, &status, WNOHANG) == r.pid)
			exited = true;
	}
	if (!exited) {
		kill_group(r.pid);
		waitpid(r.pid, &status, 0);
	}
	/* Helper processes of the kernel must not outlive it. */
	kill(-r.pid, SIGKILL);
	sb_verbose("the throwaway kernel ran %.1f s", (now_ms() - start) / 1000.0);
	if (rc < 0)
		goto out_mask;

	snprintf(path, sizeof(path), "%s/job.rc", r.dir);
	if (read_small(path, buf, sizeof(buf)) == 0 && buf[0] >= '0' && buf[0] <= '9') {
		*exit_code = atoi(buf);
		if (timed_out)
			rc = sb_err_set(err, -ETIMEDOUT, "the throwaway kernel was stopped after "
					"STACKBENCH_UML_TIMEOUT (the command exited %d)", *exit_code);
		else
			rc = 0;
	} else if (killed || stopping) {
		rc = timed_out ? sb_err_set(err, -ETIMEDOUT, "the throwaway kernel was killed after "
					    "STACKBENCH_UML_TIMEOUT")
			       : sb_err_set(err, -EINTR, "interrupted: the throwaway kernel was killed");
	} else {
		/* Show the tail of what the kernel said: that is the diagnosis. */
		const char *tail = con.ndiag > 600 ? con.diag + con.ndiag - 600 : con.diag;

		rc = sb_err_set(err, -EIO, "the throwaway kernel ended (%s %d) without reporting the "
				"command's exit status%s%s",
				WIFSIGNALED(status) ? "signal" : "status",
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
				con.ndiag ? "; its last output:\n" : "", tail);
	}
	if (sb_log_get_level() >= SB_LOG_DEBUG && con.ndiag)
		sb_debug("throwaway kernel's own output:\n%s", con.diag);
out_mask:
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	if (pout[0] >= 0) close(pout[0]);
	if (pout[1] >= 0) close(pout[1]);
	if (perr[0] >= 0) close(perr[0]);
	if (perr[1] >= 0) close(perr[1]);
	if (pdiag[0] >= 0) close(pdiag[0]);
	if (pdiag[1] >= 0) close(pdiag[1]);
	rm_tree(r.dir);
	return rc;
}
