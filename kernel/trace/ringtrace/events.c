// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace events: the registry of event types, their ids and their
 * record path.  events_files.c makes their files in events/.
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
#include <linux/xarray.h>

#include "core.h"
#include "dir.h"
#include "events.h"
#include "filter.h"
#include "trace.h"

/* Serialises register and unregister, files included; outside events_lock. */
static DEFINE_MUTEX(register_lock);
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
static DEFINE_IDA(event_ids);
static struct dentry *events_dir;

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
	list_for_each_entry(event, &ringtrace_event_list, node) {
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

	list_for_each_entry(event, &ringtrace_event_list, node) {
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
	list_for_each_entry(event, &ringtrace_event_list, node) {
		if (!event_listed(event))
			continue;
		on = event->enabled;
		for (i = 0; i < nr; i++) {
			if (selector_matches(&sel[i], event))
				on = sel[i].on;
		}
		if (on == event->enabled)
			continue;
		ret = ringtrace_event_set_enabled(event, on);
		if (ret)
			break;
		if (flipped)
			__set_bit(event->id, flipped);
	}
	if (ret && flipped) {
		/* Disabling again does not fail; enabling again could. */
		list_for_each_entry(event, &ringtrace_event_list, node) {
			if (test_bit(event->id, flipped) &&
			    ringtrace_event_set_enabled(event, !event->enabled))
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
	ringtrace_system_add_files(system);
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

	list_for_each_entry(event, &ringtrace_event_list, node)
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
	ret = ringtrace_event_build_filter_fields(event);
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
	dir = ringtrace_event_add_files(event, system->dir);
	if (IS_ERR(dir)) {
		ret = PTR_ERR(dir);
		goto put_system;
	}
	event->dir = dir;
	event->enabled = event->always_on;
	event->registered = true;
	RCU_INIT_POINTER(event->filter, NULL);
	event->filter_text = NULL;
	kref_init(&event->kref);
	list_add_tail(&event->node, &ringtrace_event_list);
	if (event->always_on)
		ringtrace_event_tell_writing(event);
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
		ret = ringtrace_event_set_enabled(events[i], false);
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
	ringtrace_event_set_enabled(event, false);
	/* File operations that get events_lock from here on do nothing. */
	event->registered = false;
	list_del(&event->node);
	system = system_find(event->system);
	if (system)
		gone = system_put(system);
	ringtrace_event_set_filter(event, NULL, NULL);
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
	ringtrace_events_add_top_files(dir);
	return 0;
}
fs_initcall_sync(ringtrace_events_init);
