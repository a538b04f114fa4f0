// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace accounting and report.
 *
 * Accounting.  An allocation makes an object live and charges its call
 * site; a free ends the object and counts as a free of the site that
 * allocated it, and as a cross-CPU free when the free's CPU file is not
 * its allocation's.  Slab objects and pages are tracked apart (the same
 * address can be both: a slab page and the first object in it).
 *
 * A large kmalloc() is written by the kernel as a page allocation and
 * then a kmalloc allocation at the same pointer with the same call site,
 * on the same CPU (an interrupt's records may come in between); its
 * kfree() as a kmalloc free and then a page free.  The pages are folded
 * into the kmalloc object: uncharged when the kmalloc record comes, and
 * their free, expected after the kfree, absorbed.  A large kmalloc is a
 * kmalloc row only.
 *
 * Report.  The call-site table has a row per (call site, type) or per
 * (function, type) with -g; it ends with two totals, the slab's (kmalloc
 * and cache objects) and the page allocator's (slab pages included),
 * never one sum of both: the objects are inside those pages.  Then the
 * objects still live, and what --caller, --alloc and --page ask.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* How many records of its CPU may separate a large kmalloc's two. */
#define KT_FOLD_WINDOW	4
#define KT_PAGE_SHIFT	12	/* x86_64's PAGE_SIZE, as the kernel wrote */
#define GFP_MOVABLE_MASK	0x18u	/* __GFP_RECLAIMABLE | __GFP_MOVABLE */
#define GFP_MOVABLE_SHIFT	3

static size_t hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)v;
}

static uint64_t *ent_keys(const struct kt_table *t, size_t i)
{
	return (uint64_t *)((char *)t->ents + i * t->elsize);
}

static size_t key_hash(uint64_t k1, uint64_t k2)
{
	return hash64(k1 ^ (k2 * 0x9e3779b97f4a7c15ULL));
}

static int table_grow_hash(struct kt_table *t)
{
	size_t size = t->hash_size ? t->hash_size * 2 : 1024, i;
	uint32_t *h = calloc(size, sizeof(*h));

	if (!h)
		return -1;
	for (i = 0; i < t->nr; i++) {
		const uint64_t *k = ent_keys(t, i);
		size_t j = key_hash(k[0], k[1]) & (size - 1);

		while (h[j])
			j = (j + 1) & (size - 1);
		h[j] = (uint32_t)(i + 1);
	}
	free(t->hash);
	t->hash = h;
	t->hash_size = size;
	return 0;
}

/* The index of (@k1, @k2)'s entry, zeroed when new; -1 on ENOMEM. */
static long table_get(struct kt_table *t, size_t elsize, uint64_t k1,
		      uint64_t k2)
{
	uint64_t *k;
	size_t j;

	t->elsize = elsize;
	if (t->nr >= UINT32_MAX - 1)
		return -1;
	if (2 * (t->nr + 1) > t->hash_size && table_grow_hash(t))
		return -1;
	j = key_hash(k1, k2) & (t->hash_size - 1);
	while (t->hash[j]) {
		k = ent_keys(t, t->hash[j] - 1);
		if (k[0] == k1 && k[1] == k2)
			return (long)(t->hash[j] - 1);
		j = (j + 1) & (t->hash_size - 1);
	}
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		void *e = realloc(t->ents, cap * elsize);

		if (!e)
			return -1;
		t->ents = e;
		t->cap = cap;
	}
	k = ent_keys(t, t->nr);
	memset(k, 0, elsize);
	k[0] = k1;
	k[1] = k2;
	t->nr++;
	t->hash[j] = (uint32_t)t->nr;
	return (long)(t->nr - 1);
}

