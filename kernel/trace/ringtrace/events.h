/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the event registry's three files, each calling only those
 * below it: events.c (registering, ids, the record path, resets) >
 * events_files.c (the events/ tree's files) > events_enable.c (the lock,
 * the list, enabling and the events listeners).  Everything here is under
 * ringtrace_events_lock (core.h's row 8) unless it says otherwise.
 */
#ifndef _RINGTRACE_EVENTS_H
#define _RINGTRACE_EVENTS_H

#include <linux/list.h>
#include <linux/ringtrace_events.h>

struct dentry;
struct rtf_prog;

/**
 * struct ringtrace_event_system - the events of one system name
 * @node:	in the registry's list of systems
 * @name:	the system's name, as its events' @system
 * @dir:	events/<name>/
 * @nr_events:	registered events of the system; the last one to go frees it
 * @filter_text: the expression last set on the system's filter file
 */
struct ringtrace_event_system {
	struct list_head	node;
	const char		*name;
	struct dentry		*dir;
	unsigned int		nr_events;
	char			*filter_text;
};

/* The registered events, in registration order. */
extern struct list_head ringtrace_event_list;

/* events_enable.c */
int ringtrace_event_set_enabled(struct ringtrace_event *event, bool on);
void ringtrace_event_tell_writing(struct ringtrace_event *event);

/* events_files.c */
void ringtrace_event_set_filter(struct ringtrace_event *event,
				struct rtf_prog *prog, char *text);
int ringtrace_event_build_filter_fields(struct ringtrace_event *event);

struct dentry *ringtrace_event_add_files(struct ringtrace_event *event,
					 struct dentry *parent);
void ringtrace_system_add_files(struct ringtrace_event_system *system);
void ringtrace_events_add_top_files(struct dentry *dir);

#endif /* _RINGTRACE_EVENTS_H */
