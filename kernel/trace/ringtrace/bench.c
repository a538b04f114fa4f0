// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace buffer benchmark, side by side with upstream's ring buffer
 * (kernel/trace/ring_buffer.c, built into the same kernel).
 *
 * Runs once at boot in the bench kernel ("make bench") and prints a table
 * on the console: ns per write for payloads of 8, 16, 64 and 256 bytes
 * with one writer (and the floor of such a write: a clock read and a copy
 * into a page, no ring) and with a writer on every online CPU, and the
 * rate at which a reader drains a full CPU buffer record by record and
 * page by page; and what the persistent buffer costs a 1-CPU write: the
 * same buffer on fixed pages (rtb_use_fixed_pages()) against its own
 * pages.  Each figure is the best of ringtrace_bench.rounds runs, taken
 * alternately on the two buffers so that both see the same machine.
 */

#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/ring_buffer.h>
#include <linux/ringtrace_buffer.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "buffer_internal.h"

/* Boot parameters keep the name they had: ringtrace_bench.writes=N. */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ringtrace_bench."

static unsigned int writes = 100000;
module_param(writes, uint, 0444);
MODULE_PARM_DESC(writes, "writes per writer and measurement");
static unsigned int rounds = 5;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "runs per figure; the best counts");

/* Big enough that one measurement never wraps much: 4 MiB per CPU. */
#define BENCH_BUFFER_SIZE	(4UL << 20)
#define DRAIN_PAYLOAD		64

enum impl { OURS, UPSTREAM, NR_IMPL };

struct bench_buffer {
	enum impl		impl;
	struct rtb_buffer	*ours;
	struct trace_buffer	*upstream;
};

static int bench_alloc(struct bench_buffer *b, enum impl impl, bool overwrite)
{
	b->impl = impl;
	if (impl == OURS) {
		b->ours = rtb_alloc(BENCH_BUFFER_SIZE,
				    overwrite ? RTB_FL_OVERWRITE : 0);
		return b->ours ? 0 : -ENOMEM;
	}
	b->upstream = ring_buffer_alloc(BENCH_BUFFER_SIZE,
					overwrite ? RB_FL_OVERWRITE : 0);
	return b->upstream ? 0 : -ENOMEM;
}

static void bench_free(struct bench_buffer *b)
{
	if (b->impl == OURS)
		rtb_free(b->ours);
	else
		ring_buffer_free(b->upstream);
}

/* What every write copies: a record's worth, so that no size overreads. */
static u8 payload[RTB_MAX_PAYLOAD] = { 1 };

/* @n writes of @len bytes on this CPU; returns ns, or 0 if one failed. */
static u64 timed_writes(struct bench_buffer *b, unsigned int len,
			unsigned int n)
{
	unsigned int i;
	u64 start;
	int ret = 0;

	start = ktime_get_ns();
	if (b->impl == OURS)
		for (i = 0; i < n; i++)
			ret |= rtb_write(b->ours, len, payload);
	else
		for (i = 0; i < n; i++)
			ret |= ring_buffer_write(b->upstream, len, payload);
	return ret ? 0 : ktime_get_ns() - start;
}

/*
 * The floor of a write of @len bytes: what no ring buffer can avoid, a
 * clock read and the copy of the payload behind a header word into a page,
 * the page wrapping when full; no reservation, no commit.  @n times on
 * this CPU; returns ns, or 0 without memory.
 */
static u64 timed_floor(unsigned int len, unsigned int n)
{
	unsigned int i, off = 0, step = 4 + round_up(len, 4);
	void *page;
	u64 start, ns;

	page = (void *)__get_free_page(GFP_KERNEL);
	if (!page)
		return 0;
	start = ktime_get_ns();
	for (i = 0; i < n; i++) {
		u64 ts = sched_clock();

		if (off + step > PAGE_SIZE)
			off = 0;
		*(u32 *)(page + off) = (u32)ts;
		rtb_copy_payload(page + off + 4, payload, len);
		off += step;
	}
	ns = ktime_get_ns() - start;
	free_page((unsigned long)page);
	return ns;
}

