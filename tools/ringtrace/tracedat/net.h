/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sending a session to trace-cmd's collector (trace-cmd listen), as
 * trace-cmd record -N does: protocol V3, per-CPU data over TCP.
 */
#ifndef TRACEDAT_NET_H
#define TRACEDAT_NET_H

#include <stddef.h>
#include <stdint.h>

#include <sys/socket.h>

struct td_net {
	int			ctl;		/* the control connection */
	int			nr_cpus;
	unsigned short		*ports;		/* each CPU's data port */
	struct sockaddr_storage	peer;		/* the collector, as connected */
	socklen_t		peer_len;
	unsigned long long	sent;		/* bytes of CPU data sent */
	char			*err;
	size_t			errlen;
};

/*
 * Whether a collector answers at @dest: connected to, it greets as
 * trace-cmd listen does; closed at once, before the handshake (it keeps
 * no file then).  For a session that sends at its end, to fail before
 * recording.  Returns 0, or -1 with the reason in n->err.
 */
int td_net_probe(struct td_net *n, const char *dest);

/*
 * Connect to the collector at @dest ("HOST:PORT"), shake hands and
 * announce @nr_cpus CPUs of @page_size pages; it answers with a data
 * port per CPU.  Returns 0, or -1 with the reason in n->err (nothing left
 * open).
 */
int td_net_open(struct td_net *n, const char *dest, int nr_cpus,
		uint32_t page_size);

/*
 * Send the first @len bytes of the trace.dat (everything before the CPU
 * data) and end them; returns once the collector has taken them all.
 * Send the CPUs' data only then.
 */
int td_net_send_meta(struct td_net *n, const uint8_t *meta, size_t len);

/*
 * The @len bytes of CPU @cpu's pages, on a data connection of their own
 * to the collector's address and the CPU's port, read back to its end
 * (the collector's reader has taken every byte then).  Nothing for 0.
 */
int td_net_send_cpu(struct td_net *n, int cpu, const uint8_t *data,
		    size_t len);

/*
 * End the session: CLOSE; returns once the collector closed the control
 * connection, having sent nothing (its file is complete then).  Closes
 * everything, whatever happens.
 */
int td_net_close(struct td_net *n);

/* Close everything at once (a failed session). */
void td_net_abort(struct td_net *n);

#endif
