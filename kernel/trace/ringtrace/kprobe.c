// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe events (Documentation/trace/ringtrace-kprobes.rst): kprobe_events
 * defines probes, each an event under events/<group>/<event>/, recorded by a
 * kprobe or kretprobe handler that fetches its arguments; kprobe_profile
 * counts hits and misses.
 *
 * An event may have several probe points, as upstream's: "p:EVENT SYM2"
 * appends one to an existing event whose probes are of the same kind with
 * the same arguments (names and types; each point fetches them its own
 * way), and "-:EVENT SYM2" removes it.
 *
 * A record is laid out as the spec's format shows: the common fields, ip
 * at 16 (then ret_ip for return probes), int nargs, then one 8-byte slot
 * per argument (an array's elements, rounded up to 8 bytes; a string's
 * __data_loc word), then the strings' text.  Probes are registered disabled
 * when defined, so that a bad probe point fails the write, and armed
 * while their event is enabled.
 */

#define pr_fmt(fmt) "ringtrace: " fmt

#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/ringtrace_buffer.h>
#include <linux/ringtrace_events.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "dir.h"
#include "kprobe_fetch.h"
#include "kprobe_parse.h"

/* Longest write to kprobe_events. */
#define RTK_MAX_WRITE		(64 * 1024)

struct rtk_probe;

/*
 * One probe point of an event, with its own kprobe and its own definition
 * (the first point's is its event's, @tp->def).  On its event's @points
 * list: added and removed under probes_lock and arm_lock, read under
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

static LIST_HEAD(probes);
/* Guards @probes and every probe's creation and removal. */
static DEFINE_MUTEX(probes_lock);
/*
 * Guards each point's @registered, each event's @want_armed and @points
 * (with probes_lock), and the kprobes' registration and arming: the
 * event's enable (under the events' lock) and a MOD:SYM probe's module
 * coming and going (under probes_lock) meet here.  core.h's row 9.
 */
static DEFINE_MUTEX(arm_lock);

/*
 * options/upstream_kprobes: probes defined while it is set name unnamed
 * fetch-args arg1, arg2..., list every fetch-arg as NAME=FETCHARG, and
 * print upstream's lines ("EVENT: (POINT) NAME=VALUE"); lines written
 * while it is set are refused as upstream refuses them (its limits, its
 * error_log location and caret places).  Read once per
 * definition, under probes_lock; written without it, as a definition
 * takes whichever value it sees.
 */
static bool rtk_upstream_option;

static bool rtk_is_return(struct rtk_probe *tp)
{
	return tp->def->kind == RTK_DEF_RETPROBE;
}

/*
 * The length of each string argument between measuring and copying: one
 * array per CPU is enough, as probe handlers do not nest on a CPU
 * (kprobes counts a probe hit inside a handler, NMIs included, as missed,
 * and runs no handler for it).
 */
static DEFINE_PER_CPU(u16 [RTK_MAX_ARGS], rtk_string_lens);

/*
 * A hit of @pt: its own fetch-args, in its event's layout (the same for
 * every point of the event: same arguments, same types).
 */
static void rtk_record(struct rtk_point *pt, struct pt_regs *regs,
		       unsigned long retaddr)
{
	struct ringtrace_reservation res;
	struct rtk_probe *tp = pt->tp;
	struct rtk_def *def = pt->def;
	unsigned int text = 0;
	unsigned long *ip;
	u16 *lens = NULL;
	void *rec;

	this_cpu_inc(*pt->hits);
	/*
	 * Strings first, to reserve the record's exact size: they are read
	 * again into it, cut to what was measured.
	 */
	if (def->nr_strings) {
		lens = this_cpu_ptr(rtk_string_lens);
		text = rtk_measure_strings(def, regs, retaddr,
					   RTB_MAX_PAYLOAD - tp->record_size,
					   lens);
	}
	rec = ringtrace_event_reserve(&tp->event, tp->record_size + text, &res);
	if (!rec)
		return;
	/*
	 * Built in the buffer: every byte after the common fields is written
	 * below, padding included, so that no earlier record's bytes stay:
	 * ip (and ret_ip), nargs and its padding, each argument slot whole,
	 * and each string's text to its measured length.
	 */
	ip = rec + sizeof(struct ringtrace_entry) + 4;
	ip[0] = (unsigned long)pt->rp.kp.addr;
	if (rtk_is_return(tp))
		ip[1] = retaddr;
	*(u64 *)(rec + tp->nargs_offset) = 0;
	*(int *)(rec + tp->nargs_offset) = def->nr_args;
	rtk_fetch_args(def, regs, retaddr, rec, tp->arg_offset,
		       tp->record_size, lens);
	ringtrace_event_commit(&tp->event, &res);
}

