// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the kprobe events fetch-arg evaluator.
 *
 * Each case parses a probe line with the real parser, points a hand-made
 * pt_regs at known values (registers, a stack on the test's own kernel
 * stack, a chain of structures in memory) and checks what every
 * fetch-arg records: registers, arguments in registers and on the stack,
 * stack slots, memory, dereferences nested several deep, return values,
 * strings (copied, truncated, or faulting) and the faults of bad
 * addresses, which must record the marker value and never oops.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "kprobe_fetch.h"

struct node {
	unsigned long	value;
	struct node	*next;
	const char	*name;
	unsigned long	*words;
};

static unsigned long words[] = { 0x1000, 0x2000, 0x3000 };
static struct node tail = { .value = 0x7a11, .name = "tail" };
static struct node head = { .value = 0x4ead, .next = &tail, .name = "head",
			    .words = &words[1] };
static unsigned long data_word = 0x5eed5eed;

static __printf(2, 3) struct rtk_def *parse(struct kunit *test,
					   const char *fmt, ...)
{
	struct rtk_error err = {};
	struct rtk_def *def;
	va_list ap;
	char *line;

	va_start(ap, fmt);
	line = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	KUNIT_ASSERT_NOT_NULL(test, line);
	def = rtk_parse(line, false, &err);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(def), "\"%s\" refused at %u: %s",
			       line, err.pos, err.msg);
	kfree(line);
	return def;
}

/* The value argument @i of @def records. */
static unsigned long value_of(struct rtk_def *def, unsigned int i,
			      struct pt_regs *regs, unsigned long retaddr)
{
	unsigned long slot;

	rtk_fetch_arg(&def->args[i], regs, retaddr, &slot);
	return slot;
}

static void test_registers_and_arguments(struct kunit *test)
{
	struct pt_regs regs = {
		.di = 0x11, .si = 0x22, .dx = 0x33, .cx = 0x44,
		.r8 = 0x55, .r9 = 0x66, .ax = 0x77, .r15 = 0x88,
	};
	struct rtk_def *def;

	def = parse(test,
		    "p f %%di %%si %%dx %%cx %%r8 %%r9 %%ax %%r15 a0 a1 a2 a3 a4 a5 $arg1 $arg6");
	KUNIT_EXPECT_EQ(test, value_of(def, 0, &regs, 0), 0x11UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 1, &regs, 0), 0x22UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 2, &regs, 0), 0x33UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 3, &regs, 0), 0x44UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 4, &regs, 0), 0x55UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 5, &regs, 0), 0x66UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 6, &regs, 0), 0x77UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 7, &regs, 0), 0x88UL);
	/* x86-64 passes the first six arguments in di, si, dx, cx, r8, r9. */
	KUNIT_EXPECT_EQ(test, value_of(def, 8, &regs, 0), 0x11UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 9, &regs, 0), 0x22UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 10, &regs, 0), 0x33UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 11, &regs, 0), 0x44UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 12, &regs, 0), 0x55UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 13, &regs, 0), 0x66UL);
	/* Upstream's $argN counts from 1: $arg1 is a0, $arg6 is a5. */
	KUNIT_EXPECT_EQ(test, value_of(def, 14, &regs, 0), 0x11UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 15, &regs, 0), 0x66UL);
	rtk_free_def(def);
}

static void test_stack_slots_and_stack_arguments(struct kunit *test)
{
	/* At a function's entry: the return address, then arguments 7, 8. */
	unsigned long stack[4] = { 0xfeed0, 0x70, 0x80, 0x90 };
	struct pt_regs regs = { .sp = (unsigned long)stack };
	struct rtk_def *def;

	def = parse(test, "p f s0 s1 s2 $stack3 a6 a7 sa $stack");
	KUNIT_EXPECT_EQ(test, value_of(def, 0, &regs, 0), 0xfeed0UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 1, &regs, 0), 0x70UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 2, &regs, 0), 0x80UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 3, &regs, 0), 0x90UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 4, &regs, 0), 0x70UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 5, &regs, 0), 0x80UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 6, &regs, 0),
			(unsigned long)stack);
	KUNIT_EXPECT_EQ(test, value_of(def, 7, &regs, 0),
			(unsigned long)stack);
	rtk_free_def(def);
}

