/* The option tree as the walkers see it: the shared rows of options.c with
 * every registered layer's part joined in (src/spec/part.h). Assembled
 * once, on first use, into static storage; after that it is read-only. */
#include "spec/spec_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ROOT_MAX 32
#define FS_MAX 64

static struct sb_opt root_rows[ROOT_MAX], fs_rows[FS_MAX];
/* which part joined each row in (NULL: a shared row) */
static const struct sb_spec_part *root_owner[ROOT_MAX], *fs_owner[FS_MAX];
#define OWN_ROWS 32   /* rows of a copied top-level section (luks: 11, and read_ahead_kb) */
#define OWN_SUBS 8    /* its sub-sections (export: link, sshfs, smb, nfs) */

static struct sb_opt_section root_sec, fs_sec, own_secs[SB_LAYER_SLOTS];
/* an own section's rows and its sub-sections, relocated into the slot */
static struct sb_opt own_rows[SB_LAYER_SLOTS][OWN_ROWS];
static struct sb_opt_section own_subs[SB_LAYER_SLOTS][OWN_SUBS];
static const char *fs_types[SB_LAYER_SLOTS + 1];
#define BENCH_MAX 32
#define SUITES_MAX 32
static struct sb_opt bench_rows[BENCH_MAX];
static struct sb_opt_section bench_sec;
static const char *suite_names[SUITES_MAX + 1];
static bool assembled;

static size_t slot_off(unsigned i)
{
	return offsetof(struct sb_stack_spec, layer_data) + (size_t)i * SB_LAYER_DATA_MAX;
}

static int part_index(const struct sb_spec_part *p)
{
	const struct sb_spec_part *q;
	unsigned i;

	for (i = 0; (q = sb_spec_part_at(i)); i++)
		if (q == p)
			return (int)i;
	return -1;
}

void *sb_spec_layer_data(struct sb_stack_spec *s, const struct sb_spec_part *p)
{
	int i = part_index(p);

	return i < 0 || i >= SB_LAYER_SLOTS ? NULL : s->layer_data[i];
}

const void *sb_spec_layer_cdata(const struct sb_stack_spec *s, const struct sb_spec_part *p)
{
	return sb_spec_layer_data((struct sb_stack_spec *)s, p);
}

/* The read_ahead_kb row every block layer's section ends with: one row
 * for md, LVM, LUKS, integrity and cache alike, its storage the spec's
 * read_ahead_kb[] at the part's position. */
static const struct sb_opt read_ahead_row = {
	"read_ahead_kb", SB_OPT_U32, 0, sizeof(uint32_t), "0", 0, 1U << 20, NULL, NULL,
	"the layer's device's queue/read_ahead_kb, set once it is built and read back "
	"(0: the kernel's own, which md sizes from the stripe and dm takes from below)"
};

/* A top-level section's rows copied into slot i (own_rows), so they can
 * be relocated or extended. An own section's sub-sections (one level:
 * export.link, export.sshfs) have bases relative to the layer's struct:
 * each sub-section row then points at a relocated copy. A block layer's
 * section gets the read_ahead_kb row last, its offset the distance from
 * the section's base to the spec's read_ahead_kb[i] (which comes after
 * every section and slot: the distance is never negative). */
_Static_assert(offsetof(struct sb_stack_spec, read_ahead_kb) > offsetof(struct sb_stack_spec, layer_data),
	       "read_ahead_kb[] must follow every section's storage");
static void copy_rows(unsigned i, const struct sb_spec_part *p)
{
	const struct sb_opt *o;
	unsigned n = 0, ns = 0;

	for (o = own_secs[i].opts; o->key && n + 2 < OWN_ROWS; o++, n++) {
		own_rows[i][n] = *o;
		if (p->base != SB_SPEC_OWN || o->type != SB_OPT_SECTION || !o->sub || ns >= OWN_SUBS)
			continue;
		own_subs[i][ns] = *o->sub;
		own_subs[i][ns].base += slot_off(i);
		if (own_subs[i][ns].enabled_off >= 0)
			own_subs[i][ns].enabled_off += (ssize_t)slot_off(i);
		own_rows[i][n].sub = &own_subs[i][ns++];
	}
	if (p->block_device) {
		own_rows[i][n] = read_ahead_row;
		own_rows[i][n++].off = offsetof(struct sb_stack_spec, read_ahead_kb) + i * sizeof(uint32_t) -
				       own_secs[i].base;
	}
	own_rows[i][n].key = NULL;
	own_secs[i].opts = own_rows[i];
}

