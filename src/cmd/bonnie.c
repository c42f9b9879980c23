/* stackbench bonnie: bonnie++ 2.00a's command line and output over the
 * bonnie suite (bench/suites/bonnie.c) - its two tables and its CSV line,
 * in bonnie++'s units (K = 1024). With -q, as bonnie++: the CSV line alone
 * on stdout, the tables on stderr. Like bonnie++, the page cache is not
 * dropped between phases. */
#include <ctype.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bench/suite.h"
#include "cmd/cmd.h"
#include "report/render.h"

const char sb_cmd_bonnie_usage[] =
	"usage: stackbench bonnie -d DIR [-s SIZE[:CHUNK]] [-r RAM] [-n FILES] [-m NAME]\n"
	"                         [-c 1] [-f] [-b] [-u USER[:GROUP]] [-g GROUP] [-q]\n"
	"  bonnie++ 2.00a's options: SIZE and RAM in MiB (or with k, m, g), CHUNK in bytes\n"
	"  (default 8192), FILES in units of 1024 (0 skips the file tests), -b fsyncs as\n"
	"  bonnie++ -b does, -u switches to USER when run as root (required then, as bonnie++),\n"
	"  -q prints only the CSV line on stdout (the tables go to stderr). Per-char tests are\n"
	"  never run (as -f). Other bonnie++ options are refused.\n";

struct bopts {
	const char *dir, *user, *group, *machine;
	uint64_t size, chunk, ram;
	bool size_set, ram_set, quiet, fast, sync;
	uint32_t files;
};

/* bonnie++'s sizes: a number of MiB (unit_default), or with k, m or g */
static int bsize(char opt, const char *s, uint64_t unit_default, uint64_t *out, struct sb_err *err)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = isdigit((unsigned char)*s) ? strtoull(s, &end, 10) : 0;
	if (errno || end == s || !isdigit((unsigned char)*s))
		return sb_err_set(err, -EINVAL, "-%c: '%s' is not a size", opt, s);
	switch (tolower((unsigned char)*end)) {
	case '\0': v *= unit_default; break;
	case 'k': v <<= 10; end++; break;
	case 'm': v <<= 20; end++; break;
	case 'g': v <<= 30; end++; break;
	default: return sb_err_set(err, -EINVAL, "-%c: '%s' has an unknown unit (k, m or g)", opt, s);
	}
	if (*end)
		return sb_err_set(err, -EINVAL, "-%c: '%s' is not a size", opt, s);
	*out = v;
	return 0;
}

static int unsupported(const char *what, struct sb_err *err)
{
	return sb_err_set(err, -EINVAL, "not supported by stackbench bonnie: %s", what);
}

static int parse_s(struct bopts *b, char *arg, struct sb_err *err)
{
	char *chunk = strchr(arg, ':');
	int rc;

	if (chunk) {
		*chunk++ = '\0';
		if (strchr(chunk, ':'))
			return unsupported("-s SIZE:CHUNK:SEEKS[:PROCS] (seeks and seekers are bonnie++'s defaults)", err);
		if ((rc = bsize('s', chunk, 1, &b->chunk, err)) < 0)
			return rc;
		if (b->chunk < 512 || b->chunk > (64u << 20))
			return sb_err_set(err, -EINVAL, "-s: chunk %llu is out of range 512..64m",
					  (unsigned long long)b->chunk);
	}
	if ((rc = bsize('s', arg, 1 << 20, &b->size, err)) < 0)
		return rc;
	if (!b->size)
		return unsupported("-s 0 (the block and seek tests always run)", err);
	b->size_set = true;
	return 0;
}

