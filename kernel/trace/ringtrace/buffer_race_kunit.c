// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the ringtrace buffer under interruption, and for its
 * edge cases: full rings, sequence wrap, lost-record reporting, stale
 * bytes, CPU buffer swaps and resizes.
 *
 * A writer can be interrupted anywhere; these cases choose where.  The
 * buffer calls its clock inside the write path's windows: in a
 * reservation between reading the write word and moving it, and inside a
 * move to the next page.  A test clock that writes a record of its own on
 * its Nth call is therefore an interrupt nesting at that window, and a
 * case that runs a workload once for every N covers every window of every
 * write.  Between reservation and commit the cases nest by hand.
 *
 * Every record carries an id and a byte pattern derived from it.  The
 * cases keep their own list of the records the buffer accepted, in buffer
 * order, and their own count of refusals, and check what the readers get
 * against that: contents, order, time, nothing lost or invented.  They
 * never check the buffer's counters against values derived from the same
 * counters.
 *
 * Readers are interrupted the same way: the buffer calls a test hook in
 * each window of a consuming read (enum rtb_reader_window), where a case
 * writes as an NMI on the reader's CPU would.  And an NMI handler reads
 * while the reader lock is held on its CPU.
 *
 * White-box: the internal header lets a case start the page sequence just
 * before it wraps, and count the rare paths the buffer took.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/irqflags.h>
#include <linux/ringtrace_buffer.h>
#include <linux/sched.h>
#include <linux/slab.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#include "buffer_internal.h"

#define RACE_MAX_RECORDS	8192
#define RACE_MAX_LEN		1024

struct race {
	struct kunit		*test;
	struct rtb_buffer	*buffer;
	int			cpu;
	/* The clock, and the nested write it makes on call @inject_at. */
	u64			now;
	unsigned int		calls;
	unsigned int		inject_at;
	unsigned int		inject_len;
	bool			injecting;
	/* What went in, in buffer order, and what the buffer refused. */
	u32			ids[RACE_MAX_RECORDS];
	u64			earliest[RACE_MAX_RECORDS];
	unsigned int		nr_in;
	u32			next_id;
	unsigned long		refused;
	unsigned long		read_total;
	unsigned int		nested_in;
	/* The reader window that writes @window_bytes the next time. */
	bool			window_armed;
	enum rtb_reader_window	window;
	unsigned int		window_bytes;
	unsigned int		window_hits;
	/* A page for rtb_read_page(). */
	struct rtb_data_page	*page;
};

/* The clock takes no argument: the running case. */
static struct race *race;

static void race_fill(void *data, u32 id, unsigned int len)
{
	u8 *p = data;
	unsigned int i;

	memcpy(p, &id, sizeof(id));
	for (i = sizeof(id); i < len; i++)
		p[i] = (u8)(id * 7 + i);
}

/* Whether a record is intact: its length and every byte of its pattern. */
static bool race_intact(struct rtb_event *event, u32 *idp)
{
	unsigned int len = rtb_event_data_length(event), i;
	u8 *p = rtb_event_data(event);
	u32 id;

	if (len < sizeof(id) || len > RACE_MAX_LEN + RTB_ALIGN)
		return false;
	memcpy(&id, p, sizeof(id));
	/* Every length the cases write is a whole number of words. */
	for (i = sizeof(id); i < len; i++)
		if (p[i] != (u8)(id * 7 + i))
			return false;
	*idp = id;
	return true;
}

/* Write one record of @len bytes; the buffer's order is completion order. */
static int race_write(struct race *r, unsigned int len)
{
	u8 data[RACE_MAX_LEN];
	u32 id = r->next_id++;
	u64 start = r->now;

	race_fill(data, id, len);
	if (rtb_write(r->buffer, len, data)) {
		r->refused++;
		return -EBUSY;
	}
	if (r->nr_in < RACE_MAX_RECORDS) {
		r->earliest[r->nr_in] = start;
		r->ids[r->nr_in] = id;
	}
	r->nr_in++;
	return 0;
}

static u64 race_clock(void)
{
	struct race *r = race;

	if (r->inject_at && !r->injecting && ++r->calls == r->inject_at) {
		/* An interrupt: it writes, at a later time, and returns. */
		r->injecting = true;
		r->now += 3;
		if (!race_write(r, r->inject_len))
			r->nested_in++;
		r->injecting = false;
	}
	return r->now;
}

