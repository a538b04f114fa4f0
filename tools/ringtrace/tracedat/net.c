// SPDX-License-Identifier: GPL-2.0
/*
 * A session sent to trace-cmd's collector, "trace-cmd listen -p PORT",
 * as "trace-cmd record -N HOST:PORT -t" sends it (protocol V3, found by
 * reading trace-cmd and by watching 3.1.6 on the wire):
 *
 *   collector: "tracecmd"        us: "-1V3\0"
 *   collector: "V3\0"            us: "766679\0\0" (one write)
 *   collector: "OK"
 *
 * then messages of a big-endian header (size, command, size of the
 * command's fixed part) of at most 8192 bytes: TINIT (CPUs, page size,
 * the option "tcp"), answered by RINIT (a port per CPU, decimal strings);
 * a TCP connection per CPU to its port carries the raw pages; SEND_DATA
 * messages carry the trace.dat up to the CPU data, FIN_DATA ends it, and
 * CLOSE ends the session.  The collector adds the CPU data, the buffer
 * description and its own clock, and closes the control connection when
 * its file is complete: that is the only answer it gives.
 *
 * Two of its habits are worked around.  A data connection that ends
 * while it waits for the next header message ends the header early (its
 * per-CPU reader exits, and the signal cuts its wait short): after
 * FIN_DATA we send CONT, which it answers NOT_SUPP, and connect the data
 * connections only after that answer, which proves the header complete.
 * And it gives the data connections about a second after CLOSE: each one
 * is shut down and read to its end (its reader has taken everything)
 * before CLOSE.  Each connects to the address the control connection
 * reached, not to a name resolved again.  Every wait has a time limit.
 * (The protocol in full, as observed: /work/notes/tracecmd-net-protocol.md
 * in the team's notes; trace-cmd's own source is the reference.)
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "net.h"

#define MSG_HDR		12
#define MSG_MAX		8192
#define MSG_CLOSE	0
#define MSG_TINIT	1
#define MSG_RINIT	2
#define MSG_SEND_DATA	3
#define MSG_FIN_DATA	4
#define MSG_NOT_SUPP	5
#define MSG_CONT	11
/*
 * How long the collector may take to answer or connect, and to end the
 * session: WAIT_MS and a second more per CLOSE_RATE bytes it compresses.
 */
#define WAIT_MS		15000
#define CLOSE_RATE	(4ULL << 20)
/* More NOT_SUPP after the first: the header ended early. */
#define EXTRA_ANSWER_MS	300

