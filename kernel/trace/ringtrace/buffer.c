// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace buffer: per-CPU lockless ring buffer (Documentation/trace/ringtrace-buffer.rst).
 *
 * This file sets buffers up and controls them; writers live in
 * buffer_write.c, readers in buffer_read.c.
 *
 * Pages and sequence numbers
 * --------------------------
 * Each CPU has nr_pages data pages in a ring, plus one reader page that
 * belongs to whoever consumes.  Pages are named by sequence numbers that
 * advance (and wrap at rtb_seq_end(), a multiple of nr_pages): page s
 * lives in ring slot s % nr_pages.  Three numbers describe a CPU buffer,
 * always head <= commit <= write in sequence order:
 *
 *      head                commit            write
 *       |                    |                 |
 *   ... [ oldest ][ full ]...[ commit page ]...[ write page ][ free ] ...
 *       '--- readable -------------'   '- reserved, not yet committed -'
 *
 * - the write word: where the next record goes.  Owned by the CPU.
 * - commit_seq: pages before it hold only committed records; the commit
 *   word of each page says how many of its bytes are committed.
 * - the head word (atomic): the oldest page still in the ring, how many of
 *   its records a reader already copied out, and a pending reader swap.
 *
 * Writers
 * -------
 * Only the owning CPU writes its buffer, but writers nest: task, softirq,
 * hardirq, NMI.  Each active writer has a depth (the count of writers
 * between reserve and commit when it started).  A reservation reads the
 * write word, reads the time stamp of the record before it (each write word
 * names the depth and slot where its writer left that record's time), reads
 * the clock, writes its own time in a free slot of its depth, and moves the
 * write word with one local_cmpxchg().  A writer that nested meanwhile
 * changed the word, so the cmpxchg fails and the reservation starts over:
 * time deltas are always exact, with no lock and no interrupt disabling.
 *
 * Moving to the next page needs that page's slot free: in producer/consumer
 * mode the writer drops the record if the head page is still there; in
 * overwrite mode it pushes the head forward with a cmpxchg and counts the
 * records of the page it drops as overruns.  A writer never steps onto the
 * commit page: an interrupted writer still fills a record there.  The move
 * cannot be retried halfway, so it runs with interrupts off under a mark in
 * the write word; an NMI writer that finds the mark drops its record.
 *
 * Between reservation and commit anything may nest.  Only the outermost
 * commit publishes: it sets the commit words of every page up to the write
 * position, then commit_seq (store-release), and retries if a writer
 * nested meanwhile.  Records thus become visible in buffer order.
 *
 * Readers
 * -------
 * Consuming readers serialise on a per-CPU raw spinlock and read only
 * their reader page.  If the head page is behind the commit page the
 * reader swaps its (empty) page with it: one cmpxchg of the head word
 * claims the page (head + 1, swap pending), one cmpxchg of the ring slot
 * installs the reader's page, then the pending bit is cleared.  A writer
 * that needs that slot while the swap is pending performs the same slot
 * cmpxchg itself (struct rtb_swap tells it how), so it never waits.
 * If the head page is the commit page, writers are still on it: the reader
 * copies its committed records out, then adds their count to the head word
 * by a cmpxchg that fails if a writer pushed the head meanwhile (the copy
 * is then discarded: those records were counted as overruns).
 *
 * Accounting: per CPU, written = entries + overruns + dropped + read +
 * discarded at any quiescent point, where written counts every write
 * attempt made while recording was enabled.
 *
 * Discarding
 * ----------
 * A writer may give a reservation up (a filter rejected the record it
 * built in place).  If nothing was reserved after it, the write word goes
 * back to where the reservation found it and the space is reused; else
 * the record becomes a PADDING record of the same size that keeps its time
 * delta, which readers skip (the spec's PADDING only closes a page; this
 * one may sit between records).
 */

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "buffer_internal.h"

/* A ring needs a page to write while the oldest one is read or dropped. */
#define RTB_MIN_PAGES	2

/*
 * Buffer pages are the user's to size: a size the machine cannot give
 * fails with ENOMEM, it never wakes the OOM killer.
 */
#define RTB_GFP		(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

static unsigned int rtb_pages_for(unsigned long size)
{
	return max_t(unsigned long, RTB_MIN_PAGES,
		     DIV_ROUND_UP(size, RTB_PAGE_DATA_SIZE));
}

static void rtb_free_page(struct rtb_page *page)
{
	if (!page)
		return;
	/* A fixed page's memory is the buffer's owner's. */
	if (page->fixed_slot < 0)
		free_page((unsigned long)page->data);
	kfree(page);
}

static struct rtb_page *rtb_alloc_page(int cpu)
{
	struct rtb_page *page;
	struct page *data;

	page = kzalloc_node(sizeof(*page), RTB_GFP, cpu_to_node(cpu));
	if (!page)
		return NULL;
	/* Zeroed: no earlier owner's bytes ever reach a page reader. */
	data = alloc_pages_node(cpu_to_node(cpu), RTB_GFP | __GFP_ZERO, 0);
	if (!data) {
		kfree(page);
		return NULL;
	}
	page->data = page_address(data);
	page->fixed_slot = -1;
	rtb_reset_page(page);
	return page;
}

/* A page of its CPU's slice of fixed memory, not yet touched. */
static struct rtb_page *rtb_fixed_page(void *slice, unsigned int slot, int cpu)
{
	struct rtb_page *page;

	page = kzalloc_node(sizeof(*page), RTB_GFP, cpu_to_node(cpu));
	if (!page)
		return NULL;
	page->data = slice + (unsigned long)slot * PAGE_SIZE;
	page->fixed_slot = slot;
	/* Emptied by rtb_use_fixed_pages(), once it may use the memory. */
	return page;
}

/* The pages of a CPU buffer, allocated apart so resize can fail cleanly. */
struct rtb_pages {
	unsigned int	nr_pages;
	struct rtb_page	**ring;
	struct rtb_page	*rpage;
};

/* Free the pages; @pages is left empty, so freeing it again is harmless. */
static void rtb_pages_free(struct rtb_pages *pages)
{
	unsigned int i;

	if (pages->ring)
		for (i = 0; i < pages->nr_pages; i++)
			rtb_free_page(pages->ring[i]);
	kvfree(pages->ring);
	rtb_free_page(pages->rpage);
	pages->ring = NULL;
	pages->rpage = NULL;
	pages->nr_pages = 0;
}

/*
 * Allocate @nr_pages ring pages and a reader page for @cpu; with @slice,
 * made of its pages instead: the ring's first, the reader page last.
 */
static int rtb_pages_alloc(struct rtb_pages *pages, unsigned int nr_pages,
			   int cpu, void *slice)
{
	unsigned int i;

	pages->nr_pages = nr_pages;
	pages->rpage = NULL;
	/* nr_pages is bounded by rtb_pages_fit(): no overflow. */
	pages->ring = kvzalloc_node(array_size(nr_pages, sizeof(*pages->ring)),
				    RTB_GFP, cpu_to_node(cpu));
	if (!pages->ring)
		return -ENOMEM;
	for (i = 0; i < nr_pages; i++) {
		pages->ring[i] = slice ? rtb_fixed_page(slice, i, cpu) :
					 rtb_alloc_page(cpu);
		if (!pages->ring[i])
			goto fail;
	}
	pages->rpage = slice ? rtb_fixed_page(slice, nr_pages, cpu) :
			       rtb_alloc_page(cpu);
	if (!pages->rpage)
		goto fail;
	return 0;
fail:
	rtb_pages_free(pages);
	return -ENOMEM;
}

/*
 * Empty a CPU buffer no writer uses, under its reader_lock.  Only the
 * first write page is emptied: a writer empties every other page as it
 * reaches it, and readers read no page a writer has not reached.
 */
static void rtb_cpu_reset_state(struct rtb_cpu_buffer *cpu_buffer)
{
	unsigned int i;

	/* On fixed pages what outlives the kernel reads every ring page. */
	if (cpu_buffer->fixed_reader)
		for (i = 0; i < cpu_buffer->nr_pages; i++)
			rtb_reset_page(cpu_buffer->ring[i]);
	memset(cpu_buffer->stamps, 0, sizeof(cpu_buffer->stamps));
	rtb_cpu_start_at(cpu_buffer, 0);
	local_set(&cpu_buffer->reserved, 0);
	cpu_buffer->overruns = 0;
	local_set(&cpu_buffer->dropped, 0);
	local_set(&cpu_buffer->discarded, 0);
	cpu_buffer->swap.gen = RTB_SWAP_WRITING;
	rtb_reader_reset(cpu_buffer);
}

/*
 * Swap in new pages; the old ones are returned in @pages.  The reader page
 * stays: a record a consumer got from it must stay readable until its next
 * read, resize or not, so the new spare reader page is returned instead.
 */
static void rtb_cpu_install_pages(struct rtb_cpu_buffer *cpu_buffer,
				  struct rtb_pages *pages)
{
	struct rtb_pages old = {
		.nr_pages = cpu_buffer->nr_pages,
		.ring = cpu_buffer->ring,
		.rpage = pages->rpage,
	};

	cpu_buffer->nr_pages = pages->nr_pages;
	/* Wrap where slot s % nr_pages stays the same: see RTB_SEQ_BITS. */
	cpu_buffer->seq_end = rounddown(BIT(RTB_SEQ_BITS), pages->nr_pages);
	cpu_buffer->ring = pages->ring;
	if (!cpu_buffer->rpage) {
		cpu_buffer->rpage = pages->rpage;
		old.rpage = NULL;
	}
	*pages = old;
	rtb_cpu_reset_state(cpu_buffer);
}

static struct rtb_cpu_buffer *rtb_cpu_alloc(struct rtb_buffer *buffer,
					    int cpu)
{
	struct rtb_cpu_buffer *cpu_buffer;
	struct rtb_pages pages;

	cpu_buffer = kzalloc_node(sizeof(*cpu_buffer), RTB_GFP,
				  cpu_to_node(cpu));
	if (!cpu_buffer)
		return NULL;
	if (rtb_pages_alloc(&pages, buffer->nr_pages, cpu, NULL)) {
		kfree(cpu_buffer);
		return NULL;
	}
	cpu_buffer->buffer = buffer;
	cpu_buffer->cpu = cpu;
	raw_spin_lock_init(&cpu_buffer->reader_lock);
	local_set(&cpu_buffer->committing, 0);
	atomic_set(&cpu_buffer->record_disabled, 0);
	rtb_cpu_install_pages(cpu_buffer, &pages);
	return cpu_buffer;
}

static void rtb_cpu_free(struct rtb_cpu_buffer *cpu_buffer)
{
	struct rtb_pages pages = {
		.nr_pages = cpu_buffer->nr_pages,
		.ring = cpu_buffer->ring,
		.rpage = cpu_buffer->rpage,
	};

	rtb_pages_free(&pages);
	kfree(cpu_buffer);
}

/**
 * rtb_alloc() - allocate a ring buffer with one CPU buffer per possible CPU
 * @size: bytes of records each CPU buffer holds at least
 * @flags: 0 for producer/consumer mode (new records are dropped when
 *	full), RTB_FL_OVERWRITE for overwrite mode (the oldest are)
 *
 * May sleep.
 *
 * Return: the buffer, or NULL if memory ran out.
 */
struct rtb_buffer *rtb_alloc(unsigned long size, unsigned int flags)
{
	struct rtb_buffer *buffer;
	int cpu;

	buffer = kzalloc(sizeof(*buffer), GFP_KERNEL);
	if (!buffer)
		return NULL;
	buffer->nr_pages = rtb_pages_for(size);
	buffer->overwrite = flags & RTB_FL_OVERWRITE;
	/* NULL: the per-CPU sched_clock(), called directly on the write path. */
	buffer->clock = NULL;
	mutex_init(&buffer->mutex);
	raw_spin_lock_init(&buffer->swap_lock);
	atomic_set(&buffer->record_disabled, 0);
	buffer->cpus = kcalloc(nr_cpu_ids, sizeof(*buffer->cpus), GFP_KERNEL);
	if (!buffer->cpus)
		goto fail;
	for_each_possible_cpu(cpu) {
		buffer->cpus[cpu] = rtb_cpu_alloc(buffer, cpu);
		if (!buffer->cpus[cpu])
			goto fail;
	}
	return buffer;
fail:
	rtb_free(buffer);
	return NULL;
}
EXPORT_SYMBOL_GPL(rtb_alloc);

/**
 * rtb_free() - free a ring buffer
 * @buffer: the buffer; no writer or reader may use it any more
 */
void rtb_free(struct rtb_buffer *buffer)
{
	int cpu;

	if (!buffer)
		return;
	if (buffer->cpus)
		for_each_possible_cpu(cpu)
			if (buffer->cpus[cpu])
				rtb_cpu_free(buffer->cpus[cpu]);
	kfree(buffer->cpus);
	kfree(buffer);
}
EXPORT_SYMBOL_GPL(rtb_free);

/* -EBUSY if an iterator reads the buffer's pages.  Under buffer->mutex. */
static int rtb_iterating(struct rtb_buffer *buffer)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (atomic_read(&buffer->cpus[cpu]->iterators))
			return -EBUSY;
	return 0;
}

