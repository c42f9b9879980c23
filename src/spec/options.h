/* Options as data: one table per section, {key, type, offsetof, default,
 * min/max, allowed values, help}. The same tables drive YAML validation,
 * defaults, --set, matrix keys, sb_spec_to_json and `validate --keys`.
 * options.c holds the shared rows (name, devices, fs's common keys, bench);
 * every layer's own rows are in its file (spec/part.h), joined in by
 * parts.c: walk the tree from sb_opt_root(). */
#ifndef SB_SPEC_OPTIONS_H
#define SB_SPEC_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "spec/spec.h"

enum sb_opt_type {
	SB_OPT_SECTION,   /* a nested mapping, described by sub */
	SB_OPT_NAME,      /* stack name: [a-z0-9][a-z0-9._-]* */
	SB_OPT_STR,       /* free text into char[size] */
	SB_OPT_ENUM,      /* one of allowed, into char[size] */
	SB_OPT_ENUMINT,   /* one of allowed, its index into an int (C enum) */
	SB_OPT_U32,       /* whole number min..max; if allowed: one of those */
	SB_OPT_SIZE,      /* size with unit, bytes into uint64_t, min..max */
	SB_OPT_SIZE_KIB,  /* size with unit, KiB into uint32_t, min..max bytes */
	SB_OPT_BOOL,      /* true | false */
	SB_OPT_DURATION,  /* duration with unit, ns into uint64_t */
	SB_OPT_SUITES,    /* list of allowed names into bench.suites */
	SB_OPT_DISKS,     /* list of absolute device paths into devices.disks */
	SB_OPT_LVSIZE,    /* "100%FREE" | "N%FREE" | size, into the lvm spec */
	SB_OPT_LUKSFLAGS, /* list of flag names, or mapping flag -> bool */
	SB_OPT_MATRIX,    /* top-level matrix: handled before conversion */
	SB_OPT_WORDS,     /* one or a list of allowed words, a bit mask into a uint32_t */
	SB_OPT_U32_AUTO,  /* whole number min..max, or auto (0 in the field) */
	SB_OPT_PERCENT,   /* 5% or 2.5 (percent, above 0 and below 100) into a double */
};

struct sb_opt_section;
struct sb_spec_part;

/* offsetof and sizeof of a field, for a row: FLD(sb_raid_spec, level) */
#define SB_OPT_FLD(st, f) offsetof(struct st, f), sizeof(((struct st *)0)->f)
#define SB_MiB (1ULL << 20)
#define SB_GiB (1ULL << 30)
#define SB_TiB (1ULL << 40)

struct sb_opt {
	const char *key;
	enum sb_opt_type type;
	size_t off;                  /* offsetof into the section struct */
	size_t size;                 /* sizeof the field (strings) */
	const char *def;             /* default, parsed by the same code; NULL = derived (see help) */
	uint64_t min, max;           /* U32/SIZE/DURATION; max 0 = type limit */
	const char *const *allowed;  /* ENUM/ENUMINT/U32/SUITES/LUKSFLAGS; NULL-terminated */
	const struct sb_opt_section *sub;
	const char *help;
};

struct sb_opt_section {
	const char *path;            /* "" for the top level, "luks.pbkdf" */
	size_t base;                 /* offsetof the section struct in struct sb_stack_spec */
	ssize_t enabled_off;         /* offsetof its bool enabled in sb_stack_spec, or -1 */
	const struct sb_opt *opts;   /* terminated by key == NULL */
};

/* The whole tree: the shared rows below with every registered layer's part
 * joined in (parts.c). */
const struct sb_opt_section *sb_opt_root(void);
/* The shared rows: the top level before the layers' sections, after them,
 * and the fs keys every filesystem has (options.c). */
extern const struct sb_opt sb_opt_root_head[], sb_opt_root_tail[];
extern const struct sb_opt_section sb_opt_fs_shared;
/* fs.type's allowed values: the registry's filesystem layers. */
const char *const *sb_spec_fs_types(void);
/* bench.suites' allowed values: the i-th suite of the suite registry, NULL
 * past the last; provided by the registry (src/bench/suite.c), which the
 * spec module does not include. */
const char *sb_spec_suite_at(unsigned i);

static inline void *sb_opt_field(void *spec, const struct sb_opt_section *sec, const struct sb_opt *o)
{
	return (char *)spec + sec->base + o->off;
}

/* Find "a.b.c" in the tables; *sec receives the section holding it. */
const struct sb_opt *sb_opt_lookup(const char *dotted, const struct sb_opt_section **sec);
/* "a, b, c" of a section's keys, or of an allowed list. */
void sb_opt_keys_list(const struct sb_opt_section *sec, char *buf, size_t len);
void sb_opt_allowed_list(const char *const *allowed, char *buf, size_t len);
const char *sb_opt_type_desc(const struct sb_opt *o);

#endif
