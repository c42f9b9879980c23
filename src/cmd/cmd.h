/* One table of commands (git's cmd_struct): each subcommand is one file in
 * src/cmd/ with one handler. Handlers return 0 or -errno with err set;
 * only main.c turns that into an exit code. argv[0] is the command name. */
#ifndef SB_CMD_CMD_H
#define SB_CMD_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/args.h"
#include "util/err.h"

struct sb_globals {
	int sandbox;          /* -1 auto, 0 --no-sandbox, 1 --sandbox */
	int in_sandbox;       /* set (hidden --in-sandbox) when running inside the throwaway kernel */
	const char *argv0;    /* path of this binary, for re-running inside the sandbox */
	int orig_argc;        /* the whole command line, to re-run it inside the sandbox */
	char **orig_argv;
	int cmd_argc;         /* the command's own argv (argv[0] = command name), for sb_sandbox_rerun */
	char **cmd_argv;
};

extern struct sb_globals sb_globals;

/* What a command is, beyond its name: read by main.c and the help instead
 * of comparing command names. */
enum sb_cmd_flags {
	SB_CMD_COLUMNS = 1 << 0,      /* prints compare's table: its help lists the columns */
	SB_CMD_OWN_SANDBOX = 1 << 1,  /* decides --sandbox itself (knows its stacks' members) */
	SB_CMD_OWN_OPTIONS = 1 << 2,  /* parses its own options (fio's, bonnie++'s): opts is NULL */
};

/* A command is one row (git's cmd_struct), defined in the command's own
 * file beside its handler and option table; `stackbench help CMD`, the man
 * page and the completion (which reads the help) come from these rows. */
struct sb_cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct sb_err *err);
	unsigned flags;                /* enum sb_cmd_flags */
	const struct sb_optdef *opts;  /* the table the handler parses with; NULL: own options */
	const char *summary;  /* one line for `stackbench help` */
	const char *usage;    /* synopsis and text; the options' lines are added from opts */
};

/* Where a usage text names the suites, the formats or the bench keys:
 * sb_cmd_usage_text puts the registries' names there. */
#define SB_USAGE_SUITES "@SUITES@"
#define SB_USAGE_FORMATS "@FORMATS@"
#define SB_USAGE_BENCH_KEYS "@BENCHKEYS@"

int sb_cmd_validate(int argc, char **argv, struct sb_err *err);
int sb_cmd_plan(int argc, char **argv, struct sb_err *err);
int sb_cmd_build(int argc, char **argv, struct sb_err *err);
int sb_cmd_bench(int argc, char **argv, struct sb_err *err);
int sb_cmd_teardown(int argc, char **argv, struct sb_err *err);
int sb_cmd_build_and_test(int argc, char **argv, struct sb_err *err);
int sb_cmd_compare(int argc, char **argv, struct sb_err *err);
int sb_cmd_status(int argc, char **argv, struct sb_err *err);
int sb_cmd_job(int argc, char **argv, struct sb_err *err);
int sb_cmd_bonnie(int argc, char **argv, struct sb_err *err);
int sb_cmd_fleet(int argc, char **argv, struct sb_err *err);
int sb_cmd_ciphers(int argc, char **argv, struct sb_err *err);
extern const char sb_cmd_bonnie_usage[];
extern const struct sb_cmd sb_cmd_validate_row, sb_cmd_plan_row, sb_cmd_build_row, sb_cmd_bench_row,
	sb_cmd_teardown_row, sb_cmd_build_and_test_row, sb_cmd_compare_row, sb_cmd_report_row,
	sb_cmd_status_row, sb_cmd_job_row, sb_cmd_fleet_row, sb_cmd_ciphers_row, sb_cmd_bonnie_row;

int sb_cmd_report(int argc, char **argv, struct sb_err *err);

/* compare.c: results files named on the command line (directories: every
 * *.json in it, in run order), read and checked; report uses it too. */
struct json_object;
struct sb_loaded {
	struct json_object **res;
	char **paths;            /* paths[i] names res[i] */
	unsigned n, npaths;
	unsigned nbad;           /* keep_going: files refused (each named in a warning) */
};
int sb_cmd_results_load(char *const *args, unsigned nargs, struct sb_loaded *l, struct sb_err *err);
/* The table of l to stdout, without the control characters of names and
 * notes (compare's text path; fleet's final table). */
struct sb_table_opts;
int sb_cmd_table_print(struct sb_loaded *l, struct sb_table_opts *o, struct sb_err *err);
/* keep_going: a file that is not a valid results file is named in a
 * warning (file and key) and left out; the others load. */
int sb_cmd_results_load_ex(char *const *args, unsigned nargs, bool keep_going, struct sb_loaded *l,
			   struct sb_err *err);
void sb_cmd_results_free(struct sb_loaded *l);

/* Every command, in the order `stackbench help` lists them; NULL ends it. */
extern const struct sb_cmd *const sb_cmds[];

/* The exit codes, documented once (--help, the man page, README). */
struct sb_exit_doc {
	int code;
	const char *text;
};
extern const struct sb_exit_doc sb_exit_docs[];
const struct sb_cmd *sb_cmd_find(const char *name);
/* Print usage of a command to stdout. */
void sb_cmd_print_usage(const struct sb_cmd *c);
/* The usage text and what follows from the tables (compare's columns). */
void sb_cmd_usage_text(const struct sb_cmd *c, FILE *f);

/* The environment variables (environ.c): internal ones are set by
 * stackbench itself or read only by its tests. */
struct sb_env_doc {
	const char *name;
	const char *help;
	int internal;
};
extern const struct sb_env_doc sb_env_docs[];

/* The global options (before the command): main.c parses this table and
 * --help and the man page list its rows that have a help text. */
enum sb_global_opt {
	SB_G_SANDBOX = 1, SB_G_NO_SANDBOX, SB_G_IN_SANDBOX, SB_G_VERBOSE, SB_G_QUIET, SB_G_PROGRESS,
	SB_G_NO_PROGRESS, SB_G_VERSION, SB_G_HELP, SB_G_HELP_MAN,
};
extern const struct sb_optdef sb_global_opts[];
/* How the help names an option: "-v, --verbose", "--results DIR". */
void sb_cmd_opt_head(const struct sb_optdef *o, char *buf, size_t len);

/* stackbench(1) in roff, from the tables above, the stack-key tables and
 * the column registry (`stackbench --help-man`; meson builds the page
 * with it, so it cannot drift from --help). */
void sb_cmd_print_man(FILE *f);
/* For handlers: true if argv has -h/--help (then print usage and return 0). */
int sb_cmd_wants_help(int argc, char **argv);
/* Remove --destroy-data=DEV (or --destroy-data DEV) from argv; *val the
 * value or NULL. */
int sb_cmd_take_destroy_data(int *argc, char **argv, const char **val, struct sb_err *err);

#endif
