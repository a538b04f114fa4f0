// SPDX-License-Identifier: GPL-2.0
/*
 * error_log: the last parse errors of the tracing directory's control
 * files, each with the command that failed and a caret under the position
 * where it went wrong.  Writing anything to the file empties it.
 */

#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/ringtrace_events.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "dir.h"

/* Errors kept; older ones make room. */
#define ERROR_LOG_ENTRIES	16
/* Longest command kept, in bytes (a kprobe_events line); longer are cut. */
#define ERROR_LOG_CMD_MAX	4096

struct error_log_entry {
	u64		ts;
	const char	*msg;
	unsigned int	pos;
	char		location[64];
	char		*command;	/* kmalloc'ed; NULL if that failed */
};

static struct error_log_entry error_log[ERROR_LOG_ENTRIES];
static unsigned int error_log_next, error_log_count;
static DEFINE_MUTEX(error_log_lock);

/**
 * ringtrace_error_log() - record a control file's parse error
 * @location: what was being parsed ("event filter (kprobes/p1)")
 * @command: the text that failed
 * @pos: byte offset in @command where it went wrong
 * @msg: what was wrong there; must outlive the log (a literal does)
 *
 * Context: process context; may sleep.
 */
void ringtrace_error_log(const char *location, const char *command,
			 unsigned int pos, const char *msg)
{
	struct error_log_entry *e;

	mutex_lock(&error_log_lock);
	e = &error_log[error_log_next];
	error_log_next = (error_log_next + 1) % ERROR_LOG_ENTRIES;
	if (error_log_count < ERROR_LOG_ENTRIES)
		error_log_count++;
	e->ts = local_clock();
	e->msg = msg;
	strscpy(e->location, location, sizeof(e->location));
	kfree(e->command);
	/* Commands end at their first newline; the caret stays on it. */
	e->command = kstrndup(command, min_t(size_t, strcspn(command, "\n"),
					     ERROR_LOG_CMD_MAX), GFP_KERNEL);
	e->pos = e->command ? min_t(unsigned int, pos, strlen(e->command)) : 0;
	mutex_unlock(&error_log_lock);
}
EXPORT_SYMBOL_GPL(ringtrace_error_log);

static int error_log_show(struct seq_file *m, void *v)
{
	unsigned int i, first;
	struct error_log_entry *e;

	mutex_lock(&error_log_lock);
	first = (error_log_next + ERROR_LOG_ENTRIES - error_log_count) %
		ERROR_LOG_ENTRIES;
	for (i = 0; i < error_log_count; i++) {
		e = &error_log[(first + i) % ERROR_LOG_ENTRIES];
		seq_printf(m, "[%5llu.%06llu] %s: error: %s\n",
			   e->ts / NSEC_PER_SEC,
			   e->ts % NSEC_PER_SEC / NSEC_PER_USEC,
			   e->location, e->msg);
		seq_printf(m, "  Command: %s\n", e->command ?: "");
		seq_printf(m, "  %*s^\n", (int)(e->pos + strlen("Command: ")),
			   "");
	}
	mutex_unlock(&error_log_lock);
	return 0;
}

static int error_log_open(struct inode *inode, struct file *file)
{
	return single_open(file, error_log_show, NULL);
}

static ssize_t error_log_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned int i;

	mutex_lock(&error_log_lock);
	for (i = 0; i < ERROR_LOG_ENTRIES; i++) {
		kfree(error_log[i].command);
		error_log[i].command = NULL;
	}
	error_log_count = 0;
	error_log_next = 0;
	mutex_unlock(&error_log_lock);
	return count;
}

static const struct file_operations error_log_fops = {
	.open		= error_log_open,
	.read		= seq_read,
	.write		= error_log_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init ringtrace_error_log_init(void)
{
	ringtrace_add_file("error_log", 0600, NULL, NULL, &error_log_fops,
			   "last parse errors, a caret at the fault; write to clear");
	return 0;
}
fs_initcall_sync(ringtrace_error_log_init);
