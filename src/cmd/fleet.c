/* stackbench fleet -i INVENTORY [--each | --spread] [--rerun] [--results DIR]
 * STACK...: the same stacks on many machines, on Ansible. A thin front end:
 * the playbook (ansible/, shipped in /usr/share/stackbench/ansible) does
 * the work on each host; this plans which stack runs where, skips cells
 * already fetched, hands the plan over as extra vars (a JSON file in a
 * private 0700 directory), runs ansible-playbook, shows which host is on
 * which stack, and ends with compare's table over everything fetched and a
 * line for each host or stack that failed. Exit 6 (partial) when some did. */
#include "cmd/cmd.h"
#include "cmd/args.h"
#include "cmd/fleet.h"

#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "config.h"
#include "report/results.h"
#include "report/table.h"
#include "spec/spec.h"
#include "util/fs.h"
#include "util/log.h"

struct fleet_opts {
	const char *inventory, *results;
	int spread, rerun;
	char **files;
	unsigned nfiles;
	char results_abs[PATH_MAX];
};

/* The shipped playbook: $STACKBENCH_ANSIBLE_DIR; else the copy that belongs
 * to this binary (the source tree's for a build-tree binary, else the
 * installed one); else whichever exists. */
static int find_playbook(char *out, size_t len, struct sb_err *err)
{
	const char *e = getenv("STACKBENCH_ANSIBLE_DIR");
	const char *src = SB_SOURCE_DIR "/ansible", *inst = SB_ANSIBLE_INSTALLED;
	char built[PATH_MAX], installed[PATH_MAX];

	if (e && *e)
		src = inst = e;
	snprintf(built, sizeof(built), "%s/fleet.yml", src);
	snprintf(installed, sizeof(installed), "%s/fleet.yml", inst);
	if (sb_fs_own_copy(out, len, built, installed, R_OK) == 0)
		return 0;
	return sb_err_set(err, -ENOENT, "fleet: the playbook is not there (looked in %s and %s; "
			  "set STACKBENCH_ANSIBLE_DIR)", inst, SB_SOURCE_DIR "/ansible");
}

