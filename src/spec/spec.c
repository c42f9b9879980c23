/* Loading a stack description: file -> YAML tree -> matrix expansion and
 * --set overrides (both applied to the tree, so they are validated exactly
 * like the file) -> struct sb_stack_spec via the option tables -> checks. */
#include "spec/spec_int.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct set_op {
	char *origin;              /* "--set a.b=c" */
	char path[128];
	struct sb_ynode *value;
};

struct matrix_key {
	char path[128];
	const struct sb_ynode *node;   /* the list */
};

static void set_origin(struct sb_ynode *n, const char *origin)
{
	unsigned i;

	free(n->origin);
	n->origin = origin ? strdup(origin) : NULL;
	for (i = 0; i < n->n; i++)
		set_origin(n->kids[i], origin);
}

/* Check a dotted key against the tables; what = "--set a.b=c" or the
 * matrix key node for the error location. */
static int check_key(const struct sb_spec_ctx *c, const struct sb_ynode *where, const char *path)
{
	const struct sb_opt_section *sec = sb_opt_root(), *found;
	const struct sb_opt *o;
	char buf[128], keys[512], *save = NULL, *tok, done[128] = "";

	if (strlen(path) >= sizeof(buf) || !path[0])
		return sb_spec_fail(c, where, true, "'%.40s' is not a key; use a dotted key such as luks.sector_size", path);
	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
		for (o = sec->opts; o->key; o++)
			if (!strcmp(o->key, tok))
				break;
		if (o->key && o->type == SB_OPT_MATRIX)
			return sb_spec_fail(c, where, true, "the matrix cannot be set or nested; put it in the file");
		if (!o->key || (o->type != SB_OPT_SECTION && save && *save)) {
			sb_opt_keys_list(sec, keys, sizeof(keys));
			if (!o->key && !done[0])
				return sb_spec_fail(c, where, true, "unknown key '%s'; allowed at the top level: %s", path, keys);
			if (!o->key)
				return sb_spec_fail(c, where, true, "unknown key '%s'; allowed in %s: %s", path, done, keys);
			return sb_spec_fail(c, where, true, "unknown key '%s'; %s has no sub-keys", path, o->key);
		}
		if (o->type == SB_OPT_SECTION)
			sec = o->sub;
		snprintf(done + strlen(done), sizeof(done) - strlen(done), "%s%s", done[0] ? "." : "", tok);
	}
	if (path[strlen(path) - 1] == '.' || strstr(path, "..") || path[0] == '.')
		return sb_spec_fail(c, where, true, "'%s' is not a key; use a dotted key such as luks.sector_size", path);
	(void)sb_opt_lookup(path, &found);
	return 0;
}

/* A matrix or --set key inside an optional section (raid, lvm, luks,
 * faults...) the stack does not have would add that layer silently: one
 * override meant for another stack would turn ext4.yml into an LVM stack.
 * Refuse, unless the key set is the section itself (--set lvm={}, or
 * --set faults.fail={member: 1}), which enables it explicitly. The section
 * is path[0..len). */
static int absent_section(const struct sb_spec_ctx *c, const char *path, size_t len,
			  const struct sb_ynode *value)
{
	const struct sb_opt_section *in;
	const struct sb_opt *leaf = sb_opt_lookup(path, NULL), *o;
	char sec[128];

	if (len >= sizeof(sec))
		return 0;
	memcpy(sec, path, len);
	sec[len] = '\0';
	o = sb_opt_lookup(sec, &in);
	if (!o || o->type != SB_OPT_SECTION || !o->sub || o->sub->enabled_off < 0)
		return 0;
	if (leaf && leaf->type == SB_OPT_SECTION)
		return 0;
	return sb_spec_fail(c, value, true, "%s: this stack has no %s section, and setting one of its keys "
			    "would add that layer silently; enable it explicitly (%s: in the file, or --set %s={})",
			    path, sec, sec, sec);
}

/* Put value at path in the tree (taking ownership of value), creating
 * sections as needed. */
static int tree_put(const struct sb_spec_ctx *c, struct sb_ynode *root, const char *path,
		    struct sb_ynode *value, const char *origin)
{
	char buf[128], *save = NULL, *tok, *next;
	struct sb_ynode *map = root, *n, *old;

