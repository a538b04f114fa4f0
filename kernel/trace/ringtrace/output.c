// SPDX-License-Identifier: GPL-2.0
/*
 * Text output of the trace buffer: trace (all CPUs merged by time, not
 * consuming), trace_pipe (consuming, blocking, pollable), their per_cpu
 * copies, and printk_formats.  Each record prints as
 *
 *   <comm>-<pid> [cpu] seconds.micros: <event text>
 *
 * with the event's own output callback rendering the text.
 *
 * Records are read and formatted under the access lock
 * (ringtrace_access_lock(), trace.c) of the CPUs a file shows:
 * the records the buffer returns are only valid until the next read of
 * their CPU buffer, by whichever reader.
 */

#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/pipe_fs_i.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/ringtrace_events.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "core.h"
#include "dir.h"
#include "trace.h"

/*
 * Longest line printed for one record, a page as upstream's trace_seq;
 * longer ones end with output_cut.
 */
#define OUTPUT_LINE_MAX		PAGE_SIZE
static const char output_cut[] = " [...]\n";

/* Which CPUs a file shows: all, or per_cpu/cpuN's. */
static bool output_cpu_wanted(int only, int cpu)
{
	return only < 0 || only == cpu;
}

static int output_file_cpu(struct inode *inode)
{
	return (long)inode->i_private - 1;
}

/* The event's own text of a record. */
static void output_event(struct seq_buf *s,
			 const struct ringtrace_entry *entry, unsigned int size)
{
	struct ringtrace_event *event;

	mutex_lock(&ringtrace_events_lock);
	event = ringtrace_event_find(entry->common_type);
	if (event && event->ops->output)
		event->ops->output(event, s, entry, size);
	else
		seq_buf_printf(s, "unknown event %u", entry->common_type);
	mutex_unlock(&ringtrace_events_lock);
}

/*
 * output_event() taking no lock.  An event leaves the registry a grace
 * period before it is freed (events.c): RCU keeps the one found
 * here, and what its ->output() reads, until it is done.
 */
static void output_event_nowait(struct seq_buf *s,
				const struct ringtrace_entry *entry,
				unsigned int size)
{
	struct ringtrace_event *event;

	rcu_read_lock();
	event = ringtrace_event_find_rcu(entry->common_type);
	if (event && event->ops->output)
		event->ops->output(event, s, entry, size);
	else
		seq_buf_printf(s, "unknown event %u", entry->common_type);
	rcu_read_unlock();
}

/**
 * ringtrace_output_record() - a record as a line of trace
 * @s: receives the line, newline included; cut with " [...]" if it is
 *	longer than @s holds, whose buffer was zeroed when allocated
 * @cpu: the CPU buffer it is from
 * @ts: its time stamp
 * @rev: the record
 * @nowait: take no lock: the event is looked up under RCU and the comm
 *	only if saved_cmdlines_lock is free (crash dumps, any context);
 *	else under ringtrace_events_lock (may sleep)
 */
void ringtrace_output_record(struct seq_buf *s, int cpu, u64 ts,
			     struct rtb_event *rev, bool nowait)
{
	const struct ringtrace_entry *entry = rtb_event_data(rev);
	unsigned int size = rtb_event_data_length(rev);
	char comm[TASK_COMM_LEN];

	if (size < sizeof(*entry)) {
		seq_buf_printf(s, "<record of %u bytes>\n", size);
		return;
	}
	seq_buf_printf(s, "%16s-%-5d [%03d] %5llu.%06llu: ",
		       nowait ? ringtrace_find_comm_nowait(entry->common_pid,
							   comm) :
				ringtrace_find_comm(entry->common_pid, comm),
		       entry->common_pid, cpu, ts / NSEC_PER_SEC,
		       ts % NSEC_PER_SEC / NSEC_PER_USEC);
	if (nowait)
		output_event_nowait(s, entry, size);
	else
		output_event(s, entry, size);
	seq_buf_putc(s, '\n');
	/*
	 * Too long: cut, say so, and still end the line.  The line buffer is
	 * zeroed when allocated: whatever a cut leaves, some record wrote.
	 */
	if (seq_buf_has_overflowed(s))
		memcpy(s->buffer + s->size - strlen(output_cut),
		       output_cut, strlen(output_cut));
}

