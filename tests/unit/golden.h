/* What the report tests share: the source tree and its golden results. */
#ifndef SB_TEST_GOLDEN_H
#define SB_TEST_GOLDEN_H

#include <json-c/json.h>

/* $SB_SOURCE_DIR (set by meson test), else the configured source tree. */
const char *sb_test_srcdir(void);

/* tests/golden/REL read as a results file; fails the test if it cannot. */
struct json_object *sb_test_load(const char *rel);

#endif
