// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the crash dump walk (buffer_dump.c): it shows
 * committed records only, never a writer's reservation in flight nor what
 * was nested after it; it stops at the first record, or page, that does
 * not parse; and it walks without the reader lock when a reader holds it.
 *
 * Records carry a sequence number and a fake clock makes every time stamp
 * known: each case computes what the walk must return.  The test thread
 * runs with interrupts off from its first write to its last walk (the
 * walk asks for it, and reservations must stay on one CPU).
 */

#include <kunit/test.h>
#include <linux/irqflags.h>
#include <linux/mutex.h>
#include <linux/ringtrace_buffer.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

#include "buffer_dump.h"
#include "buffer_internal.h"

/* The time of record n: 1 ms apart, with no TIME_EXTEND (< 2^27 ns). */
#define DUMP_T0		1000000ULL
#define DUMP_STEP	1000ULL
#define DUMP_MAX_SEEN	4096

static u64 fake_now;

static u64 fake_clock(void)
{
	return READ_ONCE(fake_now);
}

struct dump_test {
	struct rtb_buffer	*buffer;
	int			cpu;
	/* What the last walk returned: sequence numbers and times. */
	u32			seen[DUMP_MAX_SEEN];
	u64			seen_ts[DUMP_MAX_SEEN];
	unsigned int		nr_seen;
	unsigned int		status;
	unsigned int		bad_off;
	u64			copy[PAGE_SIZE / sizeof(u64)];
};

static int dump_test_init(struct kunit *test)
{
	struct dump_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->buffer = rtb_alloc(8 * RTB_PAGE_DATA_SIZE, 0);
	KUNIT_ASSERT_NOT_NULL(test, t->buffer);
	rtb_set_clock(t->buffer, fake_clock);
	WRITE_ONCE(fake_now, DUMP_T0);
	test->priv = t;
	return 0;
}

static void dump_test_exit(struct kunit *test)
{
	struct dump_test *t = test->priv;

	if (t)
		rtb_free(t->buffer);
}

/* Record @seq of @size bytes (4 at least), committed. */
static void dump_write(struct dump_test *t, u32 seq, unsigned int size)
{
	u32 data[64] = { seq };

	WRITE_ONCE(fake_now, DUMP_T0 + seq * DUMP_STEP);
	rtb_write(t->buffer, size, data);
}

/* Reserve record @seq and leave it uncommitted; returns it. */
static struct rtb_event *dump_reserve(struct dump_test *t, u32 seq)
{
	struct rtb_event *event;

	WRITE_ONCE(fake_now, DUMP_T0 + seq * DUMP_STEP);
	event = rtb_lock_reserve(t->buffer, sizeof(seq));
	if (event)
		*(u32 *)rtb_event_data(event) = seq;
	return event;
}

/* Walk the test CPU's buffer: its records into @seen, its status. */
static int dump_walk(struct dump_test *t)
{
	struct rtb_dump_iter it;
	struct rtb_event *rec;
	u64 ts;
	int ret;

	t->nr_seen = 0;
	ret = rtb_dump_start(t->buffer, t->cpu, &it);
	while (!ret && rtb_dump_peek(&it, &ts)) {
		rec = rtb_dump_take(&it, t->copy, sizeof(t->copy));
		if (rec && t->nr_seen < DUMP_MAX_SEEN) {
			t->seen[t->nr_seen] = *(u32 *)rtb_event_data(rec);
			t->seen_ts[t->nr_seen] = ts;
			t->nr_seen++;
		}
	}
	t->status = it.status;
	t->bad_off = it.bad_off;
	rtb_dump_finish(&it);
	return ret;
}

/* The walk returned records @first..@last, each at its own time. */
static void dump_expect(struct kunit *test, u32 first, u32 last)
{
	struct dump_test *t = test->priv;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, t->nr_seen, last - first + 1);
	for (i = 0; i < t->nr_seen && i <= last - first; i++) {
		KUNIT_EXPECT_EQ(test, t->seen[i], first + i);
		KUNIT_EXPECT_EQ(test, t->seen_ts[i],
				DUMP_T0 + (first + i) * DUMP_STEP);
	}
}

/* Offset of the @n-th record (from 0) of the page at the head. */
static unsigned int dump_record_off(struct dump_test *t, unsigned int n)
{
	struct rtb_cpu_buffer *cpu_buffer = t->buffer->cpus[t->cpu];
	struct rtb_page *page = rtb_ring_page(cpu_buffer,
		rtb_head_seq(atomic_long_read(&cpu_buffer->head)));
	unsigned int off = 0;

	while (n--)
		off += __rtb_event_length(rtb_event_at(page, off));
	return off;
}

