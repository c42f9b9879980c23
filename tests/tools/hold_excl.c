/* Test helper: hold a block device open with O_EXCL (the kernel's exclusive
 * claim, as mount, md and mkfs take it) until killed.
 *   hold_excl DEV      prints "ready" on stdout once the claim is held. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DEV\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "hold_excl: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
