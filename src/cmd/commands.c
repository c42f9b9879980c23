#include "cmd/cmd.h"

#include <stdio.h>
#include <string.h>

#include "bench/suite.h"
#include "util/names.h"
#include "report/table.h"

/* Where a usage text names the suites or the formats: sb_cmd_usage_text
 * puts the registries' names there, so the help, the man page and the
 * completion (which reads the help) follow the registries. */
#define SB_USAGE_SUITES "@SUITES@"
#define SB_USAGE_FORMATS "@FORMATS@"

struct sb_globals sb_globals = { .sandbox = -1 };

/* Usage texts live here, beside the table, so `stackbench help` and each
 * command's --help print the same words. */
const struct sb_cmd sb_cmds[] = {
	{ "validate", sb_cmd_validate, "check stack descriptions and print what they expand to",
	  "usage: stackbench validate [--set KEY=VALUE]... [--json] STACK.yml...\n"
	  "       stackbench validate --keys\n"
	  "  Parses, applies --set overrides, expands any matrix and validates.\n"
	  "  --keys prints every key with its type, allowed values and default.\n"
	  "  Prints one line per stack (--json: a JSON array of every stack's keys with their\n"
	  "  effective values, sizes in bytes, and its summary); errors name FILE:LINE:COL.\n"
	  "  Exit 0 if all are valid, 2 if not.\n"
	  "  Warns (exit 0) when bench.size will not fit in the stack's filesystem.\n" },
	{ "plan", sb_cmd_plan, "print the build and teardown steps and what the run costs (dry run)",
	  "usage: stackbench plan [--set KEY=VALUE]... STACK.yml...\n"
	  "  Prints every build step, bottom up, then every teardown step, top down, then what\n"
	  "  the run costs: the disk space and where, each suite's file size (bench.size, or the\n"
	  "  default from the RAM of the machine that runs it, capped to what the filesystem will\n"
	  "  hold) and the estimated time. Touches nothing.\n" },
	{ "build", sb_cmd_build, "build a stack and leave it up",
	  "usage: stackbench build [--set KEY=VALUE]... [--destroy-data=DEV,...] [--wipe] STACK.yml\n"
	  "  Needs root and a kernel with md and device-mapper (see --sandbox).\n" },
	{ "bench", sb_cmd_bench, "run benchmark suites on a built stack, or on any directory or block device",
	  "usage: stackbench bench [--results DIR] [--set bench.KEY=VALUE]... [--stack NAME] STACK.yml\n"
	  "       stackbench bench --suite NAME[,NAME] --target DIR [--set bench.KEY=VALUE]...\n"
	  "                        [--watch DEV]... [--output-format text|json] [--results DIR]\n"
	  "  The first form runs the stack's suites on a stack left up by `stackbench build`.\n"
	  "  Suites: " SB_USAGE_SUITES ". bench keys: size, runtime, ramp,\n"
	  "  chunk, files, fsync, repeat, copy_dir. A block device --target needs --destroy-data=DEV and\n"
	  "  the checks of a stack's disks (suites write).\n" },
	{ "teardown", sb_cmd_teardown, "remove everything a stack created (from its state file)",
	  "usage: stackbench teardown STACK-NAME...\n"
	  "       stackbench teardown --all\n"
	  "  Works from /run/stackbench/<name>.state, so the stack file need not exist.\n" },
	{ "build-and-test", sb_cmd_build_and_test, "build, benchmark and tear down each stack, then print the table",
	  "usage: stackbench build-and-test [--set KEY=VALUE]... [--repeat N [--interleave]] [--results DIR]\n"
	  "                                 [--repeat auto [--precision PCT] [--min-repeat N] [--max-repeat N]\n"
	  "                                  [--max-time DURATION]]\n"
	  "                                 [--format " SB_USAGE_FORMATS "] [--chart FILE]\n"
	  "                                 [--columns LIST] [--baseline NAME] [--report FILE.html]\n"
	  "                                 [--destroy-data=DEV,...] [--wipe] [--host-label NAME]\n"
	  "                                 [--stack NAME] STACK.yml...\n"
	  "  Builds each stack (matrix files: each expansion), runs its bench suites, tears it down,\n"
	  "  writes one results file per stack (default ./results) and prints the table;\n"
	  "  --report FILE.html also writes the HTML report of this run (see stackbench report).\n"
	  "  Runs in the throwaway kernel when this one lacks md or device-mapper.\n"
	  "  --host-label NAME (or env STACKBENCH_HOST_LABEL) records which machine in host.label;\n"
	  "  --stack NAME runs only that expansion of a matrix file.\n"
	  "  --interleave: repetition r of every stack in round r, each stack rebuilt for each round,\n"
	  "  so a machine whose speed drifts moves every stack alike (not with export, faults.fail or\n"
	  "  faults.flakey).\n"
	  "  --repeat auto: interleaved rounds until every figure of the table has a 95 % CI within\n"
	  "  --precision (default 5 %) or a verdict against --baseline, at least --min-repeat (3) and at\n"
	  "  most --max-repeat (10) rounds, none started that would pass --max-time; the results' run_order\n"
	  "  says why it stopped (docs/statistics.md).\n" },
	{ "compare", sb_cmd_compare, "print a comparison table from results files",
	  "usage: stackbench compare [--columns LIST] [--baseline NAME]\n"
	  "                          [--format " SB_USAGE_FORMATS "]\n"
	  "                          [--chart FILE.svg|FILE.png] [--per-layer] [--pivot host] RESULTS.json...\n"
	  "  --per-layer: one row per layer device (bench.per_layer figures, expected, % of the\n"
	  "  layer below, the limit of each layer); with --chart, the waterfall of seq reads.\n"
	  "  Results of one stack on one machine are pooled as repetitions; from several machines\n"
	  "  the table gets a host column (host.label, else hostname). --pivot host: stacks as rows,\n"
	  "  each figure once per host as columns. --backup-size SIZE (2TiB, 500GB): after the table,\n"
	  "  how long a backup of SIZE takes at each tool's rates from the copy suite.\n"
	  "  --baseline with repetitions: each figure's difference with its 95 % confidence interval and\n"
	  "  a verdict (faster, slower, no detectable difference), outliers flagged (docs/statistics.md).\n" },
	{ "report", sb_cmd_report, "write one self-contained HTML page from results files",
	  "usage: stackbench report -o FILE.html [--columns LIST] [--baseline NAME] RESULTS...\n"
	  "  RESULTS: results files or directories of them, as compare takes them. The page has\n"
	  "  compare's table (same --columns and --baseline), a chart per figure group, each stack\n"
	  "  as asked and as read back, its host, notes and command line, device statistics per\n"
	  "  phase and the per-layer view; no network, scripts or fonts from elsewhere.\n"
	  "  -o - writes it to stdout. `compare --format html` prints the same page.\n" },
	{ "status", sb_cmd_status, "list active stacks and their layers",
	  "usage: stackbench status\n" },
	{ "job", sb_cmd_job, "run I/O jobs, like fio (its options, job files and output)",
	  "usage: stackbench job [--OPTION=VALUE | --OPTION VALUE]... [JOBFILE.fio]...\n"
	  "  fio's spellings: --name (starts a new job) --filename --directory --size --bs\n"
	  "  --rw/--readwrite --rwmixread --rwmixwrite --iodepth --iodepth_batch --numjobs/--numjob\n"
	  "  --ioengine=psync|sync|libaio|null --iomem --direct --buffered --randrepeat --time_based\n"
	  "  --runtime --ramp_time --group_reporting --stonewall --end_fsync --fsync --write_bw_log\n"
	  "  --write_iops_log --write_lat_log --log_avg_msec --output-format=normal|json|json+\n"
	  "  --output FILE (--cmdhelp lists them); stackbench's own: --target PATH (must exist)\n"
	  "  --verify [--verify-seed N]\n"
	  "  --keep-files --watch DEV. Bools take 0|1 or stand alone; a bare time is seconds.\n"
	  "  Defaults are fio 3.33's: direct=0, ioengine=psync, iodepth_batch=1, invalidate=1,\n"
	  "  a random map (norandommap), unlink=0; no filename/directory: NAME.N.0 here.\n"
	  "  Options before the first --name are global; a job file has [global] and job sections\n"
	  "  (';'/'#' comments, ${VAR} from the environment, name= and description=, 4096 jobs at\n"
	  "  most; filename=a:b is two files, refused: one file a job, a\\:b names the file a:b).\n"
	  "  Jobs run at the same time unless stonewall; an option fio has and stackbench does not\n"
	  "  is refused (exit 2). MODE: read, write, randread, randwrite, rw, randrw.\n"
	  "  PATH: a block device, a regular file, or a directory (one file per job thread).\n"
	  "  A write MODE on a block device needs --destroy-data=PATH and a device that is not\n"
	  "  mounted, held, open elsewhere or carrying a signature (exit 5 otherwise).\n" },
	{ "fleet", sb_cmd_fleet, "run stacks on many machines with Ansible, then compare them",
	  "usage: stackbench fleet -i INVENTORY [--each | --spread] [--rerun] [--results DIR] STACK.yml...\n"
	  "  Runs the shipped playbook (/usr/share/stackbench/ansible/fleet.yml) with ansible-playbook:\n"
	  "  each host installs stackbench, runs build-and-test with its inventory variables\n"
	  "  (stackbench_set, stackbench_destroy_data, ...), and is torn down and checked; results\n"
	  "  come back to DIR/<inventory_hostname>/ (default ./results). --each (default): every\n"
	  "  stack on every host; --spread: each stack (matrix expansions too) once, dealt across\n"
	  "  the hosts. Cells already fetched are skipped unless --rerun. Shows which host is on\n"
	  "  which stack, then compare's table with a host column and a line per failure.\n"
	  "  Exit 6 (partial) when some hosts or stacks failed and the others' rows stand.\n" },
	{ "ciphers", sb_cmd_ciphers, "measure this machine's dm-crypt and SSH ciphers (the ceilings of LUKS and SSHFS)",
	  "usage: stackbench ciphers [--seconds S] [--dm-crypt CIPHER[:KEYBITS]]... [--ssh LIST] [--json]\n"
	  "  dm-crypt ciphers through the kernel crypto API (AF_ALG), one request per 512- and\n"
	  "  4096-byte sector with dm-crypt's IV, encrypt and decrypt, and the kernel driver that\n"
	  "  served each; SSH ciphers through OpenSSL's EVP interface at 16..16384-byte blocks, the\n"
	  "  `openssl speed -evp` shape, and whether OpenSSL uses AES-NI (x86) or the ARMv8 AES,\n"
	  "  PMULL and NEON instructions (ARM); an ARM SoC's crypto engine (the Helios4's CESA)\n"
	  "  shows as the dm-crypt rows' kernel driver (mv-cbc-aes, marvell-cesa). MB/s = 10^6 B/s.\n"
	  "  --seconds S (-t, --time): per figure, default 0.1 (about 5 s in all).\n"
	  "  --dm-crypt: repeat for several, e.g. aes-xts-plain64:512, aes-cbc-essiv:sha256:256,\n"
	  "  xchacha12,aes-adiantum-plain64 (key 256 bits unless given); `none` leaves them out.\n"
	  "  --ssh: comma list of ssh -c names (chacha20-poly1305@openssh.com, aes128-ctr,\n"
	  "  aes192-ctr, aes256-ctr, aes128-gcm@openssh.com, aes256-gcm@openssh.com) or `none`.\n"
	  "  A kernel without AF_ALG (CONFIG_CRYPTO_USER_API_SKCIPHER) gets a row saying so;\n"
	  "  `stackbench --sandbox ciphers` measures the throwaway kernel's (generic C) ciphers.\n" },
	{ "bonnie", sb_cmd_bonnie, "run bonnie++ 2.00a's tests with its options and output", sb_cmd_bonnie_usage },
	{ NULL, NULL, NULL, NULL },
};

