/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmemtrace accounting (in report.c): replays merged events one at a time,
 * keeping only the live objects and the sums per call site (and, when
 * asked, per pointer and per kind of page allocation): memory grows with
 * live objects and call sites, not with the length of the session.
 */
#ifndef KMEMTRACE_ACCOUNT_H
#define KMEMTRACE_ACCOUNT_H

#include <stdint.h>

#include "stream.h"

/*
 * A hash table of entries that begin with two 64-bit keys: call sites,
 * pointers, kinds of page allocation.  Entries are kept in an array in
 * the order they were made.
 */
struct kt_table {
	void		*ents;
	size_t		elsize, nr, cap;
	uint32_t	*hash;		/* index + 1; 0 is empty */
	size_t		hash_size;
};

#define KT_NODE_NONE	(-1)	/* no node asked */
#define KT_NODE_MIXED	(-2)	/* a site's allocations asked several */

/* Sums for one (call site, type); frees count this site's objects. */
struct kt_site {
	uint64_t	call_site;	/* keys */
	uint64_t	type_id;
	uint64_t	allocs, frees, bytes_req, bytes_alloc;
	uint64_t	cross_cpu_frees, live, live_bytes;
	uint64_t	bytes_freed;	/* allocated bytes of those freed */
	int32_t		node;		/* asked by all its allocations */
};

/* --alloc: sums for one slab pointer over the session. */
struct kt_ptr_stat {
	uint64_t	ptr, unused;	/* keys */
	uint64_t	allocs, frees, bytes_req, bytes_alloc;
	uint64_t	cross_cpu_frees;
	uint64_t	call_site;	/* of its last allocation */
	uint8_t		type_id;
	int32_t		node;
};

/* --page: sums for one (order, migrate type, GFP flags). */
struct kt_page_stat {
	uint64_t	order_mt, gfp;	/* keys: order << 8 | migrate type */
	uint64_t	allocs, frees, bytes, live, live_bytes;
};

/* Migrate types as the kernel derives them from GFP flags. */
enum { KT_MT_UNMOVABLE, KT_MT_MOVABLE, KT_MT_RECLAIMABLE, KT_MT_INVALID };
#define KT_ORDER_UNKNOWN	255	/* bytes not PAGE_SIZE << order */

enum {
	KT_OBJ_USED	= 1,
	KT_OBJ_PAGES	= 2,	/* page allocator, not slab */
	KT_OBJ_FOLDED	= 4,	/* a large kmalloc that took its pages */
	/* Those pages after the kfree: their free is to come. */
	KT_OBJ_ABSORBED	= 8,
};

struct kt_object {
	uint64_t	ptr;
	uint64_t	bytes_req, bytes_alloc;
	uint32_t	site;		/* index into sites */
	uint32_t	stat;		/* page_stats (pages) / ptr_stats */
	uint32_t	idx;		/* its record's ordinal on its CPU */
	int32_t		cpu;		/* the CPU file it came from */
	int32_t		node;
	uint8_t		flags;
};

struct kt_account {
	struct kt_table		sites;		/* struct kt_site */
	struct kt_table		ptr_stats;	/* --alloc */
	struct kt_table		page_stats;	/* --page */
	int			want_ptrs, want_pages;
	struct kt_object	*objs;		/* open addressing */
	size_t			objs_size, nr_used, nr_live;
	uint64_t		allocs, frees;	/* records */
	uint64_t		cross_cpu_frees, untracked_frees;
	uint64_t		replaced;	/* allocated again unfreed */
	uint64_t		folded;		/* large kmallocs' pages */
	int			nr_cpus;
};

static inline struct kt_site *kt_sites(const struct kt_account *acc)
{
	return acc->sites.ents;
}

/* Replay one event.  Returns 0, or -1 when out of memory. */
int kt_account_event(struct kt_account *acc, const struct kt_event *e);
void kt_account_free(struct kt_account *acc);

/* Page allocation order from bytes, and migrate type from GFP flags. */
unsigned int kt_page_order(uint64_t bytes);
unsigned int kt_migratetype(uint32_t gfp);

#endif
