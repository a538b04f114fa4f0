/* SPDX-License-Identifier: GPL-2.0 */
/* kmemtrace's report: the sums of an accounting, per call site and more. */
#ifndef KMEMTRACE_REPORT_H
#define KMEMTRACE_REPORT_H

#include <stdio.h>

#include "account.h"
#include "ksyms.h"
#include "stream.h"

/* Sort keys of -s, each highest first but callsite and ptr. */
enum kt_sort_key {
	KT_SORT_BYTES,		/* bytes allocated */
	KT_SORT_REQ,		/* bytes requested */
	KT_SORT_HIT,		/* allocations */
	KT_SORT_FRAG,		/* internal fragmentation */
	KT_SORT_CALLSITE,	/* name, A to Z */
	KT_SORT_PTR,		/* pointer, low to high (--alloc) */
	KT_SORT_XCPU,		/* cross-CPU frees (perf's pingpong) */
	KT_SORT_LIVE,		/* live bytes */
	KT_SORT_NET,		/* bytes allocated less bytes freed */
	KT_SORT_FREES,
	KT_NR_SORT_KEYS,
};

#define KT_MAX_SORT	8

struct kt_report_opts {
	const struct ksyms	*ksyms;
	int			by_function;	/* one row per function */
	int			have_lost_bytes;
	uint64_t		lost_bytes;	/* total_overruns delta */
	size_t			max_live;	/* live objects listed */
	size_t			max_lines;	/* -l: rows per table, 0 all */
	int			resync;		/* --resync: say what it did */
	int			caller;		/* --caller */
	int			alloc;		/* --alloc */
	int			page;		/* --page */
	int			nr_sort;	/* -s, 0: bytes,callsite */
	enum kt_sort_key	sort[KT_MAX_SORT];
};

/* Parse -s's comma-separated keys into @o: 0, or -1 (an unknown key). */
int kt_parse_sort(const char *keys, struct kt_report_opts *o);

/* The GFP flags @gfp as the kernel's names: "GFP_KERNEL|__GFP_ZERO". */
void kt_gfp_name(uint32_t gfp, char *buf, size_t len);

void kt_print_report(FILE *out, const struct kt_account *acc,
		     const struct kt_merge *merged,
		     const struct kt_skipped *skipped,
		     const struct kt_report_opts *opts);

#endif
