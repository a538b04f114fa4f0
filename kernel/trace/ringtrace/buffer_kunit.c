// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the ringtrace buffer API.
 *
 * Each case allocates small buffers (two to four pages per CPU), writes
 * records carrying a sequence number from the CPU the test runs on (the
 * test thread is pinned there), and observes the results only through the
 * public API: consuming reads, iterators, whole-page reads and counters.
 * A fake clock, advanced by the cases, makes time stamps exact and lets
 * them inject deltas too large for 27 bits.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/ringtrace_buffer.h>
#include <linux/sched.h>
#include <linux/slab.h>

static u64 fake_now;

static u64 fake_clock(void)
{
	return READ_ONCE(fake_now);
}

struct rtb_test {
	int cpu;
	struct rtb_buffer *buffer;
	/* A page for rtb_read_page(), which may exchange it. */
	struct rtb_data_page *page;
};

static struct rtb_data_page *test_page(struct kunit *test)
{
	struct rtb_test *t = test->priv;

	t->page = (void *)__get_free_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, t->page);
	return t->page;
}

/* Records of this payload size fill a page exactly. */
#define SMALL_PAYLOAD		4
#define SMALL_PER_PAGE		(RTB_PAGE_DATA_SIZE / 8)
/* 28-byte records: 145 per page, with padding left at its end. */
#define PADDED_PAYLOAD		24
#define PADDED_PER_PAGE		(RTB_PAGE_DATA_SIZE / 28)

static struct rtb_buffer *test_buffer(struct kunit *test, unsigned int pages,
				      unsigned int flags)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer;

	buffer = rtb_alloc(pages * RTB_PAGE_DATA_SIZE, flags);
	KUNIT_ASSERT_NOT_NULL(test, buffer);
	rtb_set_clock(buffer, fake_clock);
	t->buffer = buffer;
	return buffer;
}

/* Write @count records of @payload bytes numbered from @first; returns how many went in. */
static unsigned int write_seq(struct rtb_buffer *buffer, u32 first,
			      unsigned int count, unsigned int payload)
{
	u8 data[64] = {};
	unsigned int i, done = 0;

	for (i = 0; i < count; i++) {
		u32 seq = first + i;

		memcpy(data, &seq, sizeof(seq));
		fake_now += 10;
		if (!rtb_write(buffer, payload, data))
			done++;
	}
	return done;
}

static u32 event_seq(struct rtb_event *event)
{
	u32 seq;

	memcpy(&seq, rtb_event_data(event), sizeof(seq));
	return seq;
}

/* Consume everything on the test CPU, checking the numbers follow on. */
static unsigned int drain_in_order(struct kunit *test, struct rtb_buffer *buffer,
				   u32 first)
{
	struct rtb_test *t = test->priv;
	struct rtb_event *event;
	unsigned int n = 0;
	u64 ts, last_ts = 0;

	while ((event = rtb_consume(buffer, t->cpu, &ts, NULL))) {
		KUNIT_EXPECT_EQ(test, event_seq(event), first + n);
		KUNIT_EXPECT_GE(test, ts, last_ts);
		last_ts = ts;
		n++;
	}
	return n;
}

static void expect_identity(struct kunit *test, struct rtb_buffer *buffer,
			    unsigned long written)
{
	struct rtb_test *t = test->priv;
	struct rtb_cpu_stats s;

	rtb_cpu_stats(buffer, t->cpu, &s);
	KUNIT_EXPECT_EQ(test, s.written, written);
	KUNIT_EXPECT_EQ(test, s.written,
			s.entries + s.overruns + s.dropped + s.read);
}

static void test_alloc_rounds_size_up_to_pages(struct kunit *test)
{
	struct rtb_buffer *buffer;

	buffer = rtb_alloc(1, 0);
	KUNIT_ASSERT_NOT_NULL(test, buffer);
	/* Two pages at least: one to write while the oldest is read. */
	KUNIT_EXPECT_EQ(test, rtb_size(buffer), 2 * RTB_PAGE_DATA_SIZE);
	rtb_free(buffer);

	buffer = test_buffer(test, 3, 0);
	KUNIT_EXPECT_EQ(test, rtb_size(buffer), 3 * RTB_PAGE_DATA_SIZE);
	KUNIT_EXPECT_TRUE(test, rtb_empty(buffer));
	KUNIT_EXPECT_EQ(test, rtb_entries(buffer), 0UL);
}

