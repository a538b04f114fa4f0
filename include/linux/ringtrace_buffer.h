/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringtrace buffer: the per-CPU lockless ring buffer of
 * Documentation/trace/ringtrace-buffer.rst, and its record layout (below).
 * The design is described at the top of kernel/trace/ringtrace/buffer.c.
 *
 * Spec name                            ringtrace
 * ring_buffer_alloc()                  rtb_alloc()
 * ring_buffer_free()                   rtb_free()
 * ring_buffer_resize()                 rtb_resize()
 * ring_buffer_lock_reserve()           rtb_lock_reserve()
 * ring_buffer_unlock_commit()          rtb_unlock_commit()
 * ring_buffer_write()                  rtb_write()
 * ring_buffer_peek()                   rtb_peek()
 * ring_buffer_consume()                rtb_consume()
 * ring_buffer_read_start()             rtb_read_start()
 * ring_buffer_read_finish()            rtb_read_finish()
 * ring_buffer_iter_peek()              rtb_iter_peek()
 * ring_buffer_read()                   rtb_read()
 * ring_buffer_iter_reset()             rtb_iter_reset()
 * ring_buffer_iter_empty()             rtb_iter_empty()
 * ring_buffer_size()                   rtb_size()
 * ring_buffer_reset_cpu()              rtb_reset_cpu()
 * ring_buffer_reset()                  rtb_reset()
 * ring_buffer_swap_cpu()               rtb_swap_cpu()
 * ring_buffer_empty()                  rtb_empty()
 * ring_buffer_empty_cpu()              rtb_empty_cpu()
 * ring_buffer_record_disable()         rtb_record_disable()
 * ring_buffer_record_disable_cpu()     rtb_record_disable_cpu()
 * ring_buffer_record_enable()          rtb_record_enable()
 * ring_buffer_record_enable_cpu()      rtb_record_enable_cpu()
 * ring_buffer_entries()                rtb_entries()
 * ring_buffer_overruns()               rtb_overruns()
 * ring_buffer_time_stamp()             rtb_time_stamp()
 * ring_buffer_normalize_time_stamp()   rtb_normalize_time_stamp()
 * ring_buffer_event_length()           rtb_event_length()
 * ring_buffer_time_delta()             rtb_event_time_delta()
 * ring_buffer_event_data()             rtb_event_data()
 * ring_buffer_lock()/unlock()          none: writers take no lock, and
 *                                      rtb_record_disable() stops them
 *
 * Beyond the spec: rtb_discard_commit() (give a reservation up),
 * rtb_read_page() and rtb_read_full_page() (one data page for raw
 * readers),
 * rtb_cpu_stats(), rtb_cpu_filled() and rtb_writer_filled() (for
 * watermarks), rtb_set_overwrite(), rtb_set_clock(), rtb_use_fixed_pages()
 * (a buffer on memory that outlives the kernel), and
 * rtb_read_prepare() + rtb_read_prepare_sync() (rtb_read_start() in two
 * steps, so that iterators on every CPU wait for writers once).
 */
#ifndef _LINUX_RINGTRACE_BUFFER_H
#define _LINUX_RINGTRACE_BUFFER_H

#include <linux/bits.h>
#include <linux/math.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <asm/page.h>

/*
 * The record layout (Documentation/trace/ringtrace-buffer.rst), which
 * kernel/trace/ringtrace/record_layout.c encodes and decodes.
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

struct rtb_buffer;
struct rtb_iter;

/* A clock for time stamps: ns, callable from any context, NMI included. */
typedef u64 (*rtb_clock_fn)(void);

/* rtb_alloc() flags */
#define RTB_FL_OVERWRITE	BIT(0)	/* flight recorder: drop oldest */

/*
 * Data page, as rtb_read_page() hands it out and as trace_pipe_raw shows
 * it: the absolute time of the first record, the bytes of records that
 * follow (with the flags below in its top bits), then the records.
 */
struct rtb_data_page {
	u64		time_stamp;
	unsigned long	commit;
	unsigned char	data[];
};

#define RTB_PAGE_MISSED_EVENTS	BIT(31)	/* events lost before it */
#define RTB_PAGE_MISSED_STORED	BIT(30)	/* count after last record */
#define RTB_PAGE_COMMIT_MASK	(RTB_PAGE_MISSED_STORED - 1)
#define RTB_PAGE_DATA_SIZE	(PAGE_SIZE - offsetof(struct rtb_data_page, data))

/* The largest payload one record can carry (a page, less two headers). */
#define RTB_MAX_PAYLOAD		(RTB_PAGE_DATA_SIZE - 2 * sizeof(u32) - \
				 RTB_TIME_EXTEND_SIZE)

