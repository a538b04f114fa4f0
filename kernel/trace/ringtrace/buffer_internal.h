/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringtrace buffer internals shared by buffer.c (setup and control),
 * buffer_write.c (writers) and buffer_read.c (readers).  The scheme is
 * explained at the top of buffer.c.
 */
#ifndef _RINGTRACE_BUFFER_INTERNAL_H
#define _RINGTRACE_BUFFER_INTERNAL_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/ringtrace_buffer.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <asm/local.h>
#include <asm/unaligned.h>

/* A data page and what only the kernel needs to know about it. */
struct rtb_page {
	struct rtb_data_page	*data;
	/*
	 * DATA records reserved on the page since it last entered the ring.
	 * Incremented by the owning CPU's writers (local_t: they nest); read
	 * by the writer that overwrites the page, to count overruns, and by
	 * the reader that swaps it out whole.
	 */
	local_t			entries;
	/* Where the records end and the closing padding starts. */
	unsigned int		real_end;
	/*
	 * The CPU buffer's dropped count when the page became the write page:
	 * records dropped before it, which readers report with its first
	 * record.
	 */
	unsigned long		dropped_mark;
	/* Sequence number while it is the write page (see write_page). */
	unsigned long		seq;
	/*
	 * In a buffer on fixed pages (rtb_use_fixed_pages()): which page of
	 * its CPU's slice @data is, for good; -1 for a page of its own.
	 */
	int			fixed_slot;
};

/*
 * The write word: where the next record goes, and where to find the time
 * stamp of the record before it.  Writers move it with local_cmpxchg();
 * its value does not repeat within a wrap of the page sequence (see
 * rtb_seq_end()), far more than any nested writer can write.
 *
 *   bits  0-11  offset in the write page (PAGE_SHIFT bits)
 *   bits 12-58  sequence number of the write page
 *   bits 59-61  nesting depth of the writer that installed it
 *   bit   62    which of that depth's two stamp slots holds its time
 *   bit   63    a writer is moving to the next page (others drop records)
 */
#define RTB_W_OFF_BITS		PAGE_SHIFT
#define RTB_W_DEPTH_BITS	3
#define RTB_W_SEQ_SHIFT		RTB_W_OFF_BITS
#define RTB_W_SEQ_BITS		(BITS_PER_LONG - RTB_W_OFF_BITS - \
				 RTB_W_DEPTH_BITS - 2)
#define RTB_W_DEPTH_SHIFT	(RTB_W_SEQ_SHIFT + RTB_W_SEQ_BITS)
#define RTB_W_SLOT		BIT(RTB_W_DEPTH_SHIFT + RTB_W_DEPTH_BITS)
#define RTB_W_CROSSING		BIT(RTB_W_DEPTH_SHIFT + RTB_W_DEPTH_BITS + 1)
/* Writers nested deeper than this on one CPU drop their records. */
#define RTB_MAX_DEPTH		BIT(RTB_W_DEPTH_BITS)

static_assert(BIT(RTB_W_OFF_BITS) > RTB_PAGE_DATA_SIZE);

static inline unsigned int rtb_w_off(unsigned long w)
{
	return w & (BIT(RTB_W_OFF_BITS) - 1);
}

static inline unsigned long rtb_w_seq(unsigned long w)
{
	return (w >> RTB_W_SEQ_SHIFT) & (BIT(RTB_W_SEQ_BITS) - 1);
}

static inline unsigned int rtb_w_depth(unsigned long w)
{
	return (w >> RTB_W_DEPTH_SHIFT) & (RTB_MAX_DEPTH - 1);
}

static inline unsigned int rtb_w_slot(unsigned long w)
{
	return !!(w & RTB_W_SLOT);
}

static inline unsigned long rtb_w_make(unsigned long seq, unsigned int off,
				       unsigned int depth, unsigned int slot)
{
	return off | seq << RTB_W_SEQ_SHIFT |
	       (unsigned long)depth << RTB_W_DEPTH_SHIFT |
	       (slot ? RTB_W_SLOT : 0);
}

/*
 * The depth bits of a write word and its slot bit, the one above them,
 * index the CPU buffer's stamps: stamp (slot, depth) is stamps[slot *
 * RTB_MAX_DEPTH + depth].  One shift and mask find the stamp a word names.
 */
