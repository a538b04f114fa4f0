// SPDX-License-Identifier: GPL-2.0
/*
 * per_cpu/cpuN/trace_pipe_raw: the trace buffer's data pages
 * (Documentation/trace/ringtrace-buffer.rst), consumed as they are read.
 * read() returns a page in one or more pieces; splice() moves whole pages
 * into a pipe without copying them, which is how trace-cmd records.
 *
 * On the way out each page's record headers are rewritten from the
 * buffer's 2008 layout to the current one (events/header_page and
 * header_event describe it), which trace-cmd's recorder and every
 * libtraceevent reader expect: records keep their sizes and payloads, so
 * it is one word per record; see rtb_page_to_current_layout().
 *
 * Waiting (wait.c), as upstream's file: a blocking read()
 * waits for any record; a blocking splice() and poll() wait until
 * buffer_percent of the CPU buffer is filled (or tracing is off and
 * records remain).  O_NONBLOCK and SPLICE_F_NONBLOCK give -EAGAIN.
 *
 * Each rtb_read_page() runs under the CPU's access lock
 * (ringtrace_access_lock(), trace.c), as the other readers' reads
 * do: it refills the reader page and may hand it out, which would pull a
 * record from under a trace_pipe reader formatting it.  Reads and splices
 * of one open file serialise on its own mutex.
 *
 * The files live as long as the kernel (CPUs are never removed from the
 * possible mask), so debugfs's removal protection, which would hide
 * splice_read, is not needed: they are made with ringtrace_add_raw_file().
 */

#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pipe_fs_i.h>
#include <linux/ringtrace_buffer.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/splice.h>

#include "core.h"
#include "dir.h"
#include "record_layout.h"
#include "trace.h"

struct raw_reader {
	int			cpu;
	/* Serialises read() and splice() of the open file: @page and co. */
	struct mutex		lock;
	/* The page being read, and how much of it was returned. */
	struct rtb_data_page	*page;
	size_t			page_len;
	size_t			page_off;
};

static int raw_open(struct inode *inode, struct file *file)
{
	struct raw_reader *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->cpu = (long)inode->i_private;
	mutex_init(&r->lock);
	file->private_data = r;
	return nonseekable_open(inode, file);
}

static int raw_release(struct inode *inode, struct file *file)
{
	struct raw_reader *r = file->private_data;

	if (r->page)
		free_page((unsigned long)r->page);
	mutex_destroy(&r->lock);
	kfree(r);
	return 0;
}

struct raw_wait {
	int		cpu;
	unsigned int	what;	/* RINGTRACE_WAIT_* */
	bool		whole;	/* splice(): whole pages while tracing runs */
	bool		was_on;	/* splice(): tracing was on at the start */
};

/* Whether a reader waiting for @arg's condition may read now. */
static bool raw_ready(void *arg)
{
	struct raw_wait *w = arg;
	bool ready;

	/* Both may refill the reader page, like any consuming read. */
	ringtrace_access_lock(w->cpu);
	if (w->whole)
		ready = ringtrace_whole_pages_reached(w->cpu, w->was_on);
	else if (w->what == RINGTRACE_WAIT_WATERMARK)
		ready = ringtrace_watermark_reached(w->cpu);
	else
		ready = !rtb_empty_cpu(ringtrace_trace_buffer(), w->cpu);
	ringtrace_access_unlock(w->cpu);
	return ready;
}

/*
 * Take the next page of @cpu into *@page, or return -EAGAIN if there is
 * none.  The page we get is ours alone: it is rewritten outside the access
 * lock.
 */
static int raw_take_page(int cpu, struct rtb_data_page **page, bool whole)
{
	struct rtb_buffer *buffer = ringtrace_trace_buffer();
	int ret;

	/* Pairs with the access lock of trace_pipe, trace and stats. */
	ringtrace_access_lock(cpu);
	ret = whole ? rtb_read_full_page(buffer, cpu, page) :
		      rtb_read_page(buffer, cpu, page);
	ringtrace_access_unlock(cpu);
	if (ret < 0)
		return -EAGAIN;
	rtb_page_to_current_layout(*page);
	return 0;
}

/*
 * Sleep until @cpu's records are there as @what (RINGTRACE_WAIT_*) says.
 * Callers hold no lock of the file: another reader of it, non-blocking
 * for one, must not wait for this one's wait.
 */
static int raw_wait(int cpu, unsigned int what, bool whole)
{
	struct raw_wait w = {
		.cpu = cpu, .what = what, .whole = whole,
		.was_on = ringtrace_tracing_on(),
	};

	return ringtrace_wait(cpu, what, raw_ready, &w);
}

/* read() with r->lock held: the rest of the page, or the next one. */
static ssize_t raw_read_locked(struct raw_reader *r, char __user *ubuf,
			       size_t count)
{
	int ret;
	size_t n;

	if (r->page_off >= r->page_len) {
		if (!r->page) {
			r->page = (void *)get_zeroed_page(GFP_KERNEL);
			if (!r->page)
				return -ENOMEM;
		}
		ret = raw_take_page(r->cpu, &r->page, false);
		if (ret)
			return ret;
		r->page_len = PAGE_SIZE;
		r->page_off = 0;
	}
	n = min(count, r->page_len - r->page_off);
	if (copy_to_user(ubuf, (void *)r->page + r->page_off, n))
		return -EFAULT;
	r->page_off += n;
	return n;
}