static struct rtb_event *dump_head_record(struct dump_test *t, unsigned int n)
{
	struct rtb_cpu_buffer *cpu_buffer = t->buffer->cpus[t->cpu];
	struct rtb_page *page = rtb_ring_page(cpu_buffer,
		rtb_head_seq(atomic_long_read(&cpu_buffer->head)));

	return rtb_event_at(page, dump_record_off(t, n));
}

/*
 * A writer stopped between reservation and commit (as a panic stops a
 * CPU): its record is not shown, nor is one nested after it and
 * committed, until the outer one commits.
 */
static void test_dump_skips_reserved(struct kunit *test)
{
	struct dump_test *t = test->priv;
	struct rtb_event *outer;
	unsigned long flags;
	u32 seq;

	local_irq_save(flags);
	t->cpu = smp_processor_id();
	for (seq = 1; seq <= 3; seq++)
		dump_write(t, seq, 4);
	outer = dump_reserve(t, 4);
	/* As an interrupt's writer would, on top of it. */
	dump_write(t, 5, 4);
	KUNIT_EXPECT_EQ(test, dump_walk(t), 0);
	dump_expect(test, 1, 3);
	KUNIT_EXPECT_EQ(test, t->status, 0U);
	if (outer)
		rtb_unlock_commit(t->buffer, outer);
	KUNIT_EXPECT_EQ(test, dump_walk(t), 0);
	local_irq_restore(flags);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	dump_expect(test, 1, 5);
	KUNIT_EXPECT_EQ(test, t->status, 0U);
}

/*
 * Records over several pages, a page's closing padding and long records
 * between them, and a reservation in flight on the last page.
 */
static void test_dump_walks_pages(struct kunit *test)
{
	struct dump_test *t = test->priv;
	struct rtb_event *outer;
	unsigned long flags;
	u32 seq, n = 3 * RTB_PAGE_DATA_SIZE / 48;

	local_irq_save(flags);
	t->cpu = smp_processor_id();
	/* 40 bytes: the long DATA layout, length in array[0]. */
	for (seq = 1; seq <= n; seq++)
		dump_write(t, seq, seq % 2 ? 40 : 4);
	outer = dump_reserve(t, n + 1);
	KUNIT_EXPECT_EQ(test, dump_walk(t), 0);
	if (outer)
		rtb_unlock_commit(t->buffer, outer);
	local_irq_restore(flags);
	dump_expect(test, 1, n);
	KUNIT_EXPECT_EQ(test, t->status, 0U);
}

/* A record that does not parse ends the walk: the ones before it show. */
static void test_dump_stops_at_bad_type(struct kunit *test)
{
	struct dump_test *t = test->priv;
	struct rtb_event *bad;
	unsigned long flags;
	u32 seq;

	local_irq_save(flags);
	t->cpu = smp_processor_id();
	for (seq = 1; seq <= 5; seq++)
		dump_write(t, seq, 4);
	bad = dump_head_record(t, 2);
	/* TIME_STAMP is never written. */
	bad->type_len_delta = (bad->type_len_delta & ~RTB_TYPE_MASK) |
			      RTB_TYPE_TIME_STAMP;
	KUNIT_EXPECT_EQ(test, dump_walk(t), 0);
	local_irq_restore(flags);
	dump_expect(test, 1, 2);
	KUNIT_EXPECT_EQ(test, t->status, RTB_DUMP_BAD);
}

/* A length past the committed bytes ends the walk there too. */
static void test_dump_stops_at_bad_length(struct kunit *test)
{
	struct dump_test *t = test->priv;
	struct rtb_event *bad;
	unsigned long flags;
	unsigned int off;
	u32 seq;

	local_irq_save(flags);
	t->cpu = smp_processor_id();
	for (seq = 1; seq <= 5; seq++)
		dump_write(t, seq, 40);
	off = dump_record_off(t, 3);
	bad = dump_head_record(t, 3);
	/* Long DATA, array[0] reaching beyond the page. */
	bad->array[0] = RTB_PAGE_DATA_SIZE;
	KUNIT_EXPECT_EQ(test, dump_walk(t), 0);
	local_irq_restore(flags);
	dump_expect(test, 1, 3);
	KUNIT_EXPECT_EQ(test, t->status, RTB_DUMP_BAD);
	/* Where it stopped: that record's offset. */
	KUNIT_EXPECT_EQ(test, t->bad_off, off);
}

