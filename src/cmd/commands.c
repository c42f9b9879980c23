#include "cmd/cmd.h"

#include <stdio.h>
#include <string.h>

#include "bench/suite.h"
#include "util/names.h"
#include "report/table.h"
#include "cmd/args.h"
#include "spec/options.h"

struct sb_globals sb_globals = { .sandbox = -1 };

const struct sb_cmd *const sb_cmds[] = {
	&sb_cmd_validate_row, &sb_cmd_plan_row, &sb_cmd_build_row, &sb_cmd_bench_row,
	&sb_cmd_teardown_row, &sb_cmd_build_and_test_row, &sb_cmd_compare_row, &sb_cmd_report_row,
	&sb_cmd_status_row, &sb_cmd_job_row, &sb_cmd_fleet_row, &sb_cmd_ciphers_row,
	&sb_cmd_bonnie_row, NULL,
};

const struct sb_optdef sb_global_opts[] = {
	{ "sandbox", 0, false, SB_G_SANDBOX, NULL, "always run in the throwaway user-mode-linux kernel" },
	{ "no-sandbox", 0, false, SB_G_NO_SANDBOX, NULL, "never; fail if this kernel lacks md or device-mapper" },
	{ "in-sandbox", 0, false, SB_G_IN_SANDBOX, NULL, NULL },   /* hidden: set inside the kernel */
	{ "verbose", 'v', false, SB_G_VERBOSE, NULL, "more messages (twice: debug)" },
	{ "quiet", 'q', false, SB_G_QUIET, NULL, "only errors and results" },
	{ "progress", 0, false, SB_G_PROGRESS, NULL, "the live progress line on (default: on when stderr is a terminal)" },
	{ "no-progress", 0, false, SB_G_NO_PROGRESS, NULL, "the live progress line off" },
	{ "version", 0, false, SB_G_VERSION, NULL, "print the version (and the git description when built from git)" },
	{ "help", 'h', false, SB_G_HELP, NULL, "this text; `stackbench help COMMAND` for a command" },
	{ "help-man", 0, false, SB_G_HELP_MAN, NULL, NULL },       /* hidden: the man page, for the build */
	{ NULL, 0, false, 0, NULL, NULL },
};

void sb_cmd_opt_head(const struct sb_optdef *o, char *buf, size_t len)
{
	if (o->shortname)
		snprintf(buf, len, "-%c, --%s%s%s", o->shortname, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(buf, len, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

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
	const struct sb_cmd *const *c;

	for (c = sb_cmds; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

/* "options:" and a line per row of the command's table: the help shows
 * exactly what the handler parses. */
static void usage_options(const struct sb_cmd *c, FILE *f)
{
	const struct sb_optdef *o;
	char head[96];

	if (!c->opts || !c->opts[0].name)
		return;
	fputs("options:\n", f);
	for (o = c->opts; o->name; o++) {
		sb_cmd_opt_head(o, head, sizeof(head));
		fprintf(f, "  %-30s %s\n", head, o->help ? o->help : "");
	}
}

void sb_cmd_usage_text(const struct sb_cmd *c, FILE *f)
{
	char formats[256], bench[512] = "";
	const struct sb_opt *b = sb_opt_lookup("bench", NULL);
	const struct { const char *mark, *names; } marks[] = {
		{ SB_USAGE_SUITES, sb_suite_names() },
		{ SB_USAGE_FORMATS, sb_names_join(formats, sizeof(formats), "|", sb_table_format_name) },
		{ SB_USAGE_BENCH_KEYS, bench },
	};
#define NMARKS (sizeof(marks) / sizeof(marks[0]))
	const char *u = c->usage, *at;
	size_t i;

	if (b && b->sub)
		sb_opt_keys_list(b->sub, bench, sizeof(bench));
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
	if (c->flags & SB_CMD_COLUMNS)
		fprintf(f, "  columns: %s\n", sb_column_names());
	usage_options(c, f);
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
