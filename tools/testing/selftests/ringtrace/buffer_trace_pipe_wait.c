// SPDX-License-Identifier: GPL-2.0
/*
 * trace_pipe waits for records: poll() on an empty buffer times out, then
 * reports POLLIN once a marker is written; a blocking read() returns the
 * marker another process writes half a second after the reader fell
 * asleep; with O_NONBLOCK an empty trace_pipe gives EAGAIN.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rt_slowdown.h"

#define TRACING		"/sys/kernel/debug/tracing"
/* How long the other side may take: the marker's poll, the reader's sleep. */
#define PROMPT_MS	5000
#define ASLEEP_MS	3000

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	close(fd);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether @pid sleeps interruptibly (/proc/@pid/stat says S). */
static int asleep(pid_t pid)
{
	return rt_proc_state(pid) == 'S';
}

int main(void)
{
	char buf[4096];
	struct pollfd pfd;
	double start;
	ssize_t n;
	pid_t pid;
	int fd;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must be root\n");
	ksft_set_plan(5);

	write_file(TRACING "/tracing_on", "1");
	write_file(TRACING "/trace", "");
	fd = open(TRACING "/trace_pipe", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		ksft_exit_fail_msg("trace_pipe: %s\n", strerror(errno));
	n = read(fd, buf, sizeof(buf));
	ksft_test_result(n < 0 && errno == EAGAIN,
			 "O_NONBLOCK on an empty trace_pipe: EAGAIN\n");

	pfd.fd = fd;
	pfd.events = POLLIN;
	ksft_test_result(poll(&pfd, 1, 300) == 0,
			 "poll() on an empty trace_pipe times out\n");
	write_file(TRACING "/trace_marker", "poll-marker");
	ksft_test_result(poll(&pfd, 1, rt_scaled(PROMPT_MS)) == 1 &&
			 (pfd.revents & POLLIN),
			 "poll() reports POLLIN after a marker\n");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);

	fd = open(TRACING "/trace_pipe", O_RDONLY);
	if (fd < 0)
		ksft_exit_fail_msg("trace_pipe: %s\n", strerror(errno));
	pid = fork();
	if (!pid) {
		pid_t reader = getppid();
		double end = now() + rt_scaled(ASLEEP_MS) / 1000.0;

		/*
		 * Half a second after the reader fell asleep in read() (or
		 * gave up waiting for it: it must not be left waiting).
		 */
		while (!asleep(reader) && now() < end)
			usleep(10000);
		usleep(500000);
		write_file(TRACING "/trace_marker", "late-marker");
		_exit(0);
	}
	start = now();
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	waitpid(pid, NULL, 0);
	ksft_test_result(n > 0 && strstr(buf, "late-marker"),
			 "a blocking read() returns the marker written later\n");
	ksft_test_result(now() - start >= 0.4,
			 "and it waited for it (%.2f s)\n", now() - start);
	close(fd);
	ksft_finished();
}