/* A commit word beyond the page: nothing of the page is trusted. */
static void test_dump_stops_at_bad_commit(struct kunit *test)
{
	struct dump_test *t = test->priv;
	struct rtb_cpu_buffer *cpu_buffer;
	struct rtb_page *page;
	unsigned long flags;
	u32 seq;

	local_irq_save(flags);
	t->cpu = smp_processor_id();
	cpu_buffer = t->buffer->cpus[t->cpu];
	for (seq = 1; seq <= 3; seq++)
		dump_write(t, seq, 4);
	page = rtb_ring_page(cpu_buffer,
			     rtb_head_seq(atomic_long_read(&cpu_buffer->head)));
	page->data->commit = RTB_PAGE_DATA_SIZE + RTB_ALIGN;
	KUNIT_EXPECT_EQ(test, dump_walk(t), 0);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, t->nr_seen, 0U);
	KUNIT_EXPECT_EQ(test, t->status, RTB_DUMP_BAD);
	KUNIT_EXPECT_EQ(test, t->bad_off, 0U);
}

/*
 * A reader holding the reader lock (stopped inside a read): the walk goes
 * on without it, from the start of the oldest ring page, reader page left
 * out.  With the lock free it starts at the reader's next record.
 */
static void test_dump_reader_busy(struct kunit *test)
{
	struct dump_test *t = test->priv;
	struct rtb_cpu_buffer *cpu_buffer;
	unsigned long flags;
	u32 seq;

	local_irq_save(flags);
	t->cpu = smp_processor_id();
	cpu_buffer = t->buffer->cpus[t->cpu];
	for (seq = 1; seq <= 4; seq++)
		dump_write(t, seq, 4);
	/* Copies the page's records into the reader page, takes one. */
	KUNIT_EXPECT_NOT_NULL(test, rtb_consume(t->buffer, t->cpu, NULL, NULL));
	KUNIT_EXPECT_EQ(test, dump_walk(t), 0);
	dump_expect(test, 2, 4);
	KUNIT_EXPECT_EQ(test, t->status, 0U);

	raw_spin_lock(&cpu_buffer->reader_lock);
	KUNIT_EXPECT_EQ(test, dump_walk(t), 0);
	raw_spin_unlock(&cpu_buffer->reader_lock);
	local_irq_restore(flags);
	/* The head page from its start: the record consumed shows again. */
	dump_expect(test, 1, 4);
	KUNIT_EXPECT_EQ(test, t->status, RTB_DUMP_LOCKLESS);
}

/* A reader lock held while a resize or reset may run: nothing walked. */
static void test_dump_busy_during_resize(struct kunit *test)
{
	struct dump_test *t = test->priv;
	struct rtb_cpu_buffer *cpu_buffer;
	unsigned long flags;
	int ret;

	mutex_lock(&t->buffer->mutex);
	local_irq_save(flags);
	t->cpu = smp_processor_id();
	cpu_buffer = t->buffer->cpus[t->cpu];
	dump_write(t, 1, 4);
	raw_spin_lock(&cpu_buffer->reader_lock);
	ret = dump_walk(t);
	raw_spin_unlock(&cpu_buffer->reader_lock);
	local_irq_restore(flags);
	mutex_unlock(&t->buffer->mutex);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_EQ(test, t->nr_seen, 0U);
	KUNIT_EXPECT_EQ(test, t->status, RTB_DUMP_BUSY);
}

static struct kunit_case dump_test_cases[] = {
	KUNIT_CASE(test_dump_skips_reserved),
	KUNIT_CASE(test_dump_walks_pages),
	KUNIT_CASE(test_dump_stops_at_bad_type),
	KUNIT_CASE(test_dump_stops_at_bad_length),
	KUNIT_CASE(test_dump_stops_at_bad_commit),
	KUNIT_CASE(test_dump_reader_busy),
	KUNIT_CASE(test_dump_busy_during_resize),
	{}
};

static struct kunit_suite dump_test_suite = {
	.name = "ringtrace_buffer_dump",
	.init = dump_test_init,
	.exit = dump_test_exit,
	.test_cases = dump_test_cases,
};

kunit_test_suite(dump_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ringtrace buffer's crash dump walk");
MODULE_LICENSE("GPL");
