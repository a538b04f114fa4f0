// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace: every slab and page allocation and free, recorded per CPU in
 * the binary ABI of Documentation/ABI/testing/debugfs-kmemtrace.
 *
 * The allocators call the hooks of <linux/kmemtrace.h> next to their
 * tracepoints.  While kmemtrace is off a hook is one static branch.  While
 * it is on, a hook builds its record on the stack and copies it into this
 * CPU's relay buffer, a GTSC channel made with trace_setup_buffers() whose
 * files are /sys/kernel/debug/kmemtrace/cpu<n>.
 *
 * Writing a record.  With interrupts off, so that nothing on this CPU
 * interleaves with it: take the next sequence number, copy the record into
 * this CPU's buffer, then move the buffer's offset past it.  A relay
 * reader of cpu<n> runs on CPU n (the ABI asks readers to set their
 * affinity), so it never sees a record half written; one that a CPU going
 * offline moved away reads only below the offset, whole records on x86
 * (relay's read() has no read barrier to pair with ours).  A per-CPU flag
 * refuses a record while this CPU is writing one: whatever the writer
 * itself might allocate (relay does not, but a debugging hook could) is
 * not recorded, and neither is anything from an NMI that interrupts the
 * writer.  Records the full buffer refuses
 * (kmemtrace never overwrites) add their size to total_overruns; their
 * sequence numbers are gaps a reader can count.
 *
 * Turning it off.  The flag the hooks test is cleared, then an RCU grace
 * period passes (trace_stop()): every hook that saw it set has finished,
 * because hooks write with interrupts off.  Only then is the channel
 * flushed.  A hook is preemptible only before it disables interrupts,
 * where it holds nothing: it loads kmemtrace_chan and uses it with
 * interrupts off (an RCU-sched reader), so replacing the channel
 * (buffer_size_kb) clears the pointer and then lets trace_cleanup() wait
 * for a grace period before freeing the old one.
 *
 * Buffers.  None are allocated until recording is first enabled: a kernel
 * that never records pays nothing but the hooks' static branches.
 *
 * From boot (kmemtrace.enable=1).  The slab allocator comes up long before
 * relay can (vmalloc, percpu, debugfs), so kmemtrace_boot_init(), called
 * by mm_init() just before kmem_cache_init(), takes an early buffer of
 * pages from the buddy allocator and turns the hooks on: records go there,
 * on the boot CPU alone, until kmemtrace_boot_handoff() (an early initcall,
 * still before smp_init()) makes the channel without files, copies the
 * early records into CPU 0's buffer and publishes the channel, interrupts
 * off so that no record comes in between.  kmemtrace_init() (postcore,
 * after debugfs) gives the channel its cpu<n> files.  A size whose buffers would take more than
 * half the memory available is refused with ENOMEM before anything is
 * allocated, so that relay's allocations never wake the OOM killer.
 */

#define pr_fmt(fmt) "kmemtrace: " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/gtsc.h>
#include <linux/init.h>
#include <linux/kmemtrace.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

/*
 * Sub-buffers of 16 KiB: a reader waiting in poll() is woken once per
 * sub-buffer, about 340 allocation records.
 */
#define KMEMTRACE_SUBBUF_SIZE		SZ_16K
#define KMEMTRACE_SUBBUF_KB		(KMEMTRACE_SUBBUF_SIZE / SZ_1K)
/* Relay needs a sub-buffer to write while the reader holds another. */
#define KMEMTRACE_MIN_BUFFER_KB		(2 * KMEMTRACE_SUBBUF_KB)
#define KMEMTRACE_MAX_BUFFER_KB		(GTSC_MAX_BUF_BYTES / SZ_1K)
#define KMEMTRACE_DEFAULT_BUFFER_KB	1024

DEFINE_STATIC_KEY_FALSE(kmemtrace_key);

/* kmemtrace.enable=1 on the command line: record from boot. */
static bool kmemtrace_boot_enable;
module_param_named(enable, kmemtrace_boot_enable, bool, 0);
MODULE_PARM_DESC(enable, "Record allocations from boot on");

/* kmemtrace.buffer_size_kb=N: the per-CPU buffer size at boot. */
static unsigned int kmemtrace_buffer_kb = KMEMTRACE_DEFAULT_BUFFER_KB;
module_param_named(buffer_size_kb, kmemtrace_buffer_kb, uint, 0);
MODULE_PARM_DESC(buffer_size_kb, "Per-CPU buffer size in KiB");

/*
 * The channel the hooks write to; NULL until recording is first enabled.
 * Published with rcu_assign_pointer() (a hook that sees it sees it set
 * up), replaced only while the hooks are off, and freed only after a grace
 * period (trace_cleanup()), so a hook (interrupts off) that loaded it may
 * use it.
 */
static struct trace_info __rcu *kmemtrace_chan;
/*
 * Serializes enabled and buffer_size_kb writes; guards kmemtrace_chan,
 * kmemtrace_enabled and kmemtrace_buffer_kb (which their files read
 * without it).
 */
static DEFINE_MUTEX(kmemtrace_mutex);
static bool kmemtrace_enabled;

/* The next record's sequence number, less one: global across CPUs. */
static atomic_t kmemtrace_seq = ATOMIC_INIT(-1);
/* Bytes of records refused because a buffer was full. */
static atomic_long_t kmemtrace_overrun_bytes;
/* Set while this CPU writes a record: no record within a record. */
static DEFINE_PER_CPU(bool, kmemtrace_writing);

/*
 * The early buffer: records from kmemtrace_boot_init() until the channel
 * exists.  Only the boot CPU runs then, and it writes with interrupts off
 * (kmemtrace_write()): the early buffer has a single writer.
 */
#define KMEMTRACE_EARLY_MAX_ORDER	(MAX_ORDER - 1)
static bool kmemtrace_early;
static void *kmemtrace_early_buf;
static unsigned int kmemtrace_early_order;
/* Room in it: one CPU's buffer at most (the pages may hold more). */
static size_t kmemtrace_early_size;
static size_t kmemtrace_early_len;

/*
 * Append to the early buffer, interrupts off.  Its single writer is the
 * boot CPU before smp_init(); should the hand-off not have run by then,
 * records are refused rather than written by two CPUs.
 */
static void kmemtrace_early_put(const struct kmemtrace_event *ev, u16 size)
{
	size_t len = kmemtrace_early_len;

	if (num_online_cpus() > 1 || len + size > kmemtrace_early_size) {
		atomic_long_add(size, &kmemtrace_overrun_bytes);
		return;
	}
	memcpy(kmemtrace_early_buf + len, ev, size);
	kmemtrace_early_len = len + size;
}

static struct dentry *kmemtrace_dir;

/*
 * Copy @size bytes of @rec into this CPU's buffer of @rchan, interrupts
 * off: relay_reserve() and a copy, but with the bytes in place before the
 * buffer's offset takes them in.  relay's read() gives out what lies below
 * the offset, so a reader that a CPU going offline moved away from it
 * gets no record half written (on x86: relay's read() has no barrier).
 * Returns false if the buffer is full (non-overwrite: relay refuses the
 * record).
 */
static bool kmemtrace_put(struct rchan *rchan, const void *rec, size_t size)
{
	struct rchan_buf *buf = *this_cpu_ptr(rchan->buf);
	size_t offset = buf->offset;

	if (unlikely(offset + size > rchan->subbuf_size)) {
		if (!relay_switch_subbuf(buf, size))
			return false;
		/* 0, or what the sub-buffer start callback set aside. */
		offset = buf->offset;
	}
	memcpy(buf->data + offset, rec, size);
	/* Orders the record before the offset for a reader elsewhere. */
	smp_wmb();
	WRITE_ONCE(buf->offset, offset + size);
	return true;
}

/*
 * Write @ev (@size bytes; the core's event_size is set here) to this
 * CPU's buffer.
 */
static void kmemtrace_write(struct kmemtrace_event *ev, u16 size)
{
	struct trace_info *chan;
	unsigned long flags;

	local_irq_save(flags);
	if (__this_cpu_read(kmemtrace_writing))
		goto out;
	__this_cpu_write(kmemtrace_writing, true);
	chan = rcu_dereference_sched(kmemtrace_chan);
	if (likely(chan && trace_running(chan))) {
		ev->event_size = size;
		ev->seq = atomic_inc_return(&kmemtrace_seq);
		if (unlikely(!kmemtrace_put(chan->rchan, ev, size)))
			atomic_long_add(size, &kmemtrace_overrun_bytes);
	} else if (unlikely(READ_ONCE(kmemtrace_early))) {
		ev->event_size = size;
		ev->seq = atomic_inc_return(&kmemtrace_seq);
		kmemtrace_early_put(ev, size);
	}
	__this_cpu_write(kmemtrace_writing, false);
out:
	local_irq_restore(flags);
}

/**
 * __kmemtrace_alloc() - record an allocation
 * @type: KMEMTRACE_TYPE_KMALLOC or KMEMTRACE_TYPE_CACHE
 * @call_site: return address into the allocator's caller
 * @ptr: the object
 * @bytes_req: bytes asked for
 * @bytes_alloc: bytes set aside, at least @bytes_req
 * @gfp: the caller's GFP flags
 * @node: the NUMA node asked for, or NUMA_NO_NODE
 *
 * Called by kmemtrace_alloc() while kmemtrace is on.  A @call_site of 0
 * means the allocator records this memory otherwise: nothing is written.
 *
 * Context: any context the slab allocator runs in.
 */
void __kmemtrace_alloc(enum kmemtrace_type_id type, unsigned long call_site,
		       const void *ptr, size_t bytes_req, size_t bytes_alloc,
		       gfp_t gfp, int node)
{
	struct kmemtrace_alloc_event ev;

	if (ZERO_OR_NULL_PTR(ptr) || !bytes_req || !call_site)
		return;
	ev.core.event_id = KMEMTRACE_EVENT_ALLOC;
	ev.core.type_id = type;
	ev.core.call_site = call_site;
	ev.core.ptr = (unsigned long)ptr;
	ev.bytes_req = bytes_req;
	ev.bytes_alloc = max(bytes_alloc, bytes_req);
	ev.gfp_flags = (__force u32)gfp;
	ev.numa_node = node;
	kmemtrace_write(&ev.core, sizeof(ev));
}

/**
 * __kmemtrace_alloc_array() - record the objects of a bulk allocation
 * @type: KMEMTRACE_TYPE_CACHE
 * @call_site: return address into the allocator's caller
 * @p: the objects
 * @nr: how many
 * @bytes_req: bytes asked for per object
 * @bytes_alloc: bytes set aside per object
 * @gfp: the caller's GFP flags
 * @node: the NUMA node asked for, or NUMA_NO_NODE
 *
 * One record per object: the ABI has no bulk record.
 *
 * Context: any context the slab allocator runs in.
 */
void __kmemtrace_alloc_array(enum kmemtrace_type_id type,
			     unsigned long call_site, void **p, size_t nr,
			     size_t bytes_req, size_t bytes_alloc, gfp_t gfp,
			     int node)
{
	size_t i;

	for (i = 0; i < nr; i++)
		__kmemtrace_alloc(type, call_site, p[i], bytes_req,
				  bytes_alloc, gfp, node);
}

/**
 * __kmemtrace_free_array() - record the objects of a bulk free
 * @type: KMEMTRACE_TYPE_KMALLOC (kfree_bulk()) or KMEMTRACE_TYPE_CACHE
 * @call_site: return address into the allocator's caller
 * @p: the objects, NULL entries skipped
 * @nr: how many
 *
 * Context: any context the slab allocator runs in.
 */
void __kmemtrace_free_array(enum kmemtrace_type_id type,
			    unsigned long call_site, void **p, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		__kmemtrace_free(type, call_site, p[i]);
}

/**
 * __kmemtrace_free() - record a free
 * @type: KMEMTRACE_TYPE_KMALLOC or KMEMTRACE_TYPE_CACHE
 * @call_site: return address into the allocator's caller
 * @ptr: the object
 *
 * Called by kmemtrace_free() while kmemtrace is on.
 *
 * Context: any context the slab allocator runs in.
 */
void __kmemtrace_free(enum kmemtrace_type_id type, unsigned long call_site,
		      const void *ptr)
{
	struct kmemtrace_event ev;

	if (ZERO_OR_NULL_PTR(ptr) || !call_site)
		return;
	ev.event_id = KMEMTRACE_EVENT_FREE;
	ev.type_id = type;
	ev.call_site = call_site;
	ev.ptr = (unsigned long)ptr;
	kmemtrace_write(&ev, sizeof(ev));
}

/**
 * __kmemtrace_pages() - record a page allocation or free
 * @event: KMEMTRACE_EVENT_ALLOC or KMEMTRACE_EVENT_FREE
 * @call_site: return address into the page allocator's caller
 * @page: the first page
 * @order: log2 of the number of pages
 * @gfp: the caller's GFP flags (allocations)
 * @node: the allocator's preferred node (allocations)
 *
 * The record's pointer is the pages' address in the kernel's direct map,
 * what __get_free_pages() returns and free_pages() takes.
 *
 * Context: any context the page allocator runs in.
 */
void __kmemtrace_pages(enum kmemtrace_event_id event, unsigned long call_site,
		       struct page *page, unsigned int order, gfp_t gfp,
		       int node)
{
	void *addr = page ? page_address(page) : NULL;

	if (event == KMEMTRACE_EVENT_ALLOC)
		__kmemtrace_alloc(KMEMTRACE_TYPE_PAGES, call_site, addr,
				  PAGE_SIZE << order, PAGE_SIZE << order, gfp,
				  node);
	else
		__kmemtrace_free(KMEMTRACE_TYPE_PAGES, call_site, addr);
}

/**
 * __kmemtrace_pages_each() - record pages allocated one by one
 * @call_site: return address into the page allocator's caller
 * @page: the first page
 * @nr: how many pages
 * @gfp: the caller's GFP flags
 * @node: the allocator's preferred node
 *
 * One order-0 allocation per page, for pages that are freed one by one
 * although they came from one block (split_page(), alloc_pages_exact(),
 * vmalloc's pages).
 *
 * Context: any context the page allocator runs in.
 */
void __kmemtrace_pages_each(unsigned long call_site, struct page *page,
			    unsigned long nr, gfp_t gfp, int node)
{
	unsigned long i;

	for (i = 0; i < nr; i++)
		__kmemtrace_pages(KMEMTRACE_EVENT_ALLOC, call_site, page + i, 0,
				  gfp, node);
}

/*
 * Whether buffers of @kb KiB for every possible CPU (relay gives CPUs that
 * come online theirs) fit in half the memory available now.  relay
 * allocates with GFP_KERNEL: asking for more could wake the OOM killer
 * rather than fail.
 */
static bool kmemtrace_buffers_fit(unsigned int kb)
{
	unsigned long pages = DIV_ROUND_UP(kb, PAGE_SIZE / SZ_1K);

	return pages <= si_mem_available() / 2 / num_possible_cpus();
}

static struct trace_info *kmemtrace_new_channel(unsigned int kb)
{
	if (!kmemtrace_buffers_fit(kb))
		return ERR_PTR(-ENOMEM);
	return trace_setup_buffers(kmemtrace_dir, "cpu", KMEMTRACE_SUBBUF_SIZE,
				   kb / KMEMTRACE_SUBBUF_KB, 0);
}

/*
 * kmemtrace.buffer_size_kb, checked and rounded to whole sub-buffers the
 * first time (in mm_init() when recording from boot, else at the
 * initcall), before anything else reads it.
 */
static unsigned int __init kmemtrace_boot_kb(void)
{
	static bool checked __initdata;
	unsigned int kb = kmemtrace_buffer_kb;

	if (checked)
		return kb;
	if (kb < KMEMTRACE_MIN_BUFFER_KB || kb > KMEMTRACE_MAX_BUFFER_KB) {
		pr_warn("buffer_size_kb=%u out of range, using %u\n", kb,
			KMEMTRACE_DEFAULT_BUFFER_KB);
		kb = KMEMTRACE_DEFAULT_BUFFER_KB;
	}
	kmemtrace_buffer_kb = round_up(kb, KMEMTRACE_SUBBUF_KB);
	checked = true;
	return kmemtrace_buffer_kb;
}

/**
 * kmemtrace_boot_init() - record from the slab allocator's start
 *
 * With kmemtrace.enable=1, takes an early buffer the size of a CPU's
 * buffer (4 MiB at most) and turns the hooks on.  If the pages cannot be
 * had, recording starts at kmemtrace's initcall instead.
 *
 * Context: mm_init(), once the buddy allocator is up and before
 * kmem_cache_init(): the boot CPU alone, interrupts off.
 */
void __init kmemtrace_boot_init(void)
{
	size_t bytes;
	unsigned int order;
	struct page *page;

	if (!kmemtrace_boot_enable)
		return;
	bytes = (size_t)kmemtrace_boot_kb() * SZ_1K;
	order = min_t(unsigned int, get_order(bytes),
		      KMEMTRACE_EARLY_MAX_ORDER);
	/* The hooks are off: this allocation is not recorded. */
	page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, order);
	if (!page) {
		pr_warn("no early buffer: recording starts at the initcall\n");
		return;
	}
	kmemtrace_early_buf = page_address(page);
	kmemtrace_early_order = order;
	kmemtrace_early_size = min_t(size_t, bytes, PAGE_SIZE << order);
	WRITE_ONCE(kmemtrace_early, true);
	static_branch_enable(&kmemtrace_key);
}