/**
 * ringtrace_output_lost() - the line trace prints for lost records
 * @s: receives it
 * @cpu: the CPU buffer that lost them
 * @lost: how many
 */
void ringtrace_output_lost(struct seq_buf *s, int cpu, unsigned long lost)
{
	seq_buf_printf(s, "CPU:%d [LOST %lu EVENTS]\n", cpu, lost);
}

static const char trace_header[] =
	"# tracer: nop\n"
	"#\n"
	"#           TASK-PID    CPU#    TIMESTAMP  FUNCTION\n"
	"#              | |       |          |         |\n";

/* trace: iterators on every CPU shown, merged by time stamp. */
struct trace_reader {
	int			only_cpu;
	struct rtb_iter		**iters;
	/* Lost records of each CPU, printed before its first record. */
	unsigned long		*lost;
	/* The record shown last: advanced by ->next. */
	int			cpu;
	struct rtb_event	*event;
	u64			ts;
	char			*line;
};

/*
 * trace and per_cpu/cpuN/trace files open for reading: their iterators,
 * kept across reads, may walk records a reset has emptied the buffer of.
 */
static atomic_t trace_readers_open = ATOMIC_INIT(0);

/*
 * Whether a trace file is open for reading: its records may be from before
 * the last reset.  Ordered after the iterators' start by the buffer's
 * mutex (rtb_read_prepare() takes it after the count goes up, rtb_reset()
 * and rtb_resize() too).
 */
static bool output_iterating(void)
{
	return atomic_read(&trace_readers_open);
}

static struct ringtrace_trace_listener output_listener = {
	.holds_old	= output_iterating,
};

static struct rtb_event *trace_pick(struct trace_reader *tr)
{
	struct rtb_event *event, *best = NULL;
	u64 ts, best_ts = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (!tr->iters[cpu])
			continue;
		event = rtb_iter_peek(tr->iters[cpu], &ts);
		if (event && (!best || ts < best_ts)) {
			best = event;
			best_ts = ts;
			tr->cpu = cpu;
		}
	}
	tr->event = best;
	tr->ts = best_ts;
	return best;
}

/*
 * ->start to ->stop runs under the access lock of the CPUs shown, which
 * pairs with the consuming readers': the records the iterators return may
 * live in a reader page they refill or hand out.  seq_file copies to user
 * space after ->stop.
 */
static void *trace_seq_start(struct seq_file *m, loff_t *pos)
{
	struct trace_reader *tr = m->private;
	int cpu;

	ringtrace_access_lock(tr->only_cpu);
	if (!*pos) {
		for_each_possible_cpu(cpu)
			if (tr->iters[cpu])
				rtb_iter_reset(tr->iters[cpu]);
		return SEQ_START_TOKEN;
	}
	return trace_pick(tr);
}

static void *trace_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct trace_reader *tr = m->private;

	++*pos;
	if (v != SEQ_START_TOKEN && tr->event)
		rtb_read(tr->iters[tr->cpu], NULL);
	return trace_pick(tr);
}

static void trace_seq_stop(struct seq_file *m, void *v)
{
	struct trace_reader *tr = m->private;

	ringtrace_access_unlock(tr->only_cpu);
}

static int trace_seq_show(struct seq_file *m, void *v)
{
	struct trace_reader *tr = m->private;
	struct seq_buf s;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, trace_header);
		return 0;
	}
	seq_buf_init(&s, tr->line, OUTPUT_LINE_MAX);
	if (tr->lost[tr->cpu]) {
		ringtrace_output_lost(&s, tr->cpu, tr->lost[tr->cpu]);
		tr->lost[tr->cpu] = 0;
	}
	ringtrace_output_record(&s, tr->cpu, tr->ts, tr->event, false);
	seq_write(m, tr->line, seq_buf_used(&s));
	return 0;
}

static const struct seq_operations trace_seq_ops = {
	.start	= trace_seq_start,
	.next	= trace_seq_next,
	.stop	= trace_seq_stop,
	.show	= trace_seq_show,
};

static void trace_reader_free(struct trace_reader *tr)
{
	int cpu;

	if (tr->iters)
		for_each_possible_cpu(cpu)
			if (tr->iters[cpu])
				rtb_read_finish(tr->iters[cpu]);
	atomic_dec(&trace_readers_open);
	kfree(tr->iters);
	kfree(tr->lost);
	kfree(tr->line);
	kfree(tr);
}

