// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding the 2008 record layout page by page, every length checked
 * against the page's commit word before it is followed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pages.h"

static int page_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t get(const uint8_t *p, int bytes, int big_endian)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[big_endian ? bytes - 1 - i : i] << (8 * i);
	return v;
}

/*
 * The header word's fields: little-endian kernels put type in the low
 * bits, big-endian ones (bitfields from the top) in the high bits.
 */
static void header_fields(uint32_t w, int big_endian, unsigned int *type,
			  unsigned int *len, uint32_t *delta)
{
	if (big_endian) {
		*type = w >> 30;
		*len = (w >> 27) & 7;
		*delta = w & ((1U << TD_DELTA_BITS) - 1);
	} else {
		*type = w & 3;
		*len = (w >> 2) & 7;
		*delta = w >> 5;
	}
}

/*
 * One record of the current layout at @off: its size, and its payload in
 * @ev when it is data (ev->len 0 otherwise).  Returns 0 or -1 with @err.
 */
static int modern_record(const uint8_t *page, size_t off, size_t end,
			 const struct td_page_format *pf, struct td_event *ev,
			 uint32_t *size, int *last, char *err, size_t errlen)
{
	uint32_t w = (uint32_t)get(page + off, 4, pf->big_endian);
	unsigned int type_len = pf->big_endian ? w >> 27 : w & 0x1f;
	uint32_t delta = pf->big_endian ? w & ((1U << TD_DELTA_BITS) - 1) :
			 w >> 5;
	uint64_t arg = 0;

	ev->len = 0;
	if (type_len > TD_MODERN_MAX_LEN || !type_len) {
		if (end - off < 8)
			return page_fail(err, errlen,
					 "offset %zu: record of type_len %u cut by the commit",
					 off, type_len);
		arg = get(page + off + 4, 4, pf->big_endian);
	}
	switch (type_len) {
	case TD_MODERN_PADDING:
		/*
		 * A discarded record or the padding that closes the page.
		 * As libtraceevent: skip its length, count its delta; one
		 * running past the commit ends the page.
		 */
		*size = (uint32_t)arg + 4;
		*last = *size > end - off;
		if (!*last)
			ev->ts += delta;
		break;
	case TD_MODERN_TIME_EXTEND:
		ev->ts += arg << TD_DELTA_BITS | delta;
		*size = 8;
		break;
	case TD_MODERN_TIME_STAMP:
		/* An absolute time; its top five bits are the page's. */
		ev->ts = (ev->ts & (0xf8ULL << 56)) | arg << TD_DELTA_BITS |
			 delta;
		*size = 8;
		break;
	case 0:
		if (arg < 4 || arg % 4)
			return page_fail(err, errlen,
					 "offset %zu: data length %llu: a multiple of 4, at least 4",
					 off, (unsigned long long)arg);
		ev->ts += delta;
		ev->data = page + off + 8;
		ev->len = (uint32_t)arg - 4;
		*size = (uint32_t)arg + 4;
		break;
	default:
		ev->ts += delta;
		ev->data = page + off + 4;
		ev->len = 4 * type_len;
		*size = 4 + 4 * type_len;
	}
	if (*size > end - off && !*last)
		return page_fail(err, errlen,
				 "offset %zu: a %u-byte record runs past the commit (%zu bytes left)",
				 off, *size, end - off);
	return 0;
}

