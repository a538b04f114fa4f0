// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for GTSC's setup and teardown.
 *
 * Sets up channels under the root "gtsc_kunit" and checks, by looking the
 * files up in debugfs, what each call leaves behind: the files of a
 * per-CPU and of a global channel, a root shared by two channels and
 * removed with the last, nothing at all after a refused setup (bad
 * arguments, a duplicate) or after an allocation failure injected at each
 * step of setup, the state machine, and the exact count of records a full
 * non-overwrite buffer drops, and a buffers-only channel (kmemtrace's)
 * in a directory of the caller's.  kmemleak, checked after the test run,
 * catches what an unwinding path would leak.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/dcache.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/gtsc.h>
#include <linux/kthread.h>
#include <linux/relay.h>
#include <linux/sched.h>

#include "gtsc_internal.h"

#define ROOT	"gtsc_kunit"

/* Whether debugfs has <root>[/<name>[/<file>]]. */
static bool exists(const char *name, const char *file)
{
	struct dentry *root, *dir = NULL, *f = NULL;
	bool found;

	root = debugfs_lookup(ROOT, NULL);
	if (root && name)
		dir = debugfs_lookup(name, root);
	if (dir && file)
		f = debugfs_lookup(file, dir);
	found = root && (!name || dir) && (!file || f);
	dput(f);
	dput(dir);
	dput(root);
	return found;
}

static void test_setup_makes_the_files(struct kunit *test)
{
	static const char *const files[] = {
		"state", "dropped", "rewind", "nr_sub", "sub_size",
	};
	struct trace_info *trace;
	char name[16];
	unsigned int i;
	int cpu;

	trace = trace_setup(ROOT, "percpu", 4096, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	KUNIT_EXPECT_EQ(test, trace->state, TRACE_SETUP);
	for (i = 0; i < ARRAY_SIZE(files); i++)
		KUNIT_EXPECT_TRUE_MSG(test, exists("percpu", files[i]), "%s",
				      files[i]);
	for_each_online_cpu(cpu) {
		snprintf(name, sizeof(name), "trace%d", cpu);
		KUNIT_EXPECT_TRUE_MSG(test, exists("percpu", name), "%s", name);
	}
	KUNIT_EXPECT_EQ(test, trace->rchan->subbuf_size, 4096UL);
	KUNIT_EXPECT_EQ(test, trace->rchan->n_subbufs, 4UL);
	trace_cleanup(trace);
	KUNIT_EXPECT_FALSE(test, exists(NULL, NULL));
}

static void test_global_channel_has_trace0_only(struct kunit *test)
{
	struct trace_info *trace;

	trace = trace_setup(ROOT, "global", 1024, 8, TRACE_GLOBAL_CHANNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	KUNIT_EXPECT_TRUE(test, exists("global", "trace0"));
	KUNIT_EXPECT_FALSE(test, exists("global", "trace1"));
	KUNIT_EXPECT_TRUE(test, trace->rchan->is_global);
	trace_cleanup(trace);
	KUNIT_EXPECT_FALSE(test, exists(NULL, NULL));
}

static const struct {
	const char	*root, *name;
	u32		size, nr, flags;
	int		err;
} bad_setups[] = {
	{ ROOT, "ch", 0, 8, 0, -EINVAL },
	{ ROOT, "ch", 1000, 8, 0, -EINVAL },
	{ ROOT, "ch", 4096, 0, 0, -EINVAL },
	{ ROOT, "ch", 4096, 1, 0, -EINVAL },
	{ ROOT, "ch", 1U << 31, 2, 0, -E2BIG },
	{ ROOT, "ch", 1U << 20, 1024, 0, -E2BIG },
	{ ROOT, "ch", 4096, 8, 0x4, -EINVAL },
	{ ROOT, "a/b", 4096, 8, 0, -EINVAL },
	{ "a/b", "ch", 4096, 8, 0, -EINVAL },
	{ ROOT, "", 4096, 8, 0, -EINVAL },
	{ ROOT, NULL, 4096, 8, 0, -EINVAL },
	{ ROOT, "..", 4096, 8, 0, -EINVAL },
	{ ROOT, "0123456789012345678901234567890123456789012345678901234567890123",
	  4096, 8, 0, -EINVAL },
};

static void test_bad_arguments_create_nothing(struct kunit *test)
{
	struct trace_info *trace;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_setups); i++) {
		trace = trace_setup(bad_setups[i].root, bad_setups[i].name,
				    bad_setups[i].size, bad_setups[i].nr,
				    bad_setups[i].flags);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(trace),
				    bad_setups[i].err, "bad setup %u", i);
		if (!IS_ERR(trace))
			trace_cleanup(trace);
		KUNIT_EXPECT_FALSE_MSG(test, exists(NULL, NULL),
				       "bad setup %u left the root", i);
	}
}