/* A top-level part: its one section row, in its own slot if it asks. */
static void join_root(unsigned *n, const struct sb_spec_part *p, unsigned i)
{
	struct sb_opt *r = &root_rows[(*n)++];

	root_owner[*n - 1] = p;
	*r = p->opts[0];
	if ((p->base != SB_SPEC_OWN && !p->block_device) || !r->sub)
		return;
	own_secs[i] = *r->sub;
	if (p->base == SB_SPEC_OWN) {
		own_secs[i].base += slot_off(i);
		if (own_secs[i].enabled_off >= 0)
			own_secs[i].enabled_off += (ssize_t)slot_off(i);
	}
	copy_rows(i, p);
	r->sub = &own_secs[i];
}

uint32_t sb_spec_read_ahead_kb(const struct sb_stack_spec *s, const struct sb_spec_part *p)
{
	int i = part_index(p);

	return p && p->block_device && i >= 0 && i < SB_LAYER_SLOTS ? s->read_ahead_kb[i] : 0;
}

/* A filesystem's rows join fs; their offsets become relative to fs's base
 * (unsigned wrap-around: base + off is the true offset again). */
static void join_fs(unsigned *n, const struct sb_spec_part *p, unsigned i)
{
	size_t base = p->base == SB_SPEC_OWN ? slot_off(i) : p->base;
	const struct sb_opt *o;

	for (o = p->opts; o->key && *n + 1 < FS_MAX; o++) {
		fs_rows[*n] = *o;
		fs_rows[*n].off = base + o->off - fs_sec.base;
		fs_owner[*n] = p;
		(*n)++;
	}
}

/* The bench section's rows, with bench.suites taking the suite registry's
 * names: one list of suites, wherever they are checked or listed. */
static void join_bench(struct sb_opt *row)
{
	const struct sb_opt *o;
	unsigned n = 0, i;

	for (i = 0; i < SUITES_MAX && sb_spec_suite_at(i); i++)
		suite_names[i] = sb_spec_suite_at(i);
	suite_names[i] = NULL;
	bench_sec = *row->sub;
	for (o = row->sub->opts; o->key && n + 1 < BENCH_MAX; o++, n++) {
		bench_rows[n] = *o;
		if (o->type == SB_OPT_SUITES)
			bench_rows[n].allowed = suite_names;
	}
	bench_rows[n].key = NULL;
	bench_sec.opts = bench_rows;
	row->sub = &bench_sec;
}

static void assemble(void)
{
	const struct sb_opt *o;
	const struct sb_spec_part *p;
	unsigned nr = 0, nf = 0, nt = 0, i;

	fs_sec = sb_opt_fs_shared;
	for (o = sb_opt_fs_shared.opts; o->key && nf + 1 < FS_MAX; o++)
		fs_rows[nf++] = *o;
	for (o = sb_opt_root_head; o->key; o++)
		root_rows[nr++] = *o;
	for (i = 0; (p = sb_spec_part_at(i)) && i < SB_LAYER_SLOTS; i++) {
		if (p->fs_type)
			fs_types[nt++] = p->fs_type;
		if (!p->opts || !p->opts[0].key)
			continue;
		if (!strcmp(p->parent, "fs"))
			join_fs(&nf, p, i);
		else if (nr + 4 < ROOT_MAX)
			join_root(&nr, p, i);
	}
	fs_types[nt] = NULL;
	for (i = 0; i < nf; i++)
		if (!strcmp(fs_rows[i].key, "type"))
			fs_rows[i].allowed = fs_types;
	fs_rows[nf].key = NULL;
	fs_sec.opts = fs_rows;
	for (o = sb_opt_root_tail; o->key; o++) {
		root_rows[nr] = *o;
		if (!strcmp(o->key, "fs"))
			root_rows[nr].sub = &fs_sec;
		else if (!strcmp(o->key, "bench"))
			join_bench(&root_rows[nr]);
		nr++;
	}
	root_rows[nr].key = NULL;
	root_sec = (struct sb_opt_section){ "", 0, -1, root_rows };
	assembled = true;
}

