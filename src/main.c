/* stackbench: build storage stacks, benchmark them, tear them down, compare.
 * Global options come before the command; each command takes its own
 * options anywhere among its operands (cmd/args.h); the command table is
 * in cmd/commands.c. This is the only place that turns errors into exit codes. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sb_version.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "sandbox/sandbox.h"
#include "util/err.h"
#include "util/log.h"

static void usage(FILE *f)
{
	const struct sb_cmd *const *c;

	fprintf(f,
		"usage: stackbench [GLOBAL OPTIONS] COMMAND [ARGS]\n\n"
		"Build a storage stack (RAID -> LVM -> LUKS -> ext4) from a YAML description,\n"
		"benchmark it, tear it down and compare the results.\n\n"
		"Commands:\n");
	for (c = sb_cmds; *c; c++)
		fprintf(f, "  %-16s %s\n", (*c)->name, (*c)->summary);
	fprintf(f, "\nGlobal options:\n");
	for (const struct sb_optdef *g = sb_global_opts; g->name; g++) {
		char head[64];

		if (!g->help)
			continue;
		sb_cmd_opt_head(g, head, sizeof(head));
		fprintf(f, "  %-27s %s\n", head, g->help);
	}
	fprintf(f, "\nEnvironment:\n");
	for (const struct sb_env_doc *e = sb_env_docs; e->name; e++)
		if (!e->internal)
			fprintf(f, "  %-27s %s\n", e->name, e->help);
	fprintf(f, "  (and, set by stackbench itself or read by its tests:");
	for (const struct sb_env_doc *e = sb_env_docs; e->name; e++)
		if (e->internal)
			fprintf(f, " %s", e->name);
	fprintf(f, ")\n");
	fprintf(f,
		"\nCommand options may come before, between or after the files; `--` ends them.\n"
		"\nExit codes (every command):\n");
	for (const struct sb_exit_doc *e = sb_exit_docs; e->text; e++)
		fprintf(f, "  %-4d %s\n", e->code, e->text);
}

static void print_version(void)
{
	/* vcs_tag falls back to the project version outside git */
	bool git = SB_GIT_DESCRIBE[0] && strcmp(SB_GIT_DESCRIBE, SB_VERSION);

	printf("stackbench %s%s%s%s\n", SB_VERSION, git ? " (git " : "", git ? SB_GIT_DESCRIBE : "",
	       git ? ")" : "");
}

/* The global options, up to the command. Returns -1 to go on with the
 * command at argv[*cmd_index], else the exit code (--help, --version, a
 * bad option: one line, not the whole usage). */
static int parse_globals(int argc, char **argv, int *cmd_index)
{
	struct sb_err err = { 0 };
	struct sb_args ga;
	const char *val;
	int c, verbose = SB_LOG_INFO, done = -1;

	if (sb_args_init(&ga, argc, argv, 1, sb_global_opts, NULL, &err) < 0)
		return SB_EXIT_FAIL;
	ga.stop_at_operand = true;
	while (done < 0 && (c = sb_args_next(&ga, &val, &err)) > 0) {
		switch (c) {
		case SB_G_SANDBOX: sb_globals.sandbox = 1; break;
		case SB_G_NO_SANDBOX: sb_globals.sandbox = 0; break;
		case SB_G_IN_SANDBOX: sb_globals.in_sandbox = 1; sb_globals.sandbox = 0; break;
		case SB_G_VERBOSE: verbose++; break;
		case SB_G_QUIET: verbose = SB_LOG_QUIET; break;
		case SB_G_PROGRESS: sb_log_set_progress(1); break;
		case SB_G_NO_PROGRESS: sb_log_set_progress(0); break;
		case SB_G_VERSION: print_version(); done = SB_EXIT_OK; break;
		case SB_G_HELP: usage(stdout); done = SB_EXIT_OK; break;
		case SB_G_HELP_MAN: sb_cmd_print_man(stdout); done = SB_EXIT_OK; break;
		}
	}
	*cmd_index = ga.i;
	sb_args_free(&ga);
	if (done >= 0)
		return done;
	if (c < 0) {
		fprintf(stderr, "stackbench: %s\n", err.msg);
		return sb_err_exit_code(c);
	}
	sb_log_set_level(verbose > SB_LOG_DEBUG ? SB_LOG_DEBUG : verbose);
	return -1;
}

/* `stackbench help [COMMAND]` */
static int help(int argc, char **argv, int i)
{
	const struct sb_cmd *cmd;

	if (i + 1 >= argc) {
		usage(stdout);
		return SB_EXIT_OK;
	}
	cmd = sb_cmd_find(argv[i + 1]);
	if (!cmd) {
		fprintf(stderr, "stackbench: unknown command '%s'; see `stackbench help`\n", argv[i + 1]);
		return SB_EXIT_USAGE;
	}
	sb_cmd_print_usage(cmd);
	return SB_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct sb_err err = { 0 };
	const struct sb_cmd *cmd;
	int rc;

	sb_globals.argv0 = argv[0];
	sb_globals.orig_argc = argc;
	sb_globals.orig_argv = argv;
	rc = parse_globals(argc, argv, &optind);
	if (rc >= 0)
		return rc;
	if (optind >= argc) {
		usage(stderr);
		return SB_EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "help"))
		return help(argc, argv, optind);
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
	if (sb_globals.sandbox == 1 && !sb_globals.in_sandbox && !(cmd->flags & SB_CMD_OWN_SANDBOX)) {
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
	optind = 0; /* `job` still runs getopt_long on its own argv */
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
