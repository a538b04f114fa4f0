// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for ringtrace event filters.
 *
 * Compiles expressions against the fields of one test record and checks
 * what rtf_match() says about it (tables of expressions with the expected
 * answer), and that malformed expressions are refused with the position
 * and reason rtf_compile() reports (a table of 40 of them), including
 * nesting and length limits.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "filter.h"

struct test_record {
	u16	common_type;
	u8	common_flags;
	u8	common_preempt_count;
	s32	common_pid;
	s32	common_tgid;
	u32	pad;
	u64	arg0;
	s8	small;
	u8	usmall;
	u16	pad2;
	u32	mask;
	char	comm[16];
	s64	delta;
};

#define OFF(member)	offsetof(struct test_record, member)
#define SIZE(member)	sizeof_field(struct test_record, member)

static const struct rtf_field test_fields[] = {
	{ "common_pid", OFF(common_pid), SIZE(common_pid), true, false },
	{ "arg0", OFF(arg0), SIZE(arg0), false, false },
	{ "a0", OFF(arg0), SIZE(arg0), false, false },	/* an alias */
	{ "small", OFF(small), SIZE(small), true, false },
	{ "usmall", OFF(usmall), SIZE(usmall), false, false },
	{ "mask", OFF(mask), SIZE(mask), false, false },
	{ "comm", OFF(comm), SIZE(comm), false, true },
	{ "delta", OFF(delta), SIZE(delta), true, false },
};

static const struct test_record test_rec = {
	.common_pid = 42,
	.arg0 = 0x8000,
	.small = -5,
	.usmall = 200,
	.mask = 0x6,
	.comm = "bash",
	.delta = -100000,
};

static struct rtf_prog *compile(struct kunit *test, const char *expr)
{
	struct rtf_error err = {};
	struct rtf_prog *prog;

	prog = rtf_compile(expr, test_fields, ARRAY_SIZE(test_fields), &err);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(prog), "\"%s\" refused at %u: %s",
			       expr, err.pos, err.msg);
	return prog;
}

static void expect_match(struct kunit *test, const char *expr, bool want)
{
	struct rtf_prog *prog = compile(test, expr);

	KUNIT_EXPECT_EQ_MSG(test, rtf_match(prog, &test_rec, sizeof(test_rec)),
			    want, "filter \"%s\"", expr);
	rtf_free(prog);
}

static const struct {
	const char *expr;
	bool match;
} match_table[] = {
	{ "common_pid == 42", true },
	{ "common_pid != 42", false },
	{ "common_pid < 43", true },
	{ "common_pid <= 42", true },
	{ "common_pid > 42", false },
	{ "common_pid >= 42", true },
	{ "arg0 == 0x8000", true },
	{ "a0 == 32768", true },
	{ "arg0 & 0x8000", true },
	{ "arg0 & 0x7fff", false },
	{ "small < 0", true },
	{ "small == -5", true },
	{ "usmall > 100", true },
	{ "mask & 4", true },
	{ "mask & 1", false },
	{ "delta < -99999", true },
	{ "delta >= 0", false },
	{ "comm == bash", true },
	{ "comm == \"bash\"", true },
	{ "comm == 'bash'", true },
	{ "comm != bash", false },
	{ "comm == ba", false },
	{ "comm == bashx", false },
	{ "comm ~ \"ba*\"", true },
	{ "comm ~ \"*sh\"", true },
	{ "comm ~ \"b?sh\"", true },
	{ "comm ~ \"*\"", true },
	{ "comm ~ \"z*\"", false },
	{ "comm ~ \"*a*b*\"", false },
	{ "!common_pid == 42", false },
	{ "!(common_pid == 1)", true },
	{ "!!(common_pid == 42)", true },
	{ "common_pid == 1 || arg0 == 0x8000", true },
	{ "common_pid == 42 && arg0 == 1", false },
	{ "common_pid == 1 || common_pid == 2 || common_pid == 42", true },
	{ "(common_pid == 42 || a0 == 0) && !(comm ~ \"z*\")", true },
	{ "common_pid==42&&small<0", true },
	/* && binds tighter than ||. */
	{ "common_pid == 1 && arg0 == 1 || mask & 2", true },
	{ "mask & 2 || common_pid == 1 && arg0 == 1", true },
	{ "common_pid == 1 && (arg0 == 1 || mask & 2)", false },
	{ "!(mask & 2 || common_pid == 1)", false },
};

