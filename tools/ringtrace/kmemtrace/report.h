/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmemtrace accounting: replays merged events, tracks live objects and
 * sums per call site; prints the report.
 */
#ifndef KMEMTRACE_REPORT_H
#define KMEMTRACE_REPORT_H

#include <stdio.h>

#include "ksyms.h"
#include "stream.h"

/* Sums for one (call site, type); frees count this site's objects. */
struct kt_site {
	uint64_t	call_site;
	uint8_t		type_id;
	uint64_t	allocs, frees, bytes_req, bytes_alloc;
	uint64_t	cross_cpu_frees, live, live_bytes;
};

struct kt_object {
	uint64_t	ptr;
	uint64_t	bytes_req, bytes_alloc;
	uint32_t	site;		/* index into sites */
	int32_t		cpu;		/* where it was allocated */
	uint8_t		used;
	uint8_t		pages;		/* page allocator, not slab */
};

struct kt_account {
	struct kt_site		*sites;
	size_t			nr_sites, sites_cap;
	size_t			*site_hash;	/* index + 1; 0 is empty */
	size_t			site_hash_size;
	struct kt_object	*objs;		/* open addressing */
	size_t			objs_size, nr_live;
	uint64_t		allocs, frees, bytes_req, bytes_alloc;
	uint64_t		cross_cpu_frees, untracked_frees;
	uint64_t		replaced;	/* allocated again unfreed */
	int			nr_cpus;
};

struct kt_report_opts {
	const struct ksyms	*ksyms;
	int			by_function;	/* one row per function */
	int			have_lost_bytes;
	uint64_t		lost_bytes;	/* total_overruns delta */
	size_t			max_live;	/* live objects listed */
};

/* Replay @evs (merged) into @acc.  Returns 0, or -1 when out of memory. */
int kt_account(struct kt_account *acc, const struct kt_events *evs);
void kt_account_free(struct kt_account *acc);

void kt_print_report(FILE *out, const struct kt_account *acc,
		     const struct kt_events *evs,
		     const struct kt_skipped *skipped,
		     const struct kt_report_opts *opts);

#endif
