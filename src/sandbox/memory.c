/* Memory touched once before it is measured through, on both sides of the
 * throwaway kernel, so figures do not depend on which stack ran first.
 *
 * Inside: user-mode-linux's memory is a sparse file on the host's /dev/shm.
 * The first time the kernel uses one of its pages, the host allocates it:
 * a page-cache page written by the first benchmark costs a host page fault
 * and a zeroed host page on top of the copy. One boot (ext4 on a ubd backed
 * by a host tmpfs, 2 GiB guest, dd 256 MiB conv=fdatasync, caches dropped
 * between passes, 2026-12-01): the first pass wrote 226 MB/s against
 * 666-1100 for the next seven; with the free memory touched beforehand the
 * first pass wrote 666.
 *
 * Outside: the host may itself be a virtual machine whose memory its
 * hypervisor backs on first touch (this project's CI machine is one): 6 GiB
 * written into a fresh /dev/shm file went at 799 MB/s the first time and
 * 2.0-2.1 GB/s the next two. The throwaway kernel's memory and its member
 * files (tmpfs pages, or the page cache of files on a disk) are new host
 * pages; the first stack of a run paid for them: its first repetition's dd
 * write at 0.50-0.58 x its later ones in the relations benchmark, the
 * second stack's 0.84-0.90 x, the later ones' about 1.
 *
 * So the run touches the memory it will use once, and gives it back: the
 * kernel hands freed pages out again first. */
#include "sandbox/sandbox_int.h"
#include "util/clock.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23   /* Linux 5.14 */
#endif

/* Touch each page of [p, p+len) with a write: where MADV_POPULATE_WRITE
 * is not known to the kernel. */
static void touch_pages(unsigned char *p, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t off;

	for (off = 0; off < len; off += (size_t)(pg > 0 ? pg : 4096))
		p[off] = 1;
}

int sb_sbx_touch_memory(uint64_t want, uint64_t keep_min, struct sb_mem_touch *w, struct sb_err *err)
{
	struct sysinfo si;
	uint64_t freeb, keep, t0;
	void *p;

	memset(w, 0, sizeof(*w));
	if (sysinfo(&si) < 0)
		return sb_err_sys(err, -errno, "sandbox: sysinfo");
	freeb = (uint64_t)si.freeram * si.mem_unit;
	w->free_bytes = freeb;
	/* what the kernel keeps for itself meanwhile: a sixteenth of what is
	 * free, at least keep_min, so nothing is reclaimed or killed for it */
	keep = freeb / 16 > keep_min ? freeb / 16 : keep_min;
	if (freeb <= keep)
		return 0;
	w->bytes = (want < freeb - keep ? want : freeb - keep) & ~((uint64_t)(1 << 20) - 1);
	if (!w->bytes)
		return 0;
	t0 = sb_clock_ns();
	p = mmap(NULL, w->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		w->bytes = 0;
		return sb_err_sys(err, -errno, "sandbox: cannot map %llu bytes to touch free memory",
				  (unsigned long long)w->bytes);
	}
	if (madvise(p, w->bytes, MADV_POPULATE_WRITE) < 0) {
		if (errno != EINVAL) {
			int e = errno;

			munmap(p, w->bytes);
			w->bytes = 0;
			return sb_err_sys(err, -e, "sandbox: touching free memory");
		}
		touch_pages(p, w->bytes);
	}
	munmap(p, w->bytes);
	w->ns = sb_clock_ns() - t0;
	return 0;
}

int sb_sandbox_guest_warm(struct sb_mem_touch *w, struct sb_err *err)
{
	return sb_sbx_touch_memory(UINT64_MAX, 64ULL << 20, w, err);
}
