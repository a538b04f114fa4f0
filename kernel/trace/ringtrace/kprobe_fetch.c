// SPDX-License-Identifier: GPL-2.0
/*
 * Evaluating fetch-args in a kprobe or kretprobe handler.
 *
 * Handlers run with preemption off, maybe in interrupt or NMI context, on
 * registers and memory the probed code owns: every read of memory goes
 * through the nofault accessors, and a read that faults records
 * RTK_FAULT (or RTK_FAULT_STRING) instead of a value.
 */

#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/ringtrace_buffer.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <asm/tlb.h>

#include "kprobe_fetch.h"

/*
 * Whether a read of @addr is of user memory without being asked: where
 * user and kernel addresses do not overlap (x86), an address below
 * TASK_SIZE can only be the user's, as upstream's probes assume, so that
 * the classic +0(%si):string of a user pointer reads it.
 */
static bool rtk_user_addr(unsigned long addr)
{
	return IS_ENABLED(CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE) &&
	       addr < TASK_SIZE;
}

/*
 * Read @width bytes (1, 2, 4 or 8) at @addr, zero-extended: only the
 * bytes the type covers, so that a u8 at the last byte of a page does not
 * fault on the next one.  @user: read user memory.  The nofault accessors
 * never sleep, and refuse user memory where it cannot be read (NMI in the
 * middle of a switch of mm, no mm).
 */
static unsigned long rtk_read(unsigned long addr, unsigned int width,
			      bool user)
{
	union {
		u8		u8;
		u16		u16;
		u32		u32;
		unsigned long	ul;
	} v;

	if (user || rtk_user_addr(addr)) {
		if (copy_from_user_nofault(&v, (void __user *)addr, width))
			return RTK_FAULT;
	} else if (copy_from_kernel_nofault(&v, (void *)addr, width)) {
		return RTK_FAULT;
	}
	switch (width) {
	case 1:
		return v.u8;
	case 2:
		return v.u16;
	case 4:
		return v.u32;
	}
	return v.ul;
}

/* The bytes a value of @type takes (of one element, for arrays). */
static unsigned int rtk_read_width(enum rtk_type type)
{
	switch (type) {
	case RTK_TYPE_U8:
	case RTK_TYPE_S8:
	case RTK_TYPE_X8:
		return 1;
	case RTK_TYPE_U16:
	case RTK_TYPE_S16:
	case RTK_TYPE_X16:
		return 2;
	case RTK_TYPE_U32:
	case RTK_TYPE_S32:
	case RTK_TYPE_X32:
		return 4;
	default:
		/* 64-bit numbers and symbols. */
		return sizeof(unsigned long);
	}
}

static unsigned long rtk_fetch(const struct rtk_fetch *f, struct pt_regs *regs,
			       unsigned long retaddr, unsigned int width);

/*
 * The address memory fetch-arg @f (@ADDR, @SYM, +|-offs(), +|-uoffs())
 * reads, or RTK_FAULT; *@user tells whether it is user memory.
 */
static unsigned long rtk_fetch_addr(const struct rtk_fetch *f,
				    struct pt_regs *regs,
				    unsigned long retaddr, bool *user)
{
	unsigned long base;

	*user = f->kind == RTK_FETCH_UDEREF;
	if (f->kind == RTK_FETCH_MEM || f->kind == RTK_FETCH_SYMBOL)
		return f->value;	/* @SYM: resolved when defined */
	/* Inner fetches are addresses: whole words. */
	base = rtk_fetch(f->inner, regs, retaddr, sizeof(unsigned long));
	return base == RTK_FAULT ? RTK_FAULT : base + f->value;
}

/*
 * The value of fetch-arg @f, reading @width bytes if it ends in a memory
 * read: for $comm, the address of the task's comm; a dereference that
 * faults, and every dereference around it, gives RTK_FAULT.  Any context.
 */
static unsigned long rtk_fetch(const struct rtk_fetch *f, struct pt_regs *regs,
			       unsigned long retaddr, unsigned int width)
{
	unsigned long addr;
	bool user;

	switch (f->kind) {
	case RTK_FETCH_REG:
		return regs_get_register(regs, f->value);
	case RTK_FETCH_STACK:
		return regs_get_kernel_stack_nth(regs, f->value);
	case RTK_FETCH_STACK_ADDR:
		return kernel_stack_pointer(regs);
	case RTK_FETCH_ARG:
		return regs_get_kernel_argument(regs, f->value);
	case RTK_FETCH_RETVAL:
		return regs_return_value(regs);
	case RTK_FETCH_RETADDR:
		return retaddr;
	case RTK_FETCH_MEM:
	case RTK_FETCH_SYMBOL:
	case RTK_FETCH_DEREF:
	case RTK_FETCH_UDEREF:
		addr = rtk_fetch_addr(f, regs, retaddr, &user);
		return addr == RTK_FAULT ? RTK_FAULT :
					   rtk_read(addr, width, user);
	case RTK_FETCH_COMM:
		return (unsigned long)current->comm;
	case RTK_FETCH_IMM:
		return f->value;
	case RTK_FETCH_IMM_STRING:
		return (unsigned long)f->symbol;
	}
	return 0;
}

