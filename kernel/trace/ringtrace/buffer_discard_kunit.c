// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for rtb_discard_commit(): a writer that gives its reservation
 * up either gets the space back (nothing was reserved after it) or leaves
 * padding that every reader skips, with time stamps exact either way.
 *
 * Records carry a sequence number; the test thread stays on one CPU and a
 * fake clock makes every time stamp known.  Nothing is checked between a
 * reservation and its commit or discard: preemption is off meanwhile, so
 * results are kept and checked after.
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

struct discard_test {
	int			cpu;
	struct rtb_buffer	*buffer;
	struct rtb_data_page	*page;
};

/* 8-byte records: a page holds this many, with no padding. */
#define PER_PAGE	(RTB_PAGE_DATA_SIZE / 8)
/* The number a discarded record carries: never read back. */
#define GIVEN_UP	0xdead

static struct rtb_buffer *discard_buffer(struct kunit *test,
					 unsigned int pages)
{
	struct discard_test *t = test->priv;

	t->buffer = rtb_alloc(pages * RTB_PAGE_DATA_SIZE, 0);
	KUNIT_ASSERT_NOT_NULL(test, t->buffer);
	rtb_set_clock(t->buffer, fake_clock);
	return t->buffer;
}

/* A record numbered @seq written at @now; returns whether it went in. */
static bool write_at(struct rtb_buffer *buffer, u32 seq, u64 now)
{
	WRITE_ONCE(fake_now, now);
	return !rtb_write(buffer, sizeof(seq), &seq);
}

/* Reserve a record at @now and fill it as a writer would. */
static struct rtb_event *reserve_at(struct rtb_buffer *buffer, u64 now)
{
	struct rtb_event *event;
	u32 seq = GIVEN_UP;

	WRITE_ONCE(fake_now, now);
	event = rtb_lock_reserve(buffer, sizeof(seq));
	if (event)
		memcpy(rtb_event_data(event), &seq, sizeof(seq));
	return event;
}

struct expected {
	u32	seq;
	u64	ts;
};

/* Consume the test CPU's records: exactly @want, in order, at their times. */
static void expect_records(struct kunit *test, const struct expected *want,
			   unsigned int nr)
{
	struct discard_test *t = test->priv;
	struct rtb_event *event;
	unsigned int n = 0;
	u32 seq;
	u64 ts;

	while ((event = rtb_consume(t->buffer, t->cpu, &ts, NULL))) {
		memcpy(&seq, rtb_event_data(event), sizeof(seq));
		KUNIT_EXPECT_NE(test, seq, (u32)GIVEN_UP);
		if (n < nr) {
			KUNIT_EXPECT_EQ(test, seq, want[n].seq);
			KUNIT_EXPECT_EQ(test, ts, want[n].ts);
		}
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, nr);
}

/* The same through an iterator, which walks the pages in place. */
static void expect_iterated(struct kunit *test, const struct expected *want,
			    unsigned int nr)
{
	struct discard_test *t = test->priv;
	struct rtb_event *event;
	struct rtb_iter *iter;
	unsigned int n = 0;
	u32 seq;
	u64 ts;

	iter = rtb_read_start(t->buffer, t->cpu);
	KUNIT_ASSERT_NOT_NULL(test, iter);
	while ((event = rtb_read(iter, &ts))) {
		memcpy(&seq, rtb_event_data(event), sizeof(seq));
		if (n < nr) {
			KUNIT_EXPECT_EQ(test, seq, want[n].seq);
			KUNIT_EXPECT_EQ(test, ts, want[n].ts);
		}
		n++;
	}
	rtb_read_finish(iter);
	KUNIT_EXPECT_EQ(test, n, nr);
}

/* Every attempt is in one counter, the discarded ones in their own. */
static void expect_counts(struct kunit *test, unsigned long written,
			  unsigned long discarded)
{
	struct discard_test *t = test->priv;
	struct rtb_cpu_stats s;

	rtb_cpu_stats(t->buffer, t->cpu, &s);
	KUNIT_EXPECT_EQ(test, s.written, written);
	KUNIT_EXPECT_EQ(test, s.discarded, discarded);
	KUNIT_EXPECT_EQ(test, s.dropped, 0UL);
	KUNIT_EXPECT_EQ(test, s.written, s.entries + s.overruns + s.dropped +
			s.read + s.discarded);
}

/* The records of the page rtb_read_page() handed out last. */
static u8 *page_data(struct kunit *test)
{
	struct discard_test *t = test->priv;

	return t->page->data;
}

