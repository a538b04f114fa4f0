// SPDX-License-Identifier: GPL-2.0
/*
 * dump_on_oops: the trace buffer printed on the console when the kernel
 * oopses or panics, as trace prints it, then recording stopped.
 *
 * options/dump_on_oops and ringtrace.dump_on_oops= choose it: 0 off, 1
 * the records of every CPU merged by time, 2 those of the CPU that
 * oopsed or panicked only.  ringtrace.dump_max_kb= bounds the lines of
 * records printed: the newest that fit are printed, oldest first, after
 * a line saying how many older ones were left out.
 *
 * The dump runs from the panic notifier (other CPUs stopped by an NMI, or
 * wedged) and from the die notifier's DIE_OOPS (other CPUs still running),
 * with interrupts off, maybe in NMI.  So it takes no lock it could wait
 * for (the buffer's reader locks are only tried: buffer_dump.c;
 * events are looked up under RCU and comms only if their lock is free:
 * ringtrace_output_record()), allocates nothing (one dump at a time, in
 * static buffers, the per-CPU walks allocated at boot) and reads only
 * committed records, each checked before it is used.  A dump starts at
 * most once per boot until options/dump_on_oops is written again: an
 * oops inside the dump, or the panic that follows an oops, finds it
 * taken.
 *
 * Documentation/trace/ringtrace-flight-recorder.rst tells the whole story.
 */

/*
 * No prefix: the lines of records are trace's; the dump's own lines say
 * "ringtrace: dump" (DUMP_PFX), so that a reader of a console log finds
 * where it begins and ends.
 */
#define pr_fmt(fmt) fmt
#define DUMP_PFX "ringtrace: dump"

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/notifier.h>
#include <linux/panic.h>
#include <linux/panic_notifier.h>
#include <linux/printk.h>
#include <linux/ringtrace_events.h>
#include <linux/seq_buf.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>

#include "buffer_dump.h"
#include "core.h"
#include "dir.h"
#include "trace.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ringtrace."

enum dump_mode {
	DUMP_OFF,
	DUMP_ALL_CPUS,
	DUMP_THIS_CPU,
	DUMP_NR_MODES,
};

/*
 * Default bound of the lines of records: 64 KiB, about 6 s at 115200
 * baud (11.5 KB/s), and half the kernel log of the default
 * CONFIG_LOG_BUF_SHIFT (17).  More is printed only as far as half the
 * log buffer (log_buf_len=): while a console is slower than the dump,
 * the lines wait in the log, and the oops report before them must still
 * be there when the console gets to it.
 */
#define DUMP_DEFAULT_MAX_KB	64
/* Upper bound of ringtrace.dump_max_kb=, far above any log buffer half. */
#define DUMP_MAX_MAX_KB		(1024 * 1024)

/*
 * Longest line of a record: printk() keeps LOG_LINE_MAX bytes of a
 * message (1024 less a prefix of up to 48): longer lines end with
 * " [...]" as in trace.
 */
#define DUMP_LINE_MAX		960

/*
 * The shortest line a record prints as: the fixed-width part of
 * "%16s-%-5d [%03d] %5llu.%06llu: " (16 + 1 + 5 + 2 + 3 + 2 + 5 + 1 + 6 +
 * 2) and the newline.  The dump formats only as many of the newest
 * records as could fit in the bound at this size.  (A record too short
 * for the common fields prints a shorter line: then fewer records than
 * would fit may be printed, never more than the bound.)
 */
#define DUMP_MIN_LINE		44

/* Walked records between two watchdog touches. */
#define DUMP_TOUCH_EVERY	1024

static unsigned int dump_mode;
static unsigned int dump_max_kb = DUMP_DEFAULT_MAX_KB;

static int dump_mode_parse(const char *val, unsigned int *mode)
{
	unsigned int v;

	/* A bare ringtrace.dump_on_oops means every CPU, as upstream's. */
	if (!val || !*val) {
		*mode = DUMP_ALL_CPUS;
		return 0;
	}
	if (kstrtouint(val, 0, &v) || v >= DUMP_NR_MODES)
		return -EINVAL;
	*mode = v;
	return 0;
}

static int dump_mode_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned int mode;
	int ret = dump_mode_parse(val, &mode);

	if (ret)
		return ret;
	WRITE_ONCE(dump_mode, mode);
	return 0;
}

static const struct kernel_param_ops dump_mode_param_ops = {
	/* A bare ringtrace.dump_on_oops reaches ->set() as NULL. */
	.flags	= KERNEL_PARAM_OPS_FL_NOARG,
	.set	= dump_mode_param_set,
	.get	= param_get_uint,
};

