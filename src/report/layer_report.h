/* What a layer tells the report about itself (device-mapper's target_type,
 * fio's ioengine_ops): its columns of the comparison table, the keys where
 * the stack as asked and as read back may differ, the roles of the devices
 * it makes, the keys that rebuild its stack. A layer's ops carry one
 * (core/layer.h .report), defined in the layer's own file; report/ reaches
 * them through sb_report_layer_at, which core implements over the registry
 * (as spec/ reaches the parts through sb_spec_part_at), and never names a
 * layer. */
#ifndef SB_REPORT_LAYER_REPORT_H
#define SB_REPORT_LAYER_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

struct sb_cell;

/* What a layer's column reads: the results files of one stack (n >= 1). */
struct sb_layer_cells {
	const char *layer;             /* the layer's name (stack.built[].layer) */
	const char *section;           /* its section of stack.requested, or NULL */
	struct json_object *const *res;
	unsigned n;
};

/* One column of the comparison table (compare --columns NAME). */
struct sb_layer_column {
	const char *name;
	const char *header;
	const char *unit;              /* "" for a text column */
	int numeric;
	void (*cell)(const struct sb_layer_cells *in, struct sb_cell *cell);
	const char *note;              /* what the cell says and where it comes from */
	int stack_default;             /* in the default table, after "setup" (the Helios4 columns) */
};

/* One "asked != read back" check: a key of the layer's section of
 * stack.requested, a key of its stack.built object, and what the sentence
 * calls it. Compared as text, ignoring case, when both are there. */
struct sb_layer_check {
	const char *asked, *got, *what;
};

/* A difference found by a layer's check callback. */
typedef void (*sb_layer_differs_fn)(void *ctx, const char *what, const char *asked, const char *got);

/* A key of the layer's section that rebuilds its stack as it was ("loop.size":
 * --set devices.loop.size=...); size: written in IEC units. */
struct sb_layer_rerun {
	const char *key;
	int size;
};

/* Where a kernel device stands in the device statistics (html_dev.c),
 * bottom of the stack first. */
enum sb_dev_rank {
	SB_DEV_MEMBER = 0,     /* a member of an array */
	SB_DEV_OTHER = 1,      /* any other device */
	SB_DEV_ARRAY = 2,      /* an array made of members */
	SB_DEV_MAPPER = 3,     /* a device-mapper device (dm-N) */
};

struct sb_layer_report {
	/* Its columns, ended by a row without name; NULL: none. */
	const struct sb_layer_column *columns;
	/* Its asked/read-back pairs, ended by a row without asked. */
	const struct sb_layer_check *checks;
	/* Checks that need more than one key each: asked is its section of
	 * stack.requested (may be NULL), built its stack.built object. */
	void (*check)(struct json_object *asked, struct json_object *built, sb_layer_differs_fn fn, void *ctx);
	/* The rank of kernel device dev (a disk_util name) in this layer and
	 * its role's word ("RAID member"), or -1 when it is not this layer's;
	 * built is its stack.built object, NULL when the file has none. */
	int (*dev_role)(struct json_object *built, const char *dev, const char **word);
	/* Keys that rebuild the stack at the same size, ended by a NULL key. */
	const struct sb_layer_rerun *rerun;
};

/* The i-th layer of the registry (from 0): its name, its section of
 * stack.requested and its report rows (NULL: none); false past the end.
 * Implemented in core/layer_label.c over the registry. */
struct sb_report_layer {
	const char *name, *section;
	const struct sb_layer_report *r;
};
bool sb_report_layer_at(unsigned i, struct sb_report_layer *out);

/* columns.c, for a layer's cell: its stack.built object in file f (NULL:
 * not built), its section of stack.requested in file f (NULL: absent or
 * {"enabled": false}); a text cell; a numeric cell from n values (the
 * non-finite ones left out). */
struct json_object *sb_layer_cells_built(const struct sb_layer_cells *in, unsigned f);
struct json_object *sb_layer_cells_asked(const struct sb_layer_cells *in, unsigned f);
void sb_cell_set_str(struct sb_cell *cell, const char *s);
void sb_cell_set_values(struct sb_cell *cell, const double *v, unsigned n);
/* "setup" and the layers' stack_default columns: the default table's
 * columns before the suites' figures ("setup,luks_sector,cipher"). */
const char *sb_column_stack_defaults(void);

#endif
