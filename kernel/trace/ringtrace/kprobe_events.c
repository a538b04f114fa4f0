// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe events' files (Documentation/trace/ringtrace-kprobes.rst):
 * kprobe_events (and its upstream name dynamic_events) runs a command
 * per line, which defines a probe, appends a probe point to an existing
 * event or removes probes and points; kprobe_profile counts each point's
 * hits and misses; options/upstream_kprobes picks upstream's style for
 * the probes defined next.  kprobe.c holds the probes those commands make.
 *
 * An event may have several probe points, as upstream's: "p:EVENT SYM2"
 * appends one to an existing event whose probes are of the same kind with
 * the same arguments (names and types; each point fetches them its own
 * way), and "-:EVENT SYM2" removes it.  A command that fails says why in
 * error_log (but for -ENOMEM); a removal stops at an enabled event, after
 * removing those before it.
 */

#define pr_fmt(fmt) "ringtrace: " fmt

#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/ringtrace_events.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "dir.h"
#include "kprobe.h"
#include "kprobe_parse.h"

/* Longest write to kprobe_events. */
#define RTK_MAX_WRITE		(64 * 1024)

/*
 * options/upstream_kprobes: probes defined while it is set name unnamed
 * fetch-args arg1, arg2..., list every fetch-arg as NAME=FETCHARG, and
 * print upstream's lines ("EVENT: (POINT) NAME=VALUE"); lines written
 * while it is set are refused as upstream refuses them (its limits, its
 * error_log location and caret places).  Read once per
 * definition, under rtk_probes_lock; written without it, as a definition
 * takes whichever value it sees.
 */
static bool rtk_upstream_option;

/* @pt's probe point as kprobe_events lists it, into @buf. */
static void rtk_point_text(const struct rtk_point *pt, char *buf, size_t size)
{
	if (pt->def->symbol)
		snprintf(buf, size, "%s+%lu", pt->def->symbol, pt->def->offset);
	else
		snprintf(buf, size, "0x%lx", pt->def->addr);
}

/* Whether @word is fetch-arg @arg of an upstream or spec probe, as listed. */
static bool rtk_arg_is(const struct rtk_def *def, const struct rtk_arg *arg,
		       const char *word, size_t len)
{
	size_t name_len = strlen(arg->name);

	if (len == strlen(arg->text) && !memcmp(word, arg->text, len))
		return true;
	/* NAME=FETCHARG, as an upstream probe lists an unnamed one. */
	return def->upstream && !rtk_arg_named(arg) &&
	       len == name_len + 1 + strlen(arg->text) &&
	       !memcmp(word, arg->name, name_len) && word[name_len] == '=' &&
	       !memcmp(word + name_len + 1, arg->text, strlen(arg->text));
}

/*
 * Whether "-:EVENT POINT [ARG...]" names @pt: POINT as listed (SYM+OFFS or
 * 0xADDR; SYM alone for offset 0, as upstream), then its first fetch-args
 * as listed.
 */
static bool rtk_point_matches(const struct rtk_point *pt, const char *match)
{
	char text[KSYM_NAME_LEN + 24];
	const char *word = match, *end;
	unsigned int i = 0;
	size_t len;

	end = word + strcspn(word, " \t");
	len = end - word;
	rtk_point_text(pt, text, sizeof(text));
	if ((len != strlen(text) || memcmp(word, text, len)) &&
	    (!pt->def->symbol || pt->def->offset ||
	     len != strlen(pt->def->symbol) ||
	     memcmp(word, pt->def->symbol, len)))
		return false;
	for (word = skip_spaces(end); *word; word = skip_spaces(end), i++) {
		end = word + strcspn(word, " \t");
		if (i >= pt->def->nr_args ||
		    !rtk_arg_is(pt->def, &pt->def->args[i], word, end - word))
			return false;
	}
	return true;
}

/*
 * "-:EVENT POINT [ARG...]": remove the matching points of each event
 * @def names; an event's last point takes the event with it.
 */