module_param_cb(dump_on_oops, &dump_mode_param_ops, &dump_mode, 0);
MODULE_PARM_DESC(dump_on_oops,
		 "Print the trace buffer on an oops or panic: 0 no, 1 all CPUs, 2 the oopsing CPU");

static int dump_max_kb_param_set(const char *val,
				 const struct kernel_param *kp)
{
	unsigned int kb;

	if (kstrtouint(val, 0, &kb) || !kb || kb > DUMP_MAX_MAX_KB)
		return -EINVAL;
	WRITE_ONCE(dump_max_kb, kb);
	return 0;
}

static const struct kernel_param_ops dump_max_kb_param_ops = {
	.set	= dump_max_kb_param_set,
	.get	= param_get_uint,
};

module_param_cb(dump_max_kb, &dump_max_kb_param_ops, &dump_max_kb, 0);
MODULE_PARM_DESC(dump_max_kb,
		 "Bound of the records printed by dump_on_oops, in KiB (default 64)");

/*
 * One dump at a time, and one per boot until options/dump_on_oops is
 * written again: DUMP_ARMED -> DUMP_RUNNING -> DUMP_DONE by cmpxchg, so
 * that an oops in the dump, another CPU's oops, or the panic that follows
 * an oops returns at once.
 */
enum { DUMP_ARMED, DUMP_RUNNING, DUMP_DONE };
static atomic_t dump_state = ATOMIC_INIT(DUMP_ARMED);

/* The walks of the CPU buffers, nr_cpu_ids of them, allocated at boot. */
static struct rtb_dump_iter *dump_iters;
/* The dump's own buffers: one dump at a time (dump_state). */
static char dump_line[DUMP_LINE_MAX];
static u64 dump_record[PAGE_SIZE / sizeof(u64)];

/* The CPUs a dump shows. */
struct dump_set {
	int	only;	/* a CPU, or -1 for all */
};

static bool dump_wanted(const struct dump_set *set, int cpu)
{
	return set->only < 0 || set->only == cpu;
}

static void dump_touch(unsigned long n)
{
	if (!(n % DUMP_TOUCH_EVERY))
		touch_nmi_watchdog();
}

/* Start a walk of every CPU buffer shown. */
static void dump_start_all(struct rtb_buffer *buffer,
			   const struct dump_set *set)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rtb_dump_iter *it = &dump_iters[cpu];

		memset(it, 0, sizeof(*it));
		if (dump_wanted(set, cpu))
			rtb_dump_start(buffer, cpu, it);
	}
}

static void dump_finish_all(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		rtb_dump_finish(&dump_iters[cpu]);
}

/* The CPU whose next record is the oldest, or -1 when all are done. */
static int dump_pick(u64 *ts)
{
	int cpu, best = -1;
	u64 t, best_ts = 0;

	for_each_possible_cpu(cpu) {
		if (!rtb_dump_peek(&dump_iters[cpu], &t))
			continue;
		if (best < 0 || t < best_ts) {
			best = cpu;
			best_ts = t;
		}
	}
	*ts = best_ts;
	return best;
}

/*
 * Format the record the walk of @cpu peeked into dump_line and go past
 * it.  Returns the line's length; 0 if the record was lost under the
 * walk (a writer still running after an oops).
 */
static unsigned int dump_format(int cpu, u64 ts)
{
	struct rtb_event *rec;
	struct seq_buf s;

	rec = rtb_dump_take(&dump_iters[cpu], dump_record, sizeof(dump_record));
	if (!rec)
		return 0;
	seq_buf_init(&s, dump_line, sizeof(dump_line));
	ringtrace_output_record(&s, cpu, ts, rec, true);
	return seq_buf_used(&s);
}

/* Records the walks find, all CPUs shown. */
static unsigned long dump_count(struct rtb_buffer *buffer,
				const struct dump_set *set)
{
	unsigned long n = 0;
	int cpu;
	u64 ts;

	dump_start_all(buffer, set);
	for_each_possible_cpu(cpu) {
		while (rtb_dump_peek(&dump_iters[cpu], &ts)) {
			rtb_dump_skip(&dump_iters[cpu]);
			dump_touch(++n);
		}
	}
	dump_finish_all();
	return n;
}

/*
 * Bytes of the lines of the records after the first @skip, in time
 * order; *@formatted receives how many were formatted.
 */
static unsigned long dump_measure(struct rtb_buffer *buffer,
				  const struct dump_set *set,
				  unsigned long skip, unsigned long *formatted)
{
	unsigned long n = 0, bytes = 0;
	int cpu;
	u64 ts;

	*formatted = 0;
	dump_start_all(buffer, set);
	while ((cpu = dump_pick(&ts)) >= 0) {
		dump_touch(++n);
		if (n <= skip) {
			rtb_dump_skip(&dump_iters[cpu]);
			continue;
		}
		bytes += dump_format(cpu, ts);
		(*formatted)++;
	}
	dump_finish_all();
	return bytes;
}