/* The floor's best of @rounds runs, and ringtrace's write time against it. */
static void report_floor(unsigned int len, u64 ours_ps)
{
	u64 best = U64_MAX, ps;
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		ps = timed_floor(len, writes) * 1000 / writes;
		if (ps && ps < best)
			best = ps;
	}
	if (best == U64_MAX || !ours_ps) {
		pr_info("ringtrace bench: %-16s %4u B  failed\n", "write floor", len);
		return;
	}
	pr_info("ringtrace bench: %-16s %4u B %7llu.%01llu ns %12s  %3llu.%02llux ringtrace/floor\n",
		"write floor", len, best / 1000, best / 100 % 10, "",
		ours_ps / best, ours_ps * 100 / best % 100);
}

/*
 * Pages of each CPU's slice for the persistent buffer's row: 1 MiB of
 * records and the reader page, so that every CPU's slices fit in one
 * allocation of a few MiB.
 */
#define FIXED_SLICE	(DIV_ROUND_UP(1UL << 20, RTB_PAGE_DATA_SIZE) + 1)

/*
 * @n writes of @len bytes on this CPU to a buffer of FIXED_SLICE pages a
 * CPU, on fixed pages (as the persistent buffer runs) or its own; ns, or
 * 0 if something failed.
 */
static u64 timed_fixed_writes(bool fixed, unsigned int len, unsigned int n)
{
	size_t size = (size_t)nr_cpu_ids * FIXED_SLICE * PAGE_SIZE;
	struct bench_buffer b = { .impl = OURS };
	void *area = NULL;
	bool ready;
	u32 *slots;
	u64 ns = 0;

	slots = kcalloc(nr_cpu_ids, sizeof(*slots), GFP_KERNEL);
	b.ours = rtb_alloc((FIXED_SLICE - 1) * RTB_PAGE_DATA_SIZE,
			   RTB_FL_OVERWRITE);
	if (fixed)
		area = alloc_pages_exact(size, GFP_KERNEL | __GFP_NOWARN);
	ready = slots && b.ours;
	if (ready && fixed)
		ready = area && !rtb_use_fixed_pages(b.ours, area, FIXED_SLICE,
						     slots);
	if (ready)
		ns = timed_writes(&b, len, n);
	rtb_free(b.ours);
	if (area)
		free_pages_exact(area, size);
	kfree(slots);
	return ns;
}

/*
 * The persistent buffer's cost on the write path: the same buffer on
 * fixed pages against its own pages, best of @rounds runs each, in turn.
 */
static void report_fixed(unsigned int len)
{
	u64 best[2] = { U64_MAX, U64_MAX }, ps;
	unsigned int r, fixed;

	for (r = 0; r < rounds; r++) {
		for (fixed = 0; fixed < 2; fixed++) {
			ps = timed_fixed_writes(fixed, len, writes) * 1000 /
			     writes;
			if (ps && ps < best[fixed])
				best[fixed] = ps;
		}
	}
	if (best[0] == U64_MAX || best[1] == U64_MAX) {
		pr_info("ringtrace bench: %-16s %4u B  failed\n",
			"write, persist", len);
		return;
	}
	pr_info("ringtrace bench: %-16s %4u B %7llu.%01llu ns %7llu.%01llu ns  %3llu.%02llux persistent/own pages\n",
		"write, persist", len, best[1] / 1000, best[1] / 100 % 10,
		best[0] / 1000, best[0] / 100 % 10, best[1] / best[0],
		best[1] * 100 / best[0] % 100);
}

struct all_cpus_run {
	struct bench_buffer	*buffer;
	unsigned int		len;
	atomic_t		ready;
	atomic_t		done;
	u64			ns[NR_CPUS];
	struct completion	finished;
};

static int all_cpus_writer(void *data)
{
	struct all_cpus_run *run = data;
	int cpu = raw_smp_processor_id();

	/* Start together so that every CPU writes while the others do. */
	atomic_dec(&run->ready);
	while (atomic_read(&run->ready))
		cpu_relax();
	run->ns[cpu] = timed_writes(run->buffer, run->len, writes);
	if (atomic_dec_and_test(&run->done))
		complete(&run->finished);
	return 0;
}

