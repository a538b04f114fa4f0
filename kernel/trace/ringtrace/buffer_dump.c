// SPDX-License-Identifier: GPL-2.0
/*
 * A ringtrace buffer walk for crash dumps: what a panic or oops notifier
 * can read of a CPU buffer whatever the other CPUs were doing when they
 * stopped (or, after an oops, are still doing).
 *
 * It takes no lock it could wait for: the CPU buffer's reader lock is only
 * tried.  Got, it keeps consuming readers out for the walk, and the walk
 * starts where the consuming reader is, in its reader page, as the
 * iterators of buffer_read.c do.  Busy, a reader was stopped
 * (or interrupted on this CPU) inside a read: its reader page and where it
 * was in the oldest ring page are not to be trusted, so the walk leaves
 * the reader page out and starts at the beginning of the oldest ring page.
 *
 * It trusts only committed bytes: below each ring page's commit word, from
 * the oldest page (the head word) to the commit page (commit_seq), read
 * with acquire as the readers do.  A writer stopped between reservation
 * and commit has its record, and everything nested after it, beyond those
 * words, so no half-written record is read.  Every record's type and
 * length is checked against what is left of its page before it is used,
 * and a page or record that does not parse ends the walk of that CPU
 * buffer (RTB_DUMP_BAD): a dump shows what it can trust and says where it
 * stopped.
 *
 * After an oops other CPUs still run: the caller stops recording first,
 * but a writer already in flight can still move to a new page and, in
 * overwrite mode, push the oldest page out and rewrite it.  Writers push
 * the head past a page (a fully ordered cmpxchg) before they touch it, so
 * a record copied and then found still at or after the head was copied
 * intact (rtb_dump_take()); otherwise the walk goes on at the new head
 * (RTB_DUMP_LAPPED).
 *
 * Nothing is allocated and nothing is written to the buffer.
 */

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/irqflags.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "buffer_dump.h"
#include "buffer_internal.h"
#include "record_layout.h"

static void rtb_dump_bad(struct rtb_dump_iter *it, unsigned long seq,
			 unsigned int off)
{
	it->status |= RTB_DUMP_BAD;
	it->bad_seq = seq;
	it->bad_off = off;
	it->peeked = false;
}

/*
 * Whether the ring page walked left the ring after the walk entered it:
 * a writer pushed the head past it to overwrite it, or a reader swapped
 * it out.
 */
static bool rtb_dump_page_gone(struct rtb_dump_iter *it)
{
	struct rtb_cpu_buffer *cpu_buffer = it->cpu_buffer;

	/* Pairs with the writer's fully ordered head cmpxchg: see the top. */
	return rtb_seq_before(cpu_buffer, it->seq,
			      rtb_head_seq(atomic_long_read(&cpu_buffer->head)));
}

/* Start walking ring page @seq.  False if it does not parse. */
static bool rtb_dump_enter(struct rtb_dump_iter *it, unsigned long seq)
{
	struct rtb_cpu_buffer *cpu_buffer = it->cpu_buffer;
	struct rtb_page *page;
	unsigned int off = 0, end;
	u64 ts;

	/* More pages than the ring has: the sequence numbers are wrong. */
	if (++it->pages > cpu_buffer->nr_pages) {
		rtb_dump_bad(it, seq, 0);
		return false;
	}
	page = rtb_ring_page(cpu_buffer, seq);
	if (!page || !page->data) {
		rtb_dump_bad(it, seq, 0);
		return false;
	}
	/* Pairs with smp_store_release() in rtb_publish_commits(). */
	end = smp_load_acquire(&page->data->commit);
	ts = READ_ONCE(page->data->time_stamp);
	/* The reader's place in the page, stable under its lock, held. */
	if (it->locked && cpu_buffer->partial_seq == seq) {
		off = cpu_buffer->partial_off;
		ts = cpu_buffer->partial_ts;
	}
	if (end > RTB_PAGE_DATA_SIZE || end % RTB_ALIGN || off > end ||
	    off % RTB_ALIGN) {
		rtb_dump_bad(it, seq, off);
		return false;
	}
	it->in_reader_page = false;
	it->seq = seq;
	it->page = page;
	it->off = off;
	it->end = end;
	it->ts = ts;
	return true;
}

