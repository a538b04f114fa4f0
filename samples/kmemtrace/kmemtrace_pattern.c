// SPDX-License-Identifier: GPL-2.0
/*
 * A known allocation pattern, for kmemtrace's selftests, demo and
 * benchmark.
 *
 * Writing to /sys/kernel/debug/kmemtrace_pattern/run calls each pattern_*()
 * function once.  Each makes one kind of allocation from one call site
 * and frees it, so that a report grouped by function has exactly these
 * lines for them (PAGE_SIZE 4096, SLUB size classes):
 *
 *   function             type     allocs frees requested allocated x-CPU live
 *   pattern_kmalloc      kmalloc      16    16      1600  16*stride    0    0
 *   pattern_cache        cache         8     8      1600   8*stride    0    0
 *   pattern_large        kmalloc       4     4     80000    131072     0    0
 *   pattern_pages        pages         2     2     16384     16384     0    0
 *   pattern_alloc_pages  pages         3     3     12288     12288     0    0
 *   pattern_cross_cpu    kmalloc       4     4       128   4*stride    4    0
 *   pattern_leak         kmalloc       1     0        64     stride    0    1
 *
 * stride is the slab's object stride (/sys/kernel/slab/<cache>/slab_size):
 * the size class for kmalloc (128, 32, 64) and 208 bytes for the pattern
 * cache without debugging (the free pointer follows the object of a cache
 * with a constructor); KASAN's metadata adds to both.  pattern_large's kmallocs come from the page
 * allocator, which also records their pages, with the same call site.
 * pattern_cross_cpu frees its objects on another CPU (none with one CPU
 * online: then its cross-CPU count is 0).  pattern_leak's object stays
 * allocated (and referenced, so kmemleak does not mind) until the next run
 * or the module's unload.
 *
 * Writing N to .../storm makes N kmalloc(64)/kfree() pairs; reading it
 * gives "N NS" of the last storm: the benchmark's workload.
 *
 * Writing to .../run_paths calls the path_*() functions: each allocates
 * through one more of the allocators' entry points (node, bulk, RCU,
 * vmalloc, kvmalloc, exact and split pages, folios) and frees what it
 * allocated.  Reading .../expect gives, for each path function and record
 * type, what kmemtrace must show of it, from this module's own constants:
 * "FUNCTION TYPE ALLOCS FREES BYTES_REQ NODE", NODE being the node asked
 * for, -1 for none, or "*" where the allocator picks it.  kfree_rcu()'s
 * frees come some seconds later, from RCU's worker.
 */

#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#define NR_KMALLOC	16
#define NR_CACHE	8
#define NR_LARGE	4
#define NR_PAGES	2
#define NR_ALLOC_PAGES	3
#define NR_CROSS_CPU	4
#define CACHE_OBJECT_SIZE	200
/* Above KMALLOC_MAX_CACHE_SIZE: straight from the page allocator. */
#define LARGE_SIZE	20000
#define STORM_MAX	100000000UL

/* The path_*() functions' counts. */
#define NR_NODE		4
#define NR_BULK		6
#define NR_KFREE_BULK	5
#define NR_RCU		4
#define NR_VMALLOC_PAGES 5
#define NR_KVMALLOC	2
#define NR_EXACT_PAGES	3
#define SPLIT_ORDER	2
#define NR_FOLIOS	2
#define NR_NODE_PAGES	2
#define NR_LARGE_NODE	2
#define KREALLOC_FROM	100
#define KREALLOC_TO	1000

struct rcu_object {
	struct rcu_head	rcu;
	char		payload[40];
};

static struct kmem_cache *pattern_cachep;
static void *pattern_leaked;
static DEFINE_MUTEX(pattern_mutex);
static unsigned long storm_pairs;
static u64 storm_ns;
static struct dentry *pattern_dir;

static noinline void pattern_kmalloc(void)
{
	void *p[NR_KMALLOC];
	int i;

	for (i = 0; i < NR_KMALLOC; i++)
		p[i] = kmalloc(100, GFP_KERNEL);
	for (i = 0; i < NR_KMALLOC; i++)
		kfree(p[i]);
}

static noinline void pattern_cache(void)
{
	void *p[NR_CACHE];
	int i;

	for (i = 0; i < NR_CACHE; i++)
		p[i] = kmem_cache_alloc(pattern_cachep, GFP_KERNEL);
	for (i = 0; i < NR_CACHE; i++)
		if (p[i])
			kmem_cache_free(pattern_cachep, p[i]);
}

