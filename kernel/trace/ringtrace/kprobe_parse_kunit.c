// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the kprobe_events line parser.
 *
 * Parses the spec's example lines and lines using every fetch-arg kind,
 * name, type and limit, checking the parsed definition field by field;
 * then a table of 60 malformed lines, each of which must be refused with
 * the position of its fault (where error_log puts the caret).
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kprobe_parse.h"

static struct rtk_def *parse_ok(struct kunit *test, const char *line)
{
	struct rtk_error err = {};
	struct rtk_def *def = rtk_parse(line, false, &err);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(def), "\"%s\" refused at %u: %s",
			       line, err.pos, err.msg);
	return def;
}

static void test_spec_examples_parse(struct kunit *test)
{
	struct rtk_def *def;
	unsigned int i;

	def = parse_ok(test, "p:myprobe do_sys_open a0 a1 a2 a3");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_PROBE);
	KUNIT_EXPECT_STREQ(test, def->group, "kprobes");
	KUNIT_EXPECT_STREQ(test, def->event, "myprobe");
	KUNIT_EXPECT_STREQ(test, def->symbol, "do_sys_open");
	KUNIT_EXPECT_EQ(test, def->offset, 0UL);
	KUNIT_ASSERT_EQ(test, def->nr_args, 4U);
	for (i = 0; i < 4; i++) {
		char name[8], alias[8];

		snprintf(name, sizeof(name), "arg%u", i);
		snprintf(alias, sizeof(alias), "a%u", i);
		KUNIT_EXPECT_STREQ(test, def->args[i].name, name);
		KUNIT_EXPECT_STREQ(test, def->args[i].alias, alias);
		KUNIT_EXPECT_EQ(test, def->args[i].fetch->kind, RTK_FETCH_ARG);
		KUNIT_EXPECT_EQ(test, def->args[i].fetch->value, (long)i);
		KUNIT_EXPECT_EQ(test, def->args[i].type, RTK_TYPE_DEFAULT);
	}
	rtk_free_def(def);

	def = parse_ok(test, "r:myretprobe do_sys_open rv ra");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_RETPROBE);
	KUNIT_ASSERT_EQ(test, def->nr_args, 2U);
	KUNIT_EXPECT_EQ(test, def->args[0].fetch->kind, RTK_FETCH_RETVAL);
	KUNIT_EXPECT_STREQ(test, def->args[0].alias, "rv");
	KUNIT_EXPECT_EQ(test, def->args[1].fetch->kind, RTK_FETCH_RETADDR);
	KUNIT_EXPECT_STREQ(test, def->args[1].alias, "ra");
	rtk_free_def(def);
}

static void test_names_are_generated_from_the_point(struct kunit *test)
{
	struct rtk_def *def;

	def = parse_ok(test, "p do_sys_open+4");
	KUNIT_EXPECT_STREQ(test, def->event, "p_do_sys_open_4");
	KUNIT_EXPECT_EQ(test, def->offset, 4UL);
	rtk_free_def(def);
	def = parse_ok(test, "r do_sys_open+0");
	KUNIT_EXPECT_STREQ(test, def->event, "r_do_sys_open_0");
	rtk_free_def(def);
	def = parse_ok(test, "p 0xffffffff81000000");
	KUNIT_EXPECT_STREQ(test, def->event, "p_0xffffffff81000000");
	KUNIT_EXPECT_EQ(test, def->addr, 0xffffffff81000000UL);
	KUNIT_EXPECT_NULL(test, def->symbol);
	rtk_free_def(def);
	def = parse_ok(test, "p foo.isra.0");
	KUNIT_EXPECT_STREQ(test, def->event, "p_foo_isra_0_0");
	rtk_free_def(def);
}

