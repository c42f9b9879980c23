#include "util/log.h"
#include "util/clock.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static enum sb_log_level level = SB_LOG_INFO;
static int progress_mode = -1;
static bool progress_drawn;
static char context[2][160];

void sb_log_set_level(enum sb_log_level lvl) { level = lvl; }
enum sb_log_level sb_log_get_level(void) { return level; }
void sb_log_set_progress(int mode) { progress_mode = mode; }

bool sb_log_progress_enabled(void)
{
	if (progress_mode >= 0)
		return progress_mode;
	return isatty(STDERR_FILENO);
}

/* Seconds since this process started, on every line at -vv: where
 * a build's time goes (settles, waits, each tool run) reads off -vv. */
static uint64_t t0;

__attribute__((constructor)) static void log_start(void)
{
	t0 = sb_clock_ns();
}

static void put_elapsed(void)
{
	fprintf(stderr, "[%7.3f] ", (double)(sb_clock_ns() - t0) / 1e9);
}

static void vlog(enum sb_log_level min, const char *prefix, const char *fmt, va_list ap)
{
	char line[16384];

	if (level < min)
		return;
	sb_progress_done();
	fputs(prefix, stderr);
	if (level >= SB_LOG_DEBUG)
		put_elapsed();
	vsnprintf(line, sizeof(line), fmt, ap);
	sb_text_term(line, true); /* names and notes from elsewhere: no ESC */
	fputs(line, stderr);
	fputc('\n', stderr);
}

#define DEFINE_LOG(fn, min, prefix)                   \
	void fn(const char *fmt, ...)                 \
	{                                             \
		va_list ap;                           \
		va_start(ap, fmt);                    \
		vlog(min, prefix, fmt, ap);           \
		va_end(ap);                           \
	}

DEFINE_LOG(sb_info, SB_LOG_INFO, "stackbench: ")
DEFINE_LOG(sb_verbose, SB_LOG_VERBOSE, "stackbench: ")
DEFINE_LOG(sb_debug, SB_LOG_DEBUG, "stackbench: debug: ")
DEFINE_LOG(sb_warn, SB_LOG_QUIET, "stackbench: warning: ")

void sb_progress(const char *fmt, ...)
{
	va_list ap;

	if (!sb_log_progress_enabled())
		return;
	fputs("\r", stderr);
	for (int i = 0; i < 2; i++)
		if (context[i][0])
			fprintf(stderr, "%s: ", context[i]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr);
	fflush(stderr);
	progress_drawn = true;
}

void sb_progress_done(void)
{
	if (!progress_drawn)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_drawn = false;
}

void sb_progress_context(enum sb_progress_level lvl, const char *fmt, ...)
{
	va_list ap;

	if ((unsigned)lvl > SB_PROGRESS_SUITE)
		return;
	context[lvl][0] = '\0';
	if (!fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(context[lvl], sizeof(context[lvl]), fmt, ap);
	va_end(ap);
}

/* The test hook documented in core/state.h (here so that src/sys can
 * offer pause points too). */
void sb_test_pause(const char *point)
{
	const char *at = getenv("STACKBENCH_TEST_PAUSE_AT");
	const char *mark = getenv("STACKBENCH_TEST_PAUSE_MARK");
	struct timespec ts = { 0, 100000000 };
	int i;

	if (!at || strcmp(at, point))
		return;
	fprintf(stderr, "stackbench: test hook: pausing at %s (pid %d)\n", point, (int)getpid());
	if (mark && *mark) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

		if (fd >= 0)
			close(fd);
	}
	/* nanosleep returns EINTR when a handler ran (SIGINT/SIGTERM set the
	 * stop flag): end the hold so the caller reaches its next check. */
	for (i = 0; i < 600; i++) {
		if (nanosleep(&ts, NULL) && errno == EINTR)
			break;
		/* the test removed the mark: carry on */
		if (mark && *mark && access(mark, F_OK))
			break;
	}
}

