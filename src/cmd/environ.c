/* Every environment variable stackbench reads or sets for itself, in one
 * table: `stackbench --help` and the man page list it, and
 * tests/tools/env_table.py fails when src/ names a STACKBENCH_* or SB_*
 * variable this table lacks, or the table one that src/ no longer uses. */
#include "cmd/cmd.h"

#include <stddef.h>

const struct sb_env_doc sb_env_docs[] = {
	{ "STACKBENCH_STATE_DIR", "where state files are kept (default /run/stackbench)", 0 },
	{ "STACKBENCH_HOST_LABEL", "which machine, recorded as host.label (as --host-label)", 0 },
	{ "STACKBENCH_UML_MEM", "memory of the throwaway kernel (default 1G)", 0 },
	{ "STACKBENCH_UML_TIMEOUT", "stop the throwaway kernel after this long (default: no limit)", 0 },
	{ "STACKBENCH_UML_KERNEL", "another user-mode-linux kernel for the throwaway kernel", 0 },
	{ "STACKBENCH_UML_INIT", "another init script for the throwaway kernel", 0 },
	{ "STACKBENCH_ANSIBLE_DIR", "where fleet finds its playbook (default /usr/share/stackbench/ansible)", 0 },
	{ "STACKBENCH_STEP_TIMEOUT", "seconds a teardown step may take before it is left running and reported (default 180)", 0 },
	{ "STACKBENCH_NO_DROP_CACHES", "set: the suites do not drop the page cache between phases (bonnie sets it, "
	  "as bonnie++ does not drop it)", 0 },
	{ "STACKBENCH_SANDBOX_RECORDS", "where the throwaway kernels' run records are kept", 0 },
	{ "STACKBENCH_TEST_RESULTS_COPY", "tests: a directory that gets a copy of every results file written", 1 },
	{ "STACKBENCH_TEST_PAUSE_AT", "tests: pause at this named point (sb_test_pause), up to 60 s", 1 },
	{ "STACKBENCH_TEST_PAUSE_MARK", "tests: a file created when paused there", 1 },
	{ "SB_UBD_MEMBERS", "set by the sandbox: the throwaway kernel's block devices standing for the members", 1 },
	{ "SB_COST_SHOWN", "set once the run's cost was printed, so the sandboxed run does not print it again", 1 },
	{ "SB_OUTER_KERNEL", "set by the sandbox: the outer machine's kernel, for the results' host section", 1 },
	{ "SB_OUTER_HOSTNAME", "set by the sandbox: the outer machine's host name", 1 },
	{ "SB_OUTER_MACHINE", "set by the sandbox: the outer machine's architecture", 1 },
	{ "SB_OUTER_CPU_MODEL", "set by the sandbox: the outer machine's CPU model", 1 },
	{ "SB_OUTER_CORES", "set by the sandbox: the outer machine's cores", 1 },
	{ "SB_OUTER_RAM_BYTES", "set by the sandbox: the outer machine's memory", 1 },
	{ "SB_OUTER_MEM_TOUCHED_BYTES", "set by the sandbox: memory touched before the boot", 1 },
	{ "SB_OUTER_MEM_TOUCHED_SECONDS", "set by the sandbox: how long touching it took", 1 },
	{ "SB_JOB", "the throwaway kernel's init: the job file to run", 1 },
	{ "SB_MODROOT", "the throwaway kernel's init: where its modules are", 1 },
	{ "SB_MARK", "the throwaway kernel's init: print the exit-status mark", 1 },
	{ "SB_ERRTTY", "the throwaway kernel's init: where stderr goes", 1 },
	{ "SB_PIPE_OUT", "the throwaway kernel's init: stdout is a pipe", 1 },
	{ "SB_PIPE_ERR", "the throwaway kernel's init: stderr is a pipe", 1 },
	{ NULL, NULL, 0 },
};
