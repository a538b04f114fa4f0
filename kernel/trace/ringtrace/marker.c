// SPDX-License-Identifier: GPL-2.0
/*
 * trace_marker: what user space writes there becomes an event in the
 * trace buffer, ftrace/print: the common fields, the writer's address (0
 * from user space) and the text, newline-terminated and NUL-terminated.
 * The event is always on; its filter applies.
 */

#include <linux/fs.h>
#include <linux/init.h>
#include <linux/ringtrace_events.h>
#include <linux/pagemap.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "dir.h"
#include "trace.h"

/* Longest marker text kept; longer writes are cut there, as upstream. */
#define RINGTRACE_MARKER_MAX	1024

static void print_output(struct ringtrace_event *event, struct seq_buf *s,
			 const struct ringtrace_entry *entry, unsigned int size)
{
	const struct ringtrace_print_entry *print = (const void *)entry;
	int len = size > sizeof(*print) ?
		  strnlen(print->buf, size - sizeof(*print)) : 0;

	/* The line gets its own newline. */
	if (len && print->buf[len - 1] == '\n')
		len--;
	seq_buf_printf(s, "tracing_mark_write: %.*s", len, print->buf);
}

static const struct ringtrace_event_field print_fields[] = {
	{ "ip", "unsigned long", offsetof(struct ringtrace_print_entry, ip),
	  sizeof(unsigned long), false, false },
	{ "buf", "char", offsetof(struct ringtrace_print_entry, buf), 0,
	  true, true },
};

static const struct ringtrace_event_ops print_ops = {
	.output	= print_output,
};

static struct ringtrace_event print_event = {
	.system		= "ftrace",
	.name		= "print",
	.fields		= print_fields,
	.nr_fields	= ARRAY_SIZE(print_fields),
	.print_fmt	= "\"%ps: %s\", (void *)REC->ip, REC->buf",
	.ops		= &print_ops,
	.always_on	= true,
	.id		= RINGTRACE_TYPE_PRINT,
};

/* A write whose pages keep going away while it is copied is recorded so. */
#define MARKER_COPY_TRIES	3
static const char marker_faulted[] = "<faulted>";

/* Room for @len bytes of text, a newline and the NUL. */
static void *marker_reserve(size_t len, struct ringtrace_reservation *res)
{
	return ringtrace_event_reserve(&print_event,
				       sizeof(struct ringtrace_print_entry) +
				       len + 2, res);
}

/* End the text at @len with a newline, zero the rest, commit. */
static void marker_commit(struct ringtrace_print_entry *entry, size_t len,
			  struct ringtrace_reservation *res)
{
	entry->ip = 0;
	if (entry->buf[len - 1] != '\n')
		entry->buf[len++] = '\n';
	/* At least the NUL; no byte of an older record stays. */
	memset(entry->buf + len, 0, res->size - sizeof(*entry) - len);
	/* A marker its filter rejects is no error. */
	ringtrace_event_commit(&print_event, res);
}

/*
 * The text is copied straight into the reserved record.  Preemption is
 * off there, so a page fault cannot be served: a copy that would fault is
 * given up, the pages are faulted in, and it is tried again (a page can
 * be reclaimed or unmapped again meanwhile: a few times, then the record
 * says so).
 */
static ssize_t trace_marker_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	size_t len = min_t(size_t, count, RINGTRACE_MARKER_MAX);
	struct ringtrace_reservation res;
	struct ringtrace_print_entry *entry;
	unsigned int tries;

	if (!count)
		return 0;
	for (tries = 0; tries < MARKER_COPY_TRIES; tries++) {
		entry = marker_reserve(len, &res);
		/* Lost to a full buffer or tracing_on=0: no error. */
		if (!entry)
			return count;
		if (!copy_from_user_nofault(entry->buf, ubuf, len)) {
			marker_commit(entry, len, &res);
			return count;
		}
		ringtrace_event_discard(&print_event, &res);
		if (fault_in_readable(ubuf, len))
			return -EFAULT;
	}
	len = sizeof(marker_faulted) - 1;
	entry = marker_reserve(len, &res);
	if (entry) {
		memcpy(entry->buf, marker_faulted, len);
		marker_commit(entry, len, &res);
	}
	return count;
}

static const struct file_operations trace_marker_fops = {
	.write	= trace_marker_write,
	.llseek	= noop_llseek,
};

static int __init ringtrace_marker_init(void)
{
	int ret = ringtrace_event_register(&print_event);

	if (ret)
		return ret;
	ringtrace_add_file("trace_marker", 0200, NULL, NULL, &trace_marker_fops,
			   "write text here to record it as an event");
	return 0;
}
late_initcall(ringtrace_marker_init);
