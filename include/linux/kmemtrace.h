/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmemtrace: slab and page allocator events, recorded per CPU in the
 * binary ABI of Documentation/ABI/testing/debugfs-kmemtrace.
 *
 * The allocators call the hooks below; they cost one static branch while
 * kmemtrace is off.  See Documentation/trace/kmemtrace.rst.
 */
#ifndef _LINUX_KMEMTRACE_H
#define _LINUX_KMEMTRACE_H

#include <linux/build_bug.h>
#include <linux/gfp_types.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/numa.h>
#include <linux/types.h>

/*
 * Bumped with every change to the records, ids included.  2: the s32 at
 * offset 44 of an allocation is the NUMA node asked for (was always -1).
 */
#define KMEMTRACE_ABI_VERSION	2

enum kmemtrace_event_id {
	KMEMTRACE_EVENT_ALLOC	= 0,
	KMEMTRACE_EVENT_FREE	= 1,
};

enum kmemtrace_type_id {
	KMEMTRACE_TYPE_KMALLOC	= 0,	/* kmalloc() / kfree() */
	KMEMTRACE_TYPE_CACHE	= 1,	/* kmem_cache_alloc() / _free() */
	KMEMTRACE_TYPE_PAGES	= 2,	/* __get_free_pages() et al. */
};

/**
 * struct kmemtrace_event - the core of every record
 * @event_id:	enum kmemtrace_event_id
 * @type_id:	enum kmemtrace_type_id
 * @event_size:	bytes of the whole record, feature blocks included
 * @seq:	sequence number, global across CPUs; wraps
 * @call_site:	return address into the allocator's caller
 * @ptr:	the memory allocated or freed
 *
 * A free is this alone.  Every field sits at its natural alignment, so the
 * layout has no padding on any architecture.
 */
struct kmemtrace_event {
	u8	event_id;
	u8	type_id;
	u16	event_size;
	s32	seq;
	u64	call_site;
	u64	ptr;
};

/**
 * struct kmemtrace_alloc_event - an allocation record
 * @core:	the core, event_id KMEMTRACE_EVENT_ALLOC
 * @bytes_req:	bytes the caller asked for, never 0
 * @bytes_alloc: bytes set aside for it, never below @bytes_req
 * @gfp_flags:	the caller's GFP flags
 * @numa_node:	the node asked for, NUMA_NO_NODE (-1) if none; for pages
 *		the allocator's preferred node.  The slot the ABI document
 *		names "target CPU": the original kmemtrace wrote the node
 *		there too.
 */
struct kmemtrace_alloc_event {
	struct kmemtrace_event	core;
	u64			bytes_req;
	u64			bytes_alloc;
	u32			gfp_flags;
	s32			numa_node;
};

static_assert(sizeof(struct kmemtrace_event) == 24);
static_assert(sizeof(struct kmemtrace_alloc_event) == 48);

struct page;

#ifdef CONFIG_KMEMTRACE

DECLARE_STATIC_KEY_FALSE(kmemtrace_key);

void __init kmemtrace_boot_init(void);

void __kmemtrace_alloc(enum kmemtrace_type_id type, unsigned long call_site,
		       const void *ptr, size_t bytes_req, size_t bytes_alloc,
		       gfp_t gfp, int node);
void __kmemtrace_free(enum kmemtrace_type_id type, unsigned long call_site,
		      const void *ptr);
void __kmemtrace_pages(enum kmemtrace_event_id event, unsigned long call_site,
		       struct page *page, unsigned int order, gfp_t gfp,
		       int node);
void __kmemtrace_pages_each(unsigned long call_site, struct page *page,
			    unsigned long nr, gfp_t gfp, int node);
void __kmemtrace_alloc_array(enum kmemtrace_type_id type,
			     unsigned long call_site, void **p, size_t nr,
			     size_t bytes_req, size_t bytes_alloc, gfp_t gfp,
			     int node);
void __kmemtrace_free_array(enum kmemtrace_type_id type,
			    unsigned long call_site, void **p, size_t nr);

/*
 * The allocators' hooks.  NULL and ZERO_SIZE_PTR are not recorded: there
 * is no memory behind them.  Nor is anything with call_site 0: the
 * allocators pass 0 for memory a caller records otherwise (split pages,
 * alloc_pages_exact()'s tail) or that enters the allocator at boot.
 */