static void test_memory_and_nested_dereference(struct kunit *test)
{
	struct pt_regs regs = { .di = (unsigned long)&head };
	struct rtk_def *def;

	def = parse(test,
		    "p f @0x%lx +0(%%di) +8(%%di) +0(+8(%%di)) +8(+8(%%di)) +0(+8(+8(%%di))) -8(+24(%%di)) +8(+24(%%di))",
		    (unsigned long)&data_word);
	KUNIT_EXPECT_EQ(test, value_of(def, 0, &regs, 0), 0x5eed5eedUL);
	KUNIT_EXPECT_EQ(test, value_of(def, 1, &regs, 0), 0x4eadUL);
	KUNIT_EXPECT_EQ(test, value_of(def, 2, &regs, 0),
			(unsigned long)&tail);
	KUNIT_EXPECT_EQ(test, value_of(def, 3, &regs, 0), 0x7a11UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 4, &regs, 0), 0UL);
	/* tail.next is NULL: dereferencing it faults. */
	KUNIT_EXPECT_EQ(test, value_of(def, 5, &regs, 0), RTK_FAULT);
	/* head.words points at words[1]. */
	KUNIT_EXPECT_EQ(test, value_of(def, 6, &regs, 0), 0x1000UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 7, &regs, 0), 0x3000UL);
	rtk_free_def(def);
}

static void test_bad_addresses_record_the_fault_marker(struct kunit *test)
{
	struct pt_regs regs = { .di = 0, .si = 0xdead000000000000UL,
				.dx = (unsigned long)&head };
	struct rtk_def *def;

	def = parse(test,
		    "p f +0(%%di) +0(%%si) +0(+0(%%di)) +16(+0(%%di)) @0x10 +0(+0(+0(%%dx)))");
	KUNIT_EXPECT_EQ(test, value_of(def, 0, &regs, 0), RTK_FAULT);
	KUNIT_EXPECT_EQ(test, value_of(def, 1, &regs, 0), RTK_FAULT);
	KUNIT_EXPECT_EQ(test, value_of(def, 2, &regs, 0), RTK_FAULT);
	KUNIT_EXPECT_EQ(test, value_of(def, 3, &regs, 0), RTK_FAULT);
	KUNIT_EXPECT_EQ(test, value_of(def, 4, &regs, 0), RTK_FAULT);
	/* head.value is 0x4ead: reading at it faults. */
	KUNIT_EXPECT_EQ(test, value_of(def, 5, &regs, 0), RTK_FAULT);
	rtk_free_def(def);
}

static void test_return_value_and_address(struct kunit *test)
{
	struct pt_regs regs = { .ax = 0x509f, .di = 0x11 };
	struct rtk_def *def;

	def = parse(test, "r f rv ra $retval %%di");
	KUNIT_EXPECT_EQ(test, value_of(def, 0, &regs, 0xc0de), 0x509fUL);
	KUNIT_EXPECT_EQ(test, value_of(def, 1, &regs, 0xc0de), 0xc0deUL);
	KUNIT_EXPECT_EQ(test, value_of(def, 2, &regs, 0xc0de), 0x509fUL);
	KUNIT_EXPECT_EQ(test, value_of(def, 3, &regs, 0xc0de), 0x11UL);
	rtk_free_def(def);
}

/* A name kept in the structure, as most kernel structures keep theirs. */
static struct {
	unsigned long	id;
	char		name[8];
} inline_name = { 7, "inline" };

/*
 * The text string argument @i of @def records with @max bytes of room:
 * measured, then copied into a buffer of garbage.
 */
