// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the ringtrace event registry.
 *
 * Registers test events under the system "rtkunit" and checks what the
 * registry promises: a dynamic id, refusal of duplicates, bad names and
 * aliases of no field with nothing left behind, ids given again only after
 * the buffer is emptied (by a clear or a resize that succeeds, counting
 * only events gone before it began), the release callback after
 * unregistering (or, for an event that retires, after the buffer resets,
 * its id still found until then), and that a submitted record reaches the
 * trace buffer with its common fields filled in (read back with
 * rtb_consume() on the CPU the test runs on).
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/ringtrace_events.h>
#include <linux/sched.h>

#include "core.h"
#include "trace.h"

struct test_record {
	struct ringtrace_entry	ent;
	u64			val;
};

static const struct ringtrace_event_field test_fields[] = {
	{ "val", "u64", offsetof(struct test_record, val), sizeof(u64),
	  false, false },
};

static const struct ringtrace_event_alias test_aliases[] = {
	{ "v", "val" },
};

static const struct ringtrace_event_alias bad_aliases[] = {
	{ "w", "nosuch" },
};

static int releases;

static void test_output(struct ringtrace_event *event, struct seq_buf *s,
			const struct ringtrace_entry *entry, unsigned int size)
{
	seq_buf_printf(s, "val=%llu", ((const struct test_record *)entry)->val);
}

static void test_release(struct ringtrace_event *event)
{
	releases++;
}

static const struct ringtrace_event_ops test_ops = {
	.output		= test_output,
	.release	= test_release,
};

static void init_event(struct ringtrace_event *event, const char *name)
{
	memset(event, 0, sizeof(*event));
	event->system = "rtkunit";
	event->name = name;
	event->fields = test_fields;
	event->nr_fields = ARRAY_SIZE(test_fields);
	event->aliases = test_aliases;
	event->nr_aliases = ARRAY_SIZE(test_aliases);
	event->print_fmt = "\"val=%llu\", REC->val";
	event->ops = &test_ops;
}

static void test_register_gives_id_and_release_follows(struct kunit *test)
{
	struct ringtrace_event event;

	init_event(&event, "ev1");
	releases = 0;
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&event), 0);
	KUNIT_EXPECT_GE(test, event.id, RINGTRACE_FIRST_DYNAMIC_TYPE);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, event.dir);
	KUNIT_EXPECT_FALSE(test, ringtrace_event_wanted(&event));
	ringtrace_event_unregister(&event);
	KUNIT_EXPECT_EQ(test, releases, 1);
}

static void test_duplicates_and_bad_input_leave_nothing(struct kunit *test)
{
	struct ringtrace_event event, twin;

	init_event(&event, "ev2");
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&event), 0);
	init_event(&twin, "ev2");
	KUNIT_EXPECT_EQ(test, ringtrace_event_register(&twin), -EEXIST);
	KUNIT_EXPECT_EQ(test, twin.id, 0);
	KUNIT_EXPECT_NULL(test, twin.filter_fields);
	ringtrace_event_unregister(&event);

	init_event(&event, "ev3");
	event.aliases = bad_aliases;
	KUNIT_EXPECT_EQ(test, ringtrace_event_register(&event), -EINVAL);
	KUNIT_EXPECT_EQ(test, event.id, 0);
	/* The name is free: nothing was left of the failed attempt. */
	init_event(&event, "ev3");
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&event), 0);
	ringtrace_event_unregister(&event);

	init_event(&event, "a/b");
	KUNIT_EXPECT_EQ(test, ringtrace_event_register(&event), -EINVAL);
	init_event(&event, "");
	KUNIT_EXPECT_EQ(test, ringtrace_event_register(&event), -EINVAL);
	init_event(&event, "ev4");
	event.print_fmt = NULL;
	KUNIT_EXPECT_EQ(test, ringtrace_event_register(&event), -EINVAL);
}

/* The lowest free id: ida hands out the lowest free one. */
static unsigned short probe_lowest_free_id(struct kunit *test)
{
	struct ringtrace_event probe;
	unsigned short id;

	init_event(&probe, "probe_id");
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&probe), 0);
	id = probe.id;
	ringtrace_event_unregister(&probe);
	return id;
}