static void race_start(struct race *r, unsigned int pages, unsigned int flags)
{
	struct kunit *test = r->test;

	rtb_free(r->buffer);
	r->buffer = rtb_alloc(pages * RTB_PAGE_DATA_SIZE, flags);
	KUNIT_ASSERT_NOT_NULL(test, r->buffer);
	rtb_set_clock(r->buffer, race_clock);
	r->now = 1000;
	r->calls = 0;
	r->inject_at = 0;
	r->nr_in = 0;
	r->next_id = 0;
	r->refused = 0;
	r->read_total = 0;
	r->nested_in = 0;
	r->window_armed = false;
	r->window_hits = 0;
}

/* Start the (empty) test CPU buffer's page sequence at @seq. */
static void race_start_seq(struct race *r, unsigned long seq)
{
	struct rtb_cpu_buffer *cpu_buffer = r->buffer->cpus[r->cpu];
	unsigned long flags;

	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	rtb_cpu_start_at(cpu_buffer, seq);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
}

/*
 * Consume everything on the test CPU.  The records read must be a suffix
 * of what went in (a prefix may have been overwritten), intact, in order,
 * and in time order.  Returns how many went in before the first one read
 * (the records the buffer lost), or -1 after reporting a failure.
 */
static int race_drain(struct race *r, unsigned int *readp)
{
	struct kunit *test = r->test;
	unsigned int nr = min_t(unsigned int, r->nr_in, RACE_MAX_RECORDS);
	unsigned int pos = 0, read = 0;
	struct rtb_event *event;
	u64 ts, last_ts = 0;
	u32 id;

	while ((event = rtb_consume(r->buffer, r->cpu, &ts, NULL))) {
		if (read >= nr) {
			KUNIT_FAIL(test, "more records read than went in (%u)", nr);
			return -1;
		}
		if (!race_intact(event, &id)) {
			KUNIT_FAIL(test, "record %u after %u read is torn", id, read);
			return -1;
		}
		if (!read)
			while (pos < nr && r->ids[pos] != id)
				pos++;
		if (pos >= nr || r->ids[pos] != id) {
			KUNIT_FAIL(test, "read id %u, expected %u (record %u of %u)",
				   id, pos < nr ? r->ids[pos] : ~0U, pos, nr);
			return -1;
		}
		if (ts < last_ts || ts < r->earliest[pos] || ts > r->now) {
			KUNIT_FAIL(test, "record %u at %llu: after %llu, written in [%llu, %llu]",
				   id, ts, last_ts, r->earliest[pos], r->now);
			return -1;
		}
		last_ts = ts;
		pos++;
		read++;
	}
	*readp = read;
	if (read && pos != nr) {
		KUNIT_FAIL(test, "read stopped at %u of %u records", pos, nr);
		return -1;
	}
	return read ? nr - read : nr;
}

/* A drain in producer/consumer mode loses nothing the buffer accepted. */
static void race_expect_all(struct race *r, const char *what)
{
	struct kunit *test = r->test;
	struct rtb_cpu_stats s;
	unsigned int read = 0;
	int lost;

	lost = race_drain(r, &read);
	r->read_total += read;
	KUNIT_EXPECT_EQ_MSG(test, lost, 0, "%s: inject at %u", what, r->inject_at);
	KUNIT_EXPECT_EQ_MSG(test, read, r->nr_in, "%s: inject at %u", what,
			    r->inject_at);
	rtb_cpu_stats(r->buffer, r->cpu, &s);
	KUNIT_EXPECT_EQ_MSG(test, s.entries, 0UL, "%s: inject at %u", what,
			    r->inject_at);
	KUNIT_EXPECT_EQ_MSG(test, s.dropped, r->refused, "%s: inject at %u",
			    what, r->inject_at);
	KUNIT_EXPECT_EQ(test, s.read, r->read_total);
}

/* Lengths that cross pages at varying offsets, with padding left behind. */
static const unsigned int race_lens[] = { 4, 60, 24, 200, 4, 500, 12, 1000, 36 };

static unsigned int race_workload(struct race *r, unsigned int bytes)
{
	unsigned int i, done = 0;

	for (i = 0; done < bytes; i++) {
		unsigned int len = race_lens[i % ARRAY_SIZE(race_lens)];

		r->now += 10;
		race_write(r, len);
		done += len + 8;
	}
	return i;
}

/*
 * Every window of every write of a workload, in turn, gets a nested
 * writer.  Producer/consumer: a drain returns every accepted record and
 * the buffer counts exactly the refused ones as dropped.
 */