static char *string_of(struct kunit *test, struct rtk_def *def,
		       unsigned int i, struct pt_regs *regs, unsigned int max)
{
	char *buf = kunit_kmalloc(test, max + 1, GFP_KERNEL);
	unsigned int len;
	long measured;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 0xa5, max + 1);
	measured = rtk_string_len(&def->args[i], regs, 0, max);
	/* A fault: the room rtk_measure_strings() gives the spec's marker. */
	len = measured < 0 ? min_t(unsigned int, sizeof(RTK_FAULT_STRING), max) :
			     measured;
	KUNIT_EXPECT_GE(test, len, 1U);
	KUNIT_EXPECT_LE(test, len, max);
	KUNIT_EXPECT_EQ(test, rtk_fetch_string(&def->args[i], regs, 0, buf, len),
			measured < 0);
	/* Memory that did not change: the copy is as long as measured. */
	KUNIT_EXPECT_EQ_MSG(test, strlen(buf) + 1, (size_t)len, "argument %u", i);
	KUNIT_EXPECT_EQ(test, (u8)buf[len], 0xa5);
	return buf;
}

/*
 * A memory fetch-arg reads the string at the address it names, as
 * upstream's: +0(%di):string is the text at %di, +16(%di) the text at
 * %di + 16; a register or an argument holds the string's address.
 */
static void test_strings(struct kunit *test)
{
	static const char long_text[] =
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefXYZ";
	struct pt_regs regs = { .di = (unsigned long)&head,
				.si = (unsigned long)long_text, .dx = 8,
				.cx = (unsigned long)&inline_name };
	struct rtk_def *def;

	def = parse(test,
		    "p f +0(+16(%%di)):string %%si:string %%dx:string +0(%%dx):string $comm name=+0(+16(+8(%%di))):string +8(%%cx):string @0x%lx:string +0(%%si):string \\\"lit\" +0(+16(%%di)):ustring",
		    (unsigned long)inline_name.name);
	KUNIT_EXPECT_EQ(test, def->nr_strings, 11U);
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 0, &regs, 4096), "head");
	/* Strings are as long as they are, up to the room they are given. */
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 1, &regs, 4096), long_text);
	KUNIT_EXPECT_EQ(test, strlen(string_of(test, def, 1, &regs, 10)), 9UL);
	KUNIT_EXPECT_EQ(test, memcmp(string_of(test, def, 1, &regs, 10),
				     long_text, 9), 0);
	/* Address 8: below TASK_SIZE, a user address, unmapped. */
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 2, &regs, 4096),
			   RTK_FAULT_STRING);
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 3, &regs, 4096),
			   RTK_FAULT_STRING);
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 3, &regs, 4), "(fa");
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 4, &regs, 4096),
			   current->comm);
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 5, &regs, 4096), "tail");
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 6, &regs, 4096), "inline");
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 7, &regs, 4096), "inline");
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 8, &regs, 4096), long_text);
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 9, &regs, 4096), "lit");
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 9, &regs, 1), "");
	/* ustring reads user memory only: a kernel address faults. */
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 10, &regs, 4096),
			   RTK_FAULT_STRING);
	rtk_free_def(def);
}

/*
 * A string that shrank between measuring and copying: the rest of its
 * room is zeros, never older bytes; one that grew is cut to its room.
 */
static void test_strings_that_change(struct kunit *test)
{
	char text[16] = "abcdef";
	struct pt_regs regs = { .di = (unsigned long)text };
	struct rtk_def *def;
	unsigned int len;
	char dst[16];

	def = parse(test, "p f +0(%%di):string");
	len = rtk_string_len(&def->args[0], &regs, 0, sizeof(dst));
	KUNIT_EXPECT_EQ(test, len, 7U);
	strscpy(text, "ab", sizeof(text));
	memset(dst, 0xa5, sizeof(dst));
	rtk_fetch_string(&def->args[0], &regs, 0, dst, len);
	KUNIT_EXPECT_STREQ(test, dst, "ab");
	KUNIT_EXPECT_NULL(test, memchr_inv(dst + 2, 0, len - 2));
	KUNIT_EXPECT_EQ(test, (u8)dst[len], 0xa5);
	strscpy(text, "abcdefghijkl", sizeof(text));
	rtk_fetch_string(&def->args[0], &regs, 0, dst, len);
	KUNIT_EXPECT_STREQ(test, dst, "abcdef");
	rtk_free_def(def);
}

