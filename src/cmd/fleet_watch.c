/* ansible-playbook as a child (fork/exec, argv, no shell) and its default
 * callback's output read line by line. What the lines say is all the
 * progress there is: the role labels each build-and-test item
 * "sb-cell FILE STACK", so "changed: [h] => (item=sb-cell f s)" is that
 * cell done and "failed: [h] (item=sb-cell f s) => {...}" that cell failed;
 * "fatal: [h]: UNREACHABLE!" or "FAILED!" is the host. A host runs its
 * cells in plan order, so the one it is on is its first not yet reported. */
#include "cmd/fleet.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "sys/child.h"
#include "util/json.h"

/* argv with stdin /dev/null and stdout (with merge, stderr too) on a
 * pipe: our end of it, or -errno (-ENOENT: the program is not there). */
static int spawn_pipe(char *const *argv, int merge, struct sb_child *c, struct sb_err *err)
{
	struct sb_err ce = { 0 };
	int p[2], rc;

	if (pipe2(p, O_CLOEXEC) < 0)
		return sb_err_sys(err, -errno, "fleet: pipe");
	*c = (struct sb_child){ .argv = (const char *const *)argv, .in = SB_CHILD_NULL, .out = p[1],
				.err = merge ? p[1] : SB_CHILD_KEEP };
	rc = sb_child_start(c, &ce);
	close(p[1]);
	if (rc < 0) {
		close(p[0]);
		return sb_err_set(err, rc, "fleet: %s%s", ce.msg,
				  rc == -ENOENT ? "; is Ansible installed? (apt-get install ansible)" : "");
	}
	return p[0];
}

static int reap(struct sb_child *c, struct sb_err *err)
{
	char how[64];
	int st = 0, rc = sb_child_wait(c, 0, &st, err);

	if (rc < 0)
		return rc;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return sb_err_set(err, -EIO, "fleet: %s %s", c->argv[0], sb_child_status_text(st, how, sizeof(how)));
}

int sb_fleet_spawn(char *const *argv, FILE *log, void (*fn)(struct fleet *, char *), struct fleet *f,
		   struct sb_err *err)
{
	struct sb_child c;
	char *line = NULL;
	size_t cap = 0;
	FILE *in;
	int fd = spawn_pipe(argv, 1, &c, err);

	if (fd < 0)
		return fd;
	in = fdopen(fd, "r");
	if (!in) {
		close(fd);
		kill(c.pid, SIGTERM);
		reap(&c, err);
		return sb_err_sys(err, -ENOMEM, "fleet: fdopen");
	}
	while (getline(&line, &cap, in) >= 0) {
		if (log) {
			fputs(line, log);
			fflush(log);
		}
		line[strcspn(line, "\r\n")] = '\0';
		fn(f, line);
	}
	free(line);
	fclose(in);
	return reap(&c, err);
}

int sb_fleet_capture(char *const *argv, char **out, struct sb_err *err)
{
	struct sb_child c;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t n;
	int fd = spawn_pipe(argv, 0, &c, err);

	if (fd < 0)
		return fd;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb)
				break;
			buf = nb;
			cap += 65536;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (buf)
		buf[len] = '\0';
	*out = buf;
	return reap(&c, err);
}

static int host_index(struct fleet *f, const char *name, size_t len)
{
	unsigned h;

	for (h = 0; h < f->nhosts; h++)
		if (strlen(f->hosts[h].name) == len && !strncmp(f->hosts[h].name, name, len))
			return (int)h;
	return -1;
}

/* "[name]" right after prefix: the host, or -1. */
static int line_host(struct fleet *f, const char *line, const char *prefix)
{
	const char *p, *e;

	if (strncmp(line, prefix, strlen(prefix)))
		return -1;
	p = line + strlen(prefix);
	e = strchr(p, ']');
	return e ? host_index(f, p, (size_t)(e - p)) : -1;
}

/* The cell whose label "(item=sb-cell FILE STACK)" the line carries: each
 * of the host's cells compared whole (a file name may hold spaces or ')'). */
static struct fleet_cell *line_cell(struct fleet *f, unsigned host, const char *line)
{
	const char *p = strstr(line, "(item=sb-cell ");
	unsigned c;

	if (!p)
		return NULL;
	p += strlen("(item=sb-cell ");
	for (c = 0; c < f->ncells; c++) {
		const struct fleet_cell *x = &f->cells[c];
		size_t lb = strlen(x->base), ls = strlen(x->stack);

		if (x->host == host && !strncmp(p, x->base, lb) && p[lb] == ' ' &&
		    !strncmp(p + lb + 1, x->stack, ls) && p[lb + 1 + ls] == ')')
			return &f->cells[c];
	}
	return NULL;
}

/* Why, from the result JSON after " => ": the last line of stderr
 * (stackbench's own error sentence), else ansible's msg. A reply that is
 * not an object or has neither as a string (a host's odd answer) gives a
 * pointer to the log. */
