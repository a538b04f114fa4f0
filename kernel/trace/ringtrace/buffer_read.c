// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace buffer readers: consuming reads (peek, consume, whole pages)
 * and non-consuming iterators.
 *
 * A consuming reader owns one page, the reader page, and reads only from
 * it.  It refills it in one of two ways.  When the head page (the oldest in
 * the ring) is behind the commit page, the reader swaps its page with the
 * head page: a cmpxchg of the head word claims it, a cmpxchg of the ring
 * slot installs the reader's page.  When the head page is the page writers
 * are still committing to, the reader copies the committed records out and
 * then adds their count to the head word with a cmpxchg that also proves
 * the page was not overwritten meanwhile.  Either way writers never wait.
 */

#include <linux/export.h>
#include <linux/hardirq.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "buffer_internal.h"

struct rtb_iter {
	struct rtb_cpu_buffer	*cpu_buffer;
	unsigned long		read_gen;
	/* Not positioned yet: the first use starts at the oldest record. */
	bool			fresh;
	/* Reading the reader page, or ring page @seq. */
	bool			in_reader_page;
	unsigned long		seq;
	struct rtb_page		*page;
	unsigned int		off;
	unsigned int		end;
	u64			ts;
};

/* Put the reader's page back in its initial, empty state. */
void rtb_reader_reset(struct rtb_cpu_buffer *cpu_buffer)
{
	rtb_reset_page(cpu_buffer->rpage);
	cpu_buffer->rd_off = 0;
	cpu_buffer->rd_end = 0;
	cpu_buffer->rd_ts = 0;
	cpu_buffer->rd_whole = false;
	cpu_buffer->partial_seq = ULONG_MAX;
	cpu_buffer->partial_off = 0;
	cpu_buffer->partial_ts = 0;
	cpu_buffer->read = 0;
	cpu_buffer->dropped_seen = 0;
	cpu_buffer->overruns_seen = 0;
	cpu_buffer->lost_pending = 0;
	cpu_buffer->read_gen++;
}

/*
 * The reader moves on to a page it has read nothing of: account what was
 * lost before it, to be reported with its first record.  Dropped records
 * are those counted before the page became the write page (its mark: a
 * drop happens at the write position).  Overruns are of pages before the
 * head: @overruns is their count read before the reader's cmpxchg of the
 * head word that took the page, so that pages writers overwrite after the
 * page (pushing the head on) are reported with the page after them.  (One
 * a writer is still adding as the head moves shows with the next page.)
 * Under reader_lock.
 */
static void rtb_reader_enter_page(struct rtb_cpu_buffer *cpu_buffer,
				  struct rtb_page *page, unsigned long overruns)
{
	unsigned long dropped = READ_ONCE(page->dropped_mark);

	/* Marks only grow, but a page may be skipped: they are totals. */
	if ((long)(dropped - cpu_buffer->dropped_seen) > 0) {
		cpu_buffer->lost_pending += dropped - cpu_buffer->dropped_seen;
		cpu_buffer->dropped_seen = dropped;
	}
	cpu_buffer->lost_pending += overruns - cpu_buffer->overruns_seen;
	cpu_buffer->overruns_seen = overruns;
}