/*
 * A record's strings: each slot holds length << 16 | offset, the texts
 * follow the fixed part one after the other, and share the room left,
 * each later string keeping a byte for its NUL.
 */
static void test_strings_in_a_record(struct kunit *test)
{
	static const char long_text[] =
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefXYZ";
	struct pt_regs regs = { .si = (unsigned long)long_text,
				.di = 0x77 };
	unsigned int offsets[4] = { 8, 16, 24, 32 };
	u16 lens[4] = {};
	unsigned int total;
	struct rtk_def *def;
	u8 rec[40 + 100 + 1];
	u32 loc;

	def = parse(test, "p f %%si:string %%di +0(%%si):string $comm:string");
	total = rtk_measure_strings(def, &regs, 0, 100, lens);
	KUNIT_EXPECT_EQ(test, lens[0], (u16)sizeof(long_text));
	KUNIT_EXPECT_EQ(test, lens[2], (u16)(100 - sizeof(long_text) - 1));
	KUNIT_EXPECT_EQ(test, lens[3], 1);
	KUNIT_EXPECT_EQ(test, total, 100U);
	memset(rec, 0xa5, sizeof(rec));
	rtk_fetch_args(def, &regs, 0, rec, offsets, 40, lens);
	memcpy(&loc, rec + 8, 4);
	KUNIT_EXPECT_EQ(test, loc, (u32)(sizeof(long_text) << 16 | 40));
	KUNIT_EXPECT_STREQ(test, (char *)rec + 40, long_text);
	memcpy(&loc, rec + 24, 4);
	KUNIT_EXPECT_EQ(test, loc, (u32)(lens[2] << 16 | (40 + sizeof(long_text))));
	KUNIT_EXPECT_EQ(test, strlen((char *)rec + 40 + sizeof(long_text)),
			(size_t)lens[2] - 1);
	memcpy(&loc, rec + 32, 4);
	KUNIT_EXPECT_EQ(test, loc, (u32)(1 << 16 | 139));
	KUNIT_EXPECT_EQ(test, rec[139], 0);
	/* The slots' upper halves are zero; nothing past the texts is written. */
	KUNIT_EXPECT_NULL(test, memchr_inv(rec + 12, 0, 4));
	KUNIT_EXPECT_EQ(test, *(u64 *)(rec + 16), 0x77ULL);
	KUNIT_EXPECT_EQ(test, rec[140], 0xa5);
	rtk_free_def(def);
}

/*
 * A string whose memory faults: the spec's probes record the text
 * "(fault)", upstream's (options/upstream_kprobes) record length 0, as
 * upstream does, and take no room.
 */
static void test_faulting_strings_by_kind(struct kunit *test)
{
	static const char *line = "p f +0(%dx):string +0(%si):string";
	struct pt_regs regs = { .dx = 8, .si = (unsigned long)"ok" };
	unsigned int offsets[2] = { 8, 16 };
	struct rtk_error err = {};
	u16 lens[2] = {};
	struct rtk_def *def;
	u8 rec[24 + 16];
	u32 loc;

	def = rtk_parse(line, false, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(def));
	KUNIT_EXPECT_EQ(test, rtk_measure_strings(def, &regs, 0, 16, lens),
			(unsigned int)(sizeof(RTK_FAULT_STRING) + 3));
	memset(rec, 0xa5, sizeof(rec));
	rtk_fetch_args(def, &regs, 0, rec, offsets, 24, lens);
	memcpy(&loc, rec + 8, 4);
	KUNIT_EXPECT_EQ(test, loc, (u32)(sizeof(RTK_FAULT_STRING) << 16 | 24));
	KUNIT_EXPECT_STREQ(test, (char *)rec + 24, RTK_FAULT_STRING);
	rtk_free_def(def);

	def = rtk_parse(line, true, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(def));
	KUNIT_EXPECT_EQ(test, rtk_measure_strings(def, &regs, 0, 16, lens), 3U);
	KUNIT_EXPECT_EQ(test, lens[0], 0);
	memset(rec, 0xa5, sizeof(rec));
	rtk_fetch_args(def, &regs, 0, rec, offsets, 24, lens);
	memcpy(&loc, rec + 8, 4);
	KUNIT_EXPECT_EQ(test, loc, (u32)24);
	memcpy(&loc, rec + 16, 4);
	KUNIT_EXPECT_EQ(test, loc, (u32)(3 << 16 | 24));
	KUNIT_EXPECT_STREQ(test, (char *)rec + 24, "ok");
	rtk_free_def(def);
}

