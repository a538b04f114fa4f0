/* SPDX-License-Identifier: GPL-2.0 */
/* Live collection from /sys/kernel/debug/kmemtrace. */
#ifndef KMEMTRACE_RECORD_H
#define KMEMTRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct kt_stream {
	int		cpu;
	uint64_t	len;		/* bytes written to its file */
};

struct kt_recording {
	struct kt_stream	*streams;
	int			nr;
	unsigned int		abi;		/* the kernel's abi_version */
	uint64_t		lost_bytes;	/* total_overruns grew by */
};

/*
 * Record while @argv runs (NULL: until SIGINT or SIGTERM): one reader
 * thread per CPU, pinned to it, poll() then read() as the ABI asks, for
 * every cpu<n> file of @dir (kmemtrace's debugfs directory), those made
 * while recording included.  Each reader writes its records to
 * @out_dir/cpu<n> as it reads them; @out_dir also gets abi_version,
 * endianness and, at the end, total_overruns (its growth).  @cpu_dir is
 * sysfs's CPU directory (/sys/devices/system/cpu), which tells offline
 * CPUs from those this task may not run on.  @buffer_kb, if not 0, sets
 * the per-CPU buffer size first.  Prints a reason and returns -1 on
 * failure; else the command's exit status (0 without one).
 */
int kt_record(const char *dir, const char *cpu_dir, unsigned int buffer_kb,
	      const char *out_dir, char *const argv[],
	      struct kt_recording *rec);
void kt_recording_free(struct kt_recording *rec);

/* "little\n" or "big\n": what a session's endianness file says. */
const char *kt_host_endianness(void);

/* The CPU of a file named cpu<n>, or -1 for any other name. */
int kt_cpu_of(const char *name);

/*
 * Whether sysfs (@cpu_dir) says CPU @cpu is online: its online file, or,
 * without one (a CPU that cannot go offline, cpu0 often), whether the
 * CPU's directory is there.
 */
int kt_cpu_online(const char *cpu_dir, int cpu);

enum {
	KT_PINNED,		/* the calling thread runs on the CPU now */
	KT_CPU_OFFLINE,
	KT_CPU_REFUSED,		/* online, but not in our cpuset (or going) */
};

/* Pin the calling thread to @cpu: one of the above, or -1 (errno). */
int kt_pin(const char *cpu_dir, int cpu);

#endif
