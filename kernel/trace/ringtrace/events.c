// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace events: the registry of event types and the events/ directory.
 *
 * An event source registers a struct ringtrace_event; the core gives it
 * an id (the common_type of its records) and the files
 * events/<system>/<event>/{id,format,enable,enabled,filter}, plus
 * events/<system>/enable for the system and events/enable for all.  The
 * source asks ringtrace_event_wanted() before it fetches anything, builds
 * its record in the buffer between ringtrace_event_reserve(), which fills
 * the common fields in, and ringtrace_event_commit(), which runs the
 * filter on it there: a rejected record is discarded (readers never see
 * it), an accepted one committed.  No record is built twice.
 *
 * Locking: events_lock (a mutex) guards the registry, the systems and
 * every enable or filter change; the event and system files take it.
 * Removing files waits for their operations in flight, so files are never
 * removed under events_lock: registering and unregistering serialise on
 * register_lock (taken by no operation of a file that is removed), unlink
 * the event or system under events_lock, where operations that come later
 * find it gone, and remove the files after dropping it.  Writers check
 * that the event is enabled, build the record, read the filter and commit
 * in one section with preemption off (RCU-sched); a replaced filter is
 * freed, and an unregistered event released, after a grace period.
 * Buffer resets give back the ids of events that are gone under reset_lock
 * (ringtrace_events_reset_begin() to _end(), which the trace buffer calls
 * around every change that empties it: events_listener).  The three locks'
 * places in the lock order are core.h's rows 3, 5 and 8.
 */

#define pr_fmt(fmt) "ringtrace: " fmt

#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/ringtrace_events.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "core.h"
#include "dir.h"
#include "filter.h"
#include "record_layout.h"
#include "trace.h"

/* Longest filter expression accepted by a filter file. */
#define FILTER_WRITE_MAX	RTF_MAX_EXPR

struct ringtrace_event_system {
	struct list_head	node;
	const char		*name;
	struct dentry		*dir;
	unsigned int		nr_events;
	char			*filter_text;	/* last set on the system */
};

/* Guards the lists and ids below and every event's enabled and filter. */
DEFINE_MUTEX(ringtrace_events_lock);
/* Serialises register and unregister, files included; outside the above. */
static DEFINE_MUTEX(register_lock);
static LIST_HEAD(events);
/*
 * Unregistered events whose records may still be in the buffer, oldest
 * first: still found by id, so that their records print, until the buffer
 * is reset or RETIRED_MAX newer ones push them out.
 */
static LIST_HEAD(retired);
static unsigned int nr_retired;
#define RETIRED_MAX		64
/*
 * Dynamic ids of events that are gone (unregistered, or retired and pushed
 * out), still allocated in event_ids: records carrying them may be in the
 * buffer, and a new event with the id would print them with its layout.
 * A buffer reset gives them back (ringtrace_events_reset_end()).
 */
static DECLARE_BITMAP(parked_ids, U16_MAX + 1);
/*
 * One reset at a time, from ringtrace_events_reset_begin() to _end(); the
 * retired events and parked ids it gives back at its end, taken at its
 * beginning.  core.h's row 5.
 */
static DEFINE_MUTEX(reset_lock);
static LIST_HEAD(resetting);
static DECLARE_BITMAP(resetting_ids, U16_MAX + 1);
static LIST_HEAD(systems);
static DEFINE_XARRAY(events_by_id);
/* Told of events that may start writing; under events_lock. */
static LIST_HEAD(writing_listeners);
static DEFINE_IDA(event_ids);
static struct dentry *events_dir;

static const struct ringtrace_event_field common_fields[] = {
	{ "common_type", "unsigned short", 0, 2, false, false },
	{ "common_flags", "unsigned char", 2, 1, false, false },
	{ "common_preempt_count", "unsigned char", 3, 1, false, false },
	{ "common_pid", "int", 4, 4, true, false },
	{ "common_tgid", "int", 8, 4, true, false },
};