static int rtk_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	rtk_record(container_of(kp, struct rtk_point, rp.kp), regs, 0);
	return 0;
}

static int rtk_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);

	if (rp)
		rtk_record(container_of(rp, struct rtk_point, rp), regs,
			   get_kretprobe_retaddr(ri));
	return 0;
}

/*
 * Each argument type: its C type and size in the format, and the printf
 * conversion rtk_output() prints it with (print fmt uses the same).
 */
static const struct {
	const char *c;
	unsigned int size;
	bool is_signed;
	const char *conv;
} rtk_types[] = {
	[RTK_TYPE_DEFAULT] = { "unsigned long", 8, false, "0x%lx" },
	[RTK_TYPE_U8] = { "u8", 1, false, "%u" },
	[RTK_TYPE_U16] = { "u16", 2, false, "%u" },
	[RTK_TYPE_U32] = { "u32", 4, false, "%u" },
	[RTK_TYPE_U64] = { "u64", 8, false, "%llu" },
	[RTK_TYPE_S8] = { "s8", 1, true, "%d" },
	[RTK_TYPE_S16] = { "s16", 2, true, "%d" },
	[RTK_TYPE_S32] = { "s32", 4, true, "%d" },
	[RTK_TYPE_S64] = { "s64", 8, true, "%lld" },
	[RTK_TYPE_X8] = { "u8", 1, false, "0x%x" },
	[RTK_TYPE_X16] = { "u16", 2, false, "0x%x" },
	[RTK_TYPE_X32] = { "u32", 4, false, "0x%x" },
	[RTK_TYPE_X64] = { "u64", 8, false, "0x%llx" },
	[RTK_TYPE_SYMBOL] = { "u64", 8, false, "%pS" },
	/* Strings: the size of their __data_loc word. */
	[RTK_TYPE_STRING] = { "char", 4, true, "\\\"%s\\\"" },
	[RTK_TYPE_USTRING] = { "char", 4, true, "\\\"%s\\\"" },
	[RTK_TYPE_SYMSTR] = { "char", 4, true, "\\\"%s\\\"" },
};

static u64 rtk_slot_value(const void *slot, unsigned int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (u64)*(const s8 *)slot : *(const u8 *)slot;
	case 2:
		return is_signed ? (u64)*(const s16 *)slot : *(const u16 *)slot;
	case 4:
		return is_signed ? (u64)*(const s32 *)slot : *(const u32 *)slot;
	default:
		return *(const u64 *)slot;
	}
}

/* One number of type @type at @p, as rtk_types[@type].conv prints it. */
static void rtk_output_value(struct seq_buf *s, enum rtk_type type,
			     const void *p)
{
	unsigned int size = rtk_types[type].size;
	bool is_signed = rtk_types[type].is_signed;
	u64 v = rtk_slot_value(p, size, is_signed);

	if (type == RTK_TYPE_SYMBOL)
		seq_buf_printf(s, "%pS", (void *)(unsigned long)v);
	else if (type >= RTK_TYPE_U8 && type <= RTK_TYPE_U64)
		seq_buf_printf(s, "%llu", v);
	else if (is_signed)
		seq_buf_printf(s, "%lld", (s64)v);
	else
		seq_buf_printf(s, "0x%llx", v);
}

/*
 * The function a return probe returns from: its name alone in upstream's
 * lines (no " [module]", as upstream prints it), else as %ps.
 */
static void rtk_put_function(struct seq_buf *s, unsigned long addr,
			     bool upstream)
{
	char name[KSYM_NAME_LEN];

	if (upstream && kallsyms_lookup(addr, NULL, NULL, NULL, name))
		seq_buf_puts(s, name);
	else
		seq_buf_printf(s, "%ps", (void *)addr);
}

/*
 * Whether lines show @arg as NAME=VALUE: every one in upstream's lines;
 * in the spec's, one written NAME=FETCHARG, as newer kernels do.
 */
