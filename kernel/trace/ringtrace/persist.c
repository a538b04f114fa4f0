// SPDX-License-Identifier: GPL-2.0
/*
 * The persistent trace buffer: the trace buffer's pages in memory that the
 * next boot finds again.  This file owns the region: its reservation,
 * geometry, seal, check at boot, the move of the trace buffer onto it and
 * the event formats it keeps; the last boot's trace it found is shown by
 * last_boot.c (pages, formats) and last_boot_trace.c (text).
 *
 * "ringtrace.persist=SIZE@ADDR" reserves that physical range through
 * memblock while the kernel parses its early parameters, before it
 * allocates any memory there, so no boot ever hands it out.  The range
 * holds (struct rtp_header, all in the CPU's byte order):
 *
 *   page 0		the header: geometry, the writing kernel's identity
 *			and text offset, the seal, and for each CPU number
 *			which page of its slice is its reader page
 *   formats		the formats of the events enabled in that boot
 *   CRCs		when sealed, a CRC32 of every data page's header
 *			and committed bytes
 *   data		nr_cpus slices of slice_pages pages: the CPU
 *			buffers' pages, in the layout of trace_pipe_raw
 *
 * The trace buffer runs on the data pages (rtb_use_fixed_pages()): writers
 * are as fast as on any page, and a page is always consistent up to its
 * commit word, so the trace survives any end of the kernel, a hang and a
 * reset included.  A panic or a reboot also seals the region: recording
 * stops and every page's CRC is stored, so that the next boot can tell a
 * scribbled page from a good one.
 *
 * At boot the region is checked: magic, version, the header's CRC, a
 * geometry that fits the range, the formats' CRC, the seal's CRC and the
 * pages' CRCs if sealed, every record of every page, and per CPU the
 * pages' time order (a page's records are older than the next page's).
 * If all holds, the pages are the last boot's trace, shown read-only in
 * last_boot/ until "echo 0 > last_boot/keep", and recording goes to
 * pages of the page allocator meanwhile; anything else discards the region
 * with one console line.  Then the trace buffer moves onto it.
 *
 * Page order is not kept anywhere but in the pages: a CPU's pages, the
 * reader page left out, sorted by the time of their first record, are its
 * records in order.  The reader page is left out because a reader copies
 * into it records that also stay in the ring.
 */

#define pr_fmt(fmt) "ringtrace: " fmt

#include <kunit/visibility.h>
#include <linux/crc32.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/reboot.h>
#include <linux/ringtrace_persist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#ifdef CONFIG_X86
#include <asm/setup.h>
#include <asm/special_insns.h>
#endif

#include "core.h"
#include "dir.h"
#include "persist_internal.h"
#include "record_layout.h"
#include "trace.h"

/* The longest format kept, its "system:" line included. */
#define RTP_FORMAT_MAX		(2 * PAGE_SIZE)

static const char *const rtp_seal_names[RTP_NR_SEALS] = {
	[RTP_UNSEALED]		= "no",
	[RTP_SEALED_PANIC]	= "panic",
	[RTP_SEALED_REBOOT]	= "reboot",
};

/* The range given on the command line, reserved at boot. */
static phys_addr_t rtp_phys;
static unsigned long rtp_size;
static bool rtp_reserved;

/* The region mapped, and its parts. */
static struct rtp_header *rtp_hdr;
/*
 * This boot's geometry of it, kept apart: the region may be scribbled on,
 * and the seal and the formats must not write where it says.
 */
static struct rtp_header rtp_geo;

/* The trace buffer runs on the region: seal it at the end. */
static bool rtp_live;
static atomic_t rtp_sealing = ATOMIC_INIT(0);

/* Serialises last_boot/keep and going live (core.h's row 2). */
static DEFINE_MUTEX(rtp_lock);

/*
 * Serialises additions to the formats area and the clock with the
 * region's set-up: a leaf (core.h's row 10), taken by the listeners'
 * callbacks.
 */
static DEFINE_MUTEX(rtp_formats_lock);
static bool rtp_formats_full;

static struct rtp_last *rtp_last;

static unsigned long rtp_text_offset(void)
{
#ifdef CONFIG_X86
	return kaslr_offset();
#else
	return 0;
#endif
}