static int rtk_remove_points(struct rtk_def *def, const char *line)
{
	struct rtk_probe *tp, *tmp;
	struct rtk_point *pt, *next;
	bool found = false;
	int ret = 0;

	list_for_each_entry_safe(tp, tmp, &rtk_probes, node) {
		if ((def->group && strcmp(tp->def->group, def->group)) ||
		    strcmp(tp->def->event, def->event))
			continue;
		list_for_each_entry_safe(pt, next, &tp->points, node) {
			if (!rtk_point_matches(pt, def->match))
				continue;
			found = true;
			/* The last point takes @tp: nothing more to walk. */
			if (list_is_singular(&tp->points)) {
				ret = rtk_remove(tp, false);
				break;
			}
			rtk_remove_point(pt);
		}
		if (ret)
			break;
	}
	if (!ret && !found)
		ret = -ENOENT;
	if (ret == -ENOENT)
		rtk_log(line, def->match, "no such probe point in that event");
	else if (ret == -EBUSY)
		rtk_log(line, NULL, "the probe is enabled");
	return ret;
}

/* Whether two definitions probe the same place with the same fetch-args. */
static bool rtk_same_point(const struct rtk_def *a, const struct rtk_def *b)
{
	unsigned int i;

	if (!a->symbol != !b->symbol)
		return false;
	if (a->symbol ? strcmp(a->symbol, b->symbol) || a->offset != b->offset :
			a->addr != b->addr)
		return false;
	/* The fetch-args, as upstream compares them: names are equal. */
	for (i = 0; i < a->nr_args; i++)
		if (strcmp(rtk_arg_fetch_text(&a->args[i]),
			   rtk_arg_fetch_text(&b->args[i])))
			return false;
	return true;
}

/*
 * Whether @def can be a point of @tp, as upstream: the same kind, the same
 * arguments (names, types, counts, bitfields), and not a probe @tp has
 * already.  0, or -EEXIST with the reason in error_log.
 */
static int rtk_check_append(struct rtk_probe *tp, struct rtk_def *def,
			    const char *line)
{
	unsigned int i, n = min(tp->def->nr_args, def->nr_args);
	const struct rtk_arg *a, *b;
	struct rtk_point *pt;

	if (def->kind != tp->def->kind) {
		rtk_log_at(line, 0, "the event's probes are of the other kind (p, r)");
		return -EEXIST;
	}
	for (i = 0; i < n; i++) {
		a = &tp->def->args[i];
		b = &def->args[i];
		/* An alias names the field for filters: one meaning only. */
		if (strcmp(a->name, b->name) || a->type != b->type ||
		    a->count != b->count || a->bit_width != b->bit_width ||
		    a->bit_offset != b->bit_offset ||
		    !a->alias != !b->alias ||
		    (a->alias && strcmp(a->alias, b->alias)))
			break;
	}
	if (i < n || tp->def->nr_args != def->nr_args) {
		rtk_log_at(line, i < def->nr_args ? def->args[i].pos : strlen(line),
			   "the event's probes have other arguments (names, types)");
		return -EEXIST;
	}
	list_for_each_entry(pt, &tp->points, node) {
		if (rtk_same_point(pt->def, def)) {
			rtk_log_at(line, 0, "the event has this probe already");
			return -EEXIST;
		}
	}
	return 0;
}

/*
 * "p:EVENT POINT ARGS" for an existing EVENT: a new point of it.  Once an
 * event has two, its print format shows the point by %pS.
 */
static int rtk_append(struct rtk_probe *tp, struct rtk_def *def,
		      const char *line)
{
	struct rtk_point *pt;
	int ret = rtk_check_append(tp, def, line);

	if (ret)
		goto free_def;
	if (!tp->print_fmt_sym) {
		tp->print_fmt_sym = rtk_make_print_fmt(tp, false);
		if (!tp->print_fmt_sym) {
			ret = -ENOMEM;
			goto free_def;
		}
	}
	/*
	 * Before the new point records: %pS is right for any point.  Both
	 * texts live as long as the event: readers may hold either.
	 */
	WRITE_ONCE(tp->event.print_fmt, tp->print_fmt_sym);
	pt = kzalloc(sizeof(*pt), GFP_KERNEL);
	if (!pt) {
		ret = -ENOMEM;
		goto free_def;
	}
	pt->def = def;
	ret = rtk_start_point(pt, tp, line);
	if (ret)
		rtk_free_point(pt);
	return ret;
free_def:
	rtk_free_def(def);
	return ret;
}

