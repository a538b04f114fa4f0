// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace events: the files of the events/ directory.
 *
 * events/enable, header_page and header_event at the top; per system
 * enable and filter; per event id, format, filter and (unless the event
 * is always on) enable and its older name enabled.  Their operations take
 * ringtrace_events_lock and find an event that is being unregistered
 * stopped (->registered false): events.c removes the files after it
 * unlinks the event, outside the lock (core.h's rows 3 and 8).  The
 * format text is what trace-cmd, perf and KernelShark parse
 * (Documentation/trace/ringtrace.rst, "Events").
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/ringtrace_events.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core.h"
#include "dir.h"
#include "events.h"
#include "filter.h"
#include "record_layout.h"

/* Longest filter expression accepted by a filter file. */
#define FILTER_WRITE_MAX	RTF_MAX_EXPR

/* The fields every record starts with: struct ringtrace_entry. */
static const struct ringtrace_event_field common_fields[] = {
	{ "common_type", "unsigned short", 0, 2, false, false },
	{ "common_flags", "unsigned char", 2, 1, false, false },
	{ "common_preempt_count", "unsigned char", 3, 1, false, false },
	{ "common_pid", "int", 4, 4, true, false },
	{ "common_tgid", "int", 8, 4, true, false },
};

static ssize_t bool_read(char __user *ubuf, size_t count, loff_t *ppos,
			 const char *value)
{
	return simple_read_from_buffer(ubuf, count, ppos, value,
				       strlen(value));
}

static ssize_t event_enable_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct ringtrace_event *event = file->f_inode->i_private;

	return bool_read(ubuf, count, ppos, READ_ONCE(event->enabled) ?
			 "1\n" : "0\n");
}

static ssize_t event_enable_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct ringtrace_event *event = file->f_inode->i_private;
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	mutex_lock(&ringtrace_events_lock);
	/* Being unregistered: its files are about to go. */
	ret = event->registered ? ringtrace_event_set_enabled(event, on) :
				  -ENODEV;
	mutex_unlock(&ringtrace_events_lock);
	return ret ? ret : count;
}

static const struct file_operations event_enable_fops = {
	.read	= event_enable_read,
	.write	= event_enable_write,
	.llseek	= default_llseek,
};

/* Whether @event is in @system; every event is in the NULL system. */
static bool event_in_group(struct ringtrace_event *event,
			   struct ringtrace_event_system *system)
{
	return !system || !strcmp(event->system, system->name);
}

/* "0", "1" or "X" (mixed) over the events of @system, or all if NULL. */
static ssize_t group_enable_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct ringtrace_event_system *system = file->f_inode->i_private;
	struct ringtrace_event *event;
	bool any_on = false, any_off = false;

	mutex_lock(&ringtrace_events_lock);
	list_for_each_entry(event, &ringtrace_event_list, node) {
		if (event->always_on || !event_in_group(event, system))
			continue;
		if (event->enabled)
			any_on = true;
		else
			any_off = true;
	}
	mutex_unlock(&ringtrace_events_lock);
	return bool_read(ubuf, count, ppos, any_on && any_off ? "X\n" :
			 any_on ? "1\n" : "0\n");
}

static ssize_t group_enable_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct ringtrace_event_system *system = file->f_inode->i_private;
	struct ringtrace_event *event;
	int ret, err = 0;
	bool on;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	mutex_lock(&ringtrace_events_lock);
	list_for_each_entry(event, &ringtrace_event_list, node) {
		/* A stopped event is on its way out: leave it off. */
		if (!event->registered || !event_in_group(event, system))
			continue;
		ret = ringtrace_event_set_enabled(event, on);
		if (ret && !err)
			err = ret;
	}
	mutex_unlock(&ringtrace_events_lock);
	return err ? err : count;
}

static const struct file_operations group_enable_fops = {
	.read	= group_enable_read,
	.write	= group_enable_write,
	.llseek	= default_llseek,
};

static ssize_t event_id_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct ringtrace_event *event = file->f_inode->i_private;
	char buf[16];
	int len = scnprintf(buf, sizeof(buf), "%u\n", event->id);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations event_id_fops = {
	.read	= event_id_read,
	.llseek	= default_llseek,
};

