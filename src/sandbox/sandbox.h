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
 *   STACKBENCH_UML_KERNEL   the kernel binary (default: linux.uml in PATH);
 *                           both are run as root, so they must be owned by root
 *                           and writable by nobody else (else -SB_EREFUSED)
 *   STACKBENCH_SANDBOX_RECORDS  where runs are recorded (default
 *                           /run/stackbench/sandbox; tests point it elsewhere)
 *
 * Members: the host side creates the stack's member files (preallocated)
 * and hands them to the kernel as its UML block devices ubd0..ubdN-1
 * (/dev/ubda..); inside, SB_UBD_MEMBERS lists them and the loop layer uses
 * them instead of loop devices on hostfs files (docs/sandbox.md says why).
 *
 * Records: before it creates anything on the host, a run writes a record
 * (root-owned 0700 directory, one file per run: its pid and start time,
 * temp dir, member dir, UML's process group) and removes it when done. A
 * run killed with SIGKILL leaves its record; the next run finds it
 * (sb_sandbox_reap), kills what is left of that kernel and removes its
 * files, and says what it removed.
 *
 * How a command handler that needs md/dm uses it (main.c already re-runs
 * every command under a forced --sandbox, so handlers see only auto and
 * --no-sandbox on the host, and in_sandbox inside):
 *
 *	bool use;
 *	int code;
 *
 *	rc = sb_sandbox_decide(sb_globals.sandbox, sb_globals.in_sandbox, &needs,
 *			       spec->devices.kind == SB_DEVICES_DISKS, &use, err);
 *	if (rc < 0)
 *		return rc;
 *	if (use) {
 *		rc = sb_sandbox_rerun(argc, argv, &members, &code, err);  // the handler's own argv
 *		return rc < 0 ? rc : code;                      // main exits with a positive rc as is
 *	}
 */
#ifndef SB_SANDBOX_SANDBOX_H
#define SB_SANDBOX_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "sys/kernel.h"
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

/* True inside the throwaway kernel: ours (--in-sandbox was given), or the
 * kernel is user-mode-linux (/proc/cpuinfo's vendor_id "User Mode Linux";
 * Debian's UML 6.1 reports `uname -m` as x86_64, so that cannot tell). */
bool sb_sandbox_inside(bool ours);

/* What a run needs on the host before boot: member files for the stacks
 * (count 0: none; the loop layer inside then falls back to loop devices on
 * hostfs files). Stacks in one boot run one after another and reuse the
 * members, so count is the largest count of any one stack (at most
 * SB_SANDBOX_MAX_UBD) and size the largest size. */
#define SB_SANDBOX_MAX_UBD 16
struct sb_sandbox_members {
	unsigned count;
	uint64_t size;        /* bytes, each */
	char dir[4096];       /* where to create them (a private subdir is made) */
	bool measure;         /* figures will be taken: touch the host memory the
	                       * run will use before the boot (memory.c) */
};

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
int sb_sandbox_rerun(int argc, char **argv, const struct sb_sandbox_members *m,
		     int *exit_code, struct sb_err *err);

/* Find the records of earlier runs whose process is gone, kill what is left
 * of their kernel (its process group, if it still runs linux.uml) and remove
 * their temp dir, member files and record, saying what was removed (one
 * line each, sb_warn). Runs still alive are left alone. Returns the number
 * of runs cleaned, or -errno (err says why). Called by sb_sandbox_rerun. */
int sb_sandbox_reap(struct sb_err *err);

/* Is an environment variable name safe to write into the job script? Only
 * ^[A-Z_][A-Z0-9_]*$ (anything else could be shell syntax). */
bool sb_sandbox_env_name_ok(const char *name, size_t len);

/* May this file be executed as root? Owned by root, a regular file,
 * executable, and neither it nor its directory writable by group or others
 * (unless the directory is sticky and root's). -SB_EREFUSED saying what is
 * wrong, naming what (e.g. "STACKBENCH_UML_KERNEL"). */
int sb_sandbox_check_exec(const char *what, const char *path, struct sb_err *err);

/* Decide whether to run in the throwaway kernel, honouring mode (-1 auto,
 * 0 --no-sandbox, 1 --sandbox); ours: we are in the kernel stackbench booted:
 *  - inside the sandbox: never again (and a stack with disks is -EINVAL);
 *  - auto: sandbox iff this kernel lacks anything a wanted layer needs
 *    (needs: sb_stack_needs of every stack; one info line says so);
 *  - --no-sandbox on a kernel lacking it: -ENOTSUP naming what is missing;
 *  - a stack with disks that would need the sandbox: -EINVAL, before booting;
 *  - sandbox needed but user-mode-linux missing: -ENOTSUP saying what to install. */
int sb_sandbox_decide(int mode, bool ours, const struct sb_kernel_needs *needs, bool has_disks,
		      bool *use_sandbox, struct sb_err *err);

/* The same decision on given facts (unit tests). mode: -1/0/1 as
 * sb_globals.sandbox; inside: running in a UML kernel; ours: one that
 * stackbench booted (--in-sandbox). */
int sb_sandbox_decide_facts(const struct sb_kernel_facts *f, int mode, bool inside, bool ours,
			    bool need_md, bool need_dm, bool has_disks,
			    bool *use_sandbox, struct sb_err *err);

/* For estimates (`plan`): would a run with these needs go into the
 * throwaway kernel? mode and ours as for sb_sandbox_decide. Probes without
 * loading modules. */
bool sb_sandbox_would_use(int mode, bool ours, const struct sb_kernel_needs *needs);
/* The throwaway kernel's memory: STACKBENCH_UML_MEM, default 1 GiB. */
uint64_t sb_sandbox_mem_bytes(void);

/* Memory touched once and given back before it is measured through
 * (memory.c says why). */
struct sb_mem_touch {
	uint64_t free_bytes;   /* free before */
	uint64_t bytes;        /* touched */
	uint64_t ns;           /* how long it took */
};
/* Inside the throwaway kernel, before the first stack: its free memory. */
int sb_sandbox_guest_warm(struct sb_mem_touch *w, struct sb_err *err);

/* Inside the throwaway kernel: the member block devices the host passed
 * (SB_UBD_MEMBERS, "/dev/ubda,/dev/ubdb"); returns how many were filled
 * into devs (at most max), 0 when none. */
unsigned sb_sandbox_members(char devs[][64], unsigned max);

#endif
