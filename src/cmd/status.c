/* stackbench status: every stack recorded in the state directory, the
 * process that built it (alive or not), and each object it recorded with
 * whether it still exists. Reads only; no root needed. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "core/stack.h"
#include "util/log.h"

static bool pid_alive(int pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

static void print_stack(const char *name)
{
	struct sb_err e = { 0 };
	struct sb_state *st = calloc(1, sizeof(*st));
	unsigned i, gone = 0;

	if (!st) {
		printf("%s: out of memory\n", name);
		return;
	}
	if (sb_state_load(name, st, &e)) {
		printf("%s: unreadable state: %s\n", name, e.msg);
		free(st);
		return;
	}
	for (i = 0; i < st->nobj; i++) {
		const struct sb_layer_ops *ops = sb_layer_find(st->obj[i].layer);

		gone += ops && !sb_layer_exists(ops, &st->obj[i]);
	}
	printf("%s  (from %s; built by pid %d, %s; started %s)%s\n", st->stack,
	       st->source[0] ? st->source : "?", st->pid,
	       pid_alive(st->pid) ? "running" : "not running", st->started,
	       !st->nobj ? "  [no objects]" : gone == st->nobj ? "  [all gone: `stackbench teardown` clears the record]" : "");
	for (i = 0; i < st->nobj; i++) {
		const struct sb_state_obj *o = &st->obj[i];
		const struct sb_layer_ops *ops = sb_layer_find(o->layer);

		printf("  %-6s %-8s %-40s %s%s%s\n", o->layer, o->kind, o->id,
		       !ops ? "unknown" : sb_layer_exists(ops, o) ? "present" : "gone   ",
		       o->extra[0] ? "  " : "", o->extra);
	}
	free(st);
}

/* The options, with the words `stackbench help status` shows for each. */
static const struct sb_optdef opts[] = {
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_status(int argc, char **argv, struct sb_err *err)
{
	char **names;
	unsigned n, i;
	int rc;

	struct sb_args a;
	const char *val;

	if (sb_args_init(&a, argc, argv, 1, opts, "status", err) < 0)
		return -ENOMEM;
	rc = sb_args_next(&a, &val, err);
	if (rc == 0 && a.npos)
		rc = sb_args_usage_error("status", err, "takes no arguments ('%s')", a.pos[0]);
	sb_args_free(&a);
	if (rc < 0)
		return rc;
	rc = sb_state_list(&names, &n, err);
	if (rc)
		return rc;
	if (!n)
		printf("no active stacks (nothing recorded in %s)\n", sb_state_dir());
	for (i = 0; i < n; i++) {
		if (i)
			printf("\n");
		print_stack(names[i]);
		free(names[i]);
	}
	free(names);
	return 0;
}

const struct sb_cmd sb_cmd_status_row = {
	.name = "status",
	.fn = sb_cmd_status,
	.flags = 0,
	.opts = opts,
	.summary = "list active stacks and their layers",
	.usage =
	  "usage: stackbench status\n",
};
