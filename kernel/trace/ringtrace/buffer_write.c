// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace buffer writers: reserve, commit, write.
 *
 * A write is a reservation, filled in place by the caller, then a commit.
 * A reservation reads the write word and the time stamp of the record
 * before it, reads the clock, and moves the write word with one
 * local_cmpxchg(); a writer that nests meanwhile makes it fail, and it
 * retries.  Moving to the next page is the one step that cannot be undone:
 * it runs with interrupts off under a mark in the write word, and an NMI
 * writer that finds the mark drops its record (counted).  Between
 * reservation and commit anything may nest; the outermost writer publishes
 * the commits, in buffer order.  See the top of buffer.c.
 */

#include <linux/export.h>
#include <linux/err.h>
#include <linux/irqflags.h>
#include <linux/minmax.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "buffer_internal.h"

/*
 * rtb_write() and rtb_unlock_commit() go to the start of the kernel's
 * text (.text.hot), where they fit in one page whatever else the kernel
 * is made of.  Under QEMU's TCG a jump across a page boundary cannot be
 * chained: rtb_write() measured 20 ns slower when it straddled one, and
 * where it fell moved with unrelated changes.  (rtb_lock_reserve() is as
 * big as rtb_write(): both would not fit.)
 */
#define __rtb_hot	__attribute__((__hot__))

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
	/* Pairs with smp_wmb() in rtb_claim_head(): fields before gen. */
	smp_rmb();
	/*
	 * The reader rewrote @swap meanwhile: the swap of @gen is done.
	 * Acquire, like the first check: the caller reads the ring slot next
	 * and must see the page the reader installed before it rewrote @swap.
	 */
	if (smp_load_acquire(&swap->gen) != gen)
		return;
	if (cmpxchg(&cpu_buffer->ring[slot], old, new) == old)
		rtb_count_path(cpu_buffer, help_swaps);
}

/* The buffer's clock; sched_clock() unless rtb_set_clock() chose one. */
static __always_inline u64 rtb_clock(rtb_clock_fn clock)
{
	return clock ? clock() : sched_clock();
}

/*
 * Whether page @next may become the write page: its slot last held page
 * next - nr, which must be fully committed, and consumed unless the buffer
 * overwrites.  On the first lap that page is before the first one, so
 * before the head and commit_seq too.
 */
static bool rtb_page_available(struct rtb_cpu_buffer *cpu_buffer,
			       unsigned long next)
{
	unsigned long oldest = rtb_seq_sub(cpu_buffer, next,
					   cpu_buffer->nr_pages);
	unsigned long commit_seq;

	/* Pairs with smp_store_release() in rtb_publish_commits(). */
	commit_seq = smp_load_acquire(&cpu_buffer->commit_seq);
	/* An interrupted writer still owns a record on the oldest page. */
	if (!rtb_seq_before(cpu_buffer, oldest, commit_seq))
		return false;
	return READ_ONCE(cpu_buffer->buffer->overwrite) ||
	       rtb_seq_before(cpu_buffer, oldest,
			      rtb_head_seq(atomic_long_read(&cpu_buffer->head)));
}

/*
 * Make page @next the write page: push the oldest page out if the buffer
 * overwrites, then empty it.  Runs while the write word is marked
 * RTB_W_CROSSING, so no other writer of this CPU runs it meanwhile, and
 * after rtb_page_available(), whose answer cannot change: the head and
 * commit_seq only advance.
 */
static void rtb_prepare_page(struct rtb_cpu_buffer *cpu_buffer,
			     unsigned long next)
{
	unsigned long oldest = rtb_seq_sub(cpu_buffer, next,
					   cpu_buffer->nr_pages);
	struct rtb_page *page;
	long head;

	/* Pairs with the reader's cmpxchg and release in rtb_claim_head(). */
	head = atomic_long_read_acquire(&cpu_buffer->head);
	for (;;) {
		if (head & RTB_HEAD_PENDING)
			rtb_help_swap(cpu_buffer, head);
		if (rtb_seq_before(cpu_buffer, oldest, rtb_head_seq(head)))
			break;
		/* Overwrite: push the head past the oldest page. */
		if (atomic_long_try_cmpxchg(&cpu_buffer->head, &head,
					    rtb_head_make(rtb_seq_next(cpu_buffer,
								       oldest),
							  rtb_head_gen(head),
							  head & RTB_HEAD_PENDING,
							  0))) {
			page = rtb_ring_page(cpu_buffer, oldest);
			/* Read by readers and stats on other CPUs. */
			WRITE_ONCE(cpu_buffer->overruns,
				   cpu_buffer->overruns +
				   local_read(&page->entries) -
				   rtb_head_read(head));
			break;
		}
	}
	rtb_reset_page(rtb_ring_page(cpu_buffer, next));
}

