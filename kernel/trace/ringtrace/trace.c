// SPDX-License-Identifier: GPL-2.0
/*
 * The trace buffer of the tracing directory and its control files.
 *
 * One ringtrace buffer (buffer.c) receives every event source's
 * records.  This file creates it at boot and the files that control it:
 * tracing_on, buffer_size_kb, buffer_total_size_kb, options/overwrite,
 * trace_clock and per_cpu/cpuN/stats.  Event sources write their records
 * in place between ringtrace_event_reserve() and ringtrace_event_commit()
 * (events.c), which end here.  Its readers serialise on the
 * access lock defined here and wait in wait.c.
 */

#define pr_fmt(fmt) "ringtrace: " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hardirq.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <asm/unaligned.h>

#include "core.h"
#include "dir.h"
#include "trace.h"

/* Per-CPU size at boot, as upstream's default: 1408 KiB. */
#define RINGTRACE_DEFAULT_KB	1408
/* The largest per-CPU size buffer_size_kb accepts: 1 GiB. */
#define RINGTRACE_MAX_KB	(1024 * 1024)

static struct rtb_buffer *trace_buffer;
static bool recording_on = true;
static unsigned long buffer_kb = RINGTRACE_DEFAULT_KB;
/* Serialises the control files that change the buffer. */
static DEFINE_MUTEX(trace_buffer_lock);

struct ringtrace_clock {
	const char	*name;
	rtb_clock_fn	fn;
};

static u64 ringtrace_global_clock(void)
{
	return ktime_get_mono_fast_ns();
}

static const struct ringtrace_clock ringtrace_clocks[] = {
	{ "local", NULL },	/* sched_clock(): per CPU, the fastest */
	{ "global", ringtrace_global_clock },
};

static unsigned int trace_clock_id;

/**
 * ringtrace_trace_buffer() - the buffer behind the tracing directory
 *
 * Return: the buffer, or NULL if it could not be allocated at boot.
 */
struct rtb_buffer *ringtrace_trace_buffer(void)
{
	return trace_buffer;
}
EXPORT_SYMBOL_GPL(ringtrace_trace_buffer);

/*
 * The access lock of the trace buffer's readers.
 *
 * rtb_peek() and rtb_consume() return a record in the reader page of its
 * CPU buffer, valid only until the next read of that CPU buffer: that read
 * may swap the page back into the ring, where writers overwrite it, and
 * rtb_read_page() hands the page itself out to trace_pipe_raw, which frees
 * it or gives it to a pipe.  The buffer's reader_lock only covers the call,
 * so a reader that formats or copies a record afterwards (sleeping on
 * ringtrace_events_lock) keeps the other readers of that CPU buffer out
 * with this lock, as upstream's trace_access_lock() does:
 *
 * - a reader of one CPU takes all_cpu_access_lock for read, then that
 *   CPU's cpu_access_lock: readers of different CPUs run in parallel
 *   (trace-cmd reads each per_cpu/cpuN/trace_pipe_raw in a thread);
 * - a reader of every CPU takes all_cpu_access_lock for write.
 *
 * Taken around each read of the buffer together with the use of what it
 * returned, in output.c (trace_pipe and per_cpu/cpuN/trace_pipe:
 * peek, consume and format one record; their emptiness checks, which
 * refill; trace and per_cpu/cpuN/trace: from seq_file ->start to ->stop,
 * their iterators' records living in the same pages), pipe_raw.c
 * (each rtb_read_page()) and cpu_stats_show() below (its peek refills).
 * Never held while copying to user space or waiting for records; its
 * place in the lock order is core.h's row 7.  Resize and reset do not take
 * it around their work: the buffer keeps the reader page, and the records
 * in it, across both; they take it after (trace_old_records_gone()), to
 * wait for a reader still formatting an old record.
 */
static DECLARE_RWSEM(all_cpu_access_lock);
static DEFINE_PER_CPU(struct mutex, cpu_access_lock);

/**
 * ringtrace_access_lock() - serialise with the other readers of a CPU buffer
 * @cpu: the possible CPU whose buffer is read, or %RINGTRACE_ALL_CPUS to
 *	read every CPU's
 *
 * Take it around a consuming read of the trace buffer (rtb_peek(),
 * rtb_consume(), rtb_read_page(), rtb_empty_cpu()) and the use of the
 * record it returned, and around the use of the records of its iterators;
 * release it with ringtrace_access_unlock() and the same @cpu.  Sleeps: do
 * not wait for records while holding it.
 */
