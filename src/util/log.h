/* Messages to the user. Everything goes to stderr so stdout carries only
 * the command's result (table, JSON, plan). Progress lines are drawn only
 * when stderr is a terminal (or --progress forces them). */
#ifndef SB_UTIL_LOG_H
#define SB_UTIL_LOG_H

#include <stdbool.h>

enum sb_log_level { SB_LOG_QUIET = 0, SB_LOG_INFO = 1, SB_LOG_VERBOSE = 2, SB_LOG_DEBUG = 3 };

void sb_log_set_level(enum sb_log_level lvl);
enum sb_log_level sb_log_get_level(void);
/* -1: decide by isatty(2); 0: never; 1: always */
void sb_log_set_progress(int mode);
bool sb_log_progress_enabled(void);

void sb_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sb_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sb_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One live line, redrawn in place ("\r...\033[K"); no-op unless progress
 * is enabled. It starts with the contexts set below ("[1/2] ext4: bonnie
 * phase 2 of 6: "), so a job's line says where in the run it is. */
void sb_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* End the live line: the last frame is cleared, not left on screen (the
 * final figure or the next message takes its place). */
void sb_progress_done(void);

/* Progress contexts, outermost first: SB_PROGRESS_RUN (which stack of how
 * many, build-and-test) and SB_PROGRESS_SUITE (which phase of how many).
 * fmt NULL clears that level. */
enum sb_progress_level { SB_PROGRESS_RUN = 0, SB_PROGRESS_SUITE = 1 };
void sb_progress_context(enum sb_progress_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Test hook: see core/state.h for the points and the environment. */
void sb_test_pause(const char *point);

#endif