static bool rtk_shows_name(const struct rtk_def *def,
			   const struct rtk_arg *arg)
{
	return def->upstream || rtk_arg_named(arg);
}

static void rtk_output(struct ringtrace_event *event, struct seq_buf *s,
		       const struct ringtrace_entry *entry, unsigned int size)
{
	struct rtk_probe *tp = container_of(event, struct rtk_probe, event);
	const unsigned long *ip = (const void *)entry +
				  sizeof(struct ringtrace_entry) + 4;
	struct rtk_def *def = tp->def;
	unsigned int i, j;

	if (size < tp->record_size)
		return;
	/* Upstream's "EVENT: (POINT) NAME=VALUE...", or the spec's line. */
	if (def->upstream)
		seq_buf_printf(s, "%s: (", def->event);
	if (rtk_is_return(tp)) {
		seq_buf_printf(s, "%pS <- ", (void *)ip[1]);
		rtk_put_function(s, ip[0], def->upstream);
	} else {
		seq_buf_printf(s, "%pS", (void *)ip[0]);
	}
	seq_buf_putc(s, def->upstream ? ')' : ':');
	for (i = 0; i < def->nr_args; i++) {
		const struct rtk_arg *arg = &def->args[i];
		const void *slot = (const void *)entry + tp->arg_offset[i];

		seq_buf_putc(s, ' ');
		if (rtk_shows_name(def, arg))
			seq_buf_printf(s, "%s=", arg->name);
		if (rtk_type_is_string(arg->type)) {
			u32 loc = *(const u32 *)slot;

			/* Records come from rtk_record(): a bad one is a bug. */
			if (WARN_ON_ONCE((loc & 0xffff) + (loc >> 16) > size))
				return;
			/* Upstream's probes record a fault as length 0. */
			if (def->upstream && !(loc >> 16))
				seq_buf_puts(s, RTK_FAULT_STRING);
			else
				seq_buf_printf(s, "\"%.*s\"", loc >> 16,
					       (const char *)entry +
					       (loc & 0xffff));
			continue;
		}
		if (!arg->count) {
			rtk_output_value(s, arg->type, slot);
			continue;
		}
		/* {a,b,c}, as upstream prints arrays. */
		seq_buf_putc(s, '{');
		for (j = 0; j < arg->count; j++) {
			if (j)
				seq_buf_putc(s, ',');
			rtk_output_value(s, arg->type,
					 slot + j * rtk_types[arg->type].size);
		}
		seq_buf_putc(s, '}');
	}
}

/*
 * Arm or disarm the event's probe points; a MOD:SYM point whose module is
 * not loaded is armed when it comes.  A point that cannot be armed leaves
 * them all as they were.
 */
static int rtk_enable(struct ringtrace_event *event, bool on)
{
	struct rtk_probe *tp = container_of(event, struct rtk_probe, event);
	struct rtk_point *pt;
	int ret = 0, err;

	mutex_lock(&arm_lock);
	list_for_each_entry(pt, &tp->points, node) {
		if (!pt->registered)
			continue;
		if (!on) {
			err = disable_kprobe(&pt->rp.kp);
			ret = ret ?: err;
			continue;
		}
		ret = enable_kprobe(&pt->rp.kp);
		if (ret) {
			list_for_each_entry_continue_reverse(pt, &tp->points,
							     node)
				if (pt->registered)
					disable_kprobe(&pt->rp.kp);
			break;
		}
	}
	if (!ret)
		tp->want_armed = on;
	mutex_unlock(&arm_lock);
	return ret;
}

/* Free an unregistered point. */
static void rtk_free_point(struct rtk_point *pt)
{
	free_percpu(pt->hits);
	kfree(pt->module);
	if (pt->def != pt->tp->def)
		rtk_free_def(pt->def);
	kfree(pt);
}

/* Free an event and its points, all unregistered. */
static void rtk_free_probe(struct rtk_probe *tp)
{
	struct rtk_point *pt, *tmp;

	list_for_each_entry_safe(pt, tmp, &tp->points, node)
		rtk_free_point(pt);
	kfree(tp->fields);
	kfree(tp->aliases);
	kvfree(tp->print_fmt);
	kvfree(tp->print_fmt_sym);
	kfree(tp->arg_offset);
	rtk_free_def(tp->def);
	kfree(tp);
}

