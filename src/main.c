/* stackbench: build storage stacks, benchmark them, tear them down, compare.
 * Global options come before the command; the command table is in
 * cmd/table.c. This is the only place that turns errors into exit codes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cmd/cmd.h"
#include "sandbox/sandbox.h"
#include "util/err.h"
#include "util/log.h"

static void usage(FILE *f)
{
	const struct sb_cmd *c;

	fprintf(f,
		"usage: stackbench [GLOBAL OPTIONS] COMMAND [ARGS]\n\n"
		"Build a storage stack (RAID -> LVM -> LUKS -> ext4) from a YAML description,\n"
		"benchmark it, tear it down and compare the results.\n\n"
		"Commands:\n");
	for (c = sb_cmds; c->name; c++)
		fprintf(f, "  %-16s %s\n", c->name, c->summary);
	fprintf(f,
		"\nGlobal options:\n"
		"  --sandbox        always run in the throwaway user-mode-linux kernel\n"
		"  --no-sandbox     never; fail if this kernel lacks md or device-mapper\n"
		"  -v, --verbose    more messages (twice: debug)\n"
		"  -q, --quiet      only errors and results\n"
		"  --progress / --no-progress   force the live progress line on or off\n"
		"  --version        print the version\n"
		"  -h, --help       this text; `stackbench help COMMAND` for a command\n\n"
		"Exit codes: 0 ok, 1 failure, 2 bad usage or bad stack description,\n"
		"3 needs root, 4 device busy or leftovers of an earlier run, 5 refused for safety,\n"
		"130 interrupted.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sandbox", no_argument, NULL, 'S' },
		{ "no-sandbox", no_argument, NULL, 'N' },
		{ "in-sandbox", no_argument, NULL, 'I' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 'P' },
		{ "no-progress", no_argument, NULL, 'p' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sb_err err = { 0 };
	const struct sb_cmd *cmd;
	int c, rc, verbose = SB_LOG_INFO;

	sb_globals.argv0 = argv[0];
	sb_globals.orig_argc = argc;
	sb_globals.orig_argv = argv;
	/* '+': stop at the first non-option, the command. */
	while ((c = getopt_long(argc, argv, "+vqh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': sb_globals.sandbox = 1; break;
		case 'N': sb_globals.sandbox = 0; break;
		case 'I': sb_globals.in_sandbox = 1; sb_globals.sandbox = 0; break;
		case 'v': verbose++; break;
		case 'q': verbose = SB_LOG_QUIET; break;
		case 'P': sb_log_set_progress(1); break;
		case 'p': sb_log_set_progress(0); break;
		case 'V': printf("stackbench %s\n", SB_VERSION); return SB_EXIT_OK;
		case 'h': usage(stdout); return SB_EXIT_OK;
		default: usage(stderr); return SB_EXIT_USAGE;
		}
	}
	sb_log_set_level(verbose > SB_LOG_DEBUG ? SB_LOG_DEBUG : verbose);
	if (optind >= argc) {
		usage(stderr);
		return SB_EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "help")) {
		if (optind + 1 >= argc) {
			usage(stdout);
			return SB_EXIT_OK;
		}
		cmd = sb_cmd_find(argv[optind + 1]);
		if (!cmd) {
			fprintf(stderr, "stackbench: unknown command '%s'; see `stackbench help`\n", argv[optind + 1]);
			return SB_EXIT_USAGE;
		}
		sb_cmd_print_usage(cmd);
		return SB_EXIT_OK;
	}
	cmd = sb_cmd_find(argv[optind]);
	if (!cmd) {
		fprintf(stderr, "stackbench: unknown command '%s'; see `stackbench help`\n", argv[optind]);
		return SB_EXIT_USAGE;
	}
	if (sb_cmd_wants_help(argc - optind, argv + optind)) {
		sb_cmd_print_usage(cmd);
		return SB_EXIT_OK;
	}
	int cargc = argc - optind;
	char **cargv = argv + optind;

	/* --sandbox forces any command into the throwaway kernel, before its
	 * handler reads anything; the handlers that need md/dm decide the
	 * automatic case themselves with sb_sandbox_decide(). */
	/* build-and-test decides itself even then: it knows its stacks, so
	 * the sandbox gets their members as its own block devices. */
	if (sb_globals.sandbox == 1 && !sb_globals.in_sandbox && strcmp(cmd->name, "build-and-test")) {
		int code;

		rc = sb_sandbox_rerun(cargc, cargv, NULL, &code, &err);
		if (rc < 0) {
			fprintf(stderr, "stackbench: %s\n", err.msg);
			return sb_err_exit_code(rc);
		}
		return code;
	}
	sb_globals.cmd_argc = cargc;
	sb_globals.cmd_argv = cargv;
	optind = 0; /* handlers run getopt_long again on their own argv */
	rc = cmd->fn(cargc, cargv, &err);
	sb_progress_done();
	if (rc < 0) {
		if (!err.msg[0])
			snprintf(err.msg, sizeof(err.msg), "%s failed: %s", cmd->name, strerror(-rc));
		fprintf(stderr, "stackbench: %s\n", err.msg);
		return sb_err_exit_code(rc);
	}
	return rc > 0 ? rc : SB_EXIT_OK;
}
