/* One command-line parser for every command (and the global options), the
 * GNU way without its surprises: options and operands in any order, `--`
 * ends the options, `--name=value` or `--name value`, long names matched
 * exactly (no abbreviations: `--output` is never `--output-format`), a
 * missing value is "--name needs a value", an unknown option one line.
 * Every failure is -EINVAL (exit 2) with the sentence in err. */
#ifndef SB_CMD_ARGS_H
#define SB_CMD_ARGS_H

#include <stdbool.h>

#include "util/err.h"

struct sb_optdef {
	const char *name;     /* long name without "--"; NULL ends the table */
	char shortname;       /* 0, or a one-letter alias (-v) */
	bool value;           /* takes a value */
	int id;               /* > 0, returned by sb_args_next */
	const char *arg;      /* the value's name in the help (KEY=VALUE), or NULL */
	const char *help;     /* one line for `stackbench help CMD` and the man page */
};

struct sb_args {
	int argc;
	char **argv;
	int i;                       /* next argv index */
	const struct sb_optdef *defs;
	const char *cmd;             /* for messages: "build", or NULL for global options */
	bool stop_at_operand;        /* global options: stop at the command name */
	bool no_more_options;        /* after `--` */
	const char *cluster;         /* the rest of "-vq" being read */
	char **pos;                  /* the operands, in order (argv pointers) */
	int npos;
};

/* argv[first..argc) is parsed. Returns 0 or -ENOMEM. */
int sb_args_init(struct sb_args *a, int argc, char **argv, int first, const struct sb_optdef *defs,
		 const char *cmd, struct sb_err *err);
/* The next option's id (its value in *val, or NULL), 0 when all of argv is
 * read (operands are then in a->pos / a->npos; with stop_at_operand, a->i
 * is the index of the first operand), or -EINVAL with err set. */
int sb_args_next(struct sb_args *a, const char **val, struct sb_err *err);
void sb_args_free(struct sb_args *a);

/* -EINVAL "CMD: MESSAGE; see `stackbench help CMD`" */
int sb_args_usage_error(const char *cmd, struct sb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
