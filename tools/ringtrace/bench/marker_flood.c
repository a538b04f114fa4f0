// SPDX-License-Identifier: GPL-2.0
/*
 * A marker flood for "make bench" (scripts/probe-bench-vm): writes markers
 * of SIZE bytes to trace_marker for SECONDS, as fast as it can or at RATE
 * markers per second, pinned to one CPU.  Each marker reads
 * "mflood NNNNNNNNNN xxx...x" and ends with a newline; its number counts
 * from 0, so that a recording can be checked for the markers it holds.
 *
 * At a rate, markers go out in batches of RATE/1000 (at least one), each
 * batch at an absolute deadline (clock_nanosleep(TIMER_ABSTIME)), so that
 * a late wakeup is caught up and the average rate holds.
 *
 * Prints (to stdout, or to FILE with -o):
 *   written N failed F ns T
 * N markers were written (attempted), F of those write()s failed (the
 * kernel refused the marker: it is lost like one overwritten), in T ns.
 *
 * Usage: marker_flood [-c CPU] [-r RATE] [-s SIZE] [-m TRACE_MARKER]
 *                     [-o FILE] SECONDS
 *   -c CPU   the CPU to run on (default 1)
 *   -r RATE  markers per second; 0, the default, as fast as possible
 *   -s SIZE  bytes per marker, newline included (default 64, 20 to 1024)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MARKER_MIN	20
#define MARKER_MAX	1024
/* Unlimited: how many markers between two looks at the clock. */
#define FREE_BATCH	256

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until(long long ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000LL,
		.tv_nsec = ns % 1000000000LL,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-c CPU] [-r RATE] [-s SIZE] [-m TRACE_MARKER] [-o FILE] SECONDS\n",
		prog);
	exit(2);
}

static long number(const char *s, const char *prog)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		print_usage(prog);
	return v;
}

int main(int argc, char **argv)
{
	const char *marker = "/sys/kernel/debug/tracing/trace_marker";
	const char *result = NULL;
	long cpu = 1, rate = 0, size = 64, batch, i;
	unsigned long long written = 0, failed = 0;
	long long start, end, next, period = 0;
	char buf[MARKER_MAX], head[24];
	double seconds;
	cpu_set_t set;
	FILE *out;
	int fd, opt;

	while ((opt = getopt(argc, argv, "c:r:s:m:o:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = number(optarg, argv[0]);
			break;
		case 'r':
			rate = number(optarg, argv[0]);
			break;
		case 's':
			size = number(optarg, argv[0]);
			break;
		case 'm':
			marker = optarg;
			break;
		case 'o':
			result = optarg;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (optind != argc - 1 || size < MARKER_MIN || size > MARKER_MAX)
		print_usage(argv[0]);
	seconds = strtod(argv[optind], NULL);
	if (!(seconds > 0))
		print_usage(argv[0]);

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "marker_flood: CPU %ld: %s\n", cpu, strerror(errno));
		return 1;
	}
	fd = open(marker, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "marker_flood: %s: %s\n", marker, strerror(errno));
		return 1;
	}
	memset(buf, 'x', size - 1);
	buf[size - 1] = '\n';

	if (rate) {
		batch = rate / 1000 > 0 ? rate / 1000 : 1;
		period = batch * 1000000000LL / rate;
	} else {
		batch = FREE_BATCH;
	}
	start = now_ns();
	end = start + (long long)(seconds * 1e9);
	next = start;
	while (now_ns() < end) {
		if (rate) {
			sleep_until(next);
			next += period;
		}
		for (i = 0; i < batch; i++) {
			int len = snprintf(head, sizeof(head), "mflood %010llu ",
					   written);

			memcpy(buf, head, len);
			if (write(fd, buf, size) != size)
				failed++;
			written++;
		}
	}
	end = now_ns();
	close(fd);

	out = result ? fopen(result, "w") : stdout;
	if (!out) {
		fprintf(stderr, "marker_flood: %s: %s\n", result, strerror(errno));
		return 1;
	}
	fprintf(out, "written %llu failed %llu ns %lld\n", written, failed,
		end - start);
	return fclose(out) ? 1 : 0;
}