static void expect_record(struct kunit *test, unsigned int payload,
			  unsigned int length, unsigned int len_word)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);
	u8 data[128], *got;
	struct rtb_event *event;
	unsigned int i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = i ^ 0x5a;
	KUNIT_ASSERT_EQ(test, rtb_write(buffer, payload, data), 0);
	event = rtb_consume(buffer, t->cpu, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_EQ(test, rtb_event_type(event), (unsigned int)RTB_TYPE_DATA);
	KUNIT_EXPECT_EQ(test, rtb_event_length(event), length);
	if (len_word)
		KUNIT_EXPECT_EQ(test, event->array[0], len_word);
	got = rtb_event_data(event);
	KUNIT_EXPECT_EQ(test, memcmp(got, data, payload), 0);
	rtb_free(buffer);
	t->buffer = NULL;
}

static void test_record_sizes_follow_the_spec(struct kunit *test)
{
	expect_record(test, 7, 12, 0);
	expect_record(test, 28, 32, 0);
	expect_record(test, 29, 40, 36);
	expect_record(test, 82, 92, 88);
	/* A zero-length write stores one byte: the smallest record. */
	expect_record(test, 0, 8, 0);
}

static void test_consume_returns_records_in_order_with_time(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);
	struct rtb_event *event;
	u64 start = fake_now, ts;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, write_seq(buffer, 0, 5, SMALL_PAYLOAD), 5U);
	for (i = 0; i < 5; i++) {
		event = rtb_peek(buffer, t->cpu, &ts);
		KUNIT_ASSERT_NOT_NULL(test, event);
		KUNIT_EXPECT_EQ(test, ts, start + 10 * (i + 1));
		event = rtb_consume(buffer, t->cpu, &ts, NULL);
		KUNIT_ASSERT_NOT_NULL(test, event);
		KUNIT_EXPECT_EQ(test, event_seq(event), i);
		KUNIT_EXPECT_EQ(test, ts, start + 10 * (i + 1));
	}
	KUNIT_EXPECT_NULL(test, rtb_consume(buffer, t->cpu, NULL, NULL));
	KUNIT_EXPECT_TRUE(test, rtb_empty_cpu(buffer, t->cpu));
	expect_identity(test, buffer, 5);
}

static void test_large_delta_emits_time_extend(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);
	struct rtb_data_page *page;
	struct rtb_event *event;
	u64 first, big = (1ULL << 40) + 12345;
	u64 ts;

	page = test_page(test);
	KUNIT_ASSERT_EQ(test, write_seq(buffer, 0, 1, SMALL_PAYLOAD), 1U);
	first = fake_now;
	fake_now += big - 10;
	KUNIT_ASSERT_EQ(test, write_seq(buffer, 1, 1, SMALL_PAYLOAD), 1U);

	KUNIT_ASSERT_EQ(test, rtb_read_page(buffer, t->cpu, &page), 8 + 8 + 8);
	t->page = page;
	KUNIT_EXPECT_EQ(test, page->time_stamp, first);
	event = (struct rtb_event *)&page->data[8];
	KUNIT_EXPECT_EQ(test, rtb_event_type(event),
			(unsigned int)RTB_TYPE_TIME_EXTEND);
	KUNIT_EXPECT_EQ(test, rtb_event_length(event), 8U);
	KUNIT_EXPECT_EQ(test, rtb_event_time_delta(event), big);
	event = (struct rtb_event *)&page->data[16];
	KUNIT_EXPECT_EQ(test, rtb_event_time_delta(event), 0ULL);

	/* Consuming readers fold the extension into the time stamp. */
	KUNIT_ASSERT_EQ(test, write_seq(buffer, 2, 1, SMALL_PAYLOAD), 1U);
	fake_now += big;
	KUNIT_ASSERT_EQ(test, write_seq(buffer, 3, 1, SMALL_PAYLOAD), 1U);
	event = rtb_consume(buffer, t->cpu, &ts, NULL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_EQ(test, event_seq(event), 2U);
	event = rtb_consume(buffer, t->cpu, &ts, NULL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_EQ(test, event_seq(event), 3U);
	KUNIT_EXPECT_EQ(test, ts, fake_now);
}

static void test_padding_closes_a_page(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 3, 0);
	struct rtb_event *event;
	unsigned int i;
	u64 ts;

	/* One more than a page holds: the last goes to the next page. */
	KUNIT_ASSERT_EQ(test, write_seq(buffer, 0, PADDED_PER_PAGE + 1,
					PADDED_PAYLOAD),
			PADDED_PER_PAGE + 1);
	for (i = 0; i <= PADDED_PER_PAGE; i++) {
		event = rtb_consume(buffer, t->cpu, &ts, NULL);
		KUNIT_ASSERT_NOT_NULL(test, event);
		KUNIT_EXPECT_EQ(test, event_seq(event), i);
		if (i < PADDED_PER_PAGE - 1)
			continue;
		if (i == PADDED_PER_PAGE - 1) {
			/* The padding follows the last record of the page. */
			event = (void *)event + rtb_event_length(event);
			KUNIT_EXPECT_EQ(test, rtb_event_type(event),
					(unsigned int)RTB_TYPE_PADDING);
			KUNIT_EXPECT_EQ(test, rtb_event_length(event),
					RTB_PAGE_DATA_SIZE -
					PADDED_PER_PAGE * 28);
		}
	}
	KUNIT_EXPECT_EQ(test, ts, fake_now);
}

