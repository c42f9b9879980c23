/* fio's net engine (engines/net.c), TCP and UDP over IPv4 or IPv6: no
 * file; a job either listens (listen, or a UDP reader: fio's listen =
 * td_read) on port (+ the thread's number, fio's subjob_number) or sends
 * to hostname:port. Each io is one send/recv of bs bytes (TCP: recv with
 * MSG_WAITALL; send with MSG_MORE while more is to come, as fio's), UDP
 * one datagram. The listener accepts (the UDP reader waits for fio's
 * link-open message) and the writer connects when the job thread is set
 * up, before its clock starts, as fio's open_file; a UDP writer ends with
 * fio's link-close message, and a
 * reader that gets it (or a TCP reader whose peer closed) is done, as
 * fio's td->done. Random, mixed and UDP-listen jobs are refused as fio
 * refuses them; protocol=unix, netsplice and the tuning options (nodelay,
 * window_size, mss, pingpong, ttl, interface) stay refused by name. */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench/engine_int.h"
#include "bench/jobopt.h"

#define LINK_MAGIC 0x6c696e6bU /* fio's FIO_LINK_OPEN_CLOSE_MAGIC */
#define LINK_CLOSE 0x89U
#define LINK_OPEN 0x98U
#define NET_WAIT_MS 60000      /* a peer that never comes: give up after 60 s */

enum { NET_TCP, NET_TCPV6, NET_UDP, NET_UDPV6 };

static int cb_proto(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	static const char *const names[] = { "tcp", "tcpv6", "udp", "udpv6" };
	unsigned i;

	for (i = 0; i < 4; i++)
		if (!strcmp(v, names[i])) {
			j->net.proto = (uint8_t)i;
			return 0;
		}
	if (!strcmp(v, "unix"))
		return sb_err_set(err, -EINVAL, "not supported by stackbench job: protocol=unix");
	return sb_err_set(err, -EINVAL, "--%s: '%s' is not tcp, tcpv6, udp, udpv6 or unix", o->name, v);
}

const struct jopt sb_jopts_net[] = {
	{ "hostname", NULL, JT_STR, F(net.hostname), 0, 0, NULL, "net: the host to send to", NULL },
	{ "port", NULL, JT_U32, F(net.port), 1, 65535, NULL, "net: the port (+ the thread's number)", NULL },
	{ "protocol", "proto", JT_CB, NOF, 0, 0, "tcp", "net: tcp, tcpv6, udp or udpv6", cb_proto },
	{ "listen", NULL, JT_BOOL, F(net.listen), 0, 0, "0", "net: TCP: wait for the peer to connect", NULL },
	{ NULL, NULL, 0, NOF, 0, 0, NULL, NULL, NULL },
};

struct nt {
	int lfd, fd;
	bool udp, v6, listen, open;
	struct sockaddr_storage addr;
	socklen_t alen;
	uint64_t sent;
};

static int net_check(struct sb_job_opts *o, struct sb_err *err)
{
	bool udp = o->net.proto >= NET_UDP;

	/* fio_netio_init's refusals */
	if (sb_rw_random(o->rw))
		return sb_err_set(err, -EINVAL, "job %s: network IO can't be random", o->name);
	if (!o->net.port)
		return sb_err_set(err, -EINVAL, "job %s: network IO requires port for tcp or udp", o->name);
	if (udp && o->net.listen)
		return sb_err_set(err, -EINVAL, "job %s: listen only valid for TCP proto IO", o->name);
	if (udp && o->rw == SB_RW_RW)
		return sb_err_set(err, -EINVAL, "job %s: datagram network connections must be read OR write", o->name);
	if (o->net.port + o->numjobs - 1 > 65535)
		return sb_err_set(err, -EINVAL, "job %s: port %u + %u threads is past 65535", o->name, o->net.port,
				  o->numjobs);
	if (!o->size)
		return sb_err_set(err, -EINVAL, "job %s: the net engine needs size=", o->name);
	if (!(udp ? o->rw != SB_RW_WRITE : o->net.listen) && !o->net.hostname[0])
		return sb_err_set(err, -EINVAL, "job %s: the net engine needs hostname= (or listen)", o->name);
	return 0;
}

static int net_open(const struct sb_job_opts *o, struct worker *w, struct sb_err *err)
{
	(void)err;
	snprintf(w->path, sizeof(w->path), "net");
	w->fd = -1;
	w->lbs = 512;
	w->start = 0;
	w->len = o->size - o->size % o->bs;
	return 0;
}

