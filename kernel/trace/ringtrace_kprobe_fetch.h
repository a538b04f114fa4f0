/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kprobe events fetch-arg evaluator: what a probe handler records for
 * each argument of a parsed definition.
 */
#ifndef _RINGTRACE_KPROBE_FETCH_H
#define _RINGTRACE_KPROBE_FETCH_H

#include <linux/errno.h>

#include "ringtrace_kprobe_parse.h"

struct pt_regs;

/* What a fetch from memory that faults records. */
#define RTK_FAULT		((unsigned long)-EFAULT)
/* Bytes a string argument keeps, NUL included. */
#define RTK_STRING_SIZE		64
/* What a string argument whose memory faults records. */
#define RTK_FAULT_STRING	"(fault)"

unsigned int rtk_arg_size(const struct rtk_arg *arg);
void rtk_fetch_arg(const struct rtk_arg *arg, struct pt_regs *regs,
		   unsigned long retaddr, void *slot);
void rtk_fetch_args(const struct rtk_def *def, struct pt_regs *regs,
		    unsigned long retaddr, void *rec,
		    const unsigned int *offsets);

#endif /* _RINGTRACE_KPROBE_FETCH_H */