/* Swap the reader page with head page @head.  Under reader_lock. */
static bool rtb_claim_head(struct rtb_cpu_buffer *cpu_buffer, long head)
{
	unsigned long seq = rtb_head_seq(head);
	unsigned long slot = seq % cpu_buffer->nr_pages;
	unsigned int gen = (rtb_head_gen(head) + 1) & RTB_HEAD_GEN_MASK;
	struct rtb_page *spare = cpu_buffer->rpage;
	struct rtb_swap *swap = &cpu_buffer->swap;
	struct rtb_page *old = READ_ONCE(cpu_buffer->ring[slot]);
	bool partial = cpu_buffer->partial_seq == seq;
	/* Overruns before the page: see rtb_reader_enter_page(). */
	unsigned long overruns = READ_ONCE(cpu_buffer->overruns);

	/*
	 * @spare needs no emptying: a writer does that when it reaches it.
	 * On fixed pages what outlives the kernel reads every ring page:
	 * @spare's records, consumed or copies, go now.
	 */
	if (cpu_buffer->fixed_reader) {
		WRITE_ONCE(spare->data->commit, 0);
		/* Empty before it is in the ring, for a kernel stopped between. */
		barrier();
	}

	/* Publish the swap for writers that may have to finish it. */
	WRITE_ONCE(swap->gen, RTB_SWAP_WRITING);
	/* Pairs with smp_rmb() in rtb_help_swap(): marker before fields. */
	smp_wmb();
	WRITE_ONCE(swap->slot, slot);
	WRITE_ONCE(swap->old, old);
	WRITE_ONCE(swap->new, spare);
	/* Pairs with smp_load_acquire() in rtb_help_swap(). */
	smp_store_release(&swap->gen, gen);

	/* Fully ordered: a writer that sees the claim sees @swap. */
	if (!atomic_long_try_cmpxchg(&cpu_buffer->head, &head,
				     rtb_head_make(rtb_seq_next(cpu_buffer, seq),
						   gen, true, 0)))
		return false;
	rtb_reader_at(cpu_buffer, RTB_WINDOW_CLAIMED);
	/*
	 * A helping writer's cmpxchg can only store @spare too: a plain store
	 * cannot lose an update here.
	 */
	WRITE_ONCE(cpu_buffer->ring[slot], spare);
	/* Pairs with atomic_long_read_acquire() in rtb_prepare_page(). */
	smp_mb__before_atomic();
	atomic_long_andnot(RTB_HEAD_PENDING, &cpu_buffer->head);

	cpu_buffer->rpage = old;
	rtb_note_reader_page(cpu_buffer, old);
	/* Pairs with smp_store_release() in rtb_publish_commits(). */
	cpu_buffer->rd_end = smp_load_acquire(&old->data->commit);
	cpu_buffer->rd_whole = !partial;
	if (partial) {
		cpu_buffer->rd_off = cpu_buffer->partial_off;
		cpu_buffer->rd_ts = cpu_buffer->partial_ts;
	} else {
		cpu_buffer->rd_off = 0;
		cpu_buffer->rd_ts = old->data->time_stamp;
		rtb_reader_enter_page(cpu_buffer, old, overruns);
	}
	cpu_buffer->partial_seq = ULONG_MAX;
	return true;
}

/*
 * The offset after the PADDING record @event at @off of a range ending at
 * @end, adding its time delta to *@ts: a discarded record between others
 * (rtb_discard_commit()), or the padding that closes the page.  Anything
 * else there (TIME_STAMP, never written; a bad length) ends the range.
 */
static unsigned int rtb_skip_padding(struct rtb_event *event,
				     unsigned int off, unsigned int end,
				     u64 *ts)
{
	unsigned int len = __rtb_event_length(event);

	if (__rtb_event_type(event) != RTB_TYPE_PADDING ||
	    len < RTB_HEADER_SIZE || len > end - off)
		return end;
	*ts += __rtb_event_time_delta(event);
	return off + len;
}

/*
 * Walk the records of a range: count the DATA ones, find the time of the
 * last and where the records end before any trailing padding (@data_end,
 * may be NULL).  False if the range does not parse (it was being
 * rewritten under a copy).
 */
static bool rtb_scan_range(struct rtb_page *page, unsigned int off,
			   unsigned int end, u64 *ts, unsigned int *count,
			   unsigned int *data_end)
{
	struct rtb_event *event;
	unsigned int len;

	*count = 0;
	if (data_end)
		*data_end = off;
	while (off < end) {
		event = rtb_event_at(page, off);
		len = __rtb_event_length(event);
		if (len < RTB_HEADER_SIZE || len > end - off)
			return false;
		switch (__rtb_event_type(event)) {
		case RTB_TYPE_DATA:
			(*count)++;
			fallthrough;
		case RTB_TYPE_TIME_EXTEND:
		case RTB_TYPE_PADDING:	/* a discarded record keeps its delta */
			*ts += __rtb_event_time_delta(event);
			break;
		default:
			break;
		}
		off += len;
		if (data_end && __rtb_event_type(event) != RTB_TYPE_PADDING)
			*data_end = off;
	}
	return true;
}

/*
 * Copy the committed, unread records of the head page, which writers may
 * still be appending to.  Returns 1 if records were copied, 0 if there are
 * none, -EAGAIN if the page moved meanwhile.  Under reader_lock.
 */
