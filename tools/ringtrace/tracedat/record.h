/* SPDX-License-Identifier: GPL-2.0 */
/* tracedat record: a ringtrace session into a trace.dat file. */
#ifndef TRACEDAT_RECORD_H
#define TRACEDAT_RECORD_H

#include "codec.h"

struct td_record_opts {
	const char	*tracing;	/* the tracing directory */
	const char	**events;	/* SYSTEM, EVENT or SYSTEM/EVENT */
	const char	**filters;	/* each event's filter, or NULL */
	int		nr_events;
	unsigned int	buffer_kb;	/* 0: as it is */
	int		keep;		/* -k: leave the changes, not put back */
	const char	*output;
	const char	*net;		/* -N HOST:PORT: to trace-cmd listen */
	const char	*clock;		/* -C: trace_clock for the session */
	const int	*pids;		/* -P: only these tasks' events */
	int		nr_pids;
	int		follow;		/* -F: only the command's events */
	unsigned int	file_version;	/* 6 or 7; 0: 6 */
	enum td_codec	codec;		/* version 7's compression */
	char *const	*argv;		/* the command; NULL: until ^C */
};

/*
 * Record as @opts say and write @opts->output.  Prints a progress line
 * and a summary on stderr.  What it changed in the tracing directory is
 * put back as it was at the end, unless @opts->keep (a failure to put
 * something back is a warning).  Returns the command's exit status (0
 * without one), or -1 after printing why it failed.
 */
int td_record(const struct td_record_opts *opts);

#endif
