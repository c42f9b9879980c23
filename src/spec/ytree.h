/* A small YAML tree built from libyaml's event API. We do not use libyaml's
 * document loader because it expands aliases (billion-laughs) and has no
 * depth limit; here aliases, anchors and tags are refused outright (a stack
 * needs none) and nesting is bounded. Every node keeps its 1-based line and
 * column, and map entries also keep their key's position, so validation can
 * point at the offending key. */
#ifndef SB_SPEC_YTREE_H
#define SB_SPEC_YTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

#define SB_YAML_MAX_DEPTH 32
#define SB_YAML_MAX_BYTES (1024 * 1024)

enum sb_ynode_type { SB_Y_SCALAR, SB_Y_MAP, SB_Y_SEQ };

struct sb_ynode {
	enum sb_ynode_type type;
	int line, col;          /* of the value */
	char *origin;           /* NULL: from the file; else "--set a.b=c" */
	char *str;              /* scalar text */
	bool plain;             /* plain (unquoted) scalar: "~"/"" mean null */
	char *key;              /* when this node is a map value: its key */
	int kline, kcol;
	struct sb_ynode **kids; /* map values (with key) or sequence items */
	unsigned n, cap;
};

/* Parse buf (len bytes) as a single YAML document. name is used in error
 * messages ("NAME:LINE:COL: ..."). *out is NULL when the stream holds no
 * document (empty or comments only). */
int sb_ytree_parse(const char *buf, size_t len, const char *name,
		   struct sb_ynode **out, struct sb_err *err);
/* Parse a single scalar value as YAML (for --set): plain scalars only, no
 * collections except flow sequences "[a, b]" of scalars. */
struct sb_ynode *sb_ytree_new(enum sb_ynode_type t, int line, int col);
int sb_ytree_add(struct sb_ynode *parent, struct sb_ynode *kid);
struct sb_ynode *sb_ytree_get(const struct sb_ynode *map, const char *key);
/* Remove and return a map value (caller frees); NULL if absent. */
struct sb_ynode *sb_ytree_take(struct sb_ynode *map, const char *key);
struct sb_ynode *sb_ytree_dup(const struct sb_ynode *n);
void sb_ytree_free(struct sb_ynode *n);
bool sb_ytree_is_null(const struct sb_ynode *n);
const char *sb_ytree_type_name(const struct sb_ynode *n);

#endif