static int trace_open(struct inode *inode, struct file *file)
{
	struct rtb_buffer *buffer = ringtrace_trace_buffer();
	struct rtb_cpu_stats stats;
	struct trace_reader *tr;
	int cpu, ret;

	if (!buffer)
		return -ENODEV;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		ringtrace_trace_clear();
	if (!(file->f_mode & FMODE_READ))
		return 0;

	tr = kzalloc(sizeof(*tr), GFP_KERNEL);
	if (!tr)
		return -ENOMEM;
	/* Before any iterator starts; trace_reader_free() counts it out. */
	atomic_inc(&trace_readers_open);
	tr->only_cpu = output_file_cpu(inode);
	tr->iters = kcalloc(nr_cpu_ids, sizeof(*tr->iters), GFP_KERNEL);
	tr->lost = kcalloc(nr_cpu_ids, sizeof(*tr->lost), GFP_KERNEL);
	tr->line = kzalloc(OUTPUT_LINE_MAX, GFP_KERNEL);
	if (!tr->iters || !tr->lost || !tr->line) {
		ret = -ENOMEM;
		goto fail;
	}
	for_each_possible_cpu(cpu) {
		if (!output_cpu_wanted(tr->only_cpu, cpu))
			continue;
		/* Recording on the CPU pauses while the file is open. */
		tr->iters[cpu] = rtb_read_prepare(buffer, cpu);
		if (!tr->iters[cpu]) {
			ret = -ENOMEM;
			goto fail;
		}
	}
	/* Once for all CPUs: the writers in flight when recording paused. */
	rtb_read_prepare_sync();
	for_each_possible_cpu(cpu) {
		if (!tr->iters[cpu])
			continue;
		rtb_cpu_stats(buffer, cpu, &stats);
		tr->lost[cpu] = stats.overruns + stats.dropped;
	}
	ret = seq_open(file, &trace_seq_ops);
	if (ret)
		goto fail;
	((struct seq_file *)file->private_data)->private = tr;
	return 0;
fail:
	trace_reader_free(tr);
	return ret;
}

static int trace_release(struct inode *inode, struct file *file)
{
	struct seq_file *m;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	m = file->private_data;
	trace_reader_free(m->private);
	return seq_release(inode, file);
}

static ssize_t trace_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	/* Any write empties the buffers, as "echo > trace" does. */
	ringtrace_trace_clear();
	return count;
}

static loff_t trace_llseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	return 0;
}

static const struct file_operations trace_fops = {
	.open		= trace_open,
	.read		= seq_read,
	.write		= trace_write,
	.llseek		= trace_llseek,
	.release	= trace_release,
};

/* trace_pipe: consuming reads, oldest record of all CPUs shown first. */
struct pipe_reader {
	int		only_cpu;
	/* Serialises reads of one open file: @line is shared. */
	struct mutex	lock;
	char		*line;
	size_t		len;
	size_t		off;
};

/*
 * Whether the file's CPUs have no record.  rtb_empty_cpu() is a peek that
 * may refill: under the access lock, so it may sleep.
 */
static bool pipe_reader_empty(struct pipe_reader *pr)
{
	struct rtb_buffer *buffer = ringtrace_trace_buffer();
	bool empty = true;
	int cpu;

	ringtrace_access_lock(pr->only_cpu);
	for_each_possible_cpu(cpu) {
		if (output_cpu_wanted(pr->only_cpu, cpu) &&
		    !rtb_empty_cpu(buffer, cpu)) {
			empty = false;
			break;
		}
	}
	ringtrace_access_unlock(pr->only_cpu);
	return empty;
}

/*
 * Consume the oldest record into pr->line.  False if there is none.  The
 * access lock pairs with the other readers of these CPUs: it keeps the
 * peeked records valid for the choice, and the consumed one until it is
 * formatted.
 */