static void rtk_release(struct ringtrace_event *event)
{
	rtk_free_probe(container_of(event, struct rtk_probe, event));
}

static const struct ringtrace_event_ops rtk_event_ops = {
	.output		= rtk_output,
	.enable		= rtk_enable,
	.release	= rtk_release,
};

/* Fields, aliases and offsets of @tp's records. */
static int rtk_build_layout(struct rtk_probe *tp)
{
	struct rtk_def *def = tp->def;
	unsigned int i, n = 0, off, size, nr_alias = 0;
	struct ringtrace_event_field *f;

	tp->fields = kcalloc(def->nr_args + 3, sizeof(*tp->fields), GFP_KERNEL);
	tp->aliases = kcalloc(def->nr_args + 1, sizeof(*tp->aliases),
			      GFP_KERNEL);
	tp->arg_offset = kcalloc(def->nr_args + 1, sizeof(*tp->arg_offset),
				 GFP_KERNEL);
	if (!tp->fields || !tp->aliases || !tp->arg_offset)
		return -ENOMEM;
	f = tp->fields;
	off = sizeof(struct ringtrace_entry) + 4;
	f[n++] = (struct ringtrace_event_field){ "ip", "unsigned long", off,
						 8, false, false };
	off += 8;
	if (rtk_is_return(tp)) {
		f[n++] = (struct ringtrace_event_field){ "ret_ip",
							 "unsigned long", off,
							 8, false, false };
		off += 8;
	}
	tp->nargs_offset = off;
	f[n++] = (struct ringtrace_event_field){ "nargs", "int", off, 4, true,
						 false };
	off += 8;
	for (i = 0; i < def->nr_args; i++) {
		const struct rtk_arg *arg = &def->args[i];

		/* A lone number or __data_loc: its size in an 8-byte slot. */
		size = arg->count ? rtk_arg_size(arg) :
				    rtk_types[arg->type].size;
		tp->arg_offset[i] = off;
		f[n++] = (struct ringtrace_event_field){
			.name = arg->name,
			.type = rtk_types[arg->type].c,
			.offset = off,
			.size = size,
			.is_signed = rtk_types[arg->type].is_signed,
			.is_string = rtk_type_is_string(arg->type),
			.array_len = arg->count,
			.is_dynamic = rtk_type_is_string(arg->type),
		};
		off += round_up(rtk_arg_size(arg), 8);
		if (arg->alias)
			tp->aliases[nr_alias++] = (struct ringtrace_event_alias){
				arg->alias, arg->name };
	}
	tp->record_size = off;
	/*
	 * Every record has this size, and at least a NUL per string after
	 * it: one that cannot fit a page never would.
	 */
	if (tp->record_size + def->nr_strings > RTB_MAX_PAYLOAD)
		return -E2BIG;

	tp->event.system = def->group;
	tp->event.name = def->event;
	tp->event.fields = tp->fields;
	tp->event.nr_fields = n;
	tp->event.aliases = tp->aliases;
	tp->event.nr_aliases = nr_alias;
	tp->event.ops = &rtk_event_ops;
	/* "echo > kprobe_events" and then "cat trace", as the spec does. */
	tp->event.retire = true;
	return 0;
}

/*
 * The head of rtk_output()'s line as text, if it can be: a probe's address
 * is fixed while the probe exists, so the "SYMBOL+off/size" it prints (a
 * return probe: its function's name) is too.  libtraceevent's %pS has no
 * "/size", and a file may lack kallsyms: text is exact either way.  Not
 * for a MOD:SYM probe, whose module may come back rebuilt, nor for a name
 * that print fmt's quoting would change.  For its first point: an event
 * that gets a second turns to print_fmt_sym, %pS.
 */
static bool rtk_fmt_head_text(struct rtk_probe *tp, struct seq_buf *fmt)
{
	struct rtk_point *pt = list_first_entry(&tp->points, struct rtk_point,
						node);
	unsigned long addr = (unsigned long)pt->rp.kp.addr;
	char *sym;
	bool ok;

	if (pt->module || !pt->registered)
		return false;
	sym = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	if (!sym)
		return false;
	/* As rtk_output() prints it: see rtk_put_function(). */
	if (!rtk_is_return(tp))
		sprint_symbol(sym, addr);
	else if (!tp->def->upstream ||
		 !kallsyms_lookup(addr, NULL, NULL, NULL, sym))
		sprint_symbol_no_offset(sym, addr);
	ok = !strpbrk(sym, "\"%\\");
	if (ok)
		seq_buf_puts(fmt, sym);
	kfree(sym);
	return ok;
}

