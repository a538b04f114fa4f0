// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace buffer writers: reserve, commit, write.
 *
 * A write is a reservation, filled in place by the caller, then a commit.
 * The reservation itself runs in a "reserve window": a few dozen
 * instructions with interrupts off in which the writer reads the clock,
 * finds room (moving to the next page if needed) and writes the record
 * header.  Windows on one CPU therefore never overlap, except with an NMI;
 * an NMI that finds a window open drops its record (counted), so every
 * reservation sees a consistent writer state and time deltas are exact.
 * Between reservation and commit anything may nest, interrupts and NMIs
 * included; commits are published in buffer order by the outermost writer.
 * See the top of ringtrace_buffer.c for the whole scheme.
 */

#include <linux/export.h>
#include <linux/hardirq.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "ringtrace_buffer_internal.h"

/**
 * rtb_help_swap() - install a claimed reader page in the ring
 * @cpu_buffer: the CPU buffer
 * @head: a head word with RTB_HEAD_PENDING set
 *
 * A reader claims the head page with one cmpxchg of the head word and then
 * puts its own page in the ring slot.  A writer that needs the ring before
 * the reader got there does the second step itself: both use the same
 * cmpxchg, so whichever comes second finds it done.
 */
void rtb_help_swap(struct rtb_cpu_buffer *cpu_buffer, long head)
{
	struct rtb_swap *swap = &cpu_buffer->swap;
	unsigned int gen = rtb_head_gen(head);
	struct rtb_page *old, *new;
	unsigned int slot;

	/* Pairs with smp_store_release() of swap->gen in rtb_claim_head(). */
	if (smp_load_acquire(&swap->gen) != gen)
		return;
	slot = READ_ONCE(swap->slot);
	old = READ_ONCE(swap->old);
	new = READ_ONCE(swap->new);
	/* The reader rewrote @swap meanwhile: the swap of @gen is done. */
	smp_rmb();
	if (READ_ONCE(swap->gen) != gen)
		return;
	cmpxchg(&cpu_buffer->ring[slot], old, new);
}

/*
 * Make page @next ready for writing.  Its slot last held page next - nr:
 * it must be out of the ring (consumed, or pushed out in overwrite mode)
 * and fully committed.  Runs in a reserve window.
 */
static bool rtb_prepare_page(struct rtb_cpu_buffer *cpu_buffer,
			     unsigned long next)
{
	unsigned long nr = cpu_buffer->nr_pages;
	unsigned long oldest = next - nr;
	struct rtb_page *page;
	long head;

	/* An interrupted writer still owns a record on the oldest page. */
	if (next >= nr && oldest >= READ_ONCE(cpu_buffer->commit_seq))
		return false;

	/* Pairs with the reader's cmpxchg and release in rtb_claim_head(). */
	head = atomic_long_read_acquire(&cpu_buffer->head);
	for (;;) {
		if (head & RTB_HEAD_PENDING)
			rtb_help_swap(cpu_buffer, head);
		if (next < nr || rtb_head_seq(head) > oldest)
			break;
		if (!READ_ONCE(cpu_buffer->buffer->overwrite))
			return false;
		/* Overwrite: push the head past the oldest page. */
		if (atomic_long_try_cmpxchg(&cpu_buffer->head, &head,
					    rtb_head_make(oldest + 1,
							  rtb_head_gen(head),
							  head & RTB_HEAD_PENDING,
							  0))) {
			page = rtb_ring_page(cpu_buffer, oldest);
			cpu_buffer->overruns += page->entries -
						rtb_head_read(head);
			break;
		}
	}

	rtb_reset_page(rtb_ring_page(cpu_buffer, next));
	return true;
}

