// SPDX-License-Identifier: GPL-2.0
/*
 * GTSC: Generic Trace Setup and Control (Documentation/trace/gtsc.rst).
 *
 * A channel is a relay channel plus control files under
 * /sys/kernel/debug/<root>/<name>/: trace0..N (relay's buffers, one per
 * CPU or one for all), state, dropped, rewind, nr_sub and sub_size.
 * Roots are shared by their channels and go with the last one.
 *
 * Lifetime.  Control files are plain debugfs files: removing them waits
 * for the operations in progress, after which the channel may be freed.
 * The buffer files need mmap and splice, which debugfs's removal proxy
 * does not pass on, so they are "unsafe" debugfs files whose open is ours:
 * it pins the file against removal while it takes a reference on relay's
 * buffer, and only if that buffer still has one.  From then on relay's
 * reference counting keeps the buffer (and its channel) alive until the
 * last reader closes it, even after trace_cleanup().
 */

#define pr_fmt(fmt) "gtsc: " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/gtsc.h>
#include <linux/kref.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "gtsc_internal.h"

/**
 * struct gtsc_root - a directory of channels in debugfs
 * @node:	entry in gtsc_roots
 * @dir:	/sys/kernel/debug/<name>
 * @channels:	channels under it; the root goes with the last
 * @name:	its name
 */
struct gtsc_root {
	struct list_head	node;
	struct dentry		*dir;
	unsigned int		channels;
	char			name[GTSC_NAME_MAX + 1];
};

/*
 * Guards the roots and the list of channels.  Control file operations
 * never take it (a channel's state has its own lock), so that removing
 * the files under it cannot wait for an operation waiting for it.
 */
static DEFINE_MUTEX(gtsc_mutex);
static LIST_HEAD(gtsc_roots);
static LIST_HEAD(gtsc_channels);

#if IS_ENABLED(CONFIG_RINGTRACE_KUNIT_TEST)
/*
 * Test kernels only: the KUnit suite makes one step of trace_setup() fail
 * as an allocation failure would.  Production kernels have neither the
 * hook nor its export; fail-nth exercises the same paths in any kernel
 * with fault injection.
 */
static enum gtsc_setup_step gtsc_failing_step;

/* For the KUnit suite: make @step of the next trace_setup() fail. */
void gtsc_fail_setup_step(enum gtsc_setup_step step)
{
	gtsc_failing_step = step;
}
EXPORT_SYMBOL_NS_GPL(gtsc_fail_setup_step, GTSC_KUNIT);

static bool gtsc_step_fails(enum gtsc_setup_step step)
{
	if (gtsc_failing_step != step)
		return false;
	gtsc_failing_step = GTSC_STEP_NONE;
	return true;
}
#else
static inline bool gtsc_step_fails(enum gtsc_setup_step step)
{
	return false;
}
#endif

static int gtsc_buf_open(struct inode *inode, struct file *filp)
{
	struct rchan_buf *buf = inode->i_private;
	int ret;

	ret = debugfs_file_get(filp->f_path.dentry);
	if (ret)
		return ret;
	/* A buffer whose last reference went is being removed. */
	if (!kref_get_unless_zero(&buf->kref))
		ret = -ENOENT;
	debugfs_file_put(filp->f_path.dentry);
	if (ret)
		return ret;
	filp->private_data = buf;
	return nonseekable_open(inode, filp);
}

/*
 * The rest of a buffer file's operations are relay's, reached through
 * relay_file_operations (relay's functions are static).
 */
static ssize_t gtsc_buf_read(struct file *filp, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	return relay_file_operations.read(filp, ubuf, count, ppos);
}

static __poll_t gtsc_buf_poll(struct file *filp, poll_table *wait)
{
	return relay_file_operations.poll(filp, wait);
}

static int gtsc_buf_mmap(struct file *filp, struct vm_area_struct *vma)
{
	return relay_file_operations.mmap(filp, vma);
}

static ssize_t gtsc_buf_splice_read(struct file *in, loff_t *ppos,
				    struct pipe_inode_info *pipe, size_t len,
				    unsigned int flags)
{
	return relay_file_operations.splice_read(in, ppos, pipe, len, flags);
}