/* Upstream's types and fetch-args beyond the spec's. */
static void test_upstream_types_parse(struct kunit *test)
{
	struct rtk_def *def;

	def = parse_ok(test,
		       "p f %di:b4@4/32 +8(%si):u16[3] @jiffies:x8[64] %dx:symbol a0:symstr +u4(%cx):ustring \\0x10 \\-5:s32 \\\"a:b\" t=\\\"x\":string +0(%di):b1@7/8[2]");
	KUNIT_ASSERT_EQ(test, def->nr_args, 11U);
	KUNIT_EXPECT_EQ(test, def->args[0].type, RTK_TYPE_U32);
	KUNIT_EXPECT_EQ(test, def->args[0].bit_width, 4);
	KUNIT_EXPECT_EQ(test, def->args[0].bit_offset, 4);
	KUNIT_EXPECT_EQ(test, def->args[1].type, RTK_TYPE_U16);
	KUNIT_EXPECT_EQ(test, def->args[1].count, 3U);
	KUNIT_EXPECT_EQ(test, def->args[2].count, 64U);
	KUNIT_EXPECT_EQ(test, def->args[2].fetch->kind, RTK_FETCH_SYMBOL);
	KUNIT_EXPECT_EQ(test, def->args[3].type, RTK_TYPE_SYMBOL);
	KUNIT_EXPECT_EQ(test, def->args[4].type, RTK_TYPE_SYMSTR);
	KUNIT_EXPECT_STREQ(test, def->args[4].alias, "a0");
	KUNIT_EXPECT_EQ(test, def->args[5].type, RTK_TYPE_USTRING);
	KUNIT_EXPECT_EQ(test, def->args[5].fetch->kind, RTK_FETCH_UDEREF);
	KUNIT_EXPECT_EQ(test, def->args[5].fetch->value, 4L);
	KUNIT_EXPECT_EQ(test, def->args[6].fetch->kind, RTK_FETCH_IMM);
	KUNIT_EXPECT_EQ(test, def->args[6].fetch->value, 0x10L);
	KUNIT_EXPECT_EQ(test, def->args[7].fetch->value, -5L);
	KUNIT_EXPECT_EQ(test, def->args[7].type, RTK_TYPE_S32);
	/* A colon inside the quotes is text, not a type. */
	KUNIT_EXPECT_EQ(test, def->args[8].fetch->kind, RTK_FETCH_IMM_STRING);
	KUNIT_EXPECT_STREQ(test, def->args[8].fetch->symbol, "a:b");
	KUNIT_EXPECT_EQ(test, def->args[8].type, RTK_TYPE_STRING);
	KUNIT_EXPECT_STREQ(test, def->args[9].name, "t");
	KUNIT_EXPECT_STREQ(test, def->args[9].fetch->symbol, "x");
	KUNIT_EXPECT_EQ(test, def->args[10].type, RTK_TYPE_U8);
	KUNIT_EXPECT_EQ(test, def->args[10].count, 2U);
	KUNIT_EXPECT_EQ(test, def->args[10].bit_width, 1);
	KUNIT_EXPECT_EQ(test, def->args[10].bit_offset, 7);
	rtk_free_def(def);

	/* MOD:SYM, as written; the event name has neither : nor . */
	def = parse_ok(test, "p ext4:ext4_file_read_iter.cold+4");
	KUNIT_EXPECT_STREQ(test, def->symbol, "ext4:ext4_file_read_iter.cold");
	KUNIT_EXPECT_STREQ(test, def->event, "p_ext4_ext4_file_read_iter_cold_4");
	rtk_free_def(def);

	/* A return probe on an address; kprobes checks it is an entry. */
	def = parse_ok(test, "r 0xffffffff81000000");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_RETPROBE);
	KUNIT_EXPECT_STREQ(test, def->event, "r_0xffffffff81000000");
	rtk_free_def(def);
}

static const char * const every_kind[] = {
	"p:grp/ev vfs_read", "%di", "%si:u32", "s0", "sa", "@0x1000",
	"@jiffies+8", "+8(%di)", "-4(+16(%si))", "count=$arg2:s64", "$comm",
	"$stack3", "$stack", "a1:string",
};

/* The words joined by spaces; freed by KUnit. */
static char *join(struct kunit *test, const char * const *words,
		  unsigned int n)
{
	char *line = kunit_kzalloc(test, 512, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, line);
	for (i = 0; i < n; i++) {
		if (i)
			strlcat(line, " ", 512);
		strlcat(line, words[i], 512);
	}
	return line;
}

