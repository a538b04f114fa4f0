/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmemtrace records (Documentation/ABI/testing/debugfs-kmemtrace): reading
 * one CPU's stream a record at a time and merging the CPUs by sequence
 * number, in memory bounded by the number of streams.
 */
#ifndef KMEMTRACE_STREAM_H
#define KMEMTRACE_STREAM_H

#include <stddef.h>
#include <stdint.h>

/* ABI 1: offset 44 was "target CPU" (always -1); ABI 2: the NUMA node. */
#define KT_ABI_MIN		1
#define KT_ABI_VERSION		2
#define KT_CORE_SIZE		24	/* ids, size, seq, caller, pointer */
#define KT_ALLOC_SIZE		48	/* + requested, allocated, gfp, node */
#define KT_FEATURE_HEADER	3	/* size u16, id u8 */
/* An event's size is a u16: a window this large holds any record. */
#define KT_WINDOW		(256 * 1024)

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
	int32_t		node;		/* allocations: node asked, -1 none */
	int		cpu;		/* the stream it came from */
	uint32_t	idx;		/* its ordinal in that stream */
};

/* What reading skipped: known to the ABI, unknown to this reader. */
struct kt_skipped {
	uint64_t	unknown_events;		/* event ids other than 0, 1 */
	uint64_t	unknown_types;		/* type ids other than 0..2 */
	uint64_t	feature_blocks;		/* feature blocks, all unknown */
	uint64_t	corrupt;		/* --resync: corrupt spans */
	uint64_t	corrupt_bytes;		/* ... and their bytes */
};

/* How a stream is read. */
struct kt_read_opts {
	int		abi;		/* the session's ABI version */
	int		swap;		/* recorded with the other byte order */
	int		resync;		/* skip corrupt spans, don't fail */
};

/*
 * One CPU's stream, read in order: from memory, or from a file through a
 * window of KT_WINDOW bytes.  ev is the record kt_cursor_next() read.
 */
struct kt_cursor {
	int			cpu;
	int			fd;		/* -1: all of it is in data */
	const uint8_t		*data;		/* data[pos..len) not read yet */
	size_t			pos, len;
	uint8_t			*window;	/* owned, for fd */
	uint64_t		base;		/* stream offset of data[0] */
	int			eof;
	int			have_seq;	/* last_seq is set */
	int32_t			last_seq;	/* of the last good record */
	uint32_t		count;		/* records returned */
	struct kt_read_opts	opts;
	struct kt_skipped	*skipped;
	struct kt_event		ev;
	char			err[256];	/* why kt_cursor_next() failed */
};

void kt_cursor_mem(struct kt_cursor *c, const uint8_t *buf, size_t len,
		   int cpu, const struct kt_read_opts *opts,
		   struct kt_skipped *skipped);
/* Read @fd (owned from now on); -1 if out of memory. */
int kt_cursor_fd(struct kt_cursor *c, int fd, int cpu,
		 const struct kt_read_opts *opts, struct kt_skipped *skipped);
void kt_cursor_free(struct kt_cursor *c);

/*
 * The next record of a known event and type into c->ev: 1, 0 at the end,
 * or -1 for a corrupt stream (without opts.resync) or a read error, with
 * the reason in c->err (what is wrong and at which offset).
 */
int kt_cursor_next(struct kt_cursor *c);

/* a before b in sequence-number order, across a wraparound. */
static inline int kt_seq_before(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a - (uint32_t)b) < 0;
}

/*
 * The CPUs' cursors merged by sequence number: a min-heap of the cursors
 * by their next record, so each record costs O(log CPUs) and nothing is
 * kept but one record per CPU.
 */
struct kt_merge {
	struct kt_cursor	**heap;
	size_t			nr;
	struct kt_cursor	*failed;	/* its err says why */
	int			started;
	int32_t			last_seq;
	uint64_t		events;		/* returned so far */
	uint64_t		gaps;		/* records missing between */
};

/* Start merging @nr cursors: 0, or -1 (out of memory, or m->failed). */
int kt_merge_init(struct kt_merge *m, struct kt_cursor *cursors, size_t nr);
/* The next record by sequence number: 1, 0 at the end, -1 (m->failed). */
int kt_merge_next(struct kt_merge *m, struct kt_event *e);
void kt_merge_free(struct kt_merge *m);

#endif