static void test_duplicate_is_refused_and_the_root_shared(struct kunit *test)
{
	struct trace_info *one, *two, *dup;

	one = trace_setup(ROOT, "one", 4096, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(one));
	two = trace_setup(ROOT, "two", 4096, 2, TRACE_GLOBAL_CHANNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(two));
	dup = trace_setup(ROOT, "one", 4096, 2, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(dup), -EEXIST);
	KUNIT_EXPECT_TRUE(test, exists("one", "trace0"));

	trace_cleanup(one);
	KUNIT_EXPECT_FALSE(test, exists("one", NULL));
	KUNIT_EXPECT_TRUE(test, exists("two", "state"));
	trace_cleanup(two);
	KUNIT_EXPECT_FALSE(test, exists(NULL, NULL));
}

static void test_state_machine(struct kunit *test)
{
	struct trace_info *trace;

	trace = trace_setup(ROOT, "state", 4096, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	KUNIT_EXPECT_FALSE(test, trace_running(trace));
	KUNIT_EXPECT_EQ(test, trace_stop(trace), -EINVAL);
	KUNIT_EXPECT_EQ(test, trace_start(trace), 0);
	KUNIT_EXPECT_TRUE(test, trace_running(trace));
	KUNIT_EXPECT_EQ(test, trace_stop(trace), 0);
	KUNIT_EXPECT_FALSE(test, trace_running(trace));
	KUNIT_EXPECT_EQ(test, trace->state, TRACE_STOPPED);
	KUNIT_EXPECT_EQ(test, trace_start(trace), 0);
	KUNIT_EXPECT_TRUE(test, trace_running(trace));
	trace_cleanup(trace);
}

/* @nr records of 100 bytes: 10 fit in a sub-buffer of 1024. */
static void write_records(struct trace_info *trace, unsigned int nr)
{
	char record[100];
	unsigned int i;

	memset(record, 'r', sizeof(record));
	for (i = 0; i < nr; i++)
		relay_write(trace->rchan, record, sizeof(record));
}

static void test_full_buffer_drops_exactly(struct kunit *test)
{
	struct trace_info *trace;

	trace = trace_setup(ROOT, "drop", 1024, 2, TRACE_GLOBAL_CHANNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	trace_start(trace);
	write_records(trace, 100);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&trace->dropped), 80L);
	trace_cleanup(trace);

	trace = trace_setup(ROOT, "flight", 1024, 2,
			    TRACE_GLOBAL_CHANNEL | TRACE_FLIGHT_CHANNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	trace_start(trace);
	write_records(trace, 100);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&trace->dropped), 0L);
	KUNIT_EXPECT_EQ(test, trace->rchan->last_toobig, 0UL);
	trace_cleanup(trace);
}

/*
 * Stopping a full non-overwrite buffer finishes its sub-buffer but refuses
 * no record: dropped stays what the writes made it.
 */