static noinline void pattern_large(void)
{
	void *p[NR_LARGE];
	int i;

	for (i = 0; i < NR_LARGE; i++)
		p[i] = kmalloc(LARGE_SIZE, GFP_KERNEL);
	for (i = 0; i < NR_LARGE; i++)
		kfree(p[i]);
}

static noinline void pattern_pages(void)
{
	unsigned long p[NR_PAGES];
	int i;

	for (i = 0; i < NR_PAGES; i++)
		p[i] = __get_free_pages(GFP_KERNEL, 1);
	for (i = 0; i < NR_PAGES; i++)
		free_pages(p[i], 1);
}

static noinline void pattern_alloc_pages(void)
{
	struct page *p[NR_ALLOC_PAGES];
	int i;

	for (i = 0; i < NR_ALLOC_PAGES; i++)
		p[i] = alloc_pages(GFP_KERNEL, 0);
	for (i = 0; i < NR_ALLOC_PAGES; i++)
		if (p[i])
			__free_pages(p[i], 0);
}

static long pattern_free_objects(void *arg)
{
	void **p = arg;
	int i;

	for (i = 0; i < NR_CROSS_CPU; i++)
		kfree(p[i]);
	return 0;
}

static noinline void pattern_cross_cpu(void)
{
	void *p[NR_CROSS_CPU];
	unsigned int cpu, other;
	int i;

	cpu = get_cpu();
	for (i = 0; i < NR_CROSS_CPU; i++)
		p[i] = kmalloc(32, GFP_ATOMIC);
	put_cpu();
	other = cpumask_any_but(cpu_online_mask, cpu);
	if (other < nr_cpu_ids)
		work_on_cpu(other, pattern_free_objects, p);
	else
		pattern_free_objects(p);
}

static noinline void pattern_leak(void)
{
	kfree(pattern_leaked);
	pattern_leaked = kmalloc(64, GFP_KERNEL);
}

/* The node the path_*_node() functions ask for: the last one online. */
static int path_nid(void)
{
	int nid, last = 0;

	for_each_online_node(nid)
		last = nid;
	return last;
}

static noinline void path_kmalloc_node(int nid)
{
	void *p[NR_NODE];
	int i;

	for (i = 0; i < NR_NODE; i++)
		p[i] = kmalloc_node(100, GFP_KERNEL, nid);
	for (i = 0; i < NR_NODE; i++)
		kfree(p[i]);
}

static noinline void path_cache_node(int nid)
{
	void *p[NR_NODE];
	int i;

	for (i = 0; i < NR_NODE; i++)
		p[i] = kmem_cache_alloc_node(pattern_cachep, GFP_KERNEL, nid);
	for (i = 0; i < NR_NODE; i++)
		if (p[i])
			kmem_cache_free(pattern_cachep, p[i]);
}

static noinline void path_large_node(int nid)
{
	void *p[NR_LARGE_NODE];
	int i;

	for (i = 0; i < NR_LARGE_NODE; i++)
		p[i] = kmalloc_node(LARGE_SIZE, GFP_KERNEL, nid);
	for (i = 0; i < NR_LARGE_NODE; i++)
		kfree(p[i]);
}

/* Grows past its size class: krealloc() moves it. */
static noinline void path_krealloc(void)
{
	void *p = kmalloc(KREALLOC_FROM, GFP_KERNEL);
	void *q = krealloc(p, KREALLOC_TO, GFP_KERNEL);

	kfree(q ?: p);
}

static noinline void path_kfree_rcu(void)
{
	struct rcu_object *o;
	int i;

	for (i = 0; i < NR_RCU; i++) {
		o = kmalloc(sizeof(*o), GFP_KERNEL);
		if (o)
			kfree_rcu(o, rcu);
	}
}

static noinline void path_cache_bulk(void)
{
	void *p[NR_BULK];

	if (kmem_cache_alloc_bulk(pattern_cachep, GFP_KERNEL, NR_BULK, p))
		kmem_cache_free_bulk(pattern_cachep, NR_BULK, p);
}

static noinline void path_kfree_bulk(void)
{
	void *p[NR_KFREE_BULK];
	int i;

	for (i = 0; i < NR_KFREE_BULK; i++)
		p[i] = kmalloc(64, GFP_KERNEL);
	kfree_bulk(NR_KFREE_BULK, p);
}

