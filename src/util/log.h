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

/* One live line, redrawn in place ("\r...\033[K"); no-op unless progress is enabled. */
void sb_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* End the live line (newline if one was drawn). */
void sb_progress_done(void);

/* Test hook: see core/state.h for the points and the environment. */
void sb_test_pause(const char *point);

#endif
