// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes_gtsc.c - an example of using GTSC in a kprobes module
 *
 * The example of Documentation/trace/gtsc.rst, after the one GTSC was
 * first documented with: a kprobe on the fork path (kernel_clone(), which
 * replaced do_fork()) writes "[timestamp] pid" records into a global GTSC
 * channel.  Load it and read the records:
 *
 *   insmod kprobes_gtsc.ko
 *   cat /sys/kernel/debug/gtsc_example/kernel_clone/trace0
 *   rmmod kprobes_gtsc
 */

#include <linux/gtsc.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#define PROBE_POINT "kernel_clone"

static struct kprobe kp;
static struct trace_info *kprobes_trace;
/* Global buffers: writers on different CPUs take turns. */
static DEFINE_SPINLOCK(gtsc_printf_lock);
static char gtsc_printf_tmpbuf[GTSC_PRINTF_TMPBUF_SIZE];

static __printf(2, 3) void gtsc_printf(struct trace_info *trace,
				       const char *format, ...)
{
	unsigned long flags;
	va_list args;
	int len;

	if (!trace || !trace_running(trace))
		return;
	/* The time stamp is taken in turn too, so records are in order. */
	spin_lock_irqsave(&gtsc_printf_lock, flags);
	len = scnprintf(gtsc_printf_tmpbuf, sizeof(gtsc_printf_tmpbuf),
			"[%llu] ", trace_timestamp());
	va_start(args, format);
	len += vscnprintf(gtsc_printf_tmpbuf + len,
			  sizeof(gtsc_printf_tmpbuf) - len, format, args);
	va_end(args);
	relay_write(trace->rchan, gtsc_printf_tmpbuf, len);
	spin_unlock_irqrestore(&gtsc_printf_lock, flags);
}

static int handler_pre(struct kprobe *p, struct pt_regs *regs)
{
	gtsc_printf(kprobes_trace, "%d\n", current->pid);
	return 0;
}

static int __init kprobes_gtsc_init(void)
{
	int ret;

	/* Set up GTSC with a global relay buffer. */
	kprobes_trace = trace_setup("gtsc_example", PROBE_POINT, 1024, 8,
				    TRACE_GLOBAL_CHANNEL);
	if (IS_ERR(kprobes_trace))
		return PTR_ERR(kprobes_trace);
	trace_start(kprobes_trace);

	kp.pre_handler = handler_pre;
	kp.symbol_name = PROBE_POINT;
	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("kprobes_gtsc: register_kprobe failed: %d\n", ret);
		trace_cleanup(kprobes_trace);
	}
	return ret;
}

static void __exit kprobes_gtsc_exit(void)
{
	unregister_kprobe(&kp);
	/* Close down the GTSC channel. */
	trace_stop(kprobes_trace);
	trace_cleanup(kprobes_trace);
}

module_init(kprobes_gtsc_init);
module_exit(kprobes_gtsc_exit);
MODULE_DESCRIPTION("GTSC example: fork records from a kprobe");
MODULE_LICENSE("GPL");