static void test_stop_on_a_full_buffer_drops_nothing(struct kunit *test)
{
	struct trace_info *trace;

	trace = trace_setup(ROOT, "stopfull", 1024, 2, TRACE_GLOBAL_CHANNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	trace_start(trace);
	write_records(trace, 100);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&trace->dropped), 80L);
	KUNIT_EXPECT_EQ(test, trace_stop(trace), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&trace->dropped), 80L);
	trace_cleanup(trace);
}

/*
 * A stop that finishes the last free sub-buffer fills the buffer: relay
 * then asks for a next sub-buffer that is not there, which must not count
 * as a drop (no record was refused).  15 records of 100 bytes in two
 * sub-buffers of 1024: one full, one with 5 records; after the stop both
 * are produced and nothing was dropped.
 */
static void test_stop_finishing_the_last_subbuf_drops_nothing(struct kunit *test)
{
	struct trace_info *trace;
	struct rchan_buf *buf;

	trace = trace_setup(ROOT, "stoplast", 1024, 2, TRACE_GLOBAL_CHANNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	buf = *per_cpu_ptr(trace->rchan->buf, 0);
	trace_start(trace);
	write_records(trace, 15);
	KUNIT_EXPECT_EQ(test, buf->subbufs_produced, 1UL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&trace->dropped), 0L);
	KUNIT_EXPECT_EQ(test, trace_stop(trace), 0);
	KUNIT_EXPECT_EQ(test, buf->subbufs_produced, 2UL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&trace->dropped), 0L);
	trace_cleanup(trace);
}

/*
 * Stopping and starting with nobody reading costs no buffer space: after
 * twice as many stops as sub-buffers, ten records still fit, and a stop
 * after them makes one sub-buffer readable for poll().
 */
static void test_stop_start_keeps_the_buffer(struct kunit *test)
{
	struct trace_info *trace;
	struct rchan_buf *buf;
	unsigned int i;

	trace = trace_setup(ROOT, "stopstart", 1024, 4, TRACE_GLOBAL_CHANNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	buf = *per_cpu_ptr(trace->rchan->buf, 0);
	for (i = 0; i < 8; i++) {
		trace_start(trace);
		KUNIT_EXPECT_EQ(test, trace_stop(trace), 0);
	}
	KUNIT_EXPECT_EQ(test, buf->subbufs_produced, 0UL);
	trace_start(trace);
	write_records(trace, 10);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&trace->dropped), 0L);
	KUNIT_EXPECT_EQ(test, trace_stop(trace), 0);
	KUNIT_EXPECT_EQ(test, buf->subbufs_produced, 1UL);
	KUNIT_EXPECT_EQ(test, buf->padding[0], 24UL);
	trace_cleanup(trace);
}

/*
 * A writer caught inside its record by trace_stop() or trace_cleanup(): it
 * saw the channel running, then spins (up to WINDOW_MS) until the call
 * under test returns, then writes.  The call must not return first.
 */
#define WINDOW_MS	300
#define WINDOW_STEP_US	10

struct window {
	struct trace_info	*trace;
	struct trace_info	*published;	/* the provider's pointer */
	bool			irqs_off;	/* else preemptible */
	bool			any_state;	/* enter stopped channels too */
	struct completion	inside;
	bool			returned;	/* the call under test */
	bool			late;		/* it returned first */
	bool			entered;
};

static int window_writer(void *data)
{
	struct window *w = data;
	struct trace_info *trace;
	unsigned int i;

	if (w->irqs_off)
		local_irq_disable();
	trace = READ_ONCE(w->published);
	if (trace && (w->any_state || trace_running(trace))) {
		w->entered = true;
		complete(&w->inside);
		/*
		 * Busy, not sleeping, and counted in delays: with interrupts
		 * off, neither jiffies nor (under QEMU) sched_clock() moves.
		 */
		for (i = 0; i < WINDOW_MS * 1000 / WINDOW_STEP_US &&
		     !READ_ONCE(w->returned); i++)
			udelay(WINDOW_STEP_US);
		w->late = READ_ONCE(w->returned);
		if (trace_running(trace))
			relay_write(trace->rchan, "late\n", 5);
	} else {
		complete(&w->inside);
	}
	if (w->irqs_off)
		local_irq_enable();
	return 0;
}