/*
 * Parse @line in upstream's style or the spec's, which also picks the
 * error_log location of what follows; a refused line is logged.
 */
static struct rtk_def *rtk_parse_logged(const char *line, bool upstream)
{
	struct rtk_error err = {};
	struct rtk_def *def;

	rtk_log_location = upstream ? "trace_kprobe" : "kprobe_events";
	def = rtk_parse(line, upstream, &err);
	if (IS_ERR(def) && PTR_ERR(def) != -ENOMEM)
		rtk_log_at(line, err.pos, err.msg);
	return def;
}

/* Carry out one line of kprobe_events.  Under rtk_probes_lock. */
static int rtk_run_line(const char *line)
{
	struct rtk_point *pt;
	struct rtk_probe *tp;
	struct rtk_def *def;
	int ret;

	def = rtk_parse_logged(line, READ_ONCE(rtk_upstream_option));
	if (IS_ERR(def))
		return PTR_ERR(def);
	if (def->kind == RTK_DEF_DELETE && def->match) {
		ret = rtk_remove_points(def, line);
		rtk_free_def(def);
		return ret;
	}
	tp = rtk_find(def->group, def->event);
	if (def->kind == RTK_DEF_DELETE) {
		/*
		 * Without a group: that event of every group; a group alone:
		 * all its events, as upstream.  An enabled one stops the
		 * removal there (those before it are gone), as upstream.
		 */
		ret = tp ? 0 : -ENOENT;
		while (tp && !ret) {
			ret = rtk_remove(tp, false);
			tp = ret ? NULL : rtk_find(def->group, def->event);
		}
		rtk_free_def(def);
		if (ret == -ENOENT)
			rtk_log(line, NULL, "no such probe");
		else if (ret == -EBUSY)
			rtk_log(line, NULL, "the probe is enabled");
		return ret;
	}
	if (tp && tp->def->upstream != def->upstream) {
		/*
		 * A point of an event defined in the other style is read in
		 * the event's: its names, limits, lines and errors.
		 */
		rtk_free_def(def);
		def = rtk_parse_logged(line, tp->def->upstream);
		if (IS_ERR(def))
			return PTR_ERR(def);
	}
	if (tp)
		return rtk_append(tp, def, line);

	tp = kzalloc(sizeof(*tp), GFP_KERNEL);
	pt = kzalloc(sizeof(*pt), GFP_KERNEL);
	if (!tp || !pt) {
		kfree(tp);
		kfree(pt);
		rtk_free_def(def);
		return -ENOMEM;
	}
	tp->def = def;
	pt->def = def;
	pt->tp = tp;
	INIT_LIST_HEAD(&tp->points);
	ret = rtk_build_layout(tp);
	if (ret == -E2BIG)
		rtk_log(line, NULL,
			"its records would not fit a buffer page: fewer or narrower fetch-args");
	if (!ret)
		ret = rtk_start_point(pt, tp, line);
	if (ret) {
		/* Not on @tp's points: freed alone (tp->def with @tp). */
		rtk_free_point(pt);
		goto free;
	}
	tp->print_fmt = rtk_make_print_fmt(tp, true);
	if (!tp->print_fmt) {
		ret = -ENOMEM;
		goto unregister;
	}
	tp->event.print_fmt = tp->print_fmt;
	ret = ringtrace_event_register(&tp->event);
	if (ret) {
		/* Removed probes keep their ids until the buffer is cleared. */
		rtk_log(line, def->event, ret == -ENOSPC ?
			"no event id left: echo > trace frees those of removed probes" :
			"cannot make the event");
		goto unregister;
	}
	list_add_tail(&tp->node, &rtk_probes);
	return 0;
unregister:
	mutex_lock(&rtk_arm_lock);
	rtk_unregister_point(pt);
	mutex_unlock(&rtk_arm_lock);
free:
	rtk_free_probe(tp);
	return ret;
}

