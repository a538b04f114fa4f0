/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GTSC: Generic Trace Setup and Control.
 *
 * Sets up and controls relay channels for in-kernel data providers, with
 * control files in debugfs.  The provider formats its records and writes
 * them with relay_reserve()/relay_write() on trace->rchan while
 * trace_running(); see Documentation/trace/gtsc.rst.
 */
#ifndef _LINUX_GTSC_H
#define _LINUX_GTSC_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/relay.h>
#include <linux/types.h>

/* Overwrite ("flight recorder"): the oldest records make room. */
#define TRACE_FLIGHT_CHANNEL	0x1
/* One buffer for all CPUs (trace0); writers must serialize. */
#define TRACE_GLOBAL_CHANNEL	0x2

/* Longest root or channel name, NUL excluded. */
#define GTSC_NAME_MAX		63
/* Largest buffer (sub-buffer size times number) per CPU, in bytes. */
#define GTSC_MAX_BUF_BYTES	(256UL << 20)
/* state, dropped, rewind, nr_sub, sub_size */
#define GTSC_NR_CONTROL_FILES	5
/* What the sample's printf-like writer formats into, per record. */
#define GTSC_PRINTF_TMPBUF_SIZE	512

enum trace_state {
	TRACE_SETUP,
	TRACE_RUNNING,
	TRACE_STOPPED,
};

struct gtsc_root;

/**
 * struct trace_info - a GTSC channel
 * @rchan:	the relay channel: providers write records to it
 * @state:	TRACE_SETUP, TRACE_RUNNING or TRACE_STOPPED
 * @flags:	TRACE_FLIGHT_CHANNEL, TRACE_GLOBAL_CHANNEL
 * @dropped:	records refused because the buffer was full (non-overwrite)
 * @flushing:	trace_stop() is finishing sub-buffers: no record is refused
 * @state_lock: serializes state changes
 * @dir:	debugfs <root>/<name>/, or the caller's directory for a
 *		channel from trace_setup_buffers()
 * @control:	the control files in @dir
 * @root:	the shared root directory; NULL from trace_setup_buffers()
 * @node:	entry in the list of channels
 * @name:	the channel's name
 */
struct trace_info {
	struct rchan		*rchan;
	enum trace_state	state;
	u32			flags;
	atomic_long_t		dropped;
	bool			flushing;
	struct mutex		state_lock;	/* serializes state changes */
	struct dentry		*dir;
	struct dentry		*control[GTSC_NR_CONTROL_FILES];
	struct gtsc_root	*root;
	struct list_head	node;
	char			name[GTSC_NAME_MAX + 1];
};

struct trace_info *trace_setup(const char *root, const char *name,
			       u32 buf_size, u32 buf_nr, u32 flags);
struct trace_info *trace_setup_buffers(struct dentry *parent, const char *base,
				       u32 buf_size, u32 buf_nr, u32 flags);
int trace_setup_buffer_files(struct trace_info *trace, struct dentry *parent,
			     const char *base);
int trace_start(struct trace_info *trace);
int trace_stop(struct trace_info *trace);
void trace_cleanup(struct trace_info *trace);
u64 trace_timestamp(void);

/**
 * trace_running() - whether a channel takes records now
 * @trace: the channel
 *
 * Providers test it before writing a record.
 *
 * Context: any.
 * Return: true between trace_start() and trace_stop().
 */
static inline bool trace_running(const struct trace_info *trace)
{
	return READ_ONCE(trace->state) == TRACE_RUNNING;
}

#endif /* _LINUX_GTSC_H */
