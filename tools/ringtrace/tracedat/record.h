/* SPDX-License-Identifier: GPL-2.0 */
/* tracedat record: a ringtrace session into a trace.dat file. */
#ifndef TRACEDAT_RECORD_H
#define TRACEDAT_RECORD_H

#include <stddef.h>

#include "codec.h"
#include "datfile.h"

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
	int		last_boot;	/* --last-boot: last_boot/ into a file */
	int		force;		/* --force: even from another kernel */
};

/*
 * Record as @opts say and write @opts->output.  Prints a progress line
 * and a summary on stderr.  What it changed in the tracing directory is
 * put back as it was at the end, unless @opts->keep (a failure to put
 * something back is a warning).  Returns the command's exit status (0
 * without one), or -1 after printing why it failed.
 */
int td_record(const struct td_record_opts *opts);

/*
 * --last-boot: the last boot's trace (@opts->tracing's last_boot/, the
 * persistent buffer's) into @opts->output, with nothing written to the
 * tracing directory.  Returns 0, or -1 after printing why.
 */
int td_record_last_boot(const struct td_record_opts *opts);

/* record.c's helpers for lastboot.c. */

/* A whole small file, room for a NUL after it; NULL (errno set) if not. */
char *td_read_all(const char *path, size_t *len);
/* A file as a blob; empty if it cannot be read. */
struct td_blob td_blob_of(const char *path);
/* Every SYSTEM/EVENT/format under the events directory @events into @tf. */
void td_read_formats(const char *events, struct td_file *tf);
/* What the blobs of @tf's sections hold (not the CPU data, the options). */
void td_release_sections(struct td_file *tf);
/* The clock in brackets in trace_clock's @text, allocated; NULL if none. */
char *td_clock_in_use(const char *text);
/* @tf into the file @out: 0, or -1 after printing why. */
int td_write_to(const char *out, const struct td_file *tf);

#endif