/*
 * The print format of @tp's records: what rtk_output() prints, for tools
 * that render records alone (trace-cmd and KernelShark through
 * libtraceevent, tracedat report).  The probe point as text if @text_head
 * and it can be (once registered), else %pS.  NULL without memory.
 */
static char *rtk_make_print_fmt(struct rtk_probe *tp, bool text_head)
{
	struct rtk_def *def = tp->def;
	size_t fmt_len = 64 + KSYM_SYMBOL_LEN;
	struct seq_buf fmt;
	bool head_text;
	char *text;
	unsigned int i, j;

	/*
	 * Per value: " NAME=", a conversion (an array's in { , }), then
	 * ", REC->NAME[J]".
	 */
	for (i = 0; i < def->nr_args; i++)
		fmt_len += (def->args[i].count ?: 1) *
			   (2 * strlen(def->args[i].name) + 32);
	/* Arrays of many values: more than a few pages, maybe. */
	text = kvzalloc(fmt_len, GFP_KERNEL);
	if (!text)
		return NULL;
	seq_buf_init(&fmt, text, fmt_len);
	/* Tools print the event's name themselves. */
	seq_buf_puts(&fmt, def->upstream ? "\"(" : "\"");
	if (rtk_is_return(tp))
		seq_buf_puts(&fmt, "%pS <- ");
	head_text = text_head && rtk_fmt_head_text(tp, &fmt);
	if (!head_text)
		seq_buf_puts(&fmt, rtk_is_return(tp) ? "%ps" : "%pS");
	seq_buf_putc(&fmt, def->upstream ? ')' : ':');
	for (i = 0; i < def->nr_args; i++) {
		const struct rtk_arg *arg = &def->args[i];

		seq_buf_putc(&fmt, ' ');
		if (rtk_shows_name(def, arg))
			seq_buf_printf(&fmt, "%s=", arg->name);
		if (!arg->count) {
			seq_buf_puts(&fmt, rtk_types[arg->type].conv);
			continue;
		}
		seq_buf_putc(&fmt, '{');
		for (j = 0; j < arg->count; j++)
			seq_buf_printf(&fmt, "%s%s", j ? "," : "",
				       rtk_types[arg->type].conv);
		seq_buf_putc(&fmt, '}');
	}
	seq_buf_putc(&fmt, '"');
	if (rtk_is_return(tp))
		seq_buf_puts(&fmt, ", REC->ret_ip");
	if (!head_text)
		seq_buf_puts(&fmt, ", REC->ip");
	for (i = 0; i < def->nr_args; i++) {
		if (rtk_type_is_string(def->args[i].type))
			seq_buf_printf(&fmt, ", __get_str(%s)", def->args[i].name);
		else if (!def->args[i].count)
			seq_buf_printf(&fmt, ", REC->%s", def->args[i].name);
		for (j = 0; j < def->args[i].count; j++)
			seq_buf_printf(&fmt, ", REC->%s[%u]", def->args[i].name,
				       j);
	}
	/* fmt_len counts every byte: a cut format would be a bug here. */
	if (WARN_ON_ONCE(seq_buf_has_overflowed(&fmt)) ||
	    WARN_ON_ONCE(seq_buf_putc(&fmt, '\0'))) {
		kvfree(text);
		return NULL;
	}
	return text;
}

/*
 * The probe of @event in @group; a NULL @group or @event matches any (only
 * removals have them).
 */
static struct rtk_probe *rtk_find(const char *group, const char *event)
{
	struct rtk_probe *tp;

	list_for_each_entry(tp, &probes, node) {
		if ((!group || !strcmp(tp->def->group, group)) &&
		    (!event || !strcmp(tp->def->event, event)))
			return tp;
	}
	return NULL;
}

/*
 * The error_log location of the line being run: upstream's name for an
 * upstream probe's line (its tests grep for it).  Under probes_lock.
 */
static const char *rtk_log_location = "kprobe_events";

