// SPDX-License-Identifier: GPL-2.0
/*
 * How every consuming reader waits for records: trace_pipe (all CPUs),
 * per_cpu/cpu0/trace_pipe and per_cpu/cpu0/trace_pipe_raw.  For each:
 * O_NONBLOCK on an empty buffer gives EAGAIN; poll() on an empty buffer
 * times out; poll(), select() and epoll_wait() report it readable promptly
 * once another process writes a marker on CPU 0 while we wait; a blocking
 * read() waits for that marker and returns it; a signal interrupts a
 * blocked read() (EINTR, the handler has no SA_RESTART); splice() with
 * SPLICE_F_NONBLOCK gives EAGAIN, a blocking one waits for the marker.
 *
 * trace_pipe_raw's poll and splice wait for buffer_percent (0..100, 0: any
 * record, N: N% of the CPU's pages filled), which the text readers and
 * read() ignore: buffer_percent takes 0..100 and refuses anything else
 * with EINVAL, keeping its value; at 100 one marker leaves poll() not
 * readable, at 0 it makes it readable; its splice() moves whole pages.
 *
 * A reader blocked on an empty buffer costs no wakeups: a process blocked
 * in read() on trace_pipe_raw, or in poll() on trace_pipe, for 3 s is
 * switched out voluntarily at most twice in that time.
 *
 * Every case runs in a child process of its own (and process group) that
 * SIGALRM interrupts after CASE_ALARM_S and the parent kills after
 * CASE_TIMEOUT_S: a reader the kernel never wakes fails its case instead of
 * hanging the test.
 *
 * The limits on how long the other side may take (PROMPT_MS, ASLEEP_S,
 * FULL_POLL_MS and the case's) scale by RT_SLOWDOWN, how much slower than
 * the development machine this one is, in percent (scripts/test measures
 * it once and passes it into the VMs; 100 if unset): a slow machine waits
 * longer rather than fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/magic.h>

#include "../kselftest.h"
#include "rt_slowdown.h"

#define TRACING		"/sys/kernel/debug/tracing"
#define README_INTRO	"ringtrace tracing directory"
#define CPU		0
#define PAGE		4096

/* How long an empty buffer must stay not readable. */
#define EMPTY_MS	400
/* "Promptly": how long a waiter may take to see a marker. */
#define PROMPT_MS	5000
/* The marker is written this long after the reader went to sleep... */
#define WRITER_DELAY_US	300000
/* ...and a blocking read() must have waited at least this long. */
#define MIN_BLOCKED_S	0.2
/* How long a writer waits for the reader to fall asleep. */
#define ASLEEP_S	3
/* A poll() that must outlast a marker's writer, which waits for it. */
#define FULL_POLL_MS	2000
/*
 * A whole case, whatever it waits for: at CASE_ALARM_S its blocking call
 * is interrupted (SIGALRM), so that it can say what it was waiting for;
 * at CASE_TIMEOUT_S it is killed.
 */
#define CASE_ALARM_S	7
#define CASE_TIMEOUT_S	10
/* The idle reader: watched for this long, allowed this many switches. */
#define IDLE_S		3
#define IDLE_MAX_SWITCHES 2

enum wait_mode { BY_POLL, BY_SELECT, BY_EPOLL };
static const char * const mode_name[] = {
	[BY_POLL] = "poll()", [BY_SELECT] = "select()",
	[BY_EPOLL] = "epoll_wait()",
};

struct reader {
	const char *name;	/* relative to TRACING */
	int raw;		/* trace_pipe_raw: pages, buffer_percent */
	int per_cpu;		/* needs per_cpu/cpu0 */
};

static const struct reader readers[] = {
	{ "trace_pipe", 0, 0 },
	{ "per_cpu/cpu0/trace_pipe", 0, 1 },
	{ "per_cpu/cpu0/trace_pipe_raw", 1, 1 },
};

static const struct reader *raw_reader = &readers[2];
static const struct reader *pipe_reader = &readers[0];

/* Results of a case child (its exit status). */
#define CASE_PASS	0
#define CASE_FAIL	1

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void tracing_path(char *path, size_t size, const char *name)
{
	snprintf(path, size, TRACING "/%s", name);
}