static int add_host(struct fleet *f, const char *name)
{
	struct fleet_host *v;
	unsigned h;

	for (h = 0; h < f->nhosts; h++)
		if (!strcmp(f->hosts[h].name, name))
			return 0;
	v = realloc(f->hosts, (f->nhosts + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	f->hosts = v;
	memset(&v[f->nhosts], 0, sizeof(*v));
	v[f->nhosts].name = strdup(name);
	return v[f->nhosts++].name ? 0 : -ENOMEM;
}

/* Hosts of group (and its children), in the inventory's order. */
static int walk_group(struct fleet *f, struct json_object *inv, const char *group, int depth)
{
	struct json_object *g, *v;
	size_t i;
	int r = 0;

	if (depth > 32 || !json_object_object_get_ex(inv, group, &g))
		return 0;
	if (json_object_object_get_ex(g, "hosts", &v) && json_object_is_type(v, json_type_array))
		for (i = 0; !r && i < json_object_array_length(v); i++)
			r = add_host(f, json_object_get_string(json_object_array_get_idx(v, i)));
	if (json_object_object_get_ex(g, "children", &v) && json_object_is_type(v, json_type_array))
		for (i = 0; !r && i < json_object_array_length(v); i++)
			r = walk_group(f, inv, json_object_get_string(json_object_array_get_idx(v, i)), depth + 1);
	return r;
}

/* The inventory's hosts, as Ansible reads it (ansible-inventory --list). */
static int load_hosts(struct fleet *f, const char *inventory, struct sb_err *err)
{
	char *argv[] = { "ansible-inventory", "-i", (char *)inventory, "--list", NULL };
	struct json_object *inv;
	char *out = NULL;
	int st, r;

	st = sb_fleet_capture(argv, &out, err);
	if (st < 0) {
		free(out);
		return st;
	}
	inv = (st == 0 && out) ? json_tokener_parse(out) : NULL;
	free(out);
	if (!inv)
		return sb_err_set(err, -EINVAL, "fleet: %s: ansible-inventory could not read it (exit %d)%s",
				  inventory, st, st == 127 ? "; is Ansible installed? (apt-get install ansible)" : "");
	r = walk_group(f, inv, "all", 0);
	json_object_put(inv);
	if (r < 0)
		return sb_err_set(err, r, "out of memory");
	if (!f->nhosts)
		return sb_err_set(err, -EINVAL, "fleet: %s: no hosts in this inventory", inventory);
	return 0;
}

static int add_cell(struct fleet *f, const char *file, const char *stack, unsigned host)
{
	struct fleet_cell *v = realloc(f->cells, (f->ncells + 1) * sizeof(*v)), *c;

	if (!v)
		return -ENOMEM;
	f->cells = v;
	c = &v[f->ncells];
	memset(c, 0, sizeof(*c));
	c->file = strdup(file);
	c->stack = strdup(stack);
	c->host = host;
	if (!c->file || !c->stack)
		return -ENOMEM;
	c->base = strrchr(c->file, '/') ? strrchr(c->file, '/') + 1 : c->file;
	f->ncells++;
	return 0;
}

/* Has results/<host>/ a results file of stack? (a cell already fetched) */
static int fetched(const struct fleet_opts *o, const char *host, const char *stack)
{
	char dir[PATH_MAX + 256], path[PATH_MAX + 512];
	struct dirent *d;
	DIR *dp;
	int found = 0;

	snprintf(dir, sizeof(dir), "%s/%s", o->results_abs, host);
	dp = opendir(dir);
	while (dp && !found && (d = readdir(dp))) {
		struct json_object *res = NULL;
		size_t l = strlen(d->d_name);

		if (d->d_name[0] == '.' || l < 6 || strcmp(d->d_name + l - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (sb_results_read(path, &res, NULL) == 0) {
			found = !strcmp(sb_results_stack_name(res), stack);
			json_object_put(res);
		}
	}
	if (dp)
		closedir(dp);
	return found;
}

static int fetched_anywhere(const struct fleet *f, const struct fleet_opts *o, const char *stack)
{
	unsigned h;

	for (h = 0; h < f->nhosts; h++)
		if (fetched(o, f->hosts[h].name, stack))
			return 1;
	return 0;
}

/* --each: every stack on every host; --spread: each stack once, dealt out
 * round robin so each host gets its share. Cells already fetched are
 * skipped unless --rerun. */
static int plan(struct fleet *f, const struct fleet_opts *o, unsigned *skipped, struct sb_err *err)
{
	unsigned i, j, h, deal = 0;
	int r = 0;

	*skipped = 0;
	for (i = 0; i < o->nfiles && !r; i++) {
		struct sb_spec_list l;

		r = sb_spec_load(o->files[i], NULL, 0, &l, err);
		for (j = 0; !r && j < l.n; j++) {
			const char *name = l.items[j].name;

			if (o->spread) {
				if (!o->rerun && fetched_anywhere(f, o, name))
					(*skipped)++;
				else
					r = add_cell(f, o->files[i], name, deal++ % f->nhosts);
				continue;
			}
			for (h = 0; h < f->nhosts && !r; h++) {
				if (!o->rerun && fetched(o, f->hosts[h].name, name))
					(*skipped)++;
				else
					r = add_cell(f, o->files[i], name, h);
			}
		}
		if (r == 0)
			sb_spec_list_free(&l);
	}
	if (r == -ENOMEM)
		sb_err_set(err, r, "out of memory");
	return r;
}

/* A string as Ansible must take it: data, never a template. A stack
 * file named "{{ lookup('pipe', ...) }}.yml" would otherwise run that on
 * the controller ({"__ansible_unsafe": s} in JSON extra vars is Ansible's
 * !unsafe; values derived from it stay unsafe through set_fact and loops). */
static struct json_object *unsafe_str(const char *s)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "__ansible_unsafe", json_object_new_string(s));
	return o;
}

/* The extra vars: the stack files, each host's cells in order, and where
 * results come back to. In a file, since a plan does not fit a command line.
 * Every string in it is marked unsafe (host names are keys, which Ansible
 * does not template). */
static int write_vars(const struct fleet *f, const struct fleet_opts *o, const char *path,
		      struct sb_err *err)
{
	struct json_object *v = json_object_new_object(), *files = json_object_new_array();
	struct json_object *planj = json_object_new_object();
	const char *text;
	unsigned i, h;
	int fd, r = 0;

	for (i = 0; i < o->nfiles; i++)
		json_object_array_add(files, unsafe_str(o->files[i]));
	for (h = 0; h < f->nhosts; h++) {
		struct json_object *cells = json_object_new_array();

		for (i = 0; i < f->ncells; i++) {
			struct json_object *c;

			if (f->cells[i].host != h)
				continue;
			c = json_object_new_object();
			json_object_object_add(c, "file", unsafe_str(f->cells[i].base));
			json_object_object_add(c, "stack", unsafe_str(f->cells[i].stack));
			json_object_array_add(cells, c);
		}
		json_object_object_add(planj, f->hosts[h].name, cells);
	}
	json_object_object_add(v, "stackbench_stack_files", files);
	json_object_object_add(v, "stackbench_plan", planj);
	json_object_object_add(v, "stackbench_results_dir", unsafe_str(o->results_abs));
	text = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		r = sb_err_sys(err, -errno ? -errno : -EIO, "fleet: writing %s", path);
	if (fd >= 0 && close(fd) < 0 && !r)
		r = sb_err_sys(err, -errno, "fleet: writing %s", path);
	json_object_put(v);
	return r;
}

static void noop_line(struct fleet *f, char *line)
{
	(void)f;
	(void)line;
}

/* RESULTS/fleet-ansible.log, new: made beside it and renamed over the old
 * one at once (util/fs.c's output helper; followed while Ansible runs), so
 * a symlink planted at that name is replaced, not written through. */
static FILE *open_log(const char *path, struct sb_err *err)
{
	char tmp[PATH_MAX + 48], what[PATH_MAX + 48];
	FILE *log;
	int fd;

	snprintf(what, sizeof(what), "fleet: %s", path);
	fd = sb_fs_out_begin(path, tmp, sizeof(tmp), what, err);
	if (fd < 0)
		return NULL;
	if (sb_fs_out_end(tmp, path, 0, what, err) < 0) {
		close(fd);
		return NULL;
	}
	log = fdopen(fd, "w");
	if (!log) {
		sb_err_sys(err, -errno, "%s", what);
		close(fd);
	}
	return log;
}

/* ansible-playbook -i INV fleet.yml -e @vars.json, followed line by line;
 * its whole output goes to RESULTS/fleet-ansible.log. */
static int run_playbook(struct fleet *f, const struct fleet_opts *o, struct sb_err *err)
{
	char tmpl[] = "/tmp/stackbench-fleet.XXXXXX", vars[PATH_MAX], ev[PATH_MAX + 2];
	char book[PATH_MAX], logp[PATH_MAX + 32];
	char *argv[] = { "ansible-playbook", "-i", (char *)o->inventory, book, "-e", ev, NULL };
	FILE *log;
	int st;

	st = find_playbook(book, sizeof(book), err);
	if (st < 0)
		return st;
	if (!mkdtemp(tmpl))     /* 0700: the plan is nobody else's to read or swap */
		return sb_err_sys(err, -errno, "fleet: mkdtemp");
	snprintf(vars, sizeof(vars), "%s/vars.json", tmpl);
	snprintf(ev, sizeof(ev), "@%s", vars);
	st = write_vars(f, o, vars, err);
	snprintf(logp, sizeof(logp), "%s/fleet-ansible.log", o->results_abs);
	log = st < 0 ? NULL : open_log(logp, err);
	if (st == 0 && !log)
		st = -EIO;
	/* the output this reads: the default callback, JSON results, no colour */
	setenv("ANSIBLE_STDOUT_CALLBACK", "default", 1);
	setenv("ANSIBLE_CALLBACK_RESULT_FORMAT", "json", 1);
	setenv("ANSIBLE_NOCOLOR", "1", 1);
	setenv("ANSIBLE_PIPELINING", getenv("ANSIBLE_PIPELINING") ? getenv("ANSIBLE_PIPELINING") : "True", 1);
	if (st == 0) {
		sb_info("fleet: %u stacks on %u hosts; ansible's output in %s", f->ncells, f->nhosts, logp);
		sb_fleet_progress(f, stderr);
		st = sb_fleet_spawn(argv, log, f->ncells ? sb_fleet_line : noop_line, f, err);
	}
	if (log)
		fclose(log);
	unlink(vars);
	rmdir(tmpl);
	return st;
}

/* After the run: a host that failed loses the cells it did not finish;
 * a non-zero exit with nothing named fails the hosts with cells left. */
static void settle(struct fleet *f, int status)
{
	unsigned c;

	for (c = 0; c < f->ncells; c++) {
		struct fleet_cell *x = &f->cells[c];
		struct fleet_host *h = &f->hosts[x->host];

		if (x->state != CELL_PLANNED)
			continue;
		if (!h->failed) {
			h->failed = 1;
			snprintf(h->why, sizeof(h->why), "stopped before its stacks were done "
				 "(ansible-playbook exited %d; see fleet-ansible.log)", status);
		}
		x->state = CELL_FAILED;
		snprintf(x->why, sizeof(x->why), "not run: the host failed");
	}
}

static int has_json(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *d;
	int found = 0;

	while (dp && !found && (d = readdir(dp))) {
		size_t l = strlen(d->d_name);

		found = d->d_name[0] != '.' && l > 5 && !strcmp(d->d_name + l - 5, ".json");
	}
	if (dp)
		closedir(dp);
	return found;
}

/* compare over results/<host>/ of every host that has some. */
static int final_table(const struct fleet *f, const struct fleet_opts *o, unsigned *nrows,
		       struct sb_err *err)
{
	struct sb_table_opts to = { .format = SB_FMT_TEXT };
	struct sb_loaded l = { 0 };
	struct sb_err le = { 0 };
	char **dirs = calloc(f->nhosts + 1, sizeof(*dirs));
	unsigned h, nd = 0;
	int r = 0;

	*nrows = 0;
	if (!dirs)
		return sb_err_set(err, -ENOMEM, "out of memory");
	for (h = 0; h < f->nhosts; h++) {
		char d[PATH_MAX + 256];

		snprintf(d, sizeof(d), "%s/%s", o->results_abs, f->hosts[h].name);
		if (access(d, R_OK) != 0 || !has_json(d))
			continue;   /* a directory without results files is left out */
		dirs[nd++] = strdup(d);
	}
	/* a host's bad file is named in a warning and left out: the table
	 * shows every other file's row */
	if (nd)
		r = sb_cmd_results_load_ex(dirs, nd, true, &l, &le);
	if (r < 0)
		sb_err_set(err, r, "%s", le.msg);
	else if (le.code)
		sb_warn("%s", le.msg);
	if (nd && r == 0 && l.n) {
		r = sb_cmd_table_print(&l, &to, err);
		*nrows = l.n;
	}
	sb_cmd_results_free(&l);
	for (h = 0; h < nd; h++)
		free(dirs[h]);
	free(dirs);
	return r;
}

/* One line per failed host and per failed stack, after the table. */
static unsigned print_failures(const struct fleet *f)
{
	unsigned h, c, n = 0;

	for (h = 0; h < f->nhosts; h++) {
		if (!f->hosts[h].failed)
			continue;
		printf("failed: host %s: %s\n", f->hosts[h].name, f->hosts[h].why);
		n++;
	}
	for (c = 0; c < f->ncells; c++) {
		const struct fleet_cell *x = &f->cells[c];

		if (x->state == CELL_FAILED && !f->hosts[x->host].failed) {
			printf("failed: %s on %s: %s\n", x->stack, f->hosts[x->host].name, x->why);
			n++;
		}
	}
	return n;
}

static void fleet_free(struct fleet *f, struct fleet_opts *o)
{
	unsigned i;

	for (i = 0; i < f->nhosts; i++)
		free(f->hosts[i].name);
	free(f->hosts);
	for (i = 0; i < f->ncells; i++) {
		free(f->cells[i].file);
		free(f->cells[i].stack);
	}
	free(f->cells);
	for (i = 0; i < o->nfiles; i++)
		free(o->files[i]);
	free(o->files);
}

/* A path the playbook is given: Ansible expands $NAME in paths on the
 * controller and in a command's argv on the host, and the progress is read
 * a line at a time; such a path is refused rather than mangled. */
static int ansible_path_check(const char *what, const char *p, struct sb_err *err)
{
	const char *c;

	for (c = p; *c; c++)
		if (*c == '$' || (unsigned char)*c < 0x20 || *c == 0x7f)
			return sb_err_set(err, -EINVAL, "fleet: %s %s: a path with '$' or a control "
					  "character cannot be handed to Ansible unchanged; rename it", what, p);
	return 0;
}

/* The options, with the words `stackbench help fleet` shows for each. */
static const struct sb_optdef opts[] = {
	{ "inventory", 'i', true, 'i', "INVENTORY", "the Ansible inventory of the hosts" },
	{ "each", 0, false, 'e', NULL, "every stack on every host (default)" },
	{ "spread", 0, false, 's', NULL, "each stack once, dealt across the hosts" },
	{ "rerun", 0, false, 'r', NULL, "run cells already fetched again" },
	{ "results", 0, true, 'R', "DIR", "where the hosts' results come back (default ./results)" },
	{ NULL, 0, false, 0, NULL, NULL },
};

static int parse(int argc, char **argv, struct fleet_opts *o, struct sb_err *err)
{
	struct sb_args a;
	const char *val;
	int c, r = 0, each = 0, k;

	if (sb_args_init(&a, argc, argv, 1, opts, "fleet", err) < 0)
		return -ENOMEM;
	while (r == 0 && (c = sb_args_next(&a, &val, err)) > 0) {
		switch (c) {
		case 'i': o->inventory = val; break;
		case 'e': each = 1; break;
		case 's': o->spread = 1; break;
		case 'r': o->rerun = 1; break;
		case 'R': o->results = val; break;
		}
	}
	if (r == 0 && c < 0)
		r = c;
	if (r == 0 && each && o->spread)
		r = sb_args_usage_error("fleet", err, "--each and --spread do not go together");
	if (r == 0 && !o->inventory)
		r = sb_args_usage_error("fleet", err, "name the inventory with -i INVENTORY");
	if (r == 0 && !a.npos)
		r = sb_args_usage_error("fleet", err, "name at least one stack file");
	if (r == 0 && !(o->files = calloc((size_t)a.npos, sizeof(*o->files))))
		r = sb_err_set(err, -ENOMEM, "out of memory");
	for (k = 0; r == 0 && k < a.npos; k++) {
		/* the playbook copies them from the controller: absolute paths */
		o->files[k] = realpath(a.pos[k], NULL);
		if (!o->files[k])
			r = sb_err_sys(err, -EINVAL, "fleet: %s", a.pos[k]);
		else
			r = ansible_path_check("stack file", o->files[o->nfiles++], err);
	}
	sb_args_free(&a);
	return r;
}

int sb_cmd_fleet(int argc, char **argv, struct sb_err *err)
{
	struct fleet_opts o = { .results = "results" };
	struct fleet f = { 0 };
	unsigned skipped = 0, nrows = 0, nfail;
	int r, st;

	f.tty = isatty(2);
	r = parse(argc, argv, &o, err);
	if (r == 0)
		r = sb_mkdir_p(o.results, 0755, err);
	if (r == 0 && !realpath(o.results, o.results_abs))
		r = sb_err_sys(err, -errno, "fleet: %s", o.results);
	if (r == 0)
		r = ansible_path_check("results directory", o.results_abs, err);
	if (r == 0)
		r = load_hosts(&f, o.inventory, err);
	if (r == 0)
		r = plan(&f, &o, &skipped, err);
	if (r < 0)
		goto out;
	if (skipped)
		sb_info("fleet: %u stack x host cells already fetched, skipped (--rerun runs them again)", skipped);
	st = f.ncells ? run_playbook(&f, &o, err) : 0;
	if (st < 0) {
		r = st;
		goto out;
	}
	settle(&f, st);
	if (f.ncells)
		sb_fleet_progress(&f, stderr);
	r = final_table(&f, &o, &nrows, err);
	if (r < 0)
		goto out;
	nfail = print_failures(&f);
	if (nfail && nrows)
		r = sb_err_set(err, -SB_EPARTIAL, "fleet: partial: %u host(s) or stack(s) failed (named above); "
			       "the other rows stand", nfail);
	else if (nfail || (st && !nrows))
		r = sb_err_set(err, -EIO, "fleet: nothing was measured (ansible-playbook exited %d; see %s/fleet-ansible.log)",
			       st, o.results_abs);
out:
	fleet_free(&f, &o);
	return r;
}

const struct sb_cmd sb_cmd_fleet_row = {
	.name = "fleet",
	.fn = sb_cmd_fleet,
	.flags = 0,
	.opts = opts,
	.summary = "run stacks on many machines with Ansible, then compare them",
	.usage =
	  "usage: stackbench fleet -i INVENTORY [--each | --spread] [--rerun] [--results DIR] STACK.yml...\n"
	  "  Runs the shipped playbook (/usr/share/stackbench/ansible/fleet.yml) with ansible-playbook:\n"
	  "  each host installs stackbench, runs build-and-test with its inventory variables\n"
	  "  (stackbench_set, stackbench_destroy_data, ...), and is torn down and checked; results\n"
	  "  come back to DIR/<inventory_hostname>/ (default ./results). --each (default): every\n"
	  "  stack on every host; --spread: each stack (matrix expansions too) once, dealt across\n"
	  "  the hosts. Cells already fetched are skipped unless --rerun. Shows which host is on\n"
	  "  which stack, then compare's table with a host column and a line per failure.\n"
	  "  Exit 6 (partial) when some hosts or stacks failed and the others' rows stand.\n",
};