struct dump_result {
	unsigned long	shown;
	unsigned long	shown_bytes;
	unsigned long	older;		/* left out before the first shown */
	unsigned long	newer;		/* left out at the bound (rare) */
};

/*
 * Print the records after the first @skip, less the oldest lines worth
 * @drop bytes, within @cap bytes.
 */
static void dump_print(struct rtb_buffer *buffer, const struct dump_set *set,
		       unsigned long skip, unsigned long drop,
		       unsigned long cap, struct dump_result *res)
{
	unsigned long n = 0, dropped = 0;
	unsigned int len;
	bool started = false;
	int cpu;
	u64 ts;

	memset(res, 0, sizeof(*res));
	dump_start_all(buffer, set);
	while ((cpu = dump_pick(&ts)) >= 0) {
		dump_touch(++n);
		if (n <= skip) {
			rtb_dump_skip(&dump_iters[cpu]);
			res->older++;
			continue;
		}
		len = dump_format(cpu, ts);
		if (!len)
			continue;
		if (dropped < drop) {
			dropped += len;
			res->older++;
			continue;
		}
		if (res->shown_bytes + len > cap) {
			res->newer++;
			continue;
		}
		if (!started && res->older)
			pr_emerg(DUMP_PFX ": %lu older records left out (ringtrace.dump_max_kb=%u)\n",
				 res->older, READ_ONCE(dump_max_kb));
		started = true;
		pr_emerg("%.*s", (int)len, dump_line);
		touch_nmi_watchdog();
		res->shown++;
		res->shown_bytes += len;
	}
	dump_finish_all();
	if (!started && res->older)
		pr_emerg(DUMP_PFX ": %lu older records left out (ringtrace.dump_max_kb=%u)\n",
			 res->older, READ_ONCE(dump_max_kb));
}

/* What the walks could not show, CPU by CPU. */
static void dump_report_walks(const struct dump_set *set)
{
	struct rtb_dump_iter *it;
	int cpu;

	for_each_possible_cpu(cpu) {
		it = &dump_iters[cpu];
		if (!dump_wanted(set, cpu))
			continue;
		if (it->status & RTB_DUMP_BUSY)
			pr_emerg(DUMP_PFX ": CPU %d: its buffer was being resized or reset: not shown\n",
				 cpu);
		if (it->status & RTB_DUMP_LOCKLESS)
			pr_emerg(DUMP_PFX ": CPU %d: a reader was busy: its page left out\n",
				 cpu);
		if (it->status & RTB_DUMP_LAPPED)
			pr_emerg(DUMP_PFX ": CPU %d: records overwritten or consumed during the dump left out\n",
				 cpu);
		if (it->status & RTB_DUMP_BAD)
			pr_emerg(DUMP_PFX ": CPU %d: stopped at a record that does not parse (page %lu offset %u)\n",
				 cpu, it->bad_seq, it->bad_off);
	}
}

/* The lost-records line trace prints before a CPU's first record. */
static void dump_lost(struct rtb_buffer *buffer, const struct dump_set *set)
{
	struct rtb_cpu_stats stats;
	struct seq_buf s;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (!dump_wanted(set, cpu))
			continue;
		rtb_cpu_stats(buffer, cpu, &stats);
		if (!stats.overruns && !stats.dropped)
			continue;
		seq_buf_init(&s, dump_line, sizeof(dump_line));
		ringtrace_output_lost(&s, cpu, stats.overruns + stats.dropped);
		pr_emerg("%.*s", (int)seq_buf_used(&s), dump_line);
	}
}

/*
 * The bound of the lines of records: ringtrace.dump_max_kb, at most half
 * the log buffer (see DUMP_DEFAULT_MAX_KB).
 */
static unsigned long dump_cap(void)
{
	unsigned long cap = (unsigned long)READ_ONCE(dump_max_kb) * SZ_1K;

	return min_t(unsigned long, cap, log_buf_len_get() / 2);
}

/*
 * Print the trace buffer, then leave recording off.  @why and @cpu say
 * what happened where.
 */
