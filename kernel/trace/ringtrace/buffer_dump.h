/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A walk of a ringtrace buffer for crash dumps (buffer_dump.c):
 * not consuming, taking no lock it could wait for and allocating nothing,
 * so that it runs in a panic or oops notifier whatever the other CPUs
 * were doing when they stopped.
 */
#ifndef _RINGTRACE_BUFFER_DUMP_H
#define _RINGTRACE_BUFFER_DUMP_H

#include <linux/bits.h>
#include <linux/ringtrace_buffer.h>
#include <linux/types.h>

struct rtb_cpu_buffer;
struct rtb_page;

/* What rtb_dump_start() and the walk found; struct rtb_dump_iter @status. */
/* The reader lock was busy: the reader page is left out. */
#define RTB_DUMP_LOCKLESS	BIT(0)
/* The walk stopped at a record or page that did not parse. */
#define RTB_DUMP_BAD		BIT(1)
/* Pages left the ring under the walk: their records are left out. */
#define RTB_DUMP_LAPPED		BIT(2)
/* A resize or reset may be rewriting the CPU buffer: nothing walked. */
#define RTB_DUMP_BUSY		BIT(3)

/**
 * struct rtb_dump_iter - a crash dump's position in one CPU buffer
 * @cpu_buffer:	the CPU buffer; NULL when it is not walked
 * @locked:	the walk holds the CPU buffer's reader lock
 * @in_reader_page: walking the reader page's unread records
 * @seq:	the ring page walked, when not @in_reader_page
 * @last_seq:	the commit page when the walk started: the last page walked
 * @pages:	ring pages entered, to bound a walk of a ring gone wrong
 * @page:	the page walked
 * @off:	offset of the next record in @page
 * @end:	bytes of committed records in @page
 * @ts:		time of the record before @off
 * @peeked:	@ev_off, @ev_len and @ev_ts describe the next DATA record
 * @ev_off:	its offset in @page
 * @ev_len:	its length
 * @ev_ts:	its time stamp
 * @status:	RTB_DUMP_* flags
 * @bad_seq:	where the walk stopped, with RTB_DUMP_BAD: the page
 * @bad_off:	and the offset in it
 *
 * Owned by the caller (a static array: nothing is allocated); the fields
 * are the walk's.
 */
struct rtb_dump_iter {
	struct rtb_cpu_buffer	*cpu_buffer;
	bool			locked;
	bool			in_reader_page;
	unsigned long		seq;
	unsigned long		last_seq;
	unsigned long		pages;
	struct rtb_page		*page;
	unsigned int		off;
	unsigned int		end;
	u64			ts;
	bool			peeked;
	unsigned int		ev_off;
	unsigned int		ev_len;
	u64			ev_ts;
	unsigned int		status;
	unsigned long		bad_seq;
	unsigned int		bad_off;
};

int rtb_dump_start(struct rtb_buffer *buffer, int cpu,
		   struct rtb_dump_iter *it);
bool rtb_dump_peek(struct rtb_dump_iter *it, u64 *ts);
struct rtb_event *rtb_dump_take(struct rtb_dump_iter *it, void *copy,
				unsigned int size);
void rtb_dump_skip(struct rtb_dump_iter *it);
void rtb_dump_finish(struct rtb_dump_iter *it);

#endif /* _RINGTRACE_BUFFER_DUMP_H */