static int rtb_copy_partial(struct rtb_cpu_buffer *cpu_buffer, long head)
{
	unsigned long seq = rtb_head_seq(head);
	struct rtb_page *page = rtb_ring_page(cpu_buffer, seq);
	struct rtb_page *rpage = cpu_buffer->rpage;
	bool partial = cpu_buffer->partial_seq == seq;
	unsigned int start = partial ? cpu_buffer->partial_off : 0;
	unsigned long overruns = READ_ONCE(cpu_buffer->overruns);
	unsigned int commit, count;
	u64 start_ts, ts;
	bool parsed;

	/* Pairs with smp_store_release() in rtb_publish_commits(). */
	commit = smp_load_acquire(&page->data->commit);
	if (commit <= start || commit > RTB_PAGE_DATA_SIZE)
		return 0;
	rtb_note_reader_copy(cpu_buffer);
	memcpy(&rpage->data->data[start], &page->data->data[start],
	       commit - start);
	start_ts = partial ? cpu_buffer->partial_ts :
			     READ_ONCE(page->data->time_stamp);
	ts = start_ts;
	parsed = rtb_scan_range(rpage, start, commit, &ts, &count, NULL);
	rtb_reader_at(cpu_buffer, RTB_WINDOW_COPIED);

	/*
	 * Account the copied records to the head page.  Success also proves
	 * that no writer pushed the head past the page while we copied.
	 */
	if (!atomic_long_try_cmpxchg(&cpu_buffer->head, &head, head + count)) {
		rtb_count_path(cpu_buffer, partial_discards);
		return -EAGAIN;
	}
	/* Committed records only change when the page is overwritten. */
	if (WARN_ON_ONCE(!parsed))
		return 0;

	if (!partial)
		rtb_reader_enter_page(cpu_buffer, page, overruns);
	cpu_buffer->partial_seq = seq;
	cpu_buffer->partial_off = commit;
	cpu_buffer->partial_ts = ts;
	if (!count) {
		unsigned long commit_seq;

		/* Pairs with smp_store_release() in rtb_publish_commits(). */
		commit_seq = smp_load_acquire(&cpu_buffer->commit_seq);
		/*
		 * Only padding was copied (the page's closing one, or
		 * discarded records): if the page is behind the commit page
		 * now, the reader can swap it out.
		 */
		return rtb_seq_before(cpu_buffer, seq, commit_seq) ? -EAGAIN : 0;
	}
	rpage->data->time_stamp = start_ts;
	cpu_buffer->rd_whole = false;
	cpu_buffer->rd_off = start;
	cpu_buffer->rd_end = commit;
	cpu_buffer->rd_ts = start_ts;
	return 1;
}

/* Give the reader page new records.  False if there are none. */
static bool rtb_reader_refill(struct rtb_cpu_buffer *cpu_buffer)
{
	unsigned long seq, commit_seq;
	long head;
	int ret;

	for (;;) {
		head = atomic_long_read_acquire(&cpu_buffer->head);
		seq = rtb_head_seq(head);
		/* Pairs with smp_store_release() in rtb_publish_commits(). */
		commit_seq = smp_load_acquire(&cpu_buffer->commit_seq);
		if (WARN_ON_ONCE(rtb_seq_before(cpu_buffer, commit_seq, seq)))
			return false;
		if (seq != commit_seq) {
			if (rtb_claim_head(cpu_buffer, head))
				break;
			continue;
		}
		ret = rtb_copy_partial(cpu_buffer, head);
		if (ret == -EAGAIN)
			continue;
		if (!ret)
			return false;
		break;
	}
	cpu_buffer->read_gen++;
	return true;
}

/* The next DATA record for a consuming reader.  Under reader_lock. */
static __always_inline struct rtb_event *
rtb_reader_next(struct rtb_cpu_buffer *cpu_buffer, u64 *ts, bool consume)
{
	struct rtb_event *event;

	for (;;) {
		if (cpu_buffer->rd_off >= cpu_buffer->rd_end) {
			if (!rtb_reader_refill(cpu_buffer))
				return NULL;
			continue;
		}
		event = rtb_event_at(cpu_buffer->rpage, cpu_buffer->rd_off);
		switch (__rtb_event_type(event)) {
		case RTB_TYPE_DATA:
			if (ts)
				*ts = cpu_buffer->rd_ts +
				      __rtb_event_time_delta(event);
			if (consume) {
				cpu_buffer->rd_ts += __rtb_event_time_delta(event);
				cpu_buffer->rd_off += __rtb_event_length(event);
				cpu_buffer->read++;
				cpu_buffer->read_gen++;
			}
			return event;
		case RTB_TYPE_TIME_EXTEND:
			cpu_buffer->rd_ts += __rtb_event_time_delta(event);
			cpu_buffer->rd_off += RTB_TIME_EXTEND_SIZE;
			break;
		default:
			/* Padding; TIME_STAMP is never written. */
			cpu_buffer->rd_off = rtb_skip_padding(event,
							      cpu_buffer->rd_off,
							      cpu_buffer->rd_end,
							      &cpu_buffer->rd_ts);
			break;
		}
	}
}

