// SPDX-License-Identifier: GPL-2.0
/*
 * Readers of the trace buffer waiting for records: trace_pipe,
 * per_cpu/cpuN/trace_pipe and per_cpu/cpuN/trace_pipe_raw, in read(),
 * splice() and poll(), and the buffer_percent file.
 *
 * Each CPU has a wait queue, an irq_work and a word of what its readers
 * wait for (any record, or buffer_percent of the pages filled); readers of
 * every CPU (trace_pipe) wait on one more queue and mark every CPU.  A
 * writer that commits checks its CPU's word: if a reader waits for what it
 * just made true, it queues the irq_work (writers may be in NMI), which
 * clears the word and wakes both queues.  Nothing runs while no reader
 * waits, and nothing wakes a waiting reader but a record published (by a
 * commit, or by the discard or failed reservation of an outer writer that
 * publishes what nested ones committed) or a change of what it waits for
 * (tracing_on off, buffer_percent): no timer.
 *
 * No lost wakeup: a reader puts itself on the queue, marks the word,
 * smp_mb(), then checks for records; a writer commits, smp_mb(), then reads
 * the word.  Either the reader sees the record or the writer sees the mark.
 * The irq_work clears the word before it wakes the queues, and every reader
 * on them marks it again before it looks and sleeps again.
 *
 * The trace buffer attaches itself (ringtrace_wait_attach()): this file
 * knows the buffer and its tracing_on only through what it was given, so
 * that it calls nothing of trace.c's, which calls it.
 */

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "core.h"
#include "dir.h"
#include "trace.h"

struct ringtrace_cpu_wait {
	/* RINGTRACE_WAIT_* that readers of this CPU wait for. */
	atomic_t		want;
	struct irq_work		work;
	wait_queue_head_t	queue;
};

static DEFINE_PER_CPU(struct ringtrace_cpu_wait, cpu_wait);
/* Readers of every CPU's records (trace_pipe). */
static DECLARE_WAIT_QUEUE_HEAD(all_cpus_queue);
/* Percent of a CPU buffer's pages filled that wakes watermark readers. */
static unsigned int buffer_percent = 50;
/* What readers wait on: set once, before the buffer takes records. */
static struct rtb_buffer *wait_buffer;
static const bool *wait_recording_on;

/**
 * ringtrace_wait_attach() - the buffer whose readers wait here
 * @buffer: the trace buffer
 * @recording_on: its tracing_on, read with READ_ONCE()
 *
 * Context: process context, once, before @buffer takes a record.
 */
void ringtrace_wait_attach(struct rtb_buffer *buffer, const bool *recording_on)
{
	wait_buffer = buffer;
	wait_recording_on = recording_on;
}

static bool wait_tracing_on(void)
{
	return READ_ONCE(*wait_recording_on);
}

static void ringtrace_wake_work(struct irq_work *work)
{
	struct ringtrace_cpu_wait *cw = container_of(work,
						     struct ringtrace_cpu_wait,
						     work);

	atomic_set(&cw->want, 0);
	wake_up_all(&cw->queue);
	wake_up_all(&all_cpus_queue);
}

/* Whether @filled of @nr_pages pages reach buffer_percent. */
static bool ringtrace_watermark(unsigned int filled, unsigned int nr_pages)
{
	unsigned int percent = READ_ONCE(buffer_percent);

	return filled && (u64)filled * 100 >= (u64)percent * nr_pages;
}

/**
 * ringtrace_wake_readers() - after a commit: wake readers waiting for it
 *
 * Called by writers of the trace buffer on the CPU they wrote on, after
 * anything that may have published records (a commit; a discard or a
 * failed reservation, which publish what nested writers committed), before
 * the preemption-off section of the record ends.  Any context.
 */
void ringtrace_wake_readers(void)
{
	struct ringtrace_cpu_wait *cw = this_cpu_ptr(&cpu_wait);
	unsigned int nr_pages, filled;
	int want;

	/* The commit before the look: pairs with smp_mb() in _mark(). */
	smp_mb();
	want = atomic_read(&cw->want);
	if (likely(!want))
		return;
	/* Tracing off: watermark readers take what there is. */
	if (!(want & RINGTRACE_WAIT_DATA) && wait_tracing_on()) {
		filled = rtb_writer_filled(wait_buffer, &nr_pages);
		/* The reader page may hold records too: never wake late. */
		if (!ringtrace_watermark(filled + 1, nr_pages))
			return;
	}
	irq_work_queue(&cw->work);
}

/**
 * ringtrace_wake_all_readers() - wake every waiting reader to look again
 *
 * For changes of what readers wait for: tracing_on turned off (what is
 * buffered is all there will be), a new buffer_percent.  Process context.
 */
void ringtrace_wake_all_readers(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		atomic_set(&per_cpu(cpu_wait, cpu).want, 0);
		wake_up_all(&per_cpu(cpu_wait, cpu).queue);
	}
	wake_up_all(&all_cpus_queue);
}

/* Tell the writers of @cpu (or every CPU) what we wait for, then look. */
static void ringtrace_wait_mark(int cpu, unsigned int what)
{
	if (cpu == RINGTRACE_ALL_CPUS)
		for_each_possible_cpu(cpu)
			atomic_or(what, &per_cpu(cpu_wait, cpu).want);
	else
		atomic_or(what, &per_cpu(cpu_wait, cpu).want);
	/* Pairs with smp_mb() in ringtrace_wake_readers(). */
	smp_mb();
}