/**
 * ringtrace_event_find() - the event of an id
 * @id: a common_type
 *
 * Context: under ringtrace_events_lock.
 * Return: the event, or NULL if no event has @id (any more).
 */
struct ringtrace_event *ringtrace_event_find(unsigned int id)
{
	lockdep_assert_held(&ringtrace_events_lock);
	return xa_load(&events_by_id, id);
}

/**
 * ringtrace_event_find_rcu() - ringtrace_event_find() without the lock
 * @id: a common_type
 *
 * For crash dumps, which cannot wait for ringtrace_events_lock: every
 * event leaves events_by_id a grace period before it is released (each
 * xa_erase() below is followed by synchronize_rcu() before the kref_put()
 * or the return that lets its owner free it), so the event returned stays
 * valid until the caller's RCU read-side section ends.
 *
 * Context: in an RCU read-side section; any context, NMI included.
 * Return: the event, or NULL if no event has @id (any more).
 */
struct ringtrace_event *ringtrace_event_find_rcu(unsigned int id)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(),
			 "lockless event lookup outside an RCU section");
	/* xa_load() is RCU-safe against xa_insert() and xa_erase(). */
	return xa_load(&events_by_id, id);
}

/**
 * ringtrace_event_wanted() - whether an event's records are recorded now
 * @event: the event
 *
 * A cheap test for sources to make before they build a record.
 *
 * Return: true if the event is enabled (or always on).
 */
bool ringtrace_event_wanted(struct ringtrace_event *event)
{
	return READ_ONCE(event->enabled);
}
EXPORT_SYMBOL_GPL(ringtrace_event_wanted);

/**
 * ringtrace_event_reserve() - start a record of an event in the buffer
 * @event: the record's event
 * @size: record size in bytes, struct ringtrace_entry included
 * @res: receives what ringtrace_event_commit() needs
 *
 * The record is written in place: fill in every byte after the common
 * fields (those, and the 4 bytes after them that align a u64, are filled
 * in here), then call ringtrace_event_commit(),
 * which runs the event's filter on it.  Nothing between the two may sleep;
 * preemption is off.  Any context, NMI included.
 *
 * Return: the record, or NULL if it is not wanted or has no room (event
 * disabled, tracing off, buffer full); then do not commit.
 */
void *ringtrace_event_reserve(struct ringtrace_event *event, unsigned int size,
			      struct ringtrace_reservation *res)
{
	/* The common fields and the padding that aligns what follows. */
	struct {
		struct ringtrace_entry	ent;
		u32			pad;
	} common = { .pad = 0 };

	/* Before preemption is off: the caller's count goes in the record. */
	ringtrace_common_fields(&common.ent, event->id);
	/*
	 * From the enabled check to the commit in one RCU-sched section: the
	 * grace period of unregistering (and of rtb_reset()) then ends after
	 * every record of an event that was disabled before it began, which
	 * event_park_id() relies on, even for a caller that can be preempted.
	 * Preemption off is such a section (rcu_dereference_sched() accepts
	 * it); not rcu_read_lock_sched(), whose sparse context cannot follow
	 * a section that a NULL return does not keep.
	 */
	preempt_disable_notrace();
	if (!READ_ONCE(event->enabled))
		goto none;
	res->rec = ringtrace_reserve_record(size);
	if (!res->rec)
		goto none;
	res->entry = rtb_event_data(res->rec);
	res->size = size;
	/* Constant sizes: two stores, not a call (records are 12 bytes up). */
	if (likely(size >= sizeof(common)))
		memcpy(res->entry, &common, sizeof(common));
	else
		memcpy(res->entry, &common.ent, sizeof(common.ent));
	return res->entry;
none:
	preempt_enable_notrace();
	return NULL;
}
EXPORT_SYMBOL_GPL(ringtrace_event_reserve);

