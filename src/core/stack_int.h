/* core/stack module-internal: what stack.c and stack_teardown.c share. */
#ifndef SB_CORE_STACK_INT_H
#define SB_CORE_STACK_INT_H

#include "util/err.h"

/* 0 as root; -EPERM "WHAT needs root (...)" otherwise. */
int sb_stack_need_root(const char *what, struct sb_err *err);

#endif