const struct sb_global_doc sb_global_docs[] = {
	{ "--sandbox", "always run in the throwaway user-mode-linux kernel" },
	{ "--no-sandbox", "never; fail if this kernel lacks md or device-mapper" },
	{ "-v, --verbose", "more messages (twice: debug)" },
	{ "-q, --quiet", "only errors and results" },
	{ "--progress, --no-progress", "force the live progress line on or off (default: on when stderr is a terminal)" },
	{ "--version", "print the version (and the git description when built from git)" },
	{ "-h, --help", "this text; `stackbench help COMMAND` for a command" },
	{ NULL, NULL },
};

const struct sb_exit_doc sb_exit_docs[] = {
	{ SB_EXIT_OK, "ok" },
	{ SB_EXIT_FAIL, "failure (a step, a suite or a teardown failed)" },
	{ SB_EXIT_USAGE, "bad usage, a bad stack description or a missing/unreadable/invalid input file" },
	{ SB_EXIT_NOROOT, "needs root" },
	{ SB_EXIT_BUSY, "device busy, or leftovers of an earlier run" },
	{ SB_EXIT_REFUSED, "refused for safety (a disk or path failed a check, or no consent)" },
	{ SB_EXIT_PARTIAL, "partial: some hosts of `stackbench fleet` failed (each named, with why); the others' rows stand" },
	{ SB_EXIT_INTERRUPTED, "interrupted (SIGINT/SIGTERM; what was built is torn down)" },
	{ 0, NULL },
};

