/* Test entry point for the real-disk safety checks until the CLI wires them:
 *   safety_probe [--wipe] [--destroy-data=LIST] [--interactive] DEV...
 * Runs sb_safety_check_disks. On success prints "OK" and one line per disk
 * (name node size model serial) on stdout, exit 0. On refusal prints
 * "REFUSED <ERRNO-NAME>" on stdout and the message on stderr, exit 1.
 * Usage errors exit 2. --interactive reads the confirmation from stdin. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/safety.h"
#include "util/err.h"

static const char *errname(int code)
{
	if (code == -SB_EREFUSED)
		return "EREFUSED";
	switch (-code) {
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case ECANCELED: return "ECANCELED";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EROFS: return "EROFS";
	case EIO: return "EIO";
	default: return "OTHER";
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "wipe", no_argument, NULL, 'w' },
		{ "destroy-data", required_argument, NULL, 'd' },
		{ "interactive", no_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	struct sb_disk_info *infos;
	struct sb_err err = { 0 };
	const char *destroy = NULL;
	bool wipe = false, interactive = false;
	unsigned n, i;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'w': wipe = true; break;
		case 'd': destroy = optarg; break;
		case 'i': interactive = true; break;
		default:
			fprintf(stderr, "usage: %s [--wipe] [--destroy-data=LIST] [--interactive] DEV...\n", argv[0]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: %s [--wipe] [--destroy-data=LIST] [--interactive] DEV...\n", argv[0]);
		return 2;
	}
	n = (unsigned)(argc - optind);
	infos = calloc(n, sizeof(*infos));
	if (!infos)
		return 1;
	rc = sb_safety_check_disks((const char *const *)argv + optind, n, wipe, destroy, interactive,
				   infos, &err);
	if (rc) {
		printf("REFUSED %s\n", errname(rc));
		fprintf(stderr, "safety_probe: %s\n", err.msg);
		free(infos);
		return 1;
	}
	printf("OK\n");
	for (i = 0; i < n; i++)
		printf("%s %s %llu lbs=%u pbs=%u model=%s serial=%s\n", infos[i].name, infos[i].resolved,
		       (unsigned long long)infos[i].size_bytes, infos[i].logical_block_size,
		       infos[i].physical_block_size, infos[i].model, infos[i].serial);
	free(infos);
	return 0;
}
