/* The shared command-line parser (cmd/args.c): options anywhere, `--`,
 * exact names only, "needs a value", one-line errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <ctype.h>
#include <string.h>

#include <cmocka.h>

#include "bench/suite.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "spec/options.h"

static const struct sb_optdef defs[] = {
	{ "set", 0, true, 's', NULL, NULL },
	{ "output", 0, true, 'o', NULL, NULL },
	{ "output-format", 0, true, 'f', NULL, NULL },
	{ "wipe", 0, false, 'w', NULL, NULL },
	{ "verbose", 'v', false, 'v', NULL, NULL },
	{ "quiet", 'q', false, 'q', NULL, NULL },
	{ NULL, 0, false, 0, NULL, NULL },
};

/* Parse argv (NULL-terminated after the command name); the options seen as
 * "id=value," into seen, the operands space-separated into pos. */
static int parse(char **argv, bool stop, char *seen, char *pos, struct sb_err *err)
{
	struct sb_args a;
	const char *val;
	int argc = 0, c;

	while (argv[argc])
		argc++;
	seen[0] = pos[0] = 0;
	assert_int_equal(sb_args_init(&a, argc, argv, 1, defs, "cmd", err), 0);
	a.stop_at_operand = stop;
	while ((c = sb_args_next(&a, &val, err)) > 0)
		sprintf(seen + strlen(seen), "%c=%s,", c, val ? val : "");
	for (int i = 0; i < a.npos; i++)
		sprintf(pos + strlen(pos), "%s%s", i ? " " : "", a.pos[i]);
	if (stop && c == 0)
		sprintf(pos + strlen(pos), "@%d", a.i);
	sb_args_free(&a);
	return c;
}

static void test_permutation(void **state)
{
	char *argv[] = { "build", "s.yml", "--set", "a=1", "--wipe", "t.yml", "--set=b=2", NULL };
	char seen[256], pos[256];
	struct sb_err err = { 0 };

	assert_int_equal(parse(argv, false, seen, pos, &err), 0);
	assert_string_equal(seen, "s=a=1,w=,s=b=2,");
	assert_string_equal(pos, "s.yml t.yml");
}

static void test_double_dash(void **state)
{
	char *argv[] = { "x", "--wipe", "--", "--set", "-v", NULL };
	char seen[256], pos[256];
	struct sb_err err = { 0 };

	assert_int_equal(parse(argv, false, seen, pos, &err), 0);
	assert_string_equal(seen, "w=,");
	assert_string_equal(pos, "--set -v");
}

static void test_exact_names(void **state)
{
	char *argv[] = { "x", "--output=x.json", "--output-format", "json", NULL };
	char *abbrev[] = { "x", "--out", "y", NULL };
	char seen[256], pos[256];
	struct sb_err err = { 0 };

	assert_int_equal(parse(argv, false, seen, pos, &err), 0);
	assert_string_equal(seen, "o=x.json,f=json,");
	/* no abbreviation: --out is not --output */
	assert_int_equal(parse(abbrev, false, seen, pos, &err), -EINVAL);
	assert_string_equal(err.msg, "cmd: unknown option '--out'; see `stackbench help cmd`");
}

static void test_missing_value(void **state)
{
	char *end[] = { "x", "s.yml", "--set", NULL };
	char *opt[] = { "x", "--set", "--wipe", NULL };
	char *flag[] = { "x", "--wipe=yes", NULL };
	char seen[256], pos[256];
	struct sb_err err = { 0 };

	assert_int_equal(parse(end, false, seen, pos, &err), -EINVAL);
	assert_string_equal(err.msg, "cmd: --set needs a value; see `stackbench help cmd`");
	sb_err_clear(&err);
	assert_int_equal(parse(opt, false, seen, pos, &err), -EINVAL);
	assert_string_equal(err.msg, "cmd: --set needs a value; see `stackbench help cmd`");
	sb_err_clear(&err);
	assert_int_equal(parse(flag, false, seen, pos, &err), -EINVAL);
	assert_string_equal(err.msg, "cmd: --wipe takes no value; see `stackbench help cmd`");
}

static void test_short_and_global(void **state)
{
	char *argv[] = { "stackbench", "-vq", "-v", "build", "--frob", NULL };
	char *bad[] = { "stackbench", "--frob", "build", NULL };
	char *dash[] = { "stackbench", "-v", "--", "build", NULL };
	char seen[256], pos[256];
	struct sb_err err = { 0 };
	struct sb_args a;
	const char *val;

	/* global options stop at the command: its own options are its business */
	assert_int_equal(parse(argv, true, seen, pos, &err), 0);
	assert_string_equal(seen, "v=,q=,v=,");
	assert_string_equal(pos, "@3");
	assert_int_equal(parse(dash, true, seen, pos, &err), 0);
	assert_string_equal(pos, "@3");
	assert_int_equal(sb_args_init(&a, 3, bad, 1, defs, NULL, &err), 0);
	assert_int_equal(sb_args_next(&a, &val, &err), -EINVAL);
	assert_string_equal(err.msg, "unknown option '--frob'; see `stackbench --help`");
	sb_args_free(&a);
}

/* bench's help names the suites from the registry, compare's the formats (so the man page and
 * the completion, which read it, do too): no placeholder left. */
