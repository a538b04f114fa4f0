// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the check of the last boot's region (persist.c's
 * rtp_check()): a region this suite lays out itself, by the layout of
 * <linux/ringtrace_persist.h> and Documentation/trace/
 * ringtrace-flight-recorder.rst, then spoiled one way per case.  A good
 * region gives the records the suite wrote, its pages in time order; each
 * spoiled one is refused with its reason and gives no trace.
 */

#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/ringtrace_buffer.h>
#include <linux/ringtrace_persist.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "persist_internal.h"

/*
 * The suite's region: 64 pages for 2 CPU numbers.  Page 0 is the header,
 * 1 to 16 the formats, 17 the page CRCs (46 of them), then two slices of
 * (64 - 18) / 2 = 23 pages.
 */
#define NR_PAGES	64
#define REGION_CPUS	2
#define META_PAGES	(1 + RTP_FORMATS_PAGES + 1)
#define SLICE_PAGES	((NR_PAGES - META_PAGES) / REGION_CPUS)
#define REGION_SIZE	((unsigned long)NR_PAGES * PAGE_SIZE)
/* Each CPU's reader page: an empty one at the end of its slice. */
#define READER_SLOT	(SLICE_PAGES - 1)

struct region {
	struct rtp_header	*h;
	char			why[64];
};

static void *page_of(struct rtp_header *h, unsigned int cpu,
		     unsigned int slot)
{
	return (void *)h + (META_PAGES + cpu * SLICE_PAGES + slot) * PAGE_SIZE;
}

static u32 *crc_table(struct rtp_header *h)
{
	return (void *)h + (1 + RTP_FORMATS_PAGES) * PAGE_SIZE;
}

/* @n DATA records of 8 bytes, @step ns apart, from time @ts. */
static void fill_page(struct rtp_header *h, unsigned int cpu,
		      unsigned int slot, u64 ts, unsigned int n, u32 step)
{
	struct rtb_data_page *page = page_of(h, cpu, slot);
	unsigned int i, size = rtb_event_size_for(8);

	page->time_stamp = ts;
	for (i = 0; i < n; i++)
		rtb_event_init_data((void *)page->data + i * size, 8,
				    i ? step : 0);
	page->commit = n * size;
}

/* The header's CRC, as the header's kernel-doc defines it. */
static u32 header_crc(struct rtp_header *h)
{
	u32 crc = crc32_le(0, (void *)&h->version, sizeof(h->version));

	return crc32_le(crc, (void *)&h->region_size,
			offsetof(struct rtp_header, formats_len) -
			offsetof(struct rtp_header, region_size));
}

static void set_formats(struct rtp_header *h, const char *text, u32 len)
{
	memcpy((void *)h + PAGE_SIZE, text, len);
	h->formats_len = len;
	h->formats_crc = crc32_le(0, (void *)h + PAGE_SIZE, len);
}

/* Page CRCs, then the seal and its CRC, as a reboot leaves them. */
static void seal(struct rtp_header *h, u32 why)
{
	struct rtb_data_page *page;
	unsigned int cpu, slot;
	u32 crc;

	for (cpu = 0; cpu < REGION_CPUS; cpu++)
		for (slot = 0; slot < SLICE_PAGES; slot++) {
			page = page_of(h, cpu, slot);
			crc_table(h)[cpu * SLICE_PAGES + slot] =
				crc32_le(0, (void *)page,
					 offsetof(struct rtb_data_page, data) +
					 page->commit);
		}
	h->sealed = why;
	crc = crc32_le(0, (void *)&h->sealed, sizeof(h->sealed));
	crc = crc32_le(crc, (void *)h->reader_slot,
		       REGION_CPUS * sizeof(h->reader_slot[0]));
	h->seal_crc = crc32_le(crc, (void *)crc_table(h),
			       REGION_CPUS * SLICE_PAGES * sizeof(u32));
}