/**
 * rtb_peek() - look at the next record of a CPU buffer without consuming it
 * @buffer: the buffer
 * @cpu: the CPU buffer
 * @ts: if not NULL, receives the record's time stamp (ns)
 *
 * Any context.  In NMI it only tries the reader lock, and finds nothing
 * if another reader of this CPU buffer holds it, on any CPU: meant for
 * crash dumps, which cannot serialise with other readers.  The record
 * stays valid until the next read of this CPU buffer, by anyone: callers
 * serialise their readers.
 *
 * Return: the record, or NULL if the CPU buffer has none.
 */
struct rtb_event *rtb_peek(struct rtb_buffer *buffer, int cpu, u64 *ts)
{
	struct rtb_cpu_buffer *cpu_buffer = rtb_cpu_buffer(buffer, cpu);
	struct rtb_event *event;
	unsigned long flags;

	if (!cpu_buffer)
		return NULL;
	/* In NMI we may have interrupted a reader: only try the lock. */
	if (unlikely(in_nmi())) {
		if (!raw_spin_trylock_irqsave(&cpu_buffer->reader_lock, flags))
			return NULL;
	} else {
		raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	}
	event = rtb_reader_next(cpu_buffer, ts, false);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return event;
}
EXPORT_SYMBOL_GPL(rtb_peek);

/**
 * rtb_consume() - take the next record out of a CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 * @ts: if not NULL, receives the record's time stamp (ns)
 * @lost_events: if not NULL, receives the number of records lost
 *	(overwritten or dropped) just before the record returned: reported
 *	with the first record of the page they precede, never without one
 *
 * Any context, like rtb_peek(); never stalls writers.  The record lives in
 * the reader's own page and stays valid until the next read of this CPU
 * buffer, by anyone: callers serialise their readers.
 *
 * Return: the record, or NULL if the CPU buffer has none.
 */
struct rtb_event *rtb_consume(struct rtb_buffer *buffer, int cpu, u64 *ts,
			      unsigned long *lost_events)
{
	struct rtb_cpu_buffer *cpu_buffer = rtb_cpu_buffer(buffer, cpu);
	struct rtb_event *event;
	unsigned long flags, lost = 0;

	if (lost_events)
		*lost_events = 0;
	if (!cpu_buffer)
		return NULL;
	/* In NMI we may have interrupted a reader: only try the lock. */
	if (unlikely(in_nmi())) {
		if (!raw_spin_trylock_irqsave(&cpu_buffer->reader_lock, flags))
			return NULL;
	} else {
		raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	}
	event = rtb_reader_next(cpu_buffer, ts, true);
	if (event) {
		lost = cpu_buffer->lost_pending;
		cpu_buffer->lost_pending = 0;
	}
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	if (lost_events)
		*lost_events = lost;
	return event;
}
EXPORT_SYMBOL_GPL(rtb_consume);

/*
 * Hand the whole reader page to a page reader: swap its memory with the
 * caller's page.  Returns the bytes of records.  Under reader_lock.
 */
static unsigned int rtb_give_reader_page(struct rtb_cpu_buffer *cpu_buffer,
					 struct rtb_data_page **page,
					 unsigned int *count)
{
	struct rtb_page *rpage = cpu_buffer->rpage;
	struct rtb_data_page *data = rpage->data;
	/* The page reader's view leaves the closing padding out. */
	unsigned int end = rpage->real_end;

	*count = local_read(&rpage->entries);
	rpage->data = *page;
	/* The caller's page: whatever it held, it starts empty here. */
	rtb_reset_page(rpage);
	*page = data;
	cpu_buffer->rd_off = cpu_buffer->rd_end;
	cpu_buffer->rd_whole = false;
	return end;
}

/* Copy the unread records of the reader page.  Under reader_lock. */
static unsigned int rtb_copy_reader_page(struct rtb_cpu_buffer *cpu_buffer,
					 struct rtb_data_page *page,
					 unsigned int *count)
{
	unsigned int off = cpu_buffer->rd_off, end = cpu_buffer->rd_end;
	unsigned int data_end;
	u64 ts = cpu_buffer->rd_ts;

	rtb_scan_range(cpu_buffer->rpage, off, end, &ts, count, &data_end);
	memcpy(page->data, &cpu_buffer->rpage->data->data[off], data_end - off);
	page->time_stamp = cpu_buffer->rd_ts;
	cpu_buffer->rd_off = end;
	cpu_buffer->rd_ts = ts;
	return data_end - off;
}

/*
 * Ring pages from the head page to the commit page, both counted: an
 * upper bound of the pages holding committed, unread records (the commit
 * page may hold none yet).  Head first: it never passes commit_seq, so a
 * later commit_seq cannot make the distance wrap.
 */
