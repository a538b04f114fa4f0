// SPDX-License-Identifier: GPL-2.0
/*
 * Evaluating fetch-args in a kprobe or kretprobe handler.
 *
 * Handlers run with preemption off, maybe in interrupt or NMI context, on
 * registers and memory the probed code owns: every read of memory goes
 * through the nofault accessors, and a read that faults records
 * RTK_FAULT (or RTK_FAULT_STRING) instead of a value.
 */

#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ringtrace_kprobe_fetch.h"

/*
 * Read @width bytes (1, 2, 4 or 8) at @addr, zero-extended: only the
 * bytes the type covers, so that a u8 at the last byte of a page does not
 * fault on the next one.
 */
static unsigned long rtk_read(unsigned long addr, unsigned int width)
{
	union {
		u8		u8;
		u16		u16;
		u32		u32;
		unsigned long	ul;
	} v;

	if (copy_from_kernel_nofault(&v, (void *)addr, width))
		return RTK_FAULT;
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

/* The bytes an argument's last memory read takes: its type's width. */
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
		/* 64-bit numbers, and strings: a pointer to the text. */
		return sizeof(unsigned long);
	}
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

	switch (f->kind) {
	case RTK_FETCH_REG:
		return regs_get_register(regs, f->value);
	case RTK_FETCH_STACK:
		return regs_get_kernel_stack_nth(regs, f->value);
	case RTK_FETCH_STACK_ADDR:
		return kernel_stack_pointer(regs);
	case RTK_FETCH_MEM:
	case RTK_FETCH_SYMBOL:	/* resolved to an address when defined */
		return rtk_read(f->value, width);
	case RTK_FETCH_ARG:
		return regs_get_kernel_argument(regs, f->value);
	case RTK_FETCH_RETVAL:
		return regs_return_value(regs);
	case RTK_FETCH_RETADDR:
		return retaddr;
	case RTK_FETCH_DEREF:
		/* Inner fetches are addresses: whole words. */
		addr = rtk_fetch(f->inner, regs, retaddr,
				 sizeof(unsigned long));
		if (addr == RTK_FAULT)
			return RTK_FAULT;
		return rtk_read(addr + f->value, width);
	case RTK_FETCH_COMM:
		return (unsigned long)current->comm;
	}
	return 0;
}

/**
 * rtk_fetch_arg() - record one argument into its slot
 * @arg: the argument
 * @regs: the registers at the probe
 * @retaddr: the return address, for a return probe's ra
 * @slot: 8 bytes, or RTK_STRING_SIZE for a string argument
 *
 * A number fills the slot's 8 bytes (narrower types read its first
 * bytes; from memory, only as many bytes as the type has); a string is
 * copied NUL-terminated and truncated to the slot, or recorded as
 * RTK_FAULT_STRING if its memory faults, and the slot's other bytes are
 * zero.
 *
 * Context: any; does not sleep.
 */
void rtk_fetch_arg(const struct rtk_arg *arg, struct pt_regs *regs,
		   unsigned long retaddr, void *slot)
{
	unsigned long v = rtk_fetch(arg->fetch, regs, retaddr,
				    rtk_read_width(arg->type));

	if (arg->type != RTK_TYPE_STRING) {
		memcpy(slot, &v, sizeof(v));
		return;
	}
	memset(slot, 0, RTK_STRING_SIZE);
	if (arg->fetch->kind == RTK_FETCH_COMM)
		strscpy(slot, current->comm, RTK_STRING_SIZE);
	else if (v == RTK_FAULT ||
		 strncpy_from_kernel_nofault(slot, (void *)v,
					     RTK_STRING_SIZE) < 0)
		strscpy_pad(slot, RTK_FAULT_STRING, RTK_STRING_SIZE);
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
		if (arg->type == RTK_TYPE_STRING)
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