/*
 * Write the header of a DATA record of @size bytes at @off of @page, after
 * a TIME_EXTEND if @need says there is room for one.
 */
static struct rtb_event *rtb_write_header(struct rtb_page *page,
					  unsigned int off, unsigned int need,
					  unsigned int size, u64 delta)
{
	struct rtb_event *event = rtb_event_at(page, off);

	if (unlikely(need != size)) {
		rtb_event_init_time_extend(event, delta);
		event = rtb_event_at(page, off + RTB_TIME_EXTEND_SIZE);
		delta = 0;
	}
	/*
	 * Payloads are rounded up to words: zero the last one, so that the
	 * bytes a writer's payload does not cover are not an older record's.
	 */
	*(u32 *)((void *)event + size - sizeof(u32)) = 0;
	__rtb_event_init_data(event, size, delta);
	local_inc(&page->entries);
	return event;
}

/*
 * The page of write word @w.  The write page is cached: dividing by the
 * ring size on every record would cost more than the rest of a write.
 */
static inline struct rtb_page *rtb_write_page(struct rtb_cpu_buffer *cpu_buffer,
					      unsigned long w)
{
	struct rtb_page *page = READ_ONCE(cpu_buffer->write_page);

	if (likely(READ_ONCE(page->seq) == rtb_w_seq(w)))
		return page;
	return rtb_ring_page(cpu_buffer, rtb_w_seq(w));
}

/*
 * The record does not fit in the write page @w points to: close the page
 * with padding and put the record first on the next one.  Interrupts are
 * off and the write word carries RTB_W_CROSSING meanwhile: an NMI writer
 * arriving then drops its record.
 */
static noinline struct rtb_event *
rtb_reserve_next_page(struct rtb_cpu_buffer *cpu_buffer, unsigned long w,
		      unsigned int size, unsigned int depth, rtb_clock_fn clock)
{
	unsigned long seq = rtb_w_seq(w), next = rtb_seq_next(cpu_buffer, seq);
	unsigned int off = rtb_w_off(w);
	struct rtb_stamp *stamp;
	struct rtb_event *event;
	struct rtb_page *page;
	unsigned long flags;
	u64 ts;

	local_irq_save(flags);
	if (!rtb_page_available(cpu_buffer, next)) {
		local_irq_restore(flags);
		return ERR_PTR(-ENOSPC);
	}
	/* A writer nested since @w was read: start over. */
	if (local_cmpxchg(&cpu_buffer->write, w, w | RTB_W_CROSSING) != w) {
		local_irq_restore(flags);
		return ERR_PTR(-EAGAIN);
	}

	/* Alone on the write word now.  Time must not go back. */
	ts = max(rtb_clock(clock),
		 cpu_buffer->stamps[rtb_w_stamp(w)].ts);
	rtb_prepare_page(cpu_buffer, next);
	page = rtb_write_page(cpu_buffer, w);
	page->real_end = off;
	if (off < RTB_PAGE_DATA_SIZE)
		rtb_event_init_padding(rtb_event_at(page, off),
				       RTB_PAGE_DATA_SIZE - off);

	/* The first record of a page is at the page's time stamp. */
	page = rtb_ring_page(cpu_buffer, next);
	page->seq = next;
	/* Drops from here on are reported with the page after this one. */
	page->dropped_mark = local_read(&cpu_buffer->dropped);
	page->data->time_stamp = ts;
	event = rtb_write_header(page, 0, size, size, 0);
	WRITE_ONCE(cpu_buffer->write_page, page);

	stamp = &cpu_buffer->stamps[rtb_stamp_index(depth, 0)];
	stamp->ts = ts;
	stamp->undo = w;
	w = rtb_w_make(next, size, depth, 0);
	barrier();
	local_set(&cpu_buffer->write, w);
	local_irq_restore(flags);
	return event;
}

/*
 * Reserve @length bytes of payload for a writer at nesting @depth.  The
 * fast path is one local_cmpxchg() of the write word: a writer that nests
 * in between makes it fail, and it retries from the new position.  Inlined
 * into the API functions: calls are what a write mostly costs.
 */
