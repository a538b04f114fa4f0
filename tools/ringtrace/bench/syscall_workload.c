// SPDX-License-Identifier: GPL-2.0
/*
 * A syscall-heavy workload for "make bench": ITERATIONS round trips of one
 * byte through a pipe (a write(2) and a read(2) each, so vfs_read() runs
 * once per iteration).  Prints the nanoseconds per iteration.
 *
 * Usage: syscall_workload ITERATIONS
 */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 0;
	long long start;
	int fds[2];
	char c = 'x';

	if (n <= 0) {
		fprintf(stderr, "usage: %s ITERATIONS\n", argv[0]);
		return 2;
	}
	if (pipe(fds)) {
		perror("pipe");
		return 1;
	}
	start = now_ns();
	for (i = 0; i < n; i++) {
		if (write(fds[1], &c, 1) != 1 || read(fds[0], &c, 1) != 1) {
			perror("pipe round trip");
			return 1;
		}
	}
	printf("%lld\n", (now_ns() - start) / n);
	return 0;
}
