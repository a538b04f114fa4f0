// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe events (Documentation/trace/ringtrace-kprobes.rst): the probes
 * that kprobe_events' commands (kprobe_events.c) define, each an event
 * under events/<group>/<event>/ with one or more probe points, each point
 * a kprobe or kretprobe whose handler fetches the event's arguments into
 * a record and prints it back.
 *
 * A record is laid out as the spec's format shows: the common fields, ip
 * at 16 (then ret_ip for return probes), int nargs, then one 8-byte slot
 * per argument (an array's elements, rounded up to 8 bytes; a string's
 * __data_loc word), then the strings' text.  Probes are registered disabled
 * when defined, so that a bad probe point fails the write, and armed
 * while their event is enabled.  A MOD:SYM point follows its module: the
 * module notifier registers it when the module comes and unregisters it
 * when it goes; a point on a module's function goes with the module.
 */

#define pr_fmt(fmt) "ringtrace: " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/ringtrace_buffer.h>
#include <linux/ringtrace_events.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kprobe.h"
#include "kprobe_fetch.h"
#include "kprobe_parse.h"

LIST_HEAD(rtk_probes);
/* Guards rtk_probes and every probe's creation and removal. */
DEFINE_MUTEX(rtk_probes_lock);
/*
 * Guards each point's @registered, each event's @want_armed and @points
 * (with rtk_probes_lock), and the kprobes' registration and arming: the
 * event's enable (under the events' lock) and a MOD:SYM probe's module
 * coming and going (under rtk_probes_lock) meet here.  core.h's row 9.
 */
DEFINE_MUTEX(rtk_arm_lock);

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

	mutex_lock(&rtk_arm_lock);
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
	mutex_unlock(&rtk_arm_lock);
	return ret;
}

/* Free an unregistered point. */
void rtk_free_point(struct rtk_point *pt)
{
	free_percpu(pt->hits);
	kfree(pt->module);
	if (pt->def != pt->tp->def)
		rtk_free_def(pt->def);
	kfree(pt);
}

/* Free an event and its points, all unregistered. */
void rtk_free_probe(struct rtk_probe *tp)
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
int rtk_build_layout(struct rtk_probe *tp)
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
char *rtk_make_print_fmt(struct rtk_probe *tp, bool text_head)
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
struct rtk_probe *rtk_find(const char *group, const char *event)
{
	struct rtk_probe *tp;

	list_for_each_entry(tp, &rtk_probes, node) {
		if ((!group || !strcmp(tp->def->group, group)) &&
		    (!event || !strcmp(tp->def->event, event)))
			return tp;
	}
	return NULL;
}

/*
 * The error_log location of the line being run: upstream's name for an
 * upstream probe's line (its tests grep for it).  Under rtk_probes_lock.
 */
const char *rtk_log_location = "kprobe_events";

/* Log @msg for @line, the caret at byte @pos. */
void rtk_log_at(const char *line, unsigned int pos, const char *msg)
{
	ringtrace_error_log(rtk_log_location, line, pos, msg);
}

/* Log @msg for @line, the caret under the text @at if it is there. */
void rtk_log(const char *line, const char *at, const char *msg)
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
 * module_mutex, after rtk_probes_lock: module notifiers, which take
 * rtk_probes_lock, are not called under module_mutex.
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
 * MOD:SYM probe's module comes).  Under rtk_probes_lock and rtk_arm_lock.
 */
static int rtk_register_point(struct rtk_point *pt, const char *line)
{
	struct kprobe *kp = &pt->rp.kp;
	struct rtk_def *def = pt->def;
	int ret;

	lockdep_assert_held(&rtk_arm_lock);
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

void rtk_unregister_point(struct rtk_point *pt)
{
	lockdep_assert_held(&rtk_arm_lock);
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
 * enabled.  Under rtk_probes_lock.  The event is stopped first, under the lock
 * that enabling takes: nothing enables it between the check and the
 * removal, and its kprobes are disarmed before they are unregistered.
 */
int rtk_remove(struct rtk_probe *tp, bool even_enabled)
{
	struct rtk_point *pt;
	int ret = ringtrace_event_stop(&tp->event, !even_enabled);

	if (ret)
		return ret;
	list_del(&tp->node);
	mutex_lock(&rtk_arm_lock);
	list_for_each_entry(pt, &tp->points, node)
		rtk_unregister_point(pt);
	mutex_unlock(&rtk_arm_lock);
	/* Frees @tp and its points through rtk_release(). */
	ringtrace_event_unregister(&tp->event);
	return 0;
}

/*
 * Remove point @pt of an event that has others, enabled or not, as
 * upstream.  Under rtk_probes_lock.  Its kprobe is unregistered (no handler
 * runs on @pt after that: unregistering waits for those running) before
 * it is freed.
 */
void rtk_remove_point(struct rtk_point *pt)
{
	mutex_lock(&rtk_arm_lock);
	rtk_unregister_point(pt);
	list_del(&pt->node);
	mutex_unlock(&rtk_arm_lock);
	rtk_free_point(pt);
}

/*
 * A new point @pt for its own event, or for @tp's: its symbols resolved,
 * its module noted, put on @tp's points, registered (armed if @tp is
 * enabled) unless its module is away.  Under rtk_probes_lock.  All in one
 * rtk_arm_lock section, so that an enable or disable of @tp meanwhile finds
 * it either not there or registered, armed as @tp->want_armed says (a
 * point not registered yet is skipped).  On failure it is not on @points.
 */
int rtk_start_point(struct rtk_point *pt, struct rtk_probe *tp,
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
	 * notifier registers it when MOD comes (it runs under rtk_probes_lock,
	 * after this line is done).
	 */
	mutex_lock(&rtk_arm_lock);
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
	mutex_unlock(&rtk_arm_lock);
	return ret;
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
	mutex_lock(&rtk_probes_lock);
	list_for_each_entry_safe(tp, tmp, &rtk_probes, node) {
		list_for_each_entry_safe(pt, next, &tp->points, node) {
			if (pt->module && !strcmp(pt->module, module_name(mod))) {
				mutex_lock(&rtk_arm_lock);
				if (state == MODULE_STATE_GOING) {
					rtk_unregister_point(pt);
				} else if (!pt->registered &&
					   !rtk_register_point(pt, NULL) &&
					   tp->want_armed &&
					   enable_kprobe(&pt->rp.kp)) {
					pr_warn("probe %s/%s: cannot arm it\n",
						tp->def->group, tp->def->event);
				}
				mutex_unlock(&rtk_arm_lock);
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
	mutex_unlock(&rtk_probes_lock);
	return NOTIFY_DONE;
}

static struct notifier_block rtk_module_nb = {
	.notifier_call = rtk_module_notify,
};

/* Have probe points follow modules as they come and go. */
void rtk_watch_modules(void)
{
	register_module_notifier(&rtk_module_nb);
}