/* The walk lost its page to a lapping writer: go on at the new head. */
static bool rtb_dump_resync(struct rtb_dump_iter *it)
{
	struct rtb_cpu_buffer *cpu_buffer = it->cpu_buffer;
	unsigned long seq;

	it->status |= RTB_DUMP_LAPPED;
	seq = rtb_head_seq(atomic_long_read_acquire(&cpu_buffer->head));
	if (rtb_seq_before(cpu_buffer, it->last_seq, seq)) {
		/* Nothing left that the walk started with: end it. */
		it->in_reader_page = false;
		it->seq = it->last_seq;
		it->off = it->end;
		return false;
	}
	return rtb_dump_enter(it, seq);
}

static bool rtb_dump_next_page(struct rtb_dump_iter *it)
{
	struct rtb_cpu_buffer *cpu_buffer = it->cpu_buffer;

	/* After the reader page, @seq is the head page found at the start. */
	if (it->in_reader_page)
		return rtb_dump_enter(it, it->seq);
	if (it->seq == it->last_seq)
		return false;
	if (rtb_dump_page_gone(it))
		return rtb_dump_resync(it);
	return rtb_dump_enter(it, rtb_seq_next(cpu_buffer, it->seq));
}

/**
 * rtb_dump_start() - start a crash dump's walk of a CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 * @it: the walk's state, the caller's (static: nothing is allocated)
 *
 * Tries the CPU buffer's reader lock and, if it gets it, holds it until
 * rtb_dump_finish(): the walk then starts at the consuming reader's next
 * record.  If a reader holds it, the walk goes on without it from the
 * oldest ring page (%RTB_DUMP_LOCKLESS in @it->status), unless the
 * buffer's mutex is held too: a resize or reset may be replacing the
 * ring under that reader lock, and nothing of it can be trusted.
 *
 * Any context, NMI included, with interrupts off; one walk of a CPU
 * buffer at a time.  Call rtb_dump_finish() whatever it returns.
 *
 * Return: 0; -ENODEV if @cpu has no CPU buffer; -EBUSY if a resize or
 * reset may be running on it (nothing is walked, %RTB_DUMP_BUSY);
 * -EINVAL if interrupts are on.
 */
int rtb_dump_start(struct rtb_buffer *buffer, int cpu,
		   struct rtb_dump_iter *it)
{
	struct rtb_cpu_buffer *cpu_buffer = rtb_cpu_buffer(buffer, cpu);
	unsigned long head_seq, commit_seq;

	memset(it, 0, sizeof(*it));
	/*
	 * An interrupt on this CPU must not find the reader lock taken: its
	 * reader would spin on it forever.  The real flags, not lockdep's
	 * view: die() disables interrupts without telling lockdep.
	 */
	if (WARN_ON_ONCE(!irqs_disabled()))
		return -EINVAL;
	if (!cpu_buffer)
		return -ENODEV;
	if (raw_spin_trylock(&cpu_buffer->reader_lock)) {
		it->locked = true;
		/* Held until rtb_dump_finish(), which hands it back. */
		__release(&cpu_buffer->reader_lock);
	} else {
		/*
		 * A resize or reset holds the mutex while it rewrites the CPU
		 * buffer under the reader lock: ring, nr_pages and sequence
		 * numbers may not belong together.
		 */
		if (mutex_is_locked(&buffer->mutex)) {
			it->status = RTB_DUMP_BUSY;
			return -EBUSY;
		}
		it->status |= RTB_DUMP_LOCKLESS;
	}
	it->cpu_buffer = cpu_buffer;

	/* Pairs with the reader's cmpxchg and release in rtb_claim_head(). */
	head_seq = rtb_head_seq(atomic_long_read_acquire(&cpu_buffer->head));
	/* Pairs with smp_store_release() in rtb_publish_commits(). */
	commit_seq = smp_load_acquire(&cpu_buffer->commit_seq);
	if (!cpu_buffer->nr_pages || commit_seq >= cpu_buffer->seq_end ||
	    head_seq >= cpu_buffer->seq_end ||
	    rtb_seq_before(cpu_buffer, commit_seq, head_seq)) {
		rtb_dump_bad(it, commit_seq, 0);
		return 0;
	}
	it->last_seq = commit_seq;
	it->seq = head_seq;
	if (it->locked && cpu_buffer->rd_off < cpu_buffer->rd_end) {
		/* Unread records in the reader page come first. */
		if (cpu_buffer->rd_end > RTB_PAGE_DATA_SIZE ||
		    cpu_buffer->rd_off % RTB_ALIGN) {
			rtb_dump_bad(it, head_seq, cpu_buffer->rd_off);
			return 0;
		}
		it->in_reader_page = true;
		it->page = cpu_buffer->rpage;
		it->off = cpu_buffer->rd_off;
		it->end = cpu_buffer->rd_end;
		it->ts = cpu_buffer->rd_ts;
		return 0;
	}
	rtb_dump_enter(it, head_seq);
	return 0;
}
EXPORT_SYMBOL_GPL(rtb_dump_start);