/*
 * Whether @nr_pages more pages per CPU leave the machine memory to run: a
 * request beyond what is available fails at once rather than pushing
 * everything else out first.
 */
static bool rtb_pages_fit(unsigned long nr_pages)
{
	unsigned long avail = si_mem_available() / num_possible_cpus();
	unsigned long meta = sizeof(struct rtb_page) + sizeof(void *);

	if (nr_pages > UINT_MAX || nr_pages > avail)
		return false;
	return nr_pages + DIV_ROUND_UP(nr_pages * meta, PAGE_SIZE) <= avail;
}

/*
 * Give every CPU buffer @nr_pages new ring pages and a reader page: of
 * the page allocator (a resize), or with @base, of the slices of fixed
 * memory there (rtb_use_fixed_pages(): the reader page is replaced too,
 * and the buffer stays on them).  The records are discarded.  -EBUSY
 * while an iterator is open or the buffer is on fixed pages; on error
 * the buffer, its records and @base are left as they were.
 */
static int rtb_change_pages(struct rtb_buffer *buffer, unsigned int nr_pages,
			    void *base, u32 *reader_slot)
{
	unsigned long slice = (unsigned long)(nr_pages + 1) * PAGE_SIZE;
	struct rtb_cpu_buffer *cpu_buffer;
	struct rtb_page *old_rpage;
	struct rtb_pages *pages;
	unsigned long flags;
	int cpu, ret = 0;

	pages = kcalloc(nr_cpu_ids, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		ret = rtb_pages_alloc(&pages[cpu], nr_pages, cpu,
				      base ? base + cpu * slice : NULL);
		if (ret)
			goto out;
	}

	mutex_lock(&buffer->mutex);
	rtb_record_disable(buffer);
	/*
	 * Writers run with preemption off, rtb_swap_cpu() with interrupts
	 * off (and refuses from now on): this waits for all of them, and
	 * buffer->cpus[] stays as it is.
	 */
	synchronize_rcu();
	/* Iterators start under the mutex: none can start meanwhile. */
	ret = rtb_iterating(buffer) ?: (buffer->fixed ? -EBUSY : 0);
	if (ret) {
		rtb_record_enable(buffer);
		mutex_unlock(&buffer->mutex);
		goto out;
	}
	/* Nothing of before reaches a reader; nothing is zeroed on refusal. */
	if (base)
		memset(base, 0, nr_cpu_ids * slice);
	for_each_possible_cpu(cpu) {
		cpu_buffer = buffer->cpus[cpu];
		raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
		/* Onto fixed pages the reader page goes too (see above). */
		old_rpage = cpu_buffer->rpage;
		if (base)
			cpu_buffer->rpage = NULL;
		rtb_cpu_install_pages(cpu_buffer, &pages[cpu]);
		if (base) {
			pages[cpu].rpage = old_rpage;
			cpu_buffer->fixed_reader = &reader_slot[cpu];
			rtb_note_reader_page(cpu_buffer, cpu_buffer->rpage);
		}
		raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	}
	buffer->nr_pages = nr_pages;
	if (base)
		WRITE_ONCE(buffer->fixed, true);
	rtb_record_enable(buffer);
	mutex_unlock(&buffer->mutex);
out:
	for_each_possible_cpu(cpu)
		rtb_pages_free(&pages[cpu]);
	kfree(pages);
	return ret;
}