static __always_inline void kmemtrace_alloc(enum kmemtrace_type_id type,
					    unsigned long call_site,
					    const void *ptr, size_t bytes_req,
					    size_t bytes_alloc, gfp_t gfp,
					    int node)
{
	if (static_branch_unlikely(&kmemtrace_key))
		__kmemtrace_alloc(type, call_site, ptr, bytes_req, bytes_alloc,
				  gfp, node);
}

/* kmem_cache_alloc_bulk(): one record per object of @p[0..@nr). */
static __always_inline void kmemtrace_alloc_array(enum kmemtrace_type_id type,
						  unsigned long call_site,
						  void **p, size_t nr,
						  size_t bytes_req,
						  size_t bytes_alloc,
						  gfp_t gfp, int node)
{
	if (static_branch_unlikely(&kmemtrace_key))
		__kmemtrace_alloc_array(type, call_site, p, nr, bytes_req,
					bytes_alloc, gfp, node);
}

/* kmem_cache_free_bulk(), kfree_bulk(): one record per object. */
static __always_inline void kmemtrace_free_array(enum kmemtrace_type_id type,
						 unsigned long call_site,
						 void **p, size_t nr)
{
	if (static_branch_unlikely(&kmemtrace_key))
		__kmemtrace_free_array(type, call_site, p, nr);
}

static __always_inline void kmemtrace_free(enum kmemtrace_type_id type,
					   unsigned long call_site,
					   const void *ptr)
{
	if (static_branch_unlikely(&kmemtrace_key))
		__kmemtrace_free(type, call_site, ptr);
}

static __always_inline void kmemtrace_pages_alloc(unsigned long call_site,
						  struct page *page,
						  unsigned int order, gfp_t gfp,
						  int node)
{
	if (static_branch_unlikely(&kmemtrace_key))
		__kmemtrace_pages(KMEMTRACE_EVENT_ALLOC, call_site, page, order,
				  gfp, node);
}

/*
 * @nr order-0 pages from @page, each recorded as allocated: pages that
 * will be freed one by one (split pages, alloc_pages_exact(), vmalloc).
 */
static __always_inline void kmemtrace_pages_each(unsigned long call_site,
						 struct page *page,
						 unsigned long nr, gfp_t gfp,
						 int node)
{
	if (static_branch_unlikely(&kmemtrace_key))
		__kmemtrace_pages_each(call_site, page, nr, gfp, node);
}

static __always_inline void kmemtrace_pages_free(unsigned long call_site,
						 struct page *page,
						 unsigned int order)
{
	if (static_branch_unlikely(&kmemtrace_key))
		__kmemtrace_pages(KMEMTRACE_EVENT_FREE, call_site, page, order,
				  0, NUMA_NO_NODE);
}

#else /* !CONFIG_KMEMTRACE */

static inline void kmemtrace_boot_init(void)
{
}

static inline void kmemtrace_alloc(enum kmemtrace_type_id type,
				   unsigned long call_site, const void *ptr,
				   size_t bytes_req, size_t bytes_alloc,
				   gfp_t gfp, int node)
{
}

static inline void kmemtrace_alloc_array(enum kmemtrace_type_id type,
					 unsigned long call_site, void **p,
					 size_t nr, size_t bytes_req,
					 size_t bytes_alloc, gfp_t gfp,
					 int node)
{
}

static inline void kmemtrace_free_array(enum kmemtrace_type_id type,
					unsigned long call_site, void **p,
					size_t nr)
{
}

static inline void kmemtrace_free(enum kmemtrace_type_id type,
				  unsigned long call_site, const void *ptr)
{
}

static inline void kmemtrace_pages_alloc(unsigned long call_site,
					 struct page *page, unsigned int order,
					 gfp_t gfp, int node)
{
}

static inline void kmemtrace_pages_each(unsigned long call_site,
					struct page *page, unsigned long nr,
					gfp_t gfp, int node)
{
}

static inline void kmemtrace_pages_free(unsigned long call_site,
					struct page *page, unsigned int order)
{
}

#endif /* CONFIG_KMEMTRACE */

#endif /* _LINUX_KMEMTRACE_H */
