/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmemtrace records (Documentation/ABI/testing/debugfs-kmemtrace): parsing
 * one CPU's stream and merging the CPUs by sequence number.
 */
#ifndef KMEMTRACE_STREAM_H
#define KMEMTRACE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#define KT_ABI_VERSION		1
#define KT_CORE_SIZE		24	/* ids, size, seq, caller, pointer */
#define KT_ALLOC_SIZE		48	/* + requested, allocated, gfp, cpu */
#define KT_FEATURE_HEADER	3	/* size u16, id u8 */

enum { KT_EVENT_ALLOC = 0, KT_EVENT_FREE = 1 };
enum {
	KT_TYPE_KMALLOC	= 0,
	KT_TYPE_CACHE	= 1,
	KT_TYPE_PAGES	= 2,
	KT_NR_TYPES	= 3,
};

struct kt_event {
	uint8_t		event_id;
	uint8_t		type_id;
	uint16_t	size;
	int32_t		seq;
	uint64_t	call_site;
	uint64_t	ptr;
	uint64_t	bytes_req;	/* allocations */
	uint64_t	bytes_alloc;	/* allocations */
	uint32_t	gfp_flags;	/* allocations */
	int32_t		target_cpu;	/* allocations */
	int		cpu;		/* the stream it came from */
};

/* What parsing skipped: known to the ABI, unknown to this reader. */
struct kt_skipped {
	uint64_t	unknown_events;		/* event ids other than 0, 1 */
	uint64_t	unknown_types;		/* type ids other than 0..2 */
	uint64_t	feature_blocks;		/* feature blocks, all unknown */
};

struct kt_events {
	struct kt_event	*ev;
	size_t		nr;
	size_t		cap;
};

/*
 * Append the records of @len bytes of CPU @cpu's stream to @out.
 * Returns 0, or -1 for a corrupt stream with the reason in @err (what is
 * wrong and at which offset); @out keeps the records before it.
 */
int kt_parse_stream(const uint8_t *buf, size_t len, int cpu,
		    struct kt_events *out, struct kt_skipped *skipped,
		    char *err, size_t errlen);

/* a before b in sequence-number order, across a wraparound. */
static inline int kt_seq_before(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a - (uint32_t)b) < 0;
}

/*
 * Merge @nr per-CPU event lists, each in its stream's order, into @out by
 * sequence number.  Returns 0, or -1 when out of memory.
 */
int kt_merge(const struct kt_events *cpus, size_t nr, struct kt_events *out);

/* Records the sequence numbers say are missing between those of @evs. */
uint64_t kt_seq_gaps(const struct kt_events *evs);

int kt_events_push(struct kt_events *evs, const struct kt_event *e);
void kt_events_free(struct kt_events *evs);

#endif
