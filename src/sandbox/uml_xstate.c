/* LD_PRELOAD shim for linux.uml (Debian 12's user-mode-linux 6.1) on hosts
 * whose XSAVE area is larger than UML expects.
 *
 * Why: UML saves and restores its processes' FPU state with
 * ptrace(PTRACE_GETREGSET/SETREGSET, NT_X86_XSTATE) on a buffer sized for
 * the CPUs it was written for (2696 bytes). Host kernels since the x86 FPU
 * rework accept a SETREGSET only with the whole XSAVE buffer
 * (fpu_user_cfg.max_size) and return EFAULT otherwise; on a CPU with AMX
 * tile state that is 11008 bytes. UML then panics on its first process
 * ("userspace - ptrace set fp regs failed, errno = 14", "Attempted to kill
 * init!") and the throwaway kernel cannot boot at all.
 *
 * What: a SETREGSET of NT_X86_XSTATE shorter than the host's buffer is
 * completed with the traced process's own current state for the bytes UML
 * does not know about (read with GETREGSET first), so the host gets the
 * whole buffer and every byte UML set is kept. Everything else goes to the
 * kernel unchanged. With a host buffer no larger than UML's this is a pure
 * pass-through. Loaded only into linux.uml by the sandbox runner
 * (src/sandbox/run.c) and scripts/uml-run.sh, never into stackbench. */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* Not malloc: UML replaces it with its own allocator once booted. 64 KiB
 * covers the architectural maximum of today's XSAVE components. */
static __thread unsigned char full[65536] __attribute__((aligned(64)));

long ptrace(enum __ptrace_request req, ...);

long ptrace(enum __ptrace_request req, ...)
{
	va_list ap;
	pid_t pid;
	void *addr, *data;
	long r, word;

	va_start(ap, req);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);
	/* glibc's contract for the PEEK requests: the word is the return value. */
	if (req == PTRACE_PEEKTEXT || req == PTRACE_PEEKDATA || req == PTRACE_PEEKUSER) {
		r = syscall(SYS_ptrace, req, pid, addr, &word);
		if (r < 0)
			return -1;
		errno = 0;
		return word;
	}
	if (req == PTRACE_SETREGSET && (long)addr == NT_X86_XSTATE && data) {
		const struct iovec *iov = data;
		struct iovec fi = { full, sizeof(full) };

		if (iov->iov_len < sizeof(full) &&
		    syscall(SYS_ptrace, PTRACE_GETREGSET, pid, addr, &fi) == 0 &&
		    fi.iov_len > iov->iov_len) {
			memcpy(full, iov->iov_base, iov->iov_len);
			return syscall(SYS_ptrace, req, pid, addr, &fi);
		}
	}
	return syscall(SYS_ptrace, req, pid, addr, data);
}
