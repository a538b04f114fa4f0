/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic sessions for the host tests and the fuzzer: pages in the 2008
 * record layout built the way ringtrace's buffer writes them, and a whole
 * trace.dat around them with ringtrace's ftrace/print event.
 */
#ifndef TRACEDAT_SYNTH_H
#define TRACEDAT_SYNTH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datfile.h"
#include "pages.h"

#define SYNTH_PAGE	4096
#define SYNTH_HDR	16	/* u64 time stamp, 64-bit commit */

struct synth_cpu {
	uint8_t		data[16 * SYNTH_PAGE];
	size_t		len;		/* whole pages so far */
	size_t		off;		/* in the open page; 0: none open */
	uint64_t	last_ts;
	uint64_t	flags;		/* lost-event bits of the open page */
	int64_t		lost;		/* and the count it stores */
	uint64_t	next_flags;	/* for the next page opened */
	int64_t		next_lost;
	int		modern;		/* the current record layout */
};

static inline void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static inline void synth_close_page(struct synth_cpu *c, int pad)
{
	uint8_t *page = c->data + c->len;
	uint64_t commit = (c->off - SYNTH_HDR) | c->flags;

	if (!c->off)
		return;
	if (c->flags & TD_MISSING_STORED) {
		memcpy(page + c->off, &c->lost, 8);
	} else if (pad && SYNTH_PAGE - c->off >= 8) {
		/* A closing padding record inside the commit. */
		if (c->modern) {
			put32(page + c->off, TD_MODERN_PADDING);
			put32(page + c->off + 4,
			      (uint32_t)(SYNTH_PAGE - c->off - 4));
			commit += 8;
		} else {
			put32(page + c->off, (uint32_t)TD_TYPE_PADDING);
			commit += 4;
		}
	}
	memcpy(page + 8, &commit, 8);
	c->len += SYNTH_PAGE;
	c->off = 0;
}

/* Records were lost before the next page: say so there (count or -1). */
static inline void synth_lose(struct synth_cpu *c, int64_t lost)
{
	synth_close_page(c, 1);
	c->next_flags = TD_MISSING_EVENTS | (lost >= 0 ? TD_MISSING_STORED : 0);
	c->next_lost = lost;
}

/* Append an event of @n payload bytes at @ts; a new page when full. */
static inline void synth_event(struct synth_cpu *c, uint64_t ts,
			       const void *payload, uint32_t n)
{
	uint32_t words = (n + 3) / 4, size = n <= 28 && n ? 4 + 4 * words :
					     8 + 4 * words;
	uint64_t delta = ts - c->last_ts;
	uint8_t *page;

	if (c->off && c->off + size + 8 + 8 > SYNTH_PAGE)
		synth_close_page(c, 1);
	if (c->len + SYNTH_PAGE > sizeof(c->data))
		return;
	page = c->data + c->len;
	if (!c->off) {
		memset(page, 0, SYNTH_PAGE);
		memcpy(page, &ts, 8);
		c->off = SYNTH_HDR;
		c->flags = c->next_flags;
		c->lost = c->next_lost;
		c->next_flags = 0;
		delta = 0;
	}
	if (delta >> TD_DELTA_BITS) {
		put32(page + c->off, (c->modern ? TD_MODERN_TIME_EXTEND :
				      TD_TYPE_TIME_EXTEND) |
		      (uint32_t)(delta & ((1U << TD_DELTA_BITS) - 1)) << 5);
		put32(page + c->off + 4, (uint32_t)(delta >> TD_DELTA_BITS));
		c->off += 8;
		delta = 0;
	}
	if (n <= 28 && n) {
		put32(page + c->off, (c->modern ? words : TD_TYPE_DATA | words << 2) |
		      (uint32_t)delta << 5);
		memcpy(page + c->off + 4, payload, n);
	} else {
		put32(page + c->off, (c->modern ? 0 : TD_TYPE_DATA) |
		      (uint32_t)delta << 5);
		put32(page + c->off + 4, 4 + 4 * words);
		memcpy(page + c->off + 8, payload, n);
	}
	c->off += size;
	c->last_ts = ts;
}

/* ringtrace's ftrace/print event (trace_marker), as the kernel shows it. */
static const char synth_print_format[] =
	"name: print\n"
	"ID: 5\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:int common_tgid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long ip;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:24;\tsize:0;\tsigned:1;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

/* An upstream kernel's header_page: the current record layout. */
static const char synth_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char synth_header_event[] =
	"# the 32-bit word that starts every record, from bit 0 upward\n"
	"\ttype        :    2 bits\n"
	"\tlen         :    3 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 0\n"
	"\ttime_extend : type == 1\n"
	"\ttime_stamp  : type == 2\n"
	"\tdata        : type == 3\n";

/* A print record from @pid with text @text (NUL included). */
static inline uint32_t synth_print(uint8_t *rec, int pid, const char *text)
{
	uint16_t type = 5;
	uint32_t n = 24 + (uint32_t)strlen(text) + 1;

	memset(rec, 0, n);
	memcpy(rec, &type, 2);
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 24, text, strlen(text) + 1);
	return n;
}

#endif