void ringtrace_access_lock(int cpu)
{
	if (cpu == RINGTRACE_ALL_CPUS) {
		down_write(&all_cpu_access_lock);
	} else {
		down_read(&all_cpu_access_lock);
		mutex_lock(&per_cpu(cpu_access_lock, cpu));
	}
}
EXPORT_SYMBOL_GPL(ringtrace_access_lock);

/**
 * ringtrace_access_unlock() - release ringtrace_access_lock()
 * @cpu: the @cpu it was taken with
 */
void ringtrace_access_unlock(int cpu)
{
	if (cpu == RINGTRACE_ALL_CPUS) {
		up_write(&all_cpu_access_lock);
	} else {
		mutex_unlock(&per_cpu(cpu_access_lock, cpu));
		up_read(&all_cpu_access_lock);
	}
}
EXPORT_SYMBOL_GPL(ringtrace_access_unlock);

static unsigned char ringtrace_flags(void)
{
	unsigned char flags = 0;

	if (irqs_disabled())
		flags |= RINGTRACE_FLAG_IRQS_OFF;
	if (tif_need_resched())
		flags |= RINGTRACE_FLAG_NEED_RESCHED;
	if (in_hardirq())
		flags |= RINGTRACE_FLAG_HARDIRQ;
	if (in_serving_softirq())
		flags |= RINGTRACE_FLAG_SOFTIRQ;
	if (in_nmi())
		flags |= RINGTRACE_FLAG_NMI;
	return flags;
}

/*
 * saved_cmdlines: the comm of recently traced pids, so that output can
 * show names for records whose task is gone.  A slot per pid hash; a
 * writer that finds the lock taken (another CPU, or an NMI) skips saving.
 * A slot is rewritten whenever its pid or name differs from the writer's,
 * so a task that exec'ed shows under its new name.
 */
#define SAVED_CMDLINES		128

struct saved_cmdline {
	/* Zero-padded: compared a word at a time on every record. */
	union {
		char	comm[TASK_COMM_LEN];
		u64	comm_words[TASK_COMM_LEN / sizeof(u64)];
	};
	int	pid;
};

static_assert(TASK_COMM_LEN == 2 * sizeof(u64));

/*
 * Whether @slot holds @comm.  Unlocked: a torn look costs a save, or
 * delays one a record.  Task names are zero-padded (set_task_comm() pads
 * them), so whole words compare as strings do.
 */
static bool comm_saved(const struct saved_cmdline *slot, const char *comm)
{
	/* data_race(): the slot is written under the lock, read without. */
	u64 first = data_race(slot->comm_words[0]);
	/* data_race(): as above. */
	u64 second = data_race(slot->comm_words[1]);

	return first == get_unaligned((const u64 *)comm) &&
	       second == get_unaligned((const u64 *)comm + 1);
}

static struct saved_cmdline saved_cmdlines[SAVED_CMDLINES];
static DEFINE_RAW_SPINLOCK(saved_cmdlines_lock);

static void ringtrace_save_comm(struct task_struct *task)
{
	struct saved_cmdline *slot = &saved_cmdlines[task->pid % SAVED_CMDLINES];
	unsigned long flags;

	if (!task->pid)
		return;
	if (READ_ONCE(slot->pid) == task->pid && comm_saved(slot, task->comm))
		return;
	if (!raw_spin_trylock_irqsave(&saved_cmdlines_lock, flags))
		return;
	slot->pid = task->pid;
	/*
	 * Not get_task_comm(): its task_lock() is not IRQ-safe, and this runs
	 * in any context.  A rename racing with the copy (exec, prctl) may
	 * leave a mix of both names, NUL-terminated: the task's next record
	 * puts it right.
	 */
	strscpy_pad(slot->comm, task->comm, TASK_COMM_LEN);
	raw_spin_unlock_irqrestore(&saved_cmdlines_lock, flags);
}

/**
 * ringtrace_find_comm() - the saved comm of a pid
 * @pid: the pid
 * @comm: TASK_COMM_LEN bytes that receive it
 *
 * Return: @comm, "<idle>" for pid 0 or "<...>" if the pid was not saved.
 */