/*
 * b<W>@<O>/<S>: the W bits at bit O of @v, which fetch-arg @f gave: a
 * value from a register, the stack or an immediate is never the fault
 * marker, one read from memory is if it equals it (unambiguous below
 * 8 bytes, where reads zero-extend) and stays so.
 */
static unsigned long rtk_bits(const struct rtk_arg *arg,
			      const struct rtk_fetch *f, unsigned long v)
{
	if (!arg->bit_width || (rtk_fetch_is_memory(f) && v == RTK_FAULT))
		return v;
	v >>= arg->bit_offset;
	if (arg->bit_width < BITS_PER_LONG)
		v &= (1UL << arg->bit_width) - 1;
	return v;
}

/*
 * The symbol a value points into, as "name+0x12/0x40 [module]".
 * sprint_symbol() needs KSYM_SYMBOL_LEN bytes, too many for a handler's
 * stack: one buffer per CPU is enough, as probe handlers do not nest on a
 * CPU (kprobes counts a probe hit inside a handler, NMIs included, as
 * missed, and runs no handler for it).  Valid until the next call on
 * this CPU.
 */
static DEFINE_PER_CPU(char [KSYM_SYMBOL_LEN], rtk_symstr_buf);

static const char *rtk_symstr(unsigned long v)
{
	char *buf = this_cpu_ptr(rtk_symstr_buf);

	sprint_symbol(buf, v);
	return buf;
}

/*
 * Where a string argument's text is: @text for text the kernel has at
 * hand ($comm, \"text", symstr), else the address to read, and whether
 * it is user memory.  A memory fetch-arg names the string's address (as
 * upstream: +0(%si):string is the text at %si); any other fetch-arg (a
 * register, an argument) holds it.  User memory for ustring, for
 * +|-uoffs(), or an address only the user's can be.
 */
static void rtk_string_source(const struct rtk_arg *arg, struct pt_regs *regs,
			      unsigned long retaddr, const char **text,
			      unsigned long *addr, bool *user)
{
	const struct rtk_fetch *f = arg->fetch;
	bool mem_user = false;

	*text = NULL;
	*user = false;
	if (f->kind == RTK_FETCH_COMM) {
		*text = current->comm;
		return;
	}
	if (f->kind == RTK_FETCH_IMM_STRING) {
		*text = f->symbol;
		return;
	}
	if (arg->type == RTK_TYPE_SYMSTR) {
		*text = rtk_symstr(rtk_fetch(f, regs, retaddr,
					     sizeof(unsigned long)));
		return;
	}
	if (rtk_fetch_is_memory(f))
		*addr = rtk_fetch_addr(f, regs, retaddr, &mem_user);
	else
		*addr = rtk_fetch(f, regs, retaddr, sizeof(unsigned long));
	*user = arg->type == RTK_TYPE_USTRING || mem_user ||
		(*addr != RTK_FAULT && rtk_user_addr(*addr));
	/*
	 * The user memory mapped is not the current task's in an NMI that
	 * came amid a switch of mm: copy_from_user_nofault() checks
	 * nmi_uaccess_okay(), the string accessors do not.
	 */
	if (*user && !nmi_uaccess_okay())
		*addr = RTK_FAULT;
}

/*
 * The length of the kernel string at @addr, NUL included, at most @max;
 * -EFAULT if it is not all readable.  Reads in pieces that stay inside a
 * page, so that a string ending before an unmapped page reads whole.
 */
static long rtk_strnlen_kernel(unsigned long addr, long max)
{
	unsigned long piece;
	const char *nul;
	long len = 0;
	char buf[16];

	while (len < max) {
		piece = min_t(long, sizeof(buf), max - len);
		piece = min(piece, PAGE_SIZE - offset_in_page(addr + len));
		if (copy_from_kernel_nofault(buf, (void *)(addr + len), piece))
			return -EFAULT;
		nul = memchr(buf, '\0', piece);
		if (nul)
			return len + (nul - buf) + 1;
		len += piece;
	}
	return max;
}