static void test_bitfields_and_immediates(struct kunit *test)
{
	static const u32 word = 0xa5c3f00fU;
	struct pt_regs regs = { .di = 0x1234567887654321UL,
				.si = (unsigned long)&word };
	struct rtk_def *def;

	def = parse(test,
		    "p f %%di:b4@4/8 %%di:b8@8/16 %%di:b1@31/32 %%di:b64@0/64 +0(%%si):b12@20/32 +0(%%si):b1@0/8 \\42 \\-1:s8 \\0x10:x16 +8(\\%lu)",
		    (unsigned long)&head);
	KUNIT_EXPECT_EQ(test, value_of(def, 0, &regs, 0), 0x2UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 1, &regs, 0), 0x43UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 2, &regs, 0), 1UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 3, &regs, 0), 0x1234567887654321UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 4, &regs, 0), 0xa5cUL);
	KUNIT_EXPECT_EQ(test, value_of(def, 5, &regs, 0), 1UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 6, &regs, 0), 42UL);
	KUNIT_EXPECT_EQ(test, (s8)value_of(def, 7, &regs, 0), -1);
	KUNIT_EXPECT_EQ(test, (u16)value_of(def, 8, &regs, 0), 0x10);
	/* An immediate is an address like any other value. */
	KUNIT_EXPECT_EQ(test, value_of(def, 9, &regs, 0), (unsigned long)&tail);
	rtk_free_def(def);

	/*
	 * -EFAULT in a register or an immediate is a value like any other
	 * (a syscall's return value, say), not the fault marker.
	 */
	regs.ax = -EFAULT;
	def = parse(test, "r f rv:b4@0/32 \\-14:b4@0/8 %%ax:b8@56/64");
	KUNIT_EXPECT_EQ(test, value_of(def, 0, &regs, 0), 2UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 1, &regs, 0), 2UL);
	KUNIT_EXPECT_EQ(test, value_of(def, 2, &regs, 0), 0xffUL);
	rtk_free_def(def);
}

/*
 * Arrays read consecutive elements from memory; an element past mapped
 * memory records the fault marker, cut to its width, and the others
 * their values.
 */
static void test_arrays(struct kunit *test)
{
	u8 *page = vmalloc(PAGE_SIZE);
	struct pt_regs regs = { .di = (unsigned long)&head };
	struct rtk_def *def;
	union {
		u64	u64[4];
		u16	u16[4];
		u8	u8[8];
	} slot;

	KUNIT_ASSERT_NOT_NULL(test, page);
	memset(page, 0x5a, PAGE_SIZE);
	page[PAGE_SIZE - 2] = 0x11;
	regs.si = (unsigned long)page;
	def = parse(test,
		    "p f +0(+24(%%di)):u64[2] -8(+24(%%di)):x64[3] +%lu(%%si):u8[4] +%lu(%%si):u16[2] +0(%%si):b4@4/8[2]",
		    PAGE_SIZE - 2, PAGE_SIZE - 2);
	KUNIT_EXPECT_EQ(test, rtk_arg_size(&def->args[0]), 16U);
	KUNIT_EXPECT_EQ(test, rtk_arg_size(&def->args[2]), 4U);
	memset(&slot, 0xee, sizeof(slot));
	rtk_fetch_arg(&def->args[0], &regs, 0, &slot);
	KUNIT_EXPECT_EQ(test, slot.u64[0], 0x2000ULL);
	KUNIT_EXPECT_EQ(test, slot.u64[1], 0x3000ULL);
	rtk_fetch_arg(&def->args[1], &regs, 0, &slot);
	KUNIT_EXPECT_EQ(test, slot.u64[0], 0x1000ULL);
	KUNIT_EXPECT_EQ(test, slot.u64[2], 0x3000ULL);
	memset(&slot, 0xee, sizeof(slot));
	rtk_fetch_arg(&def->args[2], &regs, 0, &slot);
	KUNIT_EXPECT_EQ(test, slot.u8[0], 0x11);
	KUNIT_EXPECT_EQ(test, slot.u8[1], 0x5a);
	/* The guard page after a one-page vmalloc() area. */
	KUNIT_EXPECT_EQ(test, slot.u8[2], (u8)RTK_FAULT);
	KUNIT_EXPECT_EQ(test, slot.u8[3], (u8)RTK_FAULT);
	/* The slot's bytes past the elements are zero. */
	KUNIT_EXPECT_EQ(test, slot.u8[4], 0);
	KUNIT_EXPECT_EQ(test, slot.u8[7], 0);
	rtk_fetch_arg(&def->args[3], &regs, 0, &slot);
	KUNIT_EXPECT_EQ(test, slot.u16[0], 0x5a11);
	KUNIT_EXPECT_EQ(test, slot.u16[1], (u16)RTK_FAULT);
	rtk_fetch_arg(&def->args[4], &regs, 0, &slot);
	KUNIT_EXPECT_EQ(test, slot.u8[0], 0x5);
	KUNIT_EXPECT_EQ(test, slot.u8[1], 0x5);
	rtk_free_def(def);
	vfree(page);
}

