// SPDX-License-Identifier: GPL-2.0
/*
 * trace_marker: what user space writes there becomes an event in the
 * trace buffer, a "print" record of the common fields, the writer's
 * address (0 from user space) and the text, NUL-terminated.
 */

#include <linux/fs.h>
#include <linux/init.h>
#include <linux/ringtrace.h>
#include <linux/ringtrace_trace.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

/* Longest marker text kept; longer writes are cut there, as upstream. */
#define RINGTRACE_MARKER_MAX	1024

static ssize_t trace_marker_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct ringtrace_print_entry *entry;
	struct rtb_event *event;
	size_t len = min_t(size_t, count, RINGTRACE_MARKER_MAX);
	bool newline;
	char *text;

	if (!count)
		return 0;
	text = memdup_user(ubuf, len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	newline = text[len - 1] == '\n';

	entry = (void *)ringtrace_event_reserve(RINGTRACE_TYPE_PRINT,
						sizeof(*entry) + len + !newline + 1,
						&event);
	if (entry) {
		entry->ip = 0;
		memcpy(entry->buf, text, len);
		if (!newline)
			entry->buf[len++] = '\n';
		entry->buf[len] = '\0';
		ringtrace_event_commit(event);
	}
	kfree(text);
	/* A marker lost to a full buffer or tracing_on=0 is not an error. */
	return count;
}

static const struct file_operations trace_marker_fops = {
	.write	= trace_marker_write,
	.llseek	= noop_llseek,
};

static int __init ringtrace_marker_init(void)
{
	ringtrace_add_file("trace_marker", 0200, NULL, NULL, &trace_marker_fops,
			   "write text here to record it as an event");
	return 0;
}
fs_initcall_sync(ringtrace_marker_init);