/* The length of the user string at @addr, as rtk_strnlen_kernel(). */
static long rtk_strnlen_user(unsigned long addr, long max)
{
	long len;

	len = strnlen_user_nofault((const void __user *)addr, max);
	if (!len)
		return -EFAULT;
	return min(len, max);
}

/**
 * rtk_string_len() - bytes a string argument's text takes in a record
 * @arg: the argument, of a string type
 * @regs: the registers at the probe
 * @retaddr: the return address, for a return probe's ra
 * @max: the most bytes it may take (at least 1)
 *
 * Return: the length of its text with the NUL, cut to @max; -EFAULT for
 * memory that faults.
 *
 * Context: any; does not sleep.
 */
long rtk_string_len(const struct rtk_arg *arg, struct pt_regs *regs,
		    unsigned long retaddr, unsigned int max)
{
	const char *text;
	unsigned long addr;
	bool user;
	long len;

	rtk_string_source(arg, regs, retaddr, &text, &addr, &user);
	if (text)
		len = strnlen(text, max - 1) + 1;
	else if (addr == RTK_FAULT)
		len = -EFAULT;
	else if (user)
		len = rtk_strnlen_user(addr, max);
	else
		len = rtk_strnlen_kernel(addr, max);
	return len < 0 ? -EFAULT : min_t(long, len, max);
}

/**
 * rtk_fetch_string() - copy a string argument's text into a record
 * @arg: the argument, of a string type
 * @regs: the registers at the probe
 * @retaddr: the return address, for a return probe's ra
 * @dst: where its text goes
 * @len: the bytes rtk_measure_strings() gave it (at least 1)
 *
 * The text is read again: text that changed since it was measured is cut
 * to @len, or ends early.  Every byte of @dst is written: the text, its
 * NUL, then zeros; RTK_FAULT_STRING (cut) if the memory faults.
 *
 * Context: any; does not sleep.
 *
 * Return: whether the memory faulted.
 */
bool rtk_fetch_string(const struct rtk_arg *arg, struct pt_regs *regs,
		      unsigned long retaddr, char *dst, unsigned int len)
{
	bool user, faulted;
	const char *text;
	unsigned long addr;
	long got;

	rtk_string_source(arg, regs, retaddr, &text, &addr, &user);
	if (text)
		got = strscpy(dst, text, len);
	else if (addr == RTK_FAULT)
		got = -EFAULT;
	else if (user)
		got = strncpy_from_user_nofault(dst, (void __user *)addr, len);
	else
		got = strncpy_from_kernel_nofault(dst, (void *)addr, len);
	/* strscpy() cutting the text says -E2BIG, and leaves it cut. */
	faulted = got < 0 && got != -E2BIG;
	if (faulted)
		strscpy(dst, RTK_FAULT_STRING, len);
	dst[len - 1] = '\0';
	got = strlen(dst) + 1;
	memset(dst + got, 0, len - got);
	return faulted;
}

/* TYPE[N]: N elements of @width bytes from consecutive addresses. */
static void rtk_fetch_array(const struct rtk_arg *arg, struct pt_regs *regs,
			    unsigned long retaddr, void *slot,
			    unsigned int width)
{
	unsigned long addr, v;
	unsigned int i;
	bool user;

	addr = rtk_fetch_addr(arg->fetch, regs, retaddr, &user);
	for (i = 0; i < arg->count; i++) {
		v = addr == RTK_FAULT ? RTK_FAULT :
			rtk_read(addr + i * width, width, user);
		v = rtk_bits(arg, arg->fetch, v);
		/* Little-endian: the value's low bytes first. */
		memcpy(slot + i * width, &v, width);
	}
}

/**
 * rtk_arg_size() - bytes an argument takes in a record's fixed part
 * @arg: the argument
 *
 * Return: 8 for a number, or for a string (its __data_loc word, then
 * padding; the text goes after the fixed part), the elements' bytes for
 * an array.
 */
unsigned int rtk_arg_size(const struct rtk_arg *arg)
{
	if (arg->count && !rtk_type_is_string(arg->type))
		return arg->count * rtk_read_width(arg->type);
	return sizeof(unsigned long);
}

/**
 * rtk_fetch_arg() - record one number or array argument into its slot
 * @arg: the argument, not of a string type
 * @regs: the registers at the probe
 * @retaddr: the return address, for a return probe's ra
 * @slot: round_up(rtk_arg_size(@arg), 8) bytes
 *
 * A number fills the slot's 8 bytes (narrower types read its first
 * bytes; from memory, only as many bytes as the type has); an array its
 * elements, each as wide as its type.  Bytes of the slot not written are
 * zero.
 *
 * Context: any; does not sleep.
 */