/**
 * rtb_resize() - change the size of every CPU buffer
 * @buffer: the buffer
 * @size: bytes of records each CPU buffer holds at least
 *
 * Safe while writers run: recording pauses for the switch, and the records
 * buffered so far are discarded (the counters restart).  A record a
 * consumer holds stays readable: the reader page is kept.  May sleep.
 *
 * Return: 0; -ENOMEM if the memory cannot be had; -EBUSY while an
 * iterator (rtb_read_start()) is open, since it reads the ring's pages.
 * On error the buffer and its records are left as they were.
 */
int rtb_resize(struct rtb_buffer *buffer, unsigned long size)
{
	unsigned long want = max_t(unsigned long, RTB_MIN_PAGES,
				   DIV_ROUND_UP(size, RTB_PAGE_DATA_SIZE));
	int ret;

	/* Its size is that of the memory it was given. */
	if (READ_ONCE(buffer->fixed))
		return -EBUSY;
	if (!rtb_pages_fit(want))
		return -ENOMEM;
	/* Cheap first: no pages to allocate and free while reading. */
	mutex_lock(&buffer->mutex);
	ret = rtb_iterating(buffer);
	mutex_unlock(&buffer->mutex);
	if (ret)
		return ret;
	return rtb_change_pages(buffer, want, NULL, NULL);
}
EXPORT_SYMBOL_GPL(rtb_resize);

