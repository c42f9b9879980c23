/* stackbench bonnie: bonnie++ 2.00a's command line and output over the
 * bonnie suite (bench/suites/bonnie.c) - its two tables and its CSV line,
 * in bonnie++'s units (K = 1024). With -q, as bonnie++: the CSV line alone
 * on stdout, the tables on stderr. Like bonnie++, the page cache is not
 * dropped between phases. */
#include <ctype.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bench/suite.h"
#include "cmd/bonnie_args.h"
#include "cmd/cmd.h"
#include "report/render.h"
#include "run/run.h"

const char sb_cmd_bonnie_usage[] =
	"usage: stackbench bonnie -d DIR [-s SIZE[:CHUNK[:SEEKS[:PROCS]]]] [-r RAM]\n"
	"                         [-n NUMBER[:MAX[:MIN][:DIRS[:CHUNK]]]] [-m NAME]\n"
	"                         [-c 1] [-f] [-b] [-u USER[:GROUP]] [-g GROUP] [-q]\n"
	"  bonnie++ 2.00a's options: SIZE and RAM in MiB (or with k, m, g, t; SIZE 0 skips\n"
	"  the I/O tests), CHUNK in bytes (k; default 8192), SEEKS (default 8192) by PROCS\n"
	"  seekers (default 5); NUMBER files in units of 1024 (0 skips the file tests) of\n"
	"  MIN..MAX bytes (k, m, g; default empty; MAX -1 hard links, -2 symlinks) in DIRS\n"
	"  directories, written in CHUNK pieces; -b fsyncs as bonnie++ -b does, -u switches\n"
	"  to USER when run as root (required then, as bonnie++), -q prints only the CSV\n"
	"  line on stdout (the tables go to stderr). Per-char tests are never run (as -f).\n"
	"  bonnie++'s -x, -p, -y, -z, -Z, -D and -c above 1 are refused.\n";

/* bonnie++ runs as USER when started as root, and insists on being told. */
static int switch_user(const struct sb_bonnie_args *b, struct sb_err *err)
{
	char name[256], *colon;
	struct passwd *pw;
	gid_t gid;

	if (geteuid() != 0)
		return 0;
	if (!b->user)
		return sb_err_set(err, -EINVAL, "you must use the \"-u\" switch when running as root (as bonnie++)");
	snprintf(name, sizeof(name), "%s", b->user);
	if ((colon = strchr(name, ':')))
		*colon++ = '\0';
	if (!(pw = getpwnam(name)))
		return sb_err_set(err, -EINVAL, "-u: no user '%s'", name);
	gid = pw->pw_gid;
	if (colon || b->group) {
		struct group *g = getgrnam(colon ? colon : b->group);

		if (!g)
			return sb_err_set(err, -EINVAL, "-g: no group '%s'", colon ? colon : b->group);
		gid = g->gr_gid;
	}
	if (pw->pw_uid == 0)
		return 0;
	if (setgroups(0, NULL) < 0 || setgid(gid) < 0 || setuid(pw->pw_uid) < 0)
		return sb_err_sys(err, -errno, "switching to user %s", name);
	return 0;
}

/* bonnie++'s throughput cell (K/sec): 9999k, 84.8m, 151m, 1.2g, or +++++ as is */
static void spd(const char *k, char *out, size_t len)
{
	double v = atof(k), m = v / 1024.0;

	if (!*k || !isdigit((unsigned char)*k))
		snprintf(out, len, "%s", k);     /* empty, or "+++++" */
	else if (v < 10000)
		snprintf(out, len, "%4.0fk", v);
	else if (m < 100)
		snprintf(out, len, "%4.1fm", m);
	else if (m < 1000)
		snprintf(out, len, "%4.0fm", m);
	else
		snprintf(out, len, "%4.1fg", m / 1024.0);
}