	snprintf(buf, sizeof(buf), "%s", path);
	tok = strtok_r(buf, ".", &save);
	while (tok) {
		next = strtok_r(NULL, ".", &save);
		if (!next)
			break;
		n = sb_ytree_get(map, tok);
		if (n && n->type != SB_Y_MAP) {
			if (!sb_ytree_is_null(n)) {
				sb_ytree_free(value);
				return sb_spec_fail(c, n, true, "%s is %s, not a mapping; cannot set %s",
						    tok, sb_ytree_type_name(n), path);
			}
			n->type = SB_Y_MAP;   /* "lvm:" (null) becomes an empty mapping */
		}
		if (!n) {
			int rc = absent_section(c, path, (size_t)(next - 1 - buf), value);

			if (rc < 0) {
				sb_ytree_free(value);
				return rc;
			}
			n = sb_ytree_new(SB_Y_MAP, value->line, value->col);
			if (!n || !(n->key = strdup(tok)) || (origin && !(n->origin = strdup(origin))) ||
			    sb_ytree_add(map, n) < 0) {
				sb_ytree_free(n);
				sb_ytree_free(value);
				return sb_err_set(c->err, -ENOMEM, "out of memory");
			}
			n->kline = value->kline;
			n->kcol = value->kcol;
		}
		map = n;
		tok = next;
	}
	old = sb_ytree_take(map, tok);
	if (old && old->type == SB_Y_MAP && value->type == SB_Y_MAP) {
		/* --set lvm={} or a mapping: merge into the existing section */
		unsigned i;

		for (i = 0; i < value->n; i++) {
			struct sb_ynode *k = value->kids[i], *o2 = sb_ytree_take(old, k->key);

			sb_ytree_free(o2);
			sb_ytree_add(old, k);
		}
		value->n = 0;
		sb_ytree_free(value);
		value = old;
		old = NULL;
	}
	sb_ytree_free(old);
	free(value->key);
	value->key = strdup(tok);
	if (!value->key || sb_ytree_add(map, value) < 0) {
		sb_ytree_free(value);
		return sb_err_set(c->err, -ENOMEM, "out of memory");
	}
	return 0;
}

static int parse_set(const char *arg, struct set_op *op, struct sb_err *err)
{
	struct sb_spec_ctx c = { .file = "--set", .err = err };
	struct sb_ynode where = { 0 };
	const char *eq = strchr(arg, '=');
	int rc;

	op->origin = NULL;
	op->value = NULL;
	if (asprintf(&op->origin, "--set %s", arg) < 0) {
		op->origin = NULL;
		return sb_err_set(err, -ENOMEM, "out of memory");
	}
	where.origin = op->origin;
	if (!eq || eq == arg)
		return sb_spec_fail(&c, &where, true, "expected KEY=VALUE, e.g. --set devices.loop.size=256MiB");
	if ((size_t)(eq - arg) >= sizeof(op->path))
		return sb_spec_fail(&c, &where, true, "the key is too long");
	memcpy(op->path, arg, (size_t)(eq - arg));
	op->path[eq - arg] = '\0';
	rc = check_key(&c, &where, op->path);
	if (rc < 0)
		return rc;
	{
		/* the value is YAML of its own: drop the parser's LINE:COL
		 * inside it, the --set argument is the location */
		struct sb_err pe = { 0 };
		size_t ol = strlen(op->origin);
		const char *m, *p;

		rc = sb_ytree_parse(eq + 1, strlen(eq + 1), op->origin, &op->value, &pe);
		if (rc < 0) {
			m = pe.msg;
			if (!strncmp(m, op->origin, ol)) {
				m += ol;
				p = strstr(m, ": ");
				m = p ? p + 2 : m;
			}
			return sb_err_set(err, rc, "%s: %s", op->origin, m);
		}
	}
	if (!op->value) {   /* "key=" : null, reported as "has no value" by conversion */
		op->value = sb_ytree_new(SB_Y_SCALAR, 1, 1);
		if (!op->value || !(op->value->str = strdup("")))
			return sb_err_set(err, -ENOMEM, "out of memory");
		op->value->plain = true;
	}
	set_origin(op->value, op->origin);
	return 0;
}

