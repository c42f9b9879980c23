#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
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

static void vlog(enum sb_log_level min, const char *prefix, const char *fmt, va_list ap)
{
	if (level < min)
		return;
	sb_progress_done();
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
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