/* Write @value to tracing file @name; 0 or -errno. */
static int write_tracing(const char *name, const char *value, int flags)
{
	char path[256];
	int fd, ret = 0;

	tracing_path(path, sizeof(path), name);
	fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Read tracing file @name into @buf (one line, no newline); 0 or -errno. */
static int read_tracing(const char *name, char *buf, size_t size)
{
	char path[256];
	ssize_t n;
	int fd;

	tracing_path(path, sizeof(path), name);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int set_percent(int percent)
{
	char text[16];

	snprintf(text, sizeof(text), "%d", percent);
	return write_tracing("buffer_percent", text, O_TRUNC);
}

/* fork() without handing our unwritten output to the child as well. */
static pid_t xfork(void)
{
	fflush(stdout);
	fflush(stderr);
	return fork();
}

/* Wait up to @ms for child @pid; 0 and its *@status, or -1. */
static int reap(pid_t pid, int ms, int *status)
{
	double end = now() + ms / 1000.0;
	pid_t ret;

	for (;;) {
		ret = waitpid(pid, status, WNOHANG);
		if (ret == pid)
			return 0;
		if (ret < 0 && errno != EINTR)
			return -1;
		if (now() >= end)
			return -1;
		usleep(10000);
	}
}

/* Kill child @pid (and its process group if @group) and reap it, bounded. */
static void kill_child(pid_t pid, int group)
{
	int status;

	if (group)
		kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	if (reap(pid, 2000, &status))
		ksft_print_msg("pid %d does not die (stuck in the kernel?)\n",
			       pid);
}

/* The exit code of a reaped child, or 128 + signal. */
static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

/* Wait up to ASLEEP_S (scaled) for @pid to sleep; 0 once it does. */
static int wait_asleep(pid_t pid)
{
	double end = now() + rt_scaled(ASLEEP_S);
	char state;

	do {
		state = rt_proc_state(pid);
		if (state == 'S' || state == 'D' || state == 'I')
			return 0;
		usleep(10000);
	} while (now() < end);
	return -1;
}

static long voluntary_switches(pid_t pid)
{
	char path[64], line[256];
	long value = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &value) == 1)
			break;
	fclose(f);
	return value;
}