/* Stack names: [a-z0-9._-], lower case, starting with a letter or digit. */
static void sanitize_name(const char *in, char *out, size_t len)
{
	size_t i = 0;
	char ch;

	for (; *in && i + 1 < len; in++) {
		ch = (char)tolower((unsigned char)*in);
		if (!isalnum((unsigned char)ch) && !strchr("._-", ch))
			ch = '-';
		if (!isascii((unsigned char)ch))
			ch = '-';
		if (i == 0 && !isalnum((unsigned char)ch))
			continue;
		out[i++] = ch;
	}
	out[i] = '\0';
	if (!i)
		snprintf(out, len, "stack");
}

static void base_name(const char *file, char *out, size_t len)
{
	char buf[SB_PATH_MAX];
	const char *b = strrchr(file, '/');
	size_t n;

	snprintf(buf, sizeof(buf), "%s", b ? b + 1 : file);
	n = strlen(buf);
	if (n > 4 && !strcmp(buf + n - 4, ".yml"))
		buf[n - 4] = '\0';
	else if (n > 5 && !strcmp(buf + n - 5, ".yaml"))
		buf[n - 5] = '\0';
	sanitize_name(buf, out, len);
}

static int parse_matrix(const struct sb_spec_ctx *c, const struct sb_ynode *m,
			struct matrix_key *keys, unsigned *nkeys, unsigned *total)
{
	unsigned i, j;
	uint64_t prod = 1;
	const struct sb_ynode *k;

	if (m->type != SB_Y_MAP || !m->n)
		return sb_spec_fail(c, m, true, "matrix: expected a mapping of dotted key -> list of values, e.g. luks.sector_size: [512, 4096]");
	if (m->n > 8)
		return sb_spec_fail(c, m, true, "matrix: %u keys; at most 8", m->n);
	for (i = 0; i < m->n; i++) {
		k = m->kids[i];
		if (check_key(c, k, k->key) < 0)
			return -EINVAL;
		if (k->type != SB_Y_SEQ || !k->n)
			return sb_spec_fail(c, k, false, "matrix: %s: expected a non-empty list of values, got %s",
					    k->key, sb_ytree_type_name(k));
		for (j = 0; j < k->n; j++)
			if (k->kids[j]->type != SB_Y_SCALAR)
				return sb_spec_fail(c, k->kids[j], false, "matrix: %s: expected a plain value, got %s",
						    k->key, sb_ytree_type_name(k->kids[j]));
		snprintf(keys[i].path, sizeof(keys[i].path), "%s", k->key);
		keys[i].node = k;
		prod *= k->n;
		if (prod > SB_MATRIX_MAX)
			return sb_spec_fail(c, m, true, "matrix: expands into more than %d stacks; split it into several files",
					    SB_MATRIX_MAX);
	}
	*nkeys = m->n;
	*total = (unsigned)prod;
	return 0;
}

static int build_one(const struct sb_spec_ctx *fc, const struct sb_ynode *root,
		     const struct matrix_key *mk, unsigned nmk, unsigned combo,
		     struct set_op *sets, unsigned nsets, struct sb_stack_spec *s)
{
	struct sb_spec_ctx c = *fc;
	struct sb_ynode *tree = sb_ytree_dup(root), *v;
	const struct sb_ynode *nm;
	char name[SB_NAME_MAX * 4], part[SB_NAME_MAX];
	unsigned i, idx, rest = combo;
	int rc = 0;

