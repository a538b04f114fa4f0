/* SPDX-License-Identifier: GPL-2.0 */
/* Synthetic kmemtrace streams for the host tests and the fuzzer. */
#ifndef KMEMTRACE_SYNTH_H
#define KMEMTRACE_SYNTH_H

#include <stdint.h>
#include <string.h>

#include "stream.h"

struct synth {
	uint8_t	buf[1 << 16];
	size_t	len;
};

static inline void synth_put(struct synth *s, const void *p, size_t n)
{
	if (n && s->len + n <= sizeof(s->buf)) {
		memcpy(s->buf + s->len, p, n);
		s->len += n;
	}
}

/*
 * Write a record to @out (KT_ALLOC_SIZE bytes at most), its fields in the
 * other byte order if @swap; returns its size without @extra_len.
 */
static inline size_t synth_record(uint8_t *out, uint8_t id, uint8_t type,
				  uint16_t extra_len, int32_t seq,
				  uint64_t site, uint64_t ptr, uint64_t req,
				  uint64_t alloc, uint32_t gfp, int32_t node,
				  int swap)
{
	uint16_t size = (uint16_t)((id == KT_EVENT_ALLOC ? KT_ALLOC_SIZE :
				    KT_CORE_SIZE) + extra_len);
	uint32_t useq = (uint32_t)seq, unode = (uint32_t)node;

	if (swap) {
		size = __builtin_bswap16(size);
		useq = __builtin_bswap32(useq);
		site = __builtin_bswap64(site);
		ptr = __builtin_bswap64(ptr);
		req = __builtin_bswap64(req);
		alloc = __builtin_bswap64(alloc);
		gfp = __builtin_bswap32(gfp);
		unode = __builtin_bswap32(unode);
	}
	out[0] = id;
	out[1] = type;
	memcpy(out + 2, &size, 2);
	memcpy(out + 4, &useq, 4);
	memcpy(out + 8, &site, 8);
	memcpy(out + 16, &ptr, 8);
	if (id != KT_EVENT_ALLOC)
		return KT_CORE_SIZE;
	memcpy(out + 24, &req, 8);
	memcpy(out + 32, &alloc, 8);
	memcpy(out + 40, &gfp, 4);
	memcpy(out + 44, &unode, 4);
	return KT_ALLOC_SIZE;
}

/* A record: @extra bytes of feature blocks (or anything) follow. */
static inline void synth_event(struct synth *s, uint8_t id, uint8_t type,
			       int32_t seq, uint64_t site, uint64_t ptr,
			       uint64_t req, uint64_t alloc,
			       const void *extra, uint16_t extra_len)
{
	uint8_t rec[KT_ALLOC_SIZE];

	synth_put(s, rec, synth_record(rec, id, type, extra_len, seq, site,
				       ptr, req, alloc, 0xcc0, -1, 0));
	synth_put(s, extra, extra_len);
}

static inline void synth_alloc(struct synth *s, uint8_t type, int32_t seq,
			       uint64_t site, uint64_t ptr, uint64_t req,
			       uint64_t alloc)
{
	synth_event(s, KT_EVENT_ALLOC, type, seq, site, ptr, req, alloc,
		    NULL, 0);
}

static inline void synth_free(struct synth *s, uint8_t type, int32_t seq,
			      uint64_t site, uint64_t ptr)
{
	synth_event(s, KT_EVENT_FREE, type, seq, site, ptr, 0, 0, NULL, 0);
}

#endif