static void ringtrace_dump(const char *why, int cpu)
{
	struct rtb_buffer *buffer = ringtrace_trace_buffer();
	unsigned int mode = READ_ONCE(dump_mode);
	unsigned long total, keep, formatted, bytes, cap, flags;
	struct dump_result res;
	struct dump_set set;

	if (mode == DUMP_OFF || !buffer || !dump_iters)
		return;
	if (atomic_cmpxchg(&dump_state, DUMP_ARMED, DUMP_RUNNING) != DUMP_ARMED)
		return;
	/*
	 * Both notifiers run with interrupts off already (panic(),
	 * oops_begin()), but oops_begin() does not tell lockdep, and the
	 * walks need them off (rtb_dump_start()): say it again, for both.
	 */
	local_irq_save(flags);
	/* No record of what follows mixes in: writers check it first. */
	ringtrace_tracing_off_now();
	set.only = mode == DUMP_THIS_CPU ? cpu : -1;
	cap = dump_cap();
	pr_emerg(DUMP_PFX " begin: %s on CPU %d, records of %s, oldest first\n",
		 why, cpu, set.only < 0 ? "all CPUs" : "that CPU");

	/*
	 * The newest records whose lines fit in @cap: count them all, format
	 * only as many of the newest as could fit (at DUMP_MIN_LINE bytes
	 * each) to learn their size, then print those that fit.
	 */
	total = dump_count(buffer, &set);
	keep = min(total, cap / DUMP_MIN_LINE);
	bytes = dump_measure(buffer, &set, total - keep, &formatted);
	dump_lost(buffer, &set);
	dump_print(buffer, &set, total - keep,
		   bytes > cap ? bytes - cap : 0, cap, &res);
	if (res.newer)
		pr_emerg(DUMP_PFX ": %lu newer records left out: found after the count\n",
			 res.newer);
	dump_report_walks(&set);
	pr_emerg(DUMP_PFX " end: %lu records (%lu bytes) shown, tracing_on set to 0\n",
		 res.shown, res.shown_bytes);
	local_irq_restore(flags);
	atomic_set(&dump_state, DUMP_DONE);
}

static int dump_panic_notify(struct notifier_block *nb, unsigned long event,
			     void *msg)
{
	ringtrace_dump("panic", raw_smp_processor_id());
	return NOTIFY_DONE;
}

/*
 * Early in the panic chain: later notifiers may reboot, stop or hang
 * (hypervisors', watchdogs'), and the dump is what explains the panic.
 */
static struct notifier_block dump_panic_nb = {
	.notifier_call	= dump_panic_notify,
	.priority	= 100,
};

static int dump_die_notify(struct notifier_block *nb, unsigned long val,
			   void *data)
{
	/*
	 * An oops that will panic dumps there, where the other CPUs are
	 * stopped first and cannot write meanwhile.
	 */
	if (val != DIE_OOPS || READ_ONCE(panic_on_oops))
		return NOTIFY_DONE;
	ringtrace_dump("oops", raw_smp_processor_id());
	return NOTIFY_DONE;
}

static struct notifier_block dump_die_nb = {
	.notifier_call	= dump_die_notify,
};

static ssize_t dump_option_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[4];
	int len = scnprintf(buf, sizeof(buf), "%u\n", READ_ONCE(dump_mode));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t dump_option_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[16];
	unsigned int mode;

	if (count >= sizeof(buf)) {
		ringtrace_error_log("options/dump_on_oops", "", 0,
				    "too long: 0, 1 (all CPUs) or 2 (the oopsing CPU)");
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ringtrace_strip(buf);
	if (!*buf || dump_mode_parse(buf, &mode)) {
		ringtrace_error_log("options/dump_on_oops", buf, 0,
				    "not 0, 1 (all CPUs) or 2 (the oopsing CPU)");
		return -EINVAL;
	}
	WRITE_ONCE(dump_mode, mode);
	/* Writing it arms the dump again after one was printed. */
	atomic_cmpxchg(&dump_state, DUMP_DONE, DUMP_ARMED);
	return count;
}

static const struct file_operations dump_option_fops = {
	.read	= dump_option_read,
	.write	= dump_option_write,
	.llseek	= default_llseek,
};

static int __init ringtrace_dump_init(void)
{
	struct dentry *options;

	dump_iters = kcalloc(nr_cpu_ids, sizeof(*dump_iters), GFP_KERNEL);
	if (!dump_iters)
		return -ENOMEM;
	options = ringtrace_options_dir();
	if (options)
		ringtrace_add_file("dump_on_oops", 0600, options, NULL,
				   &dump_option_fops,
				   "print the trace buffer on the console on an oops or panic:\n"
				   "\t 0 no, 1 all CPUs, 2 the oopsing CPU only (ringtrace.dump_on_oops=)");
	atomic_notifier_chain_register(&panic_notifier_list, &dump_panic_nb);
	register_die_notifier(&dump_die_nb);
	return 0;
}
late_initcall(ringtrace_dump_init);
