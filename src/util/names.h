/* A registry's names as one line, for messages and help. */
#ifndef SB_UTIL_NAMES_H
#define SB_UTIL_NAMES_H

#include <stddef.h>

/* nth(0), nth(1), ... up to the first NULL, joined by sep (", ", "|")
 * into buf (truncated to len). Returns buf. */
const char *sb_names_join(char *buf, size_t len, const char *sep, const char *(*nth)(size_t i));

#endif