static int pin_to_cpu(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(CPU, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Markers that fill more than a page of the raw file. */
#define PAGE_OF_MARKERS	100

/* Writer exit codes. */
#define WRITER_OK	0
#define WRITER_NO_CPU	1
#define WRITER_AWAKE	2
#define WRITER_FAILED	3

/*
 * Start a child that writes marker @text @count times on CPU 0: once
 * @reader (if not 0) is asleep, and @delay_us later.  It writes even if
 * the reader never seems to sleep, so as not to leave it waiting.
 */
static pid_t start_writer_n(pid_t reader, const char *text, int delay_us,
			    int count)
{
	pid_t pid = xfork();
	int code = WRITER_OK;

	if (pid)
		return pid;
	if (pin_to_cpu())
		_exit(WRITER_NO_CPU);
	if (reader && wait_asleep(reader))
		code = WRITER_AWAKE;
	if (delay_us)
		usleep(delay_us);
	while (count--)
		if (write_tracing("trace_marker", text, 0))
			_exit(WRITER_FAILED);
	_exit(code);
}

static pid_t start_writer(pid_t reader, const char *text, int delay_us)
{
	return start_writer_n(reader, text, delay_us, 1);
}

/* Reap writer @pid (bounded); 0 if it wrote its marker as asked. */
static int finish_writer(pid_t pid)
{
	static const char * const what[] = {
		[WRITER_OK] = "ok",
		[WRITER_NO_CPU] = "cannot run on CPU 0",
		[WRITER_AWAKE] = "the reader never slept",
		[WRITER_FAILED] = "writing trace_marker failed",
	};
	int status, code;

	if (pid < 0) {
		ksft_print_msg("fork: %s\n", strerror(errno));
		return -1;
	}
	if (reap(pid, rt_scaled(ASLEEP_S * 1000 + 3000), &status)) {
		ksft_print_msg("the marker writer does not finish\n");
		kill_child(pid, 0);
		return -1;
	}
	code = exit_code(status);
	if (code != WRITER_OK)
		ksft_print_msg("marker writer: %s\n",
			       code <= WRITER_FAILED ? what[code] : "killed");
	return code == WRITER_OK ? 0 : -1;
}

/* Write marker @text on CPU 0 now; 0 on success. */
static int mark_now(const char *text)
{
	return finish_writer(start_writer(0, text, 0));
}

static void make_marker(char *text, size_t size, const char *what)
{
	snprintf(text, size, "reader-wait-%s-%d", what, getpid());
}

static int open_reader(const struct reader *r, int flags)
{
	char path[256];
	int fd;

	tracing_path(path, sizeof(path), r->name);
	fd = open(path, O_RDONLY | flags);
	if (fd < 0)
		ksft_print_msg("%s: %s\n", r->name, strerror(errno));
	return fd;
}

/*
 * Start a case from an empty buffer: tracing on, the buffer reset, @r
 * drained, buffer_percent set to @percent (if >= 0).  The text readers
 * ignore buffer_percent: there a failure to set it is only noted.
 */
static int prepare(const struct reader *r, int percent)
{
	char buf[PAGE];
	int fd, i, err;

	err = write_tracing("tracing_on", "1", O_TRUNC);
	if (!err)
		err = write_tracing("trace", "", O_TRUNC);
	if (err) {
		ksft_print_msg("cannot start tracing afresh: %s\n",
			       strerror(-err));
		return -1;
	}
	fd = open_reader(r, O_NONBLOCK);
	if (fd < 0)
		return -1;
	for (i = 0; i < 256 && read(fd, buf, sizeof(buf)) > 0; i++)
		;
	close(fd);
	if (percent >= 0) {
		err = set_percent(percent);
		if (err) {
			ksft_print_msg("buffer_percent = %d: %s\n", percent,
				       strerror(-err));
			if (r->raw)
				return -1;
		}
	}
	return 0;
}

/* Wait up to @ms for @fd to be readable by @mode: 1, 0 (timeout) or -1. */
static int wait_readable(int fd, enum wait_mode mode, int ms)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	fd_set set;
	int ep, ret;

	switch (mode) {
	case BY_POLL:
		ret = poll(&pfd, 1, ms);
		if (ret > 0 && !(pfd.revents & POLLIN)) {
			ksft_print_msg("poll(): revents %#x\n", pfd.revents);
			return -1;
		}
		break;
	case BY_SELECT:
		FD_ZERO(&set);
		FD_SET(fd, &set);
		ret = select(fd + 1, &set, NULL, NULL, &tv);
		if (ret > 0 && !FD_ISSET(fd, &set))
			return -1;
		break;
	case BY_EPOLL:
		ep = epoll_create1(0);
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)) {
			ksft_print_msg("epoll: %s\n", strerror(errno));
			if (ep >= 0)
				close(ep);
			return -1;
		}
		ret = epoll_wait(ep, &ev, 1, ms);
		close(ep);
		if (ret > 0 && !(ev.events & EPOLLIN)) {
			ksft_print_msg("epoll_wait(): events %#x\n", ev.events);
			return -1;
		}
		break;
	default:
		return -1;
	}
	if (ret < 0)
		ksft_print_msg("%s: %s\n", mode_name[mode], strerror(errno));
	return ret < 0 ? -1 : ret > 0;
}

/*
 * Whether what a reader returned (@n bytes of @buf) holds marker @text: a
 * text line with it, or a whole page with a nonzero commit and a record
 * with it.
 */
static int holds_marker(const struct reader *r, char *buf, ssize_t n,
			const char *text)
{
	unsigned long commit;
	size_t data = 8 + sizeof(long);

	if (!r->raw) {
		if (n <= 0)
			return 0;
		buf[n] = '\0';
		return !!strstr(buf, text);
	}
	if (n != PAGE) {
		if (n >= 0)
			ksft_print_msg("%s gave %zd bytes, not a page\n",
				       r->name, n);
		return 0;
	}
	memcpy(&commit, buf + 8, sizeof(commit));
	commit &= (1UL << 30) - 1;	/* bits 31, 30: lost events */
	if (!commit || commit > PAGE - data) {
		ksft_print_msg("%s: page commit %lu\n", r->name, commit);
		return 0;
	}
	return !!memmem(buf + data, commit, text, strlen(text));
}

/* The cases: each runs in a child of its own and returns CASE_*. */

/* O_NONBLOCK on an empty buffer: EAGAIN. */
static int case_nonblock(const struct reader *r, int arg)
{
	char buf[PAGE];
	ssize_t n;
	int fd;

	(void)arg;
	if (prepare(r, r->raw ? 0 : 100))
		return CASE_FAIL;
	fd = open_reader(r, O_NONBLOCK);
	if (fd < 0)
		return CASE_FAIL;
	n = read(fd, buf, sizeof(buf));
	if (n >= 0 || errno != EAGAIN) {
		ksft_print_msg("read() gave %zd (%s)\n", n,
			       n < 0 ? strerror(errno) : "data");
		return CASE_FAIL;
	}
	close(fd);
	return CASE_PASS;
}