/* The kernel's identity as the header keeps it. */
static void rtp_kernel_name(char *buf, size_t size)
{
	snprintf(buf, size, "%s %s", init_utsname()->release,
		 init_utsname()->version);
}

/* Whether the last boot ran this kernel: its symbols are ours. */
static bool rtp_same_kernel(struct rtp_header *h)
{
	char name[sizeof(h->kernel)];

	rtp_kernel_name(name, sizeof(name));
	return !strncmp(name, h->kernel, sizeof(name));
}

static int __init rtp_param(char *arg)
{
	unsigned long long size, addr;
	char *at;

	if (!arg)
		return -EINVAL;
	size = memparse(arg, &at);
	if (*at != '@') {
		pr_err("ringtrace.persist=%s: give SIZE@ADDR\n", arg);
		return 0;
	}
	addr = memparse(at + 1, &at);
	if (*at || !size || !PAGE_ALIGNED(size) || !PAGE_ALIGNED(addr) ||
	    addr + size < addr) {
		pr_err("ringtrace.persist=%s: SIZE and ADDR must be page-aligned\n",
		       arg);
		return 0;
	}
	/* The kernel's image, the initrd: what is reserved so early. */
	if (memblock_is_region_reserved(addr, size)) {
		pr_err("ringtrace.persist=%s: the range overlaps memory the kernel uses\n",
		       arg);
		return 0;
	}
	memblock_reserve(addr, size);
	rtp_phys = addr;
	rtp_size = size;
	rtp_reserved = true;
	return 0;
}
early_param("ringtrace.persist", rtp_param);

/* The geometry of a region of @size bytes for @nr_cpus CPU numbers. */
static int rtp_geometry(unsigned long size, unsigned int nr_cpus,
			struct rtp_header *g)
{
	unsigned long pages = size >> PAGE_SHIFT, crc_pages, slice;

	if (struct_size(g, reader_slot, nr_cpus) > PAGE_SIZE)
		return -E2BIG;
	for (crc_pages = 1; ; crc_pages++) {
		if (pages < 1 + RTP_FORMATS_PAGES + crc_pages)
			return -ENOSPC;
		slice = (pages - 1 - RTP_FORMATS_PAGES - crc_pages) / nr_cpus;
		if (slice * nr_cpus * sizeof(u32) <= crc_pages * PAGE_SIZE)
			break;
	}
	/* Two ring pages and a reader page, at least. */
	if (slice < 3 || slice > U32_MAX)
		return -ENOSPC;
	g->region_size = size;
	g->page_size = PAGE_SIZE;
	g->nr_cpus = nr_cpus;
	g->slice_pages = slice;
	g->meta_pages = 1 + RTP_FORMATS_PAGES + crc_pages;
	g->formats_off = PAGE_SIZE;
	g->formats_size = RTP_FORMATS_PAGES * PAGE_SIZE;
	g->crcs_off = (1 + RTP_FORMATS_PAGES) * PAGE_SIZE;
	return 0;
}

/* The page CRC table of region @base, whose geometry is @g's. */
static u32 *rtp_crcs(const struct rtp_header *g, void *base)
{
	return base + g->crcs_off;
}

/* The header's CRC: of what follows @header_crc up to @formats_len. */
static u32 rtp_header_crc(struct rtp_header *h)
{
	u32 crc = crc32_le(0, (void *)&h->version, sizeof(h->version));

	return crc32_le(crc, (void *)&h->region_size,
			offsetof(struct rtp_header, formats_len) -
			offsetof(struct rtp_header, region_size));
}

/* The seal's CRC of region @h, whose geometry is @g's. */
static u32 rtp_seal_crc(const struct rtp_header *g, struct rtp_header *h)
{
	u32 crc = crc32_le(0, (void *)&h->sealed, sizeof(h->sealed));

	crc = crc32_le(crc, (void *)h->reader_slot,
		       g->nr_cpus * sizeof(h->reader_slot[0]));
	return crc32_le(crc, (void *)rtp_crcs(g, h),
			g->nr_cpus * g->slice_pages * sizeof(u32));
}

/* A data page's CRC: its header and its committed bytes. */
static u32 rtp_page_crc(struct rtb_data_page *page)
{
	unsigned long commit = READ_ONCE(page->commit);

	return crc32_le(0, (void *)page, offsetof(struct rtb_data_page, data) +
			min_t(unsigned long, commit, RTB_PAGE_DATA_SIZE));
}