/* the peer's address (fio's fio_fill_addr: a literal, else getaddrinfo) */
static int resolve(struct worker *w, struct nt *n, const char *host, uint16_t port)
{
	struct addrinfo hints = { .ai_family = n->v6 ? AF_INET6 : AF_INET,
				  .ai_socktype = n->udp ? SOCK_DGRAM : SOCK_STREAM }, *res;
	int rc = getaddrinfo(host, NULL, &hints, &res);

	if (rc)
		return sb_err_set(&w->err, -EINVAL, "net: %s: %s", host, gai_strerror(rc));
	memcpy(&n->addr, res->ai_addr, res->ai_addrlen);
	n->alen = res->ai_addrlen;
	freeaddrinfo(res);
	if (n->v6)
		((struct sockaddr_in6 *)&n->addr)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)&n->addr)->sin_port = htons(port);
	return 0;
}

/* the listener's (or UDP reader's) socket, bound before the jobs start */
static int bind_any(struct worker *w, struct nt *n, uint16_t port)
{
	int one = 1, fd = socket(n->v6 ? AF_INET6 : AF_INET, n->udp ? SOCK_DGRAM : SOCK_STREAM, 0);

	if (fd < 0)
		return sb_err_sys(&w->err, -errno, "net: socket");
	memset(&n->addr, 0, sizeof(n->addr));
	if (n->v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&n->addr;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_any;
		a->sin6_port = htons(port);
		n->alen = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&n->addr;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_ANY);
		a->sin_port = htons(port);
		n->alen = sizeof(*a);
	}
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&n->addr, n->alen) < 0 || (!n->udp && listen(fd, 1) < 0)) {
		int rc = sb_err_sys(&w->err, -errno, "net: bind/listen on port %u", port);

		close(fd);
		return rc;
	}
	if (n->udp)
		n->fd = fd;
	else
		n->lfd = fd;
	return 0;
}

static int net_connect(struct worker *w, struct nt *n);

/* fio's init and open_file: the sockets, then accept or connect (and UDP's
 * link-open message) before the job's clock starts, as fio's, whose
 * runtime counts from the file's open; a listener waits for its peer (a
 * writer with startdelay comes later: it is not in the start gate) */
static int net_setup(struct worker *w, struct slot *slots, unsigned depth)
{
	const struct sb_job_opts *o = w->o;
	struct nt *n = calloc(1, sizeof(*n));
	uint16_t port = (uint16_t)(o->net.port + w->idx);
	int rc;

	(void)slots;
	(void)depth;
	if (!n)
		return sb_err_set(&w->err, -ENOMEM, "out of memory");
	n->lfd = n->fd = -1;
	n->udp = o->net.proto >= NET_UDP;
	n->v6 = o->net.proto == NET_TCPV6 || o->net.proto == NET_UDPV6;
	n->listen = n->udp ? o->rw != SB_RW_WRITE : o->net.listen;
	w->ioe_data = n;
	if (n->listen) {
		if ((rc = bind_any(w, n, port)) < 0)
			return rc;
	} else {
		if ((rc = resolve(w, n, o->net.hostname, port)) < 0)
			return rc;
		n->fd = socket(n->v6 ? AF_INET6 : AF_INET, n->udp ? SOCK_DGRAM : SOCK_STREAM, 0);
		if (n->fd < 0)
			return sb_err_sys(&w->err, -errno, "net: socket");
	}
	return net_connect(w, n);
}

/* wait until fd has events, the job is stopped, or NET_WAIT_MS */
static int wait_for(struct worker *w, int fd, short events, const char *what)
{
	struct pollfd p = { .fd = fd, .events = events };
	int waited = 0, r;

	while ((r = poll(&p, 1, 100)) == 0 || (r < 0 && errno == EINTR)) {
		if ((w->o->terminate && atomic_load(w->o->terminate)) || (waited += 100) >= NET_WAIT_MS)
			return sb_err_set(&w->err, -ETIMEDOUT, "net: no %s in %d s", what, NET_WAIT_MS / 1000);
	}
	return r < 0 ? sb_err_sys(&w->err, -errno, "net: poll") : 0;
}

