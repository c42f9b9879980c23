/* See backup.h. */
#include "report/backup.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/results.h"
#include "report/table.h"
#include "util/units.h"

static const char *const tools[] = { "cp", "rsync", "curl" };
/* what the user copies: a tree of photos (the usual backup) or one file */
static const char *const kinds[][2] = {
	{ "tree_in", "photos in" }, { "tree_out", "photos out" },
	{ "file_in", "large file in" }, { "file_out", "large file out" },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

void sb_backup_duration(double s, char *buf, size_t len)
{
	double m = floor(s / 60 + 0.5);

	if (s < 90)
		snprintf(buf, len, "%.0f s", s < 1 ? 1 : s);
	else if (s < 3600)
		snprintf(buf, len, "%.0f min %.0f s", floor(s / 60), fmod(floor(s + 0.5), 60));
	else if (m < 48 * 60)
		snprintf(buf, len, "%.0f h %.0f min", floor(m / 60), fmod(m, 60));
	else
		snprintf(buf, len, "%.0f d %.0f h", floor(m / 1440), fmod(floor(m / 60 + 0.5), 24));
}

/* Whether two results files are of one row: the same stack on the same host
 * (a fleet's files of one stack from two hosts are two rows). */
static bool same_row(struct json_object *a, struct json_object *b)
{
	return !strcmp(sb_results_stack_name(a), sb_results_stack_name(b)) &&
	       !strcmp(sb_results_host_name(a), sb_results_host_name(b));
}

/* Median MB/s of copy figure `name` over the files of row0's row. */
static double median_of(struct json_object *const *res, unsigned n, struct json_object *row0, const char *name)
{
	double v[256];
	unsigned k = 0;

	for (unsigned f = 0; f < n; f++) {
		struct json_object *suites, *s, *fig, *val;

		if (!same_row(res[f], row0) ||
		    !json_object_object_get_ex(res[f], "suites", &suites) || !json_object_is_type(suites, json_type_array))
			continue;
		for (size_t i = 0; i < json_object_array_length(suites) && k < 256; i++) {
			s = json_object_array_get_idx(suites, i);
			if (json_object_object_get_ex(s, "figures", &fig) && json_object_object_get_ex(fig, name, &fig) &&
			    json_object_object_get_ex(fig, "value", &val) && json_object_get_double(val) > 0)
				v[k++] = json_object_get_double(val);
		}
	}
	return k ? sb_stats_median(v, k) : -1;
}

static void print_row(struct json_object *const *res, unsigned n, struct json_object *row0,
		      const char *stack, const char *tool, uint64_t bytes, FILE *f)
{
	char name[64], cell[NKINDS][64], d[32];
	bool any = false;

	for (unsigned k = 0; k < NKINDS; k++) {
		double mbs;

		snprintf(name, sizeof(name), "%s_%s", tool, kinds[k][0]);
		mbs = median_of(res, n, row0, name);
		if (mbs <= 0) {
			snprintf(cell[k], sizeof(cell[k]), "-");
			continue;
		}
		any = true;
		sb_backup_duration((double)bytes / (mbs * 1e6), d, sizeof(d));
		snprintf(cell[k], sizeof(cell[k]), "%s (%.0f MB/s)", d, mbs);
	}
	if (any)
		fprintf(f, "%-28s %-6s %-24s %-24s %-24s %s\n", stack, tool, cell[0], cell[1], cell[2], cell[3]);
}

static bool many_hosts(struct json_object *const *res, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		if (strcmp(sb_results_host_name(res[0]), sb_results_host_name(res[i])))
			return true;
	return false;
}

unsigned sb_backup_render(struct json_object *const *res, unsigned n, uint64_t bytes, FILE *f)
{
	unsigned stacks = 0;
	char human[32];
	bool hosts = many_hosts(res, n);

	sb_size_format_human(bytes, human, sizeof(human));
	fprintf(f, "\nA backup of %s (%.4g TB, %llu bytes) at the copy suite's speeds "
		"(median MB/s = 10^6 bytes/s); in = onto the stack, out = off it:\n",
		human, (double)bytes / 1e12, (unsigned long long)bytes);
	fprintf(f, "%-28s %-6s %-24s %-24s %-24s %s\n", "stack", "tool", kinds[0][1], kinds[1][1], kinds[2][1],
		kinds[3][1]);
	for (unsigned i = 0; i < n; i++) {
		bool seen = false, has = false;
		char stack[256];

		for (unsigned j = 0; j < i && !seen; j++)
			seen = same_row(res[j], res[i]);
		if (seen)
			continue;
		if (hosts)
			snprintf(stack, sizeof(stack), "%s on %s", sb_results_stack_name(res[i]),
				 sb_results_host_name(res[i]));
		else
			snprintf(stack, sizeof(stack), "%s", sb_results_stack_name(res[i]));
		for (unsigned t = 0; t < 3; t++) {
			char name[32];

			snprintf(name, sizeof(name), "%s_tree_in", tools[t]);
			has |= median_of(res, n, res[i], name) > 0;
			print_row(res, n, res[i], stack, tools[t], bytes, f);
		}
		stacks += has;
	}
	if (!stacks)
		fprintf(f, "(no results here have copy suite figures: run the stacks with bench.suites: [copy])\n");
	else
		fprintf(f, "Each time is the size over the rate measured copying the suite's files (3-8 MiB "
			"photos, one large file); a real backup also pays for how full the disks are and any other load.\n");
	return stacks;
}
