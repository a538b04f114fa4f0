/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tracer core's files share: the event registry (events*.c),
 * the trace buffer (trace.c), the text output (output.c) and the readers'
 * waiting (wait.c); and the one statement of ringtrace's lock order.
 *
 * Lock order, outermost first: a lock is taken only with locks of the rows
 * above it held; locks of one row never nest.  [x]: a lock of the kernel's.
 * Every lock down to row 10 sleeps (a mutex, or row 7's rwsem) and is taken
 * in process context only.
 *
 *  0  [pipe->mutex]          a splice(2)'s pipe, around ->splice_read of
 *                            trace_pipe and trace_pipe_raw and their waits
 *  1  seq_file's lock; output.c's pipe_reader.lock; pipe_raw.c's
 *     raw_reader.lock; set_event.c's file lock: one open file.  The only
 *     locks held across copy_to_user()/copy_from_user() ([mmap_lock])
 *  2  rtp_lock (persist.c): last_boot/keep, going live;
 *     rtk_probes_lock (kprobe.c): the probe list, probes' creation, removal
 *  3  register_lock (events.c): (un)registering events and their files.
 *     Removing a file waits for its operations: files are removed under
 *     rtk_probes_lock and register_lock only, which no removable file's
 *     operation takes; never under rtp_lock (last_boot/keep's write takes
 *     it: last_boot/ is removed by a work item)
 *  4  trace_life_lock (trace.c): changes that empty the trace buffer,
 *     the trace listeners (their ->begin() and ->end() run under it)
 *  5  reset_lock (events.c): one reset, held from ->begin() to ->end()
 *  6  trace_buffer_lock (trace.c): changes of the buffer's settings; the
 *     listeners' ->clock() runs under it (and rows 4, 5)
 *  7  the access lock (trace.c: all_cpu_access_lock, for reading, then
 *     the CPU's cpu_access_lock; or for writing, every CPU): consuming
 *     reads and the records they return; ->holds_old() runs under it
 *  8  ringtrace_events_lock (events_enable.c): the registry, every
 *     enable and filter; events listeners' ->writing(), ops->enable()
 *     and, under row 7 as well, ops->output() run under it.
 *     The buffer's mutex (buffer.c): resize, reset, iterators' start
 *  9  rtk_arm_lock (kprobe.c): kprobes' registration and arming; outside
 *     [kprobe_mutex] > [cpu_hotplug_lock] > [text_mutex], [module_mutex]:
 *     row 8 and above may not be taken by a CPU hotplug callback
 * 10  ringtrace_files_lock (dir.c), error_log_lock (error_log.c),
 *     rtp_formats_lock (persist.c): leaves, but for [debugfs's inode
 *     locks] when files are made
 * 11  the buffer's swap_lock; a CPU buffer's reader_lock (raw spinlocks,
 *     irqs off, one at a time): any context; only tried in NMI, crash
 *     dumps and rtb_swap_cpu()
 * 12  saved_cmdlines_lock (saved_cmdlines.c, raw spinlock): any context;
 *     writers only try it, and never in NMI
 *
 * A callback takes only locks below the rows it runs under: ->clock()
 * rows 7 to 12, ->holds_old() 8 to 12 and ->writing() 9 to 12.
 * ops->release() may run under row 4 (a retired event released at a
 * reset's end): it takes no lock of rows 0 to 4.  Nothing under rows 2 to 12 copies to or from
 * user space or waits for records.
 *
 * Apart, never nested with the above or with each other: gtsc_mutex
 * (gtsc.c) and kmemtrace_mutex (kmemtrace.c), each outside gtsc's channel
 * state_lock and [cpu_hotplug_lock] > [relay_channels_mutex] > [debugfs's
 * inode locks].  relay_prepare_cpu() takes relay_channels_mutex under
 * cpu_hotplug_lock, so a state_lock holder never takes cpus_read_lock().
 */
#ifndef _RINGTRACE_CORE_H
#define _RINGTRACE_CORE_H

#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/ringtrace_events.h>
#include <linux/wait.h>

extern struct mutex ringtrace_events_lock;
struct ringtrace_event *ringtrace_event_find(unsigned int id);
struct ringtrace_event *ringtrace_event_find_rcu(unsigned int id);
void ringtrace_events_reset_begin(void);
void ringtrace_events_reset_end(bool emptied);

/**
 * struct ringtrace_event_selector - which events a set_event word names
 * @system:	those of this system; NULL: any
 * @name:	those of this name; NULL: any
 * @either:	those whose system or name this is; NULL: any
 * @on:		enable them (else disable)
 */
struct ringtrace_event_selector {
	const char	*system;
	const char	*name;
	const char	*either;
	bool		on;
};

struct seq_file;
void ringtrace_events_show(struct seq_file *m, bool enabled_only);
int ringtrace_events_select(const struct ringtrace_event_selector *sel,
			    unsigned int nr, unsigned int *unmatched);
#if IS_ENABLED(CONFIG_KUNIT)
/* One word of set_event (set_event.c). */
int ringtrace_set_event_parse(char *word, struct ringtrace_event_selector *sel);
#endif

/* Empty the trace buffer, or resize it (which empties it too). */
void ringtrace_trace_clear(void);
int ringtrace_trace_resize(unsigned long kb);
unsigned long ringtrace_trace_kb(void);

void ringtrace_common_fields(struct ringtrace_entry *entry,
			     unsigned short type);
struct rtb_event *ringtrace_reserve_record(unsigned int size);
void ringtrace_commit_record(struct rtb_event *rec);
void ringtrace_discard_record(struct rtb_event *rec);

/* saved_cmdlines.c */
const char *ringtrace_find_comm(int pid, char *comm);
const char *ringtrace_find_comm_nowait(int pid, char *comm);
extern const struct file_operations ringtrace_saved_cmdlines_fops;

/**
 * struct ringtrace_events_listener - told of events that may write records
 * @writing:	@event may write records from now on: it was enabled, or
 *		it is always on.  Called under ringtrace_events_lock; may
 *		sleep and take the locks the table above allows
 * @node:	in the registry's list of listeners
 */
struct ringtrace_events_listener {
	void			(*writing)(struct ringtrace_event *event);
	struct list_head	node;
};

void ringtrace_events_listen(struct ringtrace_events_listener *listener);
/* An event's format file's text (a listener keeps it). */
int ringtrace_event_format_text(struct ringtrace_event *event, char *buf,
				size_t size);
const char *ringtrace_trace_clock_name(void);
const char *ringtrace_trace_clock_names(unsigned int i);
int ringtrace_trace_set_clock(const char *name);
void ringtrace_trace_freeze(void);

bool ringtrace_tracing_on(void);
void ringtrace_tracing_off_now(void);
void ringtrace_trace_set_on(bool on);
bool ringtrace_trace_overwrite(void);
void ringtrace_trace_set_overwrite(bool on);

/* A record as trace prints it (output.c). */
void ringtrace_output_record(struct seq_buf *s, int cpu, u64 ts,
			     struct rtb_event *rev, bool nowait);
void ringtrace_output_lost(struct seq_buf *s, int cpu, unsigned long lost);

/* Readers waiting for records (wait.c). */
#define RINGTRACE_WAIT_DATA		BIT(0)	/* any record */
#define RINGTRACE_WAIT_WATERMARK	BIT(1)	/* buffer_percent filled */

void ringtrace_wait_attach(struct rtb_buffer *buffer, const bool *recording_on);
void ringtrace_wake_readers(void);
void ringtrace_wake_all_readers(void);
int ringtrace_wait(int cpu, unsigned int what, bool (*ready)(void *arg),
		   void *arg);
void ringtrace_poll_wait(struct file *file, poll_table *pt, int cpu,
			 unsigned int what);
bool ringtrace_watermark_reached(int cpu);
bool ringtrace_whole_pages_reached(int cpu, bool was_on);

#endif /* _RINGTRACE_CORE_H */