static void test_ids_come_back_after_a_reset(struct kunit *test)
{
	struct ringtrace_event event, other;
	unsigned short id;

	/* Every parked id free: ev5 gets the lowest, and gets it back. */
	ringtrace_trace_clear();
	init_event(&event, "ev5");
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&event), 0);
	id = event.id;
	ringtrace_event_unregister(&event);
	/* Its records may be in the buffer: the id is not given again. */
	init_event(&other, "ev6");
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&other), 0);
	KUNIT_EXPECT_NE(test, other.id, id);
	ringtrace_event_unregister(&other);

	ringtrace_trace_clear();
	KUNIT_EXPECT_EQ(test, probe_lowest_free_id(test), id);
	ringtrace_trace_clear();
}

struct pushed_event {
	struct ringtrace_event	event;
	char			name[16];
};

static void test_pushed_out_retired_id_is_not_reused(struct kunit *test)
{
	const int n = 65;	/* one more than the retired list keeps */
	struct ringtrace_event other;
	struct pushed_event *pe;
	unsigned short first;
	int i, before;

	/*
	 * Not test-managed: retired events stay listed after a failed
	 * assertion, so they must outlive the test then.
	 */
	pe = kcalloc(n, sizeof(*pe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pe);
	ringtrace_trace_clear();
	before = releases;
	for (i = 0; i < n; i++) {
		snprintf(pe[i].name, sizeof(pe[i].name), "old%d", i);
		init_event(&pe[i].event, pe[i].name);
		pe[i].event.retire = true;
		KUNIT_ASSERT_EQ(test, ringtrace_event_register(&pe[i].event), 0);
		ringtrace_event_unregister(&pe[i].event);
	}
	first = pe[0].event.id;
	/* The oldest is pushed out: released, no longer found... */
	KUNIT_EXPECT_EQ(test, releases, before + 1);
	mutex_lock(&ringtrace_events_lock);
	KUNIT_EXPECT_NULL(test, ringtrace_event_find(first));
	KUNIT_EXPECT_PTR_EQ(test, ringtrace_event_find(pe[1].event.id),
			    &pe[1].event);
	mutex_unlock(&ringtrace_events_lock);
	/* ...but its id is not given to a new event before a reset. */
	init_event(&other, "new");
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&other), 0);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_NE(test, other.id, pe[i].event.id);
	ringtrace_event_unregister(&other);

	ringtrace_trace_clear();
	KUNIT_EXPECT_EQ(test, releases, before + n + 1);	/* and "new" */
	KUNIT_EXPECT_EQ(test, probe_lowest_free_id(test), first);
	ringtrace_trace_clear();
	kfree(pe);
}

static void test_reserve_fills_common_fields(struct kunit *test)
{
	struct rtb_buffer *buffer = ringtrace_trace_buffer();
	struct test_record rec = { .val = 0x1234abcd }, *in_place;
	struct ringtrace_reservation res;
	struct ringtrace_event event;
	struct test_record *got;
	struct rtb_event *rev;
	bool found = false;
	int cpu, ret;

	KUNIT_ASSERT_NOT_NULL(test, buffer);
	cpu = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	init_event(&event, "ev7");
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&event), 0);
	/* Disabled: refused. */
	KUNIT_EXPECT_NULL(test, ringtrace_event_reserve(&event, sizeof(rec),
							&res));
	ringtrace_event_unregister(&event);
	init_event(&event, "ev7");
	event.always_on = true;
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&event), 0);
	/* Built in place: only the fields after the common ones are ours. */
	in_place = ringtrace_event_reserve(&event, sizeof(rec), &res);
	KUNIT_ASSERT_NOT_NULL(test, in_place);
	in_place->val = rec.val;
	ret = ringtrace_event_commit(&event, &res);
	KUNIT_EXPECT_EQ(test, ret, 0);
	/* Keeps the records valid while checked: trace_pipe may be reading. */
	ringtrace_access_lock(cpu);
	while (!found && (rev = rtb_consume(buffer, cpu, NULL, NULL))) {
		got = rtb_event_data(rev);
		if (got->ent.common_type != event.id)
			continue;
		found = true;
		KUNIT_EXPECT_EQ(test, got->ent.common_pid, current->pid);
		KUNIT_EXPECT_EQ(test, got->ent.common_tgid, current->tgid);
		KUNIT_EXPECT_EQ(test, got->val, 0x1234abcdULL);
	}
	ringtrace_access_unlock(cpu);
	KUNIT_EXPECT_TRUE(test, found);
	ringtrace_event_unregister(&event);
}