const char *ringtrace_find_comm(int pid, char *comm)
{
	struct saved_cmdline *slot = &saved_cmdlines[pid % SAVED_CMDLINES];
	unsigned long flags;

	if (!pid)
		return "<idle>";
	raw_spin_lock_irqsave(&saved_cmdlines_lock, flags);
	if (slot->pid == pid)
		strscpy(comm, slot->comm, TASK_COMM_LEN);
	else
		strscpy(comm, "<...>", TASK_COMM_LEN);
	raw_spin_unlock_irqrestore(&saved_cmdlines_lock, flags);
	return comm;
}

/**
 * ringtrace_find_comm_nowait() - ringtrace_find_comm() that never waits
 * @pid: the pid
 * @comm: TASK_COMM_LEN bytes that receive it
 *
 * For crash dumps: only tries saved_cmdlines_lock, which a CPU stopped by
 * a panic may hold forever.  Any context, NMI included.
 *
 * Return: as ringtrace_find_comm(); "<...>" also when the lock is busy.
 */
const char *ringtrace_find_comm_nowait(int pid, char *comm)
{
	struct saved_cmdline *slot = &saved_cmdlines[pid % SAVED_CMDLINES];
	unsigned long flags;

	if (!pid)
		return "<idle>";
	strscpy(comm, "<...>", TASK_COMM_LEN);
	if (!raw_spin_trylock_irqsave(&saved_cmdlines_lock, flags))
		return comm;
	if (slot->pid == pid)
		strscpy(comm, slot->comm, TASK_COMM_LEN);
	raw_spin_unlock_irqrestore(&saved_cmdlines_lock, flags);
	return comm;
}

static void *saved_cmdlines_start(struct seq_file *m, loff_t *pos)
{
	return *pos < SAVED_CMDLINES ? &saved_cmdlines[*pos] : NULL;
}

static void *saved_cmdlines_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return saved_cmdlines_start(m, pos);
}

static void saved_cmdlines_stop(struct seq_file *m, void *v)
{
}

static int saved_cmdlines_show(struct seq_file *m, void *v)
{
	struct saved_cmdline *slot = v;
	char comm[TASK_COMM_LEN];
	int pid = READ_ONCE(slot->pid);

	if (pid)
		seq_printf(m, "%d %s\n", pid, ringtrace_find_comm(pid, comm));
	return 0;
}

static const struct seq_operations saved_cmdlines_seq_ops = {
	.start	= saved_cmdlines_start,
	.next	= saved_cmdlines_next,
	.stop	= saved_cmdlines_stop,
	.show	= saved_cmdlines_show,
};

static int saved_cmdlines_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &saved_cmdlines_seq_ops);
}

static const struct file_operations saved_cmdlines_fops = {
	.open		= saved_cmdlines_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release,
};

/**
 * ringtrace_common_fields() - the common fields of a record written now
 * @entry: receives them
 * @type: the record's event id
 *
 * Any context.
 */
void ringtrace_common_fields(struct ringtrace_entry *entry, unsigned short type)
{
	entry->common_type = type;
	entry->common_flags = ringtrace_flags();
	entry->common_preempt_count = preempt_count() & 0xff;
	entry->common_pid = current->pid;
	entry->common_tgid = current->tgid;
}

/**
 * ringtrace_reserve_record() - room for a record in the trace buffer
 * @size: record size in bytes
 *
 * Any context, with preemption off (the caller's section must also hold
 * it across ringtrace_commit_record() or ringtrace_discard_record(), one
 * of which follows on the same CPU and in the same context: waking
 * readers comes after the buffer's own section ends).
 *
 * Return: the buffer record, or NULL if tracing is off or there is no room.
 */
struct rtb_event *ringtrace_reserve_record(unsigned int size)
{
	struct rtb_event *rec;

	if (!READ_ONCE(recording_on) || !trace_buffer)
		return NULL;
	rec = rtb_lock_reserve(trace_buffer, size);
	/* A failed outermost reservation publishes what nested ones wrote. */
	if (unlikely(!rec))
		ringtrace_wake_readers();
	return rec;
}