/* Remove every probe; -EBUSY, removing none, if one is enabled. */
static int rtk_clear(void)
{
	struct ringtrace_event **events;
	struct rtk_probe *tp, *tmp;
	unsigned int nr = 0;
	int ret;

	list_for_each_entry(tp, &rtk_probes, node)
		nr++;
	if (!nr)
		return 0;
	events = kmalloc_array(nr, sizeof(*events), GFP_KERNEL);
	if (!events)
		return -ENOMEM;
	nr = 0;
	list_for_each_entry(tp, &rtk_probes, node)
		events[nr++] = &tp->event;
	/* All at once: none is enabled between the check and the removal. */
	ret = ringtrace_events_stop(events, nr, true);
	kfree(events);
	if (ret)
		return ret;
	list_for_each_entry_safe(tp, tmp, &rtk_probes, node)
		rtk_remove(tp, true);
	return 0;
}

static int kprobe_events_show(struct seq_file *m, void *v)
{
	struct rtk_point *pt;
	struct rtk_probe *tp;
	struct rtk_def *def;
	unsigned int i;

	mutex_lock(&rtk_probes_lock);
	/* A line per probe point, as upstream lists a multi-probe event. */
	list_for_each_entry(tp, &rtk_probes, node) {
		list_for_each_entry(pt, &tp->points, node) {
			def = pt->def;
			seq_putc(m, rtk_is_return(tp) ? 'r' : 'p');
			if (def->maxactive)
				seq_printf(m, "%u", def->maxactive);
			seq_printf(m, ":%s/%s ", tp->def->group, tp->def->event);
			if (def->symbol)
				seq_printf(m, "%s+%lu", def->symbol, def->offset);
			else
				seq_printf(m, "0x%lx", def->addr);
			/* Upstream's list every fetch-arg as NAME=FETCHARG. */
			for (i = 0; i < def->nr_args; i++) {
				seq_putc(m, ' ');
				if (def->upstream &&
				    !rtk_arg_named(&def->args[i]))
					seq_printf(m, "%s=", def->args[i].name);
				seq_puts(m, def->args[i].text);
			}
			seq_putc(m, '\n');
		}
	}
	mutex_unlock(&rtk_probes_lock);
	return 0;
}

static int kprobe_events_open(struct inode *inode, struct file *file)
{
	int ret = 0;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&rtk_probes_lock);
		ret = rtk_clear();
		mutex_unlock(&rtk_probes_lock);
		if (ret)
			return ret;
	}
	return single_open(file, kprobe_events_show, NULL);
}