static void test_producer_consumer_drops_new_records(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);
	unsigned int cap = 2 * SMALL_PER_PAGE;
	struct rtb_cpu_stats s;

	KUNIT_EXPECT_EQ(test, write_seq(buffer, 0, cap + 100, SMALL_PAYLOAD),
			cap);
	rtb_cpu_stats(buffer, t->cpu, &s);
	KUNIT_EXPECT_EQ(test, s.dropped, 100UL);
	KUNIT_EXPECT_EQ(test, s.overruns, 0UL);
	KUNIT_EXPECT_EQ(test, s.entries, (unsigned long)cap);
	expect_identity(test, buffer, cap + 100);
	/* The oldest records are kept. */
	KUNIT_EXPECT_EQ(test, drain_in_order(test, buffer, 0), cap);
	expect_identity(test, buffer, cap + 100);
}

static void test_overwrite_drops_oldest_pages(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, RTB_FL_OVERWRITE);
	unsigned int total = 5 * SMALL_PER_PAGE + 7;
	struct rtb_cpu_stats s;

	KUNIT_EXPECT_EQ(test, write_seq(buffer, 0, total, SMALL_PAYLOAD), total);
	rtb_cpu_stats(buffer, t->cpu, &s);
	KUNIT_EXPECT_EQ(test, s.dropped, 0UL);
	/* Whole pages go: every record they held is an overrun. */
	KUNIT_EXPECT_EQ(test, s.overruns, 4UL * SMALL_PER_PAGE);
	KUNIT_EXPECT_EQ(test, rtb_overruns(buffer), 4UL * SMALL_PER_PAGE);
	expect_identity(test, buffer, total);
	KUNIT_EXPECT_EQ(test, drain_in_order(test, buffer, s.overruns),
			total - s.overruns);
	expect_identity(test, buffer, total);
}

static void test_reader_follows_writer_on_its_page(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 3, 0);
	struct rtb_event *event;

	/* Records on the page the writer is still on are readable. */
	write_seq(buffer, 0, 3, SMALL_PAYLOAD);
	event = rtb_consume(buffer, t->cpu, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_EQ(test, event_seq(event), 0U);
	write_seq(buffer, 3, 2, SMALL_PAYLOAD);
	KUNIT_EXPECT_EQ(test, drain_in_order(test, buffer, 1), 4U);
	/* Then the page fills up and the reader swaps it out. */
	write_seq(buffer, 5, 2 * SMALL_PER_PAGE, SMALL_PAYLOAD);
	KUNIT_EXPECT_EQ(test, drain_in_order(test, buffer, 5),
			2 * SMALL_PER_PAGE);
	expect_identity(test, buffer, 5 + 2 * SMALL_PER_PAGE);
	/* Records already read are not read or counted again. */
	write_seq(buffer, 5 + 2 * SMALL_PER_PAGE, 4 * SMALL_PER_PAGE,
		  SMALL_PAYLOAD);
	expect_identity(test, buffer, 5 + 6 * SMALL_PER_PAGE);
}