/* poll() on an empty buffer times out. */
static int case_poll_empty(const struct reader *r, int arg)
{
	int fd, ret;

	(void)arg;
	if (prepare(r, r->raw ? 0 : 100))
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0)
		return CASE_FAIL;
	ret = wait_readable(fd, BY_POLL, EMPTY_MS);
	close(fd);
	if (ret) {
		ksft_print_msg("poll() gave %s\n",
			       ret > 0 ? "readable" : "an error");
		return CASE_FAIL;
	}
	return CASE_PASS;
}

/*
 * Waiting by @mode (enum wait_mode) on an empty buffer, a marker another
 * process writes on CPU 0 once we sleep makes it readable promptly.
 */
static int case_readable(const struct reader *r, int mode)
{
	char text[64];
	double start, took;
	int fd, ret, wrote;
	pid_t writer;

	if (prepare(r, r->raw ? 0 : 100))
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0)
		return CASE_FAIL;
	make_marker(text, sizeof(text), "ready");
	writer = start_writer(getpid(), text, WRITER_DELAY_US);
	start = now();
	ret = writer < 0 ? -1 : wait_readable(fd, mode, rt_scaled(PROMPT_MS));
	took = now() - start;
	wrote = !finish_writer(writer);
	close(fd);
	ksft_print_msg("%s: %s %s after %.2f s\n", r->name, mode_name[mode],
		       ret > 0 ? "readable" : ret ? "failed" : "timed out",
		       took);
	return ret > 0 && wrote ? CASE_PASS : CASE_FAIL;
}

/*
 * A blocking read() of an empty buffer waits for the marker another process
 * writes once we sleep and returns it.  trace_pipe_raw's read() ignores
 * buffer_percent, here 100: one record is enough.
 */
static int case_blocking_read(const struct reader *r, int arg)
{
	char buf[PAGE + 1], text[64];
	int fd, wrote, found;
	double start, took;
	pid_t writer;
	ssize_t n;

	(void)arg;
	if (prepare(r, 100))
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0)
		return CASE_FAIL;
	make_marker(text, sizeof(text), "read");
	writer = start_writer(getpid(), text, WRITER_DELAY_US);
	start = now();
	n = writer < 0 ? -1 : read(fd, buf, PAGE);
	took = now() - start;
	if (n < 0)
		ksft_print_msg("read(): %s\n", strerror(errno));
	wrote = !finish_writer(writer);
	found = holds_marker(r, buf, n, text);
	close(fd);
	ksft_print_msg("%s: read() gave %zd bytes after %.2f s%s\n", r->name,
		       n, took, found ? ", with the marker" : ", no marker");
	return wrote && found && took >= MIN_BLOCKED_S ? CASE_PASS : CASE_FAIL;
}

/* Set by the handlers, read after the interrupted call returns. */
static sig_atomic_t got_sigusr1, got_sigalrm;

static void on_sigusr1(int sig)
{
	(void)sig;
	got_sigusr1 = 1;
}

static void on_sigalrm(int sig)
{
	(void)sig;
	got_sigalrm = 1;
}

/* A signal interrupts a blocked read() of an empty buffer: EINTR. */
static int case_signal(const struct reader *r, int arg)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };	/* no SA_RESTART */
	pid_t reader = getpid(), signaller;
	char buf[PAGE];
	int fd, i;
	ssize_t n;

	(void)arg;
	if (prepare(r, 100))
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0)
		return CASE_FAIL;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		return CASE_FAIL;
	/*
	 * Once we sleep, SIGUSR1 now and then: one that came before we
	 * blocked in read() is followed by another.
	 */
	signaller = xfork();
	if (!signaller) {
		wait_asleep(reader);
		usleep(100000);
		for (i = 0; i < 2 * rt_scaled(PROMPT_MS) / 1000; i++) {
			kill(reader, SIGUSR1);
			usleep(500000);
		}
		_exit(0);
	}
	if (signaller < 0)
		return CASE_FAIL;
	n = read(fd, buf, sizeof(buf));
	if (n < 0 && errno == EINTR && got_sigusr1 && !got_sigalrm) {
		kill_child(signaller, 0);
		close(fd);
		return CASE_PASS;
	}
	ksft_print_msg("read() gave %zd (%s)%s\n", n,
		       n < 0 ? strerror(errno) : "data",
		       got_sigalrm ? " only at the case's alarm" : "");
	kill_child(signaller, 0);
	close(fd);
	return CASE_FAIL;
}