static void test_nested_writer_at_every_window_pc(struct kunit *test)
{
	struct race *r = race;
	unsigned int n, calls;

	/* How many clock calls the workload makes undisturbed. */
	race_start(r, 3, 0);
	r->inject_at = ~0U;
	race_workload(r, 4 * RTB_PAGE_DATA_SIZE);
	calls = r->calls;
	race_expect_all(r, "undisturbed");

	for (n = 1; n <= calls + 1; n++) {
		race_start(r, 3, 0);
		r->inject_at = n;
		r->inject_len = race_lens[n % ARRAY_SIZE(race_lens)];
		race_workload(r, 4 * RTB_PAGE_DATA_SIZE);
		race_expect_all(r, "pc");
	}
}

/* The same in overwrite mode: the records read are the newest, in order. */
static void test_nested_writer_at_every_window_overwrite(struct kunit *test)
{
	struct race *r = race;
	unsigned int n, calls, read;
	struct rtb_cpu_stats s;
	int lost;

	race_start(r, 3, RTB_FL_OVERWRITE);
	r->inject_at = ~0U;
	race_workload(r, 6 * RTB_PAGE_DATA_SIZE);
	calls = r->calls;

	for (n = 1; n <= calls + 1; n++) {
		race_start(r, 3, RTB_FL_OVERWRITE);
		r->inject_at = n;
		r->inject_len = race_lens[(n + 3) % ARRAY_SIZE(race_lens)];
		race_workload(r, 6 * RTB_PAGE_DATA_SIZE);
		lost = race_drain(r, &read);
		KUNIT_ASSERT_GE_MSG(test, lost, 0, "inject at %u", n);
		KUNIT_EXPECT_GT(test, read, 0U);
		rtb_cpu_stats(r->buffer, r->cpu, &s);
		/* Only a nested writer inside a page move is refused. */
		KUNIT_EXPECT_EQ_MSG(test, s.dropped, r->refused, "inject at %u", n);
		KUNIT_EXPECT_EQ_MSG(test, s.overruns, (unsigned long)lost,
				    "inject at %u", n);
		KUNIT_EXPECT_EQ_MSG(test, s.entries, 0UL, "inject at %u", n);
	}
}

/*
 * A nested writer between an outer reservation and its commit, itself
 * interrupted at each window: the outer record comes first (it was
 * reserved first) and everything shows after the outer commit.
 */
static void test_nested_writers_inside_a_reservation(struct kunit *test)
{
	struct race *r = race;
	struct rtb_event *outer;
	unsigned int n;
	u8 data[64];
	u32 id;

	for (n = 1; n <= 40; n++) {
		race_start(r, 4, 0);
		r->now += 10;
		outer = rtb_lock_reserve(r->buffer, sizeof(data));
		KUNIT_ASSERT_NOT_NULL(test, outer);
		id = r->next_id++;
		r->earliest[0] = r->now;
		r->ids[0] = id;
		r->nr_in = 1;
		r->inject_at = n;
		r->inject_len = 200;
		race_workload(r, 2 * RTB_PAGE_DATA_SIZE);
		race_fill(data, id, sizeof(data));
		memcpy(rtb_event_data(outer), data, sizeof(data));
		rtb_unlock_commit(r->buffer, outer);
		race_expect_all(r, "inside");
	}
}

/*
 * Producer/consumer, ring full but for 8 bytes: an interrupt fits its
 * record in them, then the outer record finds no room and is refused.  The
 * interrupt's record is committed and must be readable: the failed outer
 * writer is the one that publishes it.
 */
static void test_refused_outer_write_publishes_nested(struct kunit *test)
{
	struct race *r = race;
	unsigned int i, per_page = RTB_PAGE_DATA_SIZE / 8;

	race_start(r, 2, 0);
	for (i = 0; i < 2 * per_page - 1; i++) {
		r->now += 10;
		KUNIT_ASSERT_EQ(test, race_write(r, 4), 0);
	}
	r->calls = 0;
	r->inject_at = 1;
	r->inject_len = 4;
	r->now += 10;
	KUNIT_EXPECT_EQ(test, race_write(r, 60), -EBUSY);
	KUNIT_EXPECT_EQ(test, r->nested_in, 1U);
	KUNIT_EXPECT_EQ(test, r->nr_in, 2 * per_page);
	race_expect_all(r, "refused outer");
}

/*
 * The page sequence wraps: started a few pages before its end, both modes
 * go through the wrap and on, and their readers lose nothing nor read
 * anything twice.
 */
