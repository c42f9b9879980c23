/* The throwaway kernel. Where the running kernel lacks md or device-mapper
 * (this project's CI machines have loop devices only and cannot load
 * modules), stackbench boots Debian's user-mode-linux kernel on the host's
 * own root filesystem (hostfs) and runs this same binary inside it with the
 * hidden global flag --in-sandbox. Only loop devices exist in there: the
 * host's disks are out of reach, so stacks with `disks:` are refused.
 *
 * Environment:
 *   STACKBENCH_UML_MEM      memory of the throwaway kernel (default 1G; bonnie's
 *                           automatic file size is twice RAM, so less RAM keeps
 *                           default runs short)
 *   STACKBENCH_UML_TIMEOUT  seconds after which the kernel is stopped (default: none)
 *   STACKBENCH_UML_INIT     the init script (default: installed or source copy
 *                           of scripts/sandbox/uml-init.sh)
 *   STACKBENCH_UML_KERNEL   the kernel binary (default: linux.uml in PATH)
 *
 * How a command handler that needs md/dm uses it (main.c already re-runs
 * every command under a forced --sandbox, so handlers see only auto and
 * --no-sandbox on the host, and in_sandbox inside):
 *
 *	bool use;
 *	int code;
 *
 *	rc = sb_sandbox_decide(need_md, need_dm, spec->devices.kind == SB_DEVICES_DISKS, &use, err);
 *	if (rc < 0)
 *		return rc;
 *	if (use) {
 *		rc = sb_sandbox_rerun(argc, argv, &code, err);  // the handler's own argv
 *		return rc < 0 ? rc : code;                      // main exits with a positive rc as is
 *	}
 */
#ifndef SB_CORE_SANDBOX_H
#define SB_CORE_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "util/err.h"

/* What the running kernel offers, as probed; a struct so the decision can be
 * unit-tested with any combination. */
struct sb_kernel_facts {
	bool md;            /* /proc/mdstat or /sys/module/md_mod */
	bool dm;            /* /dev/mapper/control or "device-mapper" in /proc/misc */
	bool can_modprobe;  /* modules_disabled == 0, modprobe exists, /lib/modules/$(uname -r) exists, root */
	bool uml;           /* this kernel is user-mode-linux (/proc/cpuinfo) */
	bool uml_available; /* a linux.uml kernel and the init script were found */
	char release[65];   /* uname -r, for messages */
};

/* Probe the running kernel. With try_modprobe, a missing md/dm is first
 * loaded with modprobe where the kernel can load modules. */
void sb_sandbox_probe(struct sb_kernel_facts *f, bool need_md, bool need_dm, bool try_modprobe);

/* Does the running kernel have what a stack needs? On false, why says what
 * is missing ("md and device-mapper"). Tries modprobe where possible. */
bool sb_sandbox_kernel_has(bool need_md, bool need_dm, char *why, size_t len);

/* True inside the throwaway kernel: --in-sandbox was given, or the kernel is
 * user-mode-linux (/proc/cpuinfo's vendor_id "User Mode Linux"; Debian's
 * UML 6.1 reports `uname -m` as x86_64, so that cannot tell). */
bool sb_sandbox_inside(void);

/* Run `stackbench [--in-sandbox, -v/-q, --progress/--no-progress] ARGV...`
 * (argv[0] = the command name, as handlers receive it) inside a freshly
 * booted throwaway kernel, cwd kept, its stdout/stderr copied live to ours,
 * environment SB_*, STACKBENCH_*, CI, ASAN_*, UBSAN_* passed in. Returns 0
 * with *exit_code = the inner command's exit status, or -errno if the kernel
 * could not be run or did not report a status (then err says why).
 * SIGINT/SIGTERM/SIGHUP: the first asks the inner command to stop (it gets
 * SIGTERM) and waits for it; a second, or STACKBENCH_UML_TIMEOUT, kills the
 * kernel's whole process group (-EINTR / -ETIMEDOUT). Nothing is left behind
 * either way (UML's umid directory lives in a private temp dir). */
int sb_sandbox_rerun(int argc, char **argv, int *exit_code, struct sb_err *err);

/* Decide whether to run in the throwaway kernel, honouring
 * sb_globals.sandbox (-1 auto, 0 --no-sandbox, 1 --sandbox):
 *  - inside the sandbox: never again (and a stack with disks is -EINVAL);
 *  - auto: sandbox iff this kernel lacks what is needed (one info line says so);
 *  - --no-sandbox on a kernel lacking md/dm: -ENOTSUP naming what is missing;
 *  - a stack with disks that would need the sandbox: -EINVAL, before booting;
 *  - sandbox needed but user-mode-linux missing: -ENOTSUP saying what to install. */
int sb_sandbox_decide(bool need_md, bool need_dm, bool has_disks, bool *use_sandbox,
		      struct sb_err *err);

/* The same decision on given facts (unit tests). mode: -1/0/1 as sb_globals.sandbox. */
int sb_sandbox_decide_facts(const struct sb_kernel_facts *f, int mode, bool inside,
			    bool need_md, bool need_dm, bool has_disks,
			    bool *use_sandbox, struct sb_err *err);

/* For estimates (`plan`): would a run with these needs go into the
 * throwaway kernel? Probes without loading modules. */
bool sb_sandbox_would_use(bool need_md, bool need_dm);
/* The throwaway kernel's memory: STACKBENCH_UML_MEM, default 1 GiB. */
uint64_t sb_sandbox_mem_bytes(void);

/* Add the kernel the results were measured on to a results "host" object:
 * "kernel" (uname -r), "kernel_version" and "kernel_build" (uname -v),
 * "machine" (uname -m), "sandbox" (bool) and, when inside,
 * "sandbox_kind": "user-mode-linux". Returns 0 or -errno. */
int sb_sandbox_host_info(struct json_object *host);

#endif