static void test_every_fetch_arg_kind(struct kunit *test)
{
	struct rtk_def *def;
	struct rtk_fetch *f;

	def = parse_ok(test, join(test, every_kind, ARRAY_SIZE(every_kind)));
	KUNIT_EXPECT_STREQ(test, def->group, "grp");
	KUNIT_EXPECT_STREQ(test, def->event, "ev");
	KUNIT_ASSERT_EQ(test, def->nr_args, 13U);
	KUNIT_EXPECT_EQ(test, def->args[0].fetch->kind, RTK_FETCH_REG);
	KUNIT_EXPECT_EQ(test, def->args[0].fetch->value,
			(long)offsetof(struct pt_regs, di));
	KUNIT_EXPECT_NULL(test, def->args[0].alias);
	KUNIT_EXPECT_EQ(test, def->args[1].type, RTK_TYPE_U32);
	KUNIT_EXPECT_EQ(test, def->args[2].fetch->kind, RTK_FETCH_STACK);
	KUNIT_EXPECT_STREQ(test, def->args[2].alias, "s0");
	KUNIT_EXPECT_EQ(test, def->args[3].fetch->kind, RTK_FETCH_STACK_ADDR);
	KUNIT_EXPECT_EQ(test, def->args[4].fetch->kind, RTK_FETCH_MEM);
	KUNIT_EXPECT_EQ(test, def->args[4].fetch->value, 0x1000L);
	KUNIT_EXPECT_EQ(test, def->args[5].fetch->kind, RTK_FETCH_SYMBOL);
	KUNIT_EXPECT_STREQ(test, def->args[5].fetch->symbol, "jiffies");
	KUNIT_EXPECT_EQ(test, def->args[5].fetch->value, 8L);
	f = def->args[6].fetch;
	KUNIT_EXPECT_EQ(test, f->kind, RTK_FETCH_DEREF);
	KUNIT_EXPECT_EQ(test, f->value, 8L);
	KUNIT_EXPECT_EQ(test, f->inner->kind, RTK_FETCH_REG);
	f = def->args[7].fetch;
	KUNIT_EXPECT_EQ(test, f->value, -4L);
	KUNIT_EXPECT_EQ(test, f->inner->kind, RTK_FETCH_DEREF);
	KUNIT_EXPECT_EQ(test, f->inner->value, 16L);
	KUNIT_EXPECT_EQ(test, f->inner->inner->value,
			(long)offsetof(struct pt_regs, si));
	KUNIT_EXPECT_STREQ(test, def->args[8].name, "count");
	KUNIT_EXPECT_EQ(test, def->args[8].fetch->kind, RTK_FETCH_ARG);
	/* Upstream's $argN counts from 1: $arg2 is a1. */
	KUNIT_EXPECT_EQ(test, def->args[8].fetch->value, 1L);
	KUNIT_EXPECT_EQ(test, def->args[8].type, RTK_TYPE_S64);
	KUNIT_EXPECT_EQ(test, def->args[9].fetch->kind, RTK_FETCH_COMM);
	KUNIT_EXPECT_EQ(test, def->args[10].fetch->kind, RTK_FETCH_STACK);
	KUNIT_EXPECT_EQ(test, def->args[10].fetch->value, 3L);
	KUNIT_EXPECT_EQ(test, def->args[11].fetch->kind, RTK_FETCH_STACK_ADDR);
	KUNIT_EXPECT_EQ(test, def->args[12].type, RTK_TYPE_STRING);
	KUNIT_EXPECT_STREQ(test, def->args[12].alias, "a1");
	rtk_free_def(def);

	def = parse_ok(test, "r5:kr do_exit $retval:x32 a0 a0");
	KUNIT_EXPECT_EQ(test, def->maxactive, 5U);
	KUNIT_EXPECT_EQ(test, def->args[0].fetch->kind, RTK_FETCH_RETVAL);
	KUNIT_EXPECT_EQ(test, def->args[0].type, RTK_TYPE_X32);
	/* The same fetch-arg twice: one alias. */
	KUNIT_EXPECT_STREQ(test, def->args[1].alias, "a0");
	KUNIT_EXPECT_NULL(test, def->args[2].alias);
	rtk_free_def(def);

	def = parse_ok(test, "-:grp/ev");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_DELETE);
	KUNIT_EXPECT_STREQ(test, def->group, "grp");
	KUNIT_EXPECT_STREQ(test, def->event, "ev");
	rtk_free_def(def);

	/* Without a group, a removal names the event in every group. */
	def = parse_ok(test, "-:ev");
	KUNIT_EXPECT_NULL(test, def->group);
	KUNIT_EXPECT_STREQ(test, def->event, "ev");
	rtk_free_def(def);
}