/* Run window_writer() on another CPU than ours until it is inside. */
static struct task_struct *window_start(struct kunit *test, struct window *w)
{
	struct task_struct *task;
	int cpu = raw_smp_processor_id();

	task = kthread_create(window_writer, w, "gtsc_kunit_writer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	kthread_bind(task, cpumask_any_but(cpu_online_mask, cpu));
	get_task_struct(task);
	/* Stay off the writer's CPU, or it would run only after us. */
	set_cpus_allowed_ptr(current, cpumask_of(cpu));
	wake_up_process(task);
	wait_for_completion(&w->inside);
	return task;
}

static void window_end(struct window *w, struct task_struct *task)
{
	WRITE_ONCE(w->returned, true);
	kthread_stop(task);
	put_task_struct(task);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/*
 * The documented pattern from preemptible process context: trace_running(),
 * then relay_write().  trace_stop() must wait for a writer preempted
 * between the two before it finishes the sub-buffer the writer writes.
 */
static void test_stop_waits_for_a_preempted_writer(struct kunit *test)
{
	struct window w = { .irqs_off = false };
	struct task_struct *task;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	w.trace = trace_setup(ROOT, "preempted", 4096, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(w.trace));
	w.published = w.trace;
	init_completion(&w.inside);
	trace_start(w.trace);
	task = window_start(test, &w);
	KUNIT_EXPECT_TRUE(test, w.entered);
	KUNIT_EXPECT_EQ(test, trace_stop(w.trace), 0);
	window_end(&w, task);
	KUNIT_EXPECT_FALSE_MSG(test, w.late,
			       "trace_stop() returned while a writer was inside its record");
	trace_cleanup(w.trace);
}

/*
 * A provider whose hook (interrupts off, as kmemtrace's) loads the channel
 * from its own pointer: it clears the pointer, then trace_cleanup() must
 * wait for a hook that loaded it before freeing the channel.
 */
static void test_cleanup_waits_for_a_writer(struct kunit *test)
{
	struct window w = { .irqs_off = true };
	struct task_struct *task;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	w.trace = trace_setup(ROOT, "cleanup", 4096, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(w.trace));
	w.published = w.trace;
	init_completion(&w.inside);
	trace_start(w.trace);
	task = window_start(test, &w);
	KUNIT_EXPECT_TRUE(test, w.entered);
	WRITE_ONCE(w.published, NULL);
	trace_cleanup(w.trace);
	window_end(&w, task);
	KUNIT_EXPECT_FALSE_MSG(test, w.late,
			       "trace_cleanup() returned while a writer was inside its record");
}

/*
 * The same hook, having loaded the pointer to a channel stopped already:
 * it still tests trace_running() on it, so trace_cleanup() must wait for
 * it too (kmemtrace's resize cleans up stopped channels).
 */
static void test_cleanup_of_a_stopped_channel_waits(struct kunit *test)
{
	struct window w = { .irqs_off = true, .any_state = true };
	struct task_struct *task;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	w.trace = trace_setup(ROOT, "stopped", 4096, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(w.trace));
	w.published = w.trace;
	init_completion(&w.inside);
	trace_start(w.trace);
	KUNIT_EXPECT_EQ(test, trace_stop(w.trace), 0);
	task = window_start(test, &w);
	KUNIT_EXPECT_TRUE(test, w.entered);
	WRITE_ONCE(w.published, NULL);
	trace_cleanup(w.trace);
	window_end(&w, task);
	KUNIT_EXPECT_FALSE_MSG(test, w.late,
			       "trace_cleanup() returned while a writer held the channel");
}

static void test_failed_steps_unwind_completely(struct kunit *test)
{
	struct trace_info *trace;
	enum gtsc_setup_step step;

	for (step = GTSC_STEP_INFO; step < GTSC_NR_STEPS; step++) {
		gtsc_fail_setup_step(step);
		trace = trace_setup(ROOT, "fail", 4096, 2, 0);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(trace), -ENOMEM,
				    "step %d", step);
		if (!IS_ERR(trace))
			trace_cleanup(trace);
		KUNIT_EXPECT_FALSE_MSG(test, exists(NULL, NULL),
				       "step %d left the root", step);
	}
	gtsc_fail_setup_step(GTSC_STEP_NONE);
	trace = trace_setup(ROOT, "fail", 4096, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	trace_cleanup(trace);
}

/*
 * A buffers-only channel puts <base>0..N in the caller's directory, no
 * control files, refuses when full like any channel, and its cleanup
 * removes the buffer files and nothing else; a failed relay_open() leaves
 * nothing.
 */
static void test_buffers_only_channel(struct kunit *test)
{
	struct dentry *dir, *f;
	struct trace_info *trace;
	char name[16];
	int cpu;

	dir = debugfs_create_dir(ROOT, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dir));
	trace = trace_setup_buffers(dir, "cpu", 1024, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(trace));
	for_each_online_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		f = debugfs_lookup(name, dir);
		KUNIT_EXPECT_NOT_NULL_MSG(test, f, "%s", name);
		dput(f);
	}
	f = debugfs_lookup("state", dir);
	KUNIT_EXPECT_NULL(test, f);
	dput(f);
	trace_start(trace);
	preempt_disable();
	write_records(trace, 100);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, atomic_long_read(&trace->dropped), 80L);
	KUNIT_EXPECT_EQ(test, trace_stop(trace), 0);
	trace_cleanup(trace);
	f = debugfs_lookup("cpu0", dir);
	KUNIT_EXPECT_NULL(test, f);
	dput(f);

	gtsc_fail_setup_step(GTSC_STEP_RELAY);
	trace = trace_setup_buffers(dir, "cpu", 1024, 2, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(trace), -ENOMEM);
	f = debugfs_lookup("cpu0", dir);
	KUNIT_EXPECT_NULL(test, f);
	dput(f);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(trace_setup_buffers(dir, "a/b", 1024, 2, 0)),
			-EINVAL);
	debugfs_remove(dir);
}