static int parse(int argc, char **argv, struct bopts *b, struct sb_err *err)
{
	char opt[3] = "-?";
	char *end;
	int c, rc = 0;

	memset(b, 0, sizeof(*b));
	b->files = 16; /* bonnie++'s default -n */
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = getopt(argc, argv, "+d:s:r:n:m:c:fbu:g:qx:DpyYz:Z:")) != -1) {
		switch (c) {
		case 'd': b->dir = optarg; break;
		case 's': rc = parse_s(b, optarg, err); break;
		case 'r':
			rc = bsize('r', optarg, 1 << 20, &b->ram, err);
			b->ram_set = true;
			break;
		case 'n':
			if (strchr(optarg, ':'))
				return unsupported("-n NUMBER:MAX:MIN[:DIRS] (only empty files, as -n NUMBER)", err);
			b->files = (uint32_t)strtoul(optarg, &end, 10);
			if (!isdigit((unsigned char)*optarg) || *end || b->files > 1000)
				return sb_err_set(err, -EINVAL, "-n: '%s' is not a number of 1024 files (0..1000)", optarg);
			break;
		case 'm': b->machine = optarg; break;
		case 'c':
			if (strcmp(optarg, "1"))
				return unsupported("-c above 1 (one process)", err);
			break;
		case 'f': b->fast = true; break;
		case 'b': b->sync = true; break;
		case 'u': b->user = optarg; break;
		case 'g': b->group = optarg; break;
		case 'q': b->quiet = true; break;
		case '?':
			opt[1] = (char)optopt;
			if (strchr("dsrnmcugxzZ", optopt))
				return sb_err_set(err, -EINVAL, "-%c needs a value", optopt);
			return sb_err_set(err, -EINVAL, "unknown option '%s'; see `stackbench help bonnie`", opt);
		default:
			opt[1] = (char)c;
			return unsupported(opt, err);
		}
	}
	if (rc < 0)
		return rc;
	if (optind < argc)
		return sb_err_set(err, -EINVAL, "unexpected argument '%s'", argv[optind]);
	if (!b->dir)
		return sb_err_set(err, -EINVAL, "-d DIR is required");
	if (b->ram_set && b->size_set && b->size < 2 * b->ram)
		return sb_err_set(err, -EINVAL, "file size should be double RAM for good results, RAM is %lluM "
				  "(bonnie++'s rule: -s at least twice -r)", (unsigned long long)(b->ram >> 20));
	return 0;
}

/* bonnie++ runs as USER when started as root, and insists on being told. */
static int switch_user(const struct bopts *b, struct sb_err *err)
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

/* The two tables, from the CSV fields, laid out as bonnie++ 2.00a prints them. */
static void tables(FILE *f, char **fl, unsigned n)
{
	char c[6][16], desc[32];
	const char *ver;
	unsigned i;

	if (n < 50)
		return;
	for (i = 0; i < 6; i++)
		spd(fl[9 + 2 * i], c[i], sizeof(c[i]));
	snprintf(c[5], sizeof(c[5]), "%s", fl[19]); /* seeks/s as is */
	/* "stackbench-X.Y.Z" does not fit bonnie++'s 9 columns */
	ver = strncmp(fl[1], "stackbench-", 11) ? fl[1] : fl[1] + 11;
	fprintf(f, "Version %9s   ------Sequential Output------ --Sequential Input- --Random-\n", ver);
	fprintf(f, "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n");
	fprintf(f, "Name:Size etc        /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
	snprintf(desc, sizeof(desc), "%-*.*s %s", (int)(18 - strlen(fl[5])), (int)(18 - strlen(fl[5])), fl[2], fl[5]);
	fprintf(f, "%19s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s\n", desc, c[0], fl[10], c[1], fl[12],
		c[2], fl[14], c[3], fl[16], c[4], fl[18], c[5], fl[20]);
	fprintf(f, "Latency           %9s %9s %9s %9s %9s %9s\n", fl[38], fl[39], fl[40], fl[41], fl[42], fl[43]);
	if (!fl[21][0])
		return;
	fprintf(f, "Version %9s   ------Sequential Create------ --------Random Create--------\n", ver);
	fprintf(f, "%-19.19s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n", fl[2]);
	fprintf(f, "              files  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
	fprintf(f, "%19s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s\n", fl[21], fl[26], fl[27], fl[28],
		fl[29], fl[30], fl[31], fl[32], fl[33], fl[34], fl[35], fl[36], fl[37]);
	fprintf(f, "Latency           %9s %9s %9s %9s %9s %9s\n", fl[44], fl[45], fl[46], fl[47], fl[48], fl[49]);
}

static int report(const struct bopts *b, struct json_object *suite, struct sb_err *err)
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
	struct bopts b;
	int rc;

	if ((rc = parse(argc, argv, &b, err)) < 0)
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
	/* bonnie++ never drops the page cache between its tests */
	setenv("STACKBENCH_NO_DROP_CACHES", "1", 1);
	if ((rc = sb_suite_run("bonnie", &spec, b.dir, NULL, 0, 1, &suite, err)) < 0)
		return rc;
	rc = report(&b, suite, err);
	json_object_put(suite);
	return rc;
}