/* Mean ns per write with a writer on every online CPU. */
static u64 all_cpus_writes(struct bench_buffer *b, unsigned int len)
{
	struct all_cpus_run *run;
	struct task_struct *task;
	u64 sum = 0, result;
	int cpu, n = num_online_cpus();

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return 0;
	run->buffer = b;
	run->len = len;
	atomic_set(&run->ready, n);
	atomic_set(&run->done, n);
	init_completion(&run->finished);
	for_each_online_cpu(cpu) {
		task = kthread_create(all_cpus_writer, run, "rtb_bench/%d", cpu);
		if (IS_ERR(task)) {
			kfree(run);
			return 0;
		}
		kthread_bind(task, cpu);
		wake_up_process(task);
	}
	wait_for_completion(&run->finished);
	for_each_online_cpu(cpu) {
		if (!run->ns[cpu]) {
			sum = 0;
			break;
		}
		sum += run->ns[cpu];
	}
	result = sum / n;
	kfree(run);
	return result;
}

/* Fill this CPU's buffer (producer/consumer mode) until it refuses. */
static unsigned long fill(struct bench_buffer *b)
{
	u8 data[DRAIN_PAYLOAD] = { 1 };
	unsigned long n = 0;

	if (b->impl == OURS)
		while (!rtb_write(b->ours, sizeof(data), data))
			n++;
	else
		while (!ring_buffer_write(b->upstream, sizeof(data), data))
			n++;
	return n;
}

/* ns to consume everything on @cpu, one record at a time. */
static u64 drain_records(struct bench_buffer *b, int cpu, unsigned long n)
{
	unsigned long got = 0;
	u64 start = ktime_get_ns();

	if (b->impl == OURS)
		while (rtb_consume(b->ours, cpu, NULL, NULL))
			got++;
	else
		while (ring_buffer_consume(b->upstream, cpu, NULL, NULL))
			got++;
	return got == n ? ktime_get_ns() - start : 0;
}

/* ns to take everything on @cpu out page by page. */
static u64 drain_pages(struct bench_buffer *b, int cpu)
{
	void *page;
	u64 start, ns;

	if (b->impl == OURS) {
		page = (void *)__get_free_page(GFP_KERNEL);
		if (!page)
			return 0;
		start = ktime_get_ns();
		while (rtb_read_page(b->ours, cpu,
				     (struct rtb_data_page **)&page) >= 0)
			;
		ns = ktime_get_ns() - start;
		free_page((unsigned long)page);
		return ns;
	}
	page = ring_buffer_alloc_read_page(b->upstream, cpu);
	if (IS_ERR(page))
		return 0;
	start = ktime_get_ns();
	while (ring_buffer_read_page(b->upstream, &page, PAGE_SIZE, cpu, 0) >= 0)
		;
	ns = ktime_get_ns() - start;
	ring_buffer_free_read_page(b->upstream, cpu, page);
	return ns;
}

enum test_kind { WRITE_ONE_CPU, WRITE_ALL_CPUS, DRAIN_RECORDS, DRAIN_PAGES };

/* One measurement: ps per record (0 on failure). */
static u64 measure(enum impl impl, enum test_kind kind, unsigned int len)
{
	bool writes_only = kind == WRITE_ONE_CPU || kind == WRITE_ALL_CPUS;
	struct bench_buffer b;
	unsigned long n;
	u64 ns = 0;
	int cpu;

	/* Writes run in overwrite mode, drains from a full buffer. */
	if (bench_alloc(&b, impl, writes_only))
		return 0;
	switch (kind) {
	case WRITE_ONE_CPU:
		ns = timed_writes(&b, len, writes) * 1000 / writes;
		break;
	case WRITE_ALL_CPUS:
		ns = all_cpus_writes(&b, len) * 1000 / writes;
		break;
	case DRAIN_RECORDS:
	case DRAIN_PAGES:
		cpu = get_cpu();
		n = fill(&b);
		put_cpu();
		if (!n)
			break;
		ns = kind == DRAIN_RECORDS ? drain_records(&b, cpu, n) :
					     drain_pages(&b, cpu);
		ns = ns * 1000 / n;
		break;
	}
	bench_free(&b);
	return ns;
}