/* Upstream's spellings: SYM%return, and GROUP/ with a generated name. */
static void test_upstream_point_forms(struct kunit *test)
{
	struct rtk_def *def;

	def = parse_ok(test, "p do_sys_open%return rv");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_RETPROBE);
	KUNIT_EXPECT_STREQ(test, def->symbol, "do_sys_open");
	KUNIT_EXPECT_STREQ(test, def->event, "r_do_sys_open_0");
	KUNIT_EXPECT_EQ(test, def->nr_args, 1U);
	rtk_free_def(def);

	def = parse_ok(test, "p:g/e do_sys_open+0%return");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_RETPROBE);
	KUNIT_EXPECT_STREQ(test, def->event, "e");
	rtk_free_def(def);

	def = parse_ok(test, "r5 do_sys_open%return");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_RETPROBE);
	KUNIT_EXPECT_EQ(test, def->maxactive, 5UL);
	rtk_free_def(def);

	def = parse_ok(test, "-:grp/");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_DELETE);
	KUNIT_EXPECT_STREQ(test, def->group, "grp");
	KUNIT_EXPECT_NULL(test, def->event);
	KUNIT_EXPECT_NULL(test, def->match);
	rtk_free_def(def);

	/* One probe point of a multi-probe event, as upstream's. */
	def = parse_ok(test, "-:grp/ev do_sys_open  x=a0");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_DELETE);
	KUNIT_EXPECT_STREQ(test, def->event, "ev");
	KUNIT_EXPECT_STREQ(test, def->match, "do_sys_open  x=a0");
	rtk_free_def(def);

	def = parse_ok(test, "p:grp/ do_sys_open+4");
	KUNIT_EXPECT_EQ(test, def->kind, RTK_DEF_PROBE);
	KUNIT_EXPECT_STREQ(test, def->group, "grp");
	KUNIT_EXPECT_STREQ(test, def->event, "p_do_sys_open_4");
	rtk_free_def(def);
}

/* "p f" and @n args "a0"; the line is freed by KUnit. */
static char *many_args(struct kunit *test, unsigned int n)
{
	char *line = kunit_kzalloc(test, 8 + n * 4, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, line);
	strcpy(line, "p f");
	for (i = 0; i < n; i++)
		strcat(line, " a0");
	return line;
}

/* @head, then @n nested @deref (ending in "(") around @base. */
static char *nest(struct kunit *test, const char *head, unsigned int n,
		  const char *deref, const char *base)
{
	char *line = kunit_kzalloc(test, strlen(head) + strlen(base) + 1 +
				   n * (strlen(deref) + 1), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, line);
	strcpy(line, head);
	for (i = 0; i < n; i++)
		strcat(line, deref);
	strcat(line, base);
	for (i = 0; i < n; i++)
		strcat(line, ")");
	return line;
}

/* @n nested "+1(" around %di. */
static char *deep_deref(struct kunit *test, unsigned int n)
{
	return nest(test, "p f ", n, "+1(", "%di");
}

static void test_limits(struct kunit *test)
{
	struct rtk_error err;
	struct rtk_def *def;
	char *line;

	def = parse_ok(test, many_args(test, RTK_MAX_ARGS));
	KUNIT_EXPECT_EQ(test, def->nr_args, (unsigned int)RTK_MAX_ARGS);
	rtk_free_def(def);
	def = rtk_parse(many_args(test, RTK_MAX_ARGS + 1), false, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(def), -E2BIG);
	KUNIT_EXPECT_EQ(test, err.pos, 4U + RTK_MAX_ARGS * 3);

	rtk_free_def(parse_ok(test, deep_deref(test, RTK_MAX_DEREF)));
	def = rtk_parse(deep_deref(test, RTK_MAX_DEREF + 1), false, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(def), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.pos, 4U + RTK_MAX_DEREF * 3);

	line = kunit_kzalloc(test, RTK_MAX_LINE + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, line);
	memset(line, ' ', RTK_MAX_LINE + 1);
	line[0] = 'p';
	def = rtk_parse(line, false, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(def), -E2BIG);
	KUNIT_EXPECT_EQ(test, err.pos, (unsigned int)RTK_MAX_LINE);
}

/* options/upstream_kprobes: unnamed fetch-args are named from 1. */
static void test_upstream_arg_names(struct kunit *test)
{
	struct rtk_error err = {};
	struct rtk_def *def;

	def = rtk_parse("p f %di x=%si a2 $stack", true, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(def));
	KUNIT_EXPECT_TRUE(test, def->upstream);
	KUNIT_ASSERT_EQ(test, def->nr_args, 4U);
	KUNIT_EXPECT_STREQ(test, def->args[0].name, "arg1");
	KUNIT_EXPECT_STREQ(test, def->args[1].name, "x");
	KUNIT_EXPECT_STREQ(test, def->args[2].name, "arg3");
	/* The spec's alias keeps its own meaning: a2 is still the third. */
	KUNIT_EXPECT_STREQ(test, def->args[2].alias, "a2");
	KUNIT_EXPECT_STREQ(test, def->args[3].name, "arg4");
	rtk_free_def(def);

	def = parse_ok(test, "p f %di x=%si a2");
	KUNIT_EXPECT_FALSE(test, def->upstream);
	KUNIT_EXPECT_STREQ(test, def->args[0].name, "arg0");
	KUNIT_EXPECT_STREQ(test, def->args[2].name, "arg2");
	rtk_free_def(def);

	/* A name given later that an unnamed one already has: refused. */
	def = rtk_parse("p f %ax arg1=%bx", true, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(def), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.pos, 8U);
	def = rtk_parse("p f arg2=%ax %bx", true, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(def), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.pos, 13U);
}