static void format_field(struct seq_file *m,
			 const struct ringtrace_event_field *f)
{
	if (f->is_dynamic)
		seq_printf(m, "\tfield:__data_loc %s[] %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			   f->type, f->name, f->offset, f->size, f->is_signed);
	else if (f->is_string && !f->size)
		seq_printf(m, "\tfield:%s %s[];\toffset:%u;\tsize:0;\tsigned:%d;\n",
			   f->type, f->name, f->offset, f->is_signed);
	else if (f->is_string || f->array_len)
		seq_printf(m, "\tfield:%s %s[%u];\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			   f->type, f->name, f->array_len ?: f->size,
			   f->offset, f->size, f->is_signed);
	else
		seq_printf(m, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			   f->type, f->name, f->offset, f->size, f->is_signed);
}

static int event_format_show(struct seq_file *m, void *v)
{
	struct ringtrace_event *event = m->private;
	unsigned int i;

	seq_printf(m, "name: %s\nID: %u\nformat:\n", event->name, event->id);
	for (i = 0; i < ARRAY_SIZE(common_fields); i++)
		format_field(m, &common_fields[i]);
	seq_putc(m, '\n');
	for (i = 0; i < event->nr_fields; i++)
		format_field(m, &event->fields[i]);
	/*
	 * Once: a kprobe event that gets a second probe point turns to
	 * another text (both live as long as the event).
	 */
	seq_printf(m, "\nprint fmt: %s\n", READ_ONCE(event->print_fmt));
	/*
	 * The spec shows aliases before "print fmt", where libtraceevent
	 * (trace-cmd, KernelShark, perf) expects "print" and gives up on the
	 * event; after it, the parser stops at the end of the print line.
	 */
	if (event->nr_aliases) {
		seq_putc(m, '\n');
		for (i = 0; i < event->nr_aliases; i++)
			seq_printf(m, "\talias: %s;\toriginal: %s;\n",
				   event->aliases[i].alias,
				   event->aliases[i].field);
	}
	return 0;
}

/**
 * ringtrace_event_format_text() - an event's format file, into a buffer
 * @event: the event
 * @buf: receives the text, not NUL-terminated
 * @size: bytes at @buf
 *
 * Return: the length of the text, or -ENOSPC if it does not fit.
 */
int ringtrace_event_format_text(struct ringtrace_event *event, char *buf,
				size_t size)
{
	struct seq_file m = {
		.buf		= buf,
		.size		= size,
		.private	= event,
	};

	event_format_show(&m, NULL);
	return seq_has_overflowed(&m) ? -ENOSPC : m.count;
}

DEFINE_SHOW_ATTRIBUTE(event_format);

static int event_filter_show(struct seq_file *m, void *v)
{
	struct ringtrace_event *event = m->private;

	mutex_lock(&ringtrace_events_lock);
	seq_printf(m, "%s\n", event->filter_text ?: "none");
	mutex_unlock(&ringtrace_events_lock);
	return 0;
}

static int event_filter_open(struct inode *inode, struct file *file)
{
	return single_open(file, event_filter_show, inode->i_private);
}

/**
 * ringtrace_event_set_filter() - install an event's filter
 * @event: the event
 * @prog: the compiled filter (NULL: none); the event owns it from now on
 * @text: its source, kmalloc()ed (NULL with @prog NULL); owned likewise
 *
 * The filter replaced is freed a grace period later: writers read it with
 * preemption off (ringtrace_event_commit()).
 *
 * Context: under ringtrace_events_lock; may sleep.
 */
void ringtrace_event_set_filter(struct ringtrace_event *event,
				struct rtf_prog *prog, char *text)
{
	struct rtf_prog *old;

	old = rcu_dereference_protected(event->filter,
					lockdep_is_held(&ringtrace_events_lock));
	rcu_assign_pointer(event->filter, prog);
	kfree(event->filter_text);
	event->filter_text = text;
	if (old) {
		/* Submitters read the filter with preemption off. */
		synchronize_rcu();
		rtf_free(old);
	}
}

static ssize_t event_filter_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct ringtrace_event *event = file_inode(file)->i_private;
	struct rtf_error err = {};
	struct rtf_prog *prog;
	char location[64];
	char *text;
	ssize_t ret;

	if (count > FILTER_WRITE_MAX)
		return -E2BIG;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	ringtrace_strip(text);
	if (!strcmp(text, "0")) {
		kfree(text);
		mutex_lock(&ringtrace_events_lock);
		/* Being unregistered: its files are about to go. */
		ret = event->registered ? count : -ENODEV;
		if (event->registered)
			ringtrace_event_set_filter(event, NULL, NULL);
		mutex_unlock(&ringtrace_events_lock);
		return ret;
	}
	prog = rtf_compile(text, event->filter_fields, event->nr_filter_fields,
			   &err);
	if (IS_ERR(prog)) {
		if (PTR_ERR(prog) == -EINVAL) {
			snprintf(location, sizeof(location),
				 "event filter (%s/%s)", event->system,
				 event->name);
			ringtrace_error_log(location, text, err.pos, err.msg);
		}
		kfree(text);
		return PTR_ERR(prog);
	}
	mutex_lock(&ringtrace_events_lock);
	if (!event->registered) {
		/* Unregistered meanwhile: its files are about to go. */
		mutex_unlock(&ringtrace_events_lock);
		rtf_free(prog);
		kfree(text);
		return -ENODEV;
	}
	ringtrace_event_set_filter(event, prog, text);
	mutex_unlock(&ringtrace_events_lock);
	return count;
}