static void test_overwrite_counts_partly_read_page_once(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, RTB_FL_OVERWRITE);
	unsigned int total = 10 + 3 * SMALL_PER_PAGE;
	struct rtb_cpu_stats s;
	unsigned int n;

	write_seq(buffer, 0, 10, SMALL_PAYLOAD);
	/* The reader copies the ten out of the page the writer is on. */
	KUNIT_EXPECT_EQ(test, drain_in_order(test, buffer, 0), 10U);
	write_seq(buffer, 10, 3 * SMALL_PER_PAGE, SMALL_PAYLOAD);
	rtb_cpu_stats(buffer, t->cpu, &s);
	/* Only records never read were lost. */
	KUNIT_EXPECT_EQ(test, s.overruns, 2UL * SMALL_PER_PAGE - 10);
	n = drain_in_order(test, buffer, 10 + s.overruns);
	KUNIT_EXPECT_EQ(test, n, total - 10 - s.overruns);
	expect_identity(test, buffer, total);
}

static void test_nested_writes_commit_with_the_outer(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 4, 0);
	struct rtb_event *outer;
	unsigned int nested;
	bool empty_before;
	u32 zero = 0;
	u64 ts, outer_ts;

	fake_now += 10;
	outer_ts = fake_now;
	outer = rtb_lock_reserve(buffer, sizeof(zero));
	KUNIT_ASSERT_NOT_NULL(test, outer);
	/*
	 * As an interrupt would: nested writes spanning more than a page.
	 * No expectations until the commit: preemption is off meanwhile.
	 */
	nested = write_seq(buffer, 1, SMALL_PER_PAGE + 5, SMALL_PAYLOAD);
	empty_before = rtb_empty_cpu(buffer, t->cpu);
	memcpy(rtb_event_data(outer), &zero, sizeof(zero));
	rtb_unlock_commit(buffer, outer);

	KUNIT_EXPECT_EQ(test, nested, SMALL_PER_PAGE + 5);
	/* Nothing was readable before the outermost writer committed. */
	KUNIT_EXPECT_TRUE(test, empty_before);

	KUNIT_ASSERT_NOT_NULL(test, rtb_peek(buffer, t->cpu, &ts));
	KUNIT_EXPECT_EQ(test, ts, outer_ts);
	KUNIT_EXPECT_EQ(test, drain_in_order(test, buffer, 0),
			SMALL_PER_PAGE + 6);
	KUNIT_EXPECT_EQ(test, ts, outer_ts);
	expect_identity(test, buffer, SMALL_PER_PAGE + 6);
}

static void test_resize_changes_size_and_empties(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);

	write_seq(buffer, 0, 100, SMALL_PAYLOAD);
	KUNIT_ASSERT_EQ(test, rtb_resize(buffer, 5 * RTB_PAGE_DATA_SIZE), 0);
	KUNIT_EXPECT_EQ(test, rtb_size(buffer), 5 * RTB_PAGE_DATA_SIZE);
	KUNIT_EXPECT_TRUE(test, rtb_empty(buffer));
	/* The new size holds five pages of records. */
	KUNIT_EXPECT_EQ(test, write_seq(buffer, 0, 6 * SMALL_PER_PAGE,
					SMALL_PAYLOAD),
			5 * SMALL_PER_PAGE);
	KUNIT_EXPECT_EQ(test, drain_in_order(test, buffer, 0),
			5 * SMALL_PER_PAGE);
	KUNIT_ASSERT_EQ(test, rtb_resize(buffer, 1), 0);
	KUNIT_EXPECT_EQ(test, rtb_size(buffer), 2 * RTB_PAGE_DATA_SIZE);
	expect_identity(test, buffer, 0);
	(void)t;
}