static unsigned int rtb_ring_span(struct rtb_cpu_buffer *cpu_buffer,
				  unsigned long *commit_seq)
{
	/* Pairs with the reader's cmpxchg and release in rtb_claim_head(). */
	unsigned long head = rtb_head_seq(atomic_long_read_acquire(&cpu_buffer->head));
	unsigned long pages;

	/* Pairs with smp_store_release() in rtb_publish_commits(). */
	*commit_seq = smp_load_acquire(&cpu_buffer->commit_seq);
	if (rtb_seq_before(cpu_buffer, *commit_seq, head))
		return 0;
	pages = *commit_seq >= head ? *commit_seq - head :
				      *commit_seq + cpu_buffer->seq_end - head;
	return min_t(unsigned long, pages + 1, cpu_buffer->nr_pages);
}

/*
 * Whether a whole page is there for a page reader: an untouched reader
 * page, or none left in it and a page behind the writers' one.  Under
 * reader_lock.
 */
static bool rtb_whole_page_ready(struct rtb_cpu_buffer *cpu_buffer)
{
	unsigned long commit_seq;

	/*
	 * An untouched reader page; or what is left of one (another reader
	 * took some records, or a peek copied part of the writers' page)
	 * once writers have left a page behind: it is not getting fuller.
	 */
	if (cpu_buffer->rd_off < cpu_buffer->rd_end &&
	    cpu_buffer->rd_whole && !cpu_buffer->rd_off)
		return true;
	return rtb_ring_span(cpu_buffer, &commit_seq) > 1;
}

/* Whether the reader page is a copy of the page writers are on. */
static bool rtb_reading_writers_page(struct rtb_cpu_buffer *cpu_buffer)
{
	unsigned long commit_seq;

	if (cpu_buffer->rd_whole)
		return false;
	/* Pairs with smp_store_release() in rtb_publish_commits(). */
	commit_seq = smp_load_acquire(&cpu_buffer->commit_seq);
	return cpu_buffer->partial_seq == commit_seq;
}

static int __rtb_read_page(struct rtb_buffer *buffer, int cpu,
			   struct rtb_data_page **page, bool whole)
{
	struct rtb_cpu_buffer *cpu_buffer = rtb_cpu_buffer(buffer, cpu);
	unsigned long flags, lost, commit, end;
	struct rtb_data_page *out;
	unsigned int count;

	if (!cpu_buffer)
		return -EAGAIN;
	/* In NMI we may have interrupted a reader: only try the lock. */
	if (unlikely(in_nmi())) {
		if (!raw_spin_trylock_irqsave(&cpu_buffer->reader_lock, flags))
			return -EAGAIN;
	} else {
		raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	}
	/*
	 * Skip to the next DATA record, refilling if needed.  A page reader
	 * that wants whole pages does not get a copy of the page writers
	 * are on (refill's last resort, past pages of padding only): the
	 * copy stays in the reader page for later.
	 */
	if ((whole && !rtb_whole_page_ready(cpu_buffer)) ||
	    !rtb_reader_next(cpu_buffer, NULL, false) ||
	    (whole && rtb_reading_writers_page(cpu_buffer))) {
		raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
		return -EAGAIN;
	}
	/* Fixed pages stay where they are: their readers get copies. */
	if (cpu_buffer->rd_whole && !cpu_buffer->rd_off && !buffer->fixed)
		commit = rtb_give_reader_page(cpu_buffer, page, &count);
	else
		commit = rtb_copy_reader_page(cpu_buffer, *page, &count);
	cpu_buffer->read += count;
	cpu_buffer->read_gen++;
	lost = cpu_buffer->lost_pending;
	cpu_buffer->lost_pending = 0;
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);

	out = *page;
	out->commit = commit;
	end = commit;
	if (lost) {
		out->commit |= RTB_PAGE_MISSED_EVENTS;
		if (RTB_PAGE_DATA_SIZE - commit >= sizeof(lost)) {
			memcpy(&out->data[commit], &lost, sizeof(lost));
			out->commit |= RTB_PAGE_MISSED_STORED;
			end += sizeof(lost);
		}
	}
	memset(&out->data[end], 0, RTB_PAGE_DATA_SIZE - end);
	return commit;
}