static const struct file_operations event_filter_fops = {
	.open		= event_filter_open,
	.read		= seq_read,
	.write		= event_filter_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * A system's filter: one expression set on every event of the system, all
 * of them or none (each event compiles it against its own fields).
 */
static int system_filter_show(struct seq_file *m, void *v)
{
	struct ringtrace_event_system *system = m->private;

	mutex_lock(&ringtrace_events_lock);
	seq_printf(m, "%s\n", system->filter_text ?: "none");
	mutex_unlock(&ringtrace_events_lock);
	return 0;
}

static int system_filter_open(struct inode *inode, struct file *file)
{
	return single_open(file, system_filter_show, inode->i_private);
}

/* Compile @text for each event of @system into @progs.  Under the lock. */
static int system_compile(struct ringtrace_event_system *system,
			  const char *text, struct rtf_prog **progs,
			  char **texts)
{
	struct ringtrace_event *event;
	struct rtf_error err = {};
	char location[64];
	unsigned int n = 0;

	list_for_each_entry(event, &ringtrace_event_list, node) {
		if (!event_in_group(event, system))
			continue;
		progs[n] = rtf_compile(text, event->filter_fields,
				       event->nr_filter_fields, &err);
		if (IS_ERR(progs[n])) {
			int ret = PTR_ERR(progs[n]);

			progs[n] = NULL;
			if (ret == -EINVAL) {
				snprintf(location, sizeof(location),
					 "system filter (%s, event %s)",
					 system->name, event->name);
				ringtrace_error_log(location, text, err.pos,
						    err.msg);
			}
			return ret;
		}
		texts[n] = kstrdup(text, GFP_KERNEL);
		if (!texts[n++])
			return -ENOMEM;
	}
	return 0;
}

static ssize_t system_filter_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct ringtrace_event_system *system = file_inode(file)->i_private;
	struct ringtrace_event *event;
	struct rtf_prog **progs = NULL;
	char *text, **texts = NULL;
	unsigned int n = 0, i;
	bool clear;
	int ret;

	if (count > FILTER_WRITE_MAX)
		return -E2BIG;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	ringtrace_strip(text);
	clear = !strcmp(text, "0");
	mutex_lock(&ringtrace_events_lock);
	list_for_each_entry(event, &ringtrace_event_list, node)
		n += event_in_group(event, system);
	progs = kcalloc(n ?: 1, sizeof(*progs), GFP_KERNEL);
	texts = kcalloc(n ?: 1, sizeof(*texts), GFP_KERNEL);
	ret = !progs || !texts ? -ENOMEM :
	      clear ? 0 : system_compile(system, text, progs, texts);
	if (ret)
		goto out;
	i = 0;
	list_for_each_entry(event, &ringtrace_event_list, node) {
		if (!event_in_group(event, system))
			continue;
		ringtrace_event_set_filter(event, progs[i], texts[i]);
		progs[i] = NULL;
		texts[i++] = NULL;
	}
	kfree(system->filter_text);
	system->filter_text = clear ? NULL : text;
	if (!clear)
		text = NULL;
out:
	mutex_unlock(&ringtrace_events_lock);
	for (i = 0; progs && texts && i < n; i++) {
		if (progs[i])
			rtf_free(progs[i]);
		kfree(texts[i]);
	}
	kfree(progs);
	kfree(texts);
	kfree(text);
	return ret ? ret : count;
}