static int gtsc_buf_release(struct inode *inode, struct file *filp)
{
	return relay_file_operations.release(inode, filp);
}

static const struct file_operations gtsc_buf_fops = {
	.open		= gtsc_buf_open,
	.read		= gtsc_buf_read,
	.poll		= gtsc_buf_poll,
	.mmap		= gtsc_buf_mmap,
	.splice_read	= gtsc_buf_splice_read,
	.release	= gtsc_buf_release,
	.llseek		= no_llseek,
};

static int gtsc_subbuf_start(struct rchan_buf *buf, void *subbuf,
			     void *prev_subbuf, size_t prev_padding)
{
	struct trace_info *trace = buf->chan->private_data;

	if (trace->flags & TRACE_FLIGHT_CHANNEL || !relay_buf_full(buf))
		return 1;
	/*
	 * relay asks again for each record it cannot take; gtsc_flush() asks
	 * for no record.
	 */
	if (!READ_ONCE(trace->flushing))
		atomic_long_inc(&trace->dropped);
	return 0;
}

static struct dentry *gtsc_create_buf_file(const char *filename,
					   struct dentry *parent, umode_t mode,
					   struct rchan_buf *buf,
					   int *is_global)
{
	struct trace_info *trace = buf->chan->private_data;
	struct dentry *dentry;

	if (trace->flags & TRACE_GLOBAL_CHANNEL)
		*is_global = 1;
	/*
	 * A channel opened without files (trace_setup_buffers() with no
	 * parent): relay asks only whether it is global.
	 */
	if (!filename)
		return NULL;
	dentry = debugfs_create_file_unsafe(filename, 0400, parent, buf,
					    &gtsc_buf_fops);
	return IS_ERR(dentry) ? NULL : dentry;
}

static int gtsc_remove_buf_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static const struct rchan_callbacks gtsc_relay_callbacks = {
	.subbuf_start		= gtsc_subbuf_start,
	.create_buf_file	= gtsc_create_buf_file,
	.remove_buf_file	= gtsc_remove_buf_file,
};

static const char *const gtsc_state_names[] = {
	[TRACE_SETUP]	= "setup",
	[TRACE_RUNNING]	= "running",
	[TRACE_STOPPED]	= "stopped",
};

