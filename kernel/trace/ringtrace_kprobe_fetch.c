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
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <asm/tlb.h>

#include "ringtrace_kprobe_fetch.h"

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

/* b<W>@<O>/<S>: the W bits at bit O. */
static unsigned long rtk_bits(const struct rtk_arg *arg, unsigned long v)
{
	if (!arg->bit_width)
		return v;
	v >>= arg->bit_offset;
	if (arg->bit_width < BITS_PER_LONG)
		v &= (1UL << arg->bit_width) - 1;
	return v;
}

/*
 * The symbol a value points into, as "name+0x12/0x40 [module]", cut to
 * the slot.  sprint_symbol() needs KSYM_SYMBOL_LEN bytes, too many for a
 * handler's stack: one buffer per CPU is enough, as probe handlers do
 * not nest on a CPU (kprobes counts a probe hit inside a handler, NMIs
 * included, as missed, and runs no handler for it).
 */
static DEFINE_PER_CPU(char [KSYM_SYMBOL_LEN], rtk_symstr_buf);

static void rtk_fetch_symstr(unsigned long v, char *slot)
{
	char *buf = this_cpu_ptr(rtk_symstr_buf);

	sprint_symbol(buf, v);
	strscpy(slot, buf, RTK_STRING_SIZE);
}

/*
 * strncpy_from_user_nofault(), but refusing where copy_from_user_nofault()
 * refuses and it does not: in an NMI that came amid a switch of mm, the
 * user memory mapped is not the current task's.
 */
static long rtk_read_user_string(char *slot, unsigned long addr)
{
	if (!nmi_uaccess_okay())
		return -EFAULT;
	return strncpy_from_user_nofault(slot, (void __user *)addr,
					 RTK_STRING_SIZE);
}

/*
 * A string argument: text ($comm, \"text") is copied; a memory fetch-arg
 * reads the string at the address it names (upstream's meaning:
 * +0(%si):string is the text at %si); any other fetch-arg (a register,
 * an argument) holds the string's address.  User memory for ustring, for
 * +|-uoffs(), or an address only the user's can be.
 */
static void rtk_fetch_string(const struct rtk_arg *arg, struct pt_regs *regs,
			     unsigned long retaddr, char *slot)
{
	const struct rtk_fetch *f = arg->fetch;
	bool user = arg->type == RTK_TYPE_USTRING;
	unsigned long addr;
	bool mem_user;
	long len;

	if (f->kind == RTK_FETCH_COMM) {
		strscpy(slot, current->comm, RTK_STRING_SIZE);
		return;
	}
	if (f->kind == RTK_FETCH_IMM_STRING) {
		strscpy(slot, f->symbol, RTK_STRING_SIZE);
		return;
	}
	if (f->kind == RTK_FETCH_MEM || f->kind == RTK_FETCH_SYMBOL ||
	    f->kind == RTK_FETCH_DEREF || f->kind == RTK_FETCH_UDEREF) {
		addr = rtk_fetch_addr(f, regs, retaddr, &mem_user);
		user |= mem_user;
	} else {
		addr = rtk_fetch(f, regs, retaddr, sizeof(unsigned long));
	}
	if (addr == RTK_FAULT)
		len = -EFAULT;
	else if (user || rtk_user_addr(addr))
		len = rtk_read_user_string(slot, addr);
	else
		len = strncpy_from_kernel_nofault(slot, (void *)addr,
						  RTK_STRING_SIZE);
	if (len < 0)
		strscpy(slot, RTK_FAULT_STRING, RTK_STRING_SIZE);
	/* A string cut at the slot's end: keep the slot a C string. */
	slot[RTK_STRING_SIZE - 1] = '\0';
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
		if (v != RTK_FAULT)
			v = rtk_bits(arg, v);
		/* Little-endian: the value's low bytes first. */
		memcpy(slot + i * width, &v, width);
	}
}

/**
 * rtk_arg_size() - bytes an argument takes in a record
 * @arg: the argument
 *
 * Return: RTK_STRING_SIZE for a string, 8 for a number, the elements'
 * bytes for an array.
 */
unsigned int rtk_arg_size(const struct rtk_arg *arg)
{
	if (rtk_type_is_string(arg->type))
		return RTK_STRING_SIZE;
	if (arg->count)
		return arg->count * rtk_read_width(arg->type);
	return sizeof(unsigned long);
}

/**
 * rtk_fetch_arg() - record one argument into its slot
 * @arg: the argument
 * @regs: the registers at the probe
 * @retaddr: the return address, for a return probe's ra
 * @slot: round_up(rtk_arg_size(@arg), 8) bytes
 *
 * A number fills the slot's 8 bytes (narrower types read its first
 * bytes; from memory, only as many bytes as the type has); an array its
 * elements, each as wide as its type; a string is copied NUL-terminated
 * and truncated to the slot, or recorded as RTK_FAULT_STRING if its
 * memory faults.  Bytes of the slot not written are zero.
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
	switch (arg->type) {
	case RTK_TYPE_STRING:
	case RTK_TYPE_USTRING:
		rtk_fetch_string(arg, regs, retaddr, slot);
		return;
	case RTK_TYPE_SYMSTR:
		v = rtk_fetch(arg->fetch, regs, retaddr, sizeof(unsigned long));
		rtk_fetch_symstr(v, slot);
		return;
	default:
		break;
	}
	v = rtk_fetch(arg->fetch, regs, retaddr, width);
	if (v != RTK_FAULT)
		v = rtk_bits(arg, v);
	memcpy(slot, &v, sizeof(v));
}

/**
 * rtk_fetch_args() - record every argument of a probe into its slot
 * @def: the probe's definition
 * @regs: registers at the probe
 * @retaddr: the return address (return probes), else 0
 * @rec: the record
 * @offsets: each argument's offset in @rec
 *
 * rtk_fetch_arg() for each argument, in one call, with registers and
 * function arguments (most arguments) read inline: what rtk_fetch_arg()
 * does for them, without its calls and its switch's jump table, which
 * cost a kprobe hit about a third of its time under TCG.  Any context.
 */
void rtk_fetch_args(const struct rtk_def *def, struct pt_regs *regs,
		    unsigned long retaddr, void *rec,
		    const unsigned int *offsets)
{
	const struct rtk_arg *arg;
	unsigned long v;
	unsigned int i;

	for (i = 0; i < def->nr_args; i++) {
		arg = &def->args[i];
		/* Numbers as they are: no bitfield, no array, no text. */
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
