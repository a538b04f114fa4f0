/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringtrace trace buffer: the buffer behind /sys/kernel/debug/tracing and
 * the common part of every event record written to it.
 */
#ifndef _LINUX_RINGTRACE_TRACE_H
#define _LINUX_RINGTRACE_TRACE_H

#include <linux/ringtrace_buffer.h>
#include <linux/types.h>

struct dentry;

/**
 * struct ringtrace_entry - the fields every event record starts with
 * @common_type:		the event's id
 * @common_flags:		RINGTRACE_FLAG_* at the time of the event
 * @common_preempt_count:	preempt_count() & 0xff
 * @common_pid:			pid of the current task
 * @common_tgid:		its thread group id
 *
 * The layout is the one of the spec's format files (offsets 0, 2, 3, 4, 8).
 */
struct ringtrace_entry {
	unsigned short	common_type;
	unsigned char	common_flags;
	unsigned char	common_preempt_count;
	int		common_pid;
	int		common_tgid;
};

#define RINGTRACE_FLAG_IRQS_OFF		0x01
#define RINGTRACE_FLAG_NEED_RESCHED	0x04
#define RINGTRACE_FLAG_HARDIRQ		0x08
#define RINGTRACE_FLAG_SOFTIRQ		0x10
#define RINGTRACE_FLAG_NMI		0x40

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

#endif /* _LINUX_RINGTRACE_TRACE_H */