/*
 * Stop recording and store every page's CRC: from a panic notifier (any
 * context, other CPUs stopped wherever they were) or a reboot notifier.
 * Only committed bytes count, so a writer stopped mid-record does not
 * matter.  A panic's seal neither sleeps, allocates nor takes a lock; a
 * reboot's sleeps to let writers in flight finish, and takes (never to
 * release) trace_life_lock and the access lock of every CPU
 * (ringtrace_trace_freeze(), core.h's rows 4 and 7): reboot notifiers
 * run in process context, under none of ringtrace's locks.
 */
static void rtp_seal(enum rtp_seal why)
{
	struct rtb_buffer *buffer = ringtrace_trace_buffer();
	const struct rtp_header *g = &rtp_geo;
	struct rtp_header *h = rtp_hdr;
	u32 *crcs = rtp_crcs(g, h);
	unsigned int cpu, slot;

	if (!READ_ONCE(rtp_live) || atomic_xchg(&rtp_sealing, 1))
		return;
	rtb_record_disable(buffer);
	if (why == RTP_SEALED_REBOOT) {
		/*
		 * The other CPUs still run: let writers in flight commit
		 * (they run with preemption off), and keep resets and
		 * readers, which move pages, out for good: nothing may
		 * change a page after its CRC.  The machine goes down next.
		 */
		synchronize_rcu();
		ringtrace_trace_freeze();
	}
	for (cpu = 0; cpu < g->nr_cpus; cpu++)
		for (slot = 0; slot < g->slice_pages; slot++)
			crcs[cpu * g->slice_pages + slot] =
				rtp_page_crc(rtp_slot_page(g, h, cpu, slot));
	h->sealed = why;
	h->seal_crc = rtp_seal_crc(g, h);
#ifdef CONFIG_X86
	/*
	 * A reset does not write caches back: the region must be in RAM
	 * before the machine goes down.
	 */
	wbinvd();
#endif
}

static int rtp_panic_notify(struct notifier_block *nb, unsigned long event,
			    void *unused)
{
	rtp_seal(RTP_SEALED_PANIC);
	return NOTIFY_DONE;
}

static struct notifier_block rtp_panic_nb = {
	.notifier_call	= rtp_panic_notify,
	/* After the dump on oops, which reads the buffer first. */
	.priority	= INT_MIN,
};

static int rtp_reboot_notify(struct notifier_block *nb, unsigned long event,
			     void *unused)
{
	rtp_seal(RTP_SEALED_REBOOT);
	return NOTIFY_DONE;
}

static struct notifier_block rtp_reboot_nb = {
	.notifier_call	= rtp_reboot_notify,
	.priority	= INT_MIN,
};

/* What rtp_check_page() found on a page. */
struct rtp_page_info {
	u64		first;
	u64		last;
	unsigned long	records;
};

/*
 * Whether @page's records parse up to its commit word, and their first
 * and last time.  A page with no commit is empty, whatever else it holds.
 */
static bool rtp_check_page(struct rtb_data_page *page,
			   struct rtp_page_info *info)
{
	unsigned long commit = page->commit;
	unsigned int off = 0, len, type;
	u64 ts = page->time_stamp, delta;

	info->records = 0;
	info->first = 0;
	info->last = 0;
	if (!commit)
		return true;
	if (commit > RTB_PAGE_DATA_SIZE || commit % RTB_ALIGN || !ts)
		return false;
	while (off < commit) {
		len = rtb_event_decode((struct rtb_event *)&page->data[off],
				       commit - off, &type, &delta);
		if (!len || len % RTB_ALIGN ||
		    (type != RTB_TYPE_PADDING && len < RTB_MIN_EVENT_SIZE))
			return false;
		ts += delta;
		if (type == RTB_TYPE_DATA) {
			if (!info->records++)
				info->first = ts;
			info->last = ts;
		}
		off += len;
	}
	return off == commit;
}

struct rtp_sort_key {
	u64	first;
	u64	last;
	u32	slot;
};

static int rtp_cmp_keys(const void *a, const void *b)
{
	const struct rtp_sort_key *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	if (x->last != y->last)
		return x->last < y->last ? -1 : 1;
	return 0;
}

