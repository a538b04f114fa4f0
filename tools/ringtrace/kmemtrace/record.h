/* SPDX-License-Identifier: GPL-2.0 */
/* Live collection from /sys/kernel/debug/kmemtrace. */
#ifndef KMEMTRACE_RECORD_H
#define KMEMTRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct kt_stream {
	int		cpu;
	uint8_t		*data;
	size_t		len, cap;
};

struct kt_recording {
	struct kt_stream	*streams;
	int			nr;
	uint64_t		lost_bytes;	/* total_overruns grew by */
};

/*
 * Record while @argv runs (NULL: until SIGINT or SIGTERM): one reader
 * thread per CPU, pinned to it, poll() then read() as the ABI asks.
 * @buffer_kb, if not 0, sets the per-CPU buffer size first.  Prints a
 * reason and returns -1 on failure; else the command's exit status (0
 * without one).
 */
int kt_record(const char *dir, unsigned int buffer_kb, char *const argv[],
	      struct kt_recording *rec);
void kt_recording_free(struct kt_recording *rec);

#endif
