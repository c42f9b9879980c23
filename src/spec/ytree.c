#include "spec/ytree.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct sb_ynode *sb_ytree_new(enum sb_ynode_type t, int line, int col)
{
	struct sb_ynode *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->type = t;
	n->line = line;
	n->col = col;
	return n;
}

int sb_ytree_add(struct sb_ynode *parent, struct sb_ynode *kid)
{
	if (parent->n == parent->cap) {
		unsigned cap = parent->cap ? parent->cap * 2 : 8;
		struct sb_ynode **k = realloc(parent->kids, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		parent->kids = k;
		parent->cap = cap;
	}
	parent->kids[parent->n++] = kid;
	return 0;
}

struct sb_ynode *sb_ytree_get(const struct sb_ynode *map, const char *key)
{
	unsigned i;

	if (!map || map->type != SB_Y_MAP)
		return NULL;
	for (i = 0; i < map->n; i++)
		if (map->kids[i]->key && !strcmp(map->kids[i]->key, key))
			return map->kids[i];
	return NULL;
}

struct sb_ynode *sb_ytree_take(struct sb_ynode *map, const char *key)
{
	struct sb_ynode *k;
	unsigned i;

	if (!map || map->type != SB_Y_MAP)
		return NULL;
	for (i = 0; i < map->n; i++) {
		k = map->kids[i];
		if (k->key && !strcmp(k->key, key)) {
			memmove(&map->kids[i], &map->kids[i + 1], (map->n - i - 1) * sizeof(*map->kids));
			map->n--;
			return k;
		}
	}
	return NULL;
}

void sb_ytree_free(struct sb_ynode *n)
{
	unsigned i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++)
		sb_ytree_free(n->kids[i]);
	free(n->kids);
	free(n->str);
	free(n->key);
	free(n->origin);
	free(n);
}

static char *dupnull(const char *s, bool *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = true;
	return d;
}

struct sb_ynode *sb_ytree_dup(const struct sb_ynode *n)
{
	struct sb_ynode *d;
	bool fail = false;
	unsigned i;

	if (!n)
		return NULL;
	d = sb_ytree_new(n->type, n->line, n->col);
	if (!d)
		return NULL;
	d->plain = n->plain;
	d->kline = n->kline;
	d->kcol = n->kcol;
	d->str = dupnull(n->str, &fail);
	d->key = dupnull(n->key, &fail);
	d->origin = dupnull(n->origin, &fail);
	for (i = 0; !fail && i < n->n; i++) {
		struct sb_ynode *k = sb_ytree_dup(n->kids[i]);

		if (!k || sb_ytree_add(d, k) < 0) {
			sb_ytree_free(k);
			fail = true;
		}
	}
	if (fail) {
		sb_ytree_free(d);
		return NULL;
	}
	return d;
}

bool sb_ytree_is_null(const struct sb_ynode *n)
{
	if (!n)
		return true;
	if (n->type != SB_Y_SCALAR || !n->plain)
		return false;
	return !n->str[0] || !strcmp(n->str, "~") || !strcmp(n->str, "null") ||
	       !strcmp(n->str, "Null") || !strcmp(n->str, "NULL");
}

const char *sb_ytree_type_name(const struct sb_ynode *n)
{
	if (!n || sb_ytree_is_null(n))
		return "nothing (null)";
	switch (n->type) {
	case SB_Y_MAP: return "a mapping";
	case SB_Y_SEQ: return "a list";
	default: return "a scalar";
	}
}

/* libyaml's reader errors carry a byte offset, not a mark. */
static void offset_to_linecol(const char *buf, size_t len, size_t off, int *line, int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && i < len; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)buf[i] & 0xC0) != 0x80) {
			(*col)++;
		}
	}
}