#define RTB_NR_STAMPS		(2 * RTB_MAX_DEPTH)

static inline unsigned int rtb_w_stamp(unsigned long w)
{
	return (w >> RTB_W_DEPTH_SHIFT) & (RTB_NR_STAMPS - 1);
}

static inline unsigned int rtb_stamp_index(unsigned int depth,
					   unsigned int slot)
{
	return depth + (slot ? RTB_MAX_DEPTH : 0);
}

/*
 * The time stamp of the record that ends where the write word naming this
 * slot points: written by its writer before it installs that word, so a
 * writer nested after that finds the time of its predecessor.  Each
 * nesting depth has two slots and writes the one the current write word
 * does not use.  @undo is the write word that reservation replaced, which
 * rtb_discard_commit() puts back.
 */
struct rtb_stamp {
	unsigned long		undo;
	u64			ts;
};

/*
 * The head word: everything a reader and an overwriting writer race on, in
 * one atomic_long_t so that one cmpxchg decides each race.
 *
 *   bits  0-8   records of the head page a reader already copied out
 *               (PAGE_SHIFT - 3 bits: a record is 8 bytes at least)
 *   bit   9     a reader swap is claimed but not yet installed in the ring
 *   bits 10-19  generation of the last reader swap (pairs with struct
 *               rtb_swap so a helping writer never uses stale swap data)
 *   bits 20-63  sequence number of the head page (the oldest in the ring);
 *               the word does not repeat within a wrap of the sequence
 */
#define RTB_HEAD_READ_BITS	(PAGE_SHIFT - 3)
#define RTB_HEAD_READ_MASK	(BIT(RTB_HEAD_READ_BITS) - 1)
#define RTB_HEAD_PENDING	BIT(RTB_HEAD_READ_BITS)
#define RTB_HEAD_GEN_SHIFT	(RTB_HEAD_READ_BITS + 1)
#define RTB_HEAD_GEN_BITS	10
#define RTB_HEAD_GEN_MASK	(BIT(RTB_HEAD_GEN_BITS) - 1)
#define RTB_HEAD_SEQ_SHIFT	(RTB_HEAD_GEN_SHIFT + RTB_HEAD_GEN_BITS)

/* A page holds at most this many records: 8 bytes is the smallest. */
static_assert(RTB_PAGE_DATA_SIZE / RTB_MIN_EVENT_SIZE <= RTB_HEAD_READ_MASK);

/*
 * Page sequence numbers: the write word and the head word hold the same
 * number of bits, and every sequence number of a CPU buffer wraps at the
 * same multiple of its page count (rtb_seq_end()), so that page s is in
 * ring slot s % nr_pages on both sides of the wrap.  Sequence numbers in
 * use are at most the ring's size apart; they compare by distance.
 */
#define RTB_SEQ_BITS		(BITS_PER_LONG - RTB_HEAD_SEQ_SHIFT)
static_assert(RTB_SEQ_BITS <= RTB_W_SEQ_BITS);
static_assert(RTB_SEQ_BITS >= 32);

static inline unsigned long rtb_head_seq(long head)
{
	return (unsigned long)head >> RTB_HEAD_SEQ_SHIFT;
}

static inline unsigned int rtb_head_read(long head)
{
	return head & RTB_HEAD_READ_MASK;
}

static inline unsigned int rtb_head_gen(long head)
{
	return (head >> RTB_HEAD_GEN_SHIFT) & RTB_HEAD_GEN_MASK;
}

static inline long rtb_head_make(unsigned long seq, unsigned int gen,
				 bool pending, unsigned int read)
{
	return (long)(seq << RTB_HEAD_SEQ_SHIFT |
		      (unsigned long)(gen & RTB_HEAD_GEN_MASK) << RTB_HEAD_GEN_SHIFT |
		      (pending ? RTB_HEAD_PENDING : 0) | read);
}

/* Never a generation: marks struct rtb_swap as being rewritten. */
#define RTB_SWAP_WRITING	(~0U)

/*
 * A reader swap in flight: written by the reader (under its reader_lock)
 * before it claims the head page; read by a writer that finds the claim
 * pending in the head word and installs the reader's page on its behalf.
 * @gen is written last (release) and checked twice by the writer, like a
 * seqcount.
 */
