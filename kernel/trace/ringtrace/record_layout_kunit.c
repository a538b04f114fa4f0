// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the ringtrace record layout.
 *
 * Verifies each encoding of Documentation/trace/ringtrace-buffer.rst against the raw
 * 32-bit words a reader outside the kernel sees: the spec's examples (7 and
 * 82 bytes), the 28/29-byte boundary, zero-length payloads, time extends
 * and padding.  Records are built in a local buffer; no ring is involved.
 */

#include <kunit/test.h>
#include <linux/ringtrace_buffer.h>
#include <linux/string.h>

#define SCRATCH_WORDS	64

struct size_case {
	unsigned int payload;
	unsigned int size;
};

static const struct size_case size_cases[] = {
	{ 0, 8 }, { 1, 8 }, { 4, 8 }, { 5, 12 }, { 7, 12 },
	{ 28, 32 }, { 29, 40 }, { 82, 92 }, { 200, 208 },
};

static struct rtb_event *scratch_event(struct kunit *test)
{
	u32 *words = kunit_kzalloc(test, SCRATCH_WORDS * sizeof(u32),
				   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, words);
	return (struct rtb_event *)words;
}

static void test_header_bits_are_type_len_delta_from_bit0(struct kunit *test)
{
	struct rtb_event *event = scratch_event(test);

	rtb_event_init_data(event, 7, 0x1234567);
	KUNIT_EXPECT_EQ(test, event->type_len_delta,
			(u32)(RTB_TYPE_DATA | 2 << 2 | 0x1234567 << 5));
	KUNIT_EXPECT_EQ(test, rtb_event_type(event), RTB_TYPE_DATA);
	KUNIT_EXPECT_EQ(test, rtb_event_time_delta(event), 0x1234567ULL);
}

static void test_seven_bytes_take_twelve(struct kunit *test)
{
	struct rtb_event *event = scratch_event(test);

	rtb_event_init_data(event, 7, 0);
	KUNIT_EXPECT_EQ(test, (event->type_len_delta >> 2) & 7, 2U);
	KUNIT_EXPECT_EQ(test, rtb_event_length(event), 12U);
	KUNIT_EXPECT_PTR_EQ(test, rtb_event_data(event), (void *)&event->array[0]);
}

static void test_eighty_two_bytes_take_ninety_two(struct kunit *test)
{
	struct rtb_event *event = scratch_event(test);

	rtb_event_init_data(event, 82, 0);
	KUNIT_EXPECT_EQ(test, (event->type_len_delta >> 2) & 7, 0U);
	KUNIT_EXPECT_EQ(test, event->array[0], 88U);
	KUNIT_EXPECT_EQ(test, rtb_event_length(event), 92U);
	KUNIT_EXPECT_EQ(test, rtb_event_data_length(event), 84U);
	KUNIT_EXPECT_PTR_EQ(test, rtb_event_data(event), (void *)&event->array[1]);
}

static void test_len_field_ends_at_twenty_eight_bytes(struct kunit *test)
{
	struct rtb_event *event = scratch_event(test);

	rtb_event_init_data(event, 28, 0);
	KUNIT_EXPECT_EQ(test, (event->type_len_delta >> 2) & 7, 7U);
	KUNIT_EXPECT_EQ(test, rtb_event_length(event), 32U);

	rtb_event_init_data(event, 29, 0);
	KUNIT_EXPECT_EQ(test, (event->type_len_delta >> 2) & 7, 0U);
	KUNIT_EXPECT_EQ(test, event->array[0], 36U);
	KUNIT_EXPECT_EQ(test, rtb_event_length(event), 40U);
}

static void test_zero_length_stores_one_byte(struct kunit *test)
{
	struct rtb_event *event = scratch_event(test);

	rtb_event_init_data(event, 0, 0);
	KUNIT_EXPECT_EQ(test, (event->type_len_delta >> 2) & 7, 1U);
	KUNIT_EXPECT_EQ(test, rtb_event_length(event), RTB_MIN_EVENT_SIZE);
}

static void test_size_for_matches_written_length(struct kunit *test)
{
	struct rtb_event *event = scratch_event(test);
	int i;

	for (i = 0; i < ARRAY_SIZE(size_cases); i++) {
		const struct size_case *c = &size_cases[i];

		memset(event, 0, SCRATCH_WORDS * sizeof(u32));
		rtb_event_init_data(event, c->payload, 0);
		KUNIT_EXPECT_EQ_MSG(test, rtb_event_size_for(c->payload), c->size,
				    "payload %u", c->payload);
		KUNIT_EXPECT_EQ_MSG(test, rtb_event_length(event), c->size,
				    "payload %u", c->payload);
		KUNIT_EXPECT_GE_MSG(test, rtb_event_data_length(event),
				    c->payload, "payload %u", c->payload);
	}
}

static void test_time_extend_splits_delta_at_bit_27(struct kunit *test)
{
	struct rtb_event *event = scratch_event(test);
	const u64 delta = (1ULL << 40) + 12345;

	rtb_event_init_time_extend(event, delta);
	KUNIT_EXPECT_EQ(test, rtb_event_type(event), RTB_TYPE_TIME_EXTEND);
	KUNIT_EXPECT_EQ(test, event->type_len_delta >> 5,
			(u32)(delta & ((1U << 27) - 1)));
	KUNIT_EXPECT_EQ(test, event->array[0], (u32)(delta >> 27));
	KUNIT_EXPECT_EQ(test, rtb_event_time_delta(event), delta);
	KUNIT_EXPECT_EQ(test, rtb_event_length(event), 8U);
}

static void test_padding_covers_requested_size(struct kunit *test)
{
	static const unsigned int sizes[] = { 4, 8, 28, 32, 36, 200 };
	struct rtb_event *event = scratch_event(test);
	int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		rtb_event_init_padding(event, sizes[i]);
		KUNIT_EXPECT_EQ(test, rtb_event_type(event), RTB_TYPE_PADDING);
		KUNIT_EXPECT_EQ_MSG(test, rtb_event_length(event), sizes[i],
				    "padding of %u bytes", sizes[i]);
	}
}

static struct kunit_case rtb_event_test_cases[] = {
	KUNIT_CASE(test_header_bits_are_type_len_delta_from_bit0),
	KUNIT_CASE(test_seven_bytes_take_twelve),
	KUNIT_CASE(test_eighty_two_bytes_take_ninety_two),
	KUNIT_CASE(test_len_field_ends_at_twenty_eight_bytes),
	KUNIT_CASE(test_zero_length_stores_one_byte),
	KUNIT_CASE(test_size_for_matches_written_length),
	KUNIT_CASE(test_time_extend_splits_delta_at_bit_27),
	KUNIT_CASE(test_padding_covers_requested_size),
	{}
};

static struct kunit_suite rtb_event_test_suite = {
	.name = "ringtrace_event",
	.test_cases = rtb_event_test_cases,
};

kunit_test_suite(rtb_event_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ringtrace record layout");
MODULE_LICENSE("GPL");
