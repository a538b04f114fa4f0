// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for rtb_use_fixed_pages(), the buffer on memory that
 * outlives the kernel (the persistent buffer): whatever writers and
 * readers do, every page of the ring and the reader page stay in their
 * CPU's slice, the kept reader slot names the reader page, page readers
 * get copies and every record, and resize, swap and a second move refuse
 * and leave the pages as they were.
 *
 * White-box: the internal header lets the cases look at the ring's pages.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/ringtrace_buffer.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "buffer_internal.h"

/* Pages of each CPU's slice: the ring's and the reader page. */
#define FIXED_SLICE	4
#define FIXED_RECORDS	(3 * FIXED_SLICE * (RTB_PAGE_DATA_SIZE / 8))

struct fixed_test {
	int			cpu;
	struct rtb_buffer	*buffer;
	void			*area;
	unsigned int		order;
	u32			*slots;
};

static int fixed_test_init(struct kunit *test)
{
	struct fixed_test *t;
	unsigned long pages = (unsigned long)nr_cpu_ids * FIXED_SLICE;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	/* Writes go to the CPU the writer runs on: stay on one. */
	t->cpu = raw_smp_processor_id();
	if (set_cpus_allowed_ptr(current, cpumask_of(t->cpu)))
		return -EINVAL;
	t->order = get_order(pages * PAGE_SIZE);
	/* Stale bytes: the buffer must empty what it is given. */
	t->area = (void *)__get_free_pages(GFP_KERNEL, t->order);
	t->slots = kunit_kcalloc(test, nr_cpu_ids, sizeof(u32), GFP_KERNEL);
	t->buffer = rtb_alloc(RTB_PAGE_DATA_SIZE, RTB_FL_OVERWRITE);
	test->priv = t;
	if (!t->area || !t->slots || !t->buffer)
		return -ENOMEM;
	memset(t->area, 0xa5, PAGE_SIZE << t->order);
	return 0;
}

static void fixed_test_exit(struct kunit *test)
{
	struct fixed_test *t = test->priv;

	if (!t)
		return;
	/* Freeing the buffer leaves the fixed pages alone. */
	rtb_free(t->buffer);
	if (t->area)
		free_pages((unsigned long)t->area, t->order);
}

static void *fixed_slice(struct fixed_test *t, int cpu)
{
	return t->area + (unsigned long)cpu * FIXED_SLICE * PAGE_SIZE;
}

/* Slot of @data in @cpu's slice, or -1 if it is not there. */
static int fixed_slot_of(struct fixed_test *t, int cpu, void *data)
{
	long off = data - fixed_slice(t, cpu);

	if (off < 0 || off >= FIXED_SLICE * PAGE_SIZE || off % PAGE_SIZE)
		return -1;
	return off / PAGE_SIZE;
}

/* Every page of every CPU buffer in its slice, each slot once. */
static void fixed_check_pages(struct kunit *test, struct fixed_test *t)
{
	struct rtb_cpu_buffer *cpu_buffer;
	unsigned int i, seen;
	int cpu, slot;

	for_each_possible_cpu(cpu) {
		cpu_buffer = t->buffer->cpus[cpu];
		KUNIT_ASSERT_EQ(test, cpu_buffer->nr_pages, FIXED_SLICE - 1);
		seen = 0;
		for (i = 0; i < cpu_buffer->nr_pages; i++) {
			slot = fixed_slot_of(t, cpu, cpu_buffer->ring[i]->data);
			KUNIT_ASSERT_GE(test, slot, 0);
			KUNIT_EXPECT_EQ(test, cpu_buffer->ring[i]->fixed_slot, slot);
			seen |= BIT(slot);
		}
		slot = fixed_slot_of(t, cpu, cpu_buffer->rpage->data);
		KUNIT_ASSERT_GE(test, slot, 0);
		/* With RTB_FIXED_READER_COPY while it holds copies. */
		KUNIT_EXPECT_EQ(test, t->slots[cpu] &
				~(u32)RTB_FIXED_READER_COPY, (u32)slot);
		seen |= BIT(slot);
		KUNIT_EXPECT_EQ(test, seen, (unsigned int)BIT(FIXED_SLICE) - 1);
	}
}