void rtk_fetch_arg(const struct rtk_arg *arg, struct pt_regs *regs,
		   unsigned long retaddr, void *slot)
{
	unsigned int width = rtk_read_width(arg->type);
	unsigned long v;

	memset(slot, 0, round_up(rtk_arg_size(arg), 8));
	if (arg->count) {
		rtk_fetch_array(arg, regs, retaddr, slot, width);
		return;
	}
	v = rtk_fetch(arg->fetch, regs, retaddr, width);
	v = rtk_bits(arg, arg->fetch, v);
	memcpy(slot, &v, sizeof(v));
}

/**
 * rtk_measure_strings() - the bytes a record's strings take
 * @def: the probe's definition
 * @regs: registers at the probe
 * @retaddr: the return address (return probes), else 0
 * @room: bytes the record has for them (at least one per string)
 * @lens: each argument's string length, set for the string arguments
 *
 * Strings are cut so that they all fit @room, leaving a byte (a NUL) for
 * each one after.  A string whose memory faults takes RTK_FAULT_STRING's
 * length; in an upstream probe none, as upstream records it (length 0,
 * printed (fault)).  Any context.
 *
 * Return: the sum of @lens.
 */
unsigned int rtk_measure_strings(const struct rtk_def *def,
				 struct pt_regs *regs, unsigned long retaddr,
				 unsigned int room, u16 *lens)
{
	unsigned int i, left = def->nr_strings, total = 0, max;
	long len;

	/*
	 * Every string argument gets its length (rtk_fetch_args() uses them
	 * all); @left, the strings after this one, only keeps them room.
	 */
	for (i = 0; i < def->nr_args; i++) {
		if (!rtk_type_is_string(def->args[i].type))
			continue;
		if (WARN_ON_ONCE(!left) || total + left > room) {
			lens[i] = 0;
			continue;
		}
		left--;
		max = min_t(unsigned int, room - total - left, U16_MAX);
		len = rtk_string_len(&def->args[i], regs, retaddr, max);
		if (len < 0)
			len = def->upstream ? 0 :
			      min_t(unsigned int, sizeof(RTK_FAULT_STRING), max);
		lens[i] = len;
		total += lens[i];
	}
	return total;
}

/**
 * rtk_fetch_args() - record every argument of a probe
 * @def: the probe's definition
 * @regs: registers at the probe
 * @retaddr: the return address (return probes), else 0
 * @rec: the record
 * @offsets: each argument's offset in @rec
 * @text: offset in @rec of the strings' text, after the fixed part
 * @lens: the string lengths rtk_measure_strings() gave
 *
 * rtk_fetch_arg() for each number and array, with registers and function
 * arguments (most arguments) read inline: what rtk_fetch_arg() does for
 * them, without its calls and its switch's jump table, which cost a
 * kprobe hit about a third of its time under TCG.  A string's slot gets
 * its __data_loc word (length << 16 | offset, as upstream's), its text
 * goes at @text, one after the other.  Any context.
 */
void rtk_fetch_args(const struct rtk_def *def, struct pt_regs *regs,
		    unsigned long retaddr, void *rec,
		    const unsigned int *offsets, unsigned int text,
		    const u16 *lens)
{
	const struct rtk_arg *arg;
	unsigned long v;
	unsigned int i;

	/* A __data_loc word has 16 bits for the offset, 16 for the length. */
	BUILD_BUG_ON(RTB_MAX_PAYLOAD > U16_MAX);
	for (i = 0; i < def->nr_args; i++) {
		arg = &def->args[i];
		if (rtk_type_is_string(arg->type)) {
			v = (unsigned long)lens[i] << 16 | text;
			memcpy(rec + offsets[i], &v, sizeof(v));
			/*
			 * Memory that faults only now: an upstream probe's
			 * string says so by length 0, its room left zeroed.
			 */
			if (lens[i] &&
			    rtk_fetch_string(arg, regs, retaddr, rec + text,
					     lens[i]) && def->upstream) {
				memset(rec + text, 0, lens[i]);
				v = text;
				memcpy(rec + offsets[i], &v, sizeof(v));
			}
			text += lens[i];
			continue;
		}
		/* Numbers as they are: no bitfield, no array. */
		if (arg->bit_width || arg->count || arg->type > RTK_TYPE_X64)
			goto general;
		if (arg->fetch->kind == RTK_FETCH_REG)
			v = regs_get_register(regs, arg->fetch->value);
		else if (arg->fetch->kind == RTK_FETCH_ARG)
			v = regs_get_kernel_argument(regs, arg->fetch->value);
		else
			goto general;
		memcpy(rec + offsets[i], &v, sizeof(v));
		continue;
general:
		rtk_fetch_arg(arg, regs, retaddr, rec + offsets[i]);
	}
}