static void test_filters_match_as_written(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(match_table); i++)
		expect_match(test, match_table[i].expr, match_table[i].match);
}

static const struct {
	const char *expr;
	unsigned int pos;
	const char *msg;
} bad_table[] = {
	{ "", 0, "empty filter" },
	{ "   ", 3, "empty filter" },
	{ "nosuch == 1", 0, "no such field" },
	{ "c0mm == x", 0, "no such field" },
	{ "1 == common_pid", 0, "expected a field name" },
	{ "&& common_pid == 1", 0, "expected a field name" },
	{ "common_pid", 10, "expected an operator" },
	{ "common_pid =", 11, "expected an operator" },
	{ "common_pid = 1", 11, "expected an operator" },
	{ "common_pid == ", 14, "expected a value" },
	{ "comm ~ ", 7, "expected a value" },
	{ "common_pid & ", 13, "expected a value" },
	{ "common_pid == abc", 14, "not a number" },
	{ "common_pid == 0x", 14, "not a number" },
	{ "common_pid === 1", 13, "not a number" },
	{ "common_pid >> 1", 12, "not a number" },
	{ "common_pid <> 1", 12, "not a number" },
	{ "common_pid == \"42\"", 14, "expected a number" },
	{ "usmall == 256", 10, "value out of range" },
	{ "usmall == -1", 10, "value out of range" },
	{ "small == 128", 9, "value out of range" },
	{ "small == -129", 9, "value out of range" },
	{ "common_pid == 99999999999", 14, "value out of range" },
	{ "arg0 == -1", 8, "value out of range" },
	{ "comm < bash", 5, "strings compare with" },
	{ "comm & 1", 5, "strings compare with" },
	{ "common_pid ~ 1", 11, "~ compares strings only" },
	{ "comm == \"bash", 8, "unterminated string" },
	{ "common_pid == 1 &&", 18, "expected a predicate" },
	{ "common_pid == 1 ||", 18, "expected a predicate" },
	{ "!", 1, "expected a predicate" },
	{ "()", 1, "expected a field name" },
	{ "common_pid == 1 ||| arg0 == 1", 18, "expected a field name" },
	{ "common_pid == 1 &&& 2", 18, "expected a field name" },
	{ "(common_pid == 1", 16, "expected )" },
	{ "((((common_pid == 1)))", 22, "expected )" },
	{ "common_pid == 1 || (arg0 == 2", 29, "expected )" },
	{ "common_pid == 1)", 15, "unbalanced )" },
	{ "common_pid == 1 common_pid == 2", 16, "expected && or ||" },
	{ "comm == bash extra", 13, "expected && or ||" },
	{ "common_pid == 1 & & 2", 16, "expected && or ||" },
};

static void test_bad_filters_say_where_and_why(struct kunit *test)
{
	struct rtf_error err;
	struct rtf_prog *prog;
	unsigned int i;

	KUNIT_EXPECT_GE(test, ARRAY_SIZE(bad_table), 40UL);
	for (i = 0; i < ARRAY_SIZE(bad_table); i++) {
		memset(&err, 0, sizeof(err));
		prog = rtf_compile(bad_table[i].expr, test_fields,
				   ARRAY_SIZE(test_fields), &err);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(prog), -EINVAL,
				    "\"%s\" accepted", bad_table[i].expr);
		if (!IS_ERR(prog)) {
			rtf_free(prog);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, err.pos, bad_table[i].pos,
				    "\"%s\": %s", bad_table[i].expr, err.msg);
		KUNIT_EXPECT_NOT_NULL(test, err.msg);
		if (err.msg)
			KUNIT_EXPECT_NOT_NULL_MSG(test,
						  strstr(err.msg, bad_table[i].msg),
						  "\"%s\": got \"%s\"",
						  bad_table[i].expr, err.msg);
	}
}