/*
 * A good region, unsealed: CPU 0 has 3 records at slot 5 (from time 2000)
 * and 2 at slot 3 (from 1000), CPU 1 has 4 at slot 0 (from 1500).
 */
static int region_init(struct kunit *test)
{
	struct region *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct rtp_header *h;
	unsigned int cpu;

	if (!r)
		return -ENOMEM;
	h = vzalloc(REGION_SIZE);
	if (!h)
		return -ENOMEM;
	r->h = h;
	test->priv = r;
	h->magic = RTP_MAGIC;
	h->version = RTP_VERSION;
	h->region_size = REGION_SIZE;
	h->page_size = PAGE_SIZE;
	h->nr_cpus = REGION_CPUS;
	h->slice_pages = SLICE_PAGES;
	h->meta_pages = META_PAGES;
	h->formats_off = PAGE_SIZE;
	h->formats_size = RTP_FORMATS_PAGES * PAGE_SIZE;
	h->crcs_off = (1 + RTP_FORMATS_PAGES) * PAGE_SIZE;
	strscpy(h->kernel, "a kernel of the suite's", sizeof(h->kernel));
	h->header_crc = header_crc(h);
	set_formats(h, "", 0);
	strscpy_pad(h->clock, "local", sizeof(h->clock));
	h->clock_crc = crc32_le(0, (void *)h->clock, sizeof(h->clock));
	for (cpu = 0; cpu < REGION_CPUS; cpu++)
		h->reader_slot[cpu] = READER_SLOT;
	fill_page(h, 0, 5, 2000, 3, 10);
	fill_page(h, 0, 3, 1000, 2, 10);
	fill_page(h, 1, 0, 1500, 4, 1);
	return 0;
}

static void region_exit(struct kunit *test)
{
	struct region *r = test->priv;

	if (r)
		vfree(r->h);
}

/* Check the region as one of @size bytes; expect it refused for @reason. */
static void expect_refused_as(struct kunit *test, unsigned long size,
			      const char *reason)
{
	struct region *r = test->priv;
	struct rtp_last *last = (void *)1;
	const char *bad;

	bad = rtp_check(r->h, size, &last, r->why, sizeof(r->why));
	KUNIT_EXPECT_PTR_EQ(test, last, NULL);
	KUNIT_ASSERT_NOT_NULL_MSG(test, bad, "taken, not refused for \"%s\"",
				  reason);
	KUNIT_EXPECT_STREQ(test, bad, reason);
}

static void expect_refused(struct kunit *test, const char *reason)
{
	expect_refused_as(test, REGION_SIZE, reason);
}

static struct rtp_last *expect_taken(struct kunit *test)
{
	struct region *r = test->priv;
	struct rtp_last *last = NULL;
	const char *bad;

	bad = rtp_check(r->h, REGION_SIZE, &last, r->why, sizeof(r->why));
	KUNIT_ASSERT_PTR_EQ_MSG(test, bad, NULL, "refused: %s", bad);
	KUNIT_ASSERT_NOT_NULL(test, last);
	return last;
}

static void test_good_region_gives_its_records_in_time_order(struct kunit *test)
{
	struct rtp_last *last = expect_taken(test);

	KUNIT_EXPECT_EQ(test, last->nr_cpus, (unsigned int)REGION_CPUS);
	KUNIT_EXPECT_EQ(test, last->records, 9UL);
	KUNIT_EXPECT_EQ(test, last->cpus[0].records, 5UL);
	KUNIT_ASSERT_EQ(test, last->cpus[0].nr_slots, 2U);
	/* Slot 3's records are older than slot 5's. */
	KUNIT_EXPECT_EQ(test, last->cpus[0].slots[0], 3U);
	KUNIT_EXPECT_EQ(test, last->cpus[0].slots[1], 5U);
	KUNIT_EXPECT_EQ(test, last->cpus[1].records, 4UL);
	KUNIT_EXPECT_EQ(test, last->nr_formats, 0U);
	rtp_free_last(last);
}

