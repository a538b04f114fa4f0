// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for rtb_page_to_current_layout() (record_layout.c): a data
 * page built record by record in ringtrace's layout, rewritten, then
 * walked with this file's own decoder of the layout trace_pipe_raw's
 * readers expect (libtraceevent's: type_len in bits 0-4, time_delta in
 * bits 5-31; 1 to 28 a DATA record of that many words, 0 one whose
 * length word follows, 29 padding with its length after the header, 30 a
 * time extend).  Each case compares what it wrote with what it decodes.
 */

#include <kunit/test.h>
#include <linux/ringtrace_buffer.h>
#include <linux/string.h>

#include "record_layout.h"

/* The layout readers outside the kernel expect, as this suite reads it. */
#define CUR_TYPE_LEN(word)	((word) & 0x1f)
#define CUR_DELTA(word)		((word) >> 5)
#define CUR_PADDING		29
#define CUR_TIME_EXTEND		30

enum kind { DATA, EXTEND, PAD };

/* One record as the case writes it, and as it expects to read it back. */
struct rec {
	enum kind	kind;
	unsigned int	payload;	/* DATA: bytes; PAD: record size */
	u64		delta;		/* DATA and EXTEND */
};

struct page_case {
	const char		*name;
	const struct rec	*recs;
	unsigned int		nr;
};

static struct rtb_data_page *new_page(struct kunit *test)
{
	struct rtb_data_page *page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	return page;
}

/* Write @recs into @page in ringtrace's layout; returns the commit. */
static unsigned int write_page(struct rtb_data_page *page,
			       const struct rec *recs, unsigned int nr)
{
	unsigned int i, off = 0, size;
	struct rtb_event *event;

	for (i = 0; i < nr; i++) {
		event = (void *)page->data + off;
		switch (recs[i].kind) {
		case DATA:
			size = rtb_event_size_for(recs[i].payload);
			rtb_event_init_data(event, recs[i].payload,
					    recs[i].delta);
			memset(rtb_event_data(event), 0xa5, recs[i].payload);
			break;
		case EXTEND:
			size = 8;
			rtb_event_init_time_extend(event, recs[i].delta);
			break;
		default:
			size = recs[i].payload;
			rtb_event_init_padding(event, size);
			break;
		}
		off += size;
	}
	page->commit = off;
	return off;
}

/* Check every rewritten record against @recs with the reader's decoder. */
static void expect_current_layout(struct kunit *test,
				  struct rtb_data_page *page,
				  const struct rec *recs, unsigned int nr)
{
	unsigned int i, off = 0, len, type_len;
	const u32 *words;

	for (i = 0; i < nr; i++) {
		words = (const u32 *)(page->data + off);
		type_len = CUR_TYPE_LEN(words[0]);
		switch (recs[i].kind) {
		case DATA:
			KUNIT_EXPECT_LE_MSG(test, type_len, 28U, "record %u",
					    i);
			len = type_len ? 4 + 4 * type_len : 4 + words[1];
			KUNIT_EXPECT_EQ_MSG(test, len,
					    rtb_event_size_for(recs[i].payload),
					    "record %u's length", i);
			KUNIT_EXPECT_EQ_MSG(test, (u64)CUR_DELTA(words[0]),
					    recs[i].delta, "record %u", i);
			break;
		case EXTEND:
			len = 8;
			KUNIT_EXPECT_EQ_MSG(test, type_len, CUR_TIME_EXTEND,
					    "record %u", i);
			KUNIT_EXPECT_EQ_MSG(test, (u64)CUR_DELTA(words[0]) |
					    (u64)words[1] << 27, recs[i].delta,
					    "record %u's delta", i);
			break;
		default:
			KUNIT_EXPECT_EQ_MSG(test, type_len, CUR_PADDING,
					    "record %u", i);
			len = recs[i].payload;
			if (len >= 8)
				KUNIT_EXPECT_EQ_MSG(test, words[1], len - 4,
						    "padding %u's length", i);
			else
				KUNIT_EXPECT_EQ_MSG(test, words[0],
						    (u32)CUR_PADDING,
						    "a 4-byte padding is the header alone");
			break;
		}
		/* A wrong length would walk off the page: stop there. */
		KUNIT_ASSERT_LE_MSG(test, off + len, (unsigned int)page->commit,
				    "record %u runs past the commit", i);
		off += len;
	}
	KUNIT_EXPECT_EQ(test, off, (unsigned int)page->commit);
}