/* fio's open_file: accept, connect, and UDP's link-open message */
static int net_connect(struct worker *w, struct nt *n)
{
	uint32_t msg[2] = { htonl(LINK_MAGIC), htonl(LINK_OPEN) };
	int rc;

	if (n->listen && !n->udp) {
		if ((rc = wait_for(w, n->lfd, POLLIN, "connection")) < 0)
			return rc;
		if ((n->fd = accept(n->lfd, NULL, NULL)) < 0)
			return sb_err_sys(&w->err, -errno, "net: accept");
	} else if (n->listen) {
		if ((rc = wait_for(w, n->fd, POLLIN, "UDP link-open message")) < 0)
			return rc;
		n->alen = sizeof(n->addr);
		if (recvfrom(n->fd, msg, sizeof(msg), MSG_WAITALL, (struct sockaddr *)&n->addr, &n->alen) !=
			    sizeof(msg) || ntohl(msg[0]) != LINK_MAGIC || ntohl(msg[1]) != LINK_OPEN)
			return sb_err_set(&w->err, -EPROTO, "net: bad udp open magic %x/%x", ntohl(msg[0]),
					  ntohl(msg[1]));
	} else if (n->udp) {
		if (sendto(n->fd, msg, sizeof(msg), 0, (struct sockaddr *)&n->addr, n->alen) < 0)
			return sb_err_sys(&w->err, -errno, "net: sendto udp link open");
	} else {
		/* the listener of the same start may not be listening yet */
		for (int tries = 0; connect(n->fd, (struct sockaddr *)&n->addr, n->alen) < 0; tries++)
			if (errno != ECONNREFUSED || tries == NET_WAIT_MS / 50)
				return sb_err_sys(&w->err, -errno, "net: connect to %s port %u", w->o->net.hostname,
						  w->o->net.port + w->idx);
			else
				usleep(50000);
	}
	n->open = true;
	return 0;
}

/* fio's is_close_msg */
static bool is_close(const void *buf, ssize_t len)
{
	uint32_t m[2];

	if (len != (ssize_t)sizeof(m))
		return false;
	memcpy(m, buf, sizeof(m));
	return le32toh(m[0]) == LINK_MAGIC && le32toh(m[1]) == LINK_CLOSE;
}

static long net_queue(struct worker *w, struct iocb *cb)
{
	struct nt *n = w->ioe_data;
	size_t len = cb->u.c.nbytes;
	ssize_t r;
	int rc;

	if (cb->aio_lio_opcode == IO_CMD_PWRITE) {
		/* fio: MSG_MORE while the job has more to send */
		int more = n->sent + len < w->o->size ? MSG_MORE : 0;

		do
			r = n->udp ? sendto(n->fd, cb->u.c.buf, len, 0, (struct sockaddr *)&n->addr, n->alen)
				   : send(n->fd, cb->u.c.buf, len, more | MSG_NOSIGNAL);
		while (r < 0 && errno == EINTR);
		if (r > 0)
			n->sent += (uint64_t)r;
		return r < 0 ? -errno : (long)r;
	}
	if ((rc = wait_for(w, n->fd, POLLIN, "data")) < 0)
		return rc;
	do
		r = n->udp ? recvfrom(n->fd, cb->u.c.buf, len, 0, NULL, NULL) : recv(n->fd, cb->u.c.buf, len, MSG_WAITALL);
	while (r < 0 && errno == EINTR);
	/* the peer is done (closed, or UDP's link-close): so is this job (fio's td->done) */
	if (r == 0 || (n->udp && is_close(cb->u.c.buf, r)))
		return -ESHUTDOWN;
	return r < 0 ? -errno : (long)r;
}

static void net_cleanup(struct worker *w)
{
	struct nt *n = w->ioe_data;
	uint32_t msg[2] = { htole32(LINK_MAGIC), htole32(LINK_CLOSE) };

	if (!n)
		return;
	/* fio's fio_netio_send_close */
	if (n->udp && !n->listen && n->open &&
	    sendto(n->fd, msg, sizeof(msg), 0, (struct sockaddr *)&n->addr, n->alen) < 0)
		sb_err_sys(&w->err, -errno, "net: sendto udp link close");
	if (n->fd >= 0)
		close(n->fd);
	if (n->lfd >= 0)
		close(n->lfd);
	free(n);
	w->ioe_data = NULL;
}

const struct sb_ioengine_ops sb_ioe_net = {
	.name = "net",
	.id = SB_IOENGINE_NET,
	.flags = SB_IOF_SYNC | SB_IOF_NOFILE,
	.options = sb_jopts_net,
	.check = net_check,
	.open_file = net_open,
	.setup = net_setup,
	.cleanup = net_cleanup,
	.queue = net_queue,
};
