// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and merging kmemtrace streams.  Nothing in a stream is trusted:
 * every size is checked against what is left before anything is read.
 *
 * A stream in a file is read through a window: the bytes not read yet are
 * moved to its start and the rest refilled, so a record (at most 64 KiB,
 * its size being a u16) is always whole in memory and a session of any
 * size costs KT_WINDOW bytes per CPU.
 *
 * With opts.resync, a corrupt record does not end the stream: the reader
 * looks for the next offset that holds a plausible record (known ids, the
 * exact size the kernel writes, sane byte counts, a sequence number near
 * the last good one) and counts what it skipped.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream.h"

/* A resynchronized record's sequence number is this close to the last. */
#define KT_RESYNC_SEQ_SPAN	0x100000

static uint16_t get16(const struct kt_cursor *c, const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return c->opts.swap ? __builtin_bswap16(v) : v;
}

static uint32_t get32(const struct kt_cursor *c, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return c->opts.swap ? __builtin_bswap32(v) : v;
}

static uint64_t get64(const struct kt_cursor *c, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return c->opts.swap ? __builtin_bswap64(v) : v;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

#define U(v)	((unsigned long long)(v))

void kt_cursor_mem(struct kt_cursor *c, const uint8_t *buf, size_t len,
		   int cpu, const struct kt_read_opts *opts,
		   struct kt_skipped *skipped)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->fd = -1;
	c->data = buf;
	c->len = len;
	c->eof = 1;
	c->opts = *opts;
	c->skipped = skipped;
}

int kt_cursor_fd(struct kt_cursor *c, int fd, int cpu,
		 const struct kt_read_opts *opts, struct kt_skipped *skipped)
{
	kt_cursor_mem(c, NULL, 0, cpu, opts, skipped);
	c->fd = fd;
	c->eof = 0;
	c->window = malloc(KT_WINDOW);
	c->data = c->window;
	return c->window ? 0 : -1;
}

void kt_cursor_free(struct kt_cursor *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->window);
	c->fd = -1;
	c->window = NULL;
}