/**
 * rtb_dump_peek() - find the walk's next record
 * @it: the walk
 * @ts: receives the record's time stamp (ns)
 *
 * Skips padding and time extends; stops for good at the end of the
 * committed records or at the first record that does not parse.
 *
 * Return: true if there is a record, for rtb_dump_take() or
 * rtb_dump_skip(); false at the end of the walk.
 */
bool rtb_dump_peek(struct rtb_dump_iter *it, u64 *ts)
{
	struct rtb_event *event;
	unsigned int len, type;
	u64 delta;

	if (!it->cpu_buffer || (it->status & RTB_DUMP_BAD))
		return false;
	while (!it->peeked) {
		if (it->off >= it->end) {
			if (!rtb_dump_next_page(it))
				return false;
			continue;
		}
		event = rtb_event_at(it->page, it->off);
		len = rtb_event_decode(event, it->end - it->off, &type, &delta);
		if (!len || len % RTB_ALIGN ||
		    (type != RTB_TYPE_PADDING && len < RTB_MIN_EVENT_SIZE)) {
			/* Rewritten under us, or broken. */
			if (!it->in_reader_page && rtb_dump_page_gone(it)) {
				if (!rtb_dump_resync(it))
					return false;
				continue;
			}
			rtb_dump_bad(it, it->in_reader_page ? ULONG_MAX :
				     it->seq, it->off);
			return false;
		}
		if (type == RTB_TYPE_DATA) {
			it->ev_off = it->off;
			it->ev_len = len;
			it->ev_ts = it->ts + delta;
			it->peeked = true;
			break;
		}
		/* TIME_EXTEND, or PADDING (a discarded record keeps its delta). */
		it->ts += delta;
		it->off += len;
	}
	*ts = it->ev_ts;
	return true;
}
EXPORT_SYMBOL_GPL(rtb_dump_peek);

/* Past the record peeked. */
static void rtb_dump_advance(struct rtb_dump_iter *it)
{
	it->peeked = false;
	it->ts = it->ev_ts;
	it->off = it->ev_off + it->ev_len;
}

/**
 * rtb_dump_take() - copy the record rtb_dump_peek() found, and go past it
 * @it: the walk
 * @copy: receives the record, header included
 * @size: bytes at @copy; %PAGE_SIZE holds any record
 *
 * The record is used from the copy: the page it is in may be rewritten
 * by a writer still running on another CPU after an oops, and the copy
 * is checked to be whole (the page was still in the ring after it was
 * made, and it parses as the record peeked).
 *
 * Return: @copy as a record, or NULL if there was none or it was lost
 * to a writer meanwhile.
 */
struct rtb_event *rtb_dump_take(struct rtb_dump_iter *it, void *copy,
				unsigned int size)
{
	unsigned int len = it->ev_len, type;
	u64 delta;

	if (!it->peeked)
		return NULL;
	rtb_dump_advance(it);
	if (len > size)
		return NULL;
	memcpy(copy, rtb_event_at(it->page, it->ev_off), len);
	if (!it->in_reader_page) {
		/* The copy before the head: pairs with the writer's cmpxchg. */
		smp_rmb();
		if (rtb_dump_page_gone(it)) {
			rtb_dump_resync(it);
			return NULL;
		}
	}
	if (rtb_event_decode(copy, len, &type, &delta) != len ||
	    type != RTB_TYPE_DATA)
		return NULL;
	return copy;
}
EXPORT_SYMBOL_GPL(rtb_dump_take);

/**
 * rtb_dump_skip() - go past the record rtb_dump_peek() found
 * @it: the walk
 */
void rtb_dump_skip(struct rtb_dump_iter *it)
{
	if (it->peeked)
		rtb_dump_advance(it);
}
EXPORT_SYMBOL_GPL(rtb_dump_skip);

/**
 * rtb_dump_finish() - end a walk: give the reader lock back if it has it
 * @it: the walk; its @status stays for the caller to report
 */
void rtb_dump_finish(struct rtb_dump_iter *it)
{
	if (it->cpu_buffer && it->locked) {
		/* Taken in rtb_dump_start(). */
		__acquire(&it->cpu_buffer->reader_lock);
		raw_spin_unlock(&it->cpu_buffer->reader_lock);
	}
	it->locked = false;
	it->peeked = false;
}
EXPORT_SYMBOL_GPL(rtb_dump_finish);