static void test_reset_cpu_empties_that_cpu(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);

	write_seq(buffer, 0, 50, SMALL_PAYLOAD);
	KUNIT_EXPECT_FALSE(test, rtb_empty_cpu(buffer, t->cpu));
	rtb_reset_cpu(buffer, t->cpu);
	KUNIT_EXPECT_TRUE(test, rtb_empty_cpu(buffer, t->cpu));
	expect_identity(test, buffer, 0);
	write_seq(buffer, 0, 50, SMALL_PAYLOAD);
	rtb_reset(buffer);
	KUNIT_EXPECT_TRUE(test, rtb_empty(buffer));
	write_seq(buffer, 7, 3, SMALL_PAYLOAD);
	KUNIT_EXPECT_EQ(test, drain_in_order(test, buffer, 7), 3U);
}

static void test_swap_cpu_moves_records(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *a = test_buffer(test, 2, 0);
	struct rtb_buffer *b;

	b = rtb_alloc(2 * RTB_PAGE_DATA_SIZE, 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	rtb_set_clock(b, fake_clock);
	write_seq(a, 0, 10, SMALL_PAYLOAD);
	KUNIT_EXPECT_EQ(test, rtb_swap_cpu(a, b, t->cpu), 0);
	KUNIT_EXPECT_TRUE(test, rtb_empty_cpu(a, t->cpu));
	KUNIT_EXPECT_EQ(test, rtb_entries(b), 10UL);
	/* Writes to a now land in what was b's CPU buffer. */
	write_seq(a, 100, 2, SMALL_PAYLOAD);
	KUNIT_EXPECT_EQ(test, drain_in_order(test, a, 100), 2U);
	KUNIT_EXPECT_EQ(test, drain_in_order(test, b, 0), 10U);
	KUNIT_EXPECT_EQ(test, rtb_swap_cpu(a, a, t->cpu), -EINVAL);
	KUNIT_EXPECT_EQ(test, rtb_swap_cpu(a, b, -1), -EINVAL);
	rtb_free(b);
}

static void test_iterator_reads_without_consuming(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 4, 0);
	u32 total = 2 * SMALL_PER_PAGE + 30, n = 0;
	struct rtb_event *event;
	struct rtb_iter *iter;
	u64 ts, last = 0;

	write_seq(buffer, 0, total, SMALL_PAYLOAD);
	/* Consume a few: the iterator starts at the oldest unread one. */
	KUNIT_ASSERT_NOT_NULL(test, rtb_consume(buffer, t->cpu, NULL, NULL));
	KUNIT_ASSERT_NOT_NULL(test, rtb_consume(buffer, t->cpu, NULL, NULL));

	iter = rtb_read_start(buffer, t->cpu);
	KUNIT_ASSERT_NOT_NULL(test, iter);
	/* Recording on the CPU stops while the iterator lives. */
	KUNIT_EXPECT_EQ(test, rtb_write(buffer, 4, &n), -EBUSY);
	event = rtb_iter_peek(iter, &ts);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_EQ(test, event_seq(event), 2U);
	while ((event = rtb_read(iter, &ts))) {
		KUNIT_EXPECT_EQ(test, event_seq(event), 2 + n);
		KUNIT_EXPECT_GE(test, ts, last);
		last = ts;
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, total - 2);
	KUNIT_EXPECT_TRUE(test, rtb_iter_empty(iter));
	rtb_iter_reset(iter);
	KUNIT_EXPECT_FALSE(test, rtb_iter_empty(iter));
	event = rtb_read(iter, NULL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_EQ(test, event_seq(event), 2U);
	rtb_read_finish(iter);

	KUNIT_EXPECT_EQ(test, rtb_write(buffer, 4, &total), 0);
	KUNIT_EXPECT_EQ(test, drain_in_order(test, buffer, 2), total - 1);
}

static void test_record_disable_is_per_cpu_and_nests(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);
	int other = cpumask_any_but(cpu_possible_mask, t->cpu);
	unsigned int written = 2;
	u32 v = 0;

	rtb_record_disable_cpu(buffer, t->cpu);
	KUNIT_EXPECT_EQ(test, rtb_write(buffer, 4, &v), -EBUSY);
	rtb_record_enable_cpu(buffer, t->cpu);
	KUNIT_EXPECT_EQ(test, rtb_write(buffer, 4, &v), 0);
	if (other < nr_cpu_ids) {
		rtb_record_disable_cpu(buffer, other);
		KUNIT_EXPECT_EQ(test, rtb_write(buffer, 4, &v), 0);
		rtb_record_enable_cpu(buffer, other);
		written++;
	}
	rtb_record_disable(buffer);
	rtb_record_disable(buffer);
	KUNIT_EXPECT_EQ(test, rtb_write(buffer, 4, &v), -EBUSY);
	rtb_record_enable(buffer);
	KUNIT_EXPECT_EQ(test, rtb_write(buffer, 4, &v), -EBUSY);
	rtb_record_enable(buffer);
	KUNIT_EXPECT_EQ(test, rtb_write(buffer, 4, &v), 0);
	/* Disabled writes are not attempts: nothing counts them. */
	expect_identity(test, buffer, written);
	KUNIT_EXPECT_EQ(test, rtb_entries(buffer), (unsigned long)written);
}