/* At least @need bytes unread in the window, if the stream has them. */
static long fill(struct kt_cursor *c, size_t need)
{
	if (c->len - c->pos >= need || c->eof)
		return (long)(c->len - c->pos);
	memmove(c->window, c->window + c->pos, c->len - c->pos);
	c->base += c->pos;
	c->len -= c->pos;
	c->pos = 0;
	while (c->len < need && !c->eof) {
		ssize_t n = read(c->fd, c->window + c->len,
				 KT_WINDOW - c->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(c->err, sizeof(c->err),
				    "offset %llu: %s", U(c->base + c->len),
				    strerror(errno));
		if (!n)
			c->eof = 1;
		c->len += (size_t)n;
	}
	return (long)(c->len - c->pos);
}

/* Feature blocks fill the record from @off to @end: check and count them. */
static int skip_features(struct kt_cursor *c, const uint8_t *rec,
			 size_t off, size_t end, uint64_t at)
{
	uint64_t blocks = 0;

	while (off < end) {
		size_t fsize;

		if (end - off < KT_FEATURE_HEADER)
			return fail(c->err, sizeof(c->err),
				    "offset %llu: %zu bytes after the record's fields, too few for a feature block header (3)",
				    U(at + off), end - off);
		fsize = get16(c, rec + off);
		if (fsize < KT_FEATURE_HEADER)
			return fail(c->err, sizeof(c->err),
				    "offset %llu: feature block size %zu, below its 3-byte header",
				    U(at + off), fsize);
		if (fsize > end - off)
			return fail(c->err, sizeof(c->err),
				    "offset %llu: feature block of %zu bytes runs past its record's end (%zu bytes left)",
				    U(at + off), fsize, end - off);
		blocks++;
		off += fsize;
	}
	c->skipped->feature_blocks += blocks;
	return 0;
}

/*
 * The record at @rec, @left bytes available, at stream offset @at, into
 * @e: 1 a record to return, 0 one to skip (its size in e->size), -1
 * corrupt (c->err).
 */
static int parse_record(struct kt_cursor *c, const uint8_t *rec, size_t left,
			uint64_t at, struct kt_event *e)
{
	size_t fields;

	if (left < 4)
		return fail(c->err, sizeof(c->err),
			    "offset %llu: truncated record: %zu bytes left, a record header needs 4",
			    U(at), left);
	memset(e, 0, sizeof(*e));
	e->event_id = rec[0];
	e->type_id = rec[1];
	e->size = get16(c, rec + 2);
	if (e->size < KT_CORE_SIZE)
		return fail(c->err, sizeof(c->err),
			    "offset %llu: event size %u is below the %d-byte core",
			    U(at), e->size, KT_CORE_SIZE);
	if (e->size > left)
		return fail(c->err, sizeof(c->err),
			    "offset %llu: truncated record: event size %u, %zu bytes left",
			    U(at), e->size, left);
	if (e->event_id != KT_EVENT_ALLOC && e->event_id != KT_EVENT_FREE) {
		c->skipped->unknown_events++;
		return 0;
	}
	fields = e->event_id == KT_EVENT_ALLOC ? KT_ALLOC_SIZE : KT_CORE_SIZE;
	if (e->size < fields)
		return fail(c->err, sizeof(c->err),
			    "offset %llu: %s event of %u bytes, below the %zu its fields need",
			    U(at), e->event_id == KT_EVENT_ALLOC ?
			    "allocation" : "free", e->size, fields);
	if (skip_features(c, rec, fields, e->size, at))
		return -1;
	e->seq = (int32_t)get32(c, rec + 4);
	e->call_site = get64(c, rec + 8);
	e->ptr = get64(c, rec + 16);
	e->node = -1;
	e->cpu = c->cpu;
	if (e->event_id == KT_EVENT_ALLOC) {
		e->bytes_req = get64(c, rec + 24);
		e->bytes_alloc = get64(c, rec + 32);
		e->gfp_flags = get32(c, rec + 40);
		/* ABI 1 wrote "target CPU" there: no node. */
		if (c->opts.abi >= 2)
			e->node = (int32_t)get32(c, rec + 44);
		if (!e->bytes_req)
			return fail(c->err, sizeof(c->err),
				    "offset %llu: allocation of 0 requested bytes",
				    U(at));
		if (e->bytes_alloc < e->bytes_req)
			return fail(c->err, sizeof(c->err),
				    "offset %llu: allocated bytes %llu below requested %llu",
				    U(at), U(e->bytes_alloc), U(e->bytes_req));
	}
	if (e->type_id >= KT_NR_TYPES) {
		c->skipped->unknown_types++;
		return 0;
	}
	return 1;
}

/* Whether @p (@left bytes) looks like a record the kernel wrote. */
static int plausible(const struct kt_cursor *c, const uint8_t *p, size_t left)
{
	int32_t seq;

	if (left < KT_CORE_SIZE || p[0] > KT_EVENT_FREE ||
	    p[1] >= KT_NR_TYPES)
		return 0;
	if (get16(c, p + 2) != (p[0] == KT_EVENT_ALLOC ? KT_ALLOC_SIZE :
				KT_CORE_SIZE))
		return 0;
	if (p[0] == KT_EVENT_ALLOC &&
	    (left < KT_ALLOC_SIZE || !get64(c, p + 24) ||
	     get64(c, p + 32) < get64(c, p + 24)))
		return 0;
	seq = (int32_t)get32(c, p + 4);
	return !c->have_seq ||
	       (uint32_t)seq - (uint32_t)c->last_seq + KT_RESYNC_SEQ_SPAN <
	       2 * KT_RESYNC_SEQ_SPAN;
}

/* Past a corrupt record: to the next plausible one, or the end. */
static int resync(struct kt_cursor *c)
{
	c->skipped->corrupt++;
	for (;;) {
		long avail;

		c->pos++;
		c->skipped->corrupt_bytes++;
		avail = fill(c, KT_ALLOC_SIZE);
		if (avail < 0)
			return -1;
		if (avail < KT_CORE_SIZE) {
			c->skipped->corrupt_bytes += (uint64_t)avail;
			c->pos = c->len;
			return 0;
		}
		if (plausible(c, c->data + c->pos, (size_t)avail))
			return 0;
	}
}

int kt_cursor_next(struct kt_cursor *c)
{
	for (;;) {
		long avail = fill(c, 4);
		int ret;

		if (avail >= 4)
			avail = fill(c, get16(c, c->data + c->pos + 2));
		if (avail < 0)
			return -1;
		if (!avail)
			return 0;
		ret = parse_record(c, c->data + c->pos, (size_t)avail,
				   c->base + c->pos, &c->ev);
		if (ret < 0) {
			if (!c->opts.resync)
				return -1;
			if (resync(c))
				return -1;
			continue;
		}
		c->pos += c->ev.size;
		if (!ret)
			continue;
		c->have_seq = 1;
		c->last_seq = c->ev.seq;
		c->ev.idx = c->count++;
		return 1;
	}
}

/* Heap order: by sequence number, then by CPU for equal ones. */
static int heap_before(const struct kt_cursor *a, const struct kt_cursor *b)
{
	if (a->ev.seq != b->ev.seq)
		return kt_seq_before(a->ev.seq, b->ev.seq);
	return a->cpu < b->cpu;
}

static void sift_down(struct kt_merge *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;
		struct kt_cursor *t;

		if (l < m->nr && heap_before(m->heap[l], m->heap[min]))
			min = l;
		if (r < m->nr && heap_before(m->heap[r], m->heap[min]))
			min = r;
		if (min == i)
			return;
		t = m->heap[i];
		m->heap[i] = m->heap[min];
		m->heap[min] = t;
		i = min;
	}
}

int kt_merge_init(struct kt_merge *m, struct kt_cursor *cursors, size_t nr)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->heap = calloc(nr ? nr : 1, sizeof(*m->heap));
	if (!m->heap)
		return -1;
	for (i = 0; i < nr; i++) {
		int ret = kt_cursor_next(&cursors[i]);

		if (ret < 0) {
			m->failed = &cursors[i];
			return -1;
		}
		if (ret)
			m->heap[m->nr++] = &cursors[i];
	}
	for (i = m->nr / 2; i-- > 0;)
		sift_down(m, i);
	return 0;
}

int kt_merge_next(struct kt_merge *m, struct kt_event *e)
{
	struct kt_cursor *top;
	int ret;

	if (!m->nr)
		return 0;
	top = m->heap[0];
	*e = top->ev;
	ret = kt_cursor_next(top);
	if (ret < 0) {
		m->failed = top;
		return -1;
	}
	if (!ret)
		m->heap[0] = m->heap[--m->nr];
	sift_down(m, 0);
	if (m->started) {
		int32_t d = (int32_t)((uint32_t)e->seq - (uint32_t)m->last_seq);

		if (d > 1)
			m->gaps += (uint64_t)d - 1;
	}
	m->started = 1;
	m->last_seq = e->seq;
	m->events++;
	return 1;
}

void kt_merge_free(struct kt_merge *m)
{
	free(m->heap);
	memset(m, 0, sizeof(*m));
}