/* @n copies of @open, the predicate, @n copies of @close. */
static char *nested(struct kunit *test, unsigned int n, const char *open,
		    const char *pred, const char *close)
{
	size_t len = n * (strlen(open) + strlen(close)) + strlen(pred) + 1;
	char *s = kunit_kzalloc(test, len, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < n; i++)
		strcat(s, open);
	strcat(s, pred);
	for (i = 0; i < n; i++)
		strcat(s, close);
	return s;
}

static void test_nesting_is_bounded(struct kunit *test)
{
	struct rtf_error err;
	struct rtf_prog *prog;

	expect_match(test, nested(test, RTF_MAX_DEPTH, "(", "common_pid == 42",
				  ")"), true);
	expect_match(test, nested(test, RTF_MAX_DEPTH, "!", "common_pid == 42",
				  ""), true);
	/* Right-nested ORs keep the most values on the evaluation stack. */
	expect_match(test, nested(test, RTF_MAX_DEPTH - 1, "common_pid == 1 || (",
				  "common_pid == 42", ")"), true);

	prog = rtf_compile(nested(test, RTF_MAX_DEPTH + 1, "(",
				  "common_pid == 42", ")"),
			   test_fields, ARRAY_SIZE(test_fields), &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(prog), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.pos, (unsigned int)RTF_MAX_DEPTH);
	KUNIT_EXPECT_STREQ(test, err.msg, "expression nested too deeply");
	prog = rtf_compile(nested(test, RTF_MAX_DEPTH + 1, "!",
				  "common_pid == 42", ""),
			   test_fields, ARRAY_SIZE(test_fields), &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(prog), -EINVAL);
}

static void test_long_expressions(struct kunit *test)
{
	char *expr = kunit_kzalloc(test, RTF_MAX_EXPR + 2, GFP_KERNEL);
	struct rtf_error err;
	struct rtf_prog *prog;
	unsigned int n = 0;

	KUNIT_ASSERT_NOT_NULL(test, expr);
	/* Many predicates, the last true. */
	while (strlen(expr) + 40 < RTF_MAX_EXPR)
		n += sprintf(expr + n, "common_pid == %u || ", 1000 + n);
	strcat(expr, "common_pid == 42");
	expect_match(test, expr, true);

	/* A long pattern for a short field. */
	memset(expr, 0, RTF_MAX_EXPR + 2);
	strcpy(expr, "comm ~ \"");
	memset(expr + 8, '*', 300);
	strcat(expr, "b*h\"");
	expect_match(test, expr, true);
	memset(expr + 8, 'x', 300);
	expect_match(test, expr, false);

	memset(expr, ' ', RTF_MAX_EXPR + 1);
	expr[RTF_MAX_EXPR + 1] = '\0';
	prog = rtf_compile(expr, test_fields, ARRAY_SIZE(test_fields), &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(prog), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err.msg, "expression too long");
}

static void test_short_record_does_not_match(struct kunit *test)
{
	struct rtf_prog *prog = compile(test, "delta < 0");

	KUNIT_EXPECT_TRUE(test, rtf_match(prog, &test_rec, sizeof(test_rec)));
	KUNIT_EXPECT_FALSE(test, rtf_match(prog, &test_rec,
					   offsetof(struct test_record, delta)));
	rtf_free(prog);
	/* No filter lets everything through. */
	KUNIT_EXPECT_TRUE(test, rtf_match(NULL, &test_rec, sizeof(test_rec)));
}

static struct kunit_case rtf_test_cases[] = {
	KUNIT_CASE(test_filters_match_as_written),
	KUNIT_CASE(test_bad_filters_say_where_and_why),
	KUNIT_CASE(test_nesting_is_bounded),
	KUNIT_CASE(test_long_expressions),
	KUNIT_CASE(test_short_record_does_not_match),
	{}
};

static struct kunit_suite rtf_test_suite = {
	.name = "ringtrace_filter",
	.test_cases = rtf_test_cases,
};

kunit_test_suite(rtf_test_suite);

MODULE_DESCRIPTION("KUnit tests for ringtrace event filters");
MODULE_LICENSE("GPL");