static const struct file_operations system_filter_fops = {
	.open		= system_filter_open,
	.read		= seq_read,
	.write		= system_filter_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * header_page and header_event describe the pages as trace_pipe_raw gives
 * them: the file's i_private is record_layout.c's writer of its text.
 */
static ssize_t header_text_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	int (*write_text)(char *buf, size_t size) = file->f_inode->i_private;
	char text[RTB_HEADER_TEXT_MAX];
	int len = write_text(text, sizeof(text));

	return simple_read_from_buffer(ubuf, count, ppos, text, len);
}

static const struct file_operations header_text_fops = {
	.read	= header_text_read,
	.llseek	= default_llseek,
};

/**
 * ringtrace_event_build_filter_fields() - the fields a filter of an event names
 * @event: an event being registered
 *
 * The filter's view of its record: the common fields, the event's (but
 * arrays), then its aliases, into @event->filter_fields (kfree() it).
 *
 * Return: 0, -EINVAL for an alias of no field, or -ENOMEM.
 */
int ringtrace_event_build_filter_fields(struct ringtrace_event *event)
{
	unsigned int n = 0, i, j;
	struct rtf_field *f;

	f = kcalloc(ARRAY_SIZE(common_fields) + event->nr_fields +
		    event->nr_aliases, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(common_fields) + event->nr_fields; i++) {
		const struct ringtrace_event_field *src =
			i < ARRAY_SIZE(common_fields) ? &common_fields[i] :
			&event->fields[i - ARRAY_SIZE(common_fields)];

		/* The filter language compares one value: no arrays. */
		if (src->array_len)
			continue;
		f[n++] = (struct rtf_field){ src->name, src->offset, src->size,
					     src->is_signed, src->is_string,
					     src->is_dynamic };
	}
	for (i = 0; i < event->nr_aliases; i++) {
		for (j = 0; j < n; j++)
			if (!strcmp(f[j].name, event->aliases[i].field))
				break;
		if (j == n) {
			kfree(f);
			return -EINVAL;
		}
		f[n] = f[j];
		f[n++].name = event->aliases[i].alias;
	}
	event->filter_fields = f;
	event->nr_filter_fields = n;
	return 0;
}

/**
 * ringtrace_event_add_files() - make an event's directory and files
 * @event: an event being registered, with its id
 * @parent: its system's directory
 *
 * Context: process context, under ringtrace_events_lock (making files
 * takes no lock of a file's operation).
 * Return: the directory, or an ERR_PTR() if it could not be made (a file
 * that cannot be made is only missing: ringtrace_add_file()).
 */
struct dentry *ringtrace_event_add_files(struct ringtrace_event *event,
					 struct dentry *parent)
{
	struct dentry *dir = ringtrace_add_dir(event->name, parent);

	if (IS_ERR(dir))
		return dir;
	ringtrace_add_file("id", 0400, dir, event, &event_id_fops, NULL);
	ringtrace_add_file("format", 0400, dir, event, &event_format_fops,
			   NULL);
	ringtrace_add_file("filter", 0600, dir, event, &event_filter_fops,
			   NULL);
	if (!event->always_on) {
		ringtrace_add_file("enabled", 0600, dir, event,
				   &event_enable_fops, NULL);
		/* The name newer kernels use. */
		ringtrace_add_file("enable", 0600, dir, event,
				   &event_enable_fops, NULL);
	}
	return dir;
}

/**
 * ringtrace_system_add_files() - make a system's enable and filter files
 * @system: a system being made, with its directory
 *
 * Context: process context, under ringtrace_events_lock.
 */
void ringtrace_system_add_files(struct ringtrace_event_system *system)
{
	ringtrace_add_file("enable", 0600, system->dir, system,
			   &group_enable_fops, NULL);
	ringtrace_add_file("filter", 0600, system->dir, system,
			   &system_filter_fops, NULL);
}

/**
 * ringtrace_events_add_top_files() - make events/enable and the headers
 * @dir: the events/ directory
 *
 * Context: process context (an initcall).
 */
void ringtrace_events_add_top_files(struct dentry *dir)
{
	ringtrace_add_file("enable", 0600, dir, NULL, &group_enable_fops,
			   "1 enables every event, 0 disables all, X: mixed");
	ringtrace_add_file("header_event", 0400, dir, rtb_header_event_text,
			   &header_text_fops,
			   "the layout of the record header, in text");
	ringtrace_add_file("header_page", 0400, dir, rtb_header_page_text,
			   &header_text_fops,
			   "the layout of a page header, in text");
}