/*
 * Put CPU @cpu's pages with records in time order, into @c.  Returns why
 * they cannot be trusted, or NULL.
 */
static const char *rtp_order_cpu(struct rtp_header *h, unsigned int cpu,
				 struct rtp_cpu *c, struct rtp_sort_key *keys,
				 char *why, size_t why_size)
{
	struct rtp_page_info info;
	unsigned int slot, n = 0, i;
	u32 *crcs = rtp_crcs(h, h);

	for (slot = 0; slot < h->slice_pages; slot++) {
		struct rtb_data_page *page = rtp_data_page(h, cpu, slot);

		if (h->sealed &&
		    crcs[cpu * h->slice_pages + slot] != rtp_page_crc(page)) {
			snprintf(why, why_size, "CPU %u page %u: bad checksum",
				 cpu, slot);
			return why;
		}
		/*
		 * The reader page is read if it is a page the reader took
		 * whole out of the ring; not if it holds copies of records
		 * still in the ring (or was being copied into).
		 */
		if (h->reader_slot[cpu] == (slot | RTB_FIXED_READER_COPY))
			continue;
		if (!rtp_check_page(page, &info)) {
			snprintf(why, why_size, "CPU %u page %u: records do not parse",
				 cpu, slot);
			return why;
		}
		if (!info.records)
			continue;
		keys[n].first = info.first;
		keys[n].last = info.last;
		keys[n].slot = slot;
		c->records += info.records;
		n++;
	}
	sort(keys, n, sizeof(*keys), rtp_cmp_keys, NULL);
	for (i = 1; i < n; i++) {
		if (keys[i - 1].last > keys[i].first) {
			snprintf(why, why_size, "CPU %u pages %u and %u overlap in time",
				 cpu, keys[i - 1].slot, keys[i].slot);
			return why;
		}
	}
	c->slots = kmalloc_array(max(n, 1U), sizeof(*c->slots), GFP_KERNEL);
	if (!c->slots)
		return "out of memory";
	for (i = 0; i < n; i++)
		c->slots[i] = keys[i].slot;
	c->nr_slots = n;
	return NULL;
}

/*
 * The trace clock of the records from now on (a clock change empties the
 * buffer first): the trace listener's ->clock(), under trace_buffer_lock;
 * rtp_formats_lock keeps it from a set-up.
 */
static void rtp_note_clock(const char *name)
{
	struct rtp_header *h = rtp_hdr;

	mutex_lock(&rtp_formats_lock);
	if (rtp_live) {
		strscpy_pad(h->clock, name, sizeof(h->clock));
		h->clock_crc = crc32_le(0, (void *)h->clock, sizeof(h->clock));
	}
	mutex_unlock(&rtp_formats_lock);
}

/*
 * Append @event's format to the formats area, unless it is there already:
 * the events listener's ->writing(), under ringtrace_events_lock, for
 * every event that may start writing records.  The last boot's records
 * are read with these formats, whatever the next boot's events are.  A
 * crash between the length's update and the CRC's leaves a region the
 * next boot discards.
 */
static void rtp_note_event(struct ringtrace_event *event)
{
	struct rtp_header *h = rtp_hdr;
	char *text, *area, *p, *latest = NULL;
	unsigned int used;
	int head, len;

	if (!READ_ONCE(rtp_live))
		return;
	text = kmalloc(RTP_FORMAT_MAX, GFP_KERNEL);
	if (!text)
		return;
	head = scnprintf(text, RTP_FORMAT_MAX, "system: %s\n", event->system);
	len = ringtrace_event_format_text(event, text + head,
					  RTP_FORMAT_MAX - head - 1);
	if (len < 0)
		goto out;
	len += head;
	text[len++] = '\0';

	mutex_lock(&rtp_formats_lock);
	if (!rtp_live)
		goto unlock;
	area = (void *)h + rtp_geo.formats_off;
	/* Scribbled on: treated as full, nothing written past the area. */
	used = min(h->formats_len, rtp_geo.formats_size);
	/*
	 * Records are decoded with the latest format of their id: append
	 * unless that one is this very text.
	 */
	for (p = area; p < area + used; p += strnlen(p, area + used - p) + 1)
		if (rtp_entry_id(p) == event->id)
			latest = p;
	if (latest && !strcmp(latest, text))
		goto unlock;
	if (len > rtp_geo.formats_size - used) {
		if (!rtp_formats_full)
			pr_warn("persistent buffer: no room for the format of %s/%s: its records will not be decoded\n",
				event->system, event->name);
		rtp_formats_full = true;
		goto unlock;
	}
	memcpy(area + used, text, len);
	h->formats_len = used + len;
	h->formats_crc = crc32_le(0, area, used + len);
unlock:
	mutex_unlock(&rtp_formats_lock);
out:
	kfree(text);
}

