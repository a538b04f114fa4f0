/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kprobe events fetch-arg evaluator: what a probe handler records for
 * each argument of a parsed definition.
 */
#ifndef _RINGTRACE_KPROBE_FETCH_H
#define _RINGTRACE_KPROBE_FETCH_H

#include <linux/errno.h>

#include "kprobe_parse.h"

struct pt_regs;

/* What a fetch from memory that faults records. */
#define RTK_FAULT		((unsigned long)-EFAULT)
/* What a string argument whose memory faults records. */
#define RTK_FAULT_STRING	"(fault)"

unsigned int rtk_arg_size(const struct rtk_arg *arg);
void rtk_fetch_arg(const struct rtk_arg *arg, struct pt_regs *regs,
		   unsigned long retaddr, void *slot);
long rtk_string_len(const struct rtk_arg *arg, struct pt_regs *regs,
		    unsigned long retaddr, unsigned int max);
bool rtk_fetch_string(const struct rtk_arg *arg, struct pt_regs *regs,
		      unsigned long retaddr, char *dst, unsigned int len);
unsigned int rtk_measure_strings(const struct rtk_def *def,
				 struct pt_regs *regs, unsigned long retaddr,
				 unsigned int room, u16 *lens);
void rtk_fetch_args(const struct rtk_def *def, struct pt_regs *regs,
		    unsigned long retaddr, void *rec,
		    const unsigned int *offsets, unsigned int text,
		    const u16 *lens);

#endif /* _RINGTRACE_KPROBE_FETCH_H */