static int parser_error(yaml_parser_t *p, const char *buf, size_t len,
			const char *name, struct sb_err *err)
{
	int line, col;

	if (p->error == YAML_MEMORY_ERROR)
		return sb_err_set(err, -ENOMEM, "%s: out of memory while parsing", name);
	if (p->error == YAML_READER_ERROR) {
		offset_to_linecol(buf, len, p->problem_offset, &line, &col);
		if (p->problem_value != -1)
			return sb_err_set(err, -EINVAL, "%s:%d:%d: %s (0x%02X); a stack file must be UTF-8 text",
					  name, line, col, p->problem ? p->problem : "invalid input",
					  (unsigned)p->problem_value);
		return sb_err_set(err, -EINVAL, "%s:%d:%d: %s; a stack file must be UTF-8 text",
				  name, line, col, p->problem ? p->problem : "invalid input");
	}
	line = (int)p->problem_mark.line + 1;
	col = (int)p->problem_mark.column + 1;
	if (p->context)
		return sb_err_set(err, -EINVAL, "%s:%d:%d: invalid YAML: %s %s", name, line, col,
				  p->problem ? p->problem : "syntax error", p->context);
	return sb_err_set(err, -EINVAL, "%s:%d:%d: invalid YAML: %s", name, line, col,
			  p->problem ? p->problem : "syntax error");
}

#define LINE(m) ((int)(m).line + 1)
#define COL(m) ((int)(m).column + 1)

/* The parser's state between events: the open collections, the root and a
 * mapping key waiting for its value. */
struct yparse {
	const char *name;
	struct sb_ynode *stack[SB_YAML_MAX_DEPTH + 1], *root;
	char *pkey;
	int pkline, pkcol;
	unsigned depth;
	struct sb_err *err;
};

/* Anchors and tags are refused: a stack file is plain data. */
static int check_plain(struct yparse *y, const yaml_event_t *ev)
{
	const yaml_char_t *anchor = ev->type == YAML_SCALAR_EVENT ? ev->data.scalar.anchor :
		ev->type == YAML_MAPPING_START_EVENT ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	const yaml_char_t *tag = ev->type == YAML_SCALAR_EVENT ? ev->data.scalar.tag :
		ev->type == YAML_MAPPING_START_EVENT ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;

	if (anchor)
		return sb_err_set(y->err, -EINVAL, "%s:%d:%d: anchors (&%s) are not allowed in a stack file; write the value out",
				  y->name, LINE(ev->start_mark), COL(ev->start_mark), (const char *)anchor);
	if (tag)
		return sb_err_set(y->err, -EINVAL, "%s:%d:%d: tags (%s) are not allowed in a stack file; write plain values",
				  y->name, LINE(ev->start_mark), COL(ev->start_mark), (const char *)tag);
	return 0;
}

/* A scalar in key position of the mapping top: keep it for the value. */
static int on_key(struct yparse *y, const yaml_event_t *ev, const struct sb_ynode *top)
{
	int rc = 0;

	if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length))
		return sb_err_set(y->err, -EINVAL, "%s:%d:%d: NUL byte in a key", y->name,
				  LINE(ev->start_mark), COL(ev->start_mark));
	if (sb_ytree_get(top, (const char *)ev->data.scalar.value))
		return sb_err_set(y->err, -EINVAL, "%s:%d:%d: duplicate key '%s'; each key may appear once",
				  y->name, LINE(ev->start_mark), COL(ev->start_mark),
				  (const char *)ev->data.scalar.value);
	y->pkey = strdup((const char *)ev->data.scalar.value);
	if (!y->pkey)
		rc = sb_err_set(y->err, -ENOMEM, "%s: out of memory", y->name);
	y->pkline = LINE(ev->start_mark);
	y->pkcol = COL(ev->start_mark);
	return rc;
}

/* A new node for a scalar, sequence or mapping start event. */
static int new_node(struct yparse *y, const yaml_event_t *ev, struct sb_ynode **out)
{
	struct sb_ynode *node;

	node = sb_ytree_new(ev->type == YAML_SCALAR_EVENT ? SB_Y_SCALAR :
			    ev->type == YAML_MAPPING_START_EVENT ? SB_Y_MAP : SB_Y_SEQ,
			    LINE(ev->start_mark), COL(ev->start_mark));
	if (!node)
		return sb_err_set(y->err, -ENOMEM, "%s: out of memory", y->name);
	if (ev->type == YAML_SCALAR_EVENT) {
		if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length)) {
			sb_ytree_free(node);
			return sb_err_set(y->err, -EINVAL, "%s:%d:%d: NUL byte in a value", y->name,
					  LINE(ev->start_mark), COL(ev->start_mark));
		}
		node->str = strdup((const char *)ev->data.scalar.value);
		node->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		if (!node->str) {
			sb_ytree_free(node);
			return sb_err_set(y->err, -ENOMEM, "%s: out of memory", y->name);
		}
	}
	*out = node;
	return 0;
}

