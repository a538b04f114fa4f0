/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tracer core's files share: the event registry (ringtrace_events.c),
 * the trace buffer (ringtrace_trace.c) and the text output
 * (ringtrace_output.c).
 */
#ifndef _RINGTRACE_EVENTS_INTERNAL_H
#define _RINGTRACE_EVENTS_INTERNAL_H

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

/**
 * struct ringtrace_reset_listener - told when the trace buffer is emptied
 * @begin:	a change that empties the buffer begins (echo > trace, a
 *		resize, a clock change); NULL if not needed
 * @end:	it ended; @emptied: no record written before ->begin() is in
 *		the buffer or held by a reader any more (false if it failed)
 * @holds_old:	whether a reader of the listener's may still walk records
 *		from before the change (then nothing was emptied); NULL if
 *		it has none.  Called under the access lock of every CPU
 * @node:	in the trace buffer's list of listeners
 */
struct ringtrace_reset_listener {
	void			(*begin)(void);
	void			(*end)(bool emptied);
	bool			(*holds_old)(void);
	struct list_head	node;
};

void ringtrace_trace_listen(struct ringtrace_reset_listener *listener);

/* Empty the trace buffer, or resize it (which empties it too). */
void ringtrace_trace_clear(void);
int ringtrace_trace_resize(unsigned long kb);
unsigned long ringtrace_trace_kb(void);

void ringtrace_common_fields(struct ringtrace_entry *entry,
			     unsigned short type);
struct rtb_event *ringtrace_reserve_record(unsigned int size);
void ringtrace_commit_record(struct rtb_event *rec);
void ringtrace_discard_record(struct rtb_event *rec);
const char *ringtrace_find_comm(int pid, char *comm);
const char *ringtrace_find_comm_nowait(int pid, char *comm);

/* The persistent buffer keeps the formats of events that write records. */
int ringtrace_event_format_text(struct ringtrace_event *event, char *buf,
				size_t size);
void ringtrace_events_note_writers(void);
void ringtrace_persist_note_event(struct ringtrace_event *event);
void ringtrace_persist_note_clock(const char *name);
const char *ringtrace_trace_clock_name(void);
void ringtrace_trace_freeze(void);

/* A data page's record headers as trace_pipe_raw gives them out. */
struct rtb_data_page;
void ringtrace_raw_page_to_current_layout(struct rtb_data_page *page);

bool ringtrace_tracing_on(void);
void ringtrace_tracing_off_now(void);

/* A record as trace prints it (ringtrace_output.c). */
void ringtrace_output_record(struct seq_buf *s, int cpu, u64 ts,
			     struct rtb_event *rev, bool nowait);
void ringtrace_output_lost(struct seq_buf *s, int cpu, unsigned long lost);

/* Readers waiting for records (ringtrace_wait.c). */
#define RINGTRACE_WAIT_DATA		BIT(0)	/* any record */
#define RINGTRACE_WAIT_WATERMARK	BIT(1)	/* buffer_percent filled */

void ringtrace_wake_readers(void);
void ringtrace_wake_all_readers(void);
int ringtrace_wait(int cpu, unsigned int what, bool (*ready)(void *arg),
		   void *arg);
void ringtrace_poll_wait(struct file *file, poll_table *pt, int cpu,
			 unsigned int what);
bool ringtrace_watermark_reached(int cpu);
bool ringtrace_whole_pages_reached(int cpu, bool was_on);

#endif /* _RINGTRACE_EVENTS_INTERNAL_H */