static int net_fail(struct td_net *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(n->err, n->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int send_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t w = send(fd, p, len, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* @len bytes within @ms: 0, or -1 (errno ETIMEDOUT at the time limit). */
static int recv_all(int fd, void *buf, size_t len, int ms)
{
	uint8_t *p = buf;

	while (len) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		ssize_t r;
		int k = poll(&pf, 1, ms);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (!k)
				errno = ETIMEDOUT;
			return -1;
		}
		r = recv(fd, p, len, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (!r)
				errno = ECONNRESET;
			return -1;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

/*
 * Whether @fd ends in an orderly way (EOF) within @ms, with nothing before
 * it: the collector sends nothing on a data connection, nor after our
 * CLOSE (a late NOT_SUPP would say our header was cut short).  -1 with
 * errno: ETIMEDOUT, EPROTO for bytes, or the connection's error.
 */
static int wait_eof(int fd, int ms)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	uint8_t c;
	ssize_t r;
	int k;

	do
		k = poll(&pf, 1, ms);
	while (k < 0 && errno == EINTR);
	if (k <= 0) {
		if (!k)
			errno = ETIMEDOUT;
		return -1;
	}
	do
		r = recv(fd, &c, 1, 0);
	while (r < 0 && errno == EINTR);
	if (r > 0)
		errno = EPROTO;
	return r ? -1 : 0;
}

/* A message of command @cmd: its fixed part @fixed, then @payload. */
static int send_msg(int fd, uint32_t cmd, const uint8_t *fixed,
		    uint32_t fixed_len, const uint8_t *payload,
		    uint32_t payload_len)
{
	uint8_t hdr[MSG_HDR];

	put_be32(hdr, MSG_HDR + fixed_len + payload_len);
	put_be32(hdr + 4, cmd);
	put_be32(hdr + 8, fixed_len);
	return send_all(fd, hdr, sizeof(hdr)) ||
	       (fixed_len && send_all(fd, fixed, fixed_len)) ||
	       (payload_len && send_all(fd, payload, payload_len)) ? -1 : 0;
}

/*
 * A TCP socket connected to @addr, within WAIT_MS (Linux applies the send
 * time limit to connect()), writes limited the same way; -1 with errno.
 */
static int connect_addr(const struct sockaddr *addr, socklen_t len)
{
	struct timeval tv = { .tv_sec = WAIT_MS / 1000 };
	int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (!connect(fd, addr, len))
		return fd;
	if (errno == EINPROGRESS || errno == EAGAIN)
		errno = ETIMEDOUT;
	close(fd);
	return -1;
}

/*
 * A TCP connection to @host:@port, the address it reached into @peer;
 * -1 with the reason in @n.
 */
static int connect_to(struct td_net *n, const char *host, const char *port,
		      struct sockaddr_storage *peer, socklen_t *peer_len)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *a;
	int fd = -1, err, saved = ECONNREFUSED;

	err = getaddrinfo(host, port, &hints, &res);
	if (err)
		return net_fail(n, "%s: %s", host, err == EAI_SYSTEM ?
				strerror(errno) : gai_strerror(err));
	for (a = res; a; a = a->ai_next) {
		fd = connect_addr(a->ai_addr, a->ai_addrlen);
		if (fd >= 0) {
			if (peer) {
				memcpy(peer, a->ai_addr, a->ai_addrlen);
				*peer_len = a->ai_addrlen;
			}
			break;
		}
		saved = errno;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return net_fail(n, "connecting to %s:%s: %s", host, port,
				strerror(saved));
	return fd;
}

/* "HOST:PORT" or "[HOST]:PORT" into @host and @port: 0, or -1. */
static int split_dest(const char *dest, char *host, size_t hlen, char *port,
		      size_t plen)
{
	const char *colon, *end;

	if (dest[0] == '[') {
		end = strchr(dest, ']');
		if (!end || end[1] != ':')
			return -1;
		colon = end + 1;
		dest++;
	} else {
		colon = strrchr(dest, ':');
		if (!colon)
			return -1;
		end = colon;
	}
	if (end == dest || (size_t)(end - dest) >= hlen || !colon[1] ||
	    strlen(colon + 1) >= plen ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
	    atoi(colon + 1) < 1 || atoi(colon + 1) > 65535)
		return -1;
	memcpy(host, dest, (size_t)(end - dest));
	host[end - dest] = '\0';
	strcpy(port, colon + 1);
	return 0;
}

static int handshake(struct td_net *n)
{
	static const char magic[8] = "766679";	/* and two NULs */
	char buf[8];

	if (recv_all(n->ctl, buf, 8, WAIT_MS) || memcmp(buf, "tracecmd", 8))
		return net_fail(n, "not trace-cmd's collector (no \"tracecmd\" greeting)");
	if (send_all(n->ctl, "-1V3", 5) || recv_all(n->ctl, buf, 3, WAIT_MS) ||
	    memcmp(buf, "V3", 3))
		return net_fail(n, "the collector does not speak protocol V3");
	/* One write: the collector reads the magic with a single read(). */
	if (send_all(n->ctl, magic, sizeof(magic)) ||
	    recv_all(n->ctl, buf, 2, WAIT_MS) || memcmp(buf, "OK", 2))
		return net_fail(n, "the collector refused the V3 magic");
	return 0;
}

/* TINIT with the "tcp" option; the ports of RINIT into n->ports. */
static int exchange_init(struct td_net *n, uint32_t page_size)
{
	uint8_t fixed[12], hdr[MSG_HDR], body[MSG_MAX];
	uint32_t size, cpus, i;
	const char *p, *end;

	put_be32(fixed, (uint32_t)n->nr_cpus);
	put_be32(fixed + 4, page_size);
	put_be32(fixed + 8, 1);
	if (send_msg(n->ctl, MSG_TINIT, fixed, sizeof(fixed),
		     (const uint8_t *)"tcp", 4))
		return net_fail(n, "sending TINIT: %s", strerror(errno));
	if (recv_all(n->ctl, hdr, MSG_HDR, WAIT_MS))
		return net_fail(n, "no answer to TINIT: %s", strerror(errno));
	size = get_be32(hdr);
	if (get_be32(hdr + 4) != MSG_RINIT || size < MSG_HDR + 4 ||
	    size > MSG_MAX || get_be32(hdr + 8) != 4)
		return net_fail(n, "TINIT answered with command %u (%u bytes), not RINIT",
				get_be32(hdr + 4), size);
	if (recv_all(n->ctl, body, size - MSG_HDR, WAIT_MS))
		return net_fail(n, "reading RINIT: %s", strerror(errno));
	cpus = get_be32(body);
	if (cpus != (uint32_t)n->nr_cpus)
		return net_fail(n, "the collector opened %u ports for %d CPUs",
				cpus, n->nr_cpus);
	p = (const char *)body + 4;
	end = (const char *)body + size - MSG_HDR;
	for (i = 0; i < cpus; i++) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		long port;

		if (!nul || nul == p || nul - p > 5 ||
		    strspn(p, "0123456789") != (size_t)(nul - p))
			return net_fail(n, "RINIT: port %u is not a number", i);
		port = atol(p);
		if (port < 1 || port > 65535)
			return net_fail(n, "RINIT: port %ld of CPU %u", port, i);
		n->ports[i] = (unsigned short)port;
		p = nul + 1;
	}
	return 0;
}

int td_net_probe(struct td_net *n, const char *dest)
{
	char host[256], port[16], buf[8];
	int fd;

	n->ctl = -1;
	n->ports = NULL;
	if (split_dest(dest, host, sizeof(host), port, sizeof(port)))
		return net_fail(n, "%s: not HOST:PORT (PORT 1 to 65535; [HOST]:PORT for IPv6)",
				dest);
	fd = connect_to(n, host, port, NULL, NULL);
	if (fd < 0)
		return -1;
	if (recv_all(fd, buf, 8, WAIT_MS) || memcmp(buf, "tracecmd", 8)) {
		close(fd);
		return net_fail(n, "%s is not trace-cmd's collector (no \"tracecmd\" greeting)",
				dest);
	}
	close(fd);
	return 0;
}

int td_net_open(struct td_net *n, const char *dest, int nr_cpus,
		uint32_t page_size)
{
	char host[256], port[16];
	int one = 1;

	n->ctl = -1;
	n->nr_cpus = nr_cpus;
	n->sent = 0;
	n->ports = calloc(nr_cpus > 0 ? (size_t)nr_cpus : 1, sizeof(*n->ports));
	if (!n->ports)
		return net_fail(n, "out of memory");
	if (split_dest(dest, host, sizeof(host), port, sizeof(port))) {
		net_fail(n, "%s: not HOST:PORT", dest);
		goto fail;
	}
	n->ctl = connect_to(n, host, port, &n->peer, &n->peer_len);
	if (n->ctl < 0)
		goto fail;
	setsockopt(n->ctl, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (handshake(n) || exchange_init(n, page_size))
		goto fail;
	return 0;
fail:
	td_net_abort(n);
	return -1;
}

int td_net_send_meta(struct td_net *n, const uint8_t *meta, size_t len)
{
	size_t off, chunk;
	uint8_t hdr[MSG_HDR];
	struct pollfd pf = { .fd = n->ctl, .events = POLLIN };

	for (off = 0; off < len; off += chunk) {
		chunk = len - off < MSG_MAX - MSG_HDR ? len - off :
			MSG_MAX - MSG_HDR;
		if (send_msg(n->ctl, MSG_SEND_DATA, NULL, 0, meta + off,
			     (uint32_t)chunk))
			return net_fail(n, "sending the header: %s",
					strerror(errno));
	}
	if (send_msg(n->ctl, MSG_FIN_DATA, NULL, 0, NULL, 0) ||
	    send_msg(n->ctl, MSG_CONT, NULL, 0, NULL, 0))
		return net_fail(n, "ending the header: %s", strerror(errno));
	/* CONT is not for it: its one NOT_SUPP says the header is all in. */
	if (recv_all(n->ctl, hdr, MSG_HDR, WAIT_MS))
		return net_fail(n, "no acknowledgment of the header: %s",
				strerror(errno));
	if (get_be32(hdr) != MSG_HDR || get_be32(hdr + 4) != MSG_NOT_SUPP)
		return net_fail(n, "the collector answered the header with command %u",
				get_be32(hdr + 4));
	/* More now (or later, before its EOF): it had stopped reading it. */
	if (poll(&pf, 1, EXTRA_ANSWER_MS) > 0)
		return net_fail(n, "the collector stopped taking the header before its end");
	return 0;
}

/* The collector's address with @port: where a CPU's data goes. */
static void peer_with_port(const struct td_net *n, unsigned short port,
			   struct sockaddr_storage *to)
{
	*to = n->peer;
	if (to->ss_family == AF_INET6)
		((struct sockaddr_in6 *)to)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)to)->sin_port = htons(port);
}

int td_net_send_cpu(struct td_net *n, int cpu, const uint8_t *data,
		    size_t len)
{
	struct sockaddr_storage to;
	int fd, ret = 0;

	/* A CPU without data: its port is never connected, as trace-cmd. */
	if (!len)
		return 0;
	peer_with_port(n, n->ports[cpu], &to);
	fd = connect_addr((struct sockaddr *)&to, n->peer_len);
	if (fd < 0)
		return net_fail(n, "connecting CPU %d's data to port %u: %s",
				cpu, n->ports[cpu], strerror(errno));
	if (send_all(fd, data, len))
		ret = net_fail(n, "sending CPU %d's pages: %s", cpu,
			       strerror(errno));
	/* Its orderly end: the collector's reader has every byte. */
	else if (shutdown(fd, SHUT_WR) || wait_eof(fd, WAIT_MS))
		ret = net_fail(n, "CPU %d's data connection did not end cleanly: %s",
			       cpu, strerror(errno));
	close(fd);
	n->sent += len;
	return ret;
}

int td_net_close(struct td_net *n)
{
	int ret = 0;
	unsigned long long ms = WAIT_MS + 1000ULL * (n->sent / CLOSE_RATE);

	if (send_msg(n->ctl, MSG_CLOSE, NULL, 0, NULL, 0))
		ret = net_fail(n, "sending CLOSE: %s", strerror(errno));
	/* It closes the connection once the file is complete. */
	else if (wait_eof(n->ctl, ms > 3600000 ? 3600000 : (int)ms))
		ret = net_fail(n, "the collector did not end the session cleanly: %s",
			       errno == EPROTO ? "it answered (the header was cut short)" :
			       strerror(errno));
	td_net_abort(n);
	return ret;
}

void td_net_abort(struct td_net *n)
{
	free(n->ports);
	n->ports = NULL;
	if (n->ctl >= 0)
		close(n->ctl);
	n->ctl = -1;
}