static void test_read_page_reports_lost_records(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);
	struct rtb_data_page *page;
	unsigned long lost;
	int ret;

	page = test_page(test);
	write_seq(buffer, 0, 2 * PADDED_PER_PAGE + 10, PADDED_PAYLOAD);

	/* A whole page, handed out without a copy; nothing lost before it. */
	ret = rtb_read_page(buffer, t->cpu, &page);
	t->page = page;
	KUNIT_EXPECT_EQ(test, ret, PADDED_PER_PAGE * 28);
	KUNIT_EXPECT_EQ(test, page->commit, (unsigned long)ret);
	KUNIT_EXPECT_EQ(test, event_seq((struct rtb_event *)page->data), 0U);

	ret = rtb_read_page(buffer, t->cpu, &page);
	t->page = page;
	KUNIT_EXPECT_EQ(test, ret, PADDED_PER_PAGE * 28);
	KUNIT_EXPECT_EQ(test, page->commit, (unsigned long)ret);
	KUNIT_EXPECT_EQ(test, event_seq((struct rtb_event *)page->data),
			(u32)PADDED_PER_PAGE);
	KUNIT_EXPECT_EQ(test, rtb_read_page(buffer, t->cpu, &page), -EAGAIN);
	expect_identity(test, buffer, 2 * PADDED_PER_PAGE + 10);

	/*
	 * A page writers are still on is copied; the 10 records dropped
	 * before its first record are reported with it.
	 */
	write_seq(buffer, 1000, 3, PADDED_PAYLOAD);
	ret = rtb_read_page(buffer, t->cpu, &page);
	t->page = page;
	KUNIT_EXPECT_EQ(test, ret, 3 * 28);
	KUNIT_EXPECT_EQ(test, page->commit & RTB_PAGE_COMMIT_MASK,
			(unsigned long)ret);
	KUNIT_EXPECT_TRUE(test, page->commit & RTB_PAGE_MISSED_EVENTS);
	KUNIT_ASSERT_TRUE(test, page->commit & RTB_PAGE_MISSED_STORED);
	memcpy(&lost, &page->data[ret], sizeof(lost));
	KUNIT_EXPECT_EQ(test, lost, 10UL);
	KUNIT_EXPECT_EQ(test, event_seq((struct rtb_event *)page->data), 1000U);
	write_seq(buffer, 1003, 1, PADDED_PAYLOAD);
	KUNIT_EXPECT_EQ(test, rtb_read_page(buffer, t->cpu, &page), 28);
	t->page = page;
	KUNIT_EXPECT_EQ(test, event_seq((struct rtb_event *)page->data), 1003U);
}

static void test_consume_reports_lost_records(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, RTB_FL_OVERWRITE);
	unsigned long lost;

	write_seq(buffer, 0, 3 * SMALL_PER_PAGE, SMALL_PAYLOAD);
	KUNIT_ASSERT_NOT_NULL(test, rtb_consume(buffer, t->cpu, NULL, &lost));
	KUNIT_EXPECT_EQ(test, lost, (unsigned long)SMALL_PER_PAGE);
	KUNIT_ASSERT_NOT_NULL(test, rtb_consume(buffer, t->cpu, NULL, &lost));
	KUNIT_EXPECT_EQ(test, lost, 0UL);
}

