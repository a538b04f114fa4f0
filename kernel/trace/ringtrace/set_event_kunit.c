// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for set_event's words (set_event.c): what each form of
 * "[!][SYSTEM:]EVENT" selects, as Documentation/trace/ringtrace.rst
 * ("set_event") and upstream's set_event describe them, and the words
 * that name nothing.  The selectors are compared with the ones each case
 * writes out itself; no event needs to exist.
 */

#include <kunit/test.h>
#include <linux/string.h>

#include "core.h"

/* What a word should select: NULL for "any". */
struct word_case {
	const char	*word;
	const char	*system;
	const char	*name;
	const char	*either;
	bool		on;
};

static const struct word_case good_words[] = {
	{ "sched:sched_switch", "sched", "sched_switch", NULL, true },
	{ "!sched:sched_switch", "sched", "sched_switch", NULL, false },
	/* A word without ':' is a system or an event, whichever exists. */
	{ "irq", NULL, NULL, "irq", true },
	{ "!irq", NULL, NULL, "irq", false },
	{ "sched:*", "sched", NULL, NULL, true },
	{ "sched:", "sched", NULL, NULL, true },
	{ "*:sched_switch", NULL, "sched_switch", NULL, true },
	{ ":sched_switch", NULL, "sched_switch", NULL, true },
	{ "*:*", NULL, NULL, NULL, true },
	{ "*", NULL, NULL, NULL, true },
	{ "!*", NULL, NULL, NULL, false },
	/* "!" only at the start: inside, it is part of the name. */
	{ "a!b", NULL, NULL, "a!b", true },
};

static void word_case_desc(const struct word_case *c, char *desc)
{
	strscpy(desc, c->word, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(good_word, good_words, word_case_desc);

static void expect_part(struct kunit *test, const char *what,
			const char *got, const char *want)
{
	if (!want) {
		KUNIT_EXPECT_NULL_MSG(test, got, "%s should be any", what);
		return;
	}
	KUNIT_EXPECT_NOT_NULL_MSG(test, got, "%s should be %s", what, want);
	if (got)
		KUNIT_EXPECT_STREQ_MSG(test, got, want, "%s", what);
}

static void test_word_selects_what_it_names(struct kunit *test)
{
	const struct word_case *c = test->param_value;
	struct ringtrace_event_selector sel = {};
	char word[64];

	strscpy(word, c->word, sizeof(word));
	KUNIT_ASSERT_EQ(test, ringtrace_set_event_parse(word, &sel), 0);
	expect_part(test, "system", sel.system, c->system);
	expect_part(test, "name", sel.name, c->name);
	expect_part(test, "either", sel.either, c->either);
	KUNIT_EXPECT_EQ(test, sel.on, c->on);
}

static const char *const bad_words[] = { "", "!", "a:b:c", "!a:b:", "::" };

static void test_word_naming_nothing_is_refused(struct kunit *test)
{
	struct ringtrace_event_selector sel;
	unsigned int i;
	char word[16];

	for (i = 0; i < ARRAY_SIZE(bad_words); i++) {
		memset(&sel, 0, sizeof(sel));
		strscpy(word, bad_words[i], sizeof(word));
		KUNIT_EXPECT_EQ_MSG(test, ringtrace_set_event_parse(word, &sel),
				    -EINVAL, "word \"%s\"", bad_words[i]);
	}
}

static struct kunit_case set_event_cases[] = {
	KUNIT_CASE_PARAM(test_word_selects_what_it_names, good_word_gen_params),
	KUNIT_CASE(test_word_naming_nothing_is_refused),
	{}
};

static struct kunit_suite set_event_suite = {
	.name = "ringtrace_set_event",
	.test_cases = set_event_cases,
};

kunit_test_suite(set_event_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit suite for ringtrace's set_event words");