/**
 * rtb_read_page() - take the next data page out of a CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 * @page: in: a page from __get_free_page(), owned by the caller; out: the
 *	page holding the records, which may be another page of the same
 *	kind (the buffer keeps the one passed in).  Free it with free_page().
 *
 * Consumes the records the reader page holds (a whole ring page, or what
 * is committed of the page writers are on) and hands them out in the data
 * page layout, ready for trace_pipe_raw; the commit word leaves out the
 * padding that closed the page.  A whole unread page is handed out without
 * copying.  If records were lost just before the page's first record, bit
 * 31 of the commit word says so and, when there is room, bit 30 says their
 * count follows the last record.  Every byte after that is zero: nothing
 * of older records or of the caller's page leaves.  Any context, like
 * rtb_peek().
 *
 * Return: bytes of records in *@page, or -EAGAIN if there are none.
 */
int rtb_read_page(struct rtb_buffer *buffer, int cpu,
		  struct rtb_data_page **page)
{
	return __rtb_read_page(buffer, cpu, page, false);
}
EXPORT_SYMBOL_GPL(rtb_read_page);

/**
 * rtb_read_full_page() - rtb_read_page(), of a page writers are done with
 * @buffer: the buffer
 * @cpu: the CPU buffer
 * @page: as for rtb_read_page()
 *
 * Hands out only a page writers have left (what other readers left of
 * it), never a copy of part of the page they write: what splicing readers
 * want while tracing runs, so that a reader keeping up does not save many
 * nearly empty pages.
 *
 * Return: as rtb_read_page(); -EAGAIN if no whole page is there.
 */
int rtb_read_full_page(struct rtb_buffer *buffer, int cpu,
		       struct rtb_data_page **page)
{
	return __rtb_read_page(buffer, cpu, page, true);
}
EXPORT_SYMBOL_GPL(rtb_read_full_page);

/**
 * rtb_cpu_filled() - how many pages of a CPU buffer hold unread records
 * @buffer: the buffer
 * @cpu: the CPU buffer
 * @nr_pages: receives its number of pages
 * @whole: receives how many of them rtb_read_full_page() would hand out
 *
 * Counts the ring pages from the oldest to the one writers commit to,
 * that one only if it holds a record not copied out yet, and the reader
 * page if a record in it is unread: what a reader waiting for a watermark
 * compares with @nr_pages.  Process or interrupt context, not NMI.
 *
 * Return: the pages, 0 for a bad @cpu.
 */
unsigned int rtb_cpu_filled(struct rtb_buffer *buffer, int cpu,
			    unsigned int *nr_pages, unsigned int *whole)
{
	struct rtb_cpu_buffer *cpu_buffer = rtb_cpu_buffer(buffer, cpu);
	unsigned long flags, commit_seq;
	unsigned int pages, commit;

	*nr_pages = 0;
	*whole = 0;
	if (!cpu_buffer)
		return 0;
	/* Keeps resize and page readers from the pages we look at. */
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	pages = rtb_ring_span(cpu_buffer, &commit_seq);
	/* The pages behind the writers' page, and an untouched reader page. */
	*whole = (pages ? pages - 1 : 0) +
		 (cpu_buffer->rd_whole && !cpu_buffer->rd_off &&
		  cpu_buffer->rd_off < cpu_buffer->rd_end);
	if (pages) {
		/* Pairs with smp_store_release() in rtb_publish_commits(). */
		commit = smp_load_acquire(&rtb_ring_page(cpu_buffer,
							 commit_seq)->data->commit);
		if (!commit || (cpu_buffer->partial_seq == commit_seq &&
				cpu_buffer->partial_off >= commit))
			pages--;
	}
	if (cpu_buffer->rd_off < cpu_buffer->rd_end)
		pages++;
	*nr_pages = cpu_buffer->nr_pages;
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return min(pages, *nr_pages);
}
EXPORT_SYMBOL_GPL(rtb_cpu_filled);

/**
 * rtb_writer_filled() - rtb_cpu_filled() for a writer of this CPU, roughly
 * @buffer: the buffer
 * @nr_pages: receives the number of pages of this CPU's buffer
 *
 * Takes no lock: for a writer between rtb_lock_reserve() and the end of
 * the preemption-off section its commit is in (resize waits for those), so
 * any context.  Counts the commit page as filled and leaves the reader
 * page out: an estimate for waking readers, who look again exactly.
 *
 * Return: ring pages from the oldest to the commit page.
 */
unsigned int rtb_writer_filled(struct rtb_buffer *buffer,
			       unsigned int *nr_pages)
{
	struct rtb_cpu_buffer *cpu_buffer;
	unsigned long commit_seq;

	cpu_buffer = READ_ONCE(buffer->cpus[raw_smp_processor_id()]);
	*nr_pages = cpu_buffer->nr_pages;
	return rtb_ring_span(cpu_buffer, &commit_seq);
}
EXPORT_SYMBOL_GPL(rtb_writer_filled);

