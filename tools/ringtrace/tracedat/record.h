/* SPDX-License-Identifier: GPL-2.0 */
/* tracedat record: a ringtrace session into a trace.dat file. */
#ifndef TRACEDAT_RECORD_H
#define TRACEDAT_RECORD_H

struct td_record_opts {
	const char	*tracing;	/* the tracing directory */
	const char	**events;	/* SYSTEM, EVENT or SYSTEM/EVENT */
	const char	**filters;	/* each event's filter, or NULL */
	int		nr_events;
	unsigned int	buffer_kb;	/* 0: as it is */
	const char	*output;
	char *const	*argv;		/* the command; NULL: until ^C */
};

/*
 * Record as @opts say and write @opts->output.  Prints a progress line
 * and a summary on stderr.  Returns the command's exit status (0 without
 * one), or -1 after printing why it failed.
 */
int td_record(const struct td_record_opts *opts);

#endif