static void test_fixed_pages_stay(struct kunit *test)
{
	struct fixed_test *t = test->priv;
	struct rtb_data_page *page;
	struct rtb_event *event;
	int cpu = t->cpu, ret, records = 0;
	u32 i, next = 0, got;
	u64 ts;

	KUNIT_ASSERT_EQ(test, rtb_use_fixed_pages(t->buffer, t->area,
						  FIXED_SLICE, t->slots), 0);
	fixed_check_pages(test, t);
	/* Emptied: nothing of the stale bytes is a record. */
	for_each_possible_cpu(i)
		KUNIT_EXPECT_TRUE(test, rtb_empty_cpu(t->buffer, i));
	/* Page readers interleaved with a writer lapping the ring. */
	page = (void *)get_zeroed_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	for (i = 0; i < FIXED_RECORDS; i++) {
		KUNIT_ASSERT_EQ(test, rtb_write(t->buffer, sizeof(i), &i), 0);
		if (i % 700)
			continue;
		ret = rtb_read_page(t->buffer, cpu, &page);
		if (ret <= 0)
			continue;
		/* A copy, in the caller's page, never a page of the slice. */
		KUNIT_EXPECT_LT(test, fixed_slot_of(t, cpu, page), 0);
		fixed_check_pages(test, t);
	}
	free_page((unsigned long)page);
	fixed_check_pages(test, t);

	/* Consuming what is left: numbers only go up, the newest is last. */
	while ((event = rtb_consume(t->buffer, cpu, &ts, NULL))) {
		got = *(u32 *)rtb_event_data(event);
		KUNIT_EXPECT_GE(test, got, next);
		next = got + 1;
		records++;
	}
	KUNIT_EXPECT_EQ(test, next, FIXED_RECORDS);
	KUNIT_EXPECT_GT(test, records, 0);
	fixed_check_pages(test, t);
}

static void test_fixed_pages_refuse(struct kunit *test)
{
	struct fixed_test *t = test->priv;
	struct rtb_buffer *other;
	struct rtb_event *event;
	u32 seq = 0x5eed;
	u64 ts;

	KUNIT_EXPECT_EQ(test, rtb_use_fixed_pages(t->buffer, t->area, 2,
						  t->slots), -EINVAL);
	KUNIT_EXPECT_EQ(test, rtb_use_fixed_pages(t->buffer, t->area + 1,
						  FIXED_SLICE, t->slots),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, rtb_use_fixed_pages(t->buffer, t->area,
						  FIXED_SLICE, t->slots), 0);
	KUNIT_ASSERT_EQ(test, rtb_write(t->buffer, sizeof(seq), &seq), 0);
	KUNIT_EXPECT_EQ(test, rtb_use_fixed_pages(t->buffer, t->area,
						  FIXED_SLICE, t->slots), -EBUSY);
	/* Refused: the pages, written, are as they were. */
	event = rtb_consume(t->buffer, t->cpu, &ts, NULL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_EQ(test, *(u32 *)rtb_event_data(event), seq);
	KUNIT_EXPECT_EQ(test, rtb_resize(t->buffer, 8 * RTB_PAGE_DATA_SIZE),
			-EBUSY);
	other = rtb_alloc(RTB_PAGE_DATA_SIZE, 0);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_EXPECT_EQ(test, rtb_swap_cpu(t->buffer, other, t->cpu), -EBUSY);
	rtb_free(other);
	fixed_check_pages(test, t);
}

static struct kunit_case fixed_test_cases[] = {
	KUNIT_CASE(test_fixed_pages_stay),
	KUNIT_CASE(test_fixed_pages_refuse),
	{}
};

static struct kunit_suite fixed_test_suite = {
	.name = "ringtrace_buffer_fixed",
	.init = fixed_test_init,
	.exit = fixed_test_exit,
	.test_cases = fixed_test_cases,
};

kunit_test_suite(fixed_test_suite);

MODULE_DESCRIPTION("KUnit tests for ringtrace buffers on fixed pages");
MODULE_LICENSE("GPL");