/* Put node under top (with the waiting key if top is a mapping), or make it
 * the root. */
static int attach_node(struct yparse *y, struct sb_ynode *top, struct sb_ynode *node)
{
	if (top) {
		if (top->type == SB_Y_MAP) {
			node->key = y->pkey;
			node->kline = y->pkline;
			node->kcol = y->pkcol;
			y->pkey = NULL;
		}
		if (sb_ytree_add(top, node) < 0) {
			sb_ytree_free(node);
			return sb_err_set(y->err, -ENOMEM, "%s: out of memory", y->name);
		}
	} else if (!y->root) {
		y->root = node;
	} else {
		sb_ytree_free(node); /* cannot happen: one document, one root */
	}
	return 0;
}

/* A scalar, sequence start or mapping start event. */
static int on_node(struct yparse *y, const yaml_event_t *ev)
{
	struct sb_ynode *node = NULL, *top;
	int rc;

	rc = check_plain(y, ev);
	if (rc)
		return rc;
	top = y->depth ? y->stack[y->depth - 1] : NULL;
	if (ev->type == YAML_SCALAR_EVENT && top && top->type == SB_Y_MAP && !y->pkey)
		return on_key(y, ev, top);
	if (top && top->type == SB_Y_MAP && !y->pkey)
		return sb_err_set(y->err, -EINVAL, "%s:%d:%d: a %s as a mapping key; keys must be plain words",
				  y->name, LINE(ev->start_mark), COL(ev->start_mark),
				  ev->type == YAML_MAPPING_START_EVENT ? "mapping" : "list");
	if (ev->type != YAML_SCALAR_EVENT && y->depth >= SB_YAML_MAX_DEPTH)
		return sb_err_set(y->err, -EINVAL, "%s:%d:%d: nesting deeper than %d levels; a stack file needs at most a few",
				  y->name, LINE(ev->start_mark), COL(ev->start_mark), SB_YAML_MAX_DEPTH);
	rc = new_node(y, ev, &node);
	if (rc)
		return rc;
	rc = attach_node(y, top, node);
	if (rc)
		return rc;
	if (ev->type != YAML_SCALAR_EVENT)
		y->stack[y->depth++] = node;
	return 0;
}

int sb_ytree_parse(const char *buf, size_t len, const char *name,
		   struct sb_ynode **out, struct sb_err *err)
{
	struct yparse y = { .name = name, .err = err };
	unsigned ndocs = 0;
	yaml_parser_t p;
	yaml_event_t ev;
	int rc = 0, done = 0;

	*out = NULL;
	if (len > SB_YAML_MAX_BYTES)
		return sb_err_set(err, -EINVAL, "%s:1:1: file is %zu bytes; a stack file may be at most 1 MiB",
				  name, len);
	if (!yaml_parser_initialize(&p))
		return sb_err_set(err, -ENOMEM, "%s: cannot initialise the YAML parser", name);
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	/* UTF-8 only: libyaml would otherwise also decode UTF-16 by its BOM. */
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);

	while (!done) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = parser_error(&p, buf, len, name, err);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++ndocs > 1)
				rc = sb_err_set(err, -EINVAL, "%s:%d:%d: a second YAML document; a stack file holds exactly one",
						name, LINE(ev.start_mark), COL(ev.start_mark));
			break;
		case YAML_ALIAS_EVENT:
			rc = sb_err_set(err, -EINVAL, "%s:%d:%d: aliases (*%s) are not allowed in a stack file; write the value out",
					name, LINE(ev.start_mark), COL(ev.start_mark), ev.data.alias.anchor);
			break;
		case YAML_SCALAR_EVENT:
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			rc = on_node(&y, &ev);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (y.depth)
				y.depth--;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
		if (rc < 0)
			break;
	}
	yaml_parser_delete(&p);
	free(y.pkey);
	if (rc < 0) {
		sb_ytree_free(y.root);
		return rc;
	}
	*out = y.root;
	return 0;
}