/*
 * Stop writing the early buffer and free it.  Records still in it (the
 * hand-off failed, or never ran) count as refused.  Writers test
 * kmemtrace_early with interrupts off: after a grace period none is left.
 */
static void __init kmemtrace_early_end(void)
{
	if (!kmemtrace_early_buf)
		return;
	if (READ_ONCE(kmemtrace_early)) {
		WRITE_ONCE(kmemtrace_early, false);
		synchronize_rcu();
		atomic_long_add(kmemtrace_early_len, &kmemtrace_overrun_bytes);
	}
	/* Never recorded as allocated: caller 0, no record of its free. */
	__free_pages_caller(virt_to_page(kmemtrace_early_buf),
			    kmemtrace_early_order, 0);
	kmemtrace_early_buf = NULL;
}

/*
 * The early records into CPU 0's buffer, in their order, and the channel
 * published; then the early buffer goes.  An early initcall: vmalloc,
 * percpu and relay work, debugfs does not (the files come with
 * kmemtrace_init()), and the boot CPU is still the only one, so with its
 * interrupts off no hook runs during the copy.
 */
static int __init kmemtrace_boot_handoff(void)
{
	unsigned int kb = kmemtrace_boot_kb();
	struct trace_info *chan;
	unsigned long flags;
	size_t off, size;

	if (!kmemtrace_early)
		return 0;
	mutex_lock(&kmemtrace_mutex);
	chan = kmemtrace_buffers_fit(kb) ?
	       trace_setup_buffers(NULL, "cpu", KMEMTRACE_SUBBUF_SIZE,
				   kb / KMEMTRACE_SUBBUF_KB, 0) :
	       ERR_PTR(-ENOMEM);
	if (!IS_ERR(chan))
		trace_start(chan);
	local_irq_save(flags);
	if (!IS_ERR(chan)) {
		__this_cpu_write(kmemtrace_writing, true);
		for (off = 0; off < kmemtrace_early_len; off += size) {
			struct kmemtrace_event *ev = kmemtrace_early_buf + off;

			size = ev->event_size;
			if (!kmemtrace_put(chan->rchan, ev, size))
				atomic_long_add(size, &kmemtrace_overrun_bytes);
		}
		__this_cpu_write(kmemtrace_writing, false);
		rcu_assign_pointer(kmemtrace_chan, chan);
		WRITE_ONCE(kmemtrace_enabled, true);
	}
	if (!IS_ERR(chan))
		WRITE_ONCE(kmemtrace_early, false);
	local_irq_restore(flags);
	if (IS_ERR(chan)) {
		/* The initcall tries again, with the buffers' own files. */
		pr_err("no buffers at boot (%ld): the early records are lost\n",
		       PTR_ERR(chan));
		static_branch_disable(&kmemtrace_key);
	}
	kmemtrace_early_end();
	mutex_unlock(&kmemtrace_mutex);
	return 0;
}
early_initcall(kmemtrace_boot_handoff);