static __always_inline struct rtb_event *
rtb_reserve(struct rtb_cpu_buffer *cpu_buffer, unsigned long length,
	    unsigned int depth)
{
	rtb_clock_fn clock = READ_ONCE(cpu_buffer->buffer->clock);
	unsigned int size = __rtb_event_size_for(length);
	unsigned int off, need, slot;
	struct rtb_stamp *stamp;
	struct rtb_event *event;
	struct rtb_page *page;
	unsigned long w, new;
	u64 ts, prev_ts, delta;

	for (;;) {
		w = local_read(&cpu_buffer->write);
		/* We interrupted a writer moving to the next page. */
		if (unlikely(w & RTB_W_CROSSING)) {
			rtb_count_path(cpu_buffer, crossing_drops);
			return NULL;
		}
		/*
		 * The time of the record before @w.  If a writer nests after
		 * this read, @w changes and the cmpxchg below fails.
		 */
		prev_ts = READ_ONCE(cpu_buffer->stamps[rtb_w_stamp(w)].ts);
		barrier();
		ts = rtb_clock(clock);
		if (ts < prev_ts)
			ts = prev_ts;
		off = rtb_w_off(w);
		delta = off ? ts - prev_ts : 0;
		need = size + (delta > RTB_DELTA_MAX ? RTB_TIME_EXTEND_SIZE : 0);

		if (unlikely(off + need > RTB_PAGE_DATA_SIZE)) {
			event = rtb_reserve_next_page(cpu_buffer, w, size,
						      depth, clock);
			if (!IS_ERR(event))
				return event;
			if (PTR_ERR(event) == -EAGAIN)
				rtb_count_path(cpu_buffer, reserve_retries);
			/* Room may have been made meanwhile: look again. */
			else if (!rtb_page_available(cpu_buffer,
						     rtb_seq_next(cpu_buffer,
								  rtb_w_seq(w))))
				return NULL;
			continue;
		}

		/* Our time goes in the slot of our depth @w does not use. */
		slot = rtb_w_depth(w) == depth ? !rtb_w_slot(w) : 0;
		new = rtb_w_make(rtb_w_seq(w), off + need, depth, slot);
		stamp = &cpu_buffer->stamps[rtb_w_stamp(new)];
		WRITE_ONCE(stamp->ts, ts);
		WRITE_ONCE(stamp->undo, w);
		/* Valid if the cmpxchg succeeds: no page move in between. */
		page = rtb_write_page(cpu_buffer, w);
		barrier();
		if (local_cmpxchg(&cpu_buffer->write, w, new) == w)
			break;
		rtb_count_path(cpu_buffer, reserve_retries);
	}

	/* The write page cannot be swapped out: it is not behind commit_seq. */
	if (unlikely(!off))
		page->data->time_stamp = ts;
	return rtb_write_header(page, off, need, size, delta);
}

/* The pages writers left since the last publish are full. */
static noinline void rtb_close_pages(struct rtb_cpu_buffer *cpu_buffer,
				     unsigned long end)
{
	unsigned long seq;

	for (seq = cpu_buffer->commit_seq; seq != end;
	     seq = rtb_seq_next(cpu_buffer, seq)) {
		/* Pairs with smp_load_acquire() of commit words by readers. */
		smp_store_release(&rtb_ring_page(cpu_buffer, seq)->data->commit,
				  RTB_PAGE_DATA_SIZE);
	}
}

/*
 * Make everything reserved up to write word @w readable: close the commit
 * words of the pages the writers left, set the current page's, then move
 * commit_seq.  Only the outermost writer calls this, so every reservation
 * before @w is complete.
 */
static __always_inline void rtb_publish_commits(struct rtb_cpu_buffer *cpu_buffer,
						unsigned long w)
{
	unsigned long end = rtb_w_seq(w);
	bool moved = cpu_buffer->commit_seq != end;

	if (unlikely(moved))
		rtb_close_pages(cpu_buffer, end);
	/* Pairs with smp_load_acquire() of commit words by readers. */
	smp_store_release(&rtb_write_page(cpu_buffer, w)->data->commit,
			  rtb_w_off(w));
	/* Most commits stay on the commit page: commit_seq stays too. */
	if (unlikely(moved)) {
		/* Pairs with smp_load_acquire() in the reader's refill. */
		smp_store_release(&cpu_buffer->commit_seq, end);
	}
}

/*
 * Leave the innermost reservation on @cpu_buffer, this CPU's: publish
 * everything reserved so far if it is the outermost.
 */
static __always_inline void __rtb_commit(struct rtb_cpu_buffer *cpu_buffer)
{
	unsigned long w;

	if (local_read(&cpu_buffer->committing) != 1) {
		local_dec(&cpu_buffer->committing);
		return;
	}
again:
	w = local_read(&cpu_buffer->write);
	rtb_publish_commits(cpu_buffer, w);
	barrier();
	local_dec(&cpu_buffer->committing);
	barrier();
	/*
	 * A writer that reserved after we dropped @committing was outermost
	 * and published itself; one that nested before left it to us.
	 */
	if (unlikely(local_read(&cpu_buffer->write) != w) &&
	    !local_read(&cpu_buffer->committing)) {
		local_inc(&cpu_buffer->committing);
		goto again;
	}
}