static void test_retired_event_lives_until_the_buffer_resets(struct kunit *test)
{
	struct ringtrace_event event;
	int before;

	init_event(&event, "ev8");
	event.retire = true;
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&event), 0);
	before = releases;
	ringtrace_event_unregister(&event);
	KUNIT_EXPECT_EQ(test, releases, before);
	mutex_lock(&ringtrace_events_lock);
	KUNIT_EXPECT_PTR_EQ(test, ringtrace_event_find(event.id), &event);
	mutex_unlock(&ringtrace_events_lock);

	ringtrace_trace_clear();
	KUNIT_EXPECT_EQ(test, releases, before + 1);
	mutex_lock(&ringtrace_events_lock);
	KUNIT_EXPECT_NULL(test, ringtrace_event_find(event.id));
	mutex_unlock(&ringtrace_events_lock);
}

/*
 * An event that retires while the buffer is being emptied may have records
 * written after the emptying: the reset must not forget it.
 */
static void test_retired_during_a_reset_outlives_it(struct kunit *test)
{
	struct ringtrace_event event;
	int before;

	init_event(&event, "ev9");
	event.retire = true;
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&event), 0);
	before = releases;
	ringtrace_events_reset_begin();
	rtb_reset(ringtrace_trace_buffer());
	/* A record here survives the reset. */
	ringtrace_event_unregister(&event);
	ringtrace_events_reset_end(true);
	KUNIT_EXPECT_EQ(test, releases, before);
	mutex_lock(&ringtrace_events_lock);
	KUNIT_EXPECT_PTR_EQ(test, ringtrace_event_find(event.id), &event);
	mutex_unlock(&ringtrace_events_lock);

	ringtrace_trace_clear();
	KUNIT_EXPECT_EQ(test, releases, before + 1);
}

/* A resize empties the buffer: it forgets; one that fails keeps. */
static void test_resize_forgets_only_if_it_succeeds(struct kunit *test)
{
	struct rtb_buffer *buffer = ringtrace_trace_buffer();
	unsigned long kb = ringtrace_trace_kb();
	struct ringtrace_event event;
	struct rtb_iter *iter;
	int before, ret;

	init_event(&event, "ev10");
	event.retire = true;
	KUNIT_ASSERT_EQ(test, ringtrace_event_register(&event), 0);
	before = releases;
	ringtrace_event_unregister(&event);
	/* An iterator reading the ring in place makes the resize fail. */
	iter = rtb_read_start(buffer, raw_smp_processor_id());
	KUNIT_EXPECT_NOT_NULL(test, iter);
	ret = iter ? ringtrace_trace_resize(kb) : -ENOMEM;
	if (iter)
		rtb_read_finish(iter);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_EQ(test, releases, before);
	mutex_lock(&ringtrace_events_lock);
	KUNIT_EXPECT_PTR_EQ(test, ringtrace_event_find(event.id), &event);
	mutex_unlock(&ringtrace_events_lock);

	KUNIT_EXPECT_EQ(test, ringtrace_trace_resize(kb), 0);
	KUNIT_EXPECT_EQ(test, releases, before + 1);
	mutex_lock(&ringtrace_events_lock);
	KUNIT_EXPECT_NULL(test, ringtrace_event_find(event.id));
	mutex_unlock(&ringtrace_events_lock);
}

static struct kunit_case rte_test_cases[] = {
	KUNIT_CASE(test_register_gives_id_and_release_follows),
	KUNIT_CASE(test_duplicates_and_bad_input_leave_nothing),
	KUNIT_CASE(test_ids_come_back_after_a_reset),
	KUNIT_CASE(test_pushed_out_retired_id_is_not_reused),
	KUNIT_CASE(test_reserve_fills_common_fields),
	KUNIT_CASE(test_retired_event_lives_until_the_buffer_resets),
	KUNIT_CASE(test_retired_during_a_reset_outlives_it),
	KUNIT_CASE(test_resize_forgets_only_if_it_succeeds),
	{}
};

static struct kunit_suite rte_test_suite = {
	.name = "ringtrace_events",
	.test_cases = rte_test_cases,
};

kunit_test_suite(rte_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ringtrace event registry");
MODULE_LICENSE("GPL");