/* The hooks' channel, for its owner: under kmemtrace_mutex. */
static struct trace_info *kmemtrace_chan_locked(void)
{
	return rcu_dereference_protected(kmemtrace_chan,
					 lockdep_is_held(&kmemtrace_mutex));
}

/* Turn recording on or off.  Under kmemtrace_mutex. */
static int kmemtrace_set_enabled(bool on)
{
	struct trace_info *chan = kmemtrace_chan_locked();

	if (on == kmemtrace_enabled)
		return 0;
	if (on && !chan) {
		/* The first enable makes the buffers. */
		chan = kmemtrace_new_channel(kmemtrace_buffer_kb);
		if (IS_ERR(chan))
			return PTR_ERR(chan);
		rcu_assign_pointer(kmemtrace_chan, chan);
	}
	WRITE_ONCE(kmemtrace_enabled, on);
	if (on) {
		trace_start(chan);
		static_branch_enable(&kmemtrace_key);
	} else {
		static_branch_disable(&kmemtrace_key);
		/* Waits for the hooks in flight, then flushes. */
		trace_stop(chan);
	}
	return 0;
}

/*
 * New empty buffers of @kb KiB per CPU in place of the old, whose files
 * must go first: the new ones take their names.  Before any are made
 * (recording was never on), only the size changes.  A size that does not
 * fit is refused before the old buffers go; if making the new ones fails
 * all the same, buffers of the old size are made again.  Recording is off;
 * under kmemtrace_mutex.
 */
