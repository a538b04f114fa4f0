// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit stress suite for the ringtrace buffer.
 *
 * On every online CPU four kinds of writer share the CPU buffer, often in
 * the middle of each other's reservations: a bound kthread in task context,
 * a pinned hrtimer in hard interrupt context, a pinned soft hrtimer in
 * softirq context and, on x86 when the VM delivers them, an NMI handler.
 * Each record carries its CPU, its context, a sequence number of that
 * (CPU, context) stream, a variable amount of fill and a checksum over all
 * of it.  A reader kthread consumes concurrently, by records and by whole
 * pages, and checks that nothing is torn (checksum, length, CPU),
 * duplicated or out of order (sequence numbers grow per stream, time
 * stamps per CPU).  When the writers stop, the test drains the rest and
 * checks, per CPU, that the writers' own count of attempts equals entries
 * + overruns + dropped + read + discarded (every fifth record is built
 * and given up, and must never be read), that the reader saw exactly
 * "read" records,
 * and that it read records of every context: a buffer that dropped every
 * write would pass the other checks.  In producer/consumer mode nothing is
 * overwritten, so the reader must have read every record each stream got
 * in.  Last, it prints how often the buffer took its rare paths and checks
 * that they ran: nested writers made reservations retry, writers installed
 * pages the reader had claimed, and (overwrite mode) writers lapping the
 * ring made the reader discard a copy (stress_check_paths()).
 *
 * Each case runs for ringtrace_buffer_stress_kunit.seconds (default 2),
 * and on until the reader has read the floors its checks ask for
 * (STRESS_EXTRA_MAX); "make stress" boots with a long run.  KUnit gives a case five minutes,
 * so a longer run is split into rounds of at most STRESS_ROUND_MAX
 * seconds, each a fresh buffer and a parameter of the case.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jhash.h>
#include <linux/kthread.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/ringtrace_buffer.h>
#include <linux/sched.h>
#include <linux/slab.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#include "buffer_internal.h"

/*
 * Built in, the parameter keeps the name scripts/stress boots with:
 * ringtrace_buffer_stress_kunit.seconds=N.
 */
#ifndef MODULE
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ringtrace_buffer_stress_kunit."
#endif

static unsigned int seconds = 2;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "seconds each stress case runs");

#define STRESS_ROUND_MAX	240
#define STRESS_ROUNDS_MAX	30

/* Rounds of a case: the parameters are 1..n; their count is from @seconds. */
static const unsigned int stress_rounds[STRESS_ROUNDS_MAX] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
};

static unsigned int stress_nr_rounds(void)
{
	return clamp(DIV_ROUND_UP(seconds, STRESS_ROUND_MAX), 1U,
		     (unsigned int)STRESS_ROUNDS_MAX);
}

static const void *stress_gen_rounds(const void *prev, char *desc)
{
	const unsigned int *round = prev ? (const unsigned int *)prev + 1 :
					   stress_rounds;

	if (round - stress_rounds >= stress_nr_rounds())
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "round %u of %u", *round,
		 stress_nr_rounds());
	return round;
}

enum { CTX_TASK, CTX_IRQ, CTX_SOFTIRQ, CTX_NMI, NR_CTX };

static const char * const ctx_names[NR_CTX] = {
	[CTX_TASK]	= "task",
	[CTX_IRQ]	= "irq",
	[CTX_SOFTIRQ]	= "softirq",
	[CTX_NMI]	= "nmi",
};

#define TIMER_PERIOD_NS		(100 * NSEC_PER_USEC)
/* Prime to the hard timer's period: the two drift through each other. */
#define SOFT_TIMER_PERIOD_NS	(113 * NSEC_PER_USEC)
#define MAX_FILL		160

/* Every this many ticks, a CPU's hard timer raises an NMI on the next CPU. */
#define NMI_EVERY_TICKS		4
/*
 * The reader pauses in one of every HOLD_EVERY of its windows
 * (stress_reader_window()) for at most HOLD_READER_US, in delay loops
 * rather than by a clock, which may tick by jiffies under TCG: far longer
 * than the writers of a CPU buffer take to lap its ring under TCG with
 * KASAN (measured: about 0.1 ms a page in overwrite mode).
 */
#define HOLD_EVERY		16
#define HOLD_READER_US		20000
/* Pauses in a window after which its path must have run at least once. */
#define STRESS_MIN_HOLDS	5