const struct sb_cmd *sb_cmd_find(const char *name)
{
	const struct sb_cmd *c;

	for (c = sb_cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void sb_cmd_usage_text(const struct sb_cmd *c, FILE *f)
{
	char formats[256];
	const struct { const char *mark, *names; } marks[] = {
		{ SB_USAGE_SUITES, sb_suite_names() },
		{ SB_USAGE_FORMATS, sb_names_join(formats, sizeof(formats), "|", sb_table_format_name) },
	};
#define NMARKS (sizeof(marks) / sizeof(marks[0]))
	const char *u = c->usage, *at;
	size_t i;

	while ((at = strchr(u, '@'))) {
		fwrite(u, 1, (size_t)(at - u), f);
		for (i = 0; i < NMARKS && strncmp(at, marks[i].mark, strlen(marks[i].mark)); i++)
			;
		if (i == NMARKS) {   /* an '@' of the text itself */
			fputc('@', f);
			u = at + 1;
			continue;
		}
		fputs(marks[i].names, f);
		u = at + strlen(marks[i].mark);
	}
	fputs(u, f);
	if (!strcmp(c->name, "compare") || !strcmp(c->name, "build-and-test"))
		fprintf(f, "  columns: %s\n", sb_column_names());
}

void sb_cmd_print_usage(const struct sb_cmd *c)
{
	printf("stackbench %s: %s\n\n", c->name, c->summary);
	sb_cmd_usage_text(c, stdout);
}

int sb_cmd_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}
