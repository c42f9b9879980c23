/* The run's stop flag and the signals that set it: the command owns the
 * flag (struct sb_run_ctx's stop); the pipeline listens while it builds,
 * measures and tears down. */
#include "run/run_int.h"

/* A signal handler takes no argument: the flag of the run that listens. */
static volatile sig_atomic_t *listening;

static void on_signal(int sig)
{
	(void)sig;
	if (listening)
		*listening = 1;
}

/* SIGINT/SIGTERM stop the run at the next step or suite boundary; the
 * stack is then torn down as after any other failure. */
void sb_run_listen(const struct sb_run_ctx *c, struct sb_run_signals *saved)
{
	struct sigaction sa = { .sa_handler = on_signal };

	listening = c->stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &saved->old_int);
	sigaction(SIGTERM, &sa, &saved->old_term);
}

void sb_run_unlisten(const struct sb_run_signals *saved)
{
	sigaction(SIGINT, &saved->old_int, NULL);
	sigaction(SIGTERM, &saved->old_term, NULL);
	listening = NULL;
}