struct rtb_swap {
	unsigned int		gen;
	unsigned int		slot;
	struct rtb_page		*old;
	struct rtb_page		*new;
};

#if IS_ENABLED(CONFIG_RINGTRACE_KUNIT_TEST)
/*
 * How often the rare paths of a CPU buffer ran, in kernels built for the
 * KUnit suites only: a stress test that never took them proved nothing
 * about them.
 */
struct rtb_path_counts {
	/* A nested writer moved the write word under a reservation. */
	atomic_long_t	reserve_retries;
	/* A writer nested in a page move dropped its record. */
	atomic_long_t	crossing_drops;
	/* A writer installed a reader's claimed page for it. */
	atomic_long_t	help_swaps;
	/* A reader's copy of the head page was overwritten meanwhile. */
	atomic_long_t	partial_discards;
	/* A discarded record became padding: a writer had reserved after it. */
	atomic_long_t	discard_paddings;
};

#define rtb_count_path(cpu_buffer, path) \
	atomic_long_inc(&(cpu_buffer)->paths.path)
#else
#define rtb_count_path(cpu_buffer, path) do { } while (0)
#endif

/*
 * Where a consuming reader works between two steps that the CPU buffer's
 * writers may come between.  A KUnit build lets a test run code there
 * (struct rtb_buffer's @reader_window): writers nesting as an NMI would,
 * or a pause that lets another CPU's writers in, so that the writers' side
 * of those races runs on demand instead of by chance.
 */
enum rtb_reader_window {
	/* The head page is claimed; the reader's page is not in its slot. */
	RTB_WINDOW_CLAIMED,
	/* Part of the head page is copied out; the copy is not accounted. */
	RTB_WINDOW_COPIED,
	RTB_NR_WINDOWS,
};

struct rtb_cpu_buffer {
	struct rtb_buffer	*buffer;
	int			cpu;
	unsigned int		nr_pages;
	/* Sequence numbers run from 0 to seq_end - 1: see RTB_SEQ_BITS. */
	unsigned long		seq_end;
	/*
	 * The ring: page of sequence number s is ring[s % nr_pages].  A slot
	 * changes only when a reader swaps its page in (cmpxchg, by the reader
	 * or by a writer helping it).
	 */
	struct rtb_page		**ring;

	/*
	 * Writer state, touched only by the owning CPU's writers, which may
	 * nest: local_t and local_cmpxchg() throughout.
	 */
	local_t			write;
	struct rtb_stamp	stamps[RTB_NR_STAMPS];
	/* The write page; set before the write word moves to it. */
	struct rtb_page		*write_page;
	/* Writers between reserve and commit: the depth of the next one. */
	local_t			committing;
	local_t			reserved;
	local_t			dropped;
	/* Reserved, then discarded by rtb_discard_commit(). */
	local_t			discarded;
	/* Changed only by a writer moving to the next page (exclusive). */
	unsigned long		overruns;
	/*
	 * Pages before @commit_seq hold only committed records.  Published
	 * with smp_store_release() by the outermost committer after the
	 * pages' commit words; read with smp_load_acquire() by readers and
	 * by writers checking they do not lap it.
	 */
	unsigned long		commit_seq;
	atomic_t		record_disabled;

	/* Reader and overwriting writer race here; see the head word above. */
	atomic_long_t		head ____cacheline_aligned_in_smp;
	struct rtb_swap		swap;

	/* Reader state, under @reader_lock. */
	raw_spinlock_t		reader_lock;
	/* The page being read: swapped out of the ring, or a partial copy. */
	struct rtb_page		*rpage;
	unsigned int		rd_off;
	unsigned int		rd_end;
	u64			rd_ts;
	/* The reader page is a whole ring page, none of it read yet. */
	bool			rd_whole;
	/* Head page records already copied out: up to where, and their time. */
	unsigned long		partial_seq;
	unsigned int		partial_off;
	u64			partial_ts;
	unsigned long		read;
	/*
	 * Lost records: those already accounted to a reader page, and those
	 * lost before the reader page's records, reported with its first.
	 */
	unsigned long		dropped_seen;
	unsigned long		overruns_seen;
	unsigned long		lost_pending;
	/* Bumped whenever readers move: iterators resynchronise on it. */
	unsigned long		read_gen;
	/* Iterators open on it: resize would free their pages (buffer mutex). */
	atomic_t		iterators;
	/*
	 * On fixed pages: where the slot of the reader page is kept, so that
	 * what outlives the kernel can tell the reader's page from the ring's.
	 * Written under @reader_lock.
	 */
	u32			*fixed_reader;
#if IS_ENABLED(CONFIG_RINGTRACE_KUNIT_TEST)
	struct rtb_path_counts	paths;
#endif
};