static struct kunit_case gtsc_test_cases[] = {
	KUNIT_CASE(test_setup_makes_the_files),
	KUNIT_CASE(test_global_channel_has_trace0_only),
	KUNIT_CASE(test_bad_arguments_create_nothing),
	KUNIT_CASE(test_duplicate_is_refused_and_the_root_shared),
	KUNIT_CASE(test_state_machine),
	KUNIT_CASE(test_full_buffer_drops_exactly),
	KUNIT_CASE(test_stop_on_a_full_buffer_drops_nothing),
	KUNIT_CASE(test_stop_finishing_the_last_subbuf_drops_nothing),
	KUNIT_CASE(test_stop_start_keeps_the_buffer),
	KUNIT_CASE(test_stop_waits_for_a_preempted_writer),
	KUNIT_CASE(test_cleanup_waits_for_a_writer),
	KUNIT_CASE(test_cleanup_of_a_stopped_channel_waits),
	KUNIT_CASE(test_failed_steps_unwind_completely),
	KUNIT_CASE(test_buffers_only_channel),
	{}
};

static struct kunit_suite gtsc_test_suite = {
	.name = "gtsc",
	.test_cases = gtsc_test_cases,
};

kunit_test_suite(gtsc_test_suite);

MODULE_DESCRIPTION("KUnit tests for GTSC setup and teardown");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(GTSC_KUNIT);