/**
 * rtb_empty_cpu() - whether a CPU buffer has no record to read
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Return: true if a consuming read would find nothing.
 */
bool rtb_empty_cpu(struct rtb_buffer *buffer, int cpu)
{
	return !rtb_peek(buffer, cpu, NULL);
}
EXPORT_SYMBOL_GPL(rtb_empty_cpu);

/**
 * rtb_empty() - whether no CPU buffer has a record to read
 * @buffer: the buffer
 *
 * Return: true if every CPU buffer is empty.
 */
bool rtb_empty(struct rtb_buffer *buffer)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (!rtb_empty_cpu(buffer, cpu))
			return false;
	return true;
}
EXPORT_SYMBOL_GPL(rtb_empty);

/* Position @iter at the start of ring page @seq.  Under reader_lock. */
static void rtb_iter_set_page(struct rtb_iter *iter, unsigned long seq)
{
	struct rtb_cpu_buffer *cpu_buffer = iter->cpu_buffer;

	iter->in_reader_page = false;
	iter->seq = seq;
	iter->page = rtb_ring_page(cpu_buffer, seq);
	/* Pairs with smp_store_release() in rtb_publish_commits(). */
	iter->end = smp_load_acquire(&iter->page->data->commit);
	if (cpu_buffer->partial_seq == seq) {
		iter->off = cpu_buffer->partial_off;
		iter->ts = cpu_buffer->partial_ts;
	} else {
		iter->off = 0;
		iter->ts = iter->page->data->time_stamp;
	}
}

static void rtb_iter_reset_locked(struct rtb_iter *iter)
{
	struct rtb_cpu_buffer *cpu_buffer = iter->cpu_buffer;

	iter->fresh = false;
	iter->read_gen = cpu_buffer->read_gen;
	iter->in_reader_page = true;
	iter->page = cpu_buffer->rpage;
	iter->off = cpu_buffer->rd_off;
	iter->end = cpu_buffer->rd_end;
	iter->ts = cpu_buffer->rd_ts;
}

/* The next DATA record of the iterator.  Under reader_lock. */
static struct rtb_event *rtb_iter_next(struct rtb_iter *iter, u64 *ts,
				       bool advance)
{
	struct rtb_cpu_buffer *cpu_buffer = iter->cpu_buffer;
	unsigned long seq;
	struct rtb_event *event;

	if (iter->fresh || iter->read_gen != cpu_buffer->read_gen)
		rtb_iter_reset_locked(iter);
	for (;;) {
		if (iter->off >= iter->end) {
			seq = iter->in_reader_page ?
			      rtb_head_seq(atomic_long_read(&cpu_buffer->head)) :
			      rtb_seq_next(cpu_buffer, iter->seq);
			if (rtb_seq_before(cpu_buffer,
					   READ_ONCE(cpu_buffer->commit_seq), seq))
				return NULL;
			rtb_iter_set_page(iter, seq);
			continue;
		}
		event = rtb_event_at(iter->page, iter->off);
		switch (__rtb_event_type(event)) {
		case RTB_TYPE_DATA:
			if (ts)
				*ts = iter->ts + __rtb_event_time_delta(event);
			if (advance) {
				iter->ts += __rtb_event_time_delta(event);
				iter->off += __rtb_event_length(event);
			}
			return event;
		case RTB_TYPE_TIME_EXTEND:
			iter->ts += __rtb_event_time_delta(event);
			iter->off += RTB_TIME_EXTEND_SIZE;
			break;
		default:
			iter->off = rtb_skip_padding(event, iter->off, iter->end,
						     &iter->ts);
			break;
		}
	}
}

/**
 * rtb_read_prepare() - set up a non-consuming iterator, without waiting
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Like rtb_read_start(), but returns before the writers already in
 * flight on @cpu are done: call rtb_read_prepare_sync() once, for any
 * number of iterators prepared, before using them.  Opening iterators on
 * every CPU then waits for writers once instead of once per CPU.  May
 * sleep.
 *
 * Return: the iterator, or NULL on a bad @cpu or no memory.
 */
struct rtb_iter *rtb_read_prepare(struct rtb_buffer *buffer, int cpu)
{
	struct rtb_cpu_buffer *cpu_buffer;
	struct rtb_iter *iter;
	unsigned long flags;

