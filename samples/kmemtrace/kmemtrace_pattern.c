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
 *   pattern_kmalloc      kmalloc      16    16      1600      2048     0    0
 *   pattern_cache        cache         8     8      1600      1600     0    0
 *   pattern_large        kmalloc       4     4     80000    131072     0    0
 *   pattern_pages        pages         2     2     16384     16384     0    0
 *   pattern_alloc_pages  pages         3     3     12288     12288     0    0
 *   pattern_cross_cpu    kmalloc       4     4       128       128     4    0
 *   pattern_leak         kmalloc       1     0        64        64     0    1
 *
 * pattern_cross_cpu frees its objects on another CPU (none with one CPU
 * online: then its cross-CPU count is 0).  pattern_leak's object stays
 * allocated (and referenced, so kmemleak does not mind) until the next run
 * or the module's unload.
 *
 * Writing N to .../storm makes N kmalloc(64)/kfree() pairs; reading it
 * gives "N NS" of the last storm: the benchmark's workload.
 */

#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
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
