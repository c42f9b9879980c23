/* fio's job files, read as fio 3.33's __parse_jobs_ini (init.c) reads them,
 * but without its line-length limit (getline): blank lines and lines whose
 * first character is ';' or '#' are skipped, and anything after the first
 * ';' or '#' of a line is a comment (fio's strip_blank_end), also after a
 * value; "[name]" starts a section ([global] edits the global options);
 * "key=value" and a bare "key" are options, in which ${VAR} is replaced by
 * the environment's VAR (fio_option_dup_subs) and $pagesize, $mb_memory,
 * $ncpus by their values, a sum then computed (fio_keyword_replace);
 * "include FILE" reads FILE's options into the section (its own sections
 * refused, as fio). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/jobargs.h"
#include "bench/jobfio.h"

/* The line without its comment and outer blanks (fio's strip_blank_*). */
static char *strip(char *line)
{
	char *e;

	while (isspace((unsigned char)*line))
		line++;
	line[strcspn(line, ";#")] = '\0';
	e = line + strlen(line);
	while (e > line && (isspace((unsigned char)e[-1]) || iscntrl((unsigned char)e[-1])))
		*--e = '\0';
	return line;
}

static int section(struct sb_job_cli *c, struct sb_job_opts **cur, char *p, struct sb_err *err)
{
	size_t n = strlen(p);
	int rc;

	if (n < 3 || p[n - 1] != ']')
		return sb_err_set(err, -EINVAL, "bad section header '%s'", p);
	p[n - 1] = '\0';
	if ((rc = sb_job_cli_section(c, p + 1, cur, err)) < 0 || *cur == &c->global)
		return rc;
	if (n - 2 >= sizeof((*cur)->name) || strchr(p + 1, '/'))
		return sb_err_set(err, -EINVAL, "section [%s]: a job name is 1..%zu characters, "
				  "without '/'", p + 1, sizeof((*cur)->name) - 1);
	snprintf((*cur)->name, sizeof((*cur)->name), "%s", p + 1);
	return 0;
}

/* key[=value] after ${VAR} expansion */
static int option(struct sb_job_cli *c, struct sb_job_opts **cur, const char *line, struct sb_err *err)
{
	char *x = sb_jobfio_expand(line), *eq, *k, *v = NULL;
	int rc;

	if (!x)
		return sb_err_set(err, -ENOMEM, "out of memory");
	if ((rc = sb_jobfio_keywords(&x, err)) < 0) {
		free(x);
		return rc;
	}
	if ((eq = strchr(x, '='))) {
		for (k = eq; k > x && isspace((unsigned char)k[-1]); k--)
			;
		*k = '\0';
		for (v = eq + 1; isspace((unsigned char)*v); v++)
			;
	}
	rc = sb_job_cli_option(c, cur, x, v, true, err);
	free(x);
	return rc;
}

/* fio's includes nest without a limit; a file that includes itself would
 * not end, so stackbench stops at this depth */
#define MAX_INCLUDE_DEPTH 16

static int read_lines(struct sb_job_cli *c, FILE *f, const char *label, struct sb_job_opts **cur,
		      unsigned depth, struct sb_err *err);

/* "include FILE" (fio's __parse_jobs_ini): FILE's option lines join the
 * section; a FILE that is not there from the current directory is taken
 * beside the file that includes it. */
static int include(struct sb_job_cli *c, struct sb_job_opts **cur, const char *name, const char *label,
		   unsigned depth, struct sb_err *err)
{
	const char *slash = strrchr(label, '/');
	char *full = NULL;
	FILE *f;
	int rc;

	if (depth >= MAX_INCLUDE_DEPTH)
		return sb_err_set(err, -ELOOP, "include %s: more than %d files deep", name, MAX_INCLUDE_DEPTH);
	if (access(name, F_OK) && slash &&
	    asprintf(&full, "%.*s%s", (int)(slash - label + 1), label, name) < 0)
		return sb_err_set(err, -ENOMEM, "out of memory");
	if (!(f = fopen(full ? full : name, "r"))) {
		rc = sb_err_set(err, -EINVAL, "include %s: %s", full ? full : name, strerror(errno));
	} else {
		rc = read_lines(c, f, full ? full : name, cur, depth + 1, err);
		fclose(f);
	}
	free(full);
	return rc;
}

static int one_line(struct sb_job_cli *c, struct sb_job_opts **cur, char *line, const char *label,
		    unsigned depth, struct sb_err *err)
{
	char *p = strip(line);

	if (!*p)
		return 0;
	if (*p == '[' && depth)
		return sb_err_set(err, -EINVAL, "no new sections in included files (as fio)");
	if (*p == '[')
		return section(c, cur, p, err);
	if (!*cur)
		return sb_err_set(err, -EINVAL, "'%s' before any [section]", p);
	if (!strncmp(p, "include", 7) && isspace((unsigned char)p[7]))
		return include(c, cur, p + 8, label, depth, err);
	return option(c, cur, p, err);
}

static int read_lines(struct sb_job_cli *c, FILE *f, const char *label, struct sb_job_opts **cur,
		      unsigned depth, struct sb_err *err)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned ln = 0;
	int rc = 0;

	while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
		ln++;
		if (strlen(line) != (size_t)n)
			rc = sb_err_set(err, -EINVAL, "a NUL byte in the line");
		else
			rc = one_line(c, cur, line, label, depth, err);
		if (rc < 0)
			sb_err_prefix(err, "%s:%u: ", label, ln);
	}
	if (rc == 0 && ferror(f))
		rc = sb_err_sys(err, -EIO, "reading job file %s", label);
	free(line);
	return rc;
}

int sb_job_cli_read(struct sb_job_cli *c, FILE *f, const char *label, struct sb_err *err)
{
	struct sb_job_opts *cur = NULL;

	return read_lines(c, f, label, &cur, 0, err);
}

int sb_job_cli_file(struct sb_job_cli *c, const char *path, struct sb_err *err)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return sb_err_set(err, -EINVAL, "job file %s: %s", path, strerror(errno));
	rc = sb_job_cli_read(c, f, path, err);
	fclose(f);
	return rc;
}