/**
 * rtb_use_fixed_pages() - move a buffer onto memory the caller provides
 * @buffer: the buffer
 * @base: page-aligned memory: one slice of @slice_pages pages for each
 *	CPU number below nr_cpu_ids, CPU c's at @base + c * @slice_pages
 *	pages
 * @slice_pages: pages of a slice: the ring's, then the reader page
 * @reader_slot: one word per CPU number, where the buffer keeps which
 *	page of the CPU's slice its reader page is (the others are the
 *	ring's), from now on, with RTB_FIXED_READER_COPY when it holds copies
 *	of records still in the ring; ring pages behind the readers are
 *	emptied, so that every record the slices show is the ring's
 *
 * For a buffer that must outlive the kernel (a persistent region): the
 * records are discarded, every page is emptied, and from then on the
 * pages stay in the slices: page readers get copies, and rtb_resize()
 * and rtb_swap_cpu() refuse.  Unlike a resize, the reader page is
 * replaced too: the caller keeps consumers away meanwhile.  May sleep.
 *
 * Return: 0; -EINVAL if a slice is under two pages; -ENOMEM; -EBUSY if it
 * is on fixed pages already or an iterator is open.  On error the buffer
 * is left as it was.
 */
int rtb_use_fixed_pages(struct rtb_buffer *buffer, void *base,
			unsigned int slice_pages, u32 *reader_slot)
{
	if (slice_pages < RTB_MIN_PAGES + 1 || !PAGE_ALIGNED(base))
		return -EINVAL;
	return rtb_change_pages(buffer, slice_pages - 1, base, reader_slot);
}
EXPORT_SYMBOL_GPL(rtb_use_fixed_pages);

