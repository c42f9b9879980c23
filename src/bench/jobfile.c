/* fio's job files, read as fio 3.33's __parse_jobs_ini (init.c) reads them,
 * but without its line-length limit (getline): blank lines and lines whose
 * first character is ';' or '#' are skipped, and anything after the first
 * ';' or '#' of a line is a comment (fio's strip_blank_end), also after a
 * value; "[name]" starts a section ([global] edits the global options);
 * "key=value" and a bare "key" are options, in which ${VAR} is replaced by
 * the environment's VAR (fio_option_dup_subs) and $pagesize, $mb_memory,
 * $ncpus by their values, a sum then computed (fio_keyword_replace);
 * "include FILE" is refused. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (!strncmp(x, "include", 7) && (!x[7] || isspace((unsigned char)x[7])))
		rc = sb_err_set(err, -EINVAL, "not supported by stackbench job: include (put the "
				"included options in the job file)");
	else
		rc = sb_job_cli_option(c, cur, x, v, true, err);
	free(x);
	return rc;
}

static int one_line(struct sb_job_cli *c, struct sb_job_opts **cur, char *line, struct sb_err *err)
{
	char *p = strip(line);

	if (!*p)
		return 0;
	if (*p == '[')
		return section(c, cur, p, err);
	if (!*cur)
		return sb_err_set(err, -EINVAL, "'%s' before any [section]", p);
	return option(c, cur, p, err);
}

int sb_job_cli_read(struct sb_job_cli *c, FILE *f, const char *label, struct sb_err *err)
{
	struct sb_job_opts *cur = NULL;
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
			rc = one_line(c, &cur, line, err);
		if (rc < 0)
			sb_err_prefix(err, "%s:%u: ", label, ln);
	}
	if (rc == 0 && ferror(f))
		rc = sb_err_sys(err, -EIO, "reading job file %s", label);
	free(line);
	return rc;
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