static void test_page_sequence_wraps(struct kunit *test)
{
	struct race *r = race;
	struct rtb_cpu_buffer *cpu_buffer;
	unsigned int lap, read;
	unsigned long last;
	int lost;

	/* The words that hold sequence numbers hold the largest one. */
	race_start(r, 4, 0);
	cpu_buffer = r->buffer->cpus[r->cpu];
	last = rtb_seq_end(cpu_buffer) - 1;
	KUNIT_EXPECT_EQ(test, rtb_head_seq(rtb_head_make(last, RTB_HEAD_GEN_MASK,
							 true, RTB_HEAD_READ_MASK)),
			last);
	KUNIT_EXPECT_EQ(test, rtb_w_seq(rtb_w_make(last, RTB_PAGE_DATA_SIZE,
						   RTB_MAX_DEPTH - 1, 1) |
					RTB_W_CROSSING),
			last);
	KUNIT_EXPECT_EQ(test, rtb_seq_next(cpu_buffer, last), 0UL);
	KUNIT_EXPECT_TRUE(test, rtb_seq_before(cpu_buffer, last, 0));
	KUNIT_EXPECT_FALSE(test, rtb_seq_before(cpu_buffer, 0, last));

	/* Producer/consumer: a page's worth, then a drain, 24 times. */
	race_start_seq(r, rtb_seq_end(r->buffer->cpus[r->cpu]) - 6);
	for (lap = 0; lap < 24; lap++) {
		r->nr_in = 0;
		race_workload(r, RTB_PAGE_DATA_SIZE);
		race_expect_all(r, "wrap pc");
	}

	/* Overwrite: several laps through the wrap, then one drain. */
	race_start(r, 4, RTB_FL_OVERWRITE);
	race_start_seq(r, rtb_seq_end(r->buffer->cpus[r->cpu]) - 5);
	race_workload(r, 14 * RTB_PAGE_DATA_SIZE);
	lost = race_drain(r, &read);
	KUNIT_EXPECT_GT(test, lost, 0);
	KUNIT_EXPECT_GT(test, read, 2U * RTB_PAGE_DATA_SIZE / RACE_MAX_LEN);
	KUNIT_EXPECT_EQ(test, read + lost, r->nr_in);
}

/*
 * Records dropped in producer/consumer mode are reported where they were
 * lost: with the first record written after them, not before the oldest
 * page; and a read that finds nothing does not swallow the count.
 */
static void test_lost_records_reported_where_they_happened(struct kunit *test)
{
	struct race *r = race;
	unsigned int i, per_page = RTB_PAGE_DATA_SIZE / 8;
	struct rtb_event *event;
	unsigned long lost;
	u32 id;

	race_start(r, 2, 0);
	for (i = 0; i < 2 * per_page + 10; i++) {
		r->now += 10;
		race_write(r, 4);
	}
	KUNIT_ASSERT_EQ(test, r->refused, 10UL);
	for (i = 0; i < 2 * per_page; i++) {
		event = rtb_consume(r->buffer, r->cpu, NULL, &lost);
		KUNIT_ASSERT_NOT_NULL(test, event);
		KUNIT_EXPECT_EQ_MSG(test, lost, 0UL, "record %u", i);
	}
	KUNIT_EXPECT_NULL(test, rtb_consume(r->buffer, r->cpu, NULL, &lost));
	KUNIT_EXPECT_EQ(test, lost, 0UL);
	r->now += 10;
	KUNIT_ASSERT_EQ(test, race_write(r, 4), 0);
	event = rtb_consume(r->buffer, r->cpu, NULL, &lost);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_ASSERT_TRUE(test, race_intact(event, &id));
	KUNIT_EXPECT_EQ(test, id, 2 * per_page + 10);
	KUNIT_EXPECT_EQ(test, lost, 10UL);

	/* The same through whole pages. */
	race_start(r, 2, 0);
	for (i = 0; i < 2 * per_page + 7; i++) {
		r->now += 10;
		race_write(r, 4);
	}
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_GT(test, rtb_read_page(r->buffer, r->cpu, &r->page), 0);
		KUNIT_EXPECT_FALSE_MSG(test, r->page->commit & RTB_PAGE_MISSED_EVENTS,
				       "page %u", i);
	}
	KUNIT_EXPECT_EQ(test, rtb_read_page(r->buffer, r->cpu, &r->page), -EAGAIN);
	r->now += 10;
	KUNIT_ASSERT_EQ(test, race_write(r, 4), 0);
	KUNIT_ASSERT_EQ(test, rtb_read_page(r->buffer, r->cpu, &r->page), 8);
	KUNIT_EXPECT_TRUE(test, r->page->commit & RTB_PAGE_MISSED_EVENTS);
	KUNIT_ASSERT_TRUE(test, r->page->commit & RTB_PAGE_MISSED_STORED);
	memcpy(&lost, &r->page->data[8], sizeof(lost));
	KUNIT_EXPECT_EQ(test, lost, 7UL);
}