static const struct rec small_and_large[] = {
	{ DATA, 7, 100 }, { DATA, 28, 1 }, { DATA, 29, 2 }, { DATA, 82, 7 },
	{ DATA, 0, 0 }, { DATA, 200, (1U << 27) - 1 },
};

static const struct rec with_extends[] = {
	{ EXTEND, 0, (1ULL << 30) + 5 }, { DATA, 12, 3 },
	{ EXTEND, 0, (1ULL << 59) - 1 }, { DATA, 4, 0 },
};

/* A discarded record between others, and the padding that ends a page. */
static const struct rec with_padding[] = {
	{ DATA, 16, 9 }, { PAD, 12, 0 }, { DATA, 8, 4 }, { PAD, 40, 0 },
	{ DATA, 1, 1 }, { PAD, 8, 0 },
};

static const struct rec ends_in_bare_header[] = {
	{ DATA, 20, 6 }, { PAD, 4, 0 },
};

static const struct page_case page_cases[] = {
	{ "data records, small and large", small_and_large,
	  ARRAY_SIZE(small_and_large) },
	{ "time extends", with_extends, ARRAY_SIZE(with_extends) },
	{ "paddings", with_padding, ARRAY_SIZE(with_padding) },
	{ "a 4-byte padding last", ends_in_bare_header,
	  ARRAY_SIZE(ends_in_bare_header) },
};

static void page_case_desc(const struct page_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(page, page_cases, page_case_desc);

static void test_page_reads_back_in_current_layout(struct kunit *test)
{
	const struct page_case *c = test->param_value;
	struct rtb_data_page *page = new_page(test);

	write_page(page, c->recs, c->nr);
	rtb_page_to_current_layout(page);
	expect_current_layout(test, page, c->recs, c->nr);
}

/* Payloads are not touched: only header words change. */
static void test_payloads_are_left_alone(struct kunit *test)
{
	struct rtb_data_page *page = new_page(test);
	unsigned int i, off = 0;
	const u8 *data;

	write_page(page, small_and_large, ARRAY_SIZE(small_and_large));
	rtb_page_to_current_layout(page);
	for (i = 0; i < ARRAY_SIZE(small_and_large); i++) {
		unsigned int payload = small_and_large[i].payload;
		/* A length word after the header for those above 28 bytes. */
		unsigned int start = off + (payload > 28 ? 8 : 4);
		unsigned int j;

		data = page->data + start;
		for (j = 0; j < payload; j++)
			KUNIT_EXPECT_EQ_MSG(test, data[j], 0xa5,
					    "record %u, byte %u", i, j);
		off += rtb_event_size_for(payload);
	}
}

/* A commit that ends inside a record: nothing past it is rewritten. */
static void test_rewrite_stops_at_the_commit(struct kunit *test)
{
	static const struct rec recs[] = {
		{ DATA, 8, 1 }, { DATA, 82, 2 }, { DATA, 8, 3 },
	};
	struct rtb_data_page *page = new_page(test);
	unsigned int third = rtb_event_size_for(8) + rtb_event_size_for(82);
	u32 *after = (u32 *)(page->data + third);
	u32 before;

	write_page(page, recs, ARRAY_SIZE(recs));
	before = *after;
	/* The second record's header and length word in, its payload not. */
	page->commit = rtb_event_size_for(8) + 52;
	rtb_page_to_current_layout(page);
	KUNIT_EXPECT_EQ(test, CUR_TYPE_LEN(*(const u32 *)page->data), 2U);
	KUNIT_EXPECT_EQ(test, CUR_DELTA(*(const u32 *)page->data), 1U);
	KUNIT_EXPECT_EQ_MSG(test, *after, before,
			    "the record past the commit was rewritten");
}

static struct kunit_case page_layout_cases[] = {
	KUNIT_CASE_PARAM(test_page_reads_back_in_current_layout,
			 page_gen_params),
	KUNIT_CASE(test_payloads_are_left_alone),
	KUNIT_CASE(test_rewrite_stops_at_the_commit),
	{}
};

static struct kunit_suite page_layout_suite = {
	.name = "ringtrace_page_layout",
	.test_cases = page_layout_cases,
};

kunit_test_suite(page_layout_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for trace_pipe_raw's page rewrite");
MODULE_LICENSE("GPL");