/* Read a control file's one line of text, made from @fmt. */
static __printf(4, 5) ssize_t gtsc_read_line(char __user *ubuf, size_t count,
					     loff_t *ppos, const char *fmt, ...)
{
	char buf[24];
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* A control file's write as a trimmed word. */
static int gtsc_get_word(const char __user *ubuf, size_t count, char *word,
			 size_t size)
{
	char *stripped;

	if (!count || count >= size)
		return -EINVAL;
	if (copy_from_user(word, ubuf, count))
		return -EFAULT;
	word[count] = '\0';
	/* strim() skips leading blanks, in place: keep the text at @word. */
	stripped = strim(word);
	memmove(word, stripped, strlen(stripped) + 1);
	return 0;
}

static ssize_t state_read(struct file *filp, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct trace_info *trace = filp->private_data;

	return gtsc_read_line(ubuf, count, ppos, "%s\n",
			      gtsc_state_names[READ_ONCE(trace->state)]);
}

static ssize_t state_write(struct file *filp, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct trace_info *trace = filp->private_data;
	char word[16];
	int ret;

	ret = gtsc_get_word(ubuf, count, word, sizeof(word));
	if (ret)
		return ret;
	if (!strcmp(word, "start"))
		ret = trace_start(trace);
	else if (!strcmp(word, "stop"))
		ret = trace_stop(trace);
	else
		ret = -EINVAL;
	return ret ? ret : count;
}

static const struct file_operations state_fops = {
	.open	= simple_open,
	.read	= state_read,
	.write	= state_write,
	.llseek	= default_llseek,
};

static ssize_t dropped_read(struct file *filp, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct trace_info *trace = filp->private_data;

	return gtsc_read_line(ubuf, count, ppos, "%lu\n",
			      atomic_long_read(&trace->dropped));
}

static const struct file_operations dropped_fops = {
	.open	= simple_open,
	.read	= dropped_read,
	.llseek	= default_llseek,
};

/*
 * Make the oldest data still in @buf unread again: the n - 1 sub-buffers
 * before the one being written (fewer early on) and that one.
 */
static void gtsc_rewind_buf(struct rchan_buf *buf)
{
	struct inode *inode = d_inode(buf->dentry);
	size_t behind = buf->chan->n_subbufs - 1;
	size_t produced;

	/* relay's read() works under the inode lock. */
	inode_lock(inode);
	produced = READ_ONCE(buf->subbufs_produced);
	buf->subbufs_consumed = produced > behind ? produced - behind : 0;
	buf->bytes_consumed = 0;
	inode_unlock(inode);
}

static ssize_t rewind_write(struct file *filp, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct trace_info *trace = filp->private_data;
	struct rchan_buf *buf;
	char word[8];
	int ret, cpu;

	ret = gtsc_get_word(ubuf, count, word, sizeof(word));
	if (ret)
		return ret;
	if (strcmp(word, "1"))
		return -EINVAL;
	if (trace->rchan->is_global) {
		gtsc_rewind_buf(*per_cpu_ptr(trace->rchan->buf, 0));
		return count;
	}
	/* Without the hotplug lock: see gtsc_flush(). */
	for_each_possible_cpu(cpu) {
		/* Pairs with relay_prepare_cpu()'s smp_store_release(). */
		buf = smp_load_acquire(per_cpu_ptr(trace->rchan->buf, cpu));
		if (buf)
			gtsc_rewind_buf(buf);
	}
	return count;
}

static const struct file_operations rewind_fops = {
	.open	= simple_open,
	.write	= rewind_write,
	.llseek	= default_llseek,
};

/* nr_sub, sub_size: a size of the relay channel, which outlives the file. */
static ssize_t size_read(struct file *filp, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	const size_t *size = filp->private_data;

	return gtsc_read_line(ubuf, count, ppos, "%zu\n", *size);
}

static const struct file_operations size_fops = {
	.open	= simple_open,
	.read	= size_read,
	.llseek	= default_llseek,
};

static struct gtsc_root *gtsc_root_find(const char *name)
{
	struct gtsc_root *root;

	list_for_each_entry(root, &gtsc_roots, node)
		if (!strcmp(root->name, name))
			return root;
	return NULL;
}

/* The root called @name, made if needed.  Under gtsc_mutex. */
static struct gtsc_root *gtsc_root_get(const char *name)
{
	struct gtsc_root *root = gtsc_root_find(name);
	struct dentry *dir;

	if (root) {
		root->channels++;
		return root;
	}
	root = gtsc_step_fails(GTSC_STEP_ROOT) ? NULL :
	       kzalloc(sizeof(*root), GFP_KERNEL);
	if (!root)
		return ERR_PTR(-ENOMEM);
	dir = gtsc_step_fails(GTSC_STEP_ROOT_DIR) ? ERR_PTR(-ENOMEM) :
	      debugfs_create_dir(name, NULL);
	if (IS_ERR(dir)) {
		kfree(root);
		return ERR_CAST(dir);
	}
	strscpy(root->name, name, sizeof(root->name));
	root->dir = dir;
	root->channels = 1;
	list_add_tail(&root->node, &gtsc_roots);
	return root;
}

/* Drop a channel's hold on @root.  Under gtsc_mutex. */
static void gtsc_root_put(struct gtsc_root *root)
{
	if (--root->channels)
		return;
	list_del(&root->node);
	debugfs_remove(root->dir);
	kfree(root);
}

static int gtsc_check_name(const char *name)
{
	size_t len = name ? strnlen(name, GTSC_NAME_MAX + 1) : 0;

	if (!len || len > GTSC_NAME_MAX || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	return 0;
}

static int gtsc_check_args(const char *root, const char *name, u32 buf_size,
			   u32 buf_nr, u32 flags)
{
	if (gtsc_check_name(root) || gtsc_check_name(name))
		return -EINVAL;
	if (flags & ~(TRACE_FLIGHT_CHANNEL | TRACE_GLOBAL_CHANNEL))
		return -EINVAL;
	/*
	 * Power-of-two sub-buffers tile the pages relay maps for mmap()
	 * readers; a reader needs a sub-buffer while the writer fills one.
	 */
	if (!buf_size || !is_power_of_2(buf_size) || buf_nr < 2)
		return -EINVAL;
	if ((u64)buf_size * buf_nr > GTSC_MAX_BUF_BYTES)
		return -E2BIG;
	return 0;
}

/* Remove the control files, waiting for operations on them. */
static void gtsc_remove_files(struct trace_info *trace)
{
	unsigned int i;

	for (i = 0; i < GTSC_NR_CONTROL_FILES; i++) {
		if (!IS_ERR_OR_NULL(trace->control[i]))
			debugfs_remove(trace->control[i]);
		trace->control[i] = NULL;
	}
}

static int gtsc_create_files(struct trace_info *trace)
{
	struct dentry *dir = trace->dir, **d = trace->control;
	unsigned int i;

	if (gtsc_step_fails(GTSC_STEP_FILES))
		return -ENOMEM;
	d[0] = debugfs_create_file("state", 0600, dir, trace, &state_fops);
	d[1] = debugfs_create_file("dropped", 0400, dir, trace, &dropped_fops);
	d[2] = debugfs_create_file("rewind", 0200, dir, trace, &rewind_fops);
	d[3] = debugfs_create_file("nr_sub", 0400, dir,
				   &trace->rchan->n_subbufs, &size_fops);
	d[4] = debugfs_create_file("sub_size", 0400, dir,
				   &trace->rchan->subbuf_size, &size_fops);
	for (i = 0; i < GTSC_NR_CONTROL_FILES; i++) {
		if (IS_ERR(d[i])) {
			gtsc_remove_files(trace);
			return -ENOMEM;
		}
	}
	return 0;
}

static struct trace_info *gtsc_alloc_info(const char *name, u32 flags)
{
	struct trace_info *trace;

	trace = gtsc_step_fails(GTSC_STEP_INFO) ? NULL :
		kzalloc(sizeof(*trace), GFP_KERNEL);
	if (!trace)
		return NULL;
	strscpy(trace->name, name, sizeof(trace->name));
	trace->flags = flags;
	trace->state = TRACE_SETUP;
	mutex_init(&trace->state_lock);
	atomic_long_set(&trace->dropped, 0);
	return trace;
}

static struct rchan *gtsc_open_relay(struct trace_info *trace,
				     const char *base, struct dentry *dir,
				     u32 buf_size, u32 buf_nr)
{
	struct rchan *rchan;

	if (gtsc_step_fails(GTSC_STEP_RELAY))
		return NULL;
	/*
	 * relay_open() gives each online CPU a buffer and relay_prepare_cpu()
	 * each CPU coming up, once the channel is on relay's list.  A CPU
	 * whose prepare step ran before relay_open() listed the channel, and
	 * that was not yet online when relay_open() looked, would get none,
	 * and its first record would dereference NULL: hold hotplug off.
	 */
	cpus_read_lock();
	rchan = relay_open(base, dir, buf_size, buf_nr, &gtsc_relay_callbacks,
			   trace);
	cpus_read_unlock();
	return rchan;
}

/**
 * trace_setup() - create a GTSC channel
 * @root: the debugfs directory of the channel's root, shared with other
 *	channels of the same root and made if needed
 * @name: the channel's directory under @root
 * @buf_size: size of a sub-buffer in bytes: a power of two
 * @buf_nr: number of sub-buffers in each buffer, at least 2
 * @flags: TRACE_FLIGHT_CHANNEL to overwrite the oldest data when full
 *	(default: refuse new records, counted in "dropped"),
 *	TRACE_GLOBAL_CHANNEL for one buffer for all CPUs (default: one per
 *	CPU, trace0..N)
 *
 * Creates /sys/kernel/debug/@root/@name/ with the relay buffer files and
 * the control files.  The channel is in state TRACE_SETUP: records are
 * written only after trace_start().  On failure nothing is left behind.
 *
 * Context: process context; may sleep.
 * Return: the channel, or ERR_PTR(-EINVAL) for a bad name, size or flag,
 * ERR_PTR(-E2BIG) for buffers over GTSC_MAX_BUF_BYTES, ERR_PTR(-EEXIST)
 * if @root/@name exists, ERR_PTR(-ENOMEM) if memory ran out.
 */
struct trace_info *trace_setup(const char *root, const char *name,
			       u32 buf_size, u32 buf_nr, u32 flags)
{
	struct trace_info *trace, *other;
	int ret;

	ret = gtsc_check_args(root, name, buf_size, buf_nr, flags);
	if (ret)
		return ERR_PTR(ret);
	trace = gtsc_alloc_info(name, flags);
	if (!trace)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&gtsc_mutex);
	list_for_each_entry(other, &gtsc_channels, node) {
		if (!strcmp(other->root->name, root) &&
		    !strcmp(other->name, name)) {
			ret = -EEXIST;
			goto unlock;
		}
	}
	trace->root = gtsc_root_get(root);
	if (IS_ERR(trace->root)) {
		ret = PTR_ERR(trace->root);
		goto unlock;
	}
	trace->dir = gtsc_step_fails(GTSC_STEP_DIR) ? ERR_PTR(-ENOMEM) :
		     debugfs_create_dir(name, trace->root->dir);
	if (IS_ERR(trace->dir)) {
		ret = PTR_ERR(trace->dir);
		goto put_root;
	}
	trace->rchan = gtsc_open_relay(trace, "trace", trace->dir, buf_size,
				       buf_nr);
	if (!trace->rchan) {
		ret = -ENOMEM;
		goto remove_dir;
	}
	ret = gtsc_create_files(trace);
	if (ret)
		goto close_relay;
	list_add_tail(&trace->node, &gtsc_channels);
	mutex_unlock(&gtsc_mutex);
	return trace;

close_relay:
	relay_close(trace->rchan);
remove_dir:
	debugfs_remove(trace->dir);
put_root:
	gtsc_root_put(trace->root);
unlock:
	mutex_unlock(&gtsc_mutex);
	kfree(trace);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(trace_setup);

/**
 * trace_setup_buffers() - create a GTSC channel that is buffers only
 * @parent: the debugfs directory to put the buffer files in; it stays the
 *	caller's.  NULL: buffers without files, for a provider that records
 *	before debugfs is up; trace_setup_buffer_files() adds them later
 * @base: the buffer files' base name: @base0..N, one per CPU, or @base0
 *	alone with TRACE_GLOBAL_CHANNEL
 * @buf_size: size of a sub-buffer in bytes: a power of two
 * @buf_nr: number of sub-buffers in each buffer, at least 2
 * @flags: as for trace_setup()
 *
 * For providers whose ABI fixes their files (kmemtrace's cpu<n>): no root,
 * no channel directory and no control files; the provider makes whatever
 * control files its ABI names.  trace_start(), trace_stop(),
 * trace_running() and trace_cleanup() work as for trace_setup()'s
 * channels; the records dropped for a full buffer are counted in
 * @trace->dropped.
 *
 * Context: process context; may sleep.
 * Return: the channel, or ERR_PTR(-EINVAL) for a bad name, size or flag,
 * ERR_PTR(-E2BIG) for buffers over GTSC_MAX_BUF_BYTES, ERR_PTR(-ENOMEM) if
 * memory ran out.
 */
struct trace_info *trace_setup_buffers(struct dentry *parent, const char *base,
				       u32 buf_size, u32 buf_nr, u32 flags)
{
	struct trace_info *trace;
	int ret;

	ret = gtsc_check_args(base, base, buf_size, buf_nr, flags);
	if (ret)
		return ERR_PTR(ret);
	if (IS_ERR(parent))
		return ERR_PTR(-EINVAL);
	trace = gtsc_alloc_info(base, flags);
	if (!trace)
		return ERR_PTR(-ENOMEM);
	trace->dir = parent;
	/* relay makes no files for a NULL base name, until told. */
	trace->rchan = gtsc_open_relay(trace, parent ? base : NULL, parent,
				       buf_size, buf_nr);
	if (!trace->rchan) {
		kfree(trace);
		return ERR_PTR(-ENOMEM);
	}
	return trace;
}
EXPORT_SYMBOL_GPL(trace_setup_buffers);

/**
 * trace_setup_buffer_files() - give a channel made without files its files
 * @trace: a channel from trace_setup_buffers() with a NULL parent
 * @parent: the debugfs directory to put the buffer files in
 * @base: the buffer files' base name, as for trace_setup_buffers()
 *
 * Every CPU with a buffer (every CPU that was online since the channel
 * was made) gets its file; a CPU that comes up for the first time later
 * gets its buffer and file together, as for a channel made with files.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL for a bad name or a missing @parent, -EEXIST if the
 * channel has its files already, -ENOMEM if a file could not be made.
 */
int trace_setup_buffer_files(struct trace_info *trace, struct dentry *parent,
			     const char *base)
{
	int ret;

	if (gtsc_check_name(base) || IS_ERR_OR_NULL(parent) || trace->root)
		return -EINVAL;
	ret = relay_late_setup_files(trace->rchan, base, parent);
	if (ret == -EINVAL)
		ret = -ENOMEM;	/* relay's word for a file it could not make */
	if (!ret)
		trace->dir = parent;
	return ret;
}
EXPORT_SYMBOL_GPL(trace_setup_buffer_files);

/**
 * trace_start() - let a channel take records
 * @trace: a channel from trace_setup()
 *
 * Context: process context; may sleep.
 * Return: 0 (also if it was running already).
 */
int trace_start(struct trace_info *trace)
{
	mutex_lock(&trace->state_lock);
	WRITE_ONCE(trace->state, TRACE_RUNNING);
	mutex_unlock(&trace->state_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(trace_start);

/*
 * Wait until every writer that may have seen @trace running has finished
 * its record.  Writers test trace_running() and then write (the pattern
 * of Documentation/trace/gtsc.rst); the store of TRACE_STOPPED before this
 * pairs with their READ_ONCE() of the state through the grace periods'
 * full barriers.  A writer with interrupts or preemption disabled, NMI
 * included, is an RCU reader: synchronize_rcu() waits for it.  A writer in
 * preemptible process context is not, under preemptible RCU, whether it
 * runs or was preempted between its test and its relay_write(); RCU Tasks
 * waits until every task that was on a CPU or preempted when its grace
 * period began has switched voluntarily (or been in user space or idle),
 * which such a writer does not do inside the pattern.  Without TASKS_RCU
 * (no preemption, so no preemptible RCU) call_rcu_tasks is call_rcu.
 */
static void gtsc_wait_for_writers(void)
{
	synchronize_rcu_mult(call_rcu, call_rcu_tasks);
}

/* The sub-buffer being written in @buf holds records. */
static bool gtsc_buf_has_data(struct rchan_buf *buf)
{
	/* subbuf_size + 1 is relay's mark of a buffer full before a record. */
	return buf->offset && buf->offset <= buf->chan->subbuf_size;
}

/*
 * Finish the sub-buffers being written so that poll() sees their records.
 * Only sub-buffers that hold records: an empty one would be produced as
 * padding and, non-overwrite, take a sub-buffer from the records to come.
 * No writer runs (gtsc_wait_for_writers()), so switching another CPU's
 * sub-buffer from here is safe; the switch asks gtsc_subbuf_start() for
 * the next sub-buffer, which must not count a drop: no record was refused.
 * Under state_lock.
 */
static void gtsc_flush(struct trace_info *trace)
{
	struct rchan *chan = trace->rchan;
	struct rchan_buf *buf;
	int cpu;

	/*
	 * relay_prepare_cpu() gives a CPU coming up for the first time its
	 * buffer, publishing the pointer with a release store once the buffer
	 * is set up (patches/relay-publish-new-cpu-buffer.patch): the acquire
	 * here pairs with it.  A new buffer holds no records and is skipped.
	 * Not under cpus_read_lock(): a "stop" written to the state file
	 * would then wait for a CPU coming up, which waits (to make the
	 * buffer's file) for the channel directory's lock, which
	 * trace_cleanup() holds while it removes the state file and waits for
	 * that write to finish.
	 */
	WRITE_ONCE(trace->flushing, true);
	for_each_possible_cpu(cpu) {
		/* Pairs with relay_prepare_cpu()'s smp_store_release(). */
		buf = smp_load_acquire(per_cpu_ptr(chan->buf, cpu));
		if (buf && gtsc_buf_has_data(buf))
			relay_switch_subbuf(buf, 0);
		if (chan->is_global)
			break;
	}
	WRITE_ONCE(trace->flushing, false);
}

/* Stop a running channel.  Under state_lock. */
static void gtsc_stop_locked(struct trace_info *trace)
{
	WRITE_ONCE(trace->state, TRACE_STOPPED);
	gtsc_wait_for_writers();
	gtsc_flush(trace);
}

/**
 * trace_stop() - stop a channel taking records
 * @trace: a channel from trace_setup()
 *
 * Providers that test trace_running() stop writing: when this returns,
 * every record whose writer saw the channel running is complete, whether
 * it was written with interrupts or preemption disabled or from
 * preemptible process context (the writer must not sleep between its
 * trace_running() and its relay_write()).  Then the sub-buffers that hold
 * records are finished, so that readers waiting in poll() get them; empty
 * ones are left as they are, so stopping and starting again costs no
 * buffer space.
 *
 * Context: process context; may sleep.  Stopping a running channel waits
 * for an RCU and an RCU Tasks grace period: tens of milliseconds, up to
 * seconds on a busy machine; do not stop channels in a loop that needs to
 * be fast.
 * Return: 0, or -EINVAL if the channel was never started.
 */
int trace_stop(struct trace_info *trace)
{
	int ret = 0;

	mutex_lock(&trace->state_lock);
	if (trace->state == TRACE_SETUP)
		ret = -EINVAL;
	else if (trace->state == TRACE_RUNNING)
		gtsc_stop_locked(trace);
	mutex_unlock(&trace->state_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(trace_stop);

/*
 * The channel's end: no writer may hold it after this.  Its state file is
 * gone (or it never had one), so nothing starts it again.  Of a channel
 * stopped already, a writer may have loaded the provider's pointer to it
 * since (kmemtrace's hooks do, with interrupts off) and still be testing
 * trace_running(): the same grace periods as a stop wait for it, in
 * whatever context it runs.
 */
static void gtsc_stop_for_good(struct trace_info *trace)
{
	mutex_lock(&trace->state_lock);
	if (trace->state == TRACE_RUNNING) {
		gtsc_stop_locked(trace);
	} else {
		WRITE_ONCE(trace->state, TRACE_STOPPED);
		gtsc_wait_for_writers();
	}
	mutex_unlock(&trace->state_lock);
}

/**
 * trace_cleanup() - destroy a channel
 * @trace: a channel from trace_setup() or trace_setup_buffers(); the
 *	provider no longer writes to it
 *
 * Removes the control files (waiting for operations on them in progress,
 * so that a "start" written to state cannot run after), stops the channel
 * as trace_stop() does (a writer that saw it running finishes first), then
 * closes the relay channel and removes the channel's directory, and its
 * root's if it was the last channel there; of a channel from
 * trace_setup_buffers(), only the buffer files go.  A reader holding a buffer
 * file open keeps reading what is left; the buffer is freed when the
 * reader closes it.  @trace is freed.
 *
 * Context: process context; may sleep, for the grace periods of
 * trace_stop() even if the channel is stopped already.
 */
void trace_cleanup(struct trace_info *trace)
{
	if (!trace->root) {
		/* From trace_setup_buffers(): the directory is the caller's. */
		gtsc_stop_for_good(trace);
		relay_close(trace->rchan);
		kfree(trace);
		return;
	}
	mutex_lock(&gtsc_mutex);
	list_del(&trace->node);
	/* Before the buffers go: rewind works on them. */
	gtsc_remove_files(trace);
	gtsc_stop_for_good(trace);
	relay_close(trace->rchan);
	debugfs_remove(trace->dir);
	gtsc_root_put(trace->root);
	mutex_unlock(&gtsc_mutex);
	kfree(trace);
}
EXPORT_SYMBOL_GPL(trace_cleanup);

/**
 * trace_timestamp() - a time stamp for records
 *
 * Monotonic nanoseconds, comparable across CPUs, so a consumer can merge
 * per-CPU buffers.
 *
 * Context: any, NMI included.
 * Return: nanoseconds since boot.
 */
u64 trace_timestamp(void)
{
	return ktime_get_mono_fast_ns();
}
EXPORT_SYMBOL_GPL(trace_timestamp);
