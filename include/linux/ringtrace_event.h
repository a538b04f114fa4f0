/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringtrace buffer events: the record layout of shared/spec/ring-buffer.txt.
 *
 * Every record starts with one 32-bit word, read bit 0 upward in native
 * endianness:
 *
 *   bits 0-1   type        PADDING 0, TIME_EXTEND 1, TIME_STAMP 2, DATA 3
 *   bits 2-4   len         DATA: payload size in 4-byte words (1..7), or 0
 *                          when array[0] holds the length instead
 *   bits 5-31  time_delta  ns since the previous record of the CPU buffer
 *
 * followed by array[].  Records are 4-byte aligned and 8 bytes at least.
 * Readers outside the kernel (libtraceevent's original-layout parser) depend
 * on this layout: do not change it.
 *
 * Spec name                     ringtrace
 * ring_buffer_event_length()    rtb_event_length()
 * ring_buffer_time_delta()      rtb_event_time_delta()
 * ring_buffer_event_data()      rtb_event_data()
 */
#ifndef _LINUX_RINGTRACE_EVENT_H
#define _LINUX_RINGTRACE_EVENT_H

#include <linux/math.h>
#include <linux/types.h>

enum rtb_event_type {
	RTB_TYPE_PADDING	= 0,
	RTB_TYPE_TIME_EXTEND	= 1,
	RTB_TYPE_TIME_STAMP	= 2,	/* reserved by the spec, never written */
	RTB_TYPE_DATA		= 3,
};

#define RTB_TYPE_BITS		2
#define RTB_LEN_BITS		3
#define RTB_DELTA_BITS		27
#define RTB_LEN_SHIFT		RTB_TYPE_BITS
#define RTB_DELTA_SHIFT		(RTB_TYPE_BITS + RTB_LEN_BITS)
#define RTB_TYPE_MASK		((1U << RTB_TYPE_BITS) - 1)
#define RTB_LEN_MASK		((1U << RTB_LEN_BITS) - 1)
#define RTB_DELTA_MAX		((1U << RTB_DELTA_BITS) - 1)

#define RTB_ALIGN		4
/* The largest payload "len" can describe: 7 words. */
#define RTB_MAX_SMALL_DATA	(RTB_LEN_MASK * RTB_ALIGN)
#define RTB_HEADER_SIZE		sizeof(u32)
#define RTB_TIME_EXTEND_SIZE	8
#define RTB_TIME_STAMP_SIZE	16
#define RTB_MIN_EVENT_SIZE	8

/**
 * struct rtb_event - one record in a ringtrace buffer page
 * @type_len_delta:	type, len and time_delta packed as described above
 * @array:		payload, or the length word and then the payload
 *
 * Use the accessors below rather than the fields.
 */
struct rtb_event {
	u32 type_len_delta;
	u32 array[];
};

/*
 * Inline forms for the buffer's write path; the functions below wrap them
 * and are what other code should use.
 */
static inline unsigned int __rtb_event_size_for(unsigned int payload)
{
	unsigned int aligned = round_up(payload ?: 1, RTB_ALIGN);

	if (aligned <= RTB_MAX_SMALL_DATA)
		return RTB_HEADER_SIZE + aligned;
	return RTB_HEADER_SIZE + sizeof(u32) + aligned;
}

/* Header of a DATA record of @size bytes (from __rtb_event_size_for()). */
static inline void __rtb_event_init_data(struct rtb_event *event,
					 unsigned int size, u32 delta)
{
	unsigned int after_header = size - RTB_HEADER_SIZE;
	u32 word = RTB_TYPE_DATA | delta << RTB_DELTA_SHIFT;

	if (after_header <= RTB_MAX_SMALL_DATA) {
		event->type_len_delta = word |
					(after_header / RTB_ALIGN) << RTB_LEN_SHIFT;
		return;
	}
	event->type_len_delta = word;
	event->array[0] = after_header;
}

static inline unsigned int __rtb_event_type(const struct rtb_event *event)
{
	return event->type_len_delta & RTB_TYPE_MASK;
}

static inline unsigned int __rtb_event_length(const struct rtb_event *event)
{
	unsigned int len = (event->type_len_delta >> RTB_LEN_SHIFT) &
			   RTB_LEN_MASK;

	switch (__rtb_event_type(event)) {
	case RTB_TYPE_PADDING:
		return len ? len * RTB_ALIGN :
			     RTB_HEADER_SIZE + event->array[0];
	case RTB_TYPE_TIME_EXTEND:
		return RTB_TIME_EXTEND_SIZE;
	case RTB_TYPE_TIME_STAMP:
		return RTB_TIME_STAMP_SIZE;
	default:
		if (len)
			return RTB_HEADER_SIZE + len * RTB_ALIGN;
		return RTB_HEADER_SIZE + event->array[0];
	}
}

static inline u64 __rtb_event_time_delta(const struct rtb_event *event)
{
	u64 delta = event->type_len_delta >> RTB_DELTA_SHIFT;

	if (__rtb_event_type(event) == RTB_TYPE_TIME_EXTEND)
		delta |= (u64)event->array[0] << RTB_DELTA_BITS;
	return delta;
}

static inline void *__rtb_event_data(struct rtb_event *event)
{
	if ((event->type_len_delta >> RTB_LEN_SHIFT) & RTB_LEN_MASK)
		return &event->array[0];
	return &event->array[1];
}

unsigned int rtb_event_type(const struct rtb_event *event);
unsigned int rtb_event_size_for(unsigned int payload);
unsigned int rtb_event_length(const struct rtb_event *event);
unsigned int rtb_event_data_length(const struct rtb_event *event);
void *rtb_event_data(struct rtb_event *event);
u64 rtb_event_time_delta(const struct rtb_event *event);
void rtb_event_init_data(struct rtb_event *event, unsigned int payload,
			 u32 delta);
void rtb_event_init_time_extend(struct rtb_event *event, u64 delta);
void rtb_event_init_padding(struct rtb_event *event, unsigned int size);

#endif /* _LINUX_RINGTRACE_EVENT_H */
