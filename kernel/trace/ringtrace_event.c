// SPDX-License-Identifier: GPL-2.0
/*
 * Encoding and decoding of ringtrace buffer records.
 *
 * The layout is the one of shared/spec/ring-buffer.txt, described in
 * <linux/ringtrace_event.h>.  One rule needs a word here: for a DATA record
 * whose payload does not fit in "len" (more than 28 bytes), array[0] holds
 * the length of everything after the header word, the length word itself
 * included, so the payload starts at array[1].  The spec's example says 84
 * for an 82-byte payload, leaving the length word out; 88 is what readers
 * of this layout (libtraceevent) compute with, and what we store.
 */

#include <linux/bug.h>
#include <linux/export.h>
#include <linux/math.h>
#include <linux/ringtrace_event.h>

static inline u32 rtb_pack(unsigned int type, unsigned int len, u32 delta)
{
	return type | len << RTB_LEN_SHIFT | delta << RTB_DELTA_SHIFT;
}

static inline unsigned int rtb_len_field(const struct rtb_event *event)
{
	return (event->type_len_delta >> RTB_LEN_SHIFT) & RTB_LEN_MASK;
}

/**
 * rtb_event_type() - the type of a record
 * @event: the record
 *
 * Return: one of enum rtb_event_type.
 */
unsigned int rtb_event_type(const struct rtb_event *event)
{
	return __rtb_event_type(event);
}
EXPORT_SYMBOL_GPL(rtb_event_type);

/**
 * rtb_event_size_for() - bytes a DATA record takes for a payload
 * @payload: payload size in bytes; 0 is stored as 1 byte
 *
 * Return: the record size, header and any length word included: a
 * multiple of 4, at least 8.
 */
unsigned int rtb_event_size_for(unsigned int payload)
{
	return __rtb_event_size_for(payload);
}
EXPORT_SYMBOL_GPL(rtb_event_size_for);

/**
 * rtb_event_length() - bytes a record takes in the buffer
 * @event: the record
 *
 * This is the ring_buffer_event_length() of the spec: the memory the record
 * uses, not the size of its payload (see rtb_event_data_length()).
 *
 * Return: the record's size in bytes.
 */
unsigned int rtb_event_length(const struct rtb_event *event)
{
	return __rtb_event_length(event);
}
EXPORT_SYMBOL_GPL(rtb_event_length);

/**
 * rtb_event_data_length() - bytes available to the payload of a DATA record
 * @event: a DATA record
 *
 * Return: the payload size rounded up to 4 bytes (the exact size is the
 * writer's business, as in the spec).
 */
unsigned int rtb_event_data_length(const struct rtb_event *event)
{
	unsigned int len = rtb_len_field(event);

	if (len)
		return len * RTB_ALIGN;
	return event->array[0] - sizeof(u32);
}
EXPORT_SYMBOL_GPL(rtb_event_data_length);

/**
 * rtb_event_data() - the payload of a DATA record
 * @event: a DATA record
 *
 * The pointer is into the buffer: copy the data out before the record can
 * be overwritten.
 *
 * Return: the first payload byte.
 */
void *rtb_event_data(struct rtb_event *event)
{
	WARN_ON_ONCE(rtb_event_type(event) != RTB_TYPE_DATA);
	return __rtb_event_data(event);
}
EXPORT_SYMBOL_GPL(rtb_event_data);

/**
 * rtb_event_time_delta() - ns between a record and the previous one
 * @event: the record
 *
 * For a TIME_EXTEND record the delta spans its two words: time_delta holds
 * the low 27 bits and array[0] the bits above.
 *
 * Return: the delta in ns.
 */
u64 rtb_event_time_delta(const struct rtb_event *event)
{
	return __rtb_event_time_delta(event);
}
EXPORT_SYMBOL_GPL(rtb_event_time_delta);

/**
 * rtb_event_init_data() - write the header of a DATA record
 * @event: where the record starts; rtb_event_size_for(@payload) bytes
 * @payload: payload size in bytes
 * @delta: ns since the previous record; must fit in 27 bits (precede the
 *	record with a TIME_EXTEND when it does not)
 */
void rtb_event_init_data(struct rtb_event *event, unsigned int payload,
			 u32 delta)
{
	WARN_ON_ONCE(delta > RTB_DELTA_MAX);
	__rtb_event_init_data(event, __rtb_event_size_for(payload), delta);
}
EXPORT_SYMBOL_GPL(rtb_event_init_data);

/**
 * rtb_event_init_time_extend() - write a TIME_EXTEND record (8 bytes)
 * @event: where the record starts
 * @delta: ns since the previous record, up to 59 bits
 */
void rtb_event_init_time_extend(struct rtb_event *event, u64 delta)
{
	event->type_len_delta = rtb_pack(RTB_TYPE_TIME_EXTEND, 0,
					 delta & RTB_DELTA_MAX);
	event->array[0] = delta >> RTB_DELTA_BITS;
}
EXPORT_SYMBOL_GPL(rtb_event_init_time_extend);

/**
 * rtb_event_init_padding() - fill the rest of a page with a PADDING record
 * @event: where the padding starts
 * @size: bytes to the end of the page, a multiple of 4
 *
 * Up to 28 bytes the whole size, header included, goes in "len" (in
 * words); above, array[0] holds the bytes after the header, as for DATA.
 */
void rtb_event_init_padding(struct rtb_event *event, unsigned int size)
{
	if (size <= RTB_MAX_SMALL_DATA) {
		event->type_len_delta = rtb_pack(RTB_TYPE_PADDING,
						 size / RTB_ALIGN, 0);
		return;
	}
	event->type_len_delta = rtb_pack(RTB_TYPE_PADDING, 0, 0);
	event->array[0] = size - RTB_HEADER_SIZE;
}
EXPORT_SYMBOL_GPL(rtb_event_init_padding);
