// SPDX-License-Identifier: GPL-2.0
/*
 * The trace buffer of the tracing directory.
 *
 * One ringtrace buffer (buffer.c) receives every event source's records.
 * This file creates it at boot and owns what changes it: tracing on and
 * off, its size, its clock, overwrite, the changes that empty it (each
 * told to the trace listeners) and the access lock its readers serialise
 * on.  Event sources write their records in place between
 * ringtrace_event_reserve() and ringtrace_event_commit() (events.c),
 * which end here; readers wait in wait.c.  The control files that make
 * these changes are trace_files.c's.
 */

#define pr_fmt(fmt) "ringtrace: " fmt

#include <linux/cpumask.h>
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
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "core.h"
#include "saved_cmdlines.h"
#include "trace.h"

/* Per-CPU size at boot, as upstream's default: 1408 KiB. */
#define RINGTRACE_DEFAULT_KB	1408
/* The largest per-CPU size buffer_size_kb accepts: 1 GiB. */
#define RINGTRACE_MAX_KB	(1024 * 1024)

static struct rtb_buffer *trace_buffer;
static bool recording_on = true;
static unsigned long buffer_kb = RINGTRACE_DEFAULT_KB;
/* Serialises changes of the buffer's settings (core.h's row 6). */
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
static bool overwrite_mode = true;

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
 * (each rtb_read_page()) and trace_files.c's cpu_stats_show() (its peek
 * refills).  Never held while copying to user space or waiting for records; its
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

/**
 * ringtrace_trace_set_on() - what writing to tracing_on does
 * @on: record events from now on, or stop
 *
 * Off: blocked readers return what is buffered; it is all there will be,
 * once writers that saw tracing on have committed: their sections are
 * RCU-sched readers (preemption off from the check to the commit), and
 * readers are woken after a grace period.
 *
 * Context: process context; may sleep.
 */
void ringtrace_trace_set_on(bool on)
{
	mutex_lock(&trace_buffer_lock);
	WRITE_ONCE(recording_on, on);
	if (!on) {
		synchronize_rcu();
		ringtrace_wake_all_readers();
	}
	mutex_unlock(&trace_buffer_lock);
}

/**
 * ringtrace_trace_overwrite() - whether a full buffer overwrites its oldest
 *
 * Return: options/overwrite's value.
 */
bool ringtrace_trace_overwrite(void)
{
	return READ_ONCE(overwrite_mode);
}

/**
 * ringtrace_trace_set_overwrite() - what writing to options/overwrite does
 * @on: overwrite the oldest records when full, else drop new ones
 *
 * Context: process context; may sleep.
 */
void ringtrace_trace_set_overwrite(bool on)
{
	mutex_lock(&trace_buffer_lock);
	WRITE_ONCE(overwrite_mode, on);
	rtb_set_overwrite(trace_buffer, on);
	mutex_unlock(&trace_buffer_lock);
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
	WRITE_ONCE(trace_clock_id, id);
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
 * ringtrace_trace_clock_names() - the trace clocks, one by one
 * @i: 0 for the first
 *
 * Return: the name of clock @i, or NULL past the last.  The current
 * clock's is the pointer ringtrace_trace_clock_name() returns.
 */
const char *ringtrace_trace_clock_names(unsigned int i)
{
	return i < ARRAY_SIZE(ringtrace_clocks) ? ringtrace_clocks[i].name :
	       NULL;
}

/**
 * ringtrace_trace_set_clock() - change the trace clock, emptying the buffer
 * @name: the new clock, as trace_clock names it
 *
 * Context: process context; may sleep.
 * Return: 0, or -EINVAL if no clock has @name (nothing changes).
 */
int ringtrace_trace_set_clock(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ringtrace_clocks); i++)
		if (!strcmp(name, ringtrace_clocks[i].name))
			return trace_change(trace_clock_change, i);
	return -EINVAL;
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

static int __init ringtrace_trace_init(void)
{
	struct rtb_buffer *buffer;
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
	return 0;
}

/* Before trace_files.c's, which makes the files (the link order). */
fs_initcall_sync(ringtrace_trace_init);