static const char * const kind_names[] = {
	[WRITE_ONE_CPU]		= "write, 1 CPU",
	[WRITE_ALL_CPUS]	= "write, all CPUs",
	[DRAIN_RECORDS]		= "drain by record",
	[DRAIN_PAGES]		= "drain by page",
};

/* Prints one row; returns ringtrace's best in ps (0 if it failed). */
static u64 report(enum test_kind kind, unsigned int len)
{
	u64 best[NR_IMPL] = { U64_MAX, U64_MAX }, ps;
	unsigned int r;
	int impl;

	for (r = 0; r < rounds; r++) {
		for (impl = 0; impl < NR_IMPL; impl++) {
			/* Alternate which goes first. */
			int which = (impl + r) % NR_IMPL;

			ps = measure(which, kind, len);
			if (ps && ps < best[which])
				best[which] = ps;
		}
	}
	if (best[OURS] == U64_MAX || best[UPSTREAM] == U64_MAX) {
		pr_info("ringtrace bench: %-16s %4u B  failed\n",
			kind_names[kind], len);
		return 0;
	}
	/* Ratio ours/upstream in hundredths: for drains, in throughput. */
	if (kind == DRAIN_RECORDS || kind == DRAIN_PAGES)
		pr_info("ringtrace bench: %-16s %4u B %7llu.%01llu ns %7llu.%01llu ns  %3llu.%02llux throughput\n",
			kind_names[kind], len,
			best[OURS] / 1000, best[OURS] / 100 % 10,
			best[UPSTREAM] / 1000, best[UPSTREAM] / 100 % 10,
			best[UPSTREAM] / best[OURS],
			best[UPSTREAM] * 100 / best[OURS] % 100);
	else
		pr_info("ringtrace bench: %-16s %4u B %7llu.%01llu ns %7llu.%01llu ns  %3llu.%02llux time\n",
			kind_names[kind], len,
			best[OURS] / 1000, best[OURS] / 100 % 10,
			best[UPSTREAM] / 1000, best[UPSTREAM] / 100 % 10,
			best[OURS] / best[UPSTREAM],
			best[OURS] * 100 / best[UPSTREAM] % 100);
	return best[OURS];
}

static int __init ringtrace_bench_init(void)
{
	static const unsigned int lens[] = { 8, 16, 64, 256 };
	unsigned int i;
	int ret;

	/* trace.c does this for upstream's buffers; it is not built here. */
	ret = cpuhp_setup_state_multi(CPUHP_TRACE_RB_PREPARE, "trace/RB:prepare",
				      trace_rb_cpu_prepare, NULL);
	if (ret < 0) {
		pr_err("ringtrace bench: cannot set up upstream's buffers: %d\n",
		       ret);
		return ret;
	}

	pr_info("ringtrace bench: %u writes per run, best of %u, %u CPUs\n",
		writes, rounds, num_online_cpus());
	pr_info("ringtrace bench: %-16s %6s %12s %12s  %s\n", "test", "size",
		"ringtrace", "upstream", "ringtrace/upstream");
	pr_info("ringtrace bench: (ns per record; ratio of time for writes, of throughput for drains)\n");
	for (i = 0; i < ARRAY_SIZE(lens); i++)
		report_floor(lens[i], report(WRITE_ONE_CPU, lens[i]));
	for (i = 0; i < ARRAY_SIZE(lens); i++)
		report_fixed(lens[i]);
	for (i = 0; i < ARRAY_SIZE(lens); i++)
		report(WRITE_ALL_CPUS, lens[i]);
	report(DRAIN_RECORDS, DRAIN_PAYLOAD);
	report(DRAIN_PAGES, DRAIN_PAYLOAD);
	pr_info("ringtrace bench: done\n");
	return 0;
}
late_initcall(ringtrace_bench_init);