/* Close the current page with padding and move to the next.  In a window. */
static bool rtb_next_page(struct rtb_cpu_buffer *cpu_buffer)
{
	unsigned long next = cpu_buffer->write_seq + 1;
	unsigned int off = cpu_buffer->write_off;
	struct rtb_page *page;

	if (!rtb_prepare_page(cpu_buffer, next))
		return false;
	if (off < RTB_PAGE_DATA_SIZE) {
		page = rtb_ring_page(cpu_buffer, cpu_buffer->write_seq);
		rtb_event_init_padding(rtb_event_at(page, off),
				       RTB_PAGE_DATA_SIZE - off);
	}
	WRITE_ONCE(cpu_buffer->write_seq, next);
	WRITE_ONCE(cpu_buffer->write_off, 0);
	return true;
}

/* The reserve window proper: interrupts are off. */
static struct rtb_event *rtb_reserve(struct rtb_cpu_buffer *cpu_buffer,
				     unsigned long length)
{
	unsigned int size = rtb_event_size_for(length);
	unsigned int off = cpu_buffer->write_off;
	struct rtb_event *event;
	struct rtb_page *page;
	u64 (*clock)(void) = READ_ONCE(cpu_buffer->buffer->clock);
	unsigned int need;
	u64 ts, delta;

	ts = clock();
	/* Keep time monotonic per CPU even if the clock is switched. */
	if (ts < cpu_buffer->last_ts)
		ts = cpu_buffer->last_ts;
	delta = off ? ts - cpu_buffer->last_ts : 0;
	need = size;
	if (delta > RTB_DELTA_MAX)
		need += RTB_TIME_EXTEND_SIZE;

	if (off + need > RTB_PAGE_DATA_SIZE) {
		if (!rtb_next_page(cpu_buffer))
			return NULL;
		/* The first record of a page is at the page's time stamp. */
		off = 0;
		delta = 0;
		need = size;
	}

	page = rtb_ring_page(cpu_buffer, cpu_buffer->write_seq);
	if (!off)
		page->data->time_stamp = ts;
	event = rtb_event_at(page, off);
	if (need != size) {
		rtb_event_init_time_extend(event, delta);
		event = rtb_event_at(page, off + RTB_TIME_EXTEND_SIZE);
		delta = 0;
	}
	rtb_event_init_data(event, length, delta);

	WRITE_ONCE(cpu_buffer->write_off, off + need);
	cpu_buffer->last_ts = ts;
	page->entries++;
	/* The commit path compares @reserved around its reads of the above. */
	barrier();
	WRITE_ONCE(cpu_buffer->reserved, cpu_buffer->reserved + 1);
	local_inc(&cpu_buffer->committing);
	return event;
}

/**
 * rtb_lock_reserve() - reserve room for a record on this CPU
 * @buffer: the buffer
 * @length: payload bytes, up to RTB_MAX_PAYLOAD
 *
 * Takes no lock: safe from any context, NMI included, and against writers
 * nesting on the same CPU.  Preemption stays disabled until
 * rtb_unlock_commit(), which must follow on the same CPU and in the same
 * context.  Fill the payload through rtb_event_data().
 *
 * Return: the record, or NULL if recording is disabled, @length is too
 * big, or there is no room (then the record is counted as dropped).
 */
struct rtb_event *rtb_lock_reserve(struct rtb_buffer *buffer,
				   unsigned long length)
{
	struct rtb_cpu_buffer *cpu_buffer;
	struct rtb_event *event = NULL;
	unsigned long flags;

	if (unlikely(length > RTB_MAX_PAYLOAD))
		return NULL;

	preempt_disable_notrace();
	if (unlikely(atomic_read(&buffer->record_disabled)))
		goto out;
	cpu_buffer = READ_ONCE(buffer->cpus[raw_smp_processor_id()]);
	if (unlikely(atomic_read(&cpu_buffer->record_disabled)))
		goto out;

	local_irq_save(flags);
	if (unlikely(READ_ONCE(cpu_buffer->in_window))) {
		/* An NMI inside another writer's window. */
		local_inc(&cpu_buffer->dropped);
	} else {
		WRITE_ONCE(cpu_buffer->in_window, true);
		barrier();
		event = rtb_reserve(cpu_buffer, length);
		if (!event)
			local_inc(&cpu_buffer->dropped);
		barrier();
		WRITE_ONCE(cpu_buffer->in_window, false);
	}
	local_irq_restore(flags);
out:
	if (!event)
		preempt_enable_notrace();
	return event;
}
EXPORT_SYMBOL_GPL(rtb_lock_reserve);