	if (!rtb_cpu_buffer(buffer, cpu))
		return NULL;
	iter = kzalloc(sizeof(*iter), GFP_KERNEL);
	if (!iter)
		return NULL;
	/*
	 * The mutex pairs with the iterator check in rtb_resize(); the
	 * swap_lock keeps rtb_swap_cpu() from moving the CPU buffer between
	 * our read and the disable, after which it refuses.
	 */
	mutex_lock(&buffer->mutex);
	raw_spin_lock_irqsave(&buffer->swap_lock, flags);
	cpu_buffer = buffer->cpus[cpu];
	atomic_inc(&cpu_buffer->iterators);
	atomic_inc(&cpu_buffer->record_disabled);
	raw_spin_unlock_irqrestore(&buffer->swap_lock, flags);
	mutex_unlock(&buffer->mutex);
	iter->cpu_buffer = cpu_buffer;
	iter->fresh = true;
	return iter;
}
EXPORT_SYMBOL_GPL(rtb_read_prepare);

/**
 * rtb_read_prepare_sync() - wait for the writers iterators must not race
 *
 * Writers run with preemption off: one grace period waits for every
 * writer that started before the rtb_read_prepare() calls disabled
 * recording.  May sleep.
 */
void rtb_read_prepare_sync(void)
{
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(rtb_read_prepare_sync);

/**
 * rtb_read_start() - start a non-consuming iterator over a CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * As in the spec, recording on @cpu stops until rtb_read_finish(), so that
 * nothing the iterator reads is overwritten, and rtb_resize() refuses
 * (-EBUSY) meanwhile, so that the pages stay.  Waits for writers in
 * flight: may sleep.
 *
 * Return: the iterator, or NULL on a bad @cpu or no memory.
 */
struct rtb_iter *rtb_read_start(struct rtb_buffer *buffer, int cpu)
{
	struct rtb_iter *iter = rtb_read_prepare(buffer, cpu);

	if (iter)
		rtb_read_prepare_sync();
	return iter;
}
EXPORT_SYMBOL_GPL(rtb_read_start);

/**
 * rtb_read_finish() - end an iterator and let its CPU record again
 * @iter: the iterator; freed
 */
void rtb_read_finish(struct rtb_iter *iter)
{
	/* Release: pairs with the writers' acquire of the flag. */
	smp_mb__before_atomic();
	atomic_dec(&iter->cpu_buffer->record_disabled);
	atomic_dec(&iter->cpu_buffer->iterators);
	kfree(iter);
}
EXPORT_SYMBOL_GPL(rtb_read_finish);

static struct rtb_event *rtb_iter_locked(struct rtb_iter *iter, u64 *ts,
					 bool advance)
{
	struct rtb_cpu_buffer *cpu_buffer = iter->cpu_buffer;
	struct rtb_event *event;
	unsigned long flags;

	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	event = rtb_iter_next(iter, ts, advance);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return event;
}

/**
 * rtb_iter_peek() - the iterator's next record, without advancing
 * @iter: the iterator
 * @ts: if not NULL, receives the record's time stamp (ns)
 *
 * Return: the record, or NULL at the end of the CPU buffer.
 */
struct rtb_event *rtb_iter_peek(struct rtb_iter *iter, u64 *ts)
{
	return rtb_iter_locked(iter, ts, false);
}
EXPORT_SYMBOL_GPL(rtb_iter_peek);

/**
 * rtb_read() - the iterator's next record, advancing past it
 * @iter: the iterator
 * @ts: if not NULL, receives the record's time stamp (ns)
 *
 * A consuming read on the same CPU buffer meanwhile restarts the iterator
 * at the new oldest record.
 *
 * Return: the record, or NULL at the end of the CPU buffer.
 */
struct rtb_event *rtb_read(struct rtb_iter *iter, u64 *ts)
{
	return rtb_iter_locked(iter, ts, true);
}
EXPORT_SYMBOL_GPL(rtb_read);

/**
 * rtb_iter_reset() - move the iterator back to the oldest record
 * @iter: the iterator
 */
void rtb_iter_reset(struct rtb_iter *iter)
{
	struct rtb_cpu_buffer *cpu_buffer = iter->cpu_buffer;
	unsigned long flags;

	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	rtb_iter_reset_locked(iter);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
}
EXPORT_SYMBOL_GPL(rtb_iter_reset);

/**
 * rtb_iter_empty() - whether the iterator is at the end of its CPU buffer
 * @iter: the iterator
 *
 * Return: true if rtb_read() would return NULL.
 */
bool rtb_iter_empty(struct rtb_iter *iter)
{
	return !rtb_iter_peek(iter, NULL);
}
EXPORT_SYMBOL_GPL(rtb_iter_empty);