static struct ringtrace_trace_listener rtp_trace_listener = {
	.clock	= rtp_note_clock,
};

static struct ringtrace_events_listener rtp_events_listener = {
	.writing	= rtp_note_event,
};

/* rtp_events_listener is registered (under rtp_lock, at going live). */
static bool rtp_listening;

/*
 * Check what region @h of @size bytes holds (all of it hostile: a last
 * boot's memory, or a scribble).  Returns NULL and sets *@lastp to the
 * last boot's trace, or to NULL if there is none (never set up); else why
 * it is discarded, in @why if the reason names a CPU's page.
 */
VISIBLE_IF_KUNIT const char *rtp_check(struct rtp_header *h,
				       unsigned long size,
				       struct rtp_last **lastp, char *why,
				       size_t why_size)
{
	struct rtp_header g = {};
	struct rtp_sort_key *keys;
	struct rtp_last *last;
	const char *bad = NULL;
	unsigned int cpu;

	*lastp = NULL;
	if (h->magic != RTP_MAGIC)
		return NULL;
	if (h->version != RTP_VERSION)
		return "another version of the region";
	if (h->header_crc != rtp_header_crc(h))
		return "bad header checksum";
	if (strnlen(h->kernel, sizeof(h->kernel)) == sizeof(h->kernel))
		return "bad kernel name";
	if (h->page_size != PAGE_SIZE || h->region_size != size ||
	    !h->nr_cpus || rtp_geometry(size, h->nr_cpus, &g) ||
	    g.slice_pages != h->slice_pages || g.meta_pages != h->meta_pages ||
	    g.formats_off != h->formats_off || g.crcs_off != h->crcs_off ||
	    g.formats_size != h->formats_size)
		return "geometry does not fit the range";
	if (h->formats_len > h->formats_size ||
	    h->formats_crc != crc32_le(0, (void *)h + h->formats_off,
				       h->formats_len))
		return "bad event formats checksum";
	if (h->clock_crc != crc32_le(0, (void *)h->clock, sizeof(h->clock)) ||
	    strnlen(h->clock, sizeof(h->clock)) == sizeof(h->clock))
		return "bad clock";
	if (h->sealed >= RTP_NR_SEALS)
		return "bad seal";
	if (h->sealed && h->seal_crc != rtp_seal_crc(h, h))
		return "bad seal checksum";
	for (cpu = 0; cpu < h->nr_cpus; cpu++)
		if ((h->reader_slot[cpu] & ~RTB_FIXED_READER_COPY) >=
		    h->slice_pages)
			return "bad reader page";

	last = kzalloc(sizeof(*last), GFP_KERNEL);
	keys = kvmalloc_array(h->slice_pages, sizeof(*keys), GFP_KERNEL);
	if (last)
		last->cpus = kcalloc(h->nr_cpus, sizeof(*last->cpus),
				     GFP_KERNEL);
	if (!last || !keys || !last->cpus) {
		bad = "out of memory";
		goto out;
	}
	last->hdr = h;
	last->nr_cpus = h->nr_cpus;
	last->text_delta = (unsigned long)h->text_offset - rtp_text_offset();
	last->same_kernel = rtp_same_kernel(h);
	bad = rtp_parse_formats(h, last);
	for (cpu = 0; cpu < h->nr_cpus && !bad; cpu++) {
		last->cpus[cpu].last = last;
		last->cpus[cpu].cpu = cpu;
		bad = rtp_order_cpu(h, cpu, &last->cpus[cpu], keys, why,
				    why_size);
		last->records += last->cpus[cpu].records;
	}
out:
	kvfree(keys);
	if (bad)
		rtp_free_last(last);
	else
		*lastp = last;
	return bad;
}
EXPORT_SYMBOL_IF_KUNIT(rtp_check);