	if (!tree)
		return sb_err_set(c.err, -ENOMEM, "out of memory");
	memset(s, 0, sizeof(*s));
	snprintf(s->source, sizeof(s->source), "%s", c.file);
	/* the matrix: first key varies slowest */
	for (i = nmk; i-- > 0;) {
		idx = rest % mk[i].node->n;
		rest /= mk[i].node->n;
		v = sb_ytree_dup(mk[i].node->kids[idx]);
		if (!v) {
			rc = sb_err_set(c.err, -ENOMEM, "out of memory");
			goto out;
		}
		v->kline = v->line;
		v->kcol = v->col;
		rc = tree_put(&c, tree, mk[i].path, v, NULL);
		if (rc < 0)
			goto out;
	}
	for (i = 0; i < nsets; i++) {
		v = sb_ytree_dup(sets[i].value);
		if (!v) {
			rc = sb_err_set(c.err, -ENOMEM, "out of memory");
			goto out;
		}
		rc = tree_put(&c, tree, sets[i].path, v, sets[i].origin);
		if (rc < 0)
			goto out;
	}
	c.root = tree;
	rc = sb_spec_defaults(s, c.err);
	if (rc < 0)
		goto out;
	rc = sb_spec_convert(&c, s);
	if (rc < 0)
		goto out;
	rc = sb_spec_check(&c, s);
	if (rc < 0)
		goto out;
	nm = sb_ytree_get(tree, "name");
	if (!nm)
		base_name(c.file, s->name, sizeof(s->name));
	if (nmk) {
		snprintf(name, sizeof(name), "%s", s->name);
		rest = combo;
		for (i = 0; i < nmk; i++) {
			unsigned div = 1, j;

			for (j = i + 1; j < nmk; j++)
				div *= mk[j].node->n;
			idx = (rest / div) % mk[i].node->n;
			sanitize_name(mk[i].node->kids[idx]->str, part, sizeof(part));
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "-%s", part);
		}
		sanitize_name(name, s->name, sizeof(s->name));
	}
out:
	sb_ytree_free(tree);
	return rc;
}

int sb_spec_load_buffer(const char *buf, size_t len, const char *name,
			const char *const *setargs, unsigned nsets,
			struct sb_spec_list *out, struct sb_err *err)
{
	struct sb_spec_ctx c = { .file = name, .err = err };
	struct matrix_key mk[8];
	struct sb_ynode *root = NULL, *matrix = NULL;
	struct set_op *sets = NULL;
	unsigned i, j, nmk = 0, total = 1;
	int rc;

	out->n = 0;
	out->items = NULL;
	rc = sb_ytree_parse(buf, len, name, &root, err);
	if (rc < 0)
		return rc;
	if (!root) {
		rc = sb_err_set(err, -EINVAL, "%s:1:1: empty stack description; expected a mapping with keys such as devices, raid, lvm, luks, fs, bench",
				name);
		goto out;
	}
	if (root->type != SB_Y_MAP) {
		char keys[512];

		sb_opt_keys_list(sb_opt_root(), keys, sizeof(keys));
		rc = sb_spec_fail(&c, root, false, "expected a mapping of keys at the top level (%s), got %s",
				  keys, sb_ytree_type_name(root));
		goto out;
	}
	if (nsets) {
		sets = calloc(nsets, sizeof(*sets));
		if (!sets) {
			rc = sb_err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		for (i = 0; i < nsets; i++) {
			rc = parse_set(setargs[i], &sets[i], err);
			if (rc < 0)
				goto out;
		}
	}
	matrix = sb_ytree_take(root, "matrix");
	if (matrix) {
		rc = parse_matrix(&c, matrix, mk, &nmk, &total);
		if (rc < 0)
			goto out;
	}
	out->items = calloc(total, sizeof(*out->items));
	if (!out->items) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < total; i++) {
		rc = build_one(&c, root, mk, nmk, i, sets, nsets, &out->items[i]);
		if (rc < 0) {
			if (nmk) {
				size_t l = strlen(err->msg);

				snprintf(err->msg + l, sizeof(err->msg) - l, " (matrix combination %u of %u)", i + 1, total);
			}
			goto out;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(out->items[j].name, out->items[i].name)) {
				rc = sb_spec_fail(&c, matrix, true,
						  "matrix: two combinations get the same stack name '%s'; use values that differ in letters or digits",
						  out->items[i].name);
				goto out;
			}
		out->n = i + 1;
	}
	rc = 0;
out:
	if (rc < 0)
		sb_spec_list_free(out);
	for (i = 0; sets && i < nsets; i++) {
		free(sets[i].origin);
		sb_ytree_free(sets[i].value);
	}
	free(sets);
	sb_ytree_free(matrix);
	sb_ytree_free(root);
	return rc;
}

