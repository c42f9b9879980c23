/* Kernel facts, in one place: what a layer needs from the running kernel
 * ("md", "dm", "fs:xfs") and whether this kernel has it. The layers name
 * their needs (sb_layer_ops.needs); the stack's kernel check and the
 * sandbox decision both ask here. */
#ifndef SB_SYS_KERNEL_H
#define SB_SYS_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#define SB_KERNEL_NEEDS_MAX 16

struct sb_kernel_needs {
	unsigned n;
	const char *what[SB_KERNEL_NEEDS_MAX];   /* static strings, no duplicates */
};

/* Add a need (once): "md" (md driver), "dm" (device-mapper), "fs:NAME"
 * (a filesystem the kernel has or can load). */
void sb_kernel_need(struct sb_kernel_needs *n, const char *what);
/* Is what among n? */
bool sb_kernel_needs_has(const struct sb_kernel_needs *n, const char *what);
/* Does the running kernel have it (without loading anything)? */
bool sb_kernel_has(const char *what);
/* The module that provides it ("md_mod", "dm_mod", "xfs"), for modprobe. */
const char *sb_kernel_module(const char *what);
/* What of n the kernel lacks, in words: "md and device-mapper", "md, the
 * xfs filesystem"; "" when nothing. */
void sb_kernel_lacking(const struct sb_kernel_needs *n, char *why, size_t len);

#endif