static void test_sealed_region_is_taken(struct kunit *test)
{
	struct region *r = test->priv;

	seal(r->h, RTP_SEALED_REBOOT);
	rtp_free_last(expect_taken(test));
}

/* The reader page of a copy is not read, whatever it holds. */
static void test_reader_copy_page_is_left_out(struct kunit *test)
{
	struct region *r = test->priv;
	struct rtp_last *last;

	r->h->reader_slot[0] = 5 | RTB_FIXED_READER_COPY;
	last = expect_taken(test);
	KUNIT_EXPECT_EQ(test, last->cpus[0].records, 2UL);
	KUNIT_EXPECT_EQ(test, last->cpus[0].nr_slots, 1U);
	rtp_free_last(last);
}

static void test_region_never_set_up_has_no_trace(struct kunit *test)
{
	struct region *r = test->priv;
	struct rtp_last *last = (void *)1;

	r->h->magic = 0;
	KUNIT_EXPECT_PTR_EQ(test, rtp_check(r->h, REGION_SIZE, &last, r->why,
					    sizeof(r->why)), NULL);
	KUNIT_EXPECT_PTR_EQ(test, last, NULL);
}

static void test_other_version_is_refused(struct kunit *test)
{
	struct region *r = test->priv;

	r->h->version = RTP_VERSION + 1;
	r->h->header_crc = header_crc(r->h);
	expect_refused(test, "another version of the region");
}

static void test_changed_header_is_refused(struct kunit *test)
{
	struct region *r = test->priv;

	r->h->kernel[0] ^= 1;
	expect_refused(test, "bad header checksum");
}

static void test_unended_kernel_name_is_refused(struct kunit *test)
{
	struct region *r = test->priv;

	memset(r->h->kernel, 'k', sizeof(r->h->kernel));
	r->h->header_crc = header_crc(r->h);
	expect_refused(test, "bad kernel name");
}

/* A region of another size, or a geometry that is not its own. */
static void test_other_geometry_is_refused(struct kunit *test)
{
	struct region *r = test->priv;

	expect_refused_as(test, REGION_SIZE - PAGE_SIZE,
			  "geometry does not fit the range");
	r->h->slice_pages++;
	r->h->header_crc = header_crc(r->h);
	expect_refused(test, "geometry does not fit the range");
}

/* An nr_cpus whose reader slots overflow the header page: no geometry. */
static void test_huge_cpu_count_is_refused(struct kunit *test)
{
	struct region *r = test->priv;

	r->h->nr_cpus = U32_MAX;
	r->h->header_crc = header_crc(r->h);
	expect_refused(test, "geometry does not fit the range");
}

static void test_changed_formats_are_refused(struct kunit *test)
{
	struct region *r = test->priv;

	set_formats(r->h, "system: a name: b\nID: 17\n", 26);
	r->h->formats_crc ^= 1;
	expect_refused(test, "bad event formats checksum");
}

static void test_formats_past_their_area_are_refused(struct kunit *test)
{
	struct region *r = test->priv;

	r->h->formats_len = r->h->formats_size + 1;
	expect_refused(test, "bad event formats checksum");
}

static void test_unended_formats_are_refused(struct kunit *test)
{
	struct region *r = test->priv;

	set_formats(r->h, "system: a name: b\nID: 17\n", 25);
	expect_refused(test, "event formats not ended");
}

static void test_changed_clock_is_refused(struct kunit *test)
{
	struct region *r = test->priv;

	r->h->clock[0] = 'L';
	expect_refused(test, "bad clock");
}

static void test_unknown_seal_is_refused(struct kunit *test)
{
	struct region *r = test->priv;

	seal(r->h, RTP_NR_SEALS);
	expect_refused(test, "bad seal");
}