static void table_free(struct kt_table *t)
{
	free(t->ents);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

unsigned int kt_page_order(uint64_t bytes)
{
	uint64_t pages = bytes >> KT_PAGE_SHIFT;

	if (!pages || bytes & ((1u << KT_PAGE_SHIFT) - 1) ||
	    pages & (pages - 1))
		return KT_ORDER_UNKNOWN;
	return (unsigned int)__builtin_ctzll(pages);
}

unsigned int kt_migratetype(uint32_t gfp)
{
	/* gfp_migratetype(): both bits at once is a caller's bug. */
	return (gfp & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT;
}

static size_t obj_home(const struct kt_account *acc, uint64_t ptr,
		       int pages)
{
	return hash64(ptr ^ (uint64_t)!!pages) & (acc->objs_size - 1);
}

static size_t obj_slot(const struct kt_account *acc, uint64_t ptr,
		       int pages)
{
	size_t j = obj_home(acc, ptr, pages);
	uint8_t want = pages ? KT_OBJ_PAGES : 0;

	while (acc->objs[j].flags &&
	       (acc->objs[j].ptr != ptr ||
		(acc->objs[j].flags & KT_OBJ_PAGES) != want))
		j = (j + 1) & (acc->objs_size - 1);
	return j;
}

static int grow_objs(struct kt_account *acc)
{
	size_t old_size = acc->objs_size, i;
	struct kt_object *old = acc->objs;

	acc->objs_size = old_size ? old_size * 2 : 4096;
	acc->objs = calloc(acc->objs_size, sizeof(*acc->objs));
	if (!acc->objs) {
		acc->objs = old;
		acc->objs_size = old_size;
		return -1;
	}
	for (i = 0; i < old_size; i++)
		if (old[i].flags)
			acc->objs[obj_slot(acc, old[i].ptr,
					   old[i].flags & KT_OBJ_PAGES)] = old[i];
	free(old);
	return 0;
}

/* Room for one more object: 0, or -1 when out of memory. */
static int objs_room(struct kt_account *acc)
{
	if (2 * (acc->nr_used + 1) > acc->objs_size)
		return grow_objs(acc);
	return 0;
}

/* Remove slot @j, shifting back the entries of its probe run. */
static void obj_remove(struct kt_account *acc, size_t j)
{
	size_t mask = acc->objs_size - 1, k = j;

	if (!(acc->objs[j].flags & KT_OBJ_ABSORBED))
		acc->nr_live--;
	acc->objs[j].flags = 0;
	acc->nr_used--;
	for (;;) {
		size_t home;

		k = (k + 1) & mask;
		if (!acc->objs[k].flags)
			break;
		home = obj_home(acc, acc->objs[k].ptr,
				acc->objs[k].flags & KT_OBJ_PAGES);
		/* Move k into the hole unless its home lies in (j, k]. */
		if (j < k ? (home <= j || home > k) : (home <= j && home > k)) {
			acc->objs[j] = acc->objs[k];
			acc->objs[k].flags = 0;
			j = k;
		}
	}
}

static struct kt_page_stat *page_stat(const struct kt_account *acc,
				      const struct kt_object *o)
{
	if (!acc->want_pages || !(o->flags & KT_OBJ_PAGES))
		return NULL;
	return (struct kt_page_stat *)acc->page_stats.ents + o->stat;
}

static struct kt_ptr_stat *ptr_stat(const struct kt_account *acc,
				    const struct kt_object *o)
{
	if (!acc->want_ptrs || o->flags & KT_OBJ_PAGES)
		return NULL;
	return (struct kt_ptr_stat *)acc->ptr_stats.ents + o->stat;
}

/* Object @o is no longer live (freed, replaced or folded). */
static void unlive(struct kt_account *acc, const struct kt_object *o)
{
	struct kt_site *s = &kt_sites(acc)[o->site];
	struct kt_page_stat *ps = page_stat(acc, o);

	s->live--;
	s->live_bytes -= o->bytes_alloc;
	if (ps) {
		ps->live--;
		ps->live_bytes -= o->bytes_alloc;
	}
}

/* Take back the charges of page allocation @o: a large kmalloc's. */
static void uncharge_pages(struct kt_account *acc, const struct kt_object *o)
{
	struct kt_site *s = &kt_sites(acc)[o->site];
	struct kt_page_stat *ps = page_stat(acc, o);

	unlive(acc, o);
	s->allocs--;
	s->bytes_req -= o->bytes_req;
	s->bytes_alloc -= o->bytes_alloc;
	if (ps) {
		ps->allocs--;
		ps->bytes -= o->bytes_alloc;
	}
	acc->folded++;
}

static void set_node(int32_t *node, int first, int32_t asked)
{
	if (first)
		*node = asked;
	else if (*node != asked)
		*node = KT_NODE_MIXED;
}

/* A kmalloc record at @e->ptr: the pages just allocated for it, if any. */
static void fold_large(struct kt_account *acc, const struct kt_event *e,
		       struct kt_object *o)
{
	struct kt_object *pg;
	size_t j;

	j = obj_slot(acc, e->ptr, 1);
	pg = &acc->objs[j];
	if (!pg->flags || pg->flags & KT_OBJ_ABSORBED || pg->cpu != e->cpu ||
	    kt_sites(acc)[pg->site].call_site != e->call_site ||
	    e->idx - pg->idx > KT_FOLD_WINDOW)
		return;
	uncharge_pages(acc, pg);
	obj_remove(acc, j);
	o->flags |= KT_OBJ_FOLDED;
}

static int account_alloc(struct kt_account *acc, const struct kt_event *e)
{
	int pages = e->type_id == KT_TYPE_PAGES;
	struct kt_object *o, obj = { 0 };
	struct kt_site *s;
	long site, stat = 0;
	size_t j;

	site = table_get(&acc->sites, sizeof(struct kt_site), e->call_site,
			 e->type_id);
	if (site < 0 || objs_room(acc))
		return -1;
	if (pages && acc->want_pages) {
		unsigned int order = kt_page_order(e->bytes_alloc);
		struct kt_page_stat *ps;

		stat = table_get(&acc->page_stats, sizeof(*ps),
				 order << 8 | kt_migratetype(e->gfp_flags),
				 e->gfp_flags);
		if (stat < 0)
			return -1;
		ps = (struct kt_page_stat *)acc->page_stats.ents + stat;
		ps->allocs++;
		ps->bytes += e->bytes_alloc;
		ps->live++;
		ps->live_bytes += e->bytes_alloc;
	} else if (!pages && acc->want_ptrs) {
		struct kt_ptr_stat *p;

		stat = table_get(&acc->ptr_stats, sizeof(*p), e->ptr, 0);
		if (stat < 0)
			return -1;
		p = (struct kt_ptr_stat *)acc->ptr_stats.ents + stat;
		set_node(&p->node, !p->allocs, e->node);
		p->allocs++;
		p->bytes_req += e->bytes_req;
		p->bytes_alloc += e->bytes_alloc;
		p->call_site = e->call_site;
		p->type_id = e->type_id;
	}
	s = &kt_sites(acc)[site];
	set_node(&s->node, !s->allocs, e->node);
	s->allocs++;
	s->bytes_req += e->bytes_req;
	s->bytes_alloc += e->bytes_alloc;
	s->live++;
	s->live_bytes += e->bytes_alloc;

	obj.flags = KT_OBJ_USED | (pages ? KT_OBJ_PAGES : 0);
	obj.ptr = e->ptr;
	obj.bytes_req = e->bytes_req;
	obj.bytes_alloc = e->bytes_alloc;
	obj.site = (uint32_t)site;
	obj.stat = (uint32_t)stat;
	obj.idx = e->idx;
	obj.cpu = e->cpu;
	obj.node = e->node;
	if (e->type_id == KT_TYPE_KMALLOC)
		fold_large(acc, e, &obj);

	j = obj_slot(acc, e->ptr, pages);
	o = &acc->objs[j];
	if (!o->flags) {
		acc->nr_used++;
		acc->nr_live++;
	} else if (o->flags & KT_OBJ_ABSORBED) {
		acc->nr_live++;
	} else {
		/* Its free was lost: the old object is gone. */
		unlive(acc, o);
		acc->replaced++;
	}
	*o = obj;
	return 0;
}

/* After the kfree of a large kmalloc: its page free is to come. */
static int expect_page_free(struct kt_account *acc, uint64_t ptr)
{
	struct kt_object *o;

	if (objs_room(acc))
		return -1;
	o = &acc->objs[obj_slot(acc, ptr, 1)];
	if (o->flags)
		return 0;	/* live pages there: not ours to hide */
	memset(o, 0, sizeof(*o));
	o->flags = KT_OBJ_USED | KT_OBJ_PAGES | KT_OBJ_ABSORBED;
	o->ptr = ptr;
	acc->nr_used++;
	return 0;
}

static int account_free(struct kt_account *acc, const struct kt_event *e)
{
	int pages = e->type_id == KT_TYPE_PAGES, folded;
	struct kt_page_stat *ps;
	struct kt_ptr_stat *p;
	struct kt_object *o;
	struct kt_site *s;
	size_t j;

	if (!acc->objs_size) {
		acc->untracked_frees++;
		return 0;
	}
	j = obj_slot(acc, e->ptr, pages);
	o = &acc->objs[j];
	if (!o->flags) {
		acc->untracked_frees++;
		return 0;
	}
	if (o->flags & KT_OBJ_ABSORBED) {
		obj_remove(acc, j);
		return 0;
	}
	s = &kt_sites(acc)[o->site];
	unlive(acc, o);
	s->frees++;
	s->bytes_freed += o->bytes_alloc;
	ps = page_stat(acc, o);
	if (ps)
		ps->frees++;
	p = ptr_stat(acc, o);
	if (p)
		p->frees++;
	if (o->cpu != e->cpu) {
		s->cross_cpu_frees++;
		acc->cross_cpu_frees++;
		if (p)
			p->cross_cpu_frees++;
	}
	folded = o->flags & KT_OBJ_FOLDED;
	obj_remove(acc, j);
	return folded ? expect_page_free(acc, e->ptr) : 0;
}

int kt_account_event(struct kt_account *acc, const struct kt_event *e)
{
	if (e->cpu >= acc->nr_cpus)
		acc->nr_cpus = e->cpu + 1;
	if (e->event_id == KT_EVENT_ALLOC) {
		acc->allocs++;
		return account_alloc(acc, e);
	}
	acc->frees++;
	return account_free(acc, e);
}

void kt_account_free(struct kt_account *acc)
{
	table_free(&acc->sites);
	table_free(&acc->ptr_stats);
	table_free(&acc->page_stats);
	free(acc->objs);
	memset(acc, 0, sizeof(*acc));
}

/* The report. */
#define NAME_LEN	160
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* For printf's %llu: uint64_t is unsigned long here. */
#define U(v)	((unsigned long long)(v))

static const char *const type_names[KT_NR_TYPES] = {
	[KT_TYPE_KMALLOC]	= "kmalloc",
	[KT_TYPE_CACHE]		= "cache",
	[KT_TYPE_PAGES]		= "pages",
};

static const char *const sort_names[KT_NR_SORT_KEYS] = {
	[KT_SORT_BYTES]		= "bytes",
	[KT_SORT_REQ]		= "req",
	[KT_SORT_HIT]		= "hit",
	[KT_SORT_FRAG]		= "frag",
	[KT_SORT_CALLSITE]	= "callsite",
	[KT_SORT_PTR]		= "ptr",
	[KT_SORT_XCPU]		= "xcpu",
	[KT_SORT_LIVE]		= "live",
	[KT_SORT_NET]		= "net",
	[KT_SORT_FREES]		= "frees",
};

static const char *const mt_names[] = {
	[KT_MT_UNMOVABLE]	= "unmovable",
	[KT_MT_MOVABLE]		= "movable",
	[KT_MT_RECLAIMABLE]	= "reclaimable",
	[KT_MT_INVALID]		= "invalid",
};

int kt_parse_sort(const char *keys, struct kt_report_opts *o)
{
	const char *p = keys;

	o->nr_sort = 0;
	while (*p) {
		size_t n = strcspn(p, ","), k;

		for (k = 0; k < KT_NR_SORT_KEYS; k++)
			if (strlen(sort_names[k]) == n &&
			    !strncmp(p, sort_names[k], n))
				break;
		/* perf kmem's name for cross-CPU frees */
		if (k == KT_NR_SORT_KEYS && n == 8 && !strncmp(p, "pingpong", 8))
			k = KT_SORT_XCPU;
		if (k == KT_NR_SORT_KEYS || o->nr_sort == KT_MAX_SORT)
			return -1;
		o->sort[o->nr_sort++] = (enum kt_sort_key)k;
		p += n;
		if (*p == ',' && *++p == '\0')
			return -1;
	}
	return o->nr_sort ? 0 : -1;
}

/* Composite names first, as the kernel's gfp.h builds them. */
static const struct { uint32_t mask; const char *name; } gfp_names[] = {
	{ 0x100cca, "GFP_HIGHUSER_MOVABLE" },
	{ 0x100cc2, "GFP_HIGHUSER" },
	{ 0x100cc0, "GFP_USER" },
	{ 0x400cc0, "GFP_KERNEL_ACCOUNT" },
	{ 0xcc0, "GFP_KERNEL" },
	{ 0xc40, "GFP_NOFS" },
	{ 0xa20, "GFP_ATOMIC" },
	{ 0xc00, "GFP_NOIO" },
	{ 0x800, "GFP_NOWAIT" },
	{ 0x01, "__GFP_DMA" },
	{ 0x02, "__GFP_HIGHMEM" },
	{ 0x04, "__GFP_DMA32" },
	{ 0x08, "__GFP_MOVABLE" },
	{ 0x10, "__GFP_RECLAIMABLE" },
	{ 0x20, "__GFP_HIGH" },
	{ 0x40, "__GFP_IO" },
	{ 0x80, "__GFP_FS" },
	{ 0x100, "__GFP_ZERO" },
	{ 0x200, "__GFP_ATOMIC" },
	{ 0x400, "__GFP_DIRECT_RECLAIM" },
	{ 0x1000, "__GFP_WRITE" },
	{ 0x2000, "__GFP_NOWARN" },
	{ 0x4000, "__GFP_RETRY_MAYFAIL" },
	{ 0x8000, "__GFP_NOFAIL" },
	{ 0x10000, "__GFP_NORETRY" },
	{ 0x20000, "__GFP_MEMALLOC" },
	{ 0x40000, "__GFP_COMP" },
	{ 0x80000, "__GFP_NOMEMALLOC" },
	{ 0x100000, "__GFP_HARDWALL" },
	{ 0x200000, "__GFP_THISNODE" },
	{ 0x400000, "__GFP_ACCOUNT" },
	{ 0x800000, "__GFP_ZEROTAGS" },
	{ 0x1000000, "__GFP_SKIP_ZERO" },
	{ 0x2000000, "__GFP_SKIP_KASAN_UNPOISON" },
	{ 0x4000000, "__GFP_SKIP_KASAN_POISON" },
	{ 0x8000000, "__GFP_NOLOCKDEP" },
};

void kt_gfp_name(uint32_t gfp, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	if (!gfp) {
		snprintf(buf, len, "0");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(gfp_names); i++) {
		if ((gfp & gfp_names[i].mask) != gfp_names[i].mask)
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      n ? "|" : "", gfp_names[i].name);
		gfp &= ~gfp_names[i].mask;
	}
	if (gfp)
		snprintf(buf + n, n < len ? len - n : 0, "%s0x%x", n ? "|" : "",
			 gfp);
}

/* A report row: a site, the sum of a function's sites, or a pointer. */
struct row {
	char		name[NAME_LEN];
	struct kt_site	sum;
	uint64_t	ptr;
};

static double frag_pct(const struct kt_site *s)
{
	if (!s->bytes_alloc)
		return 0.0;
	return 100.0 * (double)(s->bytes_alloc - s->bytes_req) /
	       (double)s->bytes_alloc;
}

static int64_t net_bytes(const struct kt_site *s)
{
	return (int64_t)(s->bytes_alloc - s->bytes_freed);
}

/* Highest first: -1 if @a comes first. */
static int desc(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a > b ? -1 : 1;
}

static int desc_double(double a, double b)
{
	return a == b ? 0 : a > b ? -1 : 1;
}

static int row_cmp_key(const struct row *x, const struct row *y,
		       enum kt_sort_key k)
{
	const struct kt_site *a = &x->sum, *b = &y->sum;

	switch (k) {
	case KT_SORT_BYTES:
		return desc(a->bytes_alloc, b->bytes_alloc);
	case KT_SORT_REQ:
		return desc(a->bytes_req, b->bytes_req);
	case KT_SORT_HIT:
		return desc(a->allocs, b->allocs);
	case KT_SORT_FRAG:
		return desc_double(frag_pct(a), frag_pct(b));
	case KT_SORT_CALLSITE:
		return strcmp(x->name, y->name);
	case KT_SORT_PTR:
		return -desc(x->ptr, y->ptr);
	case KT_SORT_XCPU:
		return desc(a->cross_cpu_frees, b->cross_cpu_frees);
	case KT_SORT_LIVE:
		return desc(a->live_bytes, b->live_bytes);
	case KT_SORT_NET:
		return net_bytes(a) == net_bytes(b) ? 0 :
		       net_bytes(a) > net_bytes(b) ? -1 : 1;
	case KT_SORT_FREES:
		return desc(a->frees, b->frees);
	default:
		return 0;
	}
}

static int row_cmp(const void *pa, const void *pb, void *arg)
{
	static const enum kt_sort_key dflt[] = { KT_SORT_BYTES,
						 KT_SORT_CALLSITE };
	const struct kt_report_opts *o = arg;
	const struct row *x = pa, *y = pb;
	const enum kt_sort_key *keys = o->nr_sort ? o->sort : dflt;
	int i, n = o->nr_sort ? o->nr_sort : 2, c;

	for (i = 0; i < n; i++) {
		c = row_cmp_key(x, y, keys[i]);
		if (c)
			return c;
	}
	c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->sum.type_id != y->sum.type_id)
		return x->sum.type_id < y->sum.type_id ? -1 : 1;
	return -desc(x->ptr, y->ptr);
}