/* bonnie++'s I/O table, left out with -s 0 (no size) */
static void io_table(FILE *f, char **fl, const char *ver)
{
	char c[6][16], desc[32];
	unsigned i;

	if (!fl[5][0])
		return;
	for (i = 0; i < 6; i++)
		spd(fl[9 + 2 * i], c[i], sizeof(c[i]));
	snprintf(c[5], sizeof(c[5]), "%s", fl[19]); /* seeks/s as is */
	fprintf(f, "Version %9s   ------Sequential Output------ --Sequential Input- --Random-\n", ver);
	fprintf(f, "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n");
	fprintf(f, "Name:Size etc        /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
	snprintf(desc, sizeof(desc), "%-*.*s %s", (int)(18 - strlen(fl[5])), (int)(18 - strlen(fl[5])), fl[2], fl[5]);
	fprintf(f, "%19s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s\n", desc, c[0], fl[10], c[1], fl[12],
		c[2], fl[14], c[3], fl[16], c[4], fl[18], c[5], fl[20]);
	fprintf(f, "Latency           %9s %9s %9s %9s %9s %9s\n", fl[38], fl[39], fl[40], fl[41], fl[42], fl[43]);
}

/* bonnie++'s file table: its row is NUMBER[:MAX:MIN | :link | :symlink][/DIRS]
 * (the directories are in CSV field 25, where bonnie++ 2.00a writes them) */
static void file_table(FILE *f, char **fl, const char *ver)
{
	char desc[64];
	bool link = fl[22][0] && !isdigit((unsigned char)fl[22][0]);

	if (!fl[21][0])
		return;
	snprintf(desc, sizeof(desc), "%s%s%s%s%s%s%s", fl[21], fl[22][0] ? ":" : "", fl[22],
		 fl[22][0] && !link ? ":" : "", fl[22][0] && !link ? (fl[23][0] ? fl[23] : "0") : "",
		 fl[25][0] ? "/" : "", fl[25]);
	fprintf(f, "Version %9s   ------Sequential Create------ --------Random Create--------\n", ver);
	fprintf(f, "%-19.19s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n", fl[2]);
	fprintf(f, "%s /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n",
		fl[23][0] ? "files:max:min       " : fl[22][0] && !link ? "files:max           " :
		"              files ");
	fprintf(f, "%19s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s\n", desc, fl[26], fl[27], fl[28],
		fl[29], fl[30], fl[31], fl[32], fl[33], fl[34], fl[35], fl[36], fl[37]);
	fprintf(f, "Latency           %9s %9s %9s %9s %9s %9s\n", fl[44], fl[45], fl[46], fl[47], fl[48], fl[49]);
}

/* The two tables, from the CSV fields, laid out as bonnie++ 2.00a prints them. */
static void tables(FILE *f, char **fl, unsigned n)
{
	const char *ver;

	if (n < 50)
		return;
	/* "stackbench-X.Y.Z" does not fit bonnie++'s 9 columns */
	ver = strncmp(fl[1], "stackbench-", 11) ? fl[1] : fl[1] + 11;
	io_table(f, fl, ver);
	file_table(f, fl, ver);
}

static int report(const struct sb_bonnie_args *b, struct json_object *suite, struct sb_err *err)
{
	struct json_object *res = json_object_new_object(), *st = json_object_new_object(),
			   *arr = json_object_new_array();
	char host[256] = "localhost", *buf = NULL, *fields[64], *p;
	size_t len = 0;
	unsigned n = 0;
	FILE *m;
	int rc;

	gethostname(host, sizeof(host) - 1);
	if ((p = strchr(host, '.')))
		*p = '\0';
	json_object_object_add(st, "name", json_object_new_string(b->machine ? b->machine : host));
	json_object_object_add(res, "stack", st);
	json_object_array_add(arr, json_object_get(suite));
	json_object_object_add(res, "suites", arr);
	m = open_memstream(&buf, &len);
	if (!m) {
		json_object_put(res);
		return sb_err_set(err, -ENOMEM, "out of memory");
	}
	rc = sb_bonnie_csv_write(&res, 1, m, err);
	fclose(m);
	json_object_put(res);
	if (rc == 0) {
		char *line = strdup(buf);

		for (p = line; line && p && n < 64; n++) {
			fields[n] = p;
			if ((p = strpbrk(p, ",\n")))
				*p++ = '\0';
		}
		if (line)
			tables(b->quiet ? stderr : stdout, fields, n);
		free(line);
		fputs(buf, stdout);
		fflush(stdout);
	}
	free(buf);
	return rc;
}

int sb_cmd_bonnie(int argc, char **argv, struct sb_err *err)
{
	struct sb_bench_spec spec;
	struct json_object *suite = NULL;
	struct sb_bonnie_args b;
	struct sb_run_signals saved;
	volatile sig_atomic_t stop = 0;
	int rc;

	if ((rc = sb_bonnie_args_parse(argc, argv, &b, err)) < 0)
		return rc;
	if ((rc = switch_user(&b, err)) < 0)
		return rc;
	if ((rc = sb_spec_bench_keys(NULL, 0, &spec, err)) < 0)
		return rc;
	spec.size = b.size;
	spec.chunk = b.chunk ? b.chunk : 8192;
	spec.files = b.files;
	spec.fsync = b.sync;
	spec.ram = b.ram;
	spec.bonnie.no_io = b.no_io;
	spec.bonnie.file_max = b.fmax;
	spec.bonnie.file_min = b.fmin;
	spec.bonnie.dirs = b.dirs;
	spec.bonnie.file_chunk = b.fchunk;
	spec.bonnie.seeks = b.seeks;
	spec.bonnie.seek_procs = b.procs;
	/* bonnie++ never drops the page cache between its tests */
	setenv("STACKBENCH_NO_DROP_CACHES", "1", 1);
	/* SIGINT/SIGTERM: the suite stops, removes its files, exit 130 */
	spec.stop = &stop;
	sb_run_listen(&(struct sb_run_ctx){ .stop = &stop }, &saved);
	rc = sb_suite_run("bonnie", &spec, b.dir, NULL, 0, 1, &suite, err);
	sb_run_unlisten(&saved);
	if (rc == 0 && stop)
		rc = sb_err_set(err, -EINTR, "bonnie: interrupted");
	if (rc < 0) {
		json_object_put(suite);
		if (!stop)
			return rc;
		sb_err_prefix(err, "interrupted: ");
		err->code = -EINTR;
		return -EINTR;
	}
	rc = report(&b, suite, err);
	json_object_put(suite);
	return rc;
}

/* bonnie parses its own options (bonnie++'s getopt string); its text lists them. */
const struct sb_cmd sb_cmd_bonnie_row = {
	.name = "bonnie",
	.fn = sb_cmd_bonnie,
	.flags = SB_CMD_OWN_OPTIONS,
	.opts = NULL,
	.summary = "run bonnie++ 2.00a's tests with its options and output",
	.usage =
	  sb_cmd_bonnie_usage,
};