/* Bytes past a page's records (and lost count) are zero when it leaves. */
static void expect_clean_tail(struct kunit *test, struct rtb_data_page *page,
			      int ret, const char *what)
{
	unsigned int i, end = ret;

	if (page->commit & RTB_PAGE_MISSED_STORED)
		end += sizeof(unsigned long);
	for (i = end; i < RTB_PAGE_DATA_SIZE; i++)
		if (page->data[i]) {
			KUNIT_FAIL(test, "%s: byte %u of %u past the records is %#x",
				   what, i, (unsigned int)RTB_PAGE_DATA_SIZE,
				   page->data[i]);
			return;
		}
}

static void test_pages_leave_without_stale_bytes(struct kunit *test)
{
	struct race *r = race;
	unsigned int i;
	int ret;

	/* Lap one fills the pages to the last byte. */
	race_start(r, 2, 0);
	for (i = 0; i < 2 * RTB_PAGE_DATA_SIZE / 8; i++)
		race_write(r, 4);
	/* Forgotten: lap two leaves padding where lap one had records. */
	rtb_reset_cpu(r->buffer, r->cpu);
	for (i = 0; i < 2 * RTB_PAGE_DATA_SIZE / 28 - 3; i++)
		race_write(r, 24);
	/* The caller's page is full of old bytes too. */
	memset(r->page, 0xa5, PAGE_SIZE);
	ret = rtb_read_page(r->buffer, r->cpu, &r->page);
	KUNIT_ASSERT_EQ(test, ret, RTB_PAGE_DATA_SIZE / 28 * 28);
	expect_clean_tail(test, r->page, ret, "whole page");
	/* A partly read page is copied into the caller's page. */
	KUNIT_ASSERT_NOT_NULL(test, rtb_consume(r->buffer, r->cpu, NULL, NULL));
	memset(r->page, 0xa5, PAGE_SIZE);
	ret = rtb_read_page(r->buffer, r->cpu, &r->page);
	KUNIT_ASSERT_GT(test, ret, 0);
	expect_clean_tail(test, r->page, ret, "copied page");
	/* The page given in the first read went into the ring: it leaves clean. */
	for (i = 0; i < 3 * RTB_PAGE_DATA_SIZE / 28; i++)
		race_write(r, 24);
	while ((ret = rtb_read_page(r->buffer, r->cpu, &r->page)) > 0)
		expect_clean_tail(test, r->page, ret, "recycled page");
}

/* An oversized write is an attempt like any other: counted as dropped. */
static void test_oversized_write_is_counted(struct kunit *test)
{
	struct race *r = race;
	struct rtb_cpu_stats s;
	static u8 big[RTB_MAX_PAYLOAD + 1];

	race_start(r, 2, 0);
	KUNIT_EXPECT_EQ(test, rtb_write(r->buffer, sizeof(big), big), -EBUSY);
	KUNIT_EXPECT_EQ(test, rtb_write(r->buffer, RTB_MAX_PAYLOAD, big), 0);
	rtb_cpu_stats(r->buffer, r->cpu, &s);
	KUNIT_EXPECT_EQ(test, s.dropped, 1UL);
	KUNIT_EXPECT_EQ(test, s.written, 2UL);
	KUNIT_EXPECT_EQ(test, s.entries, 1UL);
}

/*
 * rtb_swap_cpu() is for latency tracers, which call it with interrupts
 * off on the CPU: it must not sleep, and it must refuse while a writer of
 * that CPU is between reservation and commit (the commit would land in the
 * other buffer).
 */