/**
 * struct rtb_cpu_stats - counters of one CPU buffer
 * @written:	write attempts while recording was on: every event ends up
 *		in exactly one of the five counters below
 * @entries:	events in the buffer, not yet consumed
 * @overruns:	events lost to overwrite mode dropping the oldest page
 * @dropped:	events not recorded because the buffer was full
 *		(producer/consumer mode) or had no room for them
 * @read:	events consumed by readers
 * @discarded:	events reserved, then given up by their writer
 *		(rtb_discard_commit()): never seen by readers
 * @pages:	data pages of the CPU buffer (its reader page not counted)
 */
struct rtb_cpu_stats {
	unsigned long	written;
	unsigned long	entries;
	unsigned long	overruns;
	unsigned long	dropped;
	unsigned long	read;
	unsigned long	discarded;
	unsigned long	pages;
};

struct rtb_buffer *rtb_alloc(unsigned long size, unsigned int flags);
void rtb_free(struct rtb_buffer *buffer);
int rtb_resize(struct rtb_buffer *buffer, unsigned long size);
unsigned long rtb_size(struct rtb_buffer *buffer);
void rtb_set_overwrite(struct rtb_buffer *buffer, bool overwrite);
void rtb_set_clock(struct rtb_buffer *buffer, rtb_clock_fn clock);

struct rtb_event *rtb_lock_reserve(struct rtb_buffer *buffer,
				   unsigned long length);
int rtb_unlock_commit(struct rtb_buffer *buffer, struct rtb_event *event);
bool rtb_discard_commit(struct rtb_buffer *buffer, struct rtb_event *event);
int rtb_write(struct rtb_buffer *buffer, unsigned long length,
	      const void *data);

struct rtb_event *rtb_peek(struct rtb_buffer *buffer, int cpu, u64 *ts);
struct rtb_event *rtb_consume(struct rtb_buffer *buffer, int cpu, u64 *ts,
			      unsigned long *lost_events);
/*
 * In a reader slot word of rtb_use_fixed_pages(): the reader page holds
 * copies of records that are still in the ring, not a page of its own.
 */
#define RTB_FIXED_READER_COPY	BIT(31)

int rtb_use_fixed_pages(struct rtb_buffer *buffer, void *base,
			unsigned int slice_pages, u32 *reader_slot);
int rtb_read_page(struct rtb_buffer *buffer, int cpu,
		  struct rtb_data_page **page);
int rtb_read_full_page(struct rtb_buffer *buffer, int cpu,
		       struct rtb_data_page **page);

struct rtb_iter *rtb_read_start(struct rtb_buffer *buffer, int cpu);
struct rtb_iter *rtb_read_prepare(struct rtb_buffer *buffer, int cpu);
void rtb_read_prepare_sync(void);
void rtb_read_finish(struct rtb_iter *iter);
struct rtb_event *rtb_iter_peek(struct rtb_iter *iter, u64 *ts);
struct rtb_event *rtb_read(struct rtb_iter *iter, u64 *ts);
void rtb_iter_reset(struct rtb_iter *iter);
bool rtb_iter_empty(struct rtb_iter *iter);

void rtb_reset_cpu(struct rtb_buffer *buffer, int cpu);
void rtb_reset(struct rtb_buffer *buffer);
int rtb_swap_cpu(struct rtb_buffer *buffer_a, struct rtb_buffer *buffer_b,
		 int cpu);
bool rtb_empty(struct rtb_buffer *buffer);
unsigned int rtb_cpu_filled(struct rtb_buffer *buffer, int cpu,
			    unsigned int *nr_pages, unsigned int *whole);
unsigned int rtb_writer_filled(struct rtb_buffer *buffer,
			       unsigned int *nr_pages);
bool rtb_empty_cpu(struct rtb_buffer *buffer, int cpu);

void rtb_record_disable(struct rtb_buffer *buffer);
void rtb_record_enable(struct rtb_buffer *buffer);
void rtb_record_disable_cpu(struct rtb_buffer *buffer, int cpu);
void rtb_record_enable_cpu(struct rtb_buffer *buffer, int cpu);

unsigned long rtb_entries(struct rtb_buffer *buffer);
unsigned long rtb_overruns(struct rtb_buffer *buffer);
void rtb_cpu_stats(struct rtb_buffer *buffer, int cpu,
		   struct rtb_cpu_stats *stats);

u64 rtb_time_stamp(struct rtb_buffer *buffer, int cpu);
void rtb_normalize_time_stamp(struct rtb_buffer *buffer, int cpu, u64 *ts);

#endif /* _LINUX_RINGTRACE_BUFFER_H */
