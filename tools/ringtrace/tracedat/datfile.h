/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.dat version 6 (Documentation/trace/trace-dat.rst) and version 7
 * (trace-cmd 3's default: sections found through options, optionally
 * compressed): the sections in memory, a writer and a reader that checks
 * every size and offset.
 */
#ifndef TRACEDAT_DATFILE_H
#define TRACEDAT_DATFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "codec.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

struct td_blob {
	const uint8_t	*data;
	size_t		len;
};

struct td_system {
	const char	*name;
	struct td_blob	*formats;
	uint32_t	nr_formats;
};

struct td_option {
	uint16_t	type;		/* never 0: 0 ends the list */
	struct td_blob	data;
};

enum td_mode { TD_FLYRECORD, TD_LATENCY };

/*
 * A whole file.  Reading fills the blobs with pointers into the buffer
 * read, which must outlive it; the arrays are the reader's (td_release).
 */
struct td_file {
	uint32_t	version;	/* 6 or 7; writing: 0 means 6 */
	enum td_codec	codec;		/* version 7: sections compressed so */
	const char	*clock;		/* version 7: the buffer's; NULL: local */
	uint32_t	chunk_pages;	/* writing compressed: 0 means 16 */
	/*
	 * Writing: only what comes before the CPU data (version 7: no
	 * buffer section, no BUFFER option), what trace-cmd's collector
	 * takes before the data and completes itself.
	 */
	int		meta_only;
	int		big_endian;
	uint8_t		long_size;	/* 4 or 8 */
	uint32_t	page_size;
	struct td_blob	header_page;	/* empty: the 2008 record layout */
	struct td_blob	header_event;
	struct td_blob	*ftrace_formats;
	uint32_t	nr_ftrace_formats;
	struct td_system *systems;
	uint32_t	nr_systems;
	struct td_blob	kallsyms;
	struct td_blob	printk_formats;
	struct td_blob	cmdlines;
	uint32_t	nr_cpus;
	struct td_option *options;
	uint32_t	nr_options;
	enum td_mode	mode;
	struct td_blob	latency;	/* TD_LATENCY: the rest of the file */
	struct td_blob	*cpu_data;	/* TD_FLYRECORD: nr_cpus of them */
	uint64_t	*cpu_offsets;	/* reading: where each CPU's data was */
	const uint8_t	*base;		/* reading: the file, for offsets */
	size_t		base_len;	/* and its length */
	/* Reading version 7: decompressed sections the blobs point into. */
	void		**owned;
	uint32_t	nr_owned;
};

/*
 * Write @tf to @f as version tf->version (version 7: its sections and CPU
 * data compressed with tf->codec), little-endian unless tf->big_endian;
 * each CPU's data starts on a tf->page_size boundary.  Returns 0, or -1 with the reason
 * in @err.
 */
int td_write(FILE *f, const struct td_file *tf, char *err, size_t errlen);

/*
 * Read the @len bytes at @buf as a trace.dat file, version 6 or 7 (the
 * top instance's buffer; version 7's other instances are skipped).  Returns 0, or -1 with
 * @err naming the offset and what was expected there; nothing to release
 * then.
 */
int td_read(const uint8_t *buf, size_t len, struct td_file *tf, char *err,
	    size_t errlen);
void td_release(struct td_file *tf);

#endif
