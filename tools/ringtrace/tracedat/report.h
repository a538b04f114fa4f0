/* SPDX-License-Identifier: GPL-2.0 */
/* tracedat report: a trace.dat's events, rendered by libtraceevent. */
#ifndef TRACEDAT_REPORT_H
#define TRACEDAT_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "datfile.h"

struct td_report_opts {
	const char	*cpus;		/* "0,2-3"; NULL: every CPU */
	/* Events shown: "SYSTEM", "EVENT" or both; none: all of them. */
	const char	**events;
	int		nr_events;
	/* trace-cmd's -F filters; those after a -v show what they miss. */
	const char	**filters;
	const int	*negated;
	int		nr_filters;
	int		summary;	/* counts per event and CPU instead */
	int		stat;		/* the CPUs' stats saved at the end */
	int		no_plugins;	/* skip libtraceevent's plugins */
};

/*
 * Whether @list is a CPU list as trace-cmd's --cpu takes it: numbers and
 * ranges N-M, comma-separated.  When @cpu is not NULL, whether *@cpu is
 * in it.  Returns 1 or 0; -1 for a bad list.
 */
int td_cpu_in_list(const char *list, const uint32_t *cpu);

/*
 * Print @tf's events merged across CPUs by time stamp, like the tracing
 * directory's trace file, lost-event markers included.  Returns 0, or -1
 * with the reason (the page, the offset) in @err.
 */
int td_report(FILE *out, const struct td_file *tf,
	      const struct td_report_opts *opts, char *err, size_t errlen);

#endif
