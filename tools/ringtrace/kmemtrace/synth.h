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

/* A record: @extra bytes of feature blocks (or anything) follow. */
static inline void synth_event(struct synth *s, uint8_t id, uint8_t type,
			       int32_t seq, uint64_t site, uint64_t ptr,
			       uint64_t req, uint64_t alloc,
			       const void *extra, uint16_t extra_len)
{
	uint16_t size = (uint16_t)((id == KT_EVENT_ALLOC ? KT_ALLOC_SIZE :
				    KT_CORE_SIZE) + extra_len);
	uint32_t gfp = 0xcc0;
	int32_t cpu = -1;

	synth_put(s, &id, 1);
	synth_put(s, &type, 1);
	synth_put(s, &size, 2);
	synth_put(s, &seq, 4);
	synth_put(s, &site, 8);
	synth_put(s, &ptr, 8);
	if (id == KT_EVENT_ALLOC) {
		synth_put(s, &req, 8);
		synth_put(s, &alloc, 8);
		synth_put(s, &gfp, 4);
		synth_put(s, &cpu, 4);
	}
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
