/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tracer core's files share: the event registry (ringtrace_events.c),
 * the trace buffer (ringtrace_trace.c) and the text output
 * (ringtrace_output.c).
 */
#ifndef _RINGTRACE_EVENTS_INTERNAL_H
#define _RINGTRACE_EVENTS_INTERNAL_H

#include <linux/mutex.h>
#include <linux/ringtrace_events.h>
#include <linux/wait.h>

extern struct mutex ringtrace_events_lock;
struct ringtrace_event *ringtrace_event_find(unsigned int id);
void ringtrace_events_reset_begin(void);
void ringtrace_events_reset_end(bool emptied);

/* Empty the trace buffer, or resize it (which empties it too). */
void ringtrace_trace_clear(void);
int ringtrace_trace_resize(unsigned long kb);
unsigned long ringtrace_trace_kb(void);
bool ringtrace_output_iterating(void);

void ringtrace_fill_common(struct ringtrace_entry *entry, unsigned short type);
int ringtrace_write_record(const void *record, unsigned int size);
const char *ringtrace_find_comm(int pid, char *comm);

/* Readers of trace_pipe sleep here; writers wake them (see trace.c). */
extern struct wait_queue_head ringtrace_readers;
void ringtrace_readers_waiting(void);

#endif /* _RINGTRACE_EVENTS_INTERNAL_H */