/* Commit the innermost reservation, and end the preemption it began. */
static __always_inline void rtb_commit(struct rtb_cpu_buffer *cpu_buffer)
{
	__rtb_commit(cpu_buffer);
	preempt_enable_notrace();
}

/* rtb_lock_reserve(), also telling which CPU buffer it reserved in. */
static __always_inline struct rtb_event *
__rtb_lock_reserve(struct rtb_buffer *buffer, unsigned long length,
		   struct rtb_cpu_buffer **cpu_bufferp)
{
	struct rtb_cpu_buffer *cpu_buffer;
	struct rtb_event *event;
	unsigned int depth;
	int cpu;

	preempt_disable_notrace();
	/*
	 * Acquire: pairs with the release in rtb_record_enable(), after which
	 * a resize's new pages are what a writer finds.
	 */
	if (unlikely(atomic_read_acquire(&buffer->record_disabled)))
		goto out;
	cpu = raw_smp_processor_id();
again:
	cpu_buffer = READ_ONCE(buffer->cpus[cpu]);
	/* Acquire: pairs with the release of per-CPU enables, as above. */
	if (unlikely(atomic_read_acquire(&cpu_buffer->record_disabled)))
		goto out;
	if (unlikely(length > RTB_MAX_PAYLOAD)) {
		local_inc(&cpu_buffer->dropped);
		goto out;
	}

	/* Writers nest like a stack: the count of active ones is our depth. */
	depth = local_inc_return(&cpu_buffer->committing) - 1;
	/*
	 * An rtb_swap_cpu() that interrupted us before that increment moved
	 * the CPU buffer to the other buffer; one after it sees @committing
	 * and refuses.  Our commit looks the CPU buffer up again: make sure
	 * it will find this one.
	 */
	barrier();
	if (unlikely(READ_ONCE(buffer->cpus[cpu]) != cpu_buffer)) {
		/* A writer nested meanwhile may have committed: publish. */
		__rtb_commit(cpu_buffer);
		goto again;
	}
	event = NULL;
	if (likely(depth < RTB_MAX_DEPTH))
		event = rtb_reserve(cpu_buffer, length, depth);
	if (likely(event)) {
		local_inc(&cpu_buffer->reserved);
		*cpu_bufferp = cpu_buffer;
		return event;
	}
	local_inc(&cpu_buffer->dropped);
	/*
	 * Writers that nested in our attempt may have committed records: if
	 * we are the outermost writer, nobody else will publish them.
	 */
	rtb_commit(cpu_buffer);
	return NULL;
out:
	preempt_enable_notrace();
	return NULL;
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
 * Return: the record, or NULL if recording is disabled, or if @length is
 * too big or there is no room (then the record is counted as dropped).
 */
struct rtb_event *rtb_lock_reserve(struct rtb_buffer *buffer,
				   unsigned long length)
{
	struct rtb_cpu_buffer *cpu_buffer;

	return __rtb_lock_reserve(buffer, length, &cpu_buffer);
}
EXPORT_SYMBOL_GPL(rtb_lock_reserve);

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
__rtb_hot int
rtb_unlock_commit(struct rtb_buffer *buffer, struct rtb_event *event)
{
	rtb_commit(READ_ONCE(buffer->cpus[raw_smp_processor_id()]));
	return 0;
}
EXPORT_SYMBOL_GPL(rtb_unlock_commit);

/*
 * Give the space of @event, the innermost reservation of this CPU, back if
 * nothing was reserved after it: move the write word back to where the
 * reservation found it.  Writers nested in ours have all returned, so the
 * write word has our depth only if we installed it.  The word we move back
 * to names the other stamp slot of our depth, filled first with the time
 * of the record before ours: no writer ever finds our time for that
 * position.  A writer we interrupted before its cmpxchg finds a word it
 * did not read and retries, unless it read that very word, and then the
 * position, page and time it read are the ones we restore.
 */
static bool rtb_unreserve(struct rtb_cpu_buffer *cpu_buffer,
			  struct rtb_event *event)
{
	unsigned int depth = local_read(&cpu_buffer->committing) - 1;
	unsigned long w = local_read(&cpu_buffer->write), back, before;
	unsigned int slot, off, start;
	struct rtb_stamp *stamp;
	struct rtb_page *page;
	u64 ts;