static noinline void path_vmalloc(void)
{
	vfree(vmalloc(NR_VMALLOC_PAGES * PAGE_SIZE));
}

/*
 * A page: kvmalloc() takes kmalloc's leg, which it never leaves for
 * vmalloc at this size (larger ones may fail there without retrying).
 */
static noinline void path_kvmalloc(void)
{
	void *p[NR_KVMALLOC];
	int i;

	for (i = 0; i < NR_KVMALLOC; i++)
		p[i] = kvmalloc(PAGE_SIZE, GFP_KERNEL);
	for (i = 0; i < NR_KVMALLOC; i++)
		kvfree(p[i]);
}

static noinline void path_pages_exact(void)
{
	void *p = alloc_pages_exact(NR_EXACT_PAGES * PAGE_SIZE, GFP_KERNEL);

	if (p)
		free_pages_exact(p, NR_EXACT_PAGES * PAGE_SIZE);
}

static noinline void path_split_page(void)
{
	struct page *page = alloc_pages(GFP_KERNEL, SPLIT_ORDER);
	int i;

	if (!page)
		return;
	split_page(page, SPLIT_ORDER);
	for (i = 0; i < 1 << SPLIT_ORDER; i++)
		__free_page(page + i);
}

static noinline void path_folio(void)
{
	struct folio *f[NR_FOLIOS];
	int i;

	for (i = 0; i < NR_FOLIOS; i++)
		f[i] = folio_alloc(GFP_KERNEL, 0);
	for (i = 0; i < NR_FOLIOS; i++)
		if (f[i])
			folio_put(f[i]);
}

static noinline void path_pages_node(int nid)
{
	struct page *p[NR_NODE_PAGES];
	int i;

	for (i = 0; i < NR_NODE_PAGES; i++)
		p[i] = alloc_pages_node(nid, GFP_KERNEL, 1);
	for (i = 0; i < NR_NODE_PAGES; i++)
		if (p[i])
			__free_pages(p[i], 1);
}

static ssize_t run_paths_write(struct file *filp, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	int nid = path_nid();

	mutex_lock(&pattern_mutex);
	path_kmalloc_node(nid);
	path_cache_node(nid);
	path_large_node(nid);
	path_krealloc();
	path_kfree_rcu();
	path_cache_bulk();
	path_kfree_bulk();
	path_vmalloc();
	path_kvmalloc();
	path_pages_exact();
	path_split_page();
	path_folio();
	path_pages_node(nid);
	mutex_unlock(&pattern_mutex);
	return count;
}

/*
 * What run_paths must leave in kmemtrace, from the constants above.  The
 * split page is an order-2 allocation, its free when split_page() splits
 * it, then four order-0 allocations and frees: 5 and 5.
 */