static void result_why(const char *line, char *why, size_t len)
{
	const char *p = strstr(line, " => ");
	struct json_object *o;
	const char *s = NULL;

	snprintf(why, len, "its reply said no reason (see fleet-ansible.log)");
	if (!p || !(o = json_tokener_parse(p + 4)))
		return;
	if (json_object_is_type(o, json_type_object)) {
		s = sb_json_str(o, "stderr", NULL);
		if (!s || !*s)
			s = sb_json_str(o, "msg", NULL);
	}
	if (s && *s) {
		const char *end = s + strlen(s), *b;

		while (end > s && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		for (b = end; b > s && b[-1] != '\n'; b--)
			;
		if (end > b)
			snprintf(why, len, "%.*s", (int)(end - b), b);
	}
	json_object_put(o);
}

static void host_fail(struct fleet *f, int h, const char *kind, const char *line)
{
	char why[400];

	if (h < 0 || f->hosts[h].failed)
		return;
	result_why(line, why, sizeof(why));
	if (!strcmp(why, "One or more items failed"))
		return;   /* the loop of cells, ignore_errors: each cell says its own */
	f->hosts[h].failed = 1;
	snprintf(f->hosts[h].why, sizeof(f->hosts[h].why), "%s%s", kind, why);
}

void sb_fleet_line(struct fleet *f, char *line)
{
	struct fleet_cell *c = NULL;
	int h, changed = 0;

	if ((h = line_host(f, line, "changed: [")) >= 0 || (h = line_host(f, line, "ok: [")) >= 0) {
		if ((c = line_cell(f, (unsigned)h, line)) && c->state == CELL_PLANNED) {
			c->state = CELL_DONE;
			changed = 1;
		}
	} else if ((h = line_host(f, line, "failed: [")) >= 0) {
		if ((c = line_cell(f, (unsigned)h, line))) {
			c->state = CELL_FAILED;
			result_why(line, c->why, sizeof(c->why));
			changed = 1;
		}
	} else if ((h = line_host(f, line, "fatal: [")) >= 0) {
		int was = f->hosts[h].failed;

		host_fail(f, h, strstr(line, "UNREACHABLE!") ? "unreachable: " : "", line);
		changed = was != f->hosts[h].failed;
	}
	if (changed && f->tty)
		sb_fleet_progress(f, stderr);
	else if (changed)   /* a log: one line per change, not the table again */
		sb_fleet_progress_host(f, (unsigned)h, stderr);
}

/* The cell host h is on: its first still planned, or NULL. */
static const struct fleet_cell *host_current(const struct fleet *f, unsigned h, unsigned *done,
					     unsigned *failed, unsigned *total)
{
	const struct fleet_cell *cur = NULL;
	unsigned c;

	*done = *failed = *total = 0;
	for (c = 0; c < f->ncells; c++) {
		if (f->cells[c].host != h)
			continue;
		(*total)++;
		*done += f->cells[c].state == CELL_DONE;
		*failed += f->cells[c].state == CELL_FAILED;
		if (!cur && f->cells[c].state == CELL_PLANNED)
			cur = &f->cells[c];
	}
	return cur;
}

void sb_fleet_progress_host(const struct fleet *f, unsigned h, FILE *out)
{
	unsigned done, failed, total;
	const struct fleet_cell *cur = host_current(f, h, &done, &failed, &total);

	if (f->hosts[h].failed)
		fprintf(out, "fleet: %s: failed: %s\n", f->hosts[h].name, f->hosts[h].why);
	else
		fprintf(out, "fleet: %s: %u/%u done%s%s%s\n", f->hosts[h].name, done, total,
			failed ? " (some failed)" : "", cur ? ", on " : "", cur ? cur->stack : "");
	fflush(out);
}

void sb_fleet_progress(struct fleet *f, FILE *out)
{
	unsigned h, w = 4, done, failed, total;

	for (h = 0; h < f->nhosts; h++)
		if (strlen(f->hosts[h].name) > w)
			w = (unsigned)strlen(f->hosts[h].name);
	if (f->tty && f->drawn)
		fprintf(out, "\033[%uA\033[J", f->drawn);
	fprintf(out, "%-*s  %-9s  %-32s  %s\n", (int)w, "host", "done/all", "on stack", "failed");
	for (h = 0; h < f->nhosts; h++) {
		const struct fleet_cell *cur = host_current(f, h, &done, &failed, &total);
		char n[32];

		snprintf(n, sizeof(n), "%u/%u", done, total);
		fprintf(out, "%-*s  %-9s  %-32s  %s%s\n", (int)w, f->hosts[h].name, n,
			f->hosts[h].failed ? "-" : cur ? cur->stack : "(finished)",
			f->hosts[h].failed ? "host: " : "", f->hosts[h].failed ? f->hosts[h].why :
			failed ? "some stacks" : "");
	}
	f->drawn = f->nhosts + 1;
	fflush(out);
}