/* bench.* keys only: a prefix check first, so the message names the rule
 * rather than a key the spec would accept elsewhere. */
static int bench_key_only(const char *arg, struct sb_err *err)
{
	if (strncmp(arg, "bench.", 6))
		return sb_err_set(err, -EINVAL, "--set %s: only bench.* keys go with --target "
				  "(the stack's other keys need a stack file)", arg);
	if (!strncmp(arg, "bench.suites", 12) && (arg[12] == '=' || arg[12] == '.'))
		return sb_err_set(err, -EINVAL, "--set %s: with --target the suites are --suite's", arg);
	return 0;
}

int sb_spec_bench_keys(const char *const *setargs, unsigned nsets, struct sb_bench_spec *out,
		       struct sb_err *err)
{
	struct sb_spec_ctx c = { .file = "--set", .err = err };
	struct sb_stack_spec *s = calloc(1, sizeof(*s));
	struct set_op *sets = calloc(nsets + 1, sizeof(*sets));
	struct sb_ynode *tree = sb_ytree_new(SB_Y_MAP, 1, 1), *v;
	unsigned i;
	int rc = 0;

	if (!s || !sets || !tree) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < nsets && rc == 0; i++) {
		rc = bench_key_only(setargs[i], err);
		if (rc == 0)
			rc = parse_set(setargs[i], &sets[i], err);
		if (rc == 0) {
			v = sets[i].value;
			sets[i].value = NULL;
			rc = tree_put(&c, tree, sets[i].path, v, sets[i].origin);
		}
	}
	c.root = tree;
	if (rc == 0)
		rc = sb_spec_defaults(s, err);
	if (rc == 0)
		rc = sb_spec_convert(&c, s);
	if (rc == 0)
		*out = s->bench;
out:
	sb_ytree_free(tree);   /* before the origins its nodes point to */
	for (i = 0; sets && i < nsets; i++) {
		free(sets[i].origin);
		sb_ytree_free(sets[i].value);
	}
	free(sets);
	free(s);
	return rc;
}

int sb_spec_load(const char *path, const char *const *sets, unsigned nsets,
		 struct sb_spec_list *out, struct sb_err *err)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	ssize_t r;
	int fd, rc;

	out->n = 0;
	out->items = NULL;
	/* O_NONBLOCK: a FIFO must not hang us before we see it is not a file */
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return sb_err_set(err, -EINVAL, "%s:1:1: cannot open the stack file: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		rc = sb_err_set(err, -EINVAL, "%s:1:1: cannot stat the stack file: %s", path, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = sb_err_set(err, -EINVAL, "%s:1:1: is a directory; expected a YAML stack file", path);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = sb_err_set(err, -EINVAL, "%s:1:1: is not a regular file; expected a YAML stack file", path);
		goto out;
	}
	if (st.st_size > SB_YAML_MAX_BYTES) {
		rc = sb_err_set(err, -EINVAL, "%s:1:1: file is %lld bytes; a stack file may be at most 1 MiB",
				path, (long long)st.st_size);
		goto out;
	}
	buf = malloc(SB_YAML_MAX_BYTES + 1);
	if (!buf) {
		rc = sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	/* read to EOF, bounded: the file may have grown since fstat */
	while (got <= SB_YAML_MAX_BYTES) {
		r = read(fd, buf + got, SB_YAML_MAX_BYTES + 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = sb_err_set(err, -EINVAL, "%s:1:1: cannot read the stack file: %s", path, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	if (got > SB_YAML_MAX_BYTES) {
		rc = sb_err_set(err, -EINVAL, "%s:1:1: file is larger than 1 MiB; a stack file may be at most 1 MiB", path);
		goto out;
	}
	rc = sb_spec_load_buffer(buf, got, path, sets, nsets, out, err);
out:
	free(buf);
	close(fd);
	return rc;
}

void sb_spec_list_free(struct sb_spec_list *l)
{
	if (!l)
		return;
	free(l->items);
	l->items = NULL;
	l->n = 0;
}