/**
 * rtb_size() - the size of each CPU buffer
 * @buffer: the buffer
 *
 * Return: bytes of record space per CPU buffer; the buffer as a whole
 * holds this times the number of possible CPUs.
 */
unsigned long rtb_size(struct rtb_buffer *buffer)
{
	return (unsigned long)READ_ONCE(buffer->nr_pages) * RTB_PAGE_DATA_SIZE;
}
EXPORT_SYMBOL_GPL(rtb_size);

/**
 * rtb_set_overwrite() - switch between overwrite and producer/consumer mode
 * @buffer: the buffer
 * @overwrite: true to drop the oldest records when full
 *
 * Takes effect at the next page a writer moves to.  Any context.
 */
void rtb_set_overwrite(struct rtb_buffer *buffer, bool overwrite)
{
	WRITE_ONCE(buffer->overwrite, overwrite);
}
EXPORT_SYMBOL_GPL(rtb_set_overwrite);

/**
 * rtb_set_clock() - choose the clock that time-stamps records
 * @buffer: the buffer
 * @clock: returns ns; callable from any context, NMI included.  NULL
 *	selects the default: sched_clock(), per CPU (the "local" clock)
 *
 * Time stays monotonic per CPU across the switch.  Any context.
 */
void rtb_set_clock(struct rtb_buffer *buffer, rtb_clock_fn clock)
{
	WRITE_ONCE(buffer->clock, clock);
}
EXPORT_SYMBOL_GPL(rtb_set_clock);