/* Set the region up empty, for the kernel running now. */
static void rtp_set_up(struct rtp_header *h)
{
	/* Not the reader slots: the buffer keeps them from its move on. */
	memset(h, 0, offsetof(struct rtp_header, reader_slot));
	memcpy(h, &rtp_geo, sizeof(rtp_geo));
	h->version = RTP_VERSION;
	h->text_offset = rtp_text_offset();
	h->set_up = ktime_get_real_seconds();
	rtp_kernel_name(h->kernel, sizeof(h->kernel));
	h->formats_crc = crc32_le(0, NULL, 0);
	strscpy_pad(h->clock, ringtrace_trace_clock_name(), sizeof(h->clock));
	h->clock_crc = crc32_le(0, (void *)h->clock, sizeof(h->clock));
	h->header_crc = rtp_header_crc(h);
	/* Last: a region cut short before this is not taken for one. */
	WRITE_ONCE(h->magic, RTP_MAGIC);
}

/*
 * Move the trace buffer onto the region: what it held is gone once this
 * succeeds, and kept if it fails (a trace file open).  The header says
 * "a region" again only once it describes the new contents: a kernel
 * that ends in between leaves a region the next boot does not take for
 * a trace.  Under rtp_lock.
 */
static int rtp_go_live(void)
{
	struct rtp_header *h = rtp_hdr;
	u64 magic = h->magic;
	int ret;

	WRITE_ONCE(h->magic, 0);
	ret = ringtrace_trace_use_fixed(rtp_slot_page(&rtp_geo, h, 0, 0),
					rtp_geo.slice_pages, h->reader_slot);
	if (ret) {
		WRITE_ONCE(h->magic, magic);
		return ret;
	}
	mutex_lock(&rtp_formats_lock);
	rtp_set_up(h);
	rtp_formats_full = false;
	WRITE_ONCE(rtp_live, true);
	mutex_unlock(&rtp_formats_lock);
	/* A clock change since the set-up found the region not live. */
	rtp_note_clock(ringtrace_trace_clock_name());
	/*
	 * Events enabled before, and the always-on ones (trace_marker's):
	 * registering replays them.  Once: the region stays live (boot goes
	 * live only without a last boot's trace, keep only with one not
	 * gone, which it is from then on).
	 */
	if (!WARN_ON_ONCE(rtp_listening)) {
		rtp_listening = true;
		ringtrace_events_listen(&rtp_events_listener);
	}
	pr_info("persistent buffer: %lu KiB at %pa, %u pages a CPU\n",
		rtp_size >> 10, &rtp_phys, h->slice_pages - 1);
	return 0;
}

static int rtp_stats_show(struct seq_file *m, void *v)
{
	struct rtp_last *last = m->private;
	struct rtp_header *h = rtp_hdr;
	unsigned int cpu;

	/* Pairs with the grace period after @gone in rtp_keep_write(). */
	rcu_read_lock();
	if (READ_ONCE(last->gone)) {
		rcu_read_unlock();
		return -ENODEV;
	}

	seq_printf(m, "sealed: %s\n", rtp_seal_names[h->sealed]);
	seq_printf(m, "kernel: %s\n", h->kernel);
	seq_printf(m, "same kernel: %s\n", last->same_kernel ? "yes" : "no");
	seq_printf(m, "text offset: %#llx\n", h->text_offset);
	seq_printf(m, "text delta: %#lx\n", last->text_delta);
	seq_printf(m, "set up: %llu\n", h->set_up);
	seq_printf(m, "clock: %s\n", h->clock);
	seq_printf(m, "cpus: %u\n", h->nr_cpus);
	seq_printf(m, "pages per cpu: %u\n", h->slice_pages - 1);
	seq_printf(m, "records: %lu\n", last->records);
	for (cpu = 0; cpu < last->nr_cpus; cpu++)
		if (last->cpus[cpu].nr_slots)
			seq_printf(m, "cpu%u: %u pages, %lu records\n", cpu,
				   last->cpus[cpu].nr_slots,
				   last->cpus[cpu].records);
	rcu_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rtp_stats);

static ssize_t rtp_keep_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, count, ppos, "1\n", 2);
}

static void rtp_release_work(struct work_struct *work);
static DECLARE_WORK(rtp_release, rtp_release_work);

