// SPDX-License-Identifier: GPL-2.0
/*
 * The record layout, and the one owner of it: encoding and decoding of
 * ringtrace buffer records, the check of records in pages not trusted
 * (rtb_event_decode()), the rewrite of a page into the layout readers
 * outside the kernel expect (rtb_page_to_current_layout()) and the text
 * that describes it to them (events/header_page, events/header_event).
 *
 * The layout is the one of Documentation/trace/ringtrace-buffer.rst,
 * described in <linux/ringtrace_buffer.h>.  One rule needs a word here: for
 * a DATA record whose payload does not fit in "len" (more than 28 bytes),
 * array[0] holds the length of everything after the header word, the length
 * word itself included, so the payload starts at array[1].  The spec's
 * example says 84 for an 82-byte payload, leaving the length word out; 88
 * is what readers of this layout (libtraceevent) compute with, and what we
 * store.
 */

#include <kunit/visibility.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math.h>
#include <linux/ringtrace_buffer.h>
#include <linux/stddef.h>

#include "record_layout.h"

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

/**
 * rtb_event_decode() - check and decode a record of a page not trusted
 * @event: the record
 * @room: bytes of committed records from @event to the end of its range
 * @type: receives its type
 * @delta: receives its time delta (TIME_EXTEND: the whole extended delta)
 *
 * Reads each header word once: its writer, or a lapping one, may be
 * rewriting it.  For readers that cannot trust the page: crash dumps, the
 * last boot's pages.
 *
 * Return: its length, or 0 if it does not parse in @room.
 */
unsigned int rtb_event_decode(const struct rtb_event *event, unsigned int room,
			      unsigned int *type, u64 *delta)
{
	u32 word, words, arg;
	unsigned int len;

	if (room < RTB_HEADER_SIZE)
		return 0;
	word = READ_ONCE(event->type_len_delta);
	words = (word >> RTB_LEN_SHIFT) & RTB_LEN_MASK;
	*type = word & RTB_TYPE_MASK;
	*delta = word >> RTB_DELTA_SHIFT;
	if (*type == RTB_TYPE_TIME_STAMP)
		return 0;	/* never written */
	if (words && *type == RTB_TYPE_PADDING) {
		/* The only record that may be 4 bytes: a page's last word. */
		len = words * RTB_ALIGN;
		return len <= room ? len : 0;
	}
	if (words && *type == RTB_TYPE_DATA) {
		len = RTB_HEADER_SIZE + words * RTB_ALIGN;
		return len <= room ? len : 0;
	}
	/* array[0] is read only if it is inside the range. */
	if (room < RTB_MIN_EVENT_SIZE)
		return 0;
	arg = READ_ONCE(event->array[0]);
	if (*type == RTB_TYPE_TIME_EXTEND) {
		*delta |= (u64)arg << RTB_DELTA_BITS;
		return RTB_TIME_EXTEND_SIZE;
	}
	/*
	 * Long PADDING or DATA: array[0] counts the bytes after the header,
	 * itself included; long DATA is for payloads above 28 bytes.
	 */
	if (arg > room - RTB_HEADER_SIZE || arg % RTB_ALIGN ||
	    (*type == RTB_TYPE_DATA &&
	     arg < RTB_MAX_SMALL_DATA + 2 * RTB_ALIGN))
		return 0;
	return RTB_HEADER_SIZE + arg;
}

/*
 * The current layout (upstream's since 2009), in which trace_pipe_raw and
 * last_boot/ give pages out: type_len (5 bits) then time_delta; type_len
 * values above the data lengths in words are the other types.
 */
#define RAW_TYPE_LEN_BITS	5
#define RAW_TYPE_DATA_MAX	28
#define RAW_TYPE_PADDING	29
#define RAW_TYPE_TIME_EXTEND	30
#define RAW_TYPE_TIME_STAMP	31