static ssize_t kprobe_events_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char *buf, *line, *next, *last_newline, *comment;
	int ret = 0;

	if (count > RTK_MAX_WRITE)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/*
	 * A write ending inside a line after complete ones takes only the
	 * complete lines: the caller writes the rest again, with the line's
	 * remainder (a short write, as stdio pieces of a long text).
	 */
	last_newline = strrchr(buf, '\n');
	if (count && buf[count - 1] != '\n' && last_newline) {
		last_newline[1] = '\0';
		count = last_newline + 1 - buf;
	}
	mutex_lock(&rtk_probes_lock);
	for (line = buf; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* A comment ends the line, as in upstream's files. */
		comment = strchr(line, '#');
		if (comment)
			*comment = '\0';
		/* Over-long lines go to the parser untrimmed, to be refused. */
		if (strnlen(line, RTK_MAX_LINE + 1) <= RTK_MAX_LINE) {
			line = strim(line);
			if (!*line)
				continue;
		}
		ret = rtk_run_line(line);
	}
	mutex_unlock(&rtk_probes_lock);
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations kprobe_events_fops = {
	.open		= kprobe_events_open,
	.read		= seq_read,
	.write		= kprobe_events_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int kprobe_profile_show(struct seq_file *m, void *v)
{
	struct rtk_point *pt;
	struct rtk_probe *tp;
	unsigned long hits;
	int cpu;

	mutex_lock(&rtk_probes_lock);
	/* A line per probe point, as upstream's. */
	list_for_each_entry(tp, &rtk_probes, node) {
		list_for_each_entry(pt, &tp->points, node) {
			hits = 0;
			for_each_possible_cpu(cpu)
				hits += *per_cpu_ptr(pt->hits, cpu);
			seq_printf(m, "  %-44s %15lu %15lu\n", tp->def->event,
				   hits, pt->rp.kp.nmissed + pt->rp.nmissed);
		}
	}
	mutex_unlock(&rtk_probes_lock);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(kprobe_profile);

static ssize_t upstream_option_read(struct file *file, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[4];
	int len = scnprintf(buf, sizeof(buf), "%d\n",
			    READ_ONCE(rtk_upstream_option));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t upstream_option_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	unsigned int on;
	int ret = kstrtouint_from_user(ubuf, count, 0, &on);

	if (ret)
		return ret;
	if (on > 1)
		return -EINVAL;
	WRITE_ONCE(rtk_upstream_option, on);
	return count;
}

static const struct file_operations upstream_option_fops = {
	.read	= upstream_option_read,
	.write	= upstream_option_write,
	.llseek	= default_llseek,
};

static int __init ringtrace_kprobe_init(void)
{
	struct dentry *options;

	rtk_watch_modules();
	options = ringtrace_options_dir();
	if (options)
		ringtrace_add_file("upstream_kprobes", 0600, options, NULL,
				   &upstream_option_fops,
				   "1: probes defined from now on are upstream's: unnamed fetch-args\n"
				   "\t arg1, arg2..., listed NAME=FETCHARG, lines \"EVENT: (POINT) NAME=VALUE\"");
	ringtrace_add_file("kprobe_events", 0600, NULL, NULL,
			   &kprobe_events_fops,
			   "Create/append/remove/show kprobe events (Documentation/trace/ringtrace-kprobes.rst):\n"
			   "\t p[:[GRP/]EVENT] [MOD:]SYMBOL[+OFFS]|ADDR [ARG...]\n"
			   "\t r[maxactive][:[GRP/]EVENT] [MOD:]SYMBOL[+0]|ADDR [ARG...]\n"
			   "\t p[:[GRP/]EVENT] <symbol>[+<offset>]%return [ARG...] (offset 0)\n"
			   "\t -:[GRP/]EVENT (no GRP: that EVENT in every group), -:GRP/ (all of GRP)\n"
			   "\t -:[GRP/]EVENT POINT [ARG...] (that probe point of EVENT)\n"
			   "\t p:EVENT for an existing EVENT of the same kind and ARGs appends a point\n"
			   "\t ARG: [NAME=]fetcharg[:TYPE]; fetcharg: aN, $arg<N>, sN, $stackN, rv,\n"
			   "\t $retval, ra, sa, $stack, $comm, %REG, @ADDR, @SYM[+|-OFFS],\n"
			   "\t +|-[u]<offset>(<fetcharg>), \\imm-value, \\\"imm-string\"\n"
			   "\t TYPE: u8/16/32/64, s8/16/32/64, x8/16/32/64, symbol, symstr,\n"
			   "\t string, ustring, b<bit-width>@<bit-offset>/<container-size>,\n"
			   "\t <type>\\[<array-size>\\] (from memory, 64 at most)");
	/*
	 * Upstream's file of all dynamic events; kprobe events are the only
	 * ones ringtrace has, so it is kprobe_events under that name.
	 */
	ringtrace_add_file("dynamic_events", 0600, NULL, NULL,
			   &kprobe_events_fops,
			   "the dynamic events (here kprobe events), as kprobe_events");
	ringtrace_add_file("kprobe_profile", 0400, NULL, NULL,
			   &kprobe_profile_fops,
			   "hits and misses of each kprobe event");
	return 0;
}
late_initcall(ringtrace_kprobe_init);
