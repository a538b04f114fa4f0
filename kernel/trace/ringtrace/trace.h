/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringtrace trace buffer: the buffer behind /sys/kernel/debug/tracing, its
 * readers' access lock and the core's own records (the common part of
 * every record is <linux/ringtrace_events.h>'s).
 */
#ifndef _RINGTRACE_TRACE_H
#define _RINGTRACE_TRACE_H

#include <linux/list.h>
#include <linux/ringtrace_buffer.h>
#include <linux/ringtrace_events.h>
#include <linux/types.h>

struct dentry;

/* Event ids below this are the core's own events. */
#define RINGTRACE_TYPE_PRINT		5
#define RINGTRACE_FIRST_DYNAMIC_TYPE	16

/**
 * struct ringtrace_print_entry - a trace_marker record
 * @ent:	the common fields
 * @ip:		address of the writer: 0 for user space
 * @buf:	the text, NUL-terminated
 */
struct ringtrace_print_entry {
	struct ringtrace_entry	ent;
	unsigned long		ip;
	char			buf[];
};

/* ringtrace_access_lock() of every CPU's buffer at once. */
#define RINGTRACE_ALL_CPUS		-1

struct rtb_buffer *ringtrace_trace_buffer(void);
struct dentry *ringtrace_cpu_dir(int cpu);
void ringtrace_access_lock(int cpu);
void ringtrace_access_unlock(int cpu);
int ringtrace_trace_use_fixed(void *base, unsigned int slice_pages,
			      u32 *reader_slot);

/**
 * struct ringtrace_trace_listener - told of changes of the trace buffer
 * @begin:	a change that empties the buffer begins (echo > trace, a
 *		resize, a clock change); NULL if not needed
 * @end:	it ended; @emptied: no record written before ->begin() is in
 *		the buffer or held by a reader any more (false if it failed)
 * @holds_old:	whether a reader of the listener's may still walk records
 *		from before the change (then nothing was emptied); NULL if
 *		it has none.  Called under the access lock of every CPU
 * @clock:	the records from now on have the time stamps of the trace
 *		clock @name ("local", "global"); the buffer is empty.  Called
 *		between ->begin() and ->end(), under trace_buffer_lock; NULL
 *		if not needed
 * @node:	in the trace buffer's list of listeners
 *
 * Each callback takes only locks below the rows of core.h's lock-order
 * table that it runs under.
 */
struct ringtrace_trace_listener {
	void			(*begin)(void);
	void			(*end)(bool emptied);
	bool			(*holds_old)(void);
	void			(*clock)(const char *name);
	struct list_head	node;
};

void ringtrace_trace_listen(struct ringtrace_trace_listener *listener);

#endif /* _RINGTRACE_TRACE_H */