/* Bytes of records rtb_read_page() hands out for the test CPU. */
static int page_bytes(struct kunit *test)
{
	struct discard_test *t = test->priv;

	return rtb_read_page(t->buffer, t->cpu, &t->page);
}

static void test_discard_gives_the_space_back(struct kunit *test)
{
	struct rtb_buffer *buffer = discard_buffer(test, 2);
	static const struct expected want[] = { { 0, 1000 }, { 1, 3000 } };
	struct rtb_event *event;
	bool given_back;

	KUNIT_ASSERT_TRUE(test, write_at(buffer, 0, 1000));
	event = reserve_at(buffer, 2000);
	KUNIT_ASSERT_NOT_NULL(test, event);
	given_back = rtb_discard_commit(buffer, event);
	KUNIT_ASSERT_TRUE(test, write_at(buffer, 1, 3000));

	KUNIT_EXPECT_TRUE(test, given_back);
	expect_counts(test, 3, 1);
	expect_iterated(test, want, ARRAY_SIZE(want));
	/* Two records and nothing between them: as if it never was. */
	KUNIT_ASSERT_EQ(test, page_bytes(test), 16);
	KUNIT_EXPECT_EQ(test, *(u32 *)(page_data(test) + 4), 0U);
	KUNIT_EXPECT_EQ(test, *(u32 *)(page_data(test) + 12), 1U);
}

static void test_discard_after_a_time_extend(struct kunit *test)
{
	struct rtb_buffer *buffer = discard_buffer(test, 2);
	const u64 far = 1000 + (1ULL << 28);
	const struct expected want[] = { { 0, 1000 }, { 1, far + 5 } };
	struct rtb_event *event;
	bool given_back;

	KUNIT_ASSERT_TRUE(test, write_at(buffer, 0, 1000));
	/* Too far for 27 bits: the reservation starts with a TIME_EXTEND. */
	event = reserve_at(buffer, far);
	KUNIT_ASSERT_NOT_NULL(test, event);
	given_back = rtb_discard_commit(buffer, event);
	KUNIT_ASSERT_TRUE(test, write_at(buffer, 1, far + 5));

	KUNIT_EXPECT_TRUE(test, given_back);
	expect_iterated(test, want, ARRAY_SIZE(want));
	expect_records(test, want, ARRAY_SIZE(want));
	expect_counts(test, 3, 1);
}

static void test_discard_under_a_nested_record_pads(struct kunit *test)
{
	struct rtb_buffer *buffer = discard_buffer(test, 2);
	static const struct expected want[] = {
		{ 0, 1000 }, { 1, 2500 }, { 2, 3000 },
	};
	struct rtb_event *event;
	bool given_back, nested;

	KUNIT_ASSERT_TRUE(test, write_at(buffer, 0, 1000));
	event = reserve_at(buffer, 2000);
	KUNIT_ASSERT_NOT_NULL(test, event);
	/* As an interrupt would, between the reservation and the discard. */
	nested = write_at(buffer, 1, 2500);
	given_back = rtb_discard_commit(buffer, event);
	KUNIT_ASSERT_TRUE(test, write_at(buffer, 2, 3000));

	KUNIT_EXPECT_TRUE(test, nested);
	KUNIT_EXPECT_FALSE(test, given_back);
	expect_counts(test, 4, 1);
	expect_iterated(test, want, ARRAY_SIZE(want));
	/* The padding stays in the page, zeroed, between the records. */
	KUNIT_ASSERT_EQ(test, page_bytes(test), 32);
	KUNIT_EXPECT_EQ(test, rtb_event_type((void *)page_data(test) + 8),
			(unsigned int)RTB_TYPE_PADDING);
	KUNIT_EXPECT_EQ(test, *(u32 *)(page_data(test) + 12), 0U);
}

static void test_nested_discards(struct kunit *test)
{
	struct rtb_buffer *buffer = discard_buffer(test, 2);
	static const struct expected want[] = { { 0, 1000 }, { 1, 4000 } };
	struct rtb_event *outer, *inner;
	bool outer_back = true, inner_back = false;

	KUNIT_ASSERT_TRUE(test, write_at(buffer, 0, 1000));
	outer = reserve_at(buffer, 2000);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	inner = reserve_at(buffer, 3000);
	if (inner)
		inner_back = rtb_discard_commit(buffer, inner);
	outer_back = rtb_discard_commit(buffer, outer);
	KUNIT_ASSERT_TRUE(test, write_at(buffer, 1, 4000));

	KUNIT_EXPECT_NOT_NULL(test, inner);
	KUNIT_EXPECT_TRUE(test, inner_back);
	/* The inner one's word is not the outer's: the outer pads. */
	KUNIT_EXPECT_FALSE(test, outer_back);
	expect_iterated(test, want, ARRAY_SIZE(want));
	expect_records(test, want, ARRAY_SIZE(want));
	expect_counts(test, 4, 2);
}