/*
 * An upstream probe's errors are placed where upstream's error_log puts
 * them: the start of the probe point or of the innermost wrong fetch-arg
 * (ringtrace's own place in the comment).
 */
static void test_upstream_error_places(struct kunit *test)
{
	const struct {
		const char *line;
		unsigned int pos;
	} cases[] = {
		{ "r1a111 vfs_read", 1 },
		{ "p hoge-fuga", 2 },			/* 6 */
		{ "r vfs_read+10", 2 },			/* 10 */
		{ "p vfs_read $stack10000", 11 },	/* 17 */
		{ "p vfs_read %none_reg", 11 },		/* 12 */
		{ "p vfs_read +0ab1(@0)", 11 },		/* 12 */
		{ "p vfs_read +0@0)", 11 },		/* 15 */
		{ "p vfs_read +0(+0(@0)", 19 },		/* 16 */
		{ "p vfs_read +0(@11):u8[10]a", 25 },
		{ "p vfs_read $stack0:string", 19 },	/* a spec probe's */
		{ "p vfs_read arg123456789012345678901234567890=@11", 11 },
		/* Upstream's limits: 63 bytes of fetch-arg, 15 operations. */
		{ nest(test, "p vfs_read ", 6, "+1234567(", "@1234"), 11 },
		{ nest(test, "p vfs_read ", 14, "+0(", "@0"), 14 },
	};
	struct rtk_error err;
	struct rtk_def *def;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err = (struct rtk_error){};
		def = rtk_parse(cases[i].line, true, &err);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(def), -EINVAL, "%s",
				    cases[i].line);
		if (!IS_ERR(def)) {
			rtk_free_def(def);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, err.pos, cases[i].pos, "%s: %s",
				    cases[i].line, err.msg);
	}
	/* Upstream accepts 13 dereferences of @ADDR: so do its probes. */
	def = rtk_parse(nest(test, "p vfs_read ", 13, "+0(", "@0"), true, &err);
	KUNIT_EXPECT_FALSE(test, IS_ERR(def));
	rtk_free_def(def);
}