/* Empty the CPU buffers of @cpus, waiting for their writers once. */
static void rtb_reset_cpus(struct rtb_buffer *buffer, const struct cpumask *cpus)
{
	struct rtb_cpu_buffer *cpu_buffer;
	unsigned long flags;
	int cpu;

	mutex_lock(&buffer->mutex);
	/*
	 * Disabled CPU buffers are not swapped (rtb_swap_cpu_here()), so
	 * buffer->cpus[] of @cpus stays as read here.
	 */
	raw_spin_lock_irqsave(&buffer->swap_lock, flags);
	for_each_cpu(cpu, cpus)
		atomic_inc(&buffer->cpus[cpu]->record_disabled);
	raw_spin_unlock_irqrestore(&buffer->swap_lock, flags);
	/* Writers run with preemption off: this waits for all of them. */
	synchronize_rcu();
	for_each_cpu(cpu, cpus) {
		cpu_buffer = buffer->cpus[cpu];
		raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
		rtb_cpu_reset_state(cpu_buffer);
		raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
		/* Release: pairs with the writers' acquire of the flag. */
		smp_mb__before_atomic();
		atomic_dec(&cpu_buffer->record_disabled);
	}
	mutex_unlock(&buffer->mutex);
}

/**
 * rtb_reset_cpu() - empty one CPU buffer and restart its counters
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Waits for writers in flight: may sleep.
 */
void rtb_reset_cpu(struct rtb_buffer *buffer, int cpu)
{
	if (rtb_cpu_buffer(buffer, cpu))
		rtb_reset_cpus(buffer, cpumask_of(cpu));
}
EXPORT_SYMBOL_GPL(rtb_reset_cpu);

/**
 * rtb_reset() - empty every CPU buffer and restart the counters
 * @buffer: the buffer
 *
 * Waits for writers in flight, once: may sleep.
 */
void rtb_reset(struct rtb_buffer *buffer)
{
	rtb_reset_cpus(buffer, cpu_possible_mask);
}
EXPORT_SYMBOL_GPL(rtb_reset);

struct rtb_swap_cpu_args {
	struct rtb_buffer	*a;
	struct rtb_buffer	*b;
	int			cpu;
	int			ret;
};

/* The swap itself, on the CPU (or with it offline), interrupts off. */
static void rtb_swap_cpu_here(void *data)
{
	struct rtb_swap_cpu_args *args = data;
	struct rtb_cpu_buffer *cpu_a, *cpu_b;

	args->ret = -EBUSY;
	/* Reset, resize and iterator starts hold these, or disable recording. */
	if (!raw_spin_trylock(&args->a->swap_lock))
		return;
	if (!raw_spin_trylock(&args->b->swap_lock))
		goto unlock_a;
	cpu_a = args->a->cpus[args->cpu];
	cpu_b = args->b->cpus[args->cpu];
	if (atomic_read(&args->a->record_disabled) ||
	    atomic_read(&args->b->record_disabled) ||
	    atomic_read(&cpu_a->record_disabled) ||
	    atomic_read(&cpu_b->record_disabled))
		goto unlock;
	/* An NMI writer arriving during the move finds recording off. */
	atomic_inc(&cpu_a->record_disabled);
	atomic_inc(&cpu_b->record_disabled);
	/*
	 * Writers only write their own CPU's buffer, so with interrupts off
	 * here the only ones in flight are those we interrupted.  One between
	 * reservation and commit would commit to the other buffer: refuse.
	 * One that has not raised @committing yet sees the move and starts
	 * over (__rtb_lock_reserve()).
	 */
	if (!local_read(&cpu_a->committing) && !local_read(&cpu_b->committing)) {
		WRITE_ONCE(args->a->cpus[args->cpu], cpu_b);
		WRITE_ONCE(args->b->cpus[args->cpu], cpu_a);
		WRITE_ONCE(cpu_a->buffer, args->b);
		WRITE_ONCE(cpu_b->buffer, args->a);
		args->ret = 0;
	}
	/* Release: pairs with the writers' acquire of the flag. */
	smp_mb__before_atomic();
	atomic_dec(&cpu_a->record_disabled);
	atomic_dec(&cpu_b->record_disabled);
unlock:
	raw_spin_unlock(&args->b->swap_lock);
unlock_a:
	raw_spin_unlock(&args->a->swap_lock);
}

