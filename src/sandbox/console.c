/* The throwaway kernel, part three: its console. uml-init.sh frames the
 * job's stdout with markers so the kernel's own boot and halt chatter can
 * be dropped; a stop request reaches the init through UML's management
 * console. */
#include "sandbox/sandbox_int.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

void sb_sbx_write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= w;
	}
}

/* The console stream: drop everything up to MARK_START (kept in diag for
 * error messages), copy to stdout until MARK_END, drop the rest. A partial
 * marker is held back until it either completes or turns out to be data. */
void sb_sbx_diag_add(struct sb_sbx_console *c, const char *p, size_t n)
{
	if (n >= DIAG_MAX) {
		p += n - (DIAG_MAX - 1);
		n = DIAG_MAX - 1;
	}
	if (c->ndiag + n >= DIAG_MAX) {
		size_t drop = c->ndiag + n - (DIAG_MAX - 1);

		memmove(c->diag, c->diag + drop, c->ndiag - drop);
		c->ndiag -= drop;
	}
	memcpy(c->diag + c->ndiag, p, n);
	c->ndiag += n;
	c->diag[c->ndiag] = '\0';
}

static void console_emit(struct sb_sbx_console *c, const char *p, size_t n)
{
	if (c->state == 1)
		sb_sbx_write_all(STDOUT_FILENO, p, n);
	else if (c->state == 0)
		sb_sbx_diag_add(c, p, n);
}

void sb_sbx_console_byte(struct sb_sbx_console *c, char ch)
{
	const char *mark = c->state == 0 ? MARK_START : MARK_END;
	size_t mlen = strlen(mark), len, k;
	char tmp[32];

	if (c->state == 2)
		return;
	if (ch == mark[c->held]) {
		if (++c->held == mlen) {
			c->state++;
			c->held = 0;
		}
		return;
	}
	/* Mismatch: keep the longest tail of held bytes + ch that still starts
	 * the marker; everything before it was data. */
	memcpy(tmp, mark, c->held);
	tmp[c->held] = ch;
	len = c->held + 1;
	for (k = 1; k <= len; k++)
		if (!memcmp(tmp + k, mark, len - k))
			break;
	console_emit(c, tmp, k);
	c->held = len - k;
}

/* Ask the kernel to deliver SIGINT to its init (ctrl-alt-del through UML's
 * management console); uml-init.sh turns that into SIGTERM for the job. */
bool sb_sbx_mconsole_cad(const char *sock)
{
	struct {
		uint32_t magic, version, len;
		char data[512];
	} req = { 0xcafebabe, 2, 3, "cad" };
	struct sockaddr_un to = { .sun_family = AF_UNIX }, me = { .sun_family = AF_UNIX };
	bool ok;
	int fd;

	if (strlen(sock) >= sizeof(to.sun_path))
		return false;
	strcpy(to.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	/* autobind: the kernel replies to our address */
	ok = bind(fd, (struct sockaddr *)&me, sizeof(sa_family_t)) == 0 &&
		sendto(fd, &req, offsetof(__typeof__(req), data) + req.len, 0,
		       (struct sockaddr *)&to, sizeof(to)) >= 0;
	close(fd);
	return ok;
}