static int kmemtrace_resize(unsigned int kb)
{
	struct trace_info *chan, *old = kmemtrace_chan_locked();
	int ret = 0;

	if (!kmemtrace_buffers_fit(kb))
		return -ENOMEM;
	if (!old) {
		WRITE_ONCE(kmemtrace_buffer_kb, kb);
		return 0;
	}
	/*
	 * A hook preempted before it disabled interrupts loads the pointer
	 * after this: it finds no channel.  One that loaded it already runs
	 * with interrupts off; trace_cleanup() waits for it (an RCU grace
	 * period) before freeing the channel.
	 */
	RCU_INIT_POINTER(kmemtrace_chan, NULL);
	trace_cleanup(old);
	chan = kmemtrace_new_channel(kb);
	if (IS_ERR(chan)) {
		ret = PTR_ERR(chan);
		kb = kmemtrace_buffer_kb;
		chan = kmemtrace_new_channel(kb);
	}
	if (IS_ERR(chan)) {
		/* The next enable tries again. */
		pr_err("no buffers (%ld): recording cannot start\n",
		       PTR_ERR(chan));
		return PTR_ERR(chan);
	}
	rcu_assign_pointer(kmemtrace_chan, chan);
	WRITE_ONCE(kmemtrace_buffer_kb, kb);
	return ret;
}