static void test_swap_cpu_with_irqs_off(struct kunit *test)
{
	struct race *r = race;
	struct rtb_buffer *other;
	struct rtb_event *event;
	unsigned long flags;
	unsigned int read;
	int ret;

	race_start(r, 2, 0);
	race_write(r, 4);
	other = rtb_alloc(2 * RTB_PAGE_DATA_SIZE, 0);
	KUNIT_ASSERT_NOT_NULL(test, other);
	rtb_set_clock(other, race_clock);

	/* No assertion until rtb_free(other). */
	event = rtb_lock_reserve(r->buffer, 8);
	if (!event) {
		rtb_free(other);
		KUNIT_FAIL(test, "no room for 8 bytes");
		return;
	}
	local_irq_save(flags);
	ret = rtb_swap_cpu(r->buffer, other, r->cpu);
	local_irq_restore(flags);
	race_fill(rtb_event_data(event), r->next_id, 8);
	r->ids[r->nr_in] = r->next_id++;
	r->earliest[r->nr_in++] = r->now;
	rtb_unlock_commit(r->buffer, event);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);

	/* Both records still in r->buffer, committed, readable. */
	race_expect_all(r, "swap refused");

	race_write(r, 4);
	local_irq_save(flags);
	ret = rtb_swap_cpu(r->buffer, other, r->cpu);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, rtb_empty_cpu(r->buffer, r->cpu));
	KUNIT_EXPECT_FALSE(test, rtb_empty_cpu(other, r->cpu));
	/* Writers keep committing on both sides afterwards. */
	r->nr_in = 0;
	r->read_total = 0;
	race_write(r, 4);
	race_write(r, 4);
	race_expect_all(r, "after swap");
	KUNIT_EXPECT_EQ(test, rtb_write(other, 4, &read), 0);
	KUNIT_EXPECT_NOT_NULL(test, rtb_consume(other, r->cpu, NULL, NULL));
	KUNIT_EXPECT_NOT_NULL(test, rtb_consume(other, r->cpu, NULL, NULL));
	rtb_free(other);
}

/* A resize would free the pages an iterator is on: refused meanwhile. */
static void test_resize_refused_while_iterating(struct kunit *test)
{
	struct race *r = race;
	struct rtb_event *event;
	struct rtb_iter *iter;
	u32 id;

	race_start(r, 2, 0);
	race_write(r, 4);
	iter = rtb_read_start(r->buffer, r->cpu);
	KUNIT_ASSERT_NOT_NULL(test, iter);
	KUNIT_EXPECT_EQ(test, rtb_resize(r->buffer, 4 * RTB_PAGE_DATA_SIZE), -EBUSY);
	event = rtb_read(iter, NULL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_TRUE(test, race_intact(event, &id));
	KUNIT_EXPECT_EQ(test, id, 0U);
	rtb_read_finish(iter);
	KUNIT_EXPECT_EQ(test, rtb_resize(r->buffer, 4 * RTB_PAGE_DATA_SIZE), 0);
	KUNIT_EXPECT_EQ(test, rtb_size(r->buffer), 4 * RTB_PAGE_DATA_SIZE);
}

/*
 * The reader window hook: once armed, the next reader of the test CPU to
 * reach r->window finds a writer of its CPU there, as an NMI would be.
 */
static void race_reader_window(struct rtb_cpu_buffer *cpu_buffer,
			       enum rtb_reader_window window)
{
	struct race *r = race;

	if (!r->window_armed || window != r->window ||
	    cpu_buffer->cpu != r->cpu)
		return;
	r->window_armed = false;
	r->window_hits++;
	race_workload(r, r->window_bytes);
}

static void race_arm_window(struct race *r, enum rtb_reader_window window,
			    unsigned int bytes)
{
	r->buffer->reader_window = race_reader_window;
	r->window = window;
	r->window_bytes = bytes;
	r->window_armed = true;
}

/*
 * Producer/consumer, ring full: a reader claims the head page, and before
 * it puts its own page in the ring slot a writer needs the slot.  The
 * writer installs the reader's page itself and writes on: every record
 * of both sides is read, none twice.
 */
static void test_writer_installs_claimed_page(struct kunit *test)
{
	struct race *r = race;
	struct rtb_cpu_buffer *cpu_buffer;
	long helped;

	race_start(r, 3, 0);
	cpu_buffer = r->buffer->cpus[r->cpu];
	race_workload(r, 4 * RTB_PAGE_DATA_SIZE);
	KUNIT_ASSERT_GT(test, r->refused, 0UL);
	helped = atomic_long_read(&cpu_buffer->paths.help_swaps);
	race_arm_window(r, RTB_WINDOW_CLAIMED, RTB_PAGE_DATA_SIZE / 2);
	/* The first read claims the head page and meets the writer. */
	KUNIT_EXPECT_NOT_NULL(test, rtb_peek(r->buffer, r->cpu, NULL));
	KUNIT_EXPECT_EQ(test, r->window_hits, 1U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&cpu_buffer->paths.help_swaps),
			helped + 1);
	race_expect_all(r, "claimed page");
}

