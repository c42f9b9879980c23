/* stackbench report: results files (or directories of them, as compare
 * takes them) -> one self-contained HTML page. The table on it is
 * compare's, with the same --columns and --baseline. */
#include "cmd/cmd.h"

#include <getopt.h>
#include <stdio.h>

#include "report/html.h"
#include "util/log.h"

int sb_cmd_report(int argc, char **argv, struct sb_err *err)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "columns", required_argument, NULL, 'c' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sb_table_opts o = { .format = SB_FMT_HTML };
	struct sb_loaded l = { 0 };
	const char *path = NULL;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': path = optarg; break;
		case 'c': o.columns = optarg; break;
		case 'b': o.baseline = optarg; break;
		case 'h':
			sb_cmd_print_usage(sb_cmd_find("report"));
			return 0;
		default:
			return sb_err_set(err, -EINVAL, "report: unknown or incomplete option '%s' (see stackbench report --help)",
					  argv[optind - 1]);
		}
	}
	if (!path)
		return sb_err_set(err, -EINVAL, "report: name the page to write with -o FILE.html ('-' for stdout)");
	if (optind >= argc)
		return sb_err_set(err, -EINVAL, "report: name at least one results file or directory");
	r = sb_cmd_results_load(argv + optind, (unsigned)(argc - optind), &l, err);
	if (r < 0)
		return r;
	o.paths = (const char *const *)l.paths;
	if (path[0] == '-' && !path[1])
		r = sb_html_render(l.res, o.paths, l.n, &o, stdout, err);
	else
		r = sb_html_write(l.res, o.paths, l.n, &o, path, err);
	if (r == 0 && !(path[0] == '-' && !path[1]))
		sb_info("report written to %s (%u results file%s)", path, l.n, l.n == 1 ? "" : "s");
	sb_cmd_results_free(&l);
	return r;
}
