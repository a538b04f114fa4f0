// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit stress suite for the ringtrace buffer.
 *
 * On every online CPU a bound kthread writes records in task context while
 * a pinned hrtimer writes more from hard interrupt context, often in the
 * middle of the task's reservation.  Each record carries its CPU, its
 * context, a sequence number of that (CPU, context) stream, a variable
 * amount of fill and a checksum over all of it.  A reader kthread consumes
 * concurrently, by records and by whole pages, and checks that nothing is
 * torn (checksum, length, CPU), duplicated or out of order (sequence
 * numbers grow per stream, time stamps per CPU).  When the writers stop,
 * the test drains the rest and checks, per CPU, that the writers' own count
 * of attempts equals entries + overruns + dropped + read, and that the
 * reader saw exactly "read" records.
 *
 * Each case runs for ringtrace_buffer_stress_kunit.seconds (default 2);
 * "make stress" boots with a long run.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jhash.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/ringtrace_buffer.h>
#include <linux/slab.h>

static unsigned int seconds = 2;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "seconds each stress case runs");

enum { CTX_TASK, CTX_IRQ, NR_CTX };

#define TIMER_PERIOD_NS		(100 * NSEC_PER_USEC)
#define MAX_FILL		160

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
};

struct stress_cpu {
	struct stress_stream	streams[NR_CTX];
	struct task_struct	*writer;
	struct hrtimer		timer;
	struct rtb_buffer	*buffer;
	int			cpu;
	/* Reader side. */
	u64			last_seq[NR_CTX];
	u64			last_ts;
	unsigned long		seen;
};

struct stress {
	struct rtb_buffer	*buffer;
	struct stress_cpu	*cpus;
	struct task_struct	*reader;
	atomic_t		errors;
	unsigned long		pages_read;
};

static u32 record_sum(const struct stress_record *rec, unsigned int fill)
{
	return jhash(rec->fill, fill,
		     jhash_3words(rec->cpu, rec->ctx, (u32)rec->seq, rec->len));
}

static void write_one(struct stress_cpu *sc, int ctx)
{
	struct stress_stream *stream = &sc->streams[ctx];
	u64 seq = ++stream->next_seq;
	unsigned int fill = (seq * 7 + ctx * 13) % MAX_FILL;
	struct stress_record *rec;
	struct rtb_event *event;
	unsigned int i;

	stream->attempts++;
	event = rtb_lock_reserve(sc->buffer, sizeof(*rec) + fill);
	if (!event)
		return;
	/* Fill in place: the timer may interrupt us here and write too. */
	rec = rtb_event_data(event);
	rec->cpu = sc->cpu;
	rec->ctx = ctx;
	rec->seq = seq;
	rec->len = sizeof(*rec) + fill;
	for (i = 0; i < fill; i++)
		rec->fill[i] = seq + i;
	rec->sum = record_sum(rec, fill);
	rtb_unlock_commit(sc->buffer, event);
}

static enum hrtimer_restart stress_timer_fn(struct hrtimer *timer)
{
	struct stress_cpu *sc = container_of(timer, struct stress_cpu, timer);

	write_one(sc, CTX_IRQ);
	hrtimer_forward_now(timer, ns_to_ktime(TIMER_PERIOD_NS));
	return HRTIMER_RESTART;
}

static int stress_writer_fn(void *data)
{
	struct stress_cpu *sc = data;
	unsigned int n = 0;

	hrtimer_start(&sc->timer, ns_to_ktime(TIMER_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED);
	while (!kthread_should_stop()) {
		write_one(sc, CTX_TASK);
		if (!(++n % 64))
			cond_resched();
	}
	return 0;
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
	u64 ts;

	if (rtb_read_page(st->buffer, sc->cpu, pagep) < 0)
		return;
	page = *pagep;
	st->pages_read++;
	commit = page->commit & RTB_PAGE_COMMIT_MASK;
	ts = page->time_stamp;
	while (off < commit) {
		event = (struct rtb_event *)&page->data[off];
		if (rtb_event_type(event) == RTB_TYPE_PADDING)
			break;
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

static void run_stress(struct kunit *test, unsigned int pages,
		       unsigned int flags, bool resize)
{
	struct stress *st;
	struct stress_cpu *sc;
	struct rtb_cpu_stats s;
	unsigned long deadline, writes = 0;
	int cpu;

	st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st);
	st->cpus = kunit_kcalloc(test, nr_cpu_ids, sizeof(*st->cpus),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st->cpus);
	st->buffer = rtb_alloc(pages * RTB_PAGE_DATA_SIZE, flags);
	KUNIT_ASSERT_NOT_NULL(test, st->buffer);

	for_each_online_cpu(cpu) {
		sc = &st->cpus[cpu];
		sc->cpu = cpu;
		sc->buffer = st->buffer;
		hrtimer_init(&sc->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED);
		sc->timer.function = stress_timer_fn;
		sc->writer = kthread_create(stress_writer_fn, sc,
					    "rtb_stress/%d", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(sc->writer));
		kthread_bind(sc->writer, cpu);
	}
	st->reader = kthread_run(stress_reader_fn, st, "rtb_stress_rd");
	KUNIT_ASSERT_FALSE(test, IS_ERR(st->reader));
	for_each_online_cpu(cpu)
		wake_up_process(st->cpus[cpu].writer);

	/* KUnit gives a case five minutes. */
	deadline = jiffies + min(seconds, 240U) * HZ;
	while (time_before(jiffies, deadline)) {
		msleep(100);
		if (resize)
			KUNIT_EXPECT_EQ(test,
					rtb_resize(st->buffer,
						   (pages + (jiffies & 3)) *
						   RTB_PAGE_DATA_SIZE), 0);
	}

	for_each_online_cpu(cpu) {
		sc = &st->cpus[cpu];
		kthread_stop(sc->writer);
		hrtimer_cancel(&sc->timer);
	}
	kthread_stop(st->reader);

	for_each_online_cpu(cpu) {
		sc = &st->cpus[cpu];
		while (consume_some(st, sc, UINT_MAX))
			;
		rtb_cpu_stats(st->buffer, cpu, &s);
		kunit_info(test, "cpu %d: written %lu (irq %lu) read %lu overruns %lu dropped %lu",
			   cpu, s.written, sc->streams[CTX_IRQ].attempts,
			   s.read, s.overruns, s.dropped);
		writes += s.written;
		KUNIT_EXPECT_EQ(test, s.entries, 0UL);
		KUNIT_EXPECT_EQ(test, s.written,
				s.entries + s.overruns + s.dropped + s.read);
		if (resize)
			continue;
		KUNIT_EXPECT_EQ(test, s.written,
				sc->streams[CTX_TASK].attempts +
				sc->streams[CTX_IRQ].attempts);
		KUNIT_EXPECT_EQ(test, s.read, sc->seen);
		KUNIT_EXPECT_GT(test, sc->streams[CTX_IRQ].attempts, 0UL);
	}
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
	KUNIT_CASE(test_stress_producer_consumer),
	KUNIT_CASE(test_stress_overwrite),
	KUNIT_CASE(test_stress_resize_while_writing),
	{}
};

static struct kunit_suite rtb_stress_suite = {
	.name = "ringtrace_buffer_stress",
	.test_cases = rtb_stress_cases,
};

kunit_test_suite(rtb_stress_suite);

MODULE_DESCRIPTION("Stress tests for the ringtrace buffer");
MODULE_LICENSE("GPL");