/* buffer_percent takes 0..100 and refuses 101, -1 and abc, keeping 37. */
static int case_percent_values(const struct reader *r, int arg)
{
	static const char * const good[] = { "0", "100", "37" };
	static const char * const bad[] = { "101", "-1", "abc" };
	char value[32], saved[32];
	int ok = 1, err;
	unsigned int i;

	(void)r;
	(void)arg;
	err = read_tracing("buffer_percent", saved, sizeof(saved));
	if (err) {
		ksft_print_msg("buffer_percent: %s\n", strerror(-err));
		return CASE_FAIL;
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		err = write_tracing("buffer_percent", good[i], O_TRUNC);
		if (!err)
			err = read_tracing("buffer_percent", value,
					   sizeof(value));
		if (err || strcmp(value, good[i])) {
			ksft_print_msg("buffer_percent = %s: %s, reads \"%s\"\n",
				       good[i], err ? strerror(-err) : "ok",
				       err ? "" : value);
			ok = 0;
		}
	}
	/* 37 now */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err = write_tracing("buffer_percent", bad[i], O_TRUNC);
		if (err != -EINVAL) {
			ksft_print_msg("buffer_percent = %s: %s, not EINVAL\n",
				       bad[i], err ? strerror(-err) : "accepted");
			ok = 0;
		}
		err = read_tracing("buffer_percent", value, sizeof(value));
		if (err || strcmp(value, "37")) {
			ksft_print_msg("after %s buffer_percent reads \"%s\", not 37\n",
				       bad[i], err ? strerror(-err) : value);
			ok = 0;
		}
	}
	write_tracing("buffer_percent", saved, O_TRUNC);
	return ok ? CASE_PASS : CASE_FAIL;
}

/*
 * With buffer_percent 100 a marker written while we poll() the empty
 * trace_pipe_raw does not make it readable: the poll times out.
 */
static int case_percent_full(const struct reader *r, int arg)
{
	int fd, ret, done, status, wrote;
	char text[64];
	pid_t writer;

	(void)arg;
	if (prepare(r, 100))
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0)
		return CASE_FAIL;
	make_marker(text, sizeof(text), "full");
	writer = start_writer(getpid(), text, WRITER_DELAY_US);
	ret = writer < 0 ? -1 : wait_readable(fd, BY_POLL,
					      rt_scaled(FULL_POLL_MS));
	/* The marker must have been written while we polled. */
	done = writer > 0 && waitpid(writer, &status, WNOHANG) == writer;
	wrote = done ? exit_code(status) == WRITER_OK : !finish_writer(writer);
	close(fd);
	if (!ret && !done)
		ksft_print_msg("the marker came only after the poll() ended\n");
	if (ret)
		ksft_print_msg("poll() gave %s\n",
			       ret > 0 ? "readable" : "an error");
	return !ret && done && wrote ? CASE_PASS : CASE_FAIL;
}

/* The same single marker makes poll() readable with buffer_percent 0. */
static int case_percent_zero(const struct reader *r, int arg)
{
	char text[64];
	int fd, ret;

	(void)arg;
	if (prepare(r, 100))
		return CASE_FAIL;
	make_marker(text, sizeof(text), "zero");
	if (mark_now(text))
		return CASE_FAIL;
	if (set_percent(0))
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0)
		return CASE_FAIL;
	ret = wait_readable(fd, BY_POLL, rt_scaled(PROMPT_MS));
	close(fd);
	if (ret <= 0)
		ksft_print_msg("poll() gave %s\n",
			       ret ? "an error" : "a timeout");
	return ret > 0 ? CASE_PASS : CASE_FAIL;
}

/*
 * trace_pipe_raw with buffer_percent 0 (@arg 0) or tracing off (@arg 1):
 * after a marker is read out (a partial page: the writers' page keeps its
 * committed bytes), poll() must not call the file readable again, or a
 * poll-driven recorder spins on EAGAIN.
 */