/* Log @msg for @line, the caret at byte @pos. */
static void rtk_log_at(const char *line, unsigned int pos, const char *msg)
{
	ringtrace_error_log(rtk_log_location, line, pos, msg);
}

/* Log @msg for @line, the caret under the text @at if it is there. */
static void rtk_log(const char *line, const char *at, const char *msg)
{
	const char *found = at ? strstr(line, at) : NULL;

	rtk_log_at(line, found ? found - line : 0, msg);
}

/* Resolve @SYM fetch-args to addresses; false (logged) if one is unknown. */
static int rtk_resolve_symbols(struct rtk_def *def, const char *line)
{
	struct rtk_fetch *f;
	unsigned long addr;
	unsigned int i;

	for (i = 0; i < def->nr_args; i++) {
		for (f = def->args[i].fetch; f; f = f->inner) {
			if (f->kind != RTK_FETCH_SYMBOL)
				continue;
			addr = kallsyms_lookup_name(f->symbol);
			if (!addr) {
				rtk_log(line, def->args[i].text, "unknown symbol");
				return -ENOENT;
			}
			f->value += addr;
		}
	}
	return 0;
}

struct rtk_symbol_count {
	const char	*name;
	unsigned int	count;
};

static int rtk_count_kernel_symbol(void *data, unsigned long addr)
{
	struct rtk_symbol_count *c = data;

	c->count++;
	return 0;
}

static int rtk_count_module_symbol(void *data, const char *name,
				   struct module *mod, unsigned long addr)
{
	struct rtk_symbol_count *c = data;

	if (!strcmp(name, c->name))
		c->count++;
	return 0;
}

/*
 * How many symbols of the kernel and its modules are named @name.  Takes
 * module_mutex, after probes_lock: module notifiers, which take
 * probes_lock, are not called under module_mutex.
 */
static unsigned int rtk_symbol_count(const char *name)
{
	struct rtk_symbol_count c = { .name = name };

	kallsyms_on_each_match_symbol(rtk_count_kernel_symbol, name, &c);
	module_kallsyms_on_each_symbol(rtk_count_module_symbol, &c);
	return c.count;
}

/* Log why registering failed: to error_log for @line, else the console. */
static void rtk_register_failed(struct rtk_point *pt, const char *line,
				int ret)
{
	const char *why = ret == -ENOENT && pt->def->symbol ? "unknown symbol" :
			  ret == -ENOENT ? "no function at this address" :
			  ret == -EILSEQ ? "the offset is inside an instruction" :
			  "this address cannot be probed";

	if (!line) {
		pr_warn("probe %s/%s stays pending: %s (%d)\n",
			pt->tp->def->group, pt->tp->def->event, why, ret);
		return;
	}
	/* The caret goes under the probe point: the word after the head. */
	rtk_log(line, pt->def->symbol ?: skip_spaces(strpbrk(line, " \t")),
		why);
}

/*
 * Register @pt's kprobe, disarmed; @line is the definition (NULL when a
 * MOD:SYM probe's module comes).  Under probes_lock and arm_lock.
 */
static int rtk_register_point(struct rtk_point *pt, const char *line)
{
	struct kprobe *kp = &pt->rp.kp;
	struct rtk_def *def = pt->def;
	int ret;

	lockdep_assert_held(&arm_lock);
	/* kprobes would take the first: refuse to guess, as upstream. */
	if (def->symbol && !pt->module && rtk_symbol_count(def->symbol) > 1) {
		rtk_log(line, def->symbol,
			"several symbols have this name: probe one by its address");
		return -EADDRNOTAVAIL;
	}
	/* Registered again after its module went: kprobes wants it new. */
	memset(&pt->rp, 0, sizeof(pt->rp));
	if (def->symbol) {
		/* MOD:SYM as written: kallsyms looks it up in MOD. */
		kp->symbol_name = def->symbol;
		kp->offset = def->offset;
	} else {
		kp->addr = (kprobe_opcode_t *)def->addr;
	}
	kp->flags = KPROBE_FLAG_DISABLED;
	if (rtk_is_return(pt->tp)) {
		pt->rp.handler = rtk_ret_handler;
		pt->rp.maxactive = def->maxactive;
		ret = register_kretprobe(&pt->rp);
	} else {
		kp->pre_handler = rtk_pre_handler;
		ret = register_kprobe(kp);
	}
	if (ret) {
		rtk_register_failed(pt, line, ret);
		return ret;
	}
	pt->registered = true;
	return 0;
}