/*
 * Records of each context the reader must have read on every CPU, in every
 * mode.  Far below what a 2 s run under TCG with KASAN and lockdep reads
 * (the task writer runs flat out, each timer fires thousands of times),
 * but not zero: a buffer that drops or loses every record of a context
 * fails.  NMIs depend on the VM: their floor applies only on a CPU where
 * at least STRESS_NMI_MIN_RESERVED NMI records went in.
 */
static const unsigned long stress_min_read[NR_CTX] = {
	[CTX_TASK]	= 100,
	[CTX_IRQ]	= 10,
	[CTX_SOFTIRQ]	= 10,
	[CTX_NMI]	= 1,
};

#define STRESS_NMI_MIN_RESERVED	100

/*
 * A run goes on past its seconds until every CPU's reader has read those
 * floors (stress_read_enough()), for at most this many seconds more: a
 * slow machine then races longer instead of failing the floors, and a
 * context that never gets a record in still fails them.  Within KUnit's
 * five minutes a case, with STRESS_ROUND_MAX.
 */
#define STRESS_EXTRA_MAX	40

/* See stress_check_paths(). */
#define STRESS_MIN_NESTED	100
#define STRESS_LONG_SECONDS	10

/*
 * Every record whose sequence number is a multiple of this is built and
 * then given up (rtb_discard_commit()), as a filter would: given back if
 * nothing was reserved after it, else padding.  None may be read.
 */
#define STRESS_DISCARD_EVERY	5

struct stress_record {
	u32	cpu;
	u32	ctx;
	u64	seq;
	u32	len;
	u32	sum;
	u8	fill[];
};

/* One writer stream: only its own context on its own CPU touches it. */
struct stress_stream {
	u64		next_seq;
	unsigned long	attempts;
	/* Reservations the buffer granted. */
	unsigned long	reserved;
	/* Of those, given up: STRESS_DISCARD_EVERY. */
	unsigned long	discarded;
	/* Of those, made while another writer of the CPU was reserving. */
	unsigned long	nested;
};

struct stress_cpu {
	struct stress_stream	streams[NR_CTX];
	/* Writers inside rtb_lock_reserve(); each context sets its own. */
	bool			reserving[NR_CTX];
	struct task_struct	*writer;
	struct hrtimer		timer;
	struct hrtimer		soft_timer;
	struct rtb_buffer	*buffer;
	int			cpu;
	/* NMI writer: where this CPU's hard timer raises NMIs, if anywhere. */
	struct stress_cpu	*nmi_target;
	unsigned int		ticks;
	/* Set by the CPU raising our NMI, cleared by our handler. */
	atomic_t		nmi_pending;
	unsigned long		nmi_raised;
	/* Reader side. */
	u64			last_seq[NR_CTX];
	unsigned long		read[NR_CTX];
	u64			last_ts;
	unsigned long		seen;
};

struct stress {
	struct rtb_buffer	*buffer;
	struct stress_cpu	*cpus;
	struct task_struct	*reader;
	unsigned int		seconds;
	bool			overwrite;
	bool			resize;
	atomic_t		errors;
	unsigned long		pages_read;
	/* The NMI writer runs. */
	bool			nmi;
	/*
	 * The reader's windows reached, paused in, paused in until the path
	 * ran, and paused in while writers went far enough for the path to
	 * have run, but it did not (reader only).
	 */
	unsigned long		windows[RTB_NR_WINDOWS];
	unsigned long		holds[RTB_NR_WINDOWS];
	unsigned long		served[RTB_NR_WINDOWS];
	unsigned long		missed[RTB_NR_WINDOWS];
};

static u32 record_sum(const struct stress_record *rec, unsigned int fill)
{
	return jhash(rec->fill, fill,
		     jhash_3words(rec->cpu, rec->ctx, (u32)rec->seq, rec->len));
}

/* Whether a writer of @sc's CPU other than @ctx is inside a reservation. */
static bool other_reserving(const struct stress_cpu *sc, int ctx)
{
	int i;

	for (i = 0; i < NR_CTX; i++)
		if (i != ctx && READ_ONCE(sc->reserving[i]))
			return true;
	return false;
}