/**
 * rtb_swap_cpu() - exchange a CPU buffer between two buffers
 * @buffer_a: one buffer
 * @buffer_b: the other
 * @cpu: the CPU whose buffers are exchanged
 *
 * For snapshots: the records of @cpu move to the other buffer wholesale.
 * The two CPU buffers keep their own sizes.  Where it may not sleep
 * (interrupts or preemption off, interrupt context) it swaps only the
 * current CPU's, at once (a latency tracer's case); where it may sleep it
 * has @cpu do it (an IPI, waited for), or does it itself if @cpu is
 * offline.  The caller
 * keeps readers of @cpu away meanwhile.
 *
 * Return: 0; -EINVAL for a bad @cpu, twice the same buffer, or another
 * CPU than the current one where it may not sleep;
 * -EBUSY if recording is disabled on either side, a reset, resize or
 * iterator start is busy with either buffer, or a writer on @cpu is
 * between reservation and commit.
 */
int rtb_swap_cpu(struct rtb_buffer *buffer_a, struct rtb_buffer *buffer_b,
		 int cpu)
{
	struct rtb_swap_cpu_args args = {
		.a = buffer_a, .b = buffer_b, .cpu = cpu,
	};
	unsigned long flags;
	int ret = 0;

	if (buffer_a == buffer_b || !rtb_cpu_buffer(buffer_a, cpu) ||
	    !rtb_cpu_buffer(buffer_b, cpu))
		return -EINVAL;
	/* A CPU buffer on fixed pages stays in the buffer they were for. */
	if (READ_ONCE(buffer_a->fixed) || READ_ONCE(buffer_b->fixed))
		return -EBUSY;
	if (!preemptible()) {
		/* Here and now, or not at all: no IPI from this context. */
		if (cpu != raw_smp_processor_id())
			return -EINVAL;
		local_irq_save(flags);
		rtb_swap_cpu_here(&args);
		local_irq_restore(flags);
		return args.ret;
	}
	might_sleep();
	cpus_read_lock();
	if (cpu_online(cpu)) {
		ret = smp_call_function_single(cpu, rtb_swap_cpu_here, &args, 1);
	} else {
		/* No writer runs on an offline CPU. */
		local_irq_save(flags);
		rtb_swap_cpu_here(&args);
		local_irq_restore(flags);
	}
	cpus_read_unlock();
	return ret ?: args.ret;
}
EXPORT_SYMBOL_GPL(rtb_swap_cpu);

/**
 * rtb_record_disable() - stop recording on every CPU (reads still work)
 * @buffer: the buffer
 *
 * Nests: each call needs an rtb_record_enable().  Writers already past the
 * check finish their record; synchronize_rcu() waits for them.  Any context.
 */
void rtb_record_disable(struct rtb_buffer *buffer)
{
	atomic_inc(&buffer->record_disabled);
}
EXPORT_SYMBOL_GPL(rtb_record_disable);

/**
 * rtb_record_enable() - undo one rtb_record_disable()
 * @buffer: the buffer
 */
void rtb_record_enable(struct rtb_buffer *buffer)
{
	/* Release: pairs with the writers' acquire of the flag. */
	smp_mb__before_atomic();
	atomic_dec(&buffer->record_disabled);
}
EXPORT_SYMBOL_GPL(rtb_record_enable);

/**
 * rtb_record_disable_cpu() - stop recording on one CPU (reads still work)
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Nests like rtb_record_disable().  Any context but NMI.
 */
void rtb_record_disable_cpu(struct rtb_buffer *buffer, int cpu)
{
	unsigned long flags;

	if (!rtb_cpu_buffer(buffer, cpu))
		return;
	/*
	 * Under swap_lock: rtb_swap_cpu() must not move the CPU buffer
	 * between our read and the increment (it refuses once it is done).
	 */
	raw_spin_lock_irqsave(&buffer->swap_lock, flags);
	atomic_inc(&buffer->cpus[cpu]->record_disabled);
	raw_spin_unlock_irqrestore(&buffer->swap_lock, flags);
}
EXPORT_SYMBOL_GPL(rtb_record_disable_cpu);

/**
 * rtb_record_enable_cpu() - undo one rtb_record_disable_cpu()
 * @buffer: the buffer
 * @cpu: the CPU buffer
 */
