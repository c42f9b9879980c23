/* The renderers: each writes results, or the table model built from them,
 * in one format. Only format.c (the format table) and the commands that
 * write one format directly call them. */
#ifndef SB_REPORT_RENDER_H
#define SB_REPORT_RENDER_H

#include <stdio.h>
#include <json-c/json.h>

#include "report/table.h"
#include "util/err.h"

/* render.c: the model as aligned text or Markdown (-ENOMEM possible), CSV, JSON. */
int sb_render_grid(const struct sb_table *t, int markdown, FILE *out);
void sb_render_csv(const struct sb_table *t, FILE *out);
void sb_render_json(const struct sb_table *t, FILE *out);

/* bonnie_csv.c: one bonnie++ 1.98 CSV line per results file. */
int sb_bonnie_csv_write(struct json_object *const *results, unsigned n, FILE *out, struct sb_err *err);
/* Every fio-matrix cell of the results, each with its devices' iostat -x figures. */
int sb_fio_matrix_write(struct json_object *const *results, unsigned n, FILE *out, struct sb_err *err);

#endif
