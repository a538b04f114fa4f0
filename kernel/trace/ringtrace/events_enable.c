// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace events: turning an event on and off, and who is told.
 *
 * The lowest of the event registry's files (events.c registers events,
 * events_files.c makes their files; both come here to enable one): the
 * lock of the registry, its list of events, and the events listeners,
 * which hear of every event that may write records from now on (the
 * persistent buffer writes the event's format into its region before the
 * first record of it can be there).
 */

#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/ringtrace_events.h>

#include "core.h"
#include "events.h"

/*
 * Guards the registry (the lists and ids of events.c, the list below),
 * every event's enabled and filter, and the events listeners.  core.h's
 * row 8.
 */
DEFINE_MUTEX(ringtrace_events_lock);
/* The registered events, in registration order. */
LIST_HEAD(ringtrace_event_list);
/* Told of events that may start writing; under events_lock. */
static LIST_HEAD(writing_listeners);

/**
 * ringtrace_event_tell_writing() - tell the events listeners of an event
 * @event: an event that may write records from now on
 *
 * Context: under ringtrace_events_lock.
 */
void ringtrace_event_tell_writing(struct ringtrace_event *event)
{
	struct ringtrace_events_listener *listener;

	lockdep_assert_held(&ringtrace_events_lock);
	list_for_each_entry(listener, &writing_listeners, node)
		listener->writing(event);
}

/**
 * ringtrace_event_set_enabled() - turn an event on or off
 * @event: a registered event
 * @on: on or off
 *
 * Always-on events stay as they are.
 *
 * Context: under ringtrace_events_lock.
 * Return: 0, or what ops->enable() returned (then nothing changed).
 */
int ringtrace_event_set_enabled(struct ringtrace_event *event, bool on)
{
	int ret = 0;

	if (event->always_on || event->enabled == on)
		return 0;
	if (event->ops->enable)
		ret = event->ops->enable(event, on);
	if (!ret)
		WRITE_ONCE(event->enabled, on);
	if (!ret && on)
		ringtrace_event_tell_writing(event);
	return ret;
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
	list_for_each_entry(event, &ringtrace_event_list, node)
		if (event->enabled || event->always_on)
			listener->writing(event);
	mutex_unlock(&ringtrace_events_lock);
}