static int case_poll_after_drain(const struct reader *r, int tracing_off)
{
	char buf[PAGE], text[64];
	int fd, ret, pages = 0;

	if (prepare(r, 0))
		return CASE_FAIL;
	make_marker(text, sizeof(text), "drained");
	fd = open_reader(r, O_NONBLOCK);
	if (fd < 0 || mark_now(text))
		return CASE_FAIL;
	if (tracing_off && write_tracing("tracing_on", "0", O_TRUNC))
		return CASE_FAIL;
	while (read(fd, buf, sizeof(buf)) > 0)
		pages++;
	ret = wait_readable(fd, BY_POLL, EMPTY_MS);
	close(fd);
	if (pages != 1 || ret) {
		ksft_print_msg("%d page(s) read, then poll() gave %s\n", pages,
			       ret > 0 ? "readable" : ret ? "an error" :
			       "nothing");
		return CASE_FAIL;
	}
	return CASE_PASS;
}

/*
 * A blocking splice() of trace_pipe_raw after a peek (reading
 * per_cpu/cpu0/stats copies part of the writers' page into the reader
 * page) waits, asleep, until the writers leave a page behind, then moves
 * a page: it must neither spin nor wait for ever.
 */
static int case_splice_after_peek(const struct reader *r, int arg)
{
	char buf[PAGE], text[64];
	int fd, pipefd[2], wrote;
	double start, took;
	pid_t writer;
	ssize_t n;

	(void)arg;
	if (prepare(r, 0))
		return CASE_FAIL;
	make_marker(text, sizeof(text), "peeked");
	if (mark_now(text) || read_tracing("per_cpu/cpu0/stats", buf,
					   sizeof(buf)) < 0)
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0 || pipe(pipefd))
		return CASE_FAIL;
	writer = start_writer_n(getpid(), text, WRITER_DELAY_US,
				2 * PAGE_OF_MARKERS);
	start = now();
	n = writer < 0 ? -1 : splice(fd, NULL, pipefd[1], NULL, PAGE, 0);
	took = now() - start;
	wrote = !finish_writer(writer);
	ksft_print_msg("splice() after a peek gave %zd after %.2f s\n", n,
		       took);
	close(fd);
	return wrote && n == PAGE && took >= MIN_BLOCKED_S ? CASE_PASS :
							     CASE_FAIL;
}

/* splice() with SPLICE_F_NONBLOCK from an empty reader file: EAGAIN. */
static int case_splice_nonblock(const struct reader *r, int arg)
{
	int fd, pipefd[2];
	ssize_t n;

	(void)arg;
	if (prepare(r, 0))
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0 || pipe(pipefd))
		return CASE_FAIL;
	n = splice(fd, NULL, pipefd[1], NULL, PAGE, SPLICE_F_NONBLOCK);
	if (n >= 0 || errno != EAGAIN) {
		ksft_print_msg("splice() gave %zd (%s)\n", n,
			       n < 0 ? strerror(errno) : "data");
		return CASE_FAIL;
	}
	return CASE_PASS;
}

/*
 * A blocking splice() from an empty reader file (trace_pipe_raw at
 * buffer_percent 0) waits for the markers written once we sleep and moves
 * them: the text files their lines at once, trace_pipe_raw a page once
 * the markers fill one (it splices whole pages while tracing runs).
 */
static int case_splice_blocking(const struct reader *r, int arg)
{
	char buf[PAGE], text[64];
	int fd, pipefd[2], wrote, found = 0;
	double start, took;
	pid_t writer;
	ssize_t n;

	(void)arg;
	if (prepare(r, 0))
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0 || pipe(pipefd))
		return CASE_FAIL;
	make_marker(text, sizeof(text), "splice");
	/* The raw file splices whole pages while tracing runs: fill one. */
	writer = start_writer_n(getpid(), text, WRITER_DELAY_US,
				r->raw ? PAGE_OF_MARKERS : 1);
	start = now();
	n = writer < 0 ? -1 : splice(fd, NULL, pipefd[1], NULL, PAGE, 0);
	took = now() - start;
	if (n < 0)
		ksft_print_msg("splice(): %s\n", strerror(errno));
	wrote = !finish_writer(writer);
	/* The raw file moves whole pages, the text files their lines. */
	if (r->raw ? n == PAGE : n > 0)
		found = holds_marker(r, buf, read(pipefd[0], buf, PAGE), text);
	ksft_print_msg("%s: splice() gave %zd bytes after %.2f s%s\n",
		       r->name, n, took, found ? ", with the marker" : "");
	close(fd);
	return wrote && found && took >= MIN_BLOCKED_S ? CASE_PASS : CASE_FAIL;
}

/*
 * A child blocked for IDLE_S on an empty buffer (@by_poll: in poll() with
 * no timeout, else in read()) is woken at most IDLE_MAX_SWITCHES times.
 */