/* A blocking read() waits for any record, as upstream's. */
static ssize_t raw_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct raw_reader *r = file->private_data;
	ssize_t ret;

	if (!count)
		return 0;
	for (;;) {
		if (mutex_lock_interruptible(&r->lock))
			return -ERESTARTSYS;
		ret = raw_read_locked(r, ubuf, count);
		mutex_unlock(&r->lock);
		if (ret != -EAGAIN || (file->f_flags & O_NONBLOCK))
			return ret;
		ret = raw_wait(r->cpu, RINGTRACE_WAIT_DATA, false);
		if (ret)
			return ret;
	}
}

static void raw_pipe_buf_release(struct pipe_inode_info *pipe,
				 struct pipe_buffer *buf)
{
	put_page(buf->page);
}

static const struct pipe_buf_operations raw_pipe_buf_ops = {
	.release	= raw_pipe_buf_release,
	.get		= generic_pipe_buf_get,
};

static void raw_spd_release(struct splice_pipe_desc *spd, unsigned int i)
{
	put_page(spd->pages[i]);
}

/*
 * splice() with r->lock held: the pages there are, up to @len; -EAGAIN if
 * none.
 */
static ssize_t raw_splice_locked(struct raw_reader *r,
				 struct pipe_inode_info *pipe, size_t len,
				 bool whole)
{
	struct page *pages[PIPE_DEF_BUFFERS];
	struct partial_page partial[PIPE_DEF_BUFFERS];
	struct splice_pipe_desc spd = {
		.pages		= pages,
		.partial	= partial,
		.nr_pages_max	= PIPE_DEF_BUFFERS,
		.ops		= &raw_pipe_buf_ops,
		.spd_release	= raw_spd_release,
	};
	struct rtb_data_page *data;
	int ret = -ENOMEM;

	while (len >= PAGE_SIZE && spd.nr_pages < spd.nr_pages_max) {
		data = (void *)get_zeroed_page(GFP_KERNEL);
		if (!data)
			break;
		ret = raw_take_page(r->cpu, &data, whole);
		if (ret) {
			free_page((unsigned long)data);
			break;
		}
		pages[spd.nr_pages] = virt_to_page(data);
		partial[spd.nr_pages].offset = 0;
		partial[spd.nr_pages].len = PAGE_SIZE;
		partial[spd.nr_pages].private = 0;
		spd.nr_pages++;
		len -= PAGE_SIZE;
	}
	/* In order, when two threads splice the file into one pipe. */
	return spd.nr_pages ? splice_to_pipe(pipe, &spd) : ret;
}

/*
 * As upstream's: while tracing runs, splice() moves only whole pages that
 * writers are done with (a recorder keeping up would otherwise save many
 * nearly empty pages; trace-cmd read()s the last, partial one), and a
 * blocking one waits for one and for buffer_percent of the CPU buffer.
 * Once tracing is off it moves what there is, partial pages too; a
 * blocking one that finds nothing waits for records, and returns 0 if
 * tracing went off while it waited: nothing will come.
 * splice(2) holds the pipe's lock meanwhile, as upstream's does; the
 * file's own lock is not held while waiting.
 */
static ssize_t raw_splice_read(struct file *file, loff_t *ppos,
			       struct pipe_inode_info *pipe, size_t len,
			       unsigned int flags)
{
	struct raw_reader *r = file->private_data;
	bool nonblock = (flags & SPLICE_F_NONBLOCK) ||
			(file->f_flags & O_NONBLOCK);
	bool tracing, waited = false;
	ssize_t ret;

	/* Whole pages only. */
	if (len < PAGE_SIZE)
		return -EINVAL;
	for (;;) {
		tracing = ringtrace_tracing_on();
		/* Nests inside the pipe's lock. */
		if (mutex_lock_interruptible(&r->lock))
			return -ERESTARTSYS;
		ret = raw_splice_locked(r, pipe, len, tracing);
		mutex_unlock(&r->lock);
		if (ret != -EAGAIN || nonblock)
			return ret;
		/* Woken (or not) with tracing off and nothing left. */
		if (!tracing && waited)
			return 0;
		if (signal_pending(current))
			return -ERESTARTSYS;
		ret = raw_wait(r->cpu, RINGTRACE_WAIT_WATERMARK, true);
		if (ret)
			return ret;
		waited = true;
		/* Another reader may take the pages first: no busy loop. */
		cond_resched();
	}
}

static __poll_t raw_poll(struct file *file, poll_table *pt)
{
	struct raw_reader *r = file->private_data;
	struct raw_wait w = { .cpu = r->cpu, .what = RINGTRACE_WAIT_WATERMARK };

	/* A page half returned by read() is readable now (racy peek). */
	if (data_race(r->page_off < r->page_len))
		return EPOLLIN | EPOLLRDNORM;
	ringtrace_poll_wait(file, pt, r->cpu, RINGTRACE_WAIT_WATERMARK);
	return raw_ready(&w) ? EPOLLIN | EPOLLRDNORM : 0;
}

static const struct file_operations raw_fops = {
	.open		= raw_open,
	.read		= raw_read,
	.poll		= raw_poll,
	.splice_read	= raw_splice_read,
	.release	= raw_release,
	.llseek		= no_llseek,
};

static int __init ringtrace_pipe_raw_init(void)
{
	struct dentry *dir;
	int cpu;

	for_each_possible_cpu(cpu) {
		dir = ringtrace_cpu_dir(cpu);
		if (!dir)
			continue;
		ringtrace_add_raw_file("trace_pipe_raw", 0400, dir,
				       (void *)(long)cpu, &raw_fops,
				       cpu ? NULL :
				       "a CPU's data pages, consumed as read or spliced");
	}
	return 0;
}
late_initcall(ringtrace_pipe_raw_init);