const struct sb_opt_section *sb_opt_root(void)
{
	if (!assembled)
		assemble();
	return &root_sec;
}

const char *const *sb_spec_fs_types(void)
{
	(void)sb_opt_root();
	return fs_types;
}

int sb_spec_fail_at(const struct sb_spec_ctx *c, const char *dotted, bool at_key, const char *fmt, ...)
{
	char msg[SB_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sb_spec_fail(c, sb_spec_where(c->root, dotted), at_key, "%s", msg);
}

bool sb_spec_given(const struct sb_spec_ctx *c, const char *dotted)
{
	return sb_spec_node(c->root, dotted) != NULL;
}

void sb_spec_append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strnlen(buf, len);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static const struct sb_spec_part *owner(const struct sb_opt *o)
{
	if (o >= fs_rows && o < fs_rows + FS_MAX)
		return fs_owner[o - fs_rows];
	if (o >= root_rows && o < root_rows + ROOT_MAX)
		return root_owner[o - root_rows];
	return NULL;
}

/* Run every part's check in registry order. */
int sb_spec_check_parts(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	const struct sb_spec_part *p;
	unsigned i;
	int rc;

	for (i = 0; (p = sb_spec_part_at(i)); i++)
		if (p->check && (rc = p->check(c, s)) < 0)
			return rc;
	return 0;
}

/* A filesystem's own keys make no sense under another fs.type. */
int sb_spec_check_fs_keys(const struct sb_spec_ctx *c, const struct sb_stack_spec *s)
{
	const struct sb_opt *o;
	char path[96];

	(void)sb_opt_root();
	for (o = fs_sec.opts; o->key; o++) {
		const struct sb_spec_part *p = owner(o);

		if (!p || !p->fs_type || !strcmp(p->fs_type, s->fs.type))
			continue;
		snprintf(path, sizeof(path), "fs.%s", o->key);
		if (sb_spec_given(c, path))
			return sb_spec_fail_at(c, path, true, "%s: is a key of fs.type %s, and this stack's fs.type is %s",
					       path, p->fs_type, s->fs.type);
	}
	return 0;
}

/* sb_spec_to_json leaves out another filesystem's keys. */
bool sb_spec_row_applies(const struct sb_opt *o, const struct sb_stack_spec *s)
{
	const struct sb_spec_part *p = owner(o);

	return !p || !p->fs_type || !strcmp(p->fs_type, s->fs.type);
}

const char *sb_spec_row_fs_type(const struct sb_opt *o)
{
	const struct sb_spec_part *p = owner(o);

	return p ? p->fs_type : NULL;
}

void sb_spec_summary_parts(const struct sb_stack_spec *s, char *buf, size_t len, bool prefix)
{
	const struct sb_spec_part *p;
	unsigned i;

	for (i = 0; (p = sb_spec_part_at(i)); i++) {
		void (*fn)(const struct sb_stack_spec *, char *, size_t) = prefix ? p->prefix : p->summary;

		if (fn)
			fn(s, buf, len);
	}
}

void sb_spec_json_parts(const struct sb_stack_spec *s, const struct sb_opt *row, struct json_object *obj)
{
	const struct sb_spec_part *p = owner(row);

	if (p && p->json)
		p->json(s, obj);
}

bool sb_spec_fs_spans(const struct sb_stack_spec *s)
{
	const struct sb_spec_part *p;
	unsigned i;

	for (i = 0; (p = sb_spec_part_at(i)); i++)
		if (p->fs_type && !strcmp(p->fs_type, s->fs.type))
			return p->spans_devices && p->spans_devices(s);
	return false;
}
