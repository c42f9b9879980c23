/* Locked, non-dumpable key memory. See secret.h. */
#include "sys/secret.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <unistd.h>

/* Each buffer carries its mapping length in a header page-prefix so free()
 * needs only the pointer, like crypt_safe_free. */
struct secret_hdr {
	size_t maplen;
	uint64_t magic;
};

#define SECRET_MAGIC 0x5342534543524554ULL /* "SBSECRET" */

static unsigned held;
static int saved_dumpable = -1;

static size_t page_round(size_t n)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t p = pg > 0 ? (size_t)pg : 4096;

	return (n + p - 1) / p * p;
}

void *sb_secret_alloc(size_t size)
{
	size_t maplen = page_round(size + sizeof(struct secret_hdr));
	struct secret_hdr *h;

	h = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (h == MAP_FAILED)
		return NULL;
	/* Locked so the key never reaches swap; a failure here is a failure,
	 * not a warning: the caller must not hold a key in swappable memory. */
	if (mlock(h, maplen) < 0) {
		int e = errno;

		munmap(h, maplen);
		errno = e;
		return NULL;
	}
	(void)madvise(h, maplen, MADV_DONTDUMP);
	(void)madvise(h, maplen, MADV_DONTFORK);
	h->maplen = maplen;
	h->magic = SECRET_MAGIC;
	if (held++ == 0) {
		saved_dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
		(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	}
	return h + 1;
}

void sb_secret_free(void *p)
{
	struct secret_hdr *h;
	size_t maplen;

	if (!p)
		return;
	h = (struct secret_hdr *)p - 1;
	if (h->magic != SECRET_MAGIC)
		return; /* not ours: better leak than unmap a stranger */
	maplen = h->maplen;
	explicit_bzero(h, maplen);
	munlock(h, maplen);
	munmap(h, maplen);
	if (held && --held == 0 && saved_dumpable >= 0) {
		(void)prctl(PR_SET_DUMPABLE, saved_dumpable, 0, 0, 0);
		saved_dumpable = -1;
	}
}

unsigned sb_secret_held(void)
{
	return held;
}

int sb_secret_random(void *p, size_t size, struct sb_err *err)
{
	unsigned char *b = p;
	size_t done = 0;

	while (done < size) {
		ssize_t n = getrandom(b + done, size - done, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return sb_err_sys(err, -errno, "getrandom");
		}
		done += (size_t)n;
	}
	return 0;
}