/**
 * ringtrace_commit_record() - make a record readers can see
 * @rec: from ringtrace_reserve_record()
 *
 * Wakes the readers waiting for it, and remembers the writer's comm.
 */
void ringtrace_commit_record(struct rtb_event *rec)
{
	rtb_unlock_commit(trace_buffer, rec);
	ringtrace_wake_readers();
	if (!in_nmi())
		ringtrace_save_comm(current);
}

/**
 * ringtrace_discard_record() - give a reserved record up
 * @rec: from ringtrace_reserve_record()
 */
void ringtrace_discard_record(struct rtb_event *rec)
{
	rtb_discard_commit(trace_buffer, rec);
	/* It publishes what writers nested in it committed. */
	ringtrace_wake_readers();
}

/* Read a whole small user buffer as a trimmed string. */
static int ringtrace_get_word(const char __user *ubuf, size_t count,
			      char *buf, size_t size)
{
	if (count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ringtrace_strip(buf);
	return 0;
}

/*
 * A 0/1 control file: tracing_on, options/overwrite.  @apply, if any,
 * puts a new value into effect under trace_buffer_lock.
 */
struct bool_control {
	bool	*value;
	void	(*apply)(bool on);
};

static ssize_t bool_control_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct bool_control *ctl = file->f_inode->i_private;
	char buf[4];
	int len = scnprintf(buf, sizeof(buf), "%d\n", READ_ONCE(*ctl->value));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t bool_control_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct bool_control *ctl = file->f_inode->i_private;
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	mutex_lock(&trace_buffer_lock);
	WRITE_ONCE(*ctl->value, on);
	if (ctl->apply)
		ctl->apply(on);
	mutex_unlock(&trace_buffer_lock);
	return count;
}

static const struct file_operations bool_control_fops = {
	.read	= bool_control_read,
	.write	= bool_control_write,
	.llseek	= default_llseek,
};

/*
 * Off: blocked readers return what is buffered; it is all there will be,
 * once writers that saw tracing on have committed: their sections are
 * RCU-sched readers (preemption off from the check to the commit).
 */
static void tracing_on_apply(bool on)
{
	if (on)
		return;
	synchronize_rcu();
	ringtrace_wake_all_readers();
}

static struct bool_control tracing_on_control = {
	.value	= &recording_on,
	.apply	= tracing_on_apply,
};

/**
 * ringtrace_tracing_on() - whether records are being written (tracing_on)
 *
 * Return: tracing_on's value.
 */
bool ringtrace_tracing_on(void)
{
	return READ_ONCE(recording_on);
}

/**
 * ringtrace_tracing_off_now() - tracing_on off, from any context
 *
 * For crash dumps: what writing 0 to tracing_on does, less the wait for
 * writers in flight and the wake-up of readers, which a dying kernel
 * cannot do.  Writers that check from now on record nothing; tracing_on
 * reads 0.  Any context, NMI included.
 */
void ringtrace_tracing_off_now(void)
{
	/* Read by ringtrace_reserve_record() without trace_buffer_lock. */
	WRITE_ONCE(recording_on, false);
}

/*
 * The buffer's life.  Every change that empties the buffer (echo > trace,
 * a new size, a new clock) goes through trace_change(), which tells the
 * listeners (the event registry: forget the events gone before the reset;
 * the persistent buffer: the new clock) when it begins, what changed and
 * whether it emptied everything, so that no caller has a second step to
 * remember and this file calls into none of theirs.  trace_life_lock
 * serialises the changes and guards the listeners.
 */
static LIST_HEAD(trace_listeners);
static DEFINE_MUTEX(trace_life_lock);

/**
 * ringtrace_trace_listen() - be told of the trace buffer's changes
 * @listener: the callbacks; lives as long as the kernel
 *
 * Context: process context (an initcall); may sleep.
 */
void ringtrace_trace_listen(struct ringtrace_trace_listener *listener)
{
	mutex_lock(&trace_life_lock);
	list_add_tail(&listener->node, &trace_listeners);
	mutex_unlock(&trace_life_lock);
}

/*
 * After a change: whether no reader can hold a record from before it any
 * more.  Consuming readers format what they took under the access lock:
 * taking it waits for the one in flight.  Readers that keep records across
 * reads (the trace files' iterators) say so through ->holds_old().
 */