struct rtb_cpu_buffer;

/*
 * Called with the CPU buffer's reader_lock held and interrupts off, maybe
 * in NMI (a reader there that got the lock): must not sleep.
 */
typedef void (*rtb_reader_window_fn)(struct rtb_cpu_buffer *cpu_buffer,
				     enum rtb_reader_window window);

struct rtb_buffer {
	unsigned int		nr_pages;
	bool			overwrite;
	/*
	 * The pages are the caller's (rtb_use_fixed_pages()): never freed,
	 * never handed out to page readers, and the size is theirs.
	 */
	bool			fixed;
	rtb_clock_fn		clock;
	atomic_t		record_disabled;
	/* Serialises resize, reset and iterator starts against each other. */
	struct mutex		mutex;
	/*
	 * Held (irqsave) while @cpus[] is read to disable a CPU buffer, so
	 * that rtb_swap_cpu() (which only tries it: interrupts are off there)
	 * cannot move the CPU buffer in between.
	 */
	raw_spinlock_t		swap_lock;
	struct rtb_cpu_buffer	**cpus;
#if IS_ENABLED(CONFIG_RINGTRACE_KUNIT_TEST)
	/* Called by readers at each enum rtb_reader_window; tests set it. */
	rtb_reader_window_fn	reader_window;
#endif
};

/* A reader of @cpu_buffer reached @window: see enum rtb_reader_window. */
#if IS_ENABLED(CONFIG_RINGTRACE_KUNIT_TEST)
static inline void rtb_reader_at(struct rtb_cpu_buffer *cpu_buffer,
				 enum rtb_reader_window window)
{
	rtb_reader_window_fn fn = READ_ONCE(cpu_buffer->buffer->reader_window);

	if (fn)
		fn(cpu_buffer, window);
}
#else
static inline void rtb_reader_at(struct rtb_cpu_buffer *cpu_buffer,
				 enum rtb_reader_window window)
{
}
#endif

static inline struct rtb_page *rtb_ring_page(struct rtb_cpu_buffer *cpu_buffer,
					     unsigned long seq)
{
	return READ_ONCE(cpu_buffer->ring[seq % cpu_buffer->nr_pages]);
}

static inline struct rtb_event *rtb_event_at(struct rtb_page *page,
					     unsigned int off)
{
	return (struct rtb_event *)&page->data->data[off];
}

/* Payloads up to this size are copied by rtb_copy_payload()'s own loop. */
#define RTB_COPY_INLINE_MAX	256

/*
 * Copy @len bytes of payload into a reservation.  Records are small, and
 * for them a loop of word moves inlined into the writer beats a call to
 * memcpy(): on x86 that is "rep movsb", whose start-up costs more than
 * the copy (measured on an AMD EPYC host, user space: 0.9 against 2.7 ns
 * for 8-16 bytes, 6 against 12 ns for 256; even at 512).  Larger ones go
 * to memcpy().  Exactly @len bytes are read and written: the source may
 * end at a page's end, and rtb_write_header() zeroed the rounding word.
 */
static __always_inline void rtb_copy_payload(void *dst, const void *src,
					     unsigned long len)
{
	if (len > RTB_COPY_INLINE_MAX) {
		memcpy(dst, src, len);
		return;
	}
	for (; len >= sizeof(u64); len -= sizeof(u64)) {
		put_unaligned(get_unaligned((const u64 *)src), (u64 *)dst);
		src += sizeof(u64);
		dst += sizeof(u64);
	}
	if (len & sizeof(u32)) {
		put_unaligned(get_unaligned((const u32 *)src), (u32 *)dst);
		src += sizeof(u32);
		dst += sizeof(u32);
	}
	if (len & sizeof(u16)) {
		put_unaligned(get_unaligned((const u16 *)src), (u16 *)dst);
		src += sizeof(u16);
		dst += sizeof(u16);
	}
	if (len & 1)
		*(u8 *)dst = *(const u8 *)src;
}