static int expect_show(struct seq_file *m, void *v)
{
	int nid = path_nid();
	unsigned long split = PAGE_SIZE << SPLIT_ORDER;

	seq_printf(m, "path_kmalloc_node kmalloc %d %d %d %d\n", NR_NODE,
		   NR_NODE, NR_NODE * 100, nid);
	seq_printf(m, "path_cache_node cache %d %d %d %d\n", NR_NODE, NR_NODE,
		   NR_NODE * CACHE_OBJECT_SIZE, nid);
	seq_printf(m, "path_large_node kmalloc %d %d %d %d\n", NR_LARGE_NODE,
		   NR_LARGE_NODE, NR_LARGE_NODE * LARGE_SIZE, nid);
	seq_printf(m, "path_large_node pages %d %d %lu %d\n", NR_LARGE_NODE,
		   NR_LARGE_NODE,
		   NR_LARGE_NODE * (PAGE_SIZE << get_order(LARGE_SIZE)), nid);
	seq_printf(m, "path_krealloc kmalloc 2 2 %d -1\n",
		   KREALLOC_FROM + KREALLOC_TO);
	seq_printf(m, "path_kfree_rcu kmalloc %d %d %zu -1\n", NR_RCU, NR_RCU,
		   NR_RCU * sizeof(struct rcu_object));
	seq_printf(m, "path_cache_bulk cache %d %d %d -1\n", NR_BULK, NR_BULK,
		   NR_BULK * CACHE_OBJECT_SIZE);
	seq_printf(m, "path_kfree_bulk kmalloc %d %d %d -1\n", NR_KFREE_BULK,
		   NR_KFREE_BULK, NR_KFREE_BULK * 64);
	seq_printf(m, "path_vmalloc pages %d %d %lu *\n", NR_VMALLOC_PAGES,
		   NR_VMALLOC_PAGES, NR_VMALLOC_PAGES * PAGE_SIZE);
	seq_printf(m, "path_kvmalloc kmalloc %d %d %lu -1\n", NR_KVMALLOC,
		   NR_KVMALLOC, NR_KVMALLOC * PAGE_SIZE);
	seq_printf(m, "path_pages_exact pages %d %d %lu *\n", NR_EXACT_PAGES,
		   NR_EXACT_PAGES, NR_EXACT_PAGES * PAGE_SIZE);
	seq_printf(m, "path_split_page pages %d %d %lu *\n",
		   1 + (1 << SPLIT_ORDER), 1 + (1 << SPLIT_ORDER), 2 * split);
	seq_printf(m, "path_folio pages %d %d %lu *\n", NR_FOLIOS, NR_FOLIOS,
		   NR_FOLIOS * PAGE_SIZE);
	seq_printf(m, "path_pages_node pages %d %d %lu %d\n", NR_NODE_PAGES,
		   NR_NODE_PAGES, NR_NODE_PAGES * (PAGE_SIZE << 1), nid);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(expect);

static ssize_t run_write(struct file *filp, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	mutex_lock(&pattern_mutex);
	pattern_kmalloc();
	pattern_cache();
	pattern_large();
	pattern_pages();
	pattern_alloc_pages();
	pattern_cross_cpu();
	pattern_leak();
	mutex_unlock(&pattern_mutex);
	return count;
}

static noinline void pattern_storm(unsigned long pairs)
{
	unsigned long i;
	void *p;

	for (i = 0; i < pairs; i++) {
		p = kmalloc(64, GFP_KERNEL);
		kfree(p);
		if (!(i & 1023))
			cond_resched();
	}
}

static ssize_t storm_write(struct file *filp, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	unsigned long pairs;
	u64 start;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 0, &pairs);
	if (ret)
		return ret;
	if (!pairs || pairs > STORM_MAX)
		return -ERANGE;
	mutex_lock(&pattern_mutex);
	start = ktime_get_ns();
	pattern_storm(pairs);
	storm_ns = ktime_get_ns() - start;
	storm_pairs = pairs;
	mutex_unlock(&pattern_mutex);
	return count;
}

static ssize_t storm_read(struct file *filp, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char buf[48];
	int len;

	mutex_lock(&pattern_mutex);
	len = scnprintf(buf, sizeof(buf), "%lu %llu\n", storm_pairs, storm_ns);
	mutex_unlock(&pattern_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations run_fops = {
	.open	= simple_open,
	.write	= run_write,
	.llseek	= default_llseek,
};

static const struct file_operations run_paths_fops = {
	.open	= simple_open,
	.write	= run_paths_write,
	.llseek	= default_llseek,
};

static const struct file_operations storm_fops = {
	.open	= simple_open,
	.read	= storm_read,
	.write	= storm_write,
	.llseek	= default_llseek,
};

/* A cache with a constructor is never merged with another. */
static void pattern_ctor(void *object)
{
}

static int __init pattern_init(void)
{
	pattern_cachep = kmem_cache_create("kmemtrace_pattern",
					   CACHE_OBJECT_SIZE, 0, 0,
					   pattern_ctor);
	if (!pattern_cachep)
		return -ENOMEM;
	pattern_dir = debugfs_create_dir("kmemtrace_pattern", NULL);
	debugfs_create_file("run", 0200, pattern_dir, NULL, &run_fops);
	debugfs_create_file("storm", 0600, pattern_dir, NULL, &storm_fops);
	debugfs_create_file("run_paths", 0200, pattern_dir, NULL,
			    &run_paths_fops);
	debugfs_create_file("expect", 0400, pattern_dir, NULL, &expect_fops);
	return 0;
}

static void __exit pattern_exit(void)
{
	debugfs_remove(pattern_dir);
	kfree(pattern_leaked);
	kmem_cache_destroy(pattern_cachep);
}

module_init(pattern_init);
module_exit(pattern_exit);
MODULE_DESCRIPTION("A known allocation pattern for kmemtrace");
MODULE_LICENSE("GPL");