/**
 * ringtrace_event_commit() - filter a record built in place and keep it or not
 * @event: the record's event
 * @res: what ringtrace_event_reserve() filled in
 *
 * Same CPU and context as the reservation.  A record the filter rejects
 * is discarded: its space is given back, or it becomes padding readers
 * skip.
 *
 * Return: 0 if recorded, -ENOENT if the filter rejected it.
 */
int ringtrace_event_commit(struct ringtrace_event *event,
			   struct ringtrace_reservation *res)
{
	struct rtf_prog *filter = rcu_dereference_sched(event->filter);
	int ret = 0;

	if (rtf_match(filter, res->entry, res->size)) {
		ringtrace_commit_record(res->rec);
	} else {
		ringtrace_discard_record(res->rec);
		ret = -ENOENT;
	}
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_GPL(ringtrace_event_commit);

/**
 * ringtrace_event_discard() - give up a record built in place
 * @event: the record's event
 * @res: what ringtrace_event_reserve() filled in
 *
 * Same CPU and context as the reservation.  For a writer that could not
 * complete its record; the filter does not run.
 */
void ringtrace_event_discard(struct ringtrace_event *event,
			     struct ringtrace_reservation *res)
{
	ringtrace_discard_record(res->rec);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(ringtrace_event_discard);

/* @event may write records from now on.  Under ringtrace_events_lock. */
static void event_tell_writing(struct ringtrace_event *event)
{
	struct ringtrace_events_listener *listener;

	lockdep_assert_held(&ringtrace_events_lock);
	list_for_each_entry(listener, &writing_listeners, node)
		listener->writing(event);
}

/* Turn an event on or off.  Under ringtrace_events_lock. */
static int event_set_enabled(struct ringtrace_event *event, bool on)
{
	int ret = 0;

	if (event->always_on || event->enabled == on)
		return 0;
	if (event->ops->enable)
		ret = event->ops->enable(event, on);
	if (!ret)
		WRITE_ONCE(event->enabled, on);
	if (!ret && on)
		event_tell_writing(event);
	return ret;
}

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
	ret = event->registered ? event_set_enabled(event, on) : -ENODEV;
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
	list_for_each_entry(event, &events, node) {
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
	list_for_each_entry(event, &events, node) {
		/* A stopped event is on its way out: leave it off. */
		if (!event->registered || !event_in_group(event, system))
			continue;
		ret = event_set_enabled(event, on);
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

/*
 * The events that set_event and available_events name: registered ones a
 * user can turn on and off (always-on ones have no enable file either).
 */
static bool event_listed(const struct ringtrace_event *event)
{
	return event->registered && !event->always_on;
}

/**
 * ringtrace_events_show() - list events as "system:event" lines
 * @m: where to print
 * @enabled_only: only the enabled ones (set_event); else every one a user
 *	can enable (available_events)
 *
 * Context: process context; may sleep.
 */
void ringtrace_events_show(struct seq_file *m, bool enabled_only)
{
	struct ringtrace_event *event;

	mutex_lock(&ringtrace_events_lock);
	list_for_each_entry(event, &events, node) {
		if (event_listed(event) && (!enabled_only || event->enabled))
			seq_printf(m, "%s:%s\n", event->system, event->name);
	}
	mutex_unlock(&ringtrace_events_lock);
}

static bool selector_matches(const struct ringtrace_event_selector *sel,
			     const struct ringtrace_event *event)
{
	if (sel->system && strcmp(sel->system, event->system))
		return false;
	if (sel->name && strcmp(sel->name, event->name))
		return false;
	return !sel->either || !strcmp(sel->either, event->system) ||
	       !strcmp(sel->either, event->name);
}

/* Whether some listed event matches @sel.  Under ringtrace_events_lock. */
static bool selector_matches_any(const struct ringtrace_event_selector *sel)
{
	struct ringtrace_event *event;

	list_for_each_entry(event, &events, node) {
		if (event_listed(event) && selector_matches(sel, event))
			return true;
	}
	return false;
}

/**
 * ringtrace_events_select() - turn events on and off by selectors
 * @sel: the selectors, applied in order (a later one wins for an event
 *	both match)
 * @nr: entries in @sel
 * @unmatched: if not NULL, a selector must match some event: set to the
 *	index of the first that matched none, else to @nr
 *
 * All or nothing: nothing changes if a selector matches no event (with
 * @unmatched), and what was turned on or off is turned back if enabling
 * or disabling one event fails (records of events enabled meanwhile may
 * stay in the buffer).
 *
 * Context: process context; may sleep.
 * Return: 0; -ENOENT if a selector matched none (@unmatched < @nr);
 * -ENOMEM; or what ops->enable() returned.
 */
int ringtrace_events_select(const struct ringtrace_event_selector *sel,
			    unsigned int nr, unsigned int *unmatched)
{
	struct ringtrace_event *event;
	unsigned long *flipped = NULL;
	unsigned int i;
	bool on;
	int ret = 0;

	if (unmatched)
		*unmatched = nr;
	/*
	 * What to turn back if enabling one fails, by id (unique among
	 * registered events).  Only disabling, nothing to turn back:
	 * disabling does not fail.
	 */
	for (i = 0; i < nr && !flipped; i++) {
		if (!sel[i].on)
			continue;
		flipped = bitmap_zalloc(U16_MAX + 1, GFP_KERNEL);
		if (!flipped)
			return -ENOMEM;
	}
	mutex_lock(&ringtrace_events_lock);
	for (i = 0; unmatched && i < nr; i++) {
		if (!selector_matches_any(&sel[i])) {
			*unmatched = i;
			ret = -ENOENT;
			goto unlock;
		}
	}
	list_for_each_entry(event, &events, node) {
		if (!event_listed(event))
			continue;
		on = event->enabled;
		for (i = 0; i < nr; i++) {
			if (selector_matches(&sel[i], event))
				on = sel[i].on;
		}
		if (on == event->enabled)
			continue;
		ret = event_set_enabled(event, on);
		if (ret)
			break;
		if (flipped)
			__set_bit(event->id, flipped);
	}
	if (ret && flipped) {
		/* Disabling again does not fail; enabling again could. */
		list_for_each_entry(event, &events, node) {
			if (test_bit(event->id, flipped) &&
			    event_set_enabled(event, !event->enabled))
				pr_warn("event %s:%s stays %s: cannot undo\n",
					event->system, event->name,
					event->enabled ? "enabled" : "disabled");
		}
	}
unlock:
	mutex_unlock(&ringtrace_events_lock);
	bitmap_free(flipped);
	return ret;
}

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

/**
 * ringtrace_events_listen() - be told of every event that may write records
 * @listener: the callback; lives as long as the kernel
 *
 * From now on, ->writing() is called for an event that is enabled and
 * for an always-on event that registers; first, before this returns, for
 * every event that may write records already (the enabled ones and the
 * always-on ones), as register_netdevice_notifier() replays the devices
 * there are.  No event is missed in between: both happen under
 * ringtrace_events_lock.
 *
 * Context: process context; takes ringtrace_events_lock.
 */
void ringtrace_events_listen(struct ringtrace_events_listener *listener)
{
	struct ringtrace_event *event;

	mutex_lock(&ringtrace_events_lock);
	list_add_tail(&listener->node, &writing_listeners);
	list_for_each_entry(event, &events, node)
		if (event->enabled || event->always_on)
			listener->writing(event);
	mutex_unlock(&ringtrace_events_lock);
}

static int event_format_open(struct inode *inode, struct file *file)
{
	return single_open(file, event_format_show, inode->i_private);
}

static const struct file_operations event_format_fops = {
	.open		= event_format_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

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

/* Install @prog (NULL: none) with its source @text.  Under events_lock. */
static void event_set_filter(struct ringtrace_event *event,
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
			event_set_filter(event, NULL, NULL);
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
	event_set_filter(event, prog, text);
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

	list_for_each_entry(event, &events, node) {
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
	list_for_each_entry(event, &events, node)
		n += event_in_group(event, system);
	progs = kcalloc(n ?: 1, sizeof(*progs), GFP_KERNEL);
	texts = kcalloc(n ?: 1, sizeof(*texts), GFP_KERNEL);
	ret = !progs || !texts ? -ENOMEM :
	      clear ? 0 : system_compile(system, text, progs, texts);
	if (ret)
		goto out;
	i = 0;
	list_for_each_entry(event, &events, node) {
		if (!event_in_group(event, system))
			continue;
		event_set_filter(event, progs[i], texts[i]);
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

/* The filter's view: common fields, the event's, then aliases. */
static int event_build_filter_fields(struct ringtrace_event *event)
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

static struct ringtrace_event_system *system_get(const char *name)
{
	struct ringtrace_event_system *system;

	list_for_each_entry(system, &systems, node)
		if (!strcmp(system->name, name))
			goto found;
	system = kzalloc(sizeof(*system), GFP_KERNEL);
	if (!system)
		return ERR_PTR(-ENOMEM);
	system->name = kstrdup(name, GFP_KERNEL);
	system->dir = ringtrace_add_dir(name, events_dir);
	if (!system->name || IS_ERR(system->dir)) {
		int err = IS_ERR(system->dir) ? PTR_ERR(system->dir) : -ENOMEM;

		kfree(system->name);
		kfree(system);
		return ERR_PTR(err);
	}
	ringtrace_add_file("enable", 0600, system->dir, system,
			   &group_enable_fops, NULL);
	ringtrace_add_file("filter", 0600, system->dir, system,
			   &system_filter_fops, NULL);
	list_add_tail(&system->node, &systems);
found:
	system->nr_events++;
	return system;
}

/*
 * Drop an event's reference to its system.  Under events_lock.  Returns
 * the system if that was the last one: unlinked, so that nothing finds it
 * any more; the caller frees it with system_destroy() after dropping
 * events_lock.
 */
static struct ringtrace_event_system *
system_put(struct ringtrace_event_system *system)
{
	if (--system->nr_events)
		return NULL;
	list_del(&system->node);
	return system;
}

/*
 * Remove an unlinked system's files, waiting for their operations in
 * flight (which find no event of it), then free it.  Under register_lock,
 * so that no new system of the same name is made before its directory is
 * gone; not under events_lock, which those operations take.
 */
static void system_destroy(struct ringtrace_event_system *system)
{
	if (!system)
		return;
	ringtrace_remove_tree(system->dir);
	kfree(system->filter_text);
	kfree(system->name);
	kfree(system);
}

static struct ringtrace_event_system *system_find(const char *name)
{
	struct ringtrace_event_system *system;

	list_for_each_entry(system, &systems, node)
		if (!strcmp(system->name, name))
			return system;
	return NULL;
}

static struct ringtrace_event *event_find_by_name(const char *system,
						  const char *name)
{
	struct ringtrace_event *event;

	list_for_each_entry(event, &events, node)
		if (!strcmp(event->system, system) && !strcmp(event->name, name))
			return event;
	return NULL;
}

static bool event_name_ok(const char *name)
{
	return name && *name && !strchr(name, '/') && strlen(name) < 64;
}

/**
 * ringtrace_event_register() - add an event type
 * @event: the event, filled in up to @ops; the core fills in the rest.
 *	A non-zero @event->id asks for that id (the core's own events).
 *
 * Creates its files under events/<system>/<name>/.  Events start disabled
 * unless always on.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL for a bad name or an alias of no field, -EEXIST if
 * the system already has an event of that name, -ENOSPC when ids run out,
 * -ENOMEM.  Nothing is left behind on failure.
 */
int ringtrace_event_register(struct ringtrace_event *event)
{
	struct ringtrace_event_system *system;
	struct dentry *dir;
	int id, ret;

	if (!event_name_ok(event->system) || !event_name_ok(event->name) ||
	    !event->ops || !event->print_fmt)
		return -EINVAL;
	if (!events_dir)
		return -ENODEV;

	mutex_lock(&register_lock);
	mutex_lock(&ringtrace_events_lock);
	if (event_find_by_name(event->system, event->name)) {
		ret = -EEXIST;
		goto unlock;
	}
	ret = event_build_filter_fields(event);
	if (ret)
		goto unlock;
	if (event->id)
		id = event->id;
	else
		id = ida_alloc_range(&event_ids, RINGTRACE_FIRST_DYNAMIC_TYPE,
				     U16_MAX, GFP_KERNEL);
	if (id < 0) {
		ret = id == -ENOSPC ? -ENOSPC : id;
		goto free_fields;
	}
	event->id = id;
	ret = xa_insert(&events_by_id, id, event, GFP_KERNEL);
	if (ret)
		goto free_id;
	system = system_get(event->system);
	if (IS_ERR(system)) {
		ret = PTR_ERR(system);
		goto erase;
	}
	dir = ringtrace_add_dir(event->name, system->dir);
	if (IS_ERR(dir)) {
		ret = PTR_ERR(dir);
		goto put_system;
	}
	event->dir = dir;
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
	event->enabled = event->always_on;
	event->registered = true;
	RCU_INIT_POINTER(event->filter, NULL);
	event->filter_text = NULL;
	kref_init(&event->kref);
	list_add_tail(&event->node, &events);
	if (event->always_on)
		event_tell_writing(event);
	mutex_unlock(&ringtrace_events_lock);
	mutex_unlock(&register_lock);
	return 0;

put_system:
	system = system_put(system);
	mutex_unlock(&ringtrace_events_lock);
	system_destroy(system);
	mutex_lock(&ringtrace_events_lock);
erase:
	xa_erase(&events_by_id, id);
	/* A lockless lookup may hold it: see ringtrace_event_find_rcu(). */
	synchronize_rcu();
free_id:
	if (id >= RINGTRACE_FIRST_DYNAMIC_TYPE)
		ida_free(&event_ids, id);
	event->id = 0;
free_fields:
	kfree(event->filter_fields);
	event->filter_fields = NULL;
unlock:
	mutex_unlock(&ringtrace_events_lock);
	mutex_unlock(&register_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ringtrace_event_register);

static void event_release(struct kref *kref)
{
	struct ringtrace_event *event =
		container_of(kref, struct ringtrace_event, kref);

	if (event->ops->release)
		event->ops->release(event);
}

/*
 * Keep a gone event's id from reuse until the next reset.  The event was
 * disabled under events_lock before: a reset that begins later finds every
 * record of it (its writers' RCU sections end inside rtb_reset()'s grace
 * period, or see it disabled).
 */
static void event_park_id(struct ringtrace_event *event)
{
	lockdep_assert_held(&ringtrace_events_lock);
	xa_erase(&events_by_id, event->id);
	if (event->id >= RINGTRACE_FIRST_DYNAMIC_TYPE)
		__set_bit(event->id, parked_ids);
}

/**
 * ringtrace_events_stop() - disable events for good before removing them
 * @events: registered events
 * @nr: entries in @events
 * @busy: fail with -EBUSY, changing nothing, if one of them is enabled;
 *	if false, each is stopped even if disabling it fails (a warning)
 *
 * All at once under the lock that enabling takes: from here on no file
 * enables them (their enable and filter files fail with -ENODEV, group
 * enables skip them), so their sources can be taken down (probes
 * unregistered) before ringtrace_event_unregister().
 *
 * Context: process context; may sleep.
 * Return: 0; -EBUSY; or what disabling returned (ops->enable()): then
 * none of them is stopped, though some may have been disabled.
 */
int ringtrace_events_stop(struct ringtrace_event *const *events,
			  unsigned int nr, bool busy)
{
	unsigned int i;
	int ret = 0;

	mutex_lock(&ringtrace_events_lock);
	for (i = 0; busy && i < nr; i++)
		if (events[i]->enabled && !events[i]->always_on)
			ret = -EBUSY;
	for (i = 0; !ret && i < nr; i++) {
		ret = event_set_enabled(events[i], false);
		if (ret && !busy) {
			/* Removing anyway: the source goes, and the event. */
			WARN_ONCE(1, "ringtrace: event %s/%s not disabled: %d\n",
				  events[i]->system, events[i]->name, ret);
			ret = 0;
		}
	}
	for (i = 0; !ret && i < nr; i++) {
		/* Always-on ones too: for good. */
		events[i]->always_on = false;
		WRITE_ONCE(events[i]->enabled, false);
		events[i]->registered = false;
	}
	mutex_unlock(&ringtrace_events_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ringtrace_events_stop);

/**
 * ringtrace_event_stop() - ringtrace_events_stop() of one event
 * @event: a registered event
 * @busy: fail with -EBUSY, changing nothing, if @event is enabled
 *
 * Context: process context; may sleep.
 * Return: as ringtrace_events_stop().
 */
int ringtrace_event_stop(struct ringtrace_event *event, bool busy)
{
	return ringtrace_events_stop(&event, 1, busy);
}
EXPORT_SYMBOL_GPL(ringtrace_event_stop);

/**
 * ringtrace_event_unregister() - remove an event type
 * @event: a registered event
 *
 * Disables it, removes its files (waiting for file operations running on
 * them) and waits until no CPU can be writing a record of it.  Then
 * ops->release() may free it, and its records still in the buffer print
 * as records of an unknown event; unless @event->retire is set, in which
 * case the event keeps its id, and its records print, until the buffer is
 * reset (or many newer events retire), and ops->release() runs then.
 * Either way no new event gets its id before the buffer is reset: its old
 * records would print with the new event's layout.
 *
 * Context: process context; may sleep.
 */
void ringtrace_event_unregister(struct ringtrace_event *event)
{
	struct ringtrace_event_system *system, *gone = NULL;
	struct ringtrace_event *pushed_out, *tmp;
	LIST_HEAD(pushed);

	mutex_lock(&register_lock);
	mutex_lock(&ringtrace_events_lock);
	event->always_on = false;
	event_set_enabled(event, false);
	/* File operations that get events_lock from here on do nothing. */
	event->registered = false;
	list_del(&event->node);
	system = system_find(event->system);
	if (system)
		gone = system_put(system);
	event_set_filter(event, NULL, NULL);
	if (event->retire) {
		/*
		 * The retired list's reference may go (a reset, or newer events
		 * pushing it out) before we are done: hold one of our own.
		 */
		kref_get(&event->kref);
		list_add_tail(&event->node, &retired);
		nr_retired++;
		/* More than one after a failed reset put its events back. */
		while (nr_retired > RETIRED_MAX) {
			pushed_out = list_first_entry(&retired,
						      struct ringtrace_event,
						      node);
			list_move_tail(&pushed_out->node, &pushed);
			event_park_id(pushed_out);
			nr_retired--;
		}
	} else {
		event_park_id(event);
	}
	mutex_unlock(&ringtrace_events_lock);
	/*
	 * Outside events_lock: removal waits for the files' operations in
	 * flight, which may be waiting for it.
	 */
	ringtrace_remove_tree(event->dir);
	event->dir = NULL;
	system_destroy(gone);
	mutex_unlock(&register_lock);
	/* Submitters run with preemption off. */
	synchronize_rcu();
	kfree(event->filter_fields);
	event->filter_fields = NULL;
	list_for_each_entry_safe(pushed_out, tmp, &pushed, node) {
		list_del(&pushed_out->node);
		kref_put(&pushed_out->kref, event_release);
	}
	/* Ours if retired (the list has the registration's), else that one. */
	kref_put(&event->kref, event_release);
}
EXPORT_SYMBOL_GPL(ringtrace_event_unregister);

/**
 * ringtrace_events_reset_begin() - the trace buffer is about to be emptied
 *
 * Takes note of the retired events and parked ids that the reset may give
 * back: those gone before now.  Events that go while the buffer is being
 * emptied may have records written after it, and wait for the next reset.
 * Pair with ringtrace_events_reset_end(); one reset runs at a time.
 *
 * Context: process context, under no lock of core.h's rows 5 to 12 (a trace
 * listener's ->begin()); may sleep.
 */
void ringtrace_events_reset_begin(void)
{
	mutex_lock(&reset_lock);
	mutex_lock(&ringtrace_events_lock);
	list_splice_tail_init(&retired, &resetting);
	nr_retired = 0;
	bitmap_copy(resetting_ids, parked_ids, U16_MAX + 1);
	bitmap_zero(parked_ids, U16_MAX + 1);
	mutex_unlock(&ringtrace_events_lock);
}

/**
 * ringtrace_events_reset_end() - the trace buffer was emptied, or not
 * @emptied: whether every record written before
 *	ringtrace_events_reset_begin() is gone from the buffer
 *
 * If it was, the events retired and ids parked before the reset began are
 * released and their ids can be reused; if not (a resize that failed),
 * they stay as they were.
 *
 * Context: process context, after ringtrace_events_reset_begin(); may sleep.
 */
void ringtrace_events_reset_end(bool emptied)
{
	struct ringtrace_event *event, *tmp;
	unsigned long id;
	LIST_HEAD(gone);

	mutex_lock(&ringtrace_events_lock);
	if (emptied) {
		list_for_each_entry(event, &resetting, node) {
			xa_erase(&events_by_id, event->id);
			if (event->id >= RINGTRACE_FIRST_DYNAMIC_TYPE)
				ida_free(&event_ids, event->id);
		}
		list_splice_init(&resetting, &gone);
		for_each_set_bit(id, resetting_ids, U16_MAX + 1)
			ida_free(&event_ids, id);
	} else {
		/* Older than the ones retired meanwhile: in front of them. */
		list_for_each_entry(event, &resetting, node)
			nr_retired++;
		list_splice_init(&resetting, &retired);
		bitmap_or(parked_ids, parked_ids, resetting_ids, U16_MAX + 1);
	}
	bitmap_zero(resetting_ids, U16_MAX + 1);
	mutex_unlock(&ringtrace_events_lock);
	mutex_unlock(&reset_lock);
	/* Lockless lookups may hold them: see ringtrace_event_find_rcu(). */
	if (!list_empty(&gone))
		synchronize_rcu();
	list_for_each_entry_safe(event, tmp, &gone, node) {
		list_del(&event->node);
		kref_put(&event->kref, event_release);
	}
}

static struct ringtrace_trace_listener events_listener = {
	.begin	= ringtrace_events_reset_begin,
	.end	= ringtrace_events_reset_end,
};

static int __init ringtrace_events_init(void)
{
	struct dentry *dir = ringtrace_add_dir("events", NULL);

	/* Resets of the buffer give back what is gone: see reset_begin(). */
	ringtrace_trace_listen(&events_listener);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	events_dir = dir;
	ringtrace_add_file("enable", 0600, dir, NULL, &group_enable_fops,
			   "1 enables every event, 0 disables all, X: mixed");
	ringtrace_add_file("header_event", 0400, dir, rtb_header_event_text,
			   &header_text_fops,
			   "the layout of the record header, in text");
	ringtrace_add_file("header_page", 0400, dir, rtb_header_page_text,
			   &header_text_fops,
			   "the layout of a page header, in text");
	return 0;
}
fs_initcall_sync(ringtrace_events_init);