/*
 * Note @page as the reader page of a CPU buffer on fixed pages: a page of
 * the ring, swapped out whole, whose records are the ring's.
 */
static inline void rtb_note_reader_page(struct rtb_cpu_buffer *cpu_buffer,
					struct rtb_page *page)
{
	if (cpu_buffer->fixed_reader)
		WRITE_ONCE(*cpu_buffer->fixed_reader, page->fixed_slot);
}

/*
 * The reader page of a CPU buffer on fixed pages gets copies of records
 * that stay in the ring: say so before the first byte is copied, so that
 * what outlives the kernel never counts them twice.
 */
static inline void rtb_note_reader_copy(struct rtb_cpu_buffer *cpu_buffer)
{
	if (cpu_buffer->fixed_reader) {
		WRITE_ONCE(*cpu_buffer->fixed_reader,
			   cpu_buffer->rpage->fixed_slot |
			   RTB_FIXED_READER_COPY);
		/* The flag before the copy, for a kernel stopped between. */
		barrier();
	}
}

/* Empty a data page the caller owns. */
static inline void rtb_reset_page(struct rtb_page *page)
{
	/*
	 * The commit word first: a page read after a crash between the two
	 * stores is empty, not old records with no time.
	 */
	WRITE_ONCE(page->data->commit, 0);
	barrier();
	page->data->time_stamp = 0;
	local_set(&page->entries, 0);
	page->real_end = RTB_PAGE_DATA_SIZE;
}

/* The CPU buffer of @cpu, or NULL if @cpu is not a possible CPU. */
static inline struct rtb_cpu_buffer *rtb_cpu_buffer(struct rtb_buffer *buffer,
						    int cpu)
{
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return NULL;
	return READ_ONCE(buffer->cpus[cpu]);
}

/* Page sequence numbers run from 0 to this, then start over. */
static inline unsigned long rtb_seq_end(struct rtb_cpu_buffer *cpu_buffer)
{
	return cpu_buffer->seq_end;
}

static inline unsigned long rtb_seq_next(struct rtb_cpu_buffer *cpu_buffer,
					 unsigned long seq)
{
	return ++seq == cpu_buffer->seq_end ? 0 : seq;
}

/* @seq - @n, for @n up to the ring's size. */
static inline unsigned long rtb_seq_sub(struct rtb_cpu_buffer *cpu_buffer,
					unsigned long seq, unsigned long n)
{
	return seq >= n ? seq - n : seq + cpu_buffer->seq_end - n;
}

/* Whether page @a comes before page @b (both in use, so close). */
static inline bool rtb_seq_before(struct rtb_cpu_buffer *cpu_buffer,
				  unsigned long a, unsigned long b)
{
	unsigned long d = b >= a ? b - a : b + cpu_buffer->seq_end - a;

	return d && d < cpu_buffer->seq_end / 2;
}

/*
 * Start an empty CPU buffer's page sequence at @seq.  No writer may run on
 * it; the caller holds its reader_lock.
 */
static inline void rtb_cpu_start_at(struct rtb_cpu_buffer *cpu_buffer,
				    unsigned long seq)
{
	struct rtb_page *page = cpu_buffer->ring[seq % cpu_buffer->nr_pages];

	rtb_reset_page(page);
	page->seq = seq;
	page->dropped_mark = 0;
	cpu_buffer->write_page = page;
	local_set(&cpu_buffer->write, rtb_w_make(seq, 0, 0, 0));
	cpu_buffer->stamps[rtb_stamp_index(0, 0)].undo =
		local_read(&cpu_buffer->write);
	cpu_buffer->commit_seq = seq;
	atomic_long_set(&cpu_buffer->head, rtb_head_make(seq, 0, false, 0));
}

void rtb_help_swap(struct rtb_cpu_buffer *cpu_buffer, long head);
void rtb_reader_reset(struct rtb_cpu_buffer *cpu_buffer);

#endif /* _RINGTRACE_BUFFER_INTERNAL_H */
