/* libFuzzer target for `stackbench job`'s parser, in-process and without
 * I/O: the input is a fio job file read from memory (sb_job_cli_read). An
 * input starting with 0x01 carries a command line on its first line (words
 * split at spaces; only --options, since a bare word names a job file)
 * that goes through sb_job_cli_parse first. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/jobargs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a failure must say why; a success holds only what the checks allow */
static void check(int rc, const struct sb_job_cli *c, const struct sb_err *e)
{
	if (rc < 0) {
		if (!e->msg[0] || e->code >= 0)
			abort();
		return;
	}
	for (unsigned i = 0; i < c->njobs; i++) {
		const struct sb_job_opts *j = &c->jobs[i];

		if (!j->target[0] || !j->name[0] || j->bs < 512 || j->bs % 512 || !j->numjobs ||
		    j->numjobs > SB_JOB_MAX_THREADS || strlen(j->given) >= sizeof(j->given) ||
		    j->runtime_ns + j->ramp_ns < j->runtime_ns)
			abort();
	}
}

static void command_line(char *line)
{
	char *argv[64], *save = NULL, *t;
	struct sb_job_cli c;
	struct sb_err e = { 0 };
	int argc = 0;

	argv[argc++] = "job";
	for (t = strtok_r(line, " ", &save); t && argc < 63; t = strtok_r(NULL, " ", &save))
		if (!strncmp(t, "--", 2) && t[2])
			argv[argc++] = t;
	argv[argc] = NULL;
	check(sb_job_cli_parse(argc, argv, &c, &e), &c, &e);
	sb_job_cli_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct sb_job_cli c;
	struct sb_err e = { 0 };
	FILE *f;
	int rc;

	if (size && data[0] == 1) {
		const char *nl = memchr(buf, '\n', size);
		size_t n = nl ? (size_t)(nl - buf) - 1 : size - 1;
		char *line = strndup(buf + 1, n);

		if (!line)
			return 0;
		command_line(line);
		free(line);
		size -= nl ? (size_t)(nl - buf) + 1 : size;
		buf = nl ? nl + 1 : buf + size;
	}
	if (!size || !(f = fmemopen((void *)buf, size, "r")))
		return 0;
	sb_job_cli_init(&c);
	rc = sb_job_cli_read(&c, f, "fuzz.fio", &e);
	fclose(f);
	if (rc == 0)
		rc = sb_job_cli_finish(&c, &e);
	check(rc, &c, &e);
	sb_job_cli_free(&c);
	return 0;
}