static void rtk_unregister_point(struct rtk_point *pt)
{
	lockdep_assert_held(&arm_lock);
	if (!pt->registered)
		return;
	if (rtk_is_return(pt->tp))
		unregister_kretprobe(&pt->rp);
	else
		unregister_kprobe(&pt->rp.kp);
	pt->registered = false;
}

/* Whether MOD:SYM point @pt's module is loaded and not going away. */
static bool rtk_module_here(struct rtk_point *pt)
{
	struct module *mod;
	bool here;

	/* find_module() wants module_mutex or preemption off. */
	preempt_disable();
	mod = find_module(pt->module);
	here = mod && mod->state != MODULE_STATE_GOING;
	preempt_enable();
	return here;
}

/*
 * Remove a probe and its event; unless @even_enabled, -EBUSY if it is
 * enabled.  Under probes_lock.  The event is stopped first, under the lock
 * that enabling takes: nothing enables it between the check and the
 * removal, and its kprobes are disarmed before they are unregistered.
 */
static int rtk_remove(struct rtk_probe *tp, bool even_enabled)
{
	struct rtk_point *pt;
	int ret = ringtrace_event_stop(&tp->event, !even_enabled);

	if (ret)
		return ret;
	list_del(&tp->node);
	mutex_lock(&arm_lock);
	list_for_each_entry(pt, &tp->points, node)
		rtk_unregister_point(pt);
	mutex_unlock(&arm_lock);
	/* Frees @tp and its points through rtk_release(). */
	ringtrace_event_unregister(&tp->event);
	return 0;
}

/*
 * Remove point @pt of an event that has others, enabled or not, as
 * upstream.  Under probes_lock.  Its kprobe is unregistered (no handler
 * runs on @pt after that: unregistering waits for those running) before
 * it is freed.
 */