/*
 * "0": record in the region again.  The move happens here, so that a
 * refusal (a trace file open: -EBUSY) reaches the writer with the last
 * boot's trace intact; removing last_boot/ waits for its files' readers
 * and writers, this one too: a work item does that after.
 */
static ssize_t rtp_keep_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct rtp_last *last;
	bool keep;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &keep);
	if (ret || keep)
		return ret ?: count;
	mutex_lock(&rtp_lock);
	last = rtp_last;
	if (last && !last->gone) {
		/* Its files stop reading the region before it changes. */
		WRITE_ONCE(last->gone, true);
		synchronize_rcu();
		ret = rtp_go_live();
		if (ret)
			WRITE_ONCE(last->gone, false);
		else
			schedule_work(&rtp_release);
	}
	mutex_unlock(&rtp_lock);
	return ret ?: count;
}

static const struct file_operations rtp_keep_fops = {
	.read	= rtp_keep_read,
	.write	= rtp_keep_write,
	.llseek	= default_llseek,
};

/* Remove last_boot/ and free what it showed (the region is live again). */
static void rtp_release_work(struct work_struct *work)
{
	struct rtp_last *last;

	mutex_lock(&rtp_lock);
	last = rtp_last;
	rtp_last = NULL;
	mutex_unlock(&rtp_lock);
	if (!last)
		return;
	/* Waits for the files' readers in flight; none starts after. */
	ringtrace_remove_tree(last->dir);
	rtp_free_last(last);
}

/* last_boot/: its stats and keep here, its pages and text in last_boot*.c. */
static void rtp_show_last(struct rtp_last *last)
{
	struct dentry *dir;

	dir = ringtrace_add_dir("last_boot", NULL);
	if (IS_ERR(dir)) {
		pr_err("persistent buffer: cannot make last_boot/ (%ld)\n",
		       PTR_ERR(dir));
		return;
	}
	last->dir = dir;
	ringtrace_add_file("stats", 0400, dir, last, &rtp_stats_fops,
			   "the last boot's trace: how it ended, its kernel, its records");
	ringtrace_add_file("keep", 0600, dir, NULL, &rtp_keep_fops,
			   "0: drop the last boot's trace and record in its memory again");
	rtp_show_pages(last, dir);
	rtp_show_trace(last, dir);
}

static int __init ringtrace_persist_init(void)
{
	struct rtp_last *last;
	const char *bad;
	int ret;
	char why[64];

	if (!rtp_reserved)
		return 0;
	if (region_intersects(rtp_phys, rtp_size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_INTERSECTS) {
		pr_err("ringtrace.persist=: %lu KiB at %pa is not all RAM (memmap= takes memory away: give ringtrace.persist= alone)\n",
		       rtp_size >> 10, &rtp_phys);
		return 0;
	}
	if (!ringtrace_trace_buffer())
		return 0;
	if (rtp_geometry(rtp_size, nr_cpu_ids, &rtp_geo)) {
		pr_err("ringtrace.persist=: %lu KiB is too small for %u CPUs\n",
		       rtp_size >> 10, nr_cpu_ids);
		return 0;
	}
	rtp_hdr = phys_to_virt(rtp_phys);
	/* Not live yet: a clock change before it finds nothing to note. */
	ringtrace_trace_listen(&rtp_trace_listener);
	atomic_notifier_chain_register(&panic_notifier_list, &rtp_panic_nb);
	register_reboot_notifier(&rtp_reboot_nb);

	mutex_lock(&rtp_lock);
	bad = rtp_check(rtp_hdr, rtp_size, &last, why, sizeof(why));
	if (bad) {
		pr_warn("persistent buffer: the last boot's trace is discarded: %s\n",
			bad);
	} else if (!last) {
		pr_info("persistent buffer: no trace of a last boot\n");
	} else {
		pr_info("persistent buffer: the last boot's trace (%lu records, sealed: %s) is in last_boot/\n",
			last->records, rtp_seal_names[rtp_hdr->sealed]);
		rtp_last = last;
		rtp_show_last(last);
	}
	if (!rtp_last) {
		ret = rtp_go_live();
		if (ret)
			pr_err("persistent buffer: cannot move the trace buffer there (%d)\n",
			       ret);
	}
	mutex_unlock(&rtp_lock);
	return 0;
}
late_initcall(ringtrace_persist_init);