/* Control files: one line of text to read, a number to write. */
static ssize_t kmemtrace_read_line(char __user *ubuf, size_t count,
				   loff_t *ppos, unsigned long val)
{
	char buf[24];
	int len = scnprintf(buf, sizeof(buf), "%lu\n", val);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t abi_version_read(struct file *filp, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return kmemtrace_read_line(ubuf, count, ppos, KMEMTRACE_ABI_VERSION);
}

static ssize_t total_overruns_read(struct file *filp, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return kmemtrace_read_line(ubuf, count, ppos,
				   atomic_long_read(&kmemtrace_overrun_bytes));
}

static ssize_t enabled_read(struct file *filp, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	return kmemtrace_read_line(ubuf, count, ppos,
				   READ_ONCE(kmemtrace_enabled));
}

static ssize_t enabled_write(struct file *filp, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	mutex_lock(&kmemtrace_mutex);
	ret = kmemtrace_set_enabled(on);
	mutex_unlock(&kmemtrace_mutex);
	return ret ? ret : count;
}

static ssize_t buffer_size_kb_read(struct file *filp, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return kmemtrace_read_line(ubuf, count, ppos,
				   READ_ONCE(kmemtrace_buffer_kb));
}

static ssize_t buffer_size_kb_write(struct file *filp,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	unsigned int kb;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &kb);
	if (ret)
		return ret;
	if (kb < KMEMTRACE_MIN_BUFFER_KB || kb > KMEMTRACE_MAX_BUFFER_KB)
		return -ERANGE;
	kb = round_up(kb, KMEMTRACE_SUBBUF_KB);
	mutex_lock(&kmemtrace_mutex);
	/* The hooks may hold the channel while recording is on. */
	ret = kmemtrace_enabled ? -EBUSY : kmemtrace_resize(kb);
	mutex_unlock(&kmemtrace_mutex);
	return ret ? ret : count;
}

