/* stackbench report: results files (or directories of them, as compare
 * takes them) -> one self-contained HTML page. The table on it is
 * compare's, with the same --columns and --baseline. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/args.h"
#include "report/html.h"
#include "util/log.h"
#include "util/text.h"

/* -o -: the page goes through the terminal filter compare's stdout goes
 * through (util/text.c): names and notes from other machines' results files
 * are escaped for HTML, but an ESC or BEL in them is not HTML's business and
 * would reach the terminal the page is printed on. */
static int page_to_stdout(const struct sb_loaded *l, struct sb_table_opts *o, struct sb_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int r;

	if (!mem)
		return sb_err_sys(err, -errno, "report -o -");
	r = sb_html_render(l->res, o->paths, l->n, o, mem, err);
	if (fclose(mem) != 0 && r == 0)
		r = sb_err_sys(err, -errno, "report -o -");
	if (r == 0) {
		sb_text_term_write(stdout, buf, len);
		if (fflush(stdout) != 0 || ferror(stdout))
			r = sb_err_sys(err, -EIO, "report -o -: writing to stdout");
	}
	free(buf);
	return r;
}

static int write_page(const struct sb_loaded *l, struct sb_table_opts *o, const char *path,
		      struct sb_err *err)
{
	bool to_stdout = path[0] == '-' && !path[1];
	int r;

	o->paths = (const char *const *)l->paths;
	if (to_stdout)
		return page_to_stdout(l, o, err);
	r = sb_html_write(l->res, o->paths, l->n, o, path, err);
	if (r == 0)
		sb_info("report written to %s (%u results file%s)", path, l->n, l->n == 1 ? "" : "s");
	return r;
}

/* The options, with the words `stackbench help report` shows for each. */
static const struct sb_optdef opts[] = {
	{ "output", 'o', true, 'o', "FILE.html", "the page to write (- for stdout)" },
	{ "columns", 0, true, 'c', "LIST", "the table's columns" },
	{ "baseline", 0, true, 'b', "NAME", "the stack the others are compared with" },
	{ NULL, 0, false, 0, NULL, NULL },
};

int sb_cmd_report(int argc, char **argv, struct sb_err *err)
{
	struct sb_table_opts o = { .format = SB_FMT_HTML };
	struct sb_loaded l = { 0 };
	struct sb_args a;
	const char *path = NULL, *val;
	int c, r = 0;

	if (sb_args_init(&a, argc, argv, 1, opts, "report", err) < 0)
		return -ENOMEM;
	while (r == 0 && (c = sb_args_next(&a, &val, err)) > 0) {
		switch (c) {
		case 'o': path = val; break;
		case 'c': o.columns = val; break;
		case 'b': o.baseline = val; break;
		}
	}
	if (r == 0 && c < 0)
		r = c;
	if (r == 0 && !path)
		r = sb_args_usage_error("report", err, "name the page to write with -o FILE.html ('-' for stdout)");
	if (r == 0 && !a.npos)
		r = sb_args_usage_error("report", err, "name at least one results file or directory");
	if (r == 0)
		r = sb_cmd_results_load(a.pos, (unsigned)a.npos, &l, err);
	if (r == 0)
		r = write_page(&l, &o, path, err);
	sb_cmd_results_free(&l);
	sb_args_free(&a);
	return r;
}

const struct sb_cmd sb_cmd_report_row = {
	.name = "report",
	.fn = sb_cmd_report,
	.flags = 0,
	.opts = opts,
	.summary = "write one self-contained HTML page from results files",
	.usage =
	  "usage: stackbench report -o FILE.html [--columns LIST] [--baseline NAME] RESULTS...\n"
	  "  RESULTS: results files or directories of them, as compare takes them. The page has\n"
	  "  compare's table (same --columns and --baseline), a chart per figure group, each stack\n"
	  "  as asked and as read back, its host, notes and command line, device statistics per\n"
	  "  phase and the per-layer view; no network, scripts or fonts from elsewhere.\n"
	  "  -o - writes it to stdout. `compare --format html` prints the same page.\n",
};
