// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing and merging kmemtrace streams.  Nothing in a stream is trusted:
 * every size is checked against what is left before anything is read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int kt_events_push(struct kt_events *evs, const struct kt_event *e)
{
	if (evs->nr == evs->cap) {
		size_t cap = evs->cap ? evs->cap * 2 : 1024;
		struct kt_event *ev = realloc(evs->ev, cap * sizeof(*ev));

		if (!ev)
			return -1;
		evs->ev = ev;
		evs->cap = cap;
	}
	evs->ev[evs->nr++] = *e;
	return 0;
}

void kt_events_free(struct kt_events *evs)
{
	free(evs->ev);
	memset(evs, 0, sizeof(*evs));
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Feature blocks fill the record from @off to @end: check and count them. */
static int skip_features(const uint8_t *rec, size_t off, size_t end,
			 size_t at, struct kt_skipped *skipped, char *err,
			 size_t errlen)
{
	while (off < end) {
		size_t fsize;

		if (end - off < KT_FEATURE_HEADER)
			return fail(err, errlen,
				    "offset %zu: %zu bytes after the record's fields, too few for a feature block header (3)",
				    at + off, end - off);
		fsize = get16(rec + off);
		if (fsize < KT_FEATURE_HEADER)
			return fail(err, errlen,
				    "offset %zu: feature block size %zu, below its 3-byte header",
				    at + off, fsize);
		if (fsize > end - off)
			return fail(err, errlen,
				    "offset %zu: feature block of %zu bytes runs past its record's end (%zu bytes left)",
				    at + off, fsize, end - off);
		skipped->feature_blocks++;
		off += fsize;
	}
	return 0;
}

int kt_parse_stream(const uint8_t *buf, size_t len, int cpu,
		    struct kt_events *out, struct kt_skipped *skipped,
		    char *err, size_t errlen)
{
	size_t off = 0;

	while (off < len) {
		const uint8_t *rec = buf + off;
		size_t left = len - off, fields;
		struct kt_event e = { .cpu = cpu, .target_cpu = -1 };

		if (left < 4)
			return fail(err, errlen,
				    "offset %zu: truncated record: %zu bytes left, a record header needs 4",
				    off, left);
		e.event_id = rec[0];
		e.type_id = rec[1];
		e.size = get16(rec + 2);
		if (e.size < KT_CORE_SIZE)
			return fail(err, errlen,
				    "offset %zu: event size %u is below the %d-byte core",
				    off, e.size, KT_CORE_SIZE);
		if (e.size > left)
			return fail(err, errlen,
				    "offset %zu: truncated record: event size %u, %zu bytes left",
				    off, e.size, left);
		if (e.event_id != KT_EVENT_ALLOC && e.event_id != KT_EVENT_FREE) {
			skipped->unknown_events++;
			off += e.size;
			continue;
		}
		fields = e.event_id == KT_EVENT_ALLOC ? KT_ALLOC_SIZE :
			 KT_CORE_SIZE;
		if (e.size < fields)
			return fail(err, errlen,
				    "offset %zu: %s event of %u bytes, below the %zu its fields need",
				    off, e.event_id == KT_EVENT_ALLOC ?
				    "allocation" : "free", e.size, fields);
		if (skip_features(rec, fields, e.size, off, skipped, err,
				  errlen))
			return -1;
		e.seq = (int32_t)get32(rec + 4);
		e.call_site = get64(rec + 8);
		e.ptr = get64(rec + 16);
		if (e.event_id == KT_EVENT_ALLOC) {
			e.bytes_req = get64(rec + 24);
			e.bytes_alloc = get64(rec + 32);
			e.gfp_flags = get32(rec + 40);
			e.target_cpu = (int32_t)get32(rec + 44);
			if (!e.bytes_req)
				return fail(err, errlen,
					    "offset %zu: allocation of 0 requested bytes",
					    off);
			if (e.bytes_alloc < e.bytes_req)
				return fail(err, errlen,
					    "offset %zu: allocated bytes %llu below requested %llu",
					    off,
					    (unsigned long long)e.bytes_alloc,
					    (unsigned long long)e.bytes_req);
		}
		off += e.size;
		if (e.type_id >= KT_NR_TYPES) {
			skipped->unknown_types++;
			continue;
		}
		if (kt_events_push(out, &e))
			return fail(err, errlen, "out of memory");
	}
	return 0;
}

int kt_merge(const struct kt_events *cpus, size_t nr, struct kt_events *out)
{
	size_t *pos = calloc(nr ? nr : 1, sizeof(*pos));

	if (!pos)
		return -1;
	for (;;) {
		const struct kt_event *best = NULL;
		size_t i, from = 0;

		for (i = 0; i < nr; i++) {
			const struct kt_event *e;

			if (pos[i] == cpus[i].nr)
				continue;
			e = &cpus[i].ev[pos[i]];
			if (!best || kt_seq_before(e->seq, best->seq)) {
				best = e;
				from = i;
			}
		}
		if (!best)
			break;
		if (kt_events_push(out, best)) {
			free(pos);
			return -1;
		}
		pos[from]++;
	}
	free(pos);
	return 0;
}

uint64_t kt_seq_gaps(const struct kt_events *evs)
{
	uint64_t gaps = 0;
	size_t i;

	for (i = 1; i < evs->nr; i++) {
		int32_t d = (int32_t)((uint32_t)evs->ev[i].seq -
				      (uint32_t)evs->ev[i - 1].seq);

		if (d > 1)
			gaps += (uint64_t)d - 1;
	}
	return gaps;
}
