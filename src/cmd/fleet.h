/* stackbench fleet, inside: the plan (which stack on which host), the
 * ansible-playbook child and what its output says. fleet.c plans and
 * reports; fleet_watch.c runs Ansible and follows it. */
#ifndef SB_CMD_FLEET_H
#define SB_CMD_FLEET_H

#include <stdio.h>

#include "util/err.h"

enum fleet_state { CELL_PLANNED = 0, CELL_DONE, CELL_FAILED };

struct fleet_cell {
	char *file;               /* absolute path on the controller */
	const char *base;         /* its basename, as the playbook names it */
	char *stack;              /* the stack (one expansion of a matrix) */
	unsigned host;            /* index into fleet.hosts */
	enum fleet_state state;
	char why[256];            /* CELL_FAILED: the run's last words */
};

struct fleet_host {
	char *name;               /* the inventory name */
	int failed;               /* unreachable, died, or a playbook task failed */
	char why[512];
};

struct fleet {
	struct fleet_host *hosts;
	unsigned nhosts;
	struct fleet_cell *cells;
	unsigned ncells;
	int tty;                  /* stderr is a terminal: redraw the table in place */
	unsigned drawn;           /* lines of the last drawing */
};

/* Run argv (argv[0] looked up in PATH, no shell) with extra environment
 * already set; each line of its stdout+stderr goes to fn (and to log, if
 * not NULL). Returns the exit status (>= 0) or -errno with err set. */
int sb_fleet_spawn(char *const *argv, FILE *log, void (*fn)(struct fleet *, char *), struct fleet *f,
		   struct sb_err *err);
/* Run argv and return its stdout in *out (malloc'd). Exit status as above. */
int sb_fleet_capture(char *const *argv, char **out, struct sb_err *err);
/* One line of ansible-playbook's default output: cells done/failed, hosts
 * unreachable or failed; redraws the progress table on a change. */
void sb_fleet_line(struct fleet *f, char *line);
/* The progress table: each host, the stack it is on, done/failed counts. */
void sb_fleet_progress(struct fleet *f, FILE *out);
/* One line for host h ("fleet: h2: 1/2 done, on plain-b"), when stderr is a log. */
void sb_fleet_progress_host(const struct fleet *f, unsigned h, FILE *out);

#endif
