/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringtrace events: how an event source (kprobe events, trace_marker, ...)
 * describes its records so that the tracing directory can show their
 * format, enable them, filter them and print them.
 */
#ifndef _LINUX_RINGTRACE_EVENTS_H
#define _LINUX_RINGTRACE_EVENTS_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/ringtrace_buffer.h>
#include <linux/seq_buf.h>
#include <linux/types.h>

struct dentry;
struct rtf_field;
struct rtf_prog;

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

/**
 * struct ringtrace_event_field - one field of an event's records
 * @name:	its name in the format file and in filters
 * @type:	its C type as the format file shows it ("unsigned long")
 * @offset:	byte offset in the record (common fields included)
 * @size:	bytes; 0 for a string running to the end of the record
 * @is_signed:	whether the type is signed
 * @is_string:	a char array holding text
 * @array_len:	an array of that many elements of @type (@size is all
 *		of them); 0 for one value.  Filters cannot name arrays
 * @is_dynamic:	a string of variable length, elsewhere in the record: the
 *		field (@size 4) is its __data_loc word, length << 16 | offset
 *		from the record's start; @type is "char"
 */
struct ringtrace_event_field {
	const char	*name;
	const char	*type;
	unsigned int	offset;
	unsigned int	size;
	bool		is_signed;
	bool		is_string;
	unsigned int	array_len;
	bool		is_dynamic;
};

/**
 * struct ringtrace_event_alias - another name for a field
 * @alias:	the other name ("a0")
 * @field:	the field's own name ("arg0")
 */
struct ringtrace_event_alias {
	const char	*alias;
	const char	*field;
};

struct ringtrace_event;

/**
 * struct ringtrace_event_ops - what the core calls back
 * @output:	render a record as the text after "comm-pid [cpu] time: "
 *		(no newline); @size is the record size
 * @enable:	start (true) or stop (false) producing records; may sleep.
 *		NULL if the event needs nothing to start
 * @release:	the core holds no more references: free the event
 */
struct ringtrace_event_ops {
	void	(*output)(struct ringtrace_event *event, struct seq_buf *s,
			  const struct ringtrace_entry *entry,
			  unsigned int size);
	int	(*enable)(struct ringtrace_event *event, bool on);
	void	(*release)(struct ringtrace_event *event);
};

/**
 * struct ringtrace_event - an event type
 * @system:	directory under events/ ("kprobes")
 * @name:	the event's directory name
 * @fields:	the fields after the common ones, by offset
 * @nr_fields:	entries in @fields
 * @aliases:	other names of fields, shown in format and usable in filters
 * @nr_aliases:	entries in @aliases
 * @print_fmt:	the "print fmt:" line's text, fields as REC->name
 * @ops:	callbacks
 * @always_on:	records regardless of enable files (there are none)
 * @retire:	after ringtrace_event_unregister(), keep printing the
 *		event's records still in the buffer (@ops and what they use
 *		must stay valid until ops->release())
 * @id:		set by ringtrace_event_register(): the common_type
 * @enabled:	set by the core: whether records are wanted
 * @registered:	set by the core: registered, and neither stopped
 *		(ringtrace_event_stop()) nor being unregistered
 * @filter:	set by the core: the compiled filter, or NULL
 * @kref:	held by the registration, then by the retired list (open
 *		files need none: removing them
 *		waits for their operations, and later ones fail)
 * @dir:	the event's directory
 * @node:	entry in the list of events
 * @filter_text: the filter's source, for reading the filter file
 * @filter_fields: @fields, the common fields and aliases, for filters
 * @nr_filter_fields: entries in @filter_fields
 */
struct ringtrace_event {
	const char				*system;
	const char				*name;
	const struct ringtrace_event_field	*fields;
	unsigned int				nr_fields;
	const struct ringtrace_event_alias	*aliases;
	unsigned int				nr_aliases;
	const char				*print_fmt;
	const struct ringtrace_event_ops	*ops;
	bool					always_on;
	bool					retire;

	/* Owned by the core. */
	unsigned short				id;
	bool					enabled;
	bool					registered;
	struct rtf_prog __rcu			*filter;
	struct kref				kref;
	struct dentry				*dir;
	struct list_head			node;
	char					*filter_text;
	struct rtf_field			*filter_fields;
	unsigned int				nr_filter_fields;
};

int ringtrace_event_register(struct ringtrace_event *event);
int ringtrace_events_stop(struct ringtrace_event *const *events,
			  unsigned int nr, bool busy);
int ringtrace_event_stop(struct ringtrace_event *event, bool busy);
void ringtrace_event_unregister(struct ringtrace_event *event);
/**
 * struct ringtrace_reservation - a record being built in the trace buffer
 * @rec:	its buffer record
 * @entry:	the record, struct ringtrace_entry first
 * @size:	its size in bytes
 */
struct ringtrace_reservation {
	struct rtb_event	*rec;
	void			*entry;
	unsigned int		size;
};

void *ringtrace_event_reserve(struct ringtrace_event *event, unsigned int size,
			      struct ringtrace_reservation *res);
int ringtrace_event_commit(struct ringtrace_event *event,
			   struct ringtrace_reservation *res);
void ringtrace_event_discard(struct ringtrace_event *event,
			     struct ringtrace_reservation *res);
bool ringtrace_event_wanted(struct ringtrace_event *event);

void ringtrace_error_log(const char *location, const char *command,
			 unsigned int pos, const char *msg);

#endif /* _LINUX_RINGTRACE_EVENTS_H */