static int walk_page(const uint8_t *page, size_t page_off, size_t page_nr,
		     int cpu, const struct td_page_format *pf, td_event_fn fn,
		     void *ctx, char *err, size_t errlen)
{
	size_t hdr = 8 + pf->long_size, off, end;
	uint64_t commit = get(page + 8, pf->long_size, pf->big_endian);
	struct td_event ev = { .cpu = cpu };
	int ret;

	ev.ts = get(page, 8, pf->big_endian);
	end = hdr + (commit & TD_COMMIT_MASK);
	if (end > pf->page_size)
		return page_fail(err, errlen,
				 "page %zu (offset %zu): commit of %llu bytes exceeds the page's %zu",
				 page_nr, page_off,
				 (unsigned long long)(commit & TD_COMMIT_MASK),
				 pf->page_size - hdr);
	if (commit & TD_MISSING_EVENTS) {
		ev.lost_before = -1;
		if (commit & TD_MISSING_STORED) {
			if (end + pf->long_size > pf->page_size)
				return page_fail(err, errlen,
						 "page %zu (offset %zu): no room for the lost-event count after %zu bytes",
						 page_nr, page_off, end);
			ev.lost_before = (int64_t)get(page + end, pf->long_size,
						      pf->big_endian);
		}
	}
	for (off = hdr; off < end;) {
		uint32_t w, delta, size = 0;
		unsigned int type, len;

		if (end - off < 4)
			return page_fail(err, errlen,
					 "page %zu, offset %zu: %zu bytes left, a record header needs 4",
					 page_nr, page_off + off, end - off);
		if (pf->modern) {
			char why[200];
			int last = 0;

			if (modern_record(page, off, end, pf, &ev, &size, &last,
					  why, sizeof(why)))
				return page_fail(err, errlen, "page %zu (at %zu): %s",
						 page_nr, page_off, why);
			if (last)
				return 0;
			if (ev.len) {
				ret = fn(&ev, ctx);
				if (ret)
					return ret;
				ev.lost_before = 0;
			}
			off += size;
			continue;
		}
		w = (uint32_t)get(page + off, 4, pf->big_endian);
		header_fields(w, pf->big_endian, &type, &len, &delta);
		switch (type) {
		case TD_TYPE_PADDING:
			return 0;	/* the rest of the page */
		case TD_TYPE_TIME_EXTEND:
			if (end - off < 8)
				return page_fail(err, errlen,
						 "page %zu, offset %zu: time extend cut by the commit",
						 page_nr, page_off + off);
			ev.ts += (get(page + off + 4, 4, pf->big_endian) <<
				  TD_DELTA_BITS) | delta;
			off += 8;
			continue;
		case TD_TYPE_TIME_STAMP:
			return page_fail(err, errlen,
					 "page %zu, offset %zu: record type 2 (time stamp) is reserved",
					 page_nr, page_off + off);
		}
		if (len) {
			size = 4 + 4 * len;
			ev.data = page + off + 4;
			ev.len = 4 * len;
		} else {
			if (end - off < 8)
				return page_fail(err, errlen,
						 "page %zu, offset %zu: no room for the length word",
						 page_nr, page_off + off);
			size = (uint32_t)get(page + off + 4, 4, pf->big_endian);
			if (size < 4 || size % 4 || size > end - off - 4)
				return page_fail(err, errlen,
						 "page %zu, offset %zu: data length %u: a multiple of 4, from 4 to the %zu bytes left",
						 page_nr, page_off + off, size,
						 end - off - 4);
			ev.data = page + off + 8;
			ev.len = size - 4;
			size += 4;
		}
		if (size > end - off)
			return page_fail(err, errlen,
					 "page %zu, offset %zu: a %u-byte record runs past the commit (%zu bytes left)",
					 page_nr, page_off + off, size, end - off);
		ev.ts += delta;
		ret = fn(&ev, ctx);
		if (ret)
			return ret;
		ev.lost_before = 0;
		off += size;
	}
	return 0;
}

int td_walk_pages(const uint8_t *data, size_t len, int cpu,
		  const struct td_page_format *pf, td_event_fn fn, void *ctx,
		  char *err, size_t errlen)
{
	size_t off;
	int ret;

	if (pf->long_size != 4 && pf->long_size != 8)
		return page_fail(err, errlen, "long size %u: 4 or 8",
				 pf->long_size);
	if (pf->page_size < 64 || pf->page_size & (pf->page_size - 1))
		return page_fail(err, errlen, "page size %u: a power of two, 64 or more",
				 pf->page_size);
	if (len % pf->page_size)
		return page_fail(err, errlen,
				 "CPU %d: %zu bytes of data, not whole %u-byte pages",
				 cpu, len, pf->page_size);
	for (off = 0; off < len; off += pf->page_size) {
		ret = walk_page(data + off, off, off / pf->page_size, cpu, pf,
				fn, ctx, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}