static void test_changed_seal_is_refused(struct kunit *test)
{
	struct region *r = test->priv;

	seal(r->h, RTP_SEALED_PANIC);
	r->h->sealed = RTP_SEALED_REBOOT;
	expect_refused(test, "bad seal checksum");
}

static void test_reader_slot_past_the_slice_is_refused(struct kunit *test)
{
	struct region *r = test->priv;

	r->h->reader_slot[1] = SLICE_PAGES;
	expect_refused(test, "bad reader page");
}

/* A page written after the seal: the table's CRC no longer matches. */
static void test_page_changed_after_seal_is_refused(struct kunit *test)
{
	struct region *r = test->priv;
	struct rtb_data_page *page;

	seal(r->h, RTP_SEALED_REBOOT);
	page = page_of(r->h, 1, 0);
	page->data[0] ^= 0x20;
	expect_refused(test, "CPU 1 page 0: bad checksum");
}

static void test_commit_past_the_page_is_refused(struct kunit *test)
{
	struct region *r = test->priv;
	struct rtb_data_page *page = page_of(r->h, 0, 3);

	page->commit = RTB_PAGE_DATA_SIZE + RTB_ALIGN;
	expect_refused(test, "CPU 0 page 3: records do not parse");
}

static void test_commit_inside_a_record_is_refused(struct kunit *test)
{
	struct region *r = test->priv;
	struct rtb_data_page *page = page_of(r->h, 0, 5);

	page->commit -= RTB_ALIGN;
	expect_refused(test, "CPU 0 page 5: records do not parse");
}

static void test_records_without_a_page_time_are_refused(struct kunit *test)
{
	struct region *r = test->priv;
	struct rtb_data_page *page = page_of(r->h, 1, 0);

	page->time_stamp = 0;
	expect_refused(test, "CPU 1 page 0: records do not parse");
}

static void test_pages_overlapping_in_time_are_refused(struct kunit *test)
{
	struct region *r = test->priv;

	/* Slot 3's records now run from 1995 to 2005, past slot 5's first. */
	fill_page(r->h, 0, 3, 1995, 2, 10);
	expect_refused(test, "CPU 0 pages 3 and 5 overlap in time");
}

static struct kunit_case persist_cases[] = {
	KUNIT_CASE(test_good_region_gives_its_records_in_time_order),
	KUNIT_CASE(test_sealed_region_is_taken),
	KUNIT_CASE(test_reader_copy_page_is_left_out),
	KUNIT_CASE(test_region_never_set_up_has_no_trace),
	KUNIT_CASE(test_other_version_is_refused),
	KUNIT_CASE(test_changed_header_is_refused),
	KUNIT_CASE(test_unended_kernel_name_is_refused),
	KUNIT_CASE(test_other_geometry_is_refused),
	KUNIT_CASE(test_huge_cpu_count_is_refused),
	KUNIT_CASE(test_changed_formats_are_refused),
	KUNIT_CASE(test_formats_past_their_area_are_refused),
	KUNIT_CASE(test_unended_formats_are_refused),
	KUNIT_CASE(test_changed_clock_is_refused),
	KUNIT_CASE(test_unknown_seal_is_refused),
	KUNIT_CASE(test_changed_seal_is_refused),
	KUNIT_CASE(test_reader_slot_past_the_slice_is_refused),
	KUNIT_CASE(test_page_changed_after_seal_is_refused),
	KUNIT_CASE(test_commit_past_the_page_is_refused),
	KUNIT_CASE(test_commit_inside_a_record_is_refused),
	KUNIT_CASE(test_records_without_a_page_time_are_refused),
	KUNIT_CASE(test_pages_overlapping_in_time_are_refused),
	{}
};

static struct kunit_suite persist_suite = {
	.name = "ringtrace_persist_check",
	.init = region_init,
	.exit = region_exit,
	.test_cases = persist_cases,
};

kunit_test_suite(persist_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the check of the last boot's region");
MODULE_LICENSE("GPL");
