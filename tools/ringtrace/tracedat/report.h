/* SPDX-License-Identifier: GPL-2.0 */
/* tracedat report: a trace.dat's events, rendered by libtraceevent. */
#ifndef TRACEDAT_REPORT_H
#define TRACEDAT_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "datfile.h"

struct td_report_opts {
	int		cpu;		/* -1: every CPU */
	const char	*event;		/* NULL, "SYSTEM", "EVENT" or both */
	int		summary;	/* counts per event and CPU instead */
	int		no_plugins;	/* skip libtraceevent's plugins */
};

/*
 * Print @tf's events merged across CPUs by time stamp, like the tracing
 * directory's trace file, lost-event markers included.  Returns 0, or -1
 * with the reason (the page, the offset) in @err.
 */
int td_report(FILE *out, const struct td_file *tf,
	      const struct td_report_opts *opts, char *err, size_t errlen);

#endif
