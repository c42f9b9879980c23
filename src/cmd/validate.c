/* stackbench validate [--set K=V]... [--keys] FILE...: parse, override,
 * expand and validate every file; one line per stack on stdout, every bad
 * file reported on stderr; fails (exit 2) if any file was bad. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sizing.h"
#include "cmd/cmd.h"
#include "spec/spec.h"
#include "util/log.h"
#include "util/units.h"

/* A bench.size no larger than the devices (check.c refuses that) can still
 * not fit in the filesystem once md, LVM, LUKS and ext4 took their share:
 * say so now rather than after the build. */
static void warn_fit(const char *file, const struct sb_stack_spec *s)
{
	uint64_t fs = sb_spec_fs_free_estimate(s);
	char a[32], b[32];

	if (!s->bench.size || !fs || s->bench.size <= sb_sizing_room(fs))
		return;
	sb_size_format_human(s->bench.size, a, sizeof(a));
	sb_size_format_human(fs, b, sizeof(b));
	sb_warn("%s: %s: bench.size %s will not fit: this stack's filesystem will have about %s free "
		"(estimated); use a smaller bench.size or 0 (automatic: what fits)", file, s->name, a, b);
}

int sb_cmd_validate(int argc, char **argv, struct sb_err *err)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "keys", no_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	struct sb_err last = { 0 };
	const char **sets = NULL;
	unsigned nsets = 0, i;
	int c, rc = 0, keys = 0, nbad = 0;

	sets = calloc((size_t)argc, sizeof(*sets));
	if (!sets)
		return sb_err_set(err, -ENOMEM, "out of memory");
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 's': sets[nsets++] = optarg; break;
		case 'k': keys = 1; break;
		default:
			rc = sb_err_set(err, -EINVAL, "usage: stackbench validate [--set KEY=VALUE]... [--keys] STACK.yml...");
			goto out;
		}
	}
	if (keys) {
		sb_spec_print_keys(stdout);
		if (optind >= argc)
			goto out;
	}
	if (optind >= argc) {
		rc = sb_err_set(err, -EINVAL, "validate: no stack file given; usage: stackbench validate [--set KEY=VALUE]... STACK.yml...");
		goto out;
	}
	for (; optind < argc; optind++) {
		struct sb_err e = { 0 };
		struct sb_spec_list l;
		char sum[512];

		if (sb_spec_load(argv[optind], sets, nsets, &l, &e) < 0) {
			/* keep the order: the last bad file's message goes back to
			 * main.c, every earlier one is printed as the next arrives */
			if (nbad++) {
				fflush(stdout);
				fprintf(stderr, "stackbench: %s\n", last.msg);
			}
			last = e;
			continue;
		}
		for (i = 0; i < l.n; i++) {
			sb_spec_summary(&l.items[i], sum, sizeof(sum));
			printf("ok %s: %s: %s\n", argv[optind], l.items[i].name, sum);
			fflush(stdout);
			warn_fit(argv[optind], &l.items[i]);
		}
		sb_spec_list_free(&l);
	}
	fflush(stdout);
	if (nbad)
		rc = sb_err_set(err, last.code, "%s", last.msg);
out:
	free(sets);
	return rc;
}