static void test_usage_suites(void **state)
{
	char *buf = NULL, want[300];
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	sb_cmd_usage_text(sb_cmd_find("bench"), f);
	fclose(f);
	snprintf(want, sizeof(want), "  Suites: %s.\n  bench keys:", sb_suite_names());
	assert_non_null(strstr(buf, want));
	assert_null(strchr(buf, '@'));
	free(buf);
	/* and compare's and build-and-test's the format table's */
	for (const char *const *cmd = (const char *const[]){ "compare", "build-and-test", NULL }; *cmd; cmd++) {
		buf = NULL;
		f = open_memstream(&buf, &len);
		assert_non_null(f);
		sb_cmd_usage_text(sb_cmd_find(*cmd), f);
		fclose(f);
		assert_non_null(strstr(buf, "[--format text|markdown|csv|json|bonnie-csv|html|fio-matrix]"));
		assert_null(strstr(buf, "@FORMATS@"));
		free(buf);
	}
}

/* The option of --NAME in cmd's table, or the global table's; NULL if neither has it. */
static const struct sb_optdef *opt_named(const struct sb_cmd *c, const char *name, size_t n)
{
	const struct sb_optdef *tabs[] = { c->opts, sb_global_opts }, *o;

	for (size_t t = 0; t < 2; t++)
		for (o = tabs[t]; o && o->name; o++)
			if (strlen(o->name) == n && !strncmp(o->name, name, n))
				return o;
	return NULL;
}

/* True when p is inside a `code span` of its line that starts with another
 * command ("`compare --format html`", "`stackbench bench ...`"). */
static bool in_other_command(const char *buf, const char *p, const struct sb_cmd *c)
{
	const char *line = p, *tick = NULL, *w;
	int ticks = 0;
	size_t n;

	while (line > buf && line[-1] != '\n')
		line--;
	for (w = line; w < p; w++)
		if (*w == '`') {
			ticks++;
			tick = w;
		}
	if (!(ticks % 2))
		return false;
	w = tick + 1;
	if (!strncmp(w, "stackbench ", 11))
		w += 11;
	n = strcspn(w, " `");
	for (const struct sb_cmd *const *o = sb_cmds; *o; o++)
		if (*o != c && strlen((*o)->name) == n && !strncmp((*o)->name, w, n))
			return true;
	return false;
}

/* Issue 26: a command is one row, its help made from the table its handler
 * parses with. For every command: each option has its help line and is
 * accepted by the parser under that table; every --option its text names is
 * one it has (the drift `build --stack` / help naming what --set rejects);
 * every bench.KEY it names is a stack key. */
static void test_command_rows(void **state)
{
	const struct sb_cmd *const *c;
	const struct sb_optdef *o;
	struct sb_err err = { 0 };

	(void)state;
	for (c = sb_cmds; *c; c++) {
		char *buf = NULL, *p;
		size_t len;
		FILE *f;

		assert_ptr_equal(sb_cmd_find((*c)->name), *c);
		if ((*c)->flags & SB_CMD_OWN_OPTIONS)
			assert_null((*c)->opts);
		else
			assert_non_null((*c)->opts);
		for (o = (*c)->opts; o && o->name; o++) {
			char opt[64], *argv[4] = { (char *)(*c)->name, opt, (char *)"x", NULL };
			struct sb_args a;
			const char *val;

			if (!o->help || (o->value && !o->arg))
				fail_msg("%s --%s: no help line or no value name", (*c)->name, o->name);
			snprintf(opt, sizeof(opt), "--%s", o->name);
			assert_int_equal(sb_args_init(&a, o->value ? 3 : 2, argv, 1, (*c)->opts, (*c)->name, &err), 0);
			assert_int_equal(sb_args_next(&a, &val, &err), o->id);
			sb_args_free(&a);
		}
		f = open_memstream(&buf, &len);
		assert_non_null(f);
		sb_cmd_usage_text(*c, f);
		fclose(f);
		for (p = buf; (p = strstr(p, "--")); p += 2) {
			size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");

			if (n == 0 || ((*c)->flags & SB_CMD_OWN_OPTIONS) || (p > buf && isalnum((unsigned char)p[-1])) ||
			    in_other_command(buf, p, *c))
				continue;
			if (!opt_named(*c, p + 2, n))
				fail_msg("`stackbench help %s` names --%.*s, which it does not take", (*c)->name, (int)n, p + 2);
		}
		for (p = buf; (p = strstr(p, "bench.")); p += 6) {
			char key[64];
			size_t n = strspn(p + 6, "abcdefghijklmnopqrstuvwxyz_");

			if (n == 0 || (p > buf && isalnum((unsigned char)p[-1])))
				continue;
			snprintf(key, sizeof(key), "bench.%.*s", (int)n, p + 6);
			if (!sb_opt_lookup(key, NULL))
				fail_msg("`stackbench help %s` names %s, which is not a stack key", (*c)->name, key);
		}
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_permutation),
		cmocka_unit_test(test_double_dash),
		cmocka_unit_test(test_exact_names),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_short_and_global),
		cmocka_unit_test(test_usage_suites),
		cmocka_unit_test(test_command_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