static void write_one(struct stress_cpu *sc, int ctx)
{
	struct stress_stream *stream = &sc->streams[ctx];
	u64 seq = ++stream->next_seq;
	unsigned int fill = (seq * 7 + ctx * 13) % MAX_FILL;
	struct stress_record *rec;
	struct rtb_event *event;
	unsigned int i;
	bool nested;

	stream->attempts++;
	/*
	 * Tell writers that interrupt our reservation that they nest in one,
	 * and see whether we do: this is how often the retry path had its
	 * chance (stress_check_paths()).  Not preemptible meanwhile: a task
	 * switch between the flag and the reservation is no nesting.
	 */
	preempt_disable_notrace();
	nested = other_reserving(sc, ctx);
	WRITE_ONCE(sc->reserving[ctx], true);
	barrier();
	event = rtb_lock_reserve(sc->buffer, sizeof(*rec) + fill);
	barrier();
	WRITE_ONCE(sc->reserving[ctx], false);
	preempt_enable_notrace();
	if (!event)
		return;
	stream->reserved++;
	if (nested)
		stream->nested++;
	/* Fill in place: the timer may interrupt us here and write too. */
	rec = rtb_event_data(event);
	rec->cpu = sc->cpu;
	rec->ctx = ctx;
	rec->seq = seq;
	rec->len = sizeof(*rec) + fill;
	for (i = 0; i < fill; i++)
		rec->fill[i] = seq + i;
	rec->sum = record_sum(rec, fill);
	if (seq % STRESS_DISCARD_EVERY) {
		rtb_unlock_commit(sc->buffer, event);
		return;
	}
	stream->discarded++;
	rtb_discard_commit(sc->buffer, event);
}

#ifdef CONFIG_X86_LOCAL_APIC
/*
 * The NMI writer.  Each CPU's hard timer raises an NMI on the next online
 * CPU through the local APIC, every NMI_EVERY_TICKS ticks.  The handler
 * shares NMI_LOCAL with every other user: it claims an NMI only if its CPU
 * has one of ours pending, and leaves any other to its owner.  One of ours
 * at most is in flight per CPU: NMIs do not queue, and two raised at once
 * could arrive as one, leaving a flag that no NMI clears.
 */
static struct stress *stress_nmi_run;

static void stress_raise_nmi(struct stress_cpu *target)
{
	if (atomic_cmpxchg(&target->nmi_pending, 0, 1))
		return;
	/* Only one CPU raises NMIs on @target: no race on the count. */
	target->nmi_raised++;
	apic->send_IPI(target->cpu, NMI_VECTOR);
}

static int stress_nmi_fn(unsigned int type, struct pt_regs *regs)
{
	struct stress *st = READ_ONCE(stress_nmi_run);
	struct stress_cpu *sc;

	if (!st)
		return NMI_DONE;
	sc = &st->cpus[smp_processor_id()];
	if (!atomic_xchg(&sc->nmi_pending, 0))
		return NMI_DONE;
	write_one(sc, CTX_NMI);
	return NMI_HANDLED;
}

/* Register the NMI writer; before any writer starts. */
static bool stress_nmi_start(struct kunit *test, struct stress *st)
{
	int cpu, next;

	if (!boot_cpu_has(X86_FEATURE_APIC)) {
		kunit_info(test, "nmi: no local APIC: no NMI writer");
		return false;
	}
	WRITE_ONCE(stress_nmi_run, st);
	if (register_nmi_handler(NMI_LOCAL, stress_nmi_fn, 0, "rtb_stress")) {
		WRITE_ONCE(stress_nmi_run, NULL);
		kunit_info(test, "nmi: no handler registered: no NMI writer");
		return false;
	}
	for_each_online_cpu(cpu) {
		next = cpumask_next(cpu, cpu_online_mask);
		if (next >= nr_cpu_ids)
			next = cpumask_first(cpu_online_mask);
		st->cpus[cpu].nmi_target = &st->cpus[next];
	}
	return true;
}

/* Once the timers stopped raising NMIs: let those raised land, then go. */
static void stress_nmi_stop(struct stress *st)
{
	unsigned long deadline = jiffies + HZ;
	int cpu;

	for_each_online_cpu(cpu) {
		while (atomic_read(&st->cpus[cpu].nmi_pending) &&
		       time_before(jiffies, deadline))
			usleep_range(1000, 2000);
	}
	/* Waits for handlers running: none uses @st once it returns. */
	unregister_nmi_handler(NMI_LOCAL, "rtb_stress");
	WRITE_ONCE(stress_nmi_run, NULL);
}
#else
static void stress_raise_nmi(struct stress_cpu *target)
{
}

static bool stress_nmi_start(struct kunit *test, struct stress *st)
{
	kunit_info(test, "nmi: no NMI writer on this architecture");
	return false;
}

static void stress_nmi_stop(struct stress *st)
{
}
#endif