static int case_idle(const struct reader *r, int by_poll)
{
	long before, after;
	int fd, alive, status;
	pid_t child;

	if (prepare(r, 50))
		return CASE_FAIL;
	fd = open_reader(r, 0);
	if (fd < 0)
		return CASE_FAIL;
	child = xfork();
	if (!child) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		char buf[PAGE];

		ssize_t n;

		if (by_poll)
			n = poll(&pfd, 1, -1);
		else
			n = read(fd, buf, sizeof(buf));
		_exit(n < 0 ? 3 : 2);
	}
	close(fd);
	if (child < 0)
		return CASE_FAIL;
	if (wait_asleep(child)) {
		ksft_print_msg("the reader never slept\n");
		kill_child(child, 0);
		return CASE_FAIL;
	}
	sleep_s(0.3);
	before = voluntary_switches(child);
	sleep_s(IDLE_S);
	after = voluntary_switches(child);
	alive = waitpid(child, &status, WNOHANG) == 0;
	kill_child(child, 0);
	if (!alive)
		ksft_print_msg("the idle reader's %s returned\n",
			       by_poll ? "poll()" : "read()");
	ksft_print_msg("idle reader blocked in %s on %s: %ld voluntary context switches in %d s\n",
		       by_poll ? "poll()" : "read()", r->name, after - before,
		       IDLE_S);
	return alive && before >= 0 && after >= 0 &&
	       after - before <= IDLE_MAX_SWITCHES ? CASE_PASS : CASE_FAIL;
}

static int have_cpu;

/*
 * Run @fn(@r, @arg) in a child of its own process group and report it as
 * one result, a failure if it does not finish within CASE_TIMEOUT_S.
 */
static void run_case(int (*fn)(const struct reader *, int),
		     const struct reader *r, int arg, const char *fmt, ...)
{
	char desc[256];
	int status, code;
	va_list ap;
	pid_t pid;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	if (r->per_cpu && !have_cpu) {
		ksft_test_result_skip("%s: no per_cpu/cpu%d\n", desc, CPU);
		return;
	}
	pid = xfork();
	if (pid < 0) {
		ksft_test_result_error("%s: fork: %s\n", desc, strerror(errno));
		return;
	}
	if (!pid) {
		struct sigaction sa = { .sa_handler = on_sigalrm }; /* no SA_RESTART */

		setpgid(0, 0);
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		alarm(rt_scaled(CASE_ALARM_S));
		code = fn(r, arg);
		if (got_sigalrm)
			ksft_print_msg("%s: still waiting after %d s\n", desc,
				       rt_scaled(CASE_ALARM_S));
		fflush(stdout);
		_exit(code);
	}
	if (reap(pid, rt_scaled(CASE_TIMEOUT_S) * 1000, &status)) {
		ksft_print_msg("%s: no result after %d s\n", desc,
			       rt_scaled(CASE_TIMEOUT_S));
		kill_child(pid, 1);
		code = CASE_FAIL;
	} else {
		code = exit_code(status);
		if (code != CASE_PASS && code != CASE_FAIL)
			ksft_print_msg("%s: the case ended with %d\n", desc,
				       code);
	}
	ksft_test_result(code == CASE_PASS, "%s\n", desc);
}

static int tracing_dir_is_ringtrace(void)
{
	char line[256] = "";
	struct statfs fs;
	FILE *readme;

	if (statfs(TRACING, &fs) || fs.f_type != DEBUGFS_MAGIC)
		return 0;
	readme = fopen(TRACING "/README", "r");
	if (!readme)
		return 0;
	if (!fgets(line, sizeof(line), readme))
		line[0] = '\0';
	fclose(readme);
	return !strncmp(line, README_INTRO, strlen(README_INTRO));
}

#define CASES_PER_READER	9
#define RAW_CASES		6
#define IDLE_CASES		2

/* The raw file's blocking splice() runs at buffer_percent 0. */
static const char *splice_note(const struct reader *r)
{
	return r->raw ? " in a page (buffer_percent 0)" : "";
}

/* The raw file's blocking read() runs at buffer_percent 100. */
static const char *read_note(const struct reader *r)
{
	return r->raw ? " (buffer_percent 100: read ignores it)" : "";
}