	if (rtb_w_depth(w) != depth || (w & RTB_W_CROSSING))
		return false;
	slot = rtb_w_slot(w);
	stamp = &cpu_buffer->stamps[rtb_stamp_index(depth, slot)];
	before = stamp->undo;
	page = rtb_write_page(cpu_buffer, w);
	off = (void *)event - (void *)page->data->data;
	if (WARN_ON_ONCE(off + __rtb_event_length(event) != rtb_w_off(w)))
		return false;
	/* The reservation began on this page, or at its start if it moved. */
	start = rtb_w_seq(before) == rtb_w_seq(w) ? rtb_w_off(before) : 0;
	if (WARN_ON_ONCE(start != off && start + RTB_TIME_EXTEND_SIZE != off))
		return false;
	/* Our time less our delta, kept in a TIME_EXTEND at @start if any. */
	ts = stamp->ts - __rtb_event_time_delta(start == off ? event :
						rtb_event_at(page, start));
	back = rtb_w_make(rtb_w_seq(w), start, depth, !slot);
	stamp = &cpu_buffer->stamps[rtb_stamp_index(depth, !slot)];
	WRITE_ONCE(stamp->ts, ts);
	WRITE_ONCE(stamp->undo, back);
	barrier();
	if (local_cmpxchg(&cpu_buffer->write, w, back) != w)
		return false;
	local_dec(&page->entries);
	return true;
}

/*
 * The ring page holding @event, reserved and not yet committed: between
 * the commit page and the write page, which stay in their ring slots
 * until it is committed (readers only swap pages behind the commit page).
 */
static struct rtb_page *rtb_page_of(struct rtb_cpu_buffer *cpu_buffer,
				    struct rtb_event *event)
{
	unsigned long seq = cpu_buffer->commit_seq;
	unsigned long end = rtb_w_seq(local_read(&cpu_buffer->write));
	void *data = (void *)((unsigned long)event & PAGE_MASK);
	struct rtb_page *page;

	for (;;) {
		page = rtb_ring_page(cpu_buffer, seq);
		if ((void *)page->data == data || seq == end)
			return page;
		seq = rtb_seq_next(cpu_buffer, seq);
	}
}

/*
 * Turn a reserved record into PADDING of the same size, keeping its time
 * delta for the records after it.  Its bytes are zeroed: a record its
 * writer gave up (a filter rejected it) never reaches a reader.
 */
static void rtb_pad_record(struct rtb_cpu_buffer *cpu_buffer,
			   struct rtb_event *event)
{
	unsigned int size = __rtb_event_length(event);
	u32 delta = event->type_len_delta >> RTB_DELTA_SHIFT;

	memset(event->array, 0, size - RTB_HEADER_SIZE);
	rtb_event_init_padding(event, size);
	event->type_len_delta |= delta << RTB_DELTA_SHIFT;
	local_dec(&rtb_page_of(cpu_buffer, event)->entries);
	rtb_count_path(cpu_buffer, discard_paddings);
}

/**
 * rtb_discard_commit() - give up a reserved record instead of committing it
 * @buffer: the buffer it was reserved in
 * @event: the record rtb_lock_reserve() returned
 *
 * For writers that build a record in place and then decide against it (a
 * filter).  If no record was reserved on this CPU after @event, its space
 * is given back; otherwise it stays as padding that readers skip.  Either
 * way it is counted as discarded, not dropped, and what nested writers
 * committed meanwhile is published as rtb_unlock_commit() would.  Same
 * rules as rtb_unlock_commit(): same CPU, same context.
 *
 * Return: true if the space was given back, false if it became padding.
 */
bool rtb_discard_commit(struct rtb_buffer *buffer, struct rtb_event *event)
{
	struct rtb_cpu_buffer *cpu_buffer;
	bool given_back;

	cpu_buffer = READ_ONCE(buffer->cpus[raw_smp_processor_id()]);
	given_back = rtb_unreserve(cpu_buffer, event);
	if (!given_back)
		rtb_pad_record(cpu_buffer, event);
	local_inc(&cpu_buffer->discarded);
	rtb_commit(cpu_buffer);
	return given_back;
}
EXPORT_SYMBOL_GPL(rtb_discard_commit);

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
__rtb_hot int
rtb_write(struct rtb_buffer *buffer, unsigned long length, const void *data)
{
	struct rtb_cpu_buffer *cpu_buffer;
	struct rtb_event *event;

	event = __rtb_lock_reserve(buffer, length, &cpu_buffer);
	if (!event)
		return -EBUSY;
	rtb_copy_payload(__rtb_event_data(event), data, length);
	rtb_commit(cpu_buffer);
	return 0;
}
EXPORT_SYMBOL_GPL(rtb_write);
