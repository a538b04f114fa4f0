/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between kprobe events' probe objects and handlers (kprobe.c) and the
 * kprobe_events command interpreter and files (kprobe_events.c): the
 * probes, their locks (core.h's rows 2 and 9) and what a command does to
 * them.
 */
#ifndef _RINGTRACE_KPROBE_H
#define _RINGTRACE_KPROBE_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/ringtrace_events.h>

#include "kprobe_parse.h"

struct rtk_probe;

/*
 * One probe point of an event, with its own kprobe and its own definition
 * (the first point's is its event's, @tp->def).  On its event's @points
 * list: added and removed under rtk_probes_lock and rtk_arm_lock, read under
 * either.
 */
struct rtk_point {
	struct list_head	node;
	struct rtk_probe	*tp;
	struct rtk_def		*def;
	struct kretprobe	rp;	/* rp.kp for plain probes too */
	unsigned long __percpu	*hits;
	char			*module;
	bool			registered;
};

/* An event and its probe points. */
struct rtk_probe {
	struct list_head		node;
	struct rtk_def			*def;	/* the first point's: layout */
	struct ringtrace_event		event;
	struct ringtrace_event_field	*fields;
	struct ringtrace_event_alias	*aliases;
	char				*print_fmt;
	char				*print_fmt_sym;
	unsigned int			nargs_offset;
	unsigned int			*arg_offset;
	unsigned int			record_size;
	struct list_head		points;
	bool				want_armed;
};

/* The kprobe events, in definition order; under rtk_probes_lock. */
extern struct list_head rtk_probes;
extern struct mutex rtk_probes_lock;
extern struct mutex rtk_arm_lock;

static inline bool rtk_is_return(struct rtk_probe *tp)
{
	return tp->def->kind == RTK_DEF_RETPROBE;
}

/* The objects: under rtk_probes_lock. */
struct rtk_probe *rtk_find(const char *group, const char *event);
int rtk_build_layout(struct rtk_probe *tp);
char *rtk_make_print_fmt(struct rtk_probe *tp, bool text_head);
int rtk_start_point(struct rtk_point *pt, struct rtk_probe *tp,
		    const char *line);
void rtk_unregister_point(struct rtk_point *pt);
int rtk_remove(struct rtk_probe *tp, bool even_enabled);
void rtk_remove_point(struct rtk_point *pt);
void rtk_free_point(struct rtk_point *pt);
void rtk_free_probe(struct rtk_probe *tp);
void rtk_watch_modules(void);

/* error_log for the line being run, at its location (kprobe.c). */
extern const char *rtk_log_location;
void rtk_log_at(const char *line, unsigned int pos, const char *msg);
void rtk_log(const char *line, const char *at, const char *msg);

#endif /* _RINGTRACE_KPROBE_H */