/*
 * Overwrite: the reader copies the committed part of the page writers are
 * on, and before it accounts the copy the writers lap the ring.  The copy
 * must be discarded: what is read is the newest records, in order, none of
 * the overwritten ones, and the lost ones are counted as overruns.
 */
static void test_overwritten_copy_is_discarded(struct kunit *test)
{
	struct race *r = race;
	struct rtb_cpu_buffer *cpu_buffer;
	struct rtb_cpu_stats s;
	unsigned int read;
	long discarded;
	int lost;

	race_start(r, 3, RTB_FL_OVERWRITE);
	cpu_buffer = r->buffer->cpus[r->cpu];
	race_workload(r, RTB_PAGE_DATA_SIZE / 2);
	discarded = atomic_long_read(&cpu_buffer->paths.partial_discards);
	race_arm_window(r, RTB_WINDOW_COPIED, 4 * RTB_PAGE_DATA_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, rtb_peek(r->buffer, r->cpu, NULL));
	KUNIT_EXPECT_EQ(test, r->window_hits, 1U);
	KUNIT_EXPECT_EQ(test,
			atomic_long_read(&cpu_buffer->paths.partial_discards),
			discarded + 1);
	lost = race_drain(r, &read);
	KUNIT_EXPECT_GT(test, lost, 0);
	KUNIT_EXPECT_GT(test, read, 0U);
	rtb_cpu_stats(r->buffer, r->cpu, &s);
	KUNIT_EXPECT_EQ(test, s.overruns, (unsigned long)lost);
	KUNIT_EXPECT_EQ(test, s.entries, 0UL);
}

/*
 * Consume everything on the test CPU, checking that each record comes with
 * exactly the lost count of the accepted records between it and the one
 * read before it.  Returns the records read.
 */
static unsigned int race_drain_gaps(struct race *r)
{
	struct kunit *test = r->test;
	unsigned int nr, pos = 0, at, read = 0;
	struct rtb_event *event;
	unsigned long lost;
	u32 id;

	while ((event = rtb_consume(r->buffer, r->cpu, NULL, &lost))) {
		/* A reader window may have written more meanwhile. */
		nr = min_t(unsigned int, r->nr_in, RACE_MAX_RECORDS);
		if (!race_intact(event, &id)) {
			KUNIT_FAIL(test, "record after %u read is torn", read);
			break;
		}
		for (at = pos; at < nr && r->ids[at] != id; at++)
			;
		if (at == nr) {
			KUNIT_FAIL(test, "read id %u, not among those left", id);
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, lost, (unsigned long)(at - pos),
				    "lost count reported with record %u", id);
		pos = at + 1;
		read++;
	}
	return read;
}

/*
 * Overwrite: the reader claims the oldest page, and before it puts its own
 * page in the ring the writers lap it, overwriting the page after the
 * claimed one.  The claimed page's records come with no loss (nothing was
 * lost before them); the loss is reported with the first record after the
 * overwritten page.
 */
static void test_lost_records_after_a_claimed_page(struct kunit *test)
{
	struct race *r = race;
	struct rtb_cpu_stats s;
	unsigned int read;

	race_start(r, 3, RTB_FL_OVERWRITE);
	race_workload(r, 5 * RTB_PAGE_DATA_SIZE / 2);
	race_arm_window(r, RTB_WINDOW_CLAIMED, 2 * RTB_PAGE_DATA_SIZE);
	read = race_drain_gaps(r);
	KUNIT_EXPECT_EQ(test, r->window_hits, 1U);
	rtb_cpu_stats(r->buffer, r->cpu, &s);
	KUNIT_EXPECT_GT(test, s.overruns, 0UL);
	KUNIT_EXPECT_EQ(test, s.overruns + read, (unsigned long)r->nr_in);
	KUNIT_EXPECT_EQ(test, s.entries, 0UL);
}

#ifdef CONFIG_X86_LOCAL_APIC
/* What the NMI handler of test_readers_in_nmi_only_try_the_lock() saw. */
static struct {
	atomic_t		armed;
	bool			ran;
	bool			peeked;
	bool			consumed;
	int			read_page;
} race_nmi;

static int race_nmi_fn(unsigned int type, struct pt_regs *regs)
{
	struct race *r = race;

	/* Ours: raised on the test's CPU while it holds the reader lock. */
	if (smp_processor_id() != r->cpu || !atomic_xchg(&race_nmi.armed, 0))
		return NMI_DONE;
	race_nmi.peeked = rtb_peek(r->buffer, r->cpu, NULL);
	race_nmi.consumed = rtb_consume(r->buffer, r->cpu, NULL, NULL);
	race_nmi.read_page = rtb_read_page(r->buffer, r->cpu, &r->page);
	/* Pairs with smp_load_acquire() in the case. */
	smp_store_release(&race_nmi.ran, true);
	return NMI_HANDLED;
}