/**
 * rtb_page_to_current_layout() - a data page's record headers as
 *	trace_pipe_raw and last_boot/ give them out
 * @page: a copy of a data page, rewritten in place
 *
 * Rewrites @page's record headers in the current layout: type_len (5
 * bits) then time_delta (27).  DATA keeps its length in words, or 0 with
 * the same length word; TIME_EXTEND becomes type 30 with the same high
 * bits in array[0]; PADDING becomes type 29 with its delta and its length
 * in array[0], as libtraceevent skips it.  Sizes do not change, so
 * nothing moves.
 */
void rtb_page_to_current_layout(struct rtb_data_page *page)
{
	unsigned int end = page->commit & RTB_PAGE_COMMIT_MASK, off = 0;

	while (end - off >= RTB_HEADER_SIZE) {
		struct rtb_event *event = (void *)page->data + off;
		u32 word = event->type_len_delta;
		u32 delta = word >> RTB_DELTA_SHIFT;
		unsigned int len = rtb_event_length(event);

		switch (word & RTB_TYPE_MASK) {
		case RTB_TYPE_DATA:
			event->type_len_delta = ((word >> RTB_LEN_SHIFT) &
						 RTB_LEN_MASK) |
						delta << RAW_TYPE_LEN_BITS;
			break;
		case RTB_TYPE_TIME_EXTEND:
			event->type_len_delta = RAW_TYPE_TIME_EXTEND |
						delta << RAW_TYPE_LEN_BITS;
			break;
		default:
			/*
			 * A discarded record between others, or the padding
			 * that closes the page: the current layout's padding
			 * keeps the delta and has its length after the header.
			 */
			if (len < RTB_MIN_EVENT_SIZE || len > end - off) {
				/* No room for a length: the page ends. */
				event->type_len_delta = RAW_TYPE_PADDING;
				return;
			}
			event->type_len_delta = RAW_TYPE_PADDING |
						delta << RAW_TYPE_LEN_BITS;
			event->array[0] = len - RTB_HEADER_SIZE;
			break;
		}
		if (!len || len > end - off)
			return;
		off += len;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rtb_page_to_current_layout);

/**
 * rtb_header_page_text() - events/header_page: the layout of a data page
 * @buf: receives the text
 * @size: its size, %RTB_HEADER_TEXT_MAX will do
 *
 * In the words of upstream kernels, which trace-cmd's recorder and
 * libtraceevent parse.
 *
 * Return: the length of the text.
 */
int rtb_header_page_text(char *buf, size_t size)
{
	return scnprintf(buf, size,
			 "\tfield: u64 timestamp;\toffset:0;\tsize:%zu;\tsigned:0;\n"
			 "\tfield: local_t commit;\toffset:%zu;\tsize:%zu;\tsigned:1;\n"
			 "\tfield: int overwrite;\toffset:%zu;\tsize:1;\tsigned:1;\n"
			 "\tfield: char data;\toffset:%zu;\tsize:%zu;\tsigned:1;\n",
			 sizeof(u64), offsetof(struct rtb_data_page, commit),
			 sizeof(unsigned long),
			 offsetof(struct rtb_data_page, commit),
			 offsetof(struct rtb_data_page, data),
			 (size_t)RTB_PAGE_DATA_SIZE);
}

/**
 * rtb_header_event_text() - events/header_event: the record header of
 *	rtb_page_to_current_layout()'s pages
 * @buf: receives the text
 * @size: its size, %RTB_HEADER_TEXT_MAX will do
 *
 * Return: the length of the text.
 */
int rtb_header_event_text(char *buf, size_t size)
{
	return scnprintf(buf, size,
			 "# compressed entry header\n"
			 "\ttype_len    : %4u bits\n"
			 "\ttime_delta  : %4u bits\n"
			 "\tarray       :   32 bits\n"
			 "\n"
			 "\tpadding     : type == %u\n"
			 "\ttime_extend : type == %u\n"
			 "\ttime_stamp : type == %u\n"
			 "\tdata max type_len  == %u\n",
			 RAW_TYPE_LEN_BITS, 32 - RAW_TYPE_LEN_BITS,
			 RAW_TYPE_PADDING, RAW_TYPE_TIME_EXTEND,
			 RAW_TYPE_TIME_STAMP, RAW_TYPE_DATA_MAX);
}