static wait_queue_head_t *ringtrace_wait_queue(int cpu)
{
	if (cpu == RINGTRACE_ALL_CPUS)
		return &all_cpus_queue;
	return &per_cpu(cpu_wait, cpu).queue;
}

/**
 * ringtrace_wait() - sleep until a reader's condition holds
 * @cpu: the CPU whose records are read, or %RINGTRACE_ALL_CPUS
 * @what: %RINGTRACE_WAIT_DATA or %RINGTRACE_WAIT_WATERMARK
 * @ready: the condition; may sleep (it may take the access lock)
 * @arg: passed to @ready
 *
 * The reader's own locks are its business: hold none a writer or
 * another reader of the same file needs while this sleeps.
 *
 * Return: 0 once @ready returned true, -ERESTARTSYS on a signal.
 */
int ringtrace_wait(int cpu, unsigned int what, bool (*ready)(void *arg),
		   void *arg)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	wait_queue_head_t *queue = ringtrace_wait_queue(cpu);
	int ret = 0;

	add_wait_queue(queue, &wait);
	for (;;) {
		ringtrace_wait_mark(cpu, what);
		if (ready(arg))
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		/* Does not sleep if a wakeup came since the mark. */
		wait_woken(&wait, TASK_INTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);
	}
	remove_wait_queue(queue, &wait);
	return ret;
}

/**
 * ringtrace_poll_wait() - poll()'s half of ringtrace_wait()
 * @file: the polled file
 * @pt: poll()'s table
 * @cpu: the CPU whose records are read, or %RINGTRACE_ALL_CPUS
 * @what: %RINGTRACE_WAIT_DATA or %RINGTRACE_WAIT_WATERMARK
 *
 * Queue the poller and mark the writers; the caller checks its condition
 * afterwards and returns EPOLLIN if it holds.
 */
void ringtrace_poll_wait(struct file *file, poll_table *pt, int cpu,
			 unsigned int what)
{
	poll_wait(file, ringtrace_wait_queue(cpu), pt);
	ringtrace_wait_mark(cpu, what);
}

/**
 * ringtrace_watermark_reached() - whether a watermark reader may go on
 * @cpu: the CPU whose records are read
 *
 * True when buffer_percent of the CPU buffer's pages hold unread records,
 * or when it holds any and buffer_percent is 0 or tracing is off (what
 * is buffered then is all there will be); never when it holds none.
 * Under ringtrace_access_lock(@cpu); may sleep.
 *
 * Return: whether to read.
 */
bool ringtrace_watermark_reached(int cpu)
{
	struct rtb_buffer *buffer = wait_buffer;
	unsigned int filled, nr_pages, whole;

	if (READ_ONCE(buffer_percent) && wait_tracing_on()) {
		filled = rtb_cpu_filled(buffer, cpu, &nr_pages, &whole);
		if (!ringtrace_watermark(filled, nr_pages))
			return false;
	}
	/* Never ready without a record: a poller would spin. */
	return !rtb_empty_cpu(buffer, cpu);
}

/**
 * ringtrace_whole_pages_reached() - whether a splicing reader may go on
 * @cpu: the CPU whose records are read
 * @was_on: whether tracing was on when the reader began to wait
 *
 * While tracing runs, splice() moves only whole pages writers are done
 * with: true when one is there and buffer_percent is reached.  Once
 * tracing is off, what is buffered, whole or not, is all there will be:
 * true if there is any, or if tracing went off while the reader waited
 * (it returns, with nothing); a reader that began waiting with tracing
 * off waits for records.  Under ringtrace_access_lock(@cpu); may sleep.
 *
 * Return: whether to splice.
 */
bool ringtrace_whole_pages_reached(int cpu, bool was_on)
{
	unsigned int filled, nr_pages, whole;

	if (!wait_tracing_on())
		return was_on || !rtb_empty_cpu(wait_buffer, cpu);
	filled = rtb_cpu_filled(wait_buffer, cpu, &nr_pages,
				&whole);
	return whole && ringtrace_watermark(filled, nr_pages);
}

static ssize_t buffer_percent_read(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char buf[16];
	int len = scnprintf(buf, sizeof(buf), "%u\n",
			    READ_ONCE(buffer_percent));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t buffer_percent_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	unsigned int percent;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 10, &percent);
	if (ret)
		return ret;
	if (percent > 100)
		return -EINVAL;
	WRITE_ONCE(buffer_percent, percent);
	/* Waiters look again with the new mark. */
	ringtrace_wake_all_readers();
	return count;
}

static const struct file_operations buffer_percent_fops = {
	.read	= buffer_percent_read,
	.write	= buffer_percent_write,
	.llseek	= default_llseek,
};

static int __init ringtrace_wait_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ringtrace_cpu_wait *cw = &per_cpu(cpu_wait, cpu);

		init_irq_work(&cw->work, ringtrace_wake_work);
		init_waitqueue_head(&cw->queue);
	}
	ringtrace_add_file("buffer_percent", 0600, NULL, NULL,
			   &buffer_percent_fops,
			   "0-100: how full a CPU buffer gets before trace_pipe_raw's poll() and splice() wake (0: any record)");
	return 0;
}
fs_initcall_sync(ringtrace_wait_init);