/*
 * An NMI that reads a CPU buffer whose reader lock its own CPU holds
 * (a crash dump interrupting a reader) must not spin on that lock: it
 * finds nothing, and the records stay for the interrupted reader.  A
 * reader that takes the lock in NMI hangs this case (its CPU spins with
 * the lock held under it): the VM's timeout and the RCU stall it reports
 * fail the run.
 */
static void test_readers_in_nmi_only_try_the_lock(struct kunit *test)
{
	struct race *r = race;
	struct rtb_cpu_buffer *cpu_buffer;
	unsigned long flags;
	unsigned int us;

	if (!boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no local APIC to raise an NMI with");
	race_start(r, 2, 0);
	race_write(r, 4);
	race_write(r, 60);
	cpu_buffer = r->buffer->cpus[r->cpu];
	memset(&race_nmi, 0, sizeof(race_nmi));
	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, race_nmi_fn, 0,
						   "rtb_race"), 0);

	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	atomic_set(&race_nmi.armed, 1);
	apic->send_IPI(r->cpu, NMI_VECTOR);
	/* Pairs with smp_store_release() in race_nmi_fn(). */
	for (us = 0; us < 100000 && !smp_load_acquire(&race_nmi.ran); us++)
		udelay(1);
	/* An NMI later than that must not read with the lock free. */
	atomic_set(&race_nmi.armed, 0);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	/* Waits for a handler still running. */
	unregister_nmi_handler(NMI_LOCAL, "rtb_race");

	if (!race_nmi.ran)
		kunit_skip(test, "no NMI arrived in 100 ms (none in this VM?)");
	KUNIT_EXPECT_FALSE(test, race_nmi.peeked);
	KUNIT_EXPECT_FALSE(test, race_nmi.consumed);
	KUNIT_EXPECT_EQ(test, race_nmi.read_page, -EAGAIN);
	race_expect_all(r, "after the NMI");
}
#endif

static int race_init(struct kunit *test)
{
	struct race *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->page = (void *)__get_free_page(GFP_KERNEL | __GFP_ZERO);
	if (!r->page) {
		kfree(r);
		return -ENOMEM;
	}
	r->test = test;
	/* Writes go to the CPU the writer runs on: stay on one. */
	r->cpu = raw_smp_processor_id();
	if (set_cpus_allowed_ptr(current, cpumask_of(r->cpu))) {
		free_page((unsigned long)r->page);
		kfree(r);
		return -EINVAL;
	}
	race = r;
	return 0;
}

static void race_exit(struct kunit *test)
{
	struct race *r = race;

	rtb_free(r->buffer);
	free_page((unsigned long)r->page);
	kfree(r);
	race = NULL;
}

static struct kunit_case race_cases[] = {
	KUNIT_CASE(test_nested_writer_at_every_window_pc),
	KUNIT_CASE(test_nested_writer_at_every_window_overwrite),
	KUNIT_CASE(test_nested_writers_inside_a_reservation),
	KUNIT_CASE(test_refused_outer_write_publishes_nested),
	KUNIT_CASE(test_page_sequence_wraps),
	KUNIT_CASE(test_lost_records_reported_where_they_happened),
	KUNIT_CASE(test_pages_leave_without_stale_bytes),
	KUNIT_CASE(test_oversized_write_is_counted),
	KUNIT_CASE(test_resize_refused_while_iterating),
	KUNIT_CASE(test_writer_installs_claimed_page),
	KUNIT_CASE(test_overwritten_copy_is_discarded),
	KUNIT_CASE(test_lost_records_after_a_claimed_page),
#ifdef CONFIG_X86_LOCAL_APIC
	KUNIT_CASE(test_readers_in_nmi_only_try_the_lock),
#endif
	/* Last: before its fix it slept with interrupts off. */
	KUNIT_CASE(test_swap_cpu_with_irqs_off),
	{}
};

static struct kunit_suite race_suite = {
	.name = "ringtrace_buffer_race",
	.init = race_init,
	.exit = race_exit,
	.test_cases = race_cases,
};

kunit_test_suite(race_suite);

MODULE_DESCRIPTION("KUnit tests for the ringtrace buffer under interruption");
MODULE_LICENSE("GPL");