static bool pipe_fill(struct pipe_reader *pr)
{
	struct rtb_buffer *buffer = ringtrace_trace_buffer();
	struct rtb_event *event;
	unsigned long lost;
	int cpu, best = -1;
	u64 ts, best_ts = 0;
	struct seq_buf s;
	bool filled = false;

	ringtrace_access_lock(pr->only_cpu);
	for_each_possible_cpu(cpu) {
		if (!output_cpu_wanted(pr->only_cpu, cpu) ||
		    !rtb_peek(buffer, cpu, &ts))
			continue;
		if (best < 0 || ts < best_ts) {
			best = cpu;
			best_ts = ts;
		}
	}
	if (best < 0)
		goto out;
	event = rtb_consume(buffer, best, &ts, &lost);
	if (!event)
		goto out;
	seq_buf_init(&s, pr->line, OUTPUT_LINE_MAX);
	if (lost)
		ringtrace_output_lost(&s, best, lost);
	ringtrace_output_record(&s, best, ts, event, false);
	pr->len = seq_buf_used(&s);
	pr->off = 0;
	filled = true;
out:
	ringtrace_access_unlock(pr->only_cpu);
	return filled;
}

static bool pipe_ready(void *pr)
{
	return !pipe_reader_empty(pr);
}

/*
 * Sleep until a record of the file's CPUs is readable or a signal comes.
 * Called with pr->lock held, which is dropped meanwhile (other readers of
 * the file go on; pipe_reader_empty() takes the access lock, not held
 * while asleep either).  Returns 0 with pr->lock held again, or an error
 * without it.
 */
static int pipe_wait(struct pipe_reader *pr)
{
	int ret;

	mutex_unlock(&pr->lock);
	ret = ringtrace_wait(pr->only_cpu, RINGTRACE_WAIT_DATA, pipe_ready,
			     pr);
	if (ret)
		return ret;
	return mutex_lock_interruptible(&pr->lock) ? -ERESTARTSYS : 0;
}

static int pipe_open(struct inode *inode, struct file *file)
{
	struct pipe_reader *pr;

	if (!ringtrace_trace_buffer())
		return -ENODEV;
	pr = kzalloc(sizeof(*pr), GFP_KERNEL);
	if (!pr)
		return -ENOMEM;
	pr->line = kzalloc(OUTPUT_LINE_MAX, GFP_KERNEL);
	if (!pr->line) {
		kfree(pr);
		return -ENOMEM;
	}
	pr->only_cpu = output_file_cpu(inode);
	mutex_init(&pr->lock);
	file->private_data = pr;
	return nonseekable_open(inode, file);
}

static int pipe_release(struct inode *inode, struct file *file)
{
	struct pipe_reader *pr = file->private_data;

	mutex_destroy(&pr->lock);
	kfree(pr->line);
	kfree(pr);
	return 0;
}

static ssize_t pipe_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	struct pipe_reader *pr = file->private_data;
	size_t copied = 0, n;
	ssize_t ret = 0;

	if (mutex_lock_interruptible(&pr->lock))
		return -ERESTARTSYS;
	while (copied < count) {
		if (pr->off < pr->len) {
			n = min(count - copied, pr->len - pr->off);
			if (copy_to_user(ubuf + copied, pr->line + pr->off, n)) {
				ret = -EFAULT;
				break;
			}
			pr->off += n;
			copied += n;
			continue;
		}
		if (pipe_fill(pr))
			continue;
		if (copied)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		ret = pipe_wait(pr);
		if (ret)
			return ret;
	}
	mutex_unlock(&pr->lock);
	return copied ? copied : ret;
}

