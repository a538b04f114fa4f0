/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel text symbols from /proc/kallsyms, for naming call sites. */
#ifndef KMEMTRACE_KSYMS_H
#define KMEMTRACE_KSYMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ksym {
	uint64_t	addr;
	char		*name;		/* "func" or "func [module]" */
};

struct ksyms {
	struct ksym	*syms;
	size_t		nr;
};

/* Read kallsyms text; returns the number of symbols kept, or -1. */
int ksyms_load(struct ksyms *ks, FILE *f);
void ksyms_free(struct ksyms *ks);

/*
 * Name @addr: "func+0xoff [module]" (with_offset) or "func [module]", or
 * its hex value when no symbol covers it.
 */
void ksyms_name(const struct ksyms *ks, uint64_t addr, int with_offset,
		char *buf, size_t len);

#endif