static void rtk_remove_point(struct rtk_point *pt)
{
	mutex_lock(&arm_lock);
	rtk_unregister_point(pt);
	list_del(&pt->node);
	mutex_unlock(&arm_lock);
	rtk_free_point(pt);
}

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

	list_for_each_entry_safe(tp, tmp, &probes, node) {
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

/*
 * A new point @pt for its own event, or for @tp's: its symbols resolved,
 * its module noted, put on @tp's points, registered (armed if @tp is
 * enabled) unless its module is away.  Under probes_lock.  All in one
 * arm_lock section, so that an enable or disable of @tp meanwhile finds
 * it either not there or registered, armed as @tp->want_armed says (a
 * point not registered yet is skipped).  On failure it is not on @points.
 */
static int rtk_start_point(struct rtk_point *pt, struct rtk_probe *tp,
			   const char *line)
{
	struct rtk_def *def = pt->def;
	int ret;

	pt->tp = tp;
	pt->hits = alloc_percpu(unsigned long);
	if (!pt->hits)
		return -ENOMEM;
	ret = rtk_resolve_symbols(def, line);
	if (ret)
		return ret;
	if (def->symbol && strchr(def->symbol, ':')) {
		pt->module = kstrndup(def->symbol,
				      strchr(def->symbol, ':') - def->symbol,
				      GFP_KERNEL);
		if (!pt->module)
			return -ENOMEM;
	}
	/*
	 * A MOD:SYM probe waits for its module, as upstream's: the module
	 * notifier registers it when MOD comes (it runs under probes_lock,
	 * after this line is done).
	 */
	mutex_lock(&arm_lock);
	list_add_tail(&pt->node, &tp->points);
	if (!pt->module || rtk_module_here(pt))
		ret = rtk_register_point(pt, line);
	if (!ret && pt->registered && tp->want_armed) {
		ret = enable_kprobe(&pt->rp.kp);
		if (ret) {
			rtk_log(line, NULL, "cannot arm the probe");
			rtk_unregister_point(pt);
		}
	}
	if (ret)
		list_del(&pt->node);
	mutex_unlock(&arm_lock);
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

/* Carry out one line of kprobe_events.  Under probes_lock. */
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
	list_add_tail(&tp->node, &probes);
	return 0;
unregister:
	mutex_lock(&arm_lock);
	rtk_unregister_point(pt);
	mutex_unlock(&arm_lock);
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

	list_for_each_entry(tp, &probes, node)
		nr++;
	if (!nr)
		return 0;
	events = kmalloc_array(nr, sizeof(*events), GFP_KERNEL);
	if (!events)
		return -ENOMEM;
	nr = 0;
	list_for_each_entry(tp, &probes, node)
		events[nr++] = &tp->event;
	/* All at once: none is enabled between the check and the removal. */
	ret = ringtrace_events_stop(events, nr, true);
	kfree(events);
	if (ret)
		return ret;
	list_for_each_entry_safe(tp, tmp, &probes, node)
		rtk_remove(tp, true);
	return 0;
}

/*
 * A module going away takes the probe points on its functions with it,
 * enabled or not (an event's last point takes the event): kprobes has
 * already disarmed them, and they would never fire again.  MOD:SYM points
 * stay, pending, and are registered again (armed if their event is
 * enabled) when MOD comes back.
 */
static int rtk_module_notify(struct notifier_block *nb, unsigned long state,
			     void *data)
{
	struct rtk_point *pt, *next;
	struct module *mod = data;
	struct rtk_probe *tp, *tmp;

	if (state != MODULE_STATE_GOING && state != MODULE_STATE_COMING)
		return NOTIFY_DONE;
	mutex_lock(&probes_lock);
	list_for_each_entry_safe(tp, tmp, &probes, node) {
		list_for_each_entry_safe(pt, next, &tp->points, node) {
			if (pt->module && !strcmp(pt->module, module_name(mod))) {
				mutex_lock(&arm_lock);
				if (state == MODULE_STATE_GOING) {
					rtk_unregister_point(pt);
				} else if (!pt->registered &&
					   !rtk_register_point(pt, NULL) &&
					   tp->want_armed &&
					   enable_kprobe(&pt->rp.kp)) {
					pr_warn("probe %s/%s: cannot arm it\n",
						tp->def->group, tp->def->event);
				}
				mutex_unlock(&arm_lock);
				continue;
			}
			if (state != MODULE_STATE_GOING || pt->module ||
			    !pt->registered ||
			    !within_module((unsigned long)pt->rp.kp.addr, mod))
				continue;
			pr_info("removing probe %s/%s: module %s is unloading\n",
				tp->def->group, tp->def->event,
				module_name(mod));
			if (list_is_singular(&tp->points)) {
				rtk_remove(tp, true);
				break;
			}
			rtk_remove_point(pt);
		}
	}
	mutex_unlock(&probes_lock);
	return NOTIFY_DONE;
}

static struct notifier_block rtk_module_nb = {
	.notifier_call = rtk_module_notify,
};

static int kprobe_events_show(struct seq_file *m, void *v)
{
	struct rtk_point *pt;
	struct rtk_probe *tp;
	struct rtk_def *def;
	unsigned int i;

	mutex_lock(&probes_lock);
	/* A line per probe point, as upstream lists a multi-probe event. */
	list_for_each_entry(tp, &probes, node) {
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
	mutex_unlock(&probes_lock);
	return 0;
}

static int kprobe_events_open(struct inode *inode, struct file *file)
{
	int ret = 0;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&probes_lock);
		ret = rtk_clear();
		mutex_unlock(&probes_lock);
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
	mutex_lock(&probes_lock);
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
	mutex_unlock(&probes_lock);
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

	mutex_lock(&probes_lock);
	/* A line per probe point, as upstream's. */
	list_for_each_entry(tp, &probes, node) {
		list_for_each_entry(pt, &tp->points, node) {
			hits = 0;
			for_each_possible_cpu(cpu)
				hits += *per_cpu_ptr(pt->hits, cpu);
			seq_printf(m, "  %-44s %15lu %15lu\n", tp->def->event,
				   hits, pt->rp.kp.nmissed + pt->rp.nmissed);
		}
	}
	mutex_unlock(&probes_lock);
	return 0;
}

static int kprobe_profile_open(struct inode *inode, struct file *file)
{
	return single_open(file, kprobe_profile_show, NULL);
}

static const struct file_operations kprobe_profile_fops = {
	.open		= kprobe_profile_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

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

	register_module_notifier(&rtk_module_nb);
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
