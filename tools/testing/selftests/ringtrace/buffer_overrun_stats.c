// SPDX-License-Identifier: GPL-2.0
/*
 * A small buffer flooded through trace_marker from one CPU gives exact
 * counts in per_cpu/cpuN/stats: in overwrite mode every marker is either
 * still in the buffer or counted as an overrun, whole pages at a time; in
 * producer/consumer mode the buffer keeps the first ones and counts the
 * rest as dropped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"

#define TRACING		"/sys/kernel/debug/tracing"
#define MARKERS		2000
/* "m\n" with its NUL: 3 bytes after the 24-byte print record header. */
#define MARKER_TEXT	"m"
/* Data bytes in a page, and the 32-byte record a marker takes. */
#define PAGE_DATA	(4096 - 16)
#define RECORD_SIZE	32

static int write_file(const char *name, const char *value)
{
	char path[256];
	int fd, ret;

	snprintf(path, sizeof(path), TRACING "/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, value, strlen(value)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

struct stats {
	long entries, overrun, dropped, read, written;
};

static int read_stats(int cpu, struct stats *s)
{
	char path[256], line[128];
	FILE *f;

	snprintf(path, sizeof(path), TRACING "/per_cpu/cpu%d/stats", cpu);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	memset(s, 0, sizeof(*s));
	while (fgets(line, sizeof(line), f)) {
		long value;

		if (sscanf(line, "%*[a-z ]: %ld", &value) != 1)
			continue;
		if (!strncmp(line, "entries:", 8))
			s->entries = value;
		else if (!strncmp(line, "overrun:", 8))
			s->overrun = value;
		else if (!strncmp(line, "dropped events:", 15))
			s->dropped = value;
		else if (!strncmp(line, "read events:", 12))
			s->read = value;
		else if (!strncmp(line, "written:", 8))
			s->written = value;
	}
	fclose(f);
	return 0;
}

/* Flood MARKERS markers from @cpu into an empty 8 KiB-per-CPU buffer. */
static int flood(int cpu, const char *overwrite, struct stats *s)
{
	int fd, i;

	if (write_file("options/overwrite", overwrite) ||
	    write_file("buffer_size_kb", "8"))	/* resizing empties */
		return -1;
	fd = open(TRACING "/trace_marker", O_WRONLY);
	if (fd < 0)
		return -1;
	for (i = 0; i < MARKERS; i++)
		if (write(fd, MARKER_TEXT, strlen(MARKER_TEXT)) < 0) {
			close(fd);
			return -1;
		}
	close(fd);
	return read_stats(cpu, s);
}

int main(void)
{
	/* 8 KiB round up to whole pages of records. */
	long pages = (8192 + PAGE_DATA - 1) / PAGE_DATA;
	long per_page = PAGE_DATA / RECORD_SIZE;
	char old_kb[32] = "1408";
	struct stats s;
	cpu_set_t set;
	int cpu = 0, fd;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must be root\n");
	ksft_set_plan(7);

	fd = open(TRACING "/buffer_size_kb", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, old_kb, sizeof(old_kb) - 1);

		old_kb[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_exit_fail_msg("cannot run on CPU %d: %s\n", cpu,
				   strerror(errno));
	write_file("tracing_on", "1");

	if (flood(cpu, "1", &s))
		ksft_exit_fail_msg("flooding failed: %s\n", strerror(errno));
	ksft_print_msg("overwrite: entries %ld overrun %ld dropped %ld written %ld\n",
		       s.entries, s.overrun, s.dropped, s.written);
	ksft_test_result(s.written == MARKERS && s.dropped == 0,
			 "overwrite: %d markers written, none dropped\n", MARKERS);
	ksft_test_result(s.entries + s.overrun == MARKERS,
			 "overwrite: entries + overrun == markers\n");
	ksft_test_result(s.overrun >= per_page && s.entries <= pages * per_page,
			 "overwrite: the oldest pages were overwritten\n");

	if (flood(cpu, "0", &s))
		ksft_exit_fail_msg("flooding failed: %s\n", strerror(errno));
	ksft_print_msg("producer/consumer: entries %ld overrun %ld dropped %ld written %ld\n",
		       s.entries, s.overrun, s.dropped, s.written);
	/*
	 * A page holds per_page markers, one fewer where the writer was held
	 * up long enough for a time extension record (134 ms).
	 */
	ksft_test_result(s.entries <= pages * per_page &&
			 s.entries >= pages * (per_page - 1),
			 "producer/consumer: the buffer holds %ld pages of %ld\n",
			 pages, per_page);
	ksft_test_result(s.entries + s.dropped == MARKERS && s.overrun == 0,
			 "producer/consumer: the rest is dropped, nothing overwritten\n");
	ksft_test_result(s.written == s.entries + s.overrun + s.dropped + s.read,
			 "written == entries + overrun + dropped + read\n");

	write_file("options/overwrite", "1");
	ksft_test_result(!write_file("buffer_size_kb", old_kb),
			 "buffer size restored\n");
	ksft_finished();
}