void rtb_record_enable_cpu(struct rtb_buffer *buffer, int cpu)
{
	struct rtb_cpu_buffer *cpu_buffer = rtb_cpu_buffer(buffer, cpu);

	if (cpu_buffer) {
		/* Release: pairs with the writers' acquire of the flag. */
		smp_mb__before_atomic();
		atomic_dec(&cpu_buffer->record_disabled);
	}
}
EXPORT_SYMBOL_GPL(rtb_record_enable_cpu);

/**
 * rtb_cpu_stats() - the counters of one CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 * @stats: filled in; all zero for a bad @cpu
 *
 * Exact when no writer or reader runs on the CPU buffer; a snapshot
 * otherwise.  Any context.
 */
void rtb_cpu_stats(struct rtb_buffer *buffer, int cpu,
		   struct rtb_cpu_stats *stats)
{
	struct rtb_cpu_buffer *cpu_buffer = rtb_cpu_buffer(buffer, cpu);
	unsigned long reserved;

	memset(stats, 0, sizeof(*stats));
	if (!cpu_buffer)
		return;
	/*
	 * A record is reserved before it is read or overwritten: read those
	 * two counts first, so that entries cannot come out negative.
	 */
	stats->read = READ_ONCE(cpu_buffer->read);
	stats->overruns = READ_ONCE(cpu_buffer->overruns);
	/* Pairs with the reservation coming first: see above. */
	smp_rmb();
	reserved = local_read(&cpu_buffer->reserved);
	stats->dropped = local_read(&cpu_buffer->dropped);
	/* After @reserved: a discard follows its reservation. */
	stats->discarded = local_read(&cpu_buffer->discarded);
	stats->written = reserved + stats->dropped;
	stats->entries = reserved - min(reserved, stats->overruns +
					stats->read + stats->discarded);
	stats->pages = cpu_buffer->nr_pages;
}
EXPORT_SYMBOL_GPL(rtb_cpu_stats);

/* The sum over the CPU buffers of the counter at @offset in the stats. */
static unsigned long rtb_sum_stat(struct rtb_buffer *buffer, size_t offset)
{
	struct rtb_cpu_stats stats;
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		rtb_cpu_stats(buffer, cpu, &stats);
		sum += *(unsigned long *)((char *)&stats + offset);
	}
	return sum;
}

/**
 * rtb_entries() - records in the buffer, not yet consumed
 * @buffer: the buffer
 *
 * Return: the sum over the CPU buffers.
 */
unsigned long rtb_entries(struct rtb_buffer *buffer)
{
	return rtb_sum_stat(buffer, offsetof(struct rtb_cpu_stats, entries));
}
EXPORT_SYMBOL_GPL(rtb_entries);

/**
 * rtb_overruns() - records lost to overwrite mode
 * @buffer: the buffer
 *
 * Return: the sum over the CPU buffers.
 */
unsigned long rtb_overruns(struct rtb_buffer *buffer)
{
	return rtb_sum_stat(buffer, offsetof(struct rtb_cpu_stats, overruns));
}
EXPORT_SYMBOL_GPL(rtb_overruns);

/**
 * rtb_time_stamp() - the buffer's clock, now
 * @buffer: the buffer
 * @cpu: the CPU asking (the clock may be per CPU); unused
 *
 * Return: the time in the unit of record time stamps (ns).
 */
u64 rtb_time_stamp(struct rtb_buffer *buffer, int cpu)
{
	rtb_clock_fn clock = READ_ONCE(buffer->clock);
	u64 ts;

	preempt_disable_notrace();
	ts = clock ? clock() : sched_clock();
	preempt_enable_notrace();
	return ts;
}
EXPORT_SYMBOL_GPL(rtb_time_stamp);

/**
 * rtb_normalize_time_stamp() - convert a record time stamp to ns
 * @buffer: the buffer
 * @cpu: the CPU buffer the time stamp came from
 * @ts: the time stamp, converted in place
 *
 * ringtrace clocks count ns already: this leaves @ts as it is.  It exists
 * so that code written against the spec's API keeps working.
 */
void rtb_normalize_time_stamp(struct rtb_buffer *buffer, int cpu, u64 *ts)
{
}
EXPORT_SYMBOL_GPL(rtb_normalize_time_stamp);