static bool trace_old_records_gone(void)
{
	struct ringtrace_trace_listener *listener;
	bool gone = true;

	ringtrace_access_lock(RINGTRACE_ALL_CPUS);
	list_for_each_entry(listener, &trace_listeners, node)
		if (listener->holds_old && listener->holds_old())
			gone = false;
	ringtrace_access_unlock(RINGTRACE_ALL_CPUS);
	return gone;
}

/*
 * Run @change (which empties the buffer, or fails and leaves it as it
 * was) under trace_buffer_lock, between the listeners' ->begin() and
 * ->end().
 */
static int trace_change(int (*change)(unsigned long arg), unsigned long arg)
{
	struct ringtrace_trace_listener *listener;
	bool emptied;
	int ret;

	mutex_lock(&trace_life_lock);
	list_for_each_entry(listener, &trace_listeners, node)
		if (listener->begin)
			listener->begin();
	mutex_lock(&trace_buffer_lock);
	ret = change(arg);
	mutex_unlock(&trace_buffer_lock);
	emptied = !ret && trace_old_records_gone();
	list_for_each_entry(listener, &trace_listeners, node)
		if (listener->end)
			listener->end(emptied);
	mutex_unlock(&trace_life_lock);
	return ret;
}

static int trace_reset_change(unsigned long unused)
{
	rtb_reset(trace_buffer);
	return 0;
}

static int trace_resize_change(unsigned long kb)
{
	int ret = rtb_resize(trace_buffer, kb * 1024);

	if (!ret)
		WRITE_ONCE(buffer_kb, kb);
	return ret;
}

/*
 * Time stamps of two clocks do not mix: start afresh.  Under
 * trace_life_lock, which guards the listeners (trace_change()).
 */
static int trace_clock_change(unsigned long id)
{
	struct ringtrace_trace_listener *listener;

	lockdep_assert_held(&trace_life_lock);
	trace_clock_id = id;
	rtb_set_clock(trace_buffer, ringtrace_clocks[id].fn);
	rtb_reset(trace_buffer);
	list_for_each_entry(listener, &trace_listeners, node)
		if (listener->clock)
			listener->clock(ringtrace_clocks[id].name);
	return 0;
}

/**
 * ringtrace_trace_freeze() - no change of the trace buffer, and no reader
 *	of it, from now on, for good
 *
 * For the persistent buffer's seal at a reboot: the machine goes down
 * next, and no page may change after its CRC.  Waits for a change or a
 * reader in flight; the locks are never released.
 *
 * Context: process context; may sleep.
 */
void ringtrace_trace_freeze(void)
{
	mutex_lock(&trace_life_lock);
	ringtrace_access_lock(RINGTRACE_ALL_CPUS);
}

/**
 * ringtrace_trace_clock_name() - the trace clock, as trace_clock names it
 *
 * Return: "local" or "global".
 */
const char *ringtrace_trace_clock_name(void)
{
	return ringtrace_clocks[READ_ONCE(trace_clock_id)].name;
}

/**
 * ringtrace_trace_kb() - the size of each CPU's trace buffer
 *
 * Return: the size in KiB, as buffer_size_kb shows it.
 */
unsigned long ringtrace_trace_kb(void)
{
	return READ_ONCE(buffer_kb);
}

/**
 * ringtrace_trace_resize() - resize the trace buffer, emptying it
 * @kb: KiB of records each CPU buffer holds, 1 to RINGTRACE_MAX_KB
 *
 * Safe with writers running: rtb_resize() pauses them.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL for a size out of range; -EBUSY while an iterator
 * reads the ring in place (trace open for reading), -ENOMEM: the buffer,
 * its records and buffer_size_kb are then as they were.
 */
int ringtrace_trace_resize(unsigned long kb)
{
	if (!kb || kb > RINGTRACE_MAX_KB)
		return -EINVAL;
	return trace_change(trace_resize_change, kb);
}

/**
 * ringtrace_trace_clear() - empty the trace buffer
 *
 * What "echo > trace" does.  Events gone before it are forgotten, their
 * ids given again, unless a trace file is open for reading meanwhile.
 *
 * Context: process context; may sleep.
 */
void ringtrace_trace_clear(void)
{
	trace_change(trace_reset_change, 0);
}

struct trace_fixed {
	void		*base;
	unsigned int	slice_pages;
	u32		*reader_slot;
};

