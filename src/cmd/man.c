/* stackbench(1), generated from the tables the binary itself uses: the
 * command table and its usage texts, the global options, the exit codes,
 * the stack-key option tables (`validate --keys`) and the column registry.
 * meson runs `stackbench --help-man` at build time to make the page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/args.h"
#include "config.h"
#include "spec/spec.h"

/* Text for roff: backslashes escaped, '-' as \-, no line starting with a
 * control character. */
static void roff(FILE *f, const char *s)
{
	int bol = 1;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = *s == '\n';
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* What a function prints to a FILE, as roff in a no-fill block. */
static void roff_block(FILE *f, void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	fn(m, arg);
	fclose(m);
	fputs(".nf\n", f);
	roff(f, buf);
	if (len && buf[len - 1] != '\n')
		fputc('\n', f);
	fputs(".fi\n", f);
	free(buf);
}

static void usage_of(FILE *m, const void *c)
{
	sb_cmd_usage_text(c, m);
}

static void keys_of(FILE *m, const void *unused)
{
	sb_spec_print_keys(m);
}

/* HEAD, the term, a line break, its text, TAIL: a .TP or .SS entry. */
static void roff_item(FILE *f, const char *head, const char *term, const char *text, const char *tail)
{
	fputs(head, f);
	roff(f, term);
	fputs("\n", f);
	roff(f, text);
	fputs(tail, f);
}

void sb_cmd_print_man(FILE *f)
{
	const struct sb_optdef *g;
	const struct sb_exit_doc *e;
	const struct sb_cmd *const *c;

	fprintf(f, ".TH STACKBENCH 1 \"\" \"stackbench %s\" \"User Commands\"\n", SB_VERSION);
	fputs(".SH NAME\nstackbench \\- build storage stacks, benchmark them, tear them down, compare\n"
	      ".SH SYNOPSIS\n.B stackbench\n[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n"
	      ".SH DESCRIPTION\n", f);
	roff(f, "stackbench builds a storage stack (loop devices or disks, md RAID1/RAID10, LVM, "
		"LUKS, ext4, mount) from a YAML stack description, benchmarks it with its own libaio "
		"engine and bonnie++-like suites, tears it down and prints comparison tables. Where "
		"the running kernel lacks md or device-mapper it runs inside a throwaway "
		"user-mode-linux kernel, on loop devices. Messages go to stderr; stdout carries only "
		"results. A command's options may come before, between or after its files; -- ends "
		"them; option names are matched exactly.\n");
	fputs(".SH GLOBAL OPTIONS\n", f);
	for (g = sb_global_opts; g->name; g++) {
		char head[64];

		if (!g->help)
			continue;
		sb_cmd_opt_head(g, head, sizeof(head));
		roff_item(f, ".TP\n.B ", head, g->help, "\n");
	}
	fputs(".SH COMMANDS\n", f);
	for (c = sb_cmds; *c; c++) {
		roff_item(f, ".SS ", (*c)->name, (*c)->summary, ".\n.PP\n");
		roff_block(f, usage_of, *c);
	}
	fputs(".SH STACK KEYS\n", f);
	roff(f, "Every key of a stack file, as `stackbench validate --keys` prints it; each can be "
		"overridden with --set KEY=VALUE.\n");
	fputs(".PP\n", f);
	roff_block(f, keys_of, NULL);
	fputs(".SH EXIT STATUS\n", f);
	for (e = sb_exit_docs; e->text; e++) {
		fprintf(f, ".TP\n.B %d\n", e->code);
		roff(f, e->text);
		fputs("\n", f);
	}
	fputs(".SH ENVIRONMENT\n", f);
	for (const struct sb_env_doc *v = sb_env_docs; v->name; v++) {
		if (v->internal)
			continue;
		fputs(".TP\n.B ", f);
		roff(f, v->name);
		fputs("\n", f);
		roff(f, v->help);
		fputs("\n", f);
	}
	fputs(".SH FILES\n.TP\n.I /usr/share/stackbench/stacks\nthe shipped stack descriptions\n"
	      ".TP\n.I /run/stackbench\nstate files of built stacks\n"
	      ".TP\n.I /var/tmp/stackbench\nloop backing files (default devices.loop.dir)\n"
	      ".TP\n.I /usr/share/doc/stackbench/results\\-schema.md\nthe results file format\n"
	      ".SH SEE ALSO\n.BR fio (1),\n.BR bonnie++ (8),\n.BR mdadm (8),\n.BR cryptsetup (8),\n"
	      ".BR lvm (8),\n.BR mke2fs (8)\n", f);
}
