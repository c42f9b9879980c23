/* See args.h. Written out rather than getopt_long because glibc's matches
 * unambiguous abbreviations (which cannot be turned off), prints its own
 * messages and cannot say which option lacks a value in our words. */
#include "cmd/args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_args_init(struct sb_args *a, int argc, char **argv, int first, const struct sb_optdef *defs,
		 const char *cmd, struct sb_err *err)
{
	memset(a, 0, sizeof(*a));
	a->argc = argc;
	a->argv = argv;
	a->i = first;
	a->defs = defs;
	a->cmd = cmd;
	a->pos = calloc((size_t)argc + 1, sizeof(*a->pos));
	if (!a->pos)
		return sb_err_set(err, -ENOMEM, "out of memory");
	return 0;
}

void sb_args_free(struct sb_args *a)
{
	free(a->pos);
	a->pos = NULL;
}

int sb_args_usage_error(const char *cmd, struct sb_err *err, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cmd)
		return sb_err_set(err, -EINVAL, "%s: %s; see `stackbench help %s`", cmd, msg, cmd);
	return sb_err_set(err, -EINVAL, "%s; see `stackbench --help`", msg);
}

static const struct sb_optdef *find_long(const struct sb_optdef *d, const char *name, size_t n)
{
	for (; d->name; d++)
		if (strlen(d->name) == n && !strncmp(d->name, name, n))
			return d;
	return NULL;
}

static const struct sb_optdef *find_short(const struct sb_optdef *d, char c)
{
	for (; d->name; d++)
		if (d->shortname && d->shortname == c)
			return d;
	return NULL;
}

/* The value of an option that takes one: the rest after '=', else the
 * next argument unless there is none or it is itself an option. */
static int take_value(struct sb_args *a, const char *shown, const char *eq, const char **val,
		      struct sb_err *err)
{
	const char *next;

	if (eq) {
		*val = eq;
		return 0;
	}
	next = a->i < a->argc ? a->argv[a->i] : NULL;
	if (!next || (next[0] == '-' && next[1] == '-'))
		return sb_args_usage_error(a->cmd, err, "%s needs a value", shown);
	*val = next;
	a->i++;
	return 0;
}

static int next_short(struct sb_args *a, const char **val, struct sb_err *err)
{
	char c = *a->cluster++;
	const struct sb_optdef *d = find_short(a->defs, c);
	char shown[3] = { '-', c, 0 };

	if (!d)
		return sb_args_usage_error(a->cmd, err, "unknown option '-%c'", c);
	if (d->value) {
		const char *rest = *a->cluster ? a->cluster : NULL;

		a->cluster = NULL;
		return take_value(a, shown, rest, val, err) < 0 ? -EINVAL : d->id;
	}
	if (!*a->cluster)
		a->cluster = NULL;
	return d->id;
}

int sb_args_next(struct sb_args *a, const char **val, struct sb_err *err)
{
	*val = NULL;
	if (a->cluster)
		return next_short(a, val, err);
	while (a->i < a->argc) {
		char *arg = a->argv[a->i];
		const struct sb_optdef *d;
		const char *eq;
		size_t n;

		if (a->no_more_options || arg[0] != '-' || !arg[1]) {
			if (a->stop_at_operand)
				return 0;
			a->pos[a->npos++] = arg;
			a->i++;
			continue;
		}
		a->i++;
		if (!strcmp(arg, "--")) {
			a->no_more_options = true;
			if (a->stop_at_operand)
				return 0;
			continue;
		}
		if (arg[1] != '-') {
			a->cluster = arg + 1;
			return next_short(a, val, err);
		}
		eq = strchr(arg + 2, '=');
		n = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
		d = find_long(a->defs, arg + 2, n);
		if (!d)
			return sb_args_usage_error(a->cmd, err, "unknown option '%.*s'", (int)n + 2, arg);
		if (!d->value) {
			if (eq)
				return sb_args_usage_error(a->cmd, err, "--%s takes no value", d->name);
			return d->id;
		}
		{
			char shown[80];

			snprintf(shown, sizeof(shown), "--%s", d->name);
			if (take_value(a, shown, eq ? eq + 1 : NULL, val, err) < 0)
				return -EINVAL;
		}
		return d->id;
	}
	return 0;
}