static void test_time_stamp_comes_from_the_clock(struct kunit *test)
{
	struct rtb_test *t = test->priv;
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);
	u64 ts;

	fake_now = 123456789;
	ts = rtb_time_stamp(buffer, t->cpu);
	KUNIT_EXPECT_EQ(test, ts, 123456789ULL);
	rtb_normalize_time_stamp(buffer, t->cpu, &ts);
	KUNIT_EXPECT_EQ(test, ts, 123456789ULL);
	/* A clock going back does not make time go back in the buffer. */
	write_seq(buffer, 0, 1, SMALL_PAYLOAD);
	fake_now -= 1000;
	write_seq(buffer, 1, 1, SMALL_PAYLOAD);
	KUNIT_ASSERT_NOT_NULL(test, rtb_consume(buffer, t->cpu, &ts, NULL));
	KUNIT_ASSERT_NOT_NULL(test, rtb_consume(buffer, t->cpu, &ts, NULL));
	KUNIT_EXPECT_EQ(test, ts, 123456789ULL + 10);
}

static void test_bad_arguments_are_refused(struct kunit *test)
{
	struct rtb_buffer *buffer = test_buffer(test, 2, 0);
	u8 big[8] = {};

	KUNIT_EXPECT_NULL(test, rtb_lock_reserve(buffer, RTB_MAX_PAYLOAD + 1));
	KUNIT_EXPECT_NULL(test, rtb_peek(buffer, -1, NULL));
	KUNIT_EXPECT_NULL(test, rtb_consume(buffer, nr_cpu_ids, NULL, NULL));
	KUNIT_EXPECT_NULL(test, rtb_read_start(buffer, -1));
	KUNIT_EXPECT_EQ(test, rtb_write(buffer, 4, big), 0);
	/* The oversized attempt counts, as dropped. */
	expect_identity(test, buffer, 2);
}

static int rtb_test_init(struct kunit *test)
{
	struct rtb_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	/* Writes go to the CPU the writer runs on: stay on one. */
	t->cpu = raw_smp_processor_id();
	if (set_cpus_allowed_ptr(current, cpumask_of(t->cpu)))
		return -EINVAL;
	fake_now = 1000;
	test->priv = t;
	return 0;
}

static void rtb_test_exit(struct kunit *test)
{
	struct rtb_test *t = test->priv;

	rtb_free(t->buffer);
	if (t->page)
		free_page((unsigned long)t->page);
}

static struct kunit_case rtb_test_cases[] = {
	KUNIT_CASE(test_alloc_rounds_size_up_to_pages),
	KUNIT_CASE(test_record_sizes_follow_the_spec),
	KUNIT_CASE(test_consume_returns_records_in_order_with_time),
	KUNIT_CASE(test_large_delta_emits_time_extend),
	KUNIT_CASE(test_padding_closes_a_page),
	KUNIT_CASE(test_producer_consumer_drops_new_records),
	KUNIT_CASE(test_overwrite_drops_oldest_pages),
	KUNIT_CASE(test_reader_follows_writer_on_its_page),
	KUNIT_CASE(test_overwrite_counts_partly_read_page_once),
	KUNIT_CASE(test_nested_writes_commit_with_the_outer),
	KUNIT_CASE(test_resize_changes_size_and_empties),
	KUNIT_CASE(test_reset_cpu_empties_that_cpu),
	KUNIT_CASE(test_swap_cpu_moves_records),
	KUNIT_CASE(test_iterator_reads_without_consuming),
	KUNIT_CASE(test_record_disable_is_per_cpu_and_nests),
	KUNIT_CASE(test_read_page_reports_lost_records),
	KUNIT_CASE(test_consume_reports_lost_records),
	KUNIT_CASE(test_time_stamp_comes_from_the_clock),
	KUNIT_CASE(test_bad_arguments_are_refused),
	{}
};

static struct kunit_suite rtb_test_suite = {
	.name = "ringtrace_buffer",
	.init = rtb_test_init,
	.exit = rtb_test_exit,
	.test_cases = rtb_test_cases,
};

kunit_test_suite(rtb_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ringtrace buffer");
MODULE_LICENSE("GPL");