static __poll_t pipe_poll(struct file *file, poll_table *wait)
{
	struct pipe_reader *pr = file->private_data;

	if (pr->off < pr->len)
		return EPOLLIN | EPOLLRDNORM;
	ringtrace_poll_wait(file, wait, pr->only_cpu, RINGTRACE_WAIT_DATA);
	if (!pipe_reader_empty(pr))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

/* Fill @page with the next lines, up to @len bytes; returns the bytes. */
static size_t pipe_fill_page(struct pipe_reader *pr, struct page *page,
			     size_t len)
{
	size_t done = 0, n;

	len = min_t(size_t, len, PAGE_SIZE);
	while (done < len) {
		if (pr->off >= pr->len && !pipe_fill(pr))
			break;
		n = min(len - done, pr->len - pr->off);
		memcpy(page_address(page) + done, pr->line + pr->off, n);
		pr->off += n;
		done += n;
	}
	return done;
}

static void pipe_spd_release(struct splice_pipe_desc *spd, unsigned int i)
{
	__free_page(spd->pages[i]);
}

/*
 * splice() of trace_pipe: the same lines as read(), in pages of their
 * own.  splice(2) caps @len at the room left in the pipe, so every page
 * filled goes in and no consumed line is lost.  The first line is waited
 * for like read() does, unless non-blocking.
 */
static ssize_t pipe_splice_read(struct file *file, loff_t *ppos,
				struct pipe_inode_info *pipe, size_t len,
				unsigned int flags)
{
	struct pipe_reader *pr = file->private_data;
	struct page *pages[PIPE_DEF_BUFFERS];
	struct partial_page partial[PIPE_DEF_BUFFERS];
	struct splice_pipe_desc spd = {
		.pages		= pages,
		.partial	= partial,
		.nr_pages_max	= PIPE_DEF_BUFFERS,
		.ops		= &default_pipe_buf_ops,
		.spd_release	= pipe_spd_release,
	};
	bool nonblock = (flags & SPLICE_F_NONBLOCK) ||
			(file->f_flags & O_NONBLOCK);
	struct page *page;
	ssize_t ret = 0;
	size_t n;

	/* Nests inside the pipe's lock, which splice(2) holds here. */
	if (mutex_lock_interruptible(&pr->lock))
		return -ERESTARTSYS;
	while (pr->off >= pr->len && !pipe_fill(pr)) {
		if (nonblock) {
			ret = -EAGAIN;
			goto out;
		}
		/* The pipe's lock stays held while asleep, as upstream's. */
		ret = pipe_wait(pr);
		if (ret)
			return ret;
	}
	while (len && spd.nr_pages < spd.nr_pages_max) {
		page = alloc_page(GFP_KERNEL);
		if (!page)
			break;
		n = pipe_fill_page(pr, page, len);
		if (!n) {
			__free_page(page);
			break;
		}
		pages[spd.nr_pages] = page;
		partial[spd.nr_pages].offset = 0;
		partial[spd.nr_pages].len = n;
		partial[spd.nr_pages].private = 0;
		spd.nr_pages++;
		len -= n;
		/* A page not filled: the lines ran out. */
		if (n < PAGE_SIZE)
			break;
	}
	ret = spd.nr_pages ? splice_to_pipe(pipe, &spd) : -ENOMEM;
out:
	mutex_unlock(&pr->lock);
	return ret;
}

static const struct file_operations pipe_fops = {
	.open		= pipe_open,
	.read		= pipe_read,
	.splice_read	= pipe_splice_read,
	.poll		= pipe_poll,
	.release	= pipe_release,
	.llseek		= no_llseek,
};

/* ringtrace has no trace_printk(): there are no formats to list. */
static ssize_t printk_formats_read(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return 0;
}

static const struct file_operations printk_formats_fops = {
	.read	= printk_formats_read,
	.llseek	= default_llseek,
};

static int __init ringtrace_output_init(void)
{
	struct dentry *dir;
	int cpu;

	ringtrace_trace_listen(&output_listener);
	ringtrace_add_file("trace", 0600, NULL, NULL, &trace_fops,
			   "events of all CPUs by time; not consumed; write to clear");
	/* Never removed: raw, so that splice_read stays. */
	ringtrace_add_raw_file("trace_pipe", 0400, NULL, NULL, &pipe_fops,
			       "events of all CPUs, consumed as read; blocks when empty");
	ringtrace_add_file("printk_formats", 0400, NULL, NULL,
			   &printk_formats_fops,
			   "formats of trace_printk() (none in ringtrace)");
	for_each_possible_cpu(cpu) {
		dir = ringtrace_cpu_dir(cpu);
		if (!dir)
			continue;
		ringtrace_add_file("trace", 0600, dir, (void *)(long)(cpu + 1),
				   &trace_fops, cpu ? NULL :
				   "a CPU's events; not consumed; write to clear all");
		ringtrace_add_raw_file("trace_pipe", 0400, dir,
				       (void *)(long)(cpu + 1), &pipe_fops,
				       cpu ? NULL : "a CPU's events, consumed as read");
	}
	return 0;
}
late_initcall(ringtrace_output_init);