/*
 * Make everything reserved so far readable: close the commit words of the
 * pages the writers left, set the current page's, then move commit_seq.
 * Only the outermost committer calls this, so nothing nested is half done.
 */
static void rtb_publish_commits(struct rtb_cpu_buffer *cpu_buffer)
{
	unsigned long seq, end, reserved;
	unsigned int off;

	do {
		reserved = READ_ONCE(cpu_buffer->reserved);
		barrier();
		end = READ_ONCE(cpu_buffer->write_seq);
		off = READ_ONCE(cpu_buffer->write_off);
		barrier();
	} while (reserved != READ_ONCE(cpu_buffer->reserved));

	/* Pairs with smp_load_acquire() of commit words by readers. */
	for (seq = cpu_buffer->commit_seq; seq < end; seq++)
		smp_store_release(&rtb_ring_page(cpu_buffer, seq)->data->commit,
				  RTB_PAGE_DATA_SIZE);
	/* Pairs with smp_load_acquire() of commit words by readers. */
	smp_store_release(&rtb_ring_page(cpu_buffer, end)->data->commit, off);
	/* Pairs with smp_load_acquire() in the reader's refill. */
	smp_store_release(&cpu_buffer->commit_seq, end);
}

/**
 * rtb_unlock_commit() - make a reserved record visible to readers
 * @buffer: the buffer it was reserved in
 * @event: the record rtb_lock_reserve() returned
 *
 * Records become visible in buffer order: a record reserved inside another
 * writer's reservation (an interrupt) is published with the outer one.
 * Must run on the CPU and in the context of the reservation.
 *
 * Return: 0.
 */
int rtb_unlock_commit(struct rtb_buffer *buffer, struct rtb_event *event)
{
	struct rtb_cpu_buffer *cpu_buffer;
	unsigned long reserved;

	cpu_buffer = READ_ONCE(buffer->cpus[raw_smp_processor_id()]);
	if (local_read(&cpu_buffer->committing) != 1) {
		local_dec(&cpu_buffer->committing);
		goto out;
	}
again:
	reserved = READ_ONCE(cpu_buffer->reserved);
	rtb_publish_commits(cpu_buffer);
	barrier();
	local_dec(&cpu_buffer->committing);
	barrier();
	/*
	 * An interrupt that reserved and committed after our publish was the
	 * outermost writer and published itself; one that reserved before we
	 * dropped @committing was nested and left it to us.
	 */
	if (unlikely(READ_ONCE(cpu_buffer->reserved) != reserved) &&
	    !local_read(&cpu_buffer->committing)) {
		local_inc(&cpu_buffer->committing);
		goto again;
	}
out:
	preempt_enable_notrace();
	return 0;
}
EXPORT_SYMBOL_GPL(rtb_unlock_commit);

/**
 * rtb_write() - copy a record into the buffer of this CPU
 * @buffer: the buffer
 * @length: payload bytes, up to RTB_MAX_PAYLOAD
 * @data: the payload
 *
 * Any context, like rtb_lock_reserve().
 *
 * Return: 0, or -EBUSY if the record was not recorded (recording disabled,
 * buffer full, or @length too big).
 */
int rtb_write(struct rtb_buffer *buffer, unsigned long length,
	      const void *data)
{
	struct rtb_event *event;

	event = rtb_lock_reserve(buffer, length);
	if (!event)
		return -EBUSY;
	memcpy(rtb_event_data(event), data, length);
	return rtb_unlock_commit(buffer, event);
}
EXPORT_SYMBOL_GPL(rtb_write);
