/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pages of a trace.dat's CPU data: each page a u64 time stamp, a long
 * commit word (bytes of records; bit 31: records lost before this page,
 * bit 30: their count follows the records) and records with a 32-bit
 * header.  Two record layouts: the 2008 one of
 * Documentation/trace/ringtrace-buffer.rst (type 2 bits, len 3 bits,
 * time_delta 27 bits), which ringtrace writes and an empty header_page
 * stands for, and the current one of upstream kernels (type_len 5 bits,
 * time_delta 27 bits), in trace-cmd's files.
 */
#ifndef TRACEDAT_PAGES_H
#define TRACEDAT_PAGES_H

#include <stddef.h>
#include <stdint.h>

#define TD_TYPE_PADDING		0
#define TD_TYPE_TIME_EXTEND	1
#define TD_TYPE_TIME_STAMP	2
#define TD_TYPE_DATA		3
/* The current layout's type_len values above the data lengths. */
#define TD_MODERN_PADDING	29
#define TD_MODERN_TIME_EXTEND	30
#define TD_MODERN_TIME_STAMP	31
#define TD_MODERN_MAX_LEN	28
#define TD_DELTA_BITS		27
#define TD_COMMIT_MASK		((1U << 27) - 1)
#define TD_MISSING_EVENTS	0x80000000U
#define TD_MISSING_STORED	0x40000000U

struct td_event {
	uint64_t	ts;		/* ns */
	const uint8_t	*data;		/* the payload */
	uint32_t	len;		/* its size, padding to 4 included */
	int		cpu;
	/* The first event of a page after lost ones: how many (-1: some). */
	int64_t		lost_before;
};

struct td_page_format {
	uint32_t	page_size;
	uint8_t		long_size;
	int		big_endian;
	int		modern;		/* the current record layout */
};

/* Called for each event; a non-zero return stops the walk with it. */
typedef int (*td_event_fn)(const struct td_event *ev, void *ctx);

/*
 * Walk the events of CPU @cpu's @len bytes of pages, in order.  Returns
 * 0, the callback's non-zero value, or -1 with @err naming the page, the
 * offset in @data and the problem.
 */
int td_walk_pages(const uint8_t *data, size_t len, int cpu,
		  const struct td_page_format *pf, td_event_fn fn, void *ctx,
		  char *err, size_t errlen);

#endif
