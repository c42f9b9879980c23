/* stackbench build [--set K=V]... [--destroy-data=DEV,...] [--wipe]
 *                  [--stack NAME] STACK.yml
 * Build one stack and leave it up (state in the state directory). SIGINT or
 * SIGTERM stop it at the next step boundary and tear down what was built. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "core/stack.h"
#include "spec/spec.h"
#include "util/log.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	stop_flag = 1;
}

static const struct sb_stack_spec *pick(const struct sb_spec_list *l, const char *file,
					const char *name, struct sb_err *err)
{
	char names[512] = "";
	size_t n = 0;
	unsigned i;

	for (i = 0; i < l->n; i++)
		if (name ? !strcmp(l->items[i].name, name) : l->n == 1)
			return &l->items[i];
	for (i = 0; i < l->n && n < sizeof(names); i++)
		n += snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "", l->items[i].name);
	if (name)
		sb_err_set(err, -EINVAL, "%s has no stack named %s (it has: %s)", file, name, names);
	else
		sb_err_set(err, -EINVAL, "%s expands to %u stacks (%s); build one at a time with --stack NAME",
			   file, l->n, names);
	return NULL;
}

static void print_built(const struct sb_stack *s)
{
	unsigned i, j;

	printf("built %s\n", s->spec->name);
	for (i = 0; i < s->nlayers; i++) {
		const struct sb_layer *l = &s->layers[i];

		printf("  %-6s", l->ops->name);
		for (j = 0; j < l->ndev; j++)
			printf(" %s", l->dev[j]);
		if (l->mountpoint[0])
			printf(" on %s", l->mountpoint);
		printf("\n");
	}
	printf("tear it down with: stackbench teardown %s\n", s->spec->name);
}

/* Build with SIGINT/SIGTERM setting the stop flag, so a signal stops the
 * build at the next step boundary instead of in the middle of a step. */
static int build_signalled(struct sb_stack *s, struct sb_build_ctx *bc, struct sb_err *err)
{
	struct sigaction sa, old_int, old_term;
	int rc;

	stop_flag = 0;
	bc->stop = &stop_flag;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART; /* finish the current step; stop at the boundary */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = sb_stack_build(s, bc, err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}

/* The options, with the words `stackbench help build` shows for each. */
static const struct sb_optdef opts[] = {
	{ "set", 0, true, 's', "KEY=VALUE", "override a stack key (repeatable)" },
	{ "destroy-data", 0, true, 'd', "DEV,...", "consent to write these real disks (each must be named)" },
	{ "wipe", 0, false, 'w', NULL, "also wipe signatures on the named disks before building" },
	{ "stack", 0, true, 'n', "NAME", "build only this expansion of a matrix file" },
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_build(int argc, char **argv, struct sb_err *err)
{
	struct sb_args a;
	const char *val;
	struct sb_spec_list l = { 0 };
	const struct sb_stack_spec *spec;
	const char **sets, *destroy = NULL, *name = NULL;
	struct sb_stack *s = NULL;
	struct sb_build_ctx bc = { 0 };
	unsigned nsets = 0;
	int c, rc = 0, wipe = 0;

	sets = calloc((size_t)argc, sizeof(*sets));
	if (!sets || sb_args_init(&a, argc, argv, 1, opts, "build", err) < 0) {
		free(sets);
		return sb_err_set(err, -ENOMEM, "out of memory");
	}
	while ((c = sb_args_next(&a, &val, err)) > 0) {
		switch (c) {
		case 's': sets[nsets++] = val; break;
		case 'd': destroy = val; break;
		case 'w': wipe = 1; break;
		case 'n': name = val; break;
		}
	}
	if (c < 0) {
		rc = c;
		goto out;
	}
	if (a.npos != 1) {
		rc = sb_args_usage_error("build", err, "takes exactly one stack file, not %d", a.npos);
		goto out;
	}
	rc = sb_spec_load(a.pos[0], sets, nsets, &l, err);
	if (rc)
		goto out;
	spec = pick(&l, a.pos[0], name, err);
	if (!spec) {
		rc = err->code;
		goto out;
	}
	if (geteuid() != 0) {
		rc = sb_err_set(err, -EPERM, "build needs root (it creates loop devices, arrays and mounts)");
		goto out;
	}
	rc = sb_stack_check_kernel(spec, err);
	if (!rc)
		rc = sb_stack_check_programs(spec, err);
	if (rc)
		goto out;
	s = calloc(1, sizeof(*s));
	if (!s) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	bc.wipe = wipe;
	if (destroy) {
		rc = sb_stack_set_destroy_data(&bc, destroy, err);
		if (rc)
			goto out;
	}
	rc = sb_stack_init(s, spec, err);
	if (rc)
		goto out;
	rc = build_signalled(s, &bc, err);
	if (!rc)
		print_built(s);
	sb_stack_release(s);
out:
	free(s);
	sb_spec_list_free(&l);
	sb_args_free(&a);
	free(sets);
	return rc;
}

const struct sb_cmd sb_cmd_build_row = {
	.name = "build",
	.fn = sb_cmd_build,
	.flags = 0,
	.opts = opts,
	.summary = "build a stack and leave it up",
	.usage =
	  "usage: stackbench build [--set KEY=VALUE]... [--destroy-data=DEV,...] [--wipe] STACK.yml\n"
	  "  Needs root and a kernel with md and device-mapper (see --sandbox).\n",
};