static int trace_fixed_change(unsigned long arg)
{
	struct trace_fixed *f = (struct trace_fixed *)arg;
	int ret;

	/* The reader page is replaced too: no consumer may hold a record. */
	ringtrace_access_lock(RINGTRACE_ALL_CPUS);
	ret = rtb_use_fixed_pages(trace_buffer, f->base, f->slice_pages,
				  f->reader_slot);
	ringtrace_access_unlock(RINGTRACE_ALL_CPUS);
	if (!ret)
		WRITE_ONCE(buffer_kb, DIV_ROUND_UP((unsigned long)
						   (f->slice_pages - 1) *
						   RTB_PAGE_DATA_SIZE, 1024));
	return ret;
}

/**
 * ringtrace_trace_use_fixed() - move the trace buffer onto given memory
 * @base: one slice per CPU number, as rtb_use_fixed_pages() takes them
 * @slice_pages: pages of a slice
 * @reader_slot: where the buffer keeps each CPU's reader page slot
 *
 * For the persistent buffer: the records so far are discarded, and
 * buffer_size_kb becomes the slices' size and refuses changes (-EBUSY).
 *
 * Context: process context; may sleep.
 * Return: as rtb_use_fixed_pages().
 */
int ringtrace_trace_use_fixed(void *base, unsigned int slice_pages,
			      u32 *reader_slot)
{
	struct trace_fixed f = {
		.base		= base,
		.slice_pages	= slice_pages,
		.reader_slot	= reader_slot,
	};

	return trace_change(trace_fixed_change, (unsigned long)&f);
}

static ssize_t buffer_size_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	bool total = file->f_inode->i_private;
	unsigned long kb = READ_ONCE(buffer_kb);
	char buf[32];
	int len;

	if (total)
		kb *= num_possible_cpus();
	len = scnprintf(buf, sizeof(buf), "%lu\n", kb);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t buffer_size_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	unsigned long kb;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 10, &kb);
	if (ret)
		return ret;
	ret = ringtrace_trace_resize(kb);
	return ret ? ret : count;
}

static const struct file_operations buffer_size_fops = {
	.read	= buffer_size_read,
	.write	= buffer_size_write,
	.llseek	= default_llseek,
};

static const struct file_operations buffer_total_size_fops = {
	.read	= buffer_size_read,
	.llseek	= default_llseek,
};

static bool overwrite_mode = true;

static void overwrite_apply(bool on)
{
	rtb_set_overwrite(trace_buffer, on);
}

static struct bool_control overwrite_control = {
	.value	= &overwrite_mode,
	.apply	= overwrite_apply,
};

static int trace_clock_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ringtrace_clocks); i++)
		seq_printf(m, i == trace_clock_id ? "%s[%s]" : "%s%s",
			   i ? " " : "", ringtrace_clocks[i].name);
	seq_putc(m, '\n');
	return 0;
}

static int trace_clock_open(struct inode *inode, struct file *file)
{
	return single_open(file, trace_clock_show, NULL);
}

static ssize_t trace_clock_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[16];
	unsigned int i;
	int ret;

	ret = ringtrace_get_word(ubuf, count, buf, sizeof(buf));
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(ringtrace_clocks); i++) {
		if (strcmp(buf, ringtrace_clocks[i].name))
			continue;
		trace_change(trace_clock_change, i);
		return count;
	}
	return -EINVAL;
}