static enum hrtimer_restart stress_timer_fn(struct hrtimer *timer)
{
	struct stress_cpu *sc = container_of(timer, struct stress_cpu, timer);

	write_one(sc, CTX_IRQ);
	if (sc->nmi_target && !(++sc->ticks % NMI_EVERY_TICKS))
		stress_raise_nmi(sc->nmi_target);
	hrtimer_forward_now(timer, ns_to_ktime(TIMER_PERIOD_NS));
	return HRTIMER_RESTART;
}

static enum hrtimer_restart stress_soft_timer_fn(struct hrtimer *timer)
{
	struct stress_cpu *sc = container_of(timer, struct stress_cpu,
					     soft_timer);

	write_one(sc, CTX_SOFTIRQ);
	hrtimer_forward_now(timer, ns_to_ktime(SOFT_TIMER_PERIOD_NS));
	return HRTIMER_RESTART;
}

static int stress_writer_fn(void *data)
{
	struct stress_cpu *sc = data;
	unsigned int n = 0;

	/* Started here, on the CPU the writer is bound to: pinned there. */
	hrtimer_start(&sc->timer, ns_to_ktime(TIMER_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED);
	hrtimer_start(&sc->soft_timer, ns_to_ktime(SOFT_TIMER_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED_SOFT);
	while (!kthread_should_stop()) {
		write_one(sc, CTX_TASK);
		if (!(++n % 64))
			cond_resched();
	}
	return 0;
}

/*
 * A consuming reader has two windows where a CPU buffer's writers may come
 * between its steps (enum rtb_reader_window), with the CPU buffer's
 * reader_lock held and interrupts off: writers on another CPU get in by
 * chance only, when the host preempts the reader's vCPU there.  The
 * reader pauses in one window of HOLD_EVERY until the writers did what
 * the window is for, or HOLD_READER_US passed.  Claim window: a writer
 * moving to a new page installs the page the reader claimed (help_swaps).
 * Copy window, in overwrite mode (nothing else moves the head): writers
 * lapping the ring push the head past the page being copied, and the
 * reader discards its copy (partial_discards).  Never for the reader's own
 * CPU, whose writers cannot run while its interrupts are off.
 */
static struct stress *stress_window_run;

/*
 * Whether the path of @window ran: the claimed page is in the ring (a
 * writer installed it, maybe before the pause began: the reader itself
 * only does so after the window), or the head moved from @head.  The
 * reader holds the CPU buffer's reader_lock: @swap is stable.
 */
static bool stress_window_done(struct rtb_cpu_buffer *cpu_buffer,
			       enum rtb_reader_window window, long head)
{
	const struct rtb_swap *swap = &cpu_buffer->swap;

	if (window == RTB_WINDOW_CLAIMED)
		return READ_ONCE(cpu_buffer->ring[swap->slot]) == swap->new;
	return atomic_long_read(&cpu_buffer->head) != head;
}

static void stress_reader_window(struct rtb_cpu_buffer *cpu_buffer,
				 enum rtb_reader_window window)
{
	struct stress *st = READ_ONCE(stress_window_run);
	unsigned long start, end, need;
	unsigned int us;
	long head;

	if (!st || !in_task() || current != st->reader ||
	    cpu_buffer->cpu == smp_processor_id())
		return;
	if (window == RTB_WINDOW_COPIED && !st->overwrite)
		return;
	if (++st->windows[window] % HOLD_EVERY)
		return;
	st->holds[window]++;
	head = atomic_long_read(&cpu_buffer->head);
	start = rtb_w_seq(local_read(&cpu_buffer->write));
	for (us = 0; us < HOLD_READER_US; us++) {
		if (stress_window_done(cpu_buffer, window, head)) {
			st->served[window]++;
			return;
		}
		udelay(1);
	}
	/*
	 * The writers may not have got far (recording off for a resize, their
	 * vCPU stalled by the host).  But a writer that moved to a new page
	 * after the claim installed the claimed page, and one that lapped the
	 * ring pushed the head: allow for one move already under way.  A
	 * resize restarts the page sequence: nothing to compare then.
	 */
	end = rtb_w_seq(local_read(&cpu_buffer->write));
	need = window == RTB_WINDOW_CLAIMED ? 2 : cpu_buffer->nr_pages + 2;
	if (!st->resize && end >= start && end - start >= need)
		st->missed[window]++;
}

static void stress_error(struct stress *st, const char *what, int cpu,
			 const struct stress_record *rec)
{
	if (atomic_inc_return(&st->errors) <= 5)
		pr_err("ringtrace stress: cpu %d: %s (record cpu %u ctx %u seq %llu len %u)\n",
		       cpu, what, rec->cpu, rec->ctx, rec->seq, rec->len);
}

static void check_record(struct stress *st, struct stress_cpu *sc,
			 struct rtb_event *event, u64 ts)
{
	struct stress_record *rec = rtb_event_data(event);
	unsigned int room = rtb_event_data_length(event);

	sc->seen++;
	if (room < sizeof(*rec) || rec->len < sizeof(*rec) || rec->len > room) {
		stress_error(st, "bad length", sc->cpu, rec);
		return;
	}
	if (rec->cpu != sc->cpu || rec->ctx >= NR_CTX) {
		stress_error(st, "record of another CPU", sc->cpu, rec);
		return;
	}
	if (rec->sum != record_sum(rec, rec->len - sizeof(*rec))) {
		stress_error(st, "torn record", sc->cpu, rec);
		return;
	}
	sc->read[rec->ctx]++;
	if (!(rec->seq % STRESS_DISCARD_EVERY))
		stress_error(st, "a discarded record was read", sc->cpu, rec);
	if (rec->seq <= sc->last_seq[rec->ctx])
		stress_error(st, "duplicate or out of order", sc->cpu, rec);
	sc->last_seq[rec->ctx] = rec->seq;
	if (ts < sc->last_ts)
		stress_error(st, "time went back", sc->cpu, rec);
	sc->last_ts = ts;
}

static unsigned int consume_some(struct stress *st, struct stress_cpu *sc,
				 unsigned int max)
{
	struct rtb_event *event;
	unsigned int n = 0;
	u64 ts;

	while (n < max && (event = rtb_consume(st->buffer, sc->cpu, &ts, NULL))) {
		check_record(st, sc, event, ts);
		n++;
	}
	return n;
}

static void read_one_page(struct stress *st, struct stress_cpu *sc,
			  struct rtb_data_page **pagep)
{
	struct rtb_data_page *page;
	unsigned long commit;
	struct rtb_event *event;
	unsigned int off = 0;
	int ret;
	u64 ts;

	ret = rtb_read_page(st->buffer, sc->cpu, pagep);
	if (ret < 0)
		return;
	page = *pagep;
	st->pages_read++;
	commit = page->commit & RTB_PAGE_COMMIT_MASK;
	ts = page->time_stamp;
	while (off < commit) {
		event = (struct rtb_event *)&page->data[off];
		/* A discarded record between others: skipped, its delta kept. */
		if (rtb_event_length(event) > commit - off) {
			stress_error(st, "a record runs past the commit", sc->cpu,
				     rtb_event_data(event));
			break;
		}
		ts += rtb_event_time_delta(event);
		if (rtb_event_type(event) == RTB_TYPE_DATA)
			check_record(st, sc, event, ts);
		off += rtb_event_length(event);
	}
}

static int stress_reader_fn(void *data)
{
	struct stress *st = data;
	struct rtb_data_page *page;
	unsigned int round = 0;
	int cpu;

	page = (void *)__get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	while (!kthread_should_stop()) {
		for_each_online_cpu(cpu) {
			if (round % 4 == 3)
				read_one_page(st, &st->cpus[cpu], &page);
			else
				consume_some(st, &st->cpus[cpu], 64);
		}
		round++;
		cond_resched();
	}
	free_page((unsigned long)page);
	return 0;
}

/*
 * Check one CPU once every writer stopped and the reader drained it.
 * Returns its write attempts, as the buffer counted them.
 */
static unsigned long stress_check_cpu(struct kunit *test, struct stress *st,
				      struct stress_cpu *sc)
{
	const struct stress_stream *streams = sc->streams;
	unsigned long attempts = 0, reserved = 0, discarded = 0;
	struct rtb_cpu_stats s;
	int ctx;

	rtb_cpu_stats(st->buffer, sc->cpu, &s);
	kunit_info(test, "cpu %d: written %lu read %lu overruns %lu dropped %lu discarded %lu",
		   sc->cpu, s.written, s.read, s.overruns, s.dropped,
		   s.discarded);
	kunit_info(test,
		   "cpu %d: task/irq/softirq/nmi reserved %lu/%lu/%lu/%lu read %lu/%lu/%lu/%lu",
		   sc->cpu, streams[CTX_TASK].reserved,
		   streams[CTX_IRQ].reserved, streams[CTX_SOFTIRQ].reserved,
		   streams[CTX_NMI].reserved, sc->read[CTX_TASK],
		   sc->read[CTX_IRQ], sc->read[CTX_SOFTIRQ], sc->read[CTX_NMI]);
	if (st->nmi)
		kunit_info(test, "cpu %d: nmi raised %lu handled %lu", sc->cpu,
			   sc->nmi_raised, streams[CTX_NMI].attempts);

	KUNIT_EXPECT_EQ(test, s.entries, 0UL);
	KUNIT_EXPECT_EQ(test, s.written, s.entries + s.overruns + s.dropped +
			s.read + s.discarded);
	for (ctx = 0; ctx < NR_CTX; ctx++) {
		attempts += streams[ctx].attempts;
		reserved += streams[ctx].reserved;
		discarded += streams[ctx].discarded;
		KUNIT_EXPECT_LE_MSG(test, sc->read[ctx], streams[ctx].reserved,
				    "cpu %d: %s records", sc->cpu,
				    ctx_names[ctx]);
		if (ctx == CTX_NMI &&
		    streams[ctx].reserved < STRESS_NMI_MIN_RESERVED)
			continue;
		KUNIT_EXPECT_GE_MSG(test, sc->read[ctx], stress_min_read[ctx],
				    "cpu %d: %s records read", sc->cpu,
				    ctx_names[ctx]);
	}

	/* A resize empties the buffer and restarts its counters. */
	if (st->resize)
		return s.written;
	KUNIT_EXPECT_EQ(test, s.written, attempts);
	KUNIT_EXPECT_EQ(test, s.dropped, attempts - reserved);
	KUNIT_EXPECT_EQ(test, s.discarded, discarded);
	KUNIT_EXPECT_EQ(test, s.read, sc->seen);
	if (st->overwrite)
		return s.written;
	/* Nothing is overwritten: the reader got every record that went in. */
	KUNIT_EXPECT_EQ(test, s.overruns, 0UL);
	for (ctx = 0; ctx < NR_CTX; ctx++)
		KUNIT_EXPECT_EQ_MSG(test, sc->read[ctx],
				    streams[ctx].reserved - streams[ctx].discarded,
				    "cpu %d: %s records", sc->cpu,
				    ctx_names[ctx]);
	return s.written;
}

/*
 * Whether the buffer's rare paths ran (struct rtb_path_counts, per case:
 * each case allocates its buffer).  Every counter is printed; one is
 * required.
 *
 * Reserve retries: under TCG an interrupt is taken only between
 * translation blocks, so whether a run nests a writer between another's
 * read of the write word and its cmpxchg, a few dozen instructions, is
 * chance, more so in a 2 s run under KASAN.  The writers count those
 * chances themselves: reservations granted while another writer of the CPU
 * was inside rtb_lock_reserve() (stream->nested).  Most of that call is
 * the window (the clock is read inside it), so STRESS_MIN_NESTED of them
 * without a single retry means the path is broken, not that the run was
 * unlucky; with fewer, nothing is required.  A long run ("make stress")
 * must nest that often.
 *
 * Help swaps and partial discards: the reader pauses in its windows for
 * them (stress_reader_window()).  A pause ends when the path ran: the
 * claimed page installed by a writer (help_swaps), or the head moved under
 * a copy, which the reader must then discard (partial_discards, at least
 * once per such pause).  In a pause they did not end, the writers
 * must not have gone far enough that they should have.  And after
 * STRESS_MIN_HOLDS pauses in the claim window some writer must have
 * installed a page.  Copy-window pauses need the reader to catch up with
 * the writers of a CPU, which it may not do in a short run.
 */
static void stress_check_paths(struct kunit *test, struct stress *st)
{
	long retries = 0, drops = 0, helps = 0, discards = 0;
	unsigned long nested, all_nested = 0;
	struct rtb_path_counts *p;
	int cpu, ctx;

	for_each_online_cpu(cpu) {
		p = &rtb_cpu_buffer(st->buffer, cpu)->paths;
		nested = 0;
		for (ctx = 0; ctx < NR_CTX; ctx++)
			nested += st->cpus[cpu].streams[ctx].nested;
		kunit_info(test,
			   "cpu %d: paths: %ld reserve retries, %ld crossing drops, %ld help swaps, %ld partial discards, %ld discards padded; %lu nested reservations",
			   cpu, atomic_long_read(&p->reserve_retries),
			   atomic_long_read(&p->crossing_drops),
			   atomic_long_read(&p->help_swaps),
			   atomic_long_read(&p->partial_discards),
			   atomic_long_read(&p->discard_paddings), nested);
		retries += atomic_long_read(&p->reserve_retries);
		drops += atomic_long_read(&p->crossing_drops);
		helps += atomic_long_read(&p->help_swaps);
		discards += atomic_long_read(&p->partial_discards);
		all_nested += nested;
	}
	kunit_info(test,
		   "all cpus: %ld reserve retries, %ld crossing drops, %ld help swaps, %ld partial discards; %lu nested reservations, %lu pages read",
		   retries, drops, helps, discards, all_nested, st->pages_read);

	if (all_nested >= STRESS_MIN_NESTED)
		KUNIT_EXPECT_GT_MSG(test, retries, 0L,
				    "%lu nested reservations, no retry",
				    all_nested);
	else
		kunit_info(test,
			   "all cpus: only %lu nested reservations: retries not required",
			   all_nested);
	if (st->seconds >= STRESS_LONG_SECONDS)
		KUNIT_EXPECT_GE_MSG(test, all_nested,
				    (unsigned long)STRESS_MIN_NESTED,
				    "writers hardly nested in %u s",
				    st->seconds);

	kunit_info(test,
		   "reader windows: claim %lu (paused in %lu, ended by a writer %lu), copy %lu (paused in %lu, ended by a writer %lu)",
		   st->windows[RTB_WINDOW_CLAIMED], st->holds[RTB_WINDOW_CLAIMED],
		   st->served[RTB_WINDOW_CLAIMED],
		   st->windows[RTB_WINDOW_COPIED], st->holds[RTB_WINDOW_COPIED],
		   st->served[RTB_WINDOW_COPIED]);
	KUNIT_EXPECT_EQ_MSG(test, st->missed[RTB_WINDOW_CLAIMED], 0UL,
			    "writers moved on with a page claimed, and none installed it");
	KUNIT_EXPECT_EQ_MSG(test, st->missed[RTB_WINDOW_COPIED], 0UL,
			    "writers lapped the ring under a copy, and the head stayed");
	KUNIT_EXPECT_GE_MSG(test, discards,
			    (long)st->served[RTB_WINDOW_COPIED],
			    "the head moved under %lu copies: each must be discarded",
			    st->served[RTB_WINDOW_COPIED]);
	if (st->holds[RTB_WINDOW_CLAIMED] >= STRESS_MIN_HOLDS)
		KUNIT_EXPECT_GT_MSG(test, helps, 0L,
				    "reader paused %lu times with a page claimed: no writer installed it",
				    st->holds[RTB_WINDOW_CLAIMED]);
	/* A long run on two CPUs claims pages of the other CPU's buffer. */
	if (st->seconds >= STRESS_LONG_SECONDS && num_online_cpus() > 1)
		KUNIT_EXPECT_GE_MSG(test, st->holds[RTB_WINDOW_CLAIMED],
				    (unsigned long)STRESS_MIN_HOLDS,
				    "reader hardly claimed pages in %u s",
				    st->seconds);
}

/* What became of the NMIs raised: none handled means the VM has none. */
static void stress_report_nmi(struct kunit *test, struct stress *st)
{
	unsigned long raised = 0, handled = 0;
	int cpu;

	if (!st->nmi)
		return;
	for_each_online_cpu(cpu) {
		raised += st->cpus[cpu].nmi_raised;
		handled += st->cpus[cpu].streams[CTX_NMI].attempts;
	}
	kunit_info(test, "nmi: %lu raised, %lu handled", raised, handled);
	if (!handled)
		kunit_info(test,
			   "nmi: none arrived (no NMI delivery here?): NMI writer skipped");
}

/*
 * Whether the reader has read stress_min_read[] of each context but the
 * NMI one (which depends on the VM) on every CPU: the checks' floors.  The
 * counts are the reader thread's, read while it runs: a stale one only
 * makes the run a round of 100 ms longer.
 */
static bool stress_read_enough(struct stress *st)
{
	unsigned long read;
	int cpu, ctx;

	for_each_online_cpu(cpu) {
		for (ctx = 0; ctx < NR_CTX; ctx++) {
			/* The reader thread's count, read as it runs. */
			read = data_race(st->cpus[cpu].read[ctx]);
			if (ctx != CTX_NMI && read < stress_min_read[ctx])
				return false;
		}
	}
	return true;
}

static void run_stress(struct kunit *test, unsigned int pages,
		       unsigned int flags, bool resize)
{
	struct stress *st;
	struct stress_cpu *sc;
	unsigned long start, deadline, limit, writes = 0;
	int cpu;

	st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st);
	st->cpus = kunit_kcalloc(test, nr_cpu_ids, sizeof(*st->cpus),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st->cpus);
	st->buffer = rtb_alloc(pages * RTB_PAGE_DATA_SIZE, flags);
	KUNIT_ASSERT_NOT_NULL(test, st->buffer);
	st->buffer->reader_window = stress_reader_window;
	/* KUnit gives a case five minutes: see stress_gen_rounds(). */
	st->seconds = clamp(DIV_ROUND_UP(seconds, stress_nr_rounds()), 1U,
			    (unsigned int)STRESS_ROUND_MAX);
	st->overwrite = flags & RTB_FL_OVERWRITE;
	st->resize = resize;

	for_each_online_cpu(cpu) {
		sc = &st->cpus[cpu];
		sc->cpu = cpu;
		sc->buffer = st->buffer;
		hrtimer_init(&sc->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED);
		sc->timer.function = stress_timer_fn;
		hrtimer_init(&sc->soft_timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_SOFT);
		sc->soft_timer.function = stress_soft_timer_fn;
		sc->writer = kthread_create(stress_writer_fn, sc,
					    "rtb_stress/%d", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(sc->writer));
		kthread_bind(sc->writer, cpu);
	}
	st->reader = kthread_create(stress_reader_fn, st, "rtb_stress_rd");
	KUNIT_ASSERT_FALSE(test, IS_ERR(st->reader));
	WRITE_ONCE(stress_window_run, st);
	wake_up_process(st->reader);
	/*
	 * No assertion from here on: one would end the case with the NMI
	 * handler still registered, pointing at memory KUnit frees.
	 */
	st->nmi = stress_nmi_start(test, st);
	for_each_online_cpu(cpu)
		wake_up_process(st->cpus[cpu].writer);

	start = jiffies;
	deadline = start + st->seconds * HZ;
	limit = deadline + STRESS_EXTRA_MAX * HZ;
	while (time_before(jiffies, deadline) ||
	       (!stress_read_enough(st) && time_before(jiffies, limit))) {
		msleep(100);
		if (resize)
			KUNIT_EXPECT_EQ(test,
					rtb_resize(st->buffer,
						   (pages + (jiffies & 3)) *
						   RTB_PAGE_DATA_SIZE), 0);
	}

	if (time_after(jiffies, deadline + HZ / 5))
		kunit_info(test, "ran %u ms, not %u s: until every context was read enough",
			   jiffies_to_msecs(jiffies - start), st->seconds);

	/* The timers raise the NMIs: stop them first, then the NMI writer. */
	for_each_online_cpu(cpu) {
		sc = &st->cpus[cpu];
		kthread_stop(sc->writer);
		hrtimer_cancel(&sc->timer);
		hrtimer_cancel(&sc->soft_timer);
	}
	if (st->nmi)
		stress_nmi_stop(st);
	kthread_stop(st->reader);
	WRITE_ONCE(stress_window_run, NULL);

	for_each_online_cpu(cpu) {
		sc = &st->cpus[cpu];
		while (consume_some(st, sc, UINT_MAX))
			;
		writes += stress_check_cpu(test, st, sc);
	}
	stress_check_paths(test, st);
	stress_report_nmi(test, st);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->errors), 0);
	KUNIT_EXPECT_GT(test, writes, 0UL);
	rtb_free(st->buffer);
}

static void test_stress_producer_consumer(struct kunit *test)
{
	run_stress(test, 8, 0, false);
}

static void test_stress_overwrite(struct kunit *test)
{
	run_stress(test, 3, RTB_FL_OVERWRITE, false);
}

static void test_stress_resize_while_writing(struct kunit *test)
{
	run_stress(test, 4, RTB_FL_OVERWRITE, true);
}

static struct kunit_case rtb_stress_cases[] = {
	KUNIT_CASE_PARAM(test_stress_producer_consumer, stress_gen_rounds),
	KUNIT_CASE_PARAM(test_stress_overwrite, stress_gen_rounds),
	KUNIT_CASE_PARAM(test_stress_resize_while_writing, stress_gen_rounds),
	{}
};

static struct kunit_suite rtb_stress_suite = {
	.name = "ringtrace_buffer_stress",
	.test_cases = rtb_stress_cases,
};

kunit_test_suite(rtb_stress_suite);

MODULE_DESCRIPTION("Stress tests for the ringtrace buffer");
MODULE_LICENSE("GPL");