static const struct {
	const char *line;
	unsigned int pos;
} bad_lines[] = {
	{ "", 0 }, { "   ", 0 }, { "x do_sys_open", 0 }, { "q:e f", 0 },
	{ "p5 do_sys_open", 1 }, { "r0 do_sys_open", 1 },
	{ "r5000 do_sys_open", 1 }, { "p:", 2 }, { "p:1abc do_sys_open", 2 },
	{ "p:a-b do_sys_open", 2 }, { "-:grp/x/", 6 },
	{ "p do_sys_open%ret", 13 }, { "r do_sys_open%returns", 13 },
	{ "p do_sys_open+4%return", 13 },
	{ "p:/ev do_sys_open", 2 }, { "p:g-x/ev f", 2 }, { "p;x f", 1 },
	{ "p", 1 }, { "p:ev", 4 }, { "-", 1 }, { "-:grp/ extra", 7 },
	{ "-:", 2 }, { "p do_sys_open+x", 14 }, { "p do_sys_open+", 14 },
	{ "p do_sys_open-4", 13 }, { "p do$sys", 4 }, { "r do_sys_open+4", 13 },
	{ "p 0xzz", 2 }, { "p 0", 2 }, { "p 1abc", 2 },
	{ "p f rv", 4 }, { "p f ra", 4 }, { "p f $retval", 4 },
	{ "p f %zz", 5 }, { "p f %", 5 }, { "p f s", 4 }, { "p f sx", 5 },
	{ "p f s-1", 5 }, { "p f a", 4 }, { "p f ax", 5 }, { "p f a99999", 5 },
	{ "p f @", 5 }, { "p f @0xzz", 5 }, { "p f @sym+x", 9 },
	{ "p f @sy$m", 7 }, { "p f +4%di", 9 }, { "p f +4(%di", 6 },
	{ "p f +x(%di)", 5 }, { "p f +4()", 7 }, { "p f +4(%zz)", 8 },
	{ "p f +4(rv)", 7 }, { "p f x=", 6 }, { "p f =a0", 4 },
	{ "p f 1x=a0", 4 }, { "p f a0:u7", 7 }, { "p f a0:", 7 },
	{ "p f x=a0 x=a1", 9 }, { "p f arg1=a0 a1", 12 },
	{ "p f %di:u32:u8", 5 }, { "p f -4(+8(%di)", 9 },
	{ "p f a0:string:u8", 5 }, { "p f $stackx", 10 }, { "p f $argz", 8 }, { "p f $arg0", 8 },
	{ "p f $foo", 4 },
	/* Upstream's types: bitfields, arrays, immediates, user memory. */
	{ "p f %di:b0@0/8", 8 }, { "p f %di:b4@6/8", 8 },
	{ "p f %di:b4@0/12", 8 }, { "p f %di:b4@0", 8 }, { "p f %di:b4/8", 8 },
	{ "p f %di:b4@x/8", 8 }, { "p f %di:bx@0/8", 8 },
	{ "p f %di:b1@0xffffffffffffffff/8", 8 },
	{ "p f %di:b0xffffffffffffffff@1/8", 8 },
	{ "p f %di:b9@0xfffffffffffffffc/8", 8 }, { "p f %di:b1@8/8", 8 },
	{ "p f +0(%di):u8[65]", 15 }, { "p f +0(%di):u8[0]", 15 },
	{ "p f +0(%di):u8[2", 16 }, { "p f +0(%di):u8[]", 15 },
	{ "p f %di:u8[2]", 8 }, { "p f a0:u32[2]", 7 },
	{ "p f +0(%di):string[2]", 12 }, { "p f $comm:u8", 10 },
	{ "p f $comm:string[2]", 10 }, { "p f \\\"abc", 9 },
	{ "p f \\\"abc\":u32", 11 }, { "p f +0($comm)", 7 },
	{ "p f +0(\\\"a\")", 7 }, { "p f \\x", 5 }, { "p f \\", 5 },
	{ "p f \\-x", 5 }, { "p f +ux(%di)", 6 }, { "p f +u(%di)", 6 },
	{ "p f %di:symbols", 8 }, { "p 0x1000%return", 2 },
	{ "p :f", 2 }, { "p m:", 3 }, { "p m:f:g", 5 }, { "p m.x:f", 3 },
	{ "p m:1f", 2 },
	/* Names of the fields every record has. */
	{ "p f ip=a0", 4 }, { "p f a0 nargs=a1", 7 }, { "r f ret_ip=rv", 4 },
	{ "p f common_pid=a0", 4 }, { "p f common_x=a0", 4 },
};

static void test_bad_lines_say_where(struct kunit *test)
{
	struct rtk_error err;
	struct rtk_def *def;
	unsigned int i;

	KUNIT_EXPECT_GE(test, ARRAY_SIZE(bad_lines), 60UL);
	for (i = 0; i < ARRAY_SIZE(bad_lines); i++) {
		memset(&err, 0, sizeof(err));
		def = rtk_parse(bad_lines[i].line, false, &err);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(def), -EINVAL,
				    "\"%s\" accepted", bad_lines[i].line);
		if (!IS_ERR(def)) {
			rtk_free_def(def);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, err.pos, bad_lines[i].pos,
				    "\"%s\": %s", bad_lines[i].line, err.msg);
		KUNIT_EXPECT_NOT_NULL(test, err.msg);
	}
}

static struct kunit_case rtk_test_cases[] = {
	KUNIT_CASE(test_spec_examples_parse),
	KUNIT_CASE(test_names_are_generated_from_the_point),
	KUNIT_CASE(test_every_fetch_arg_kind),
	KUNIT_CASE(test_upstream_point_forms),
	KUNIT_CASE(test_upstream_types_parse),
	KUNIT_CASE(test_limits),
	KUNIT_CASE(test_upstream_arg_names),
	KUNIT_CASE(test_upstream_error_places),
	KUNIT_CASE(test_bad_lines_say_where),
	{}
};

static struct kunit_suite rtk_test_suite = {
	.name = "ringtrace_kprobe_parse",
	.test_cases = rtk_test_cases,
};

kunit_test_suite(rtk_test_suite);

MODULE_DESCRIPTION("KUnit tests for the kprobe_events parser");
MODULE_LICENSE("GPL");