static const struct file_operations trace_clock_fops = {
	.open		= trace_clock_open,
	.read		= seq_read,
	.write		= trace_clock_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int cpu_stats_show(struct seq_file *m, void *v)
{
	int cpu = (long)m->private;
	struct rtb_cpu_stats s;
	u64 ts = 0, now;

	rtb_cpu_stats(trace_buffer, cpu, &s);
	/* A peek may refill the reader page: pairs with the other readers. */
	ringtrace_access_lock(cpu);
	rtb_peek(trace_buffer, cpu, &ts);
	ringtrace_access_unlock(cpu);
	now = rtb_time_stamp(trace_buffer, cpu);
	/*
	 * Upstream's fields first, in its order and spelling (trace-cmd
	 * reads them), then ringtrace's own.  No record is ever lost to a
	 * commit overrun here: a writer that finds no room drops its record,
	 * counted in "dropped events".
	 */
	seq_printf(m, "entries: %lu\n", s.entries);
	seq_printf(m, "overrun: %lu\n", s.overruns);
	seq_puts(m, "commit overrun: 0\n");
	seq_printf(m, "bytes: %lu\n", s.pages * RTB_PAGE_DATA_SIZE);
	seq_printf(m, "oldest event ts: %5llu.%06llu\n",
		   ts / NSEC_PER_SEC, ts % NSEC_PER_SEC / NSEC_PER_USEC);
	seq_printf(m, "now ts: %5llu.%06llu\n",
		   now / NSEC_PER_SEC, now % NSEC_PER_SEC / NSEC_PER_USEC);
	seq_printf(m, "dropped events: %lu\n", s.dropped);
	seq_printf(m, "read events: %lu\n", s.read);
	seq_printf(m, "written: %lu\n", s.written);
	seq_printf(m, "discarded: %lu\n", s.discarded);
	return 0;
}

static int cpu_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, cpu_stats_show, inode->i_private);
}

static const struct file_operations cpu_stats_fops = {
	.open		= cpu_stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* per_cpu/cpuN, for each possible CPU; they live as long as the kernel. */
static struct dentry **cpu_dirs;

/**
 * ringtrace_cpu_dir() - the per_cpu/cpuN directory of a CPU
 * @cpu: a possible CPU
 *
 * Return: the directory, or NULL if @cpu has none (bad CPU, or boot could
 * not make it).
 */
struct dentry *ringtrace_cpu_dir(int cpu)
{
	if (!cpu_dirs || cpu < 0 || cpu >= nr_cpu_ids)
		return NULL;
	return cpu_dirs[cpu];
}
EXPORT_SYMBOL_GPL(ringtrace_cpu_dir);

static int __init ringtrace_trace_init(void)
{
	struct dentry *options, *per_cpu, *dir;
	struct rtb_buffer *buffer;
	char name[16];
	int cpu;

	for_each_possible_cpu(cpu)
		mutex_init(&per_cpu(cpu_access_lock, cpu));
	buffer = rtb_alloc(buffer_kb * 1024, RTB_FL_OVERWRITE);
	if (!buffer) {
		pr_err("cannot allocate the trace buffer\n");
		return -ENOMEM;
	}
	/* Readers wait there before the writers that wake them can write. */
	ringtrace_wait_attach(buffer, &recording_on);
	trace_buffer = buffer;
	ringtrace_add_file("tracing_on", 0600, NULL, &tracing_on_control,
			   &bool_control_fops,
			   "1: record events, 0: stop (buffered events stay)");
	ringtrace_add_file("buffer_size_kb", 0600, NULL, NULL,
			   &buffer_size_fops,
			   "per-CPU buffer size in KiB; writing resizes and clears");
	ringtrace_add_file("buffer_total_size_kb", 0400, NULL, (void *)1,
			   &buffer_total_size_fops,
			   "buffer size of all CPUs together, in KiB");
	ringtrace_add_file("saved_cmdlines", 0400, NULL, NULL,
			   &saved_cmdlines_fops, "pid and comm of traced tasks");
	ringtrace_add_file("trace_clock", 0600, NULL, NULL, &trace_clock_fops,
			   "clock of the time stamps ([current]); writing one clears");
	options = ringtrace_options_dir();
	if (options)
		ringtrace_add_file("overwrite", 0600, options,
				   &overwrite_control, &bool_control_fops,
				   "1: overwrite oldest events when full, 0: drop new ones");
	per_cpu = ringtrace_add_dir("per_cpu", NULL);
	cpu_dirs = kcalloc(nr_cpu_ids, sizeof(*cpu_dirs), GFP_KERNEL);
	if (IS_ERR(per_cpu) || !cpu_dirs)
		return 0;
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		dir = ringtrace_add_dir(name, per_cpu);
		if (IS_ERR(dir))
			continue;
		cpu_dirs[cpu] = dir;
		ringtrace_add_file("stats", 0400, dir, (void *)(long)cpu,
				   &cpu_stats_fops, cpu ? NULL :
				   "entries, overrun, dropped, read, bytes, times");
	}
	return 0;
}
fs_initcall_sync(ringtrace_trace_init);