int main(void)
{
	char tracing_on[16] = "", percent[16] = "", kb[32] = "";
	int have_percent, have_on;
	unsigned int i;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must be root\n");
	if (!tracing_dir_is_ringtrace())
		ksft_exit_skip("%s is not ringtrace's\n", TRACING);
	if (rt_scaled(100) != 100)
		ksft_print_msg("RT_SLOWDOWN %ld: waits scaled by it\n", rt_scaled(100));
	have_cpu = !access(TRACING "/per_cpu/cpu0/trace_pipe_raw", R_OK);
	have_on = !read_tracing("tracing_on", tracing_on, sizeof(tracing_on));
	have_percent = !read_tracing("buffer_percent", percent,
				     sizeof(percent));
	if (!read_tracing("buffer_size_kb", kb, sizeof(kb)))
		ksft_print_msg("buffer_size_kb %s\n", kb);
	if (have_percent)
		ksft_print_msg("buffer_percent was %s\n", percent);
	else
		ksft_print_msg("no buffer_percent\n");
	ksft_set_plan(ARRAY_SIZE(readers) * CASES_PER_READER + RAW_CASES +
		      IDLE_CASES);

	for (i = 0; i < ARRAY_SIZE(readers); i++) {
		const struct reader *r = &readers[i];
		const char *pct = r->raw ? "buffer_percent 0" :
				  "buffer_percent 100, ignored";

		run_case(case_nonblock, r, 0,
			 "%s: O_NONBLOCK read() of an empty buffer: EAGAIN",
			 r->name);
		run_case(case_poll_empty, r, 0,
			 "%s: poll() of an empty buffer times out (%d ms)",
			 r->name, EMPTY_MS);
		run_case(case_readable, r, BY_POLL,
			 "%s: poll() readable within %d s of a marker (%s)",
			 r->name, rt_scaled(PROMPT_MS) / 1000, pct);
		run_case(case_readable, r, BY_SELECT,
			 "%s: select() readable within %d s of a marker (%s)",
			 r->name, rt_scaled(PROMPT_MS) / 1000, pct);
		run_case(case_readable, r, BY_EPOLL,
			 "%s: epoll_wait() readable within %d s of a marker (%s)",
			 r->name, rt_scaled(PROMPT_MS) / 1000, pct);
		run_case(case_blocking_read, r, 0,
			 "%s: a blocking read() waits for a later marker and returns it%s",
			 r->name, read_note(r));
		run_case(case_signal, r, 0,
			 "%s: a signal interrupts a blocked read(): EINTR",
			 r->name);
		run_case(case_splice_nonblock, r, 0,
			 "%s: splice(SPLICE_F_NONBLOCK) of an empty buffer: EAGAIN",
			 r->name);
		run_case(case_splice_blocking, r, 0,
			 "%s: a blocking splice() waits for a later marker and moves it%s",
			 r->name, splice_note(r));
	}

	run_case(case_percent_values, raw_reader, 0,
		 "buffer_percent takes 0..100; 101, -1, abc fail with EINVAL and keep its value");
	run_case(case_percent_full, raw_reader, 0,
		 "%s: buffer_percent 100: a marker leaves poll() not readable",
		 raw_reader->name);
	run_case(case_percent_zero, raw_reader, 0,
		 "%s: buffer_percent 0: that marker makes poll() readable",
		 raw_reader->name);
	run_case(case_splice_after_peek, raw_reader, 0,
		 "%s: a blocking splice() after a peek sleeps until a page is left behind, then moves it",
		 raw_reader->name);
	run_case(case_poll_after_drain, raw_reader, 0,
		 "%s: buffer_percent 0: poll() after the marker's page is read times out",
		 raw_reader->name);
	run_case(case_poll_after_drain, raw_reader, 1,
		 "%s: tracing off: poll() after the marker's page is read times out",
		 raw_reader->name);
	run_case(case_idle, raw_reader, 0,
		 "%s: a reader idle in read() for %d s is woken at most %d times",
		 raw_reader->name, IDLE_S, IDLE_MAX_SWITCHES);
	run_case(case_idle, pipe_reader, 1,
		 "%s: a reader idle in poll() for %d s is woken at most %d times",
		 pipe_reader->name, IDLE_S, IDLE_MAX_SWITCHES);

	if (have_percent && write_tracing("buffer_percent", percent, O_TRUNC))
		ksft_print_msg("cannot restore buffer_percent %s\n", percent);
	if (have_on && write_tracing("tracing_on", tracing_on, O_TRUNC))
		ksft_print_msg("cannot restore tracing_on %s\n", tracing_on);
	ksft_finished();
}