static void test_symbols(struct kunit *test)
{
	struct pt_regs regs = { .di = (unsigned long)rtk_fetch_arg + 3 };
	struct rtk_def *def;
	char *text;

	def = parse(test, "p f %%di:symbol %%di:symstr \\0:symstr");
	KUNIT_EXPECT_EQ(test, value_of(def, 0, &regs, 0), regs.di);
	text = string_of(test, def, 1, &regs, 4096);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(text, "rtk_fetch_arg+0x3/0x"),
			      "symstr gave \"%s\"", text);
	/* No symbol there: the address, as %pS prints it. */
	KUNIT_EXPECT_STREQ(test, string_of(test, def, 2, &regs, 4096), "0x0");
	rtk_free_def(def);
}

static void test_narrow_types_fill_the_slot_start(struct kunit *test)
{
	struct pt_regs regs = { .di = 0x1122334455667788UL };
	struct rtk_def *def;
	union {
		unsigned long	word;
		u8		u8;
		u16		u16;
		u32		u32;
	} slot;

	def = parse(test, "p f %%di:u8 %%di:u16 %%di:x32");
	rtk_fetch_arg(&def->args[0], &regs, 0, &slot);
	KUNIT_EXPECT_EQ(test, slot.u8, 0x88);
	rtk_fetch_arg(&def->args[1], &regs, 0, &slot);
	KUNIT_EXPECT_EQ(test, slot.u16, 0x7788);
	rtk_fetch_arg(&def->args[2], &regs, 0, &slot);
	KUNIT_EXPECT_EQ(test, slot.u32, 0x55667788U);
	rtk_free_def(def);
}

/*
 * A narrow type at the end of mapped memory reads only its own bytes: the
 * page after a one-page vmalloc() area is its unmapped guard.
 */
static void test_narrow_memory_reads_stop_at_the_type(struct kunit *test)
{
	u8 *page = vmalloc(PAGE_SIZE);
	struct pt_regs regs = {};
	struct rtk_def *def;

	KUNIT_ASSERT_NOT_NULL(test, page);
	memset(page, 0xa5, PAGE_SIZE);
	page[PAGE_SIZE - 1] = 0x5a;
	regs.di = (unsigned long)page;
	def = parse(test,
		    "p f +%lu(%%di):u8 +%lu(%%di):u16 +%lu(%%di):x32 +%lu(%%di):u64 +%lu(%%di):u16",
		    PAGE_SIZE - 1, PAGE_SIZE - 2, PAGE_SIZE - 4, PAGE_SIZE - 8,
		    PAGE_SIZE - 1);
	KUNIT_EXPECT_EQ(test, (u8)value_of(def, 0, &regs, 0), 0x5a);
	KUNIT_EXPECT_EQ(test, (u16)value_of(def, 1, &regs, 0), 0x5aa5);
	KUNIT_EXPECT_EQ(test, (u32)value_of(def, 2, &regs, 0), 0x5aa5a5a5U);
	KUNIT_EXPECT_EQ(test, value_of(def, 3, &regs, 0), 0x5aa5a5a5a5a5a5a5UL);
	/* Two bytes from the last one: the second is the guard page's. */
	KUNIT_EXPECT_EQ(test, (u16)value_of(def, 4, &regs, 0), (u16)RTK_FAULT);
	rtk_free_def(def);
	vfree(page);
}