static void test_discard_first_record_of_a_page(struct kunit *test)
{
	struct rtb_buffer *buffer = discard_buffer(test, 3);
	struct discard_test *t = test->priv;
	struct rtb_event *event, *rec;
	unsigned int i, n = 0;
	bool given_back;
	u64 ts, last = 0;
	u32 seq;

	for (i = 0; i < PER_PAGE; i++)
		KUNIT_ASSERT_TRUE(test, write_at(buffer, i, 1000 + i));
	/* The page is full: this one is first on the next page. */
	event = reserve_at(buffer, 5000);
	KUNIT_ASSERT_NOT_NULL(test, event);
	given_back = rtb_discard_commit(buffer, event);
	KUNIT_ASSERT_TRUE(test, write_at(buffer, PER_PAGE, 6000));

	KUNIT_EXPECT_TRUE(test, given_back);
	expect_counts(test, PER_PAGE + 2, 1);
	while ((rec = rtb_consume(buffer, t->cpu, &ts, NULL))) {
		memcpy(&seq, rtb_event_data(rec), sizeof(seq));
		KUNIT_EXPECT_EQ(test, seq, n);
		last = ts;
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, PER_PAGE + 1);
	/* The next page's time stamp is the record's that is first on it. */
	KUNIT_EXPECT_EQ(test, last, 6000ULL);
}

static void test_discards_use_no_room(struct kunit *test)
{
	struct rtb_buffer *buffer = discard_buffer(test, 2);
	static const struct expected want[] = { { 7, 900000 } };
	struct rtb_event *event;
	unsigned int i, reserved = 0, given_back = 0;

	/* Far more than the buffer holds, in producer/consumer mode. */
	for (i = 0; i < 4 * PER_PAGE; i++) {
		event = reserve_at(buffer, 1000 + i);
		if (!event)
			continue;
		reserved++;
		given_back += rtb_discard_commit(buffer, event);
	}
	KUNIT_ASSERT_TRUE(test, write_at(buffer, 7, 900000));

	KUNIT_EXPECT_EQ(test, reserved, 4 * PER_PAGE);
	KUNIT_EXPECT_EQ(test, given_back, 4 * PER_PAGE);
	expect_counts(test, 4 * PER_PAGE + 1, 4 * PER_PAGE);
	expect_records(test, want, ARRAY_SIZE(want));
}

static int discard_test_init(struct kunit *test)
{
	struct discard_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	/* Writes go to the CPU the writer runs on: stay on one. */
	t->cpu = raw_smp_processor_id();
	if (set_cpus_allowed_ptr(current, cpumask_of(t->cpu)))
		return -EINVAL;
	t->page = (void *)__get_free_page(GFP_KERNEL | __GFP_ZERO);
	if (!t->page)
		return -ENOMEM;
	fake_now = 1000;
	test->priv = t;
	return 0;
}

/* Runs after a failed init too: test->priv is set last. */
static void discard_test_exit(struct kunit *test)
{
	struct discard_test *t = test->priv;

	if (!t)
		return;
	rtb_free(t->buffer);
	free_page((unsigned long)t->page);
}

static struct kunit_case discard_test_cases[] = {
	KUNIT_CASE(test_discard_gives_the_space_back),
	KUNIT_CASE(test_discard_after_a_time_extend),
	KUNIT_CASE(test_discard_under_a_nested_record_pads),
	KUNIT_CASE(test_nested_discards),
	KUNIT_CASE(test_discard_first_record_of_a_page),
	KUNIT_CASE(test_discards_use_no_room),
	{}
};

static struct kunit_suite discard_test_suite = {
	.name = "ringtrace_buffer_discard",
	.init = discard_test_init,
	.exit = discard_test_exit,
	.test_cases = discard_test_cases,
};

kunit_test_suite(discard_test_suite);

MODULE_DESCRIPTION("KUnit tests for discarding ringtrace buffer records");
MODULE_LICENSE("GPL");