static int row_by_name(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->sum.type_id == y->sum.type_id ? 0 :
	       x->sum.type_id < y->sum.type_id ? -1 : 1;
}

static void add_sums(struct kt_site *to, const struct kt_site *s)
{
	if (!to->allocs && !to->frees)
		to->node = s->node;
	else if (to->node != s->node)
		to->node = KT_NODE_MIXED;
	to->allocs += s->allocs;
	to->frees += s->frees;
	to->bytes_req += s->bytes_req;
	to->bytes_alloc += s->bytes_alloc;
	to->cross_cpu_frees += s->cross_cpu_frees;
	to->live += s->live;
	to->live_bytes += s->live_bytes;
	to->bytes_freed += s->bytes_freed;
}

static const char *type_name(uint64_t type)
{
	return type < KT_NR_TYPES ? type_names[type] : "?";
}

static void node_name(int32_t node, char *buf, size_t len)
{
	if (node == KT_NODE_MIXED)
		snprintf(buf, len, "mix");
	else if (node < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d", node);
}

static void print_row(FILE *out, const struct kt_site *s, const char *type,
		      const char *name)
{
	fprintf(out, "%8llu %8llu %11llu %11llu %6.1f%% %6llu %6llu %11llu  %-8s %s\n",
		U(s->allocs), U(s->frees), U(s->bytes_req), U(s->bytes_alloc),
		frag_pct(s), U(s->cross_cpu_frees), U(s->live),
		U(s->live_bytes), type, name);
}

/*
 * The call-site rows, merged per function with -g and sorted; sites whose
 * only allocations were a large kmalloc's pages (folded) have none.
 */
static size_t make_rows(const struct kt_account *acc,
			const struct kt_report_opts *opts, struct row *rows)
{
	const struct kt_site *sites = kt_sites(acc);
	size_t i, n = 0, m = 0;

	for (i = 0; i < acc->sites.nr; i++) {
		if (!sites[i].allocs && !sites[i].frees)
			continue;
		ksyms_name(opts->ksyms, sites[i].call_site, !opts->by_function,
			   rows[m].name, NAME_LEN);
		rows[m].sum = sites[i];
		rows[m].ptr = 0;
		m++;
	}
	if (!m)
		return 0;
	qsort(rows, m, sizeof(*rows), row_by_name);
	for (i = 1; i < m; i++) {
		if (!row_by_name(&rows[n], &rows[i]))
			add_sums(&rows[n].sum, &rows[i].sum);
		else
			rows[++n] = rows[i];
	}
	n++;
	qsort_r(rows, n, sizeof(*rows), row_cmp, (void *)opts);
	return n;
}

/* How many of @n rows -l lets through. */
static size_t shown_rows(size_t n, const struct kt_report_opts *opts)
{
	return opts->max_lines && n > opts->max_lines ? opts->max_lines : n;
}

/* After the rows shown: how many -l left out. */
static void more_rows(FILE *out, size_t n, const struct kt_report_opts *opts,
		      const char *what)
{
	if (n > shown_rows(n, opts))
		fprintf(out, "... %zu more %s (-l %zu)\n",
			n - opts->max_lines, what, opts->max_lines);
}

static void print_sites(FILE *out, const struct row *rows, size_t n,
			const struct kt_report_opts *opts)
{
	struct kt_site slab = { 0 }, pages = { 0 };
	size_t i, shown = shown_rows(n, opts);

	fprintf(out, "%8s %8s %11s %11s %7s %6s %6s %11s  %-8s %s\n",
		"allocs", "frees", "requested", "allocated", "frag", "x-cpu",
		"live", "live-bytes", "type", "call site");
	for (i = 0; i < n; i++) {
		if (i < shown)
			print_row(out, &rows[i].sum,
				  type_name(rows[i].sum.type_id),
				  rows[i].name);
		add_sums(rows[i].sum.type_id == KT_TYPE_PAGES ? &pages : &slab,
			 &rows[i].sum);
	}
	more_rows(out, n, opts, "call sites");
	print_row(out, &slab, "slab", "total");
	print_row(out, &pages, "pages", "total");
}

/* --caller: per hit, net bytes and the node asked. */
static void print_caller(FILE *out, const struct row *rows, size_t n,
			 const struct kt_report_opts *opts)
{
	size_t i, shown = shown_rows(n, opts);
	char node[16];

	fprintf(out, "\ncall sites per hit, net bytes, node asked (--caller)\n");
	fprintf(out, "%8s %11s %9s %11s %9s %7s %6s %11s %5s  %-8s %s\n",
		"hits", "allocated", "alloc/hit", "requested", "req/hit",
		"frag", "x-cpu", "net-bytes", "node", "type", "call site");
	for (i = 0; i < shown; i++) {
		const struct kt_site *s = &rows[i].sum;

		node_name(s->node, node, sizeof(node));
		fprintf(out, "%8llu %11llu %9llu %11llu %9llu %6.1f%% %6llu %11lld %5s  %-8s %s\n",
			U(s->allocs), U(s->bytes_alloc),
			U(s->allocs ? s->bytes_alloc / s->allocs : 0),
			U(s->bytes_req),
			U(s->allocs ? s->bytes_req / s->allocs : 0),
			frag_pct(s), U(s->cross_cpu_frees),
			(long long)net_bytes(s), node,
			type_name(s->type_id), rows[i].name);
	}
	more_rows(out, n, opts, "call sites");
}

/* --alloc: slab objects per pointer, as perf kmem --alloc. */
static void print_alloc(FILE *out, const struct kt_account *acc,
			const struct kt_report_opts *opts)
{
	const struct kt_ptr_stat *ps = acc->ptr_stats.ents;
	size_t n = acc->ptr_stats.nr, i, shown;
	struct row *rows = calloc(n ? n : 1, sizeof(*rows));
	char node[16];

	fprintf(out, "\nslab objects per pointer (--alloc): %zu pointers\n", n);
	if (!rows) {
		fprintf(out, "out of memory listing them\n");
		return;
	}
	for (i = 0; i < n; i++) {
		struct kt_site *s = &rows[i].sum;

		ksyms_name(opts->ksyms, ps[i].call_site, !opts->by_function,
			   rows[i].name, NAME_LEN);
		rows[i].ptr = ps[i].ptr;
		s->call_site = ps[i].call_site;
		s->type_id = ps[i].type_id;
		s->allocs = ps[i].allocs;
		s->frees = ps[i].frees;
		s->bytes_req = ps[i].bytes_req;
		s->bytes_alloc = ps[i].bytes_alloc;
		s->cross_cpu_frees = ps[i].cross_cpu_frees;
		s->node = ps[i].node;
	}
	qsort_r(rows, n, sizeof(*rows), row_cmp, (void *)opts);
	shown = shown_rows(n, opts);
	fprintf(out, "%-18s %8s %8s %11s %9s %11s %9s %7s %6s %5s  %-8s %s\n",
		"pointer", "hits", "frees", "allocated", "alloc/hit",
		"requested", "req/hit", "frag", "x-cpu", "node", "type",
		"call site (last)");
	for (i = 0; i < shown; i++) {
		const struct kt_site *s = &rows[i].sum;

		node_name(s->node, node, sizeof(node));
		fprintf(out,
			"0x%016llx %8llu %8llu %11llu %9llu %11llu %9llu %6.1f%% %6llu %5s  %-8s %s\n",
			U(rows[i].ptr), U(s->allocs), U(s->frees),
			U(s->bytes_alloc), U(s->bytes_alloc / s->allocs),
			U(s->bytes_req), U(s->bytes_req / s->allocs),
			frag_pct(s), U(s->cross_cpu_frees), node,
			type_name(s->type_id), rows[i].name);
	}
	more_rows(out, n, opts, "pointers");
	free(rows);
}

static int page_stat_cmp(const void *a, const void *b)
{
	const struct kt_page_stat *x = a, *y = b;

	if (x->order_mt != y->order_mt)
		return x->order_mt < y->order_mt ? -1 : 1;
	if (x->allocs != y->allocs)
		return desc(x->allocs, y->allocs);
	return x->gfp < y->gfp ? -1 : x->gfp > y->gfp;
}

/* --page: page allocations by order, migrate type and GFP flags. */
static void print_page(FILE *out, const struct kt_account *acc,
		       const struct kt_report_opts *opts)
{
	size_t n = acc->page_stats.nr, i, shown;
	struct kt_page_stat *ps = calloc(n ? n : 1, sizeof(*ps));
	uint64_t by_order[KT_ORDER_UNKNOWN + 1][4] = { { 0 } };
	char gfp[512], order[8];

	fprintf(out,
		"\npage allocations by order, migrate type and GFP flags (--page)\n");
	if (!ps) {
		fprintf(out, "out of memory listing them\n");
		return;
	}
	if (n)
		memcpy(ps, acc->page_stats.ents, n * sizeof(*ps));
	qsort(ps, n, sizeof(*ps), page_stat_cmp);
	for (i = 0; i < n; i++)
		by_order[ps[i].order_mt >> 8][ps[i].order_mt & 3] +=
			ps[i].allocs;
	fprintf(out, "%5s %11s %11s %11s %11s\n", "order", mt_names[0],
		mt_names[2], mt_names[1], mt_names[3]);
	for (i = 0; i <= KT_ORDER_UNKNOWN; i++) {
		const uint64_t *o = by_order[i];

		if (!(o[0] | o[1] | o[2] | o[3]))
			continue;
		snprintf(order, sizeof(order), i == KT_ORDER_UNKNOWN ? "?" :
			 "%zu", i);
		fprintf(out, "%5s %11llu %11llu %11llu %11llu\n", order,
			U(o[KT_MT_UNMOVABLE]), U(o[KT_MT_RECLAIMABLE]),
			U(o[KT_MT_MOVABLE]), U(o[KT_MT_INVALID]));
	}
	shown = shown_rows(n, opts);
	fprintf(out, "%8s %8s %11s %6s %11s  %5s %-11s %s\n", "allocs",
		"frees", "bytes", "live", "live-bytes", "order", "migrate",
		"GFP flags");
	for (i = 0; i < shown; i++) {
		unsigned int ord = (unsigned int)(ps[i].order_mt >> 8);

		kt_gfp_name((uint32_t)ps[i].gfp, gfp, sizeof(gfp));
		snprintf(order, sizeof(order), ord == KT_ORDER_UNKNOWN ? "?" :
			 "%u", ord);
		fprintf(out, "%8llu %8llu %11llu %6llu %11llu  %5s %-11s %s\n",
			U(ps[i].allocs), U(ps[i].frees), U(ps[i].bytes),
			U(ps[i].live), U(ps[i].live_bytes), order,
			mt_names[ps[i].order_mt & 3], gfp);
	}
	more_rows(out, n, opts, "kinds of page allocation");
	free(ps);
}

static int live_cmp(const void *a, const void *b)
{
	const struct kt_object *x = a, *y = b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

static void print_live(FILE *out, const struct kt_account *acc,
		       const struct kt_report_opts *opts)
{
	struct kt_object *live = calloc(acc->nr_live ? acc->nr_live : 1,
					sizeof(*live));
	const struct kt_site *sites = kt_sites(acc);
	uint64_t slab_bytes = 0, page_bytes = 0;
	size_t i, n = 0, pages = 0;
	char name[NAME_LEN];

	if (!live) {
		fprintf(out, "live at end: out of memory listing them\n");
		return;
	}
	for (i = 0; i < acc->objs_size && n < acc->nr_live; i++) {
		const struct kt_object *o = &acc->objs[i];

		if (!o->flags || o->flags & KT_OBJ_ABSORBED)
			continue;
		live[n++] = *o;
		if (o->flags & KT_OBJ_PAGES) {
			pages++;
			page_bytes += o->bytes_alloc;
		} else {
			slab_bytes += o->bytes_alloc;
		}
	}
	qsort(live, n, sizeof(*live), live_cmp);
	fprintf(out,
		"\nlive at end (possible leaks): %zu slab objects, %llu bytes; %zu page allocations, %llu bytes\n",
		n - pages, U(slab_bytes), pages, U(page_bytes));
	if (n)
		fprintf(out, "%-18s %-8s %11s %11s %4s  %s\n", "pointer", "type",
			"requested", "allocated", "cpu", "call site");
	for (i = 0; i < n && i < opts->max_live; i++) {
		const struct kt_site *s = &sites[live[i].site];

		ksyms_name(opts->ksyms, s->call_site, 1, name, sizeof(name));
		fprintf(out, "0x%016llx %-8s %11llu %11llu %4d  %s\n",
			U(live[i].ptr), type_name(s->type_id),
			U(live[i].bytes_req), U(live[i].bytes_alloc),
			live[i].cpu, name);
	}
	if (n > opts->max_live)
		fprintf(out, "... %zu more\n", n - opts->max_live);
	free(live);
}

void kt_print_report(FILE *out, const struct kt_account *acc,
		     const struct kt_merge *merged,
		     const struct kt_skipped *skipped,
		     const struct kt_report_opts *opts)
{
	struct row *rows = calloc(acc->sites.nr ? acc->sites.nr : 1,
				  sizeof(*rows));
	size_t n;

	fprintf(out, "kmemtrace report: %llu events (%llu allocations, %llu frees) from %d CPUs\n",
		U(merged->events), U(acc->allocs), U(acc->frees),
		acc->nr_cpus);
	fprintf(out, "lost: %llu events (sequence gaps)", U(merged->gaps));
	if (opts->have_lost_bytes)
		fprintf(out, ", %llu bytes (total_overruns)",
			U(opts->lost_bytes));
	fprintf(out, "\n");
	fprintf(out, "skipped: %llu unknown event ids, %llu unknown type ids, ",
		U(skipped->unknown_events), U(skipped->unknown_types));
	fprintf(out, "%llu feature blocks\n", U(skipped->feature_blocks));
	if (opts->resync)
		fprintf(out, "resync: %llu corrupt spans skipped, %llu bytes\n",
			U(skipped->corrupt), U(skipped->corrupt_bytes));
	fprintf(out, "frees of memory allocated before the trace: %llu\n\n",
		U(acc->untracked_frees));
	if (!rows) {
		fprintf(out, "out of memory listing call sites\n");
		return;
	}
	n = make_rows(acc, opts, rows);
	print_sites(out, rows, n, opts);
	if (acc->folded)
		fprintf(out, "(pages of %llu large kmallocs are in their kmalloc rows)\n",
			U(acc->folded));
	print_live(out, acc, opts);
	if (opts->caller)
		print_caller(out, rows, n, opts);
	free(rows);
	if (opts->alloc)
		print_alloc(out, acc, opts);
	if (opts->page)
		print_page(out, acc, opts);
}