/*
 * rtk_fetch_args() reads registers and arguments inline: every slot must
 * come out byte for byte as rtk_fetch_arg() makes it, for those and for
 * every other kind, typed or not, next to each other in one record.
 */
static void test_fetch_args_matches_fetch_arg(struct kunit *test)
{
	struct pt_regs regs = {
		.di = (unsigned long)&head, .si = 0x8822, .dx = 0x33,
		.cx = 0xffffffffffffff44UL, .r8 = 0x55, .r9 = 0x66,
		.ax = 0x77,
	};
	unsigned int offsets[RTK_MAX_ARGS], i, off = 0;
	u8 *all, *one;
	struct rtk_def *def;

	def = parse(test,
		    "r f %%di %%si:u8 %%cx:s16 a1 a2:x32 $arg4 +0(%%di) +8(%%di):u64 $retval $stack0 rv ra %%ax:s64 %%di:b4@4/8 +24(%%di):u64[2] \\7 %%si:symbol");
	for (i = 0; i < def->nr_args; i++) {
		offsets[i] = off;
		off += round_up(rtk_arg_size(&def->args[i]), 8);
	}
	all = kunit_kzalloc(test, off, GFP_KERNEL);
	one = kunit_kzalloc(test, off, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, all);
	KUNIT_ASSERT_NOT_NULL(test, one);
	/* Different garbage first: every byte of each slot is written. */
	memset(all, 0xa5, off);
	memset(one, 0x5a, off);
	rtk_fetch_args(def, &regs, 0x1234, all, offsets, off, NULL);
	for (i = 0; i < def->nr_args; i++)
		rtk_fetch_arg(&def->args[i], &regs, 0x1234, one + offsets[i]);
	for (i = 0; i < def->nr_args; i++)
		KUNIT_EXPECT_EQ_MSG(test, memcmp(all + offsets[i],
						 one + offsets[i],
						 rtk_arg_size(&def->args[i])),
				    0, "argument %u", i);
	rtk_free_def(def);
}

static struct kunit_case rtk_fetch_test_cases[] = {
	KUNIT_CASE(test_registers_and_arguments),
	KUNIT_CASE(test_fetch_args_matches_fetch_arg),
	KUNIT_CASE(test_stack_slots_and_stack_arguments),
	KUNIT_CASE(test_memory_and_nested_dereference),
	KUNIT_CASE(test_bad_addresses_record_the_fault_marker),
	KUNIT_CASE(test_return_value_and_address),
	KUNIT_CASE(test_strings),
	KUNIT_CASE(test_strings_that_change),
	KUNIT_CASE(test_strings_in_a_record),
	KUNIT_CASE(test_faulting_strings_by_kind),
	KUNIT_CASE(test_bitfields_and_immediates),
	KUNIT_CASE(test_arrays),
	KUNIT_CASE(test_symbols),
	KUNIT_CASE(test_narrow_types_fill_the_slot_start),
	KUNIT_CASE(test_narrow_memory_reads_stop_at_the_type),
	{}
};

static struct kunit_suite rtk_fetch_test_suite = {
	.name = "ringtrace_kprobe_fetch",
	.test_cases = rtk_fetch_test_cases,
};

kunit_test_suite(rtk_fetch_test_suite);

MODULE_DESCRIPTION("KUnit tests for the kprobe events fetch-arg evaluator");
MODULE_LICENSE("GPL");
