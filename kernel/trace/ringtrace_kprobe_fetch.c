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

static unsigned long rtk_read_ulong(unsigned long addr)
{
	unsigned long v;

	if (copy_from_kernel_nofault(&v, (void *)addr, sizeof(v)))
		return RTK_FAULT;
	return v;
}

/**
 * rtk_fetch_value() - the value of a fetch-arg
 * @f: the fetch-arg
 * @regs: the registers at the probe
 * @retaddr: the return address, for a return probe's ra
 *
 * Context: any; does not sleep.
 *
 * Return: the value; for $comm, the address of the task's comm; a
 * dereference that faults, and every dereference around it, gives
 * RTK_FAULT.
 */
unsigned long rtk_fetch_value(const struct rtk_fetch *f, struct pt_regs *regs,
			      unsigned long retaddr)
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
		return rtk_read_ulong(f->value);
	case RTK_FETCH_ARG:
		return regs_get_kernel_argument(regs, f->value);
	case RTK_FETCH_RETVAL:
		return regs_return_value(regs);
	case RTK_FETCH_RETADDR:
		return retaddr;
	case RTK_FETCH_DEREF:
		addr = rtk_fetch_value(f->inner, regs, retaddr);
		if (addr == RTK_FAULT)
			return RTK_FAULT;
		return rtk_read_ulong(addr + f->value);
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
 * bytes); a string is copied NUL-terminated and truncated to the slot, or
 * recorded as RTK_FAULT_STRING if its memory faults, and the slot's
 * other bytes are zero.
 *
 * Context: any; does not sleep.
 */
void rtk_fetch_arg(const struct rtk_arg *arg, struct pt_regs *regs,
		   unsigned long retaddr, void *slot)
{
	unsigned long v = rtk_fetch_value(arg->fetch, regs, retaddr);

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
