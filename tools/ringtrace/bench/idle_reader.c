// SPDX-License-Identifier: GPL-2.0
/*
 * The idle reader of "make bench" (scripts/probe-bench-vm): how often a
 * reader blocked on an empty per_cpu/cpuN/trace_pipe_raw is woken when
 * nothing is written.
 *
 * A child opens TRACING/per_cpu/cpuCPU/trace_pipe_raw and blocks in
 * read(2) on it (tracing on, no events enabled, no markers: the caller
 * sees to that).  Once the child sleeps, the parent waits a second, reads
 * the child's voluntary_ctxt_switches from /proc/PID/status, waits
 * SECONDS, reads them again and prints
 *
 *   idle bench: NAME switches N in SECONDS s wchan FUNCTION reads R
 *
 * N is the difference (every wakeup of a sleeping reader is one), FUNCTION
 * the kernel function the child sleeps in (/proc/PID/wchan) and R the
 * number of read()s that returned meanwhile (data, an error or end of
 * file; the child stops at the first that is not data).
 *
 * Usage: idle_reader [-d TRACING] [-c CPU] [-s SECONDS] NAME
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE_BYTES	4096
/* How long the child may take to open the file and go to sleep. */
#define SETTLE_TRIES	500
#define SETTLE_MS	10

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The state letter of /proc/PID/stat: 'S' while sleeping in read(). */
static char task_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static long switches(pid_t pid)
{
	char path[64], line[256];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static void read_wchan(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	if (n <= 0 || (n == 1 && buf[0] == '0')) {
		snprintf(buf, len, "unknown");
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* The child: block in read(); tell the parent of every read that returns. */
static void reader(const char *path, int tell)
{
	static char page[PAGE_BYTES];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "idle_reader: %s: %s\n", path, strerror(errno));
		_exit(1);
	}
	if (write(tell, "r", 1) != 1)
		_exit(1);
	for (;;) {
		n = read(fd, page, sizeof(page));
		if (write(tell, n > 0 ? "d" : "e", 1) != 1 || n <= 0)
			_exit(n < 0 ? 1 : 0);
	}
}

static void print_usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-d TRACING] [-c CPU] [-s SECONDS] NAME\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *tracing = "/sys/kernel/debug/tracing";
	long cpu = 0, seconds = 10, before, after, reads = 0;
	char path[4096], where[128], c;
	int opt, pipefd[2], i;
	pid_t pid;

	while ((opt = getopt(argc, argv, "d:c:s:")) != -1) {
		switch (opt) {
		case 'd':
			tracing = optarg;
			break;
		case 'c':
			cpu = atol(optarg);
			break;
		case 's':
			seconds = atol(optarg);
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (optind != argc - 1 || cpu < 0 || seconds <= 0)
		print_usage(argv[0]);
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%ld/trace_pipe_raw", tracing, cpu);

	if (pipe(pipefd)) {
		perror("idle_reader: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("idle_reader: fork");
		return 1;
	}
	if (!pid) {
		close(pipefd[0]);
		reader(path, pipefd[1]);
	}
	close(pipefd[1]);

	/* Opened, then asleep in read(). */
	if (read(pipefd[0], &c, 1) != 1 || c != 'r') {
		fprintf(stderr, "idle_reader: the reader could not open %s\n", path);
		waitpid(pid, NULL, 0);
		return 1;
	}
	for (i = 0; i < SETTLE_TRIES && task_state(pid) != 'S'; i++)
		sleep_ms(SETTLE_MS);
	if (task_state(pid) != 'S') {
		fprintf(stderr, "idle_reader: the reader does not sleep (state %c)\n",
			task_state(pid));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 1;
	}
	sleep_ms(1000);

	before = switches(pid);
	sleep_ms(seconds * 1000);
	after = switches(pid);
	read_wchan(pid, where, sizeof(where));

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* The child is gone: what it said is all there, then end of file. */
	while (read(pipefd[0], &c, 1) == 1)
		reads++;
	close(pipefd[0]);
	if (before < 0 || after < 0) {
		fprintf(stderr, "idle_reader: no voluntary_ctxt_switches for %d\n", (int)pid);
		return 1;
	}
	printf("idle bench: %s switches %ld in %ld s wchan %s reads %ld\n",
	       argv[optind], after - before, seconds, where, reads);
	return 0;
}