static const struct file_operations abi_version_fops = {
	.open	= simple_open,
	.read	= abi_version_read,
	.llseek	= default_llseek,
};

static const struct file_operations total_overruns_fops = {
	.open	= simple_open,
	.read	= total_overruns_read,
	.llseek	= default_llseek,
};

static const struct file_operations enabled_fops = {
	.open	= simple_open,
	.read	= enabled_read,
	.write	= enabled_write,
	.llseek	= default_llseek,
};

static const struct file_operations buffer_size_kb_fops = {
	.open	= simple_open,
	.read	= buffer_size_kb_read,
	.write	= buffer_size_kb_write,
	.llseek	= default_llseek,
};

static int __init kmemtrace_init(void)
{
	struct trace_info *chan;
	int ret;

	kmemtrace_dir = debugfs_create_dir("kmemtrace", NULL);
	mutex_lock(&kmemtrace_mutex);
	/* The hand-off never ran (initcall_blacklist=): nothing to keep. */
	kmemtrace_early_end();
	chan = kmemtrace_chan_locked();
	if (IS_ERR(kmemtrace_dir)) {
		/* No debugfs, no files to read or stop recording with. */
		if (chan) {
			kmemtrace_set_enabled(false);
			RCU_INIT_POINTER(kmemtrace_chan, NULL);
			trace_cleanup(chan);
			pr_warn("no debugfs: recording from boot stopped\n");
		}
		mutex_unlock(&kmemtrace_mutex);
		return PTR_ERR(kmemtrace_dir);
	}
	if (chan) {
		/* Recording since kmemtrace_boot_init(): the files now. */
		ret = trace_setup_buffer_files(chan, kmemtrace_dir, "cpu");
		if (ret)
			pr_err("cpu<n> files missing (%d): write buffer_size_kb for new buffers\n",
			       ret);
	} else {
		kmemtrace_boot_kb();
		/* Buffers for recording from boot; else at the first enable. */
		if (kmemtrace_boot_enable) {
			ret = kmemtrace_set_enabled(true);
			if (ret)
				pr_err("cannot record from boot (%d)\n", ret);
		}
	}
	mutex_unlock(&kmemtrace_mutex);
	debugfs_create_file("abi_version", 0400, kmemtrace_dir, NULL,
			    &abi_version_fops);
	debugfs_create_file("total_overruns", 0400, kmemtrace_dir, NULL,
			    &total_overruns_fops);
	debugfs_create_file("enabled", 0600, kmemtrace_dir, NULL,
			    &enabled_fops);
	debugfs_create_file("buffer_size_kb", 0600, kmemtrace_dir, NULL,
			    &buffer_size_kb_fops);
	return 0;
}

/* After debugfs (core), before most of the kernel's own initcalls. */
postcore_initcall(kmemtrace_init);
