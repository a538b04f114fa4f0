// SPDX-License-Identifier: GPL-2.0
/*
 * per_cpu/cpuN/trace_pipe_raw hands out data pages in the documented
 * layout (u64 time stamp, long commit, records with the current record
 * header of events/header_event: type_len 5 bits, time_delta 27), by
 * read() and by splice()
 * into a pipe; the pages carry the trace_marker records written on that
 * CPU, in order, and are consumed: a second non-blocking read finds
 * nothing (EAGAIN).  While tracing runs splice() moves only whole pages
 * (a partial one: EAGAIN), once it is off partial ones too.  splice() into
 * a pipe with room for fewer pages than asked for moves only what fits:
 * the rest stays in the buffer.  Two
 * threads on two CPUs reading one open file, from a buffer with pages
 * waiting and while more markers are written, get whole, well-formed
 * pages that hold every marker once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"

#define TRACING		"/sys/kernel/debug/tracing"
#define PAGE		4096
#define TYPE_PRINT	5

/* Markers "m<n>" written while two threads read: how often each was read. */
#define NR_RACE_MARKS	2000
/* Markers of this many bytes: about eight to a page. */
#define LONG_MARK_LEN	480
#define NR_LONG_MARKS	32
static int race_seen[NR_RACE_MARKS];
static int race_bad_pages;
static int race_writing;	/* __atomic: read by the reader threads */
static int race_go;		/* __atomic: the readers may start */
static pthread_mutex_t race_lock = PTHREAD_MUTEX_INITIALIZER;

struct decoded {
	int nr;
	char text[8][32];
	int pid_ok;
	int ts_ok;
};

/* Decode the records of one data page; returns -1 if it is malformed. */
static int decode_page(const unsigned char *page, struct decoded *d)
{
	uint64_t ts;
	unsigned long commit;
	unsigned int off = 0;

	memcpy(&ts, page, 8);
	memcpy(&commit, page + 8, sizeof(commit));
	commit &= (1UL << 30) - 1;
	if (commit > PAGE - 16)
		return -1;
	memset(d, 0, sizeof(*d));
	d->pid_ok = 1;
	d->ts_ok = 1;
	while (off + 4 <= commit) {
		const unsigned char *rec = page + 16 + off;
		uint32_t hdr, len, type, size, delta;
		const unsigned char *payload;
		uint16_t common_type;
		int32_t pid;

		memcpy(&hdr, rec, 4);
		type = hdr & 0x1f;	/* type_len */
		delta = hdr >> 5;
		if (type == 29)		/* padding */
			break;
		if (type == 30) {	/* time extend */
			off += 8;
			continue;
		}
		if (type == 31)		/* absolute time: never written */
			return -1;
		len = type;
		if (len) {
			size = 4 + len * 4;
			payload = rec + 4;
		} else {
			memcpy(&size, rec + 4, 4);
			size += 4;
			payload = rec + 8;
		}
		if (size < 8 || off + size > commit)
			return -1;
		if (d->nr == 0 && delta != 0)
			d->ts_ok = 0;
		memcpy(&common_type, payload, 2);
		memcpy(&pid, payload + 4, 4);
		if (common_type != TYPE_PRINT)
			return -1;
		if (pid != getpid())
			d->pid_ok = 0;
		if (d->nr < 8)
			snprintf(d->text[d->nr], sizeof(d->text[0]), "%s",
				 (const char *)payload + 24);
		if (payload[24] == 'm') {
			unsigned int m = atoi((const char *)payload + 25);

			if (m < NR_RACE_MARKS)
				race_seen[m]++;
		}
		d->nr++;
		off += size;
	}
	(void)ts;
	return 0;
}

struct race_arg {
	int fd;
	int cpu;	/* the reader's CPU; the two readers' differ */
};

/*
 * One of two threads reading one fd: whole pages until the writer is done.
 * The two run on different CPUs (threads inherit the writer's CPU 0, where
 * without preemption they would take turns) and start together once three
 * quarters of the markers are written, so that both find pages to take.
 * The VFS already serialises read() of one file shared by threads (its
 * f_pos_lock), so this checks what readers get, not a race of our own.
 */
static void *race_reader(void *arg)
{
	struct race_arg *a = arg;
	int fd = a->fd, last = 0;
	unsigned char page[PAGE];
	struct decoded d;
	cpu_set_t set;
	ssize_t n;

	CPU_ZERO(&set);
	CPU_SET(a->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_print_msg("reader stays off CPU %d: %s\n", a->cpu,
			       strerror(errno));
	while (!__atomic_load_n(&race_go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (;;) {
		n = read(fd, page, sizeof(page));
		pthread_mutex_lock(&race_lock);
		if (n == PAGE && decode_page(page, &d))
			race_bad_pages++;
		else if (n > 0 && n != PAGE)
			race_bad_pages++;
		pthread_mutex_unlock(&race_lock);
		if (n < 0 && errno != EAGAIN)
			break;
		if (n < 0 && last)
			break;
		/* One more round after the writer stopped: its last page. */
		if (n < 0 && !__atomic_load_n(&race_writing, __ATOMIC_ACQUIRE))
			last = 1;
	}
	return NULL;
}

static void set_tracing_on(const char *on)
{
	int fd = open(TRACING "/tracing_on", O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, on, 1) != 1)
		ksft_exit_fail_msg("tracing_on: %s\n", strerror(errno));
	close(fd);
}

static void mark(const char *text)
{
	int fd = open(TRACING "/trace_marker", O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		ksft_exit_fail_msg("trace_marker: %s\n", strerror(errno));
	close(fd);
}

/* Marker "m<n> ....", LONG_MARK_LEN bytes, through an open trace_marker. */
static void mark_long(int fd, int n)
{
	char text[LONG_MARK_LEN];
	int len;

	memset(text, '.', sizeof(text));
	len = snprintf(text, sizeof(text), "m%d ", n);
	text[len] = ' ';
	if (write(fd, text, sizeof(text)) < 0)
		ksft_exit_fail_msg("trace_marker: %s\n", strerror(errno));
}

/*
 * splice() into a pipe with one free slot, asking for four pages: one page
 * moves, and the records of the pages that would not fit stay in the
 * buffer for the next read (the VFS asks us for no more than the pipe has
 * room for; we must take no more than asked).  Returns whether every
 * marker came out once.
 */
static int splice_into_a_nearly_full_pipe(int fd)
{
	static const unsigned char filler[PAGE];
	unsigned char page[PAGE];
	int pipefd[2], mfd, i, ok = 1;
	struct decoded d;
	ssize_t n, moved;

	memset(race_seen, 0, sizeof(race_seen));
	mfd = open(TRACING "/trace_marker", O_WRONLY);
	if (mfd < 0)
		ksft_exit_fail_msg("trace_marker: %s\n", strerror(errno));
	for (i = 0; i < NR_LONG_MARKS; i++)
		mark_long(mfd, i);
	close(mfd);
	if (pipe(pipefd) || fcntl(pipefd[1], F_SETPIPE_SZ, 2 * PAGE) != 2 * PAGE ||
	    write(pipefd[1], filler, PAGE) != PAGE)
		ksft_exit_fail_msg("a pipe of two pages: %s\n", strerror(errno));
	moved = splice(fd, NULL, pipefd[1], NULL, 4 * PAGE, SPLICE_F_NONBLOCK);
	ksft_print_msg("splice of 4 pages into a pipe with room for 1: %zd bytes\n",
		       moved);
	if (moved != PAGE)
		ok = 0;
	if (read(pipefd[0], page, PAGE) != PAGE)
		ok = 0;
	n = moved > 0 ? read(pipefd[0], page, PAGE) : -1;
	if (n != PAGE || decode_page(page, &d))
		ok = 0;
	while ((n = read(fd, page, PAGE)) == PAGE)
		if (decode_page(page, &d))
			ok = 0;
	if (n >= 0 || errno != EAGAIN)
		ok = 0;
	for (i = 0; i < NR_LONG_MARKS; i++) {
		if (race_seen[i] != 1) {
			ksft_print_msg("marker m%d read %d times\n", i,
				       race_seen[i]);
			ok = 0;
		}
	}
	close(pipefd[0]);
	close(pipefd[1]);
	return ok;
}

int main(void)
{
	unsigned char page[PAGE];
	struct decoded d;
	cpu_set_t set;
	int fd, kb, pipefd[2];
	ssize_t n;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must be root\n");
	ksft_set_plan(12);

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_exit_fail_msg("cannot run on CPU 0: %s\n", strerror(errno));
	/* Writing the size empties the buffer. */
	kb = open(TRACING "/buffer_size_kb", O_WRONLY);
	if (kb < 0 || write(kb, "1408", 4) < 0)
		ksft_exit_fail_msg("buffer_size_kb: %s\n", strerror(errno));
	close(kb);

	mark("one");
	mark("two\n");
	mark("three");
	fd = open(TRACING "/per_cpu/cpu0/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		ksft_exit_fail_msg("trace_pipe_raw: %s\n", strerror(errno));
	n = read(fd, page, sizeof(page));
	ksft_test_result(n == PAGE, "read() returns a whole page\n");
	ksft_test_result(n == PAGE && !decode_page(page, &d) && d.nr == 3 &&
			 !strcmp(d.text[0], "one\n") &&
			 !strcmp(d.text[1], "two\n") &&
			 !strcmp(d.text[2], "three\n"),
			 "the page holds the three markers in order\n");
	ksft_test_result(d.pid_ok && d.ts_ok,
			 "records carry our pid; the first is at the page time\n");
	n = read(fd, page, sizeof(page));
	ksft_test_result(n < 0 && errno == EAGAIN,
			 "the records were consumed: EAGAIN\n");

	mark("four");
	mark("five");
	if (pipe(pipefd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	n = splice(fd, NULL, pipefd[1], NULL, PAGE, SPLICE_F_NONBLOCK);
	ksft_test_result(n < 0 && errno == EAGAIN,
			 "while tracing runs, splice() leaves a partial page: EAGAIN\n");
	set_tracing_on("0");
	n = splice(fd, NULL, pipefd[1], NULL, PAGE, SPLICE_F_NONBLOCK);
	set_tracing_on("1");
	ksft_test_result(n == PAGE,
			 "with tracing off, splice() moves it as a page\n");
	n = n == PAGE ? read(pipefd[0], page, sizeof(page)) : -1;
	ksft_test_result(n == PAGE && !decode_page(page, &d) && d.nr == 2 &&
			 !strcmp(d.text[0], "four\n") &&
			 !strcmp(d.text[1], "five\n"),
			 "the spliced page holds the next two markers\n");
	n = splice(fd, NULL, pipefd[1], NULL, PAGE, SPLICE_F_NONBLOCK);
	ksft_test_result(n < 0 && errno == EAGAIN,
			 "splice() on an empty buffer: EAGAIN\n");
	n = splice(fd, NULL, pipefd[1], NULL, 100, SPLICE_F_NONBLOCK);
	ksft_test_result(n < 0 && errno == EINVAL,
			 "splice() of less than a page: EINVAL\n");
	ksft_test_result(splice_into_a_nearly_full_pipe(fd),
			 "splice() moves only the pages the pipe has room for; the rest stay readable, each marker once\n");
	close(fd);

	/* Two threads, one fd, while markers are written on CPU 0. */
	{
		long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
		struct race_arg args[2];
		pthread_t t[2];
		char text[16];
		int i, missing = 0, twice = 0;

		fd = open(TRACING "/per_cpu/cpu0/trace_pipe_raw",
			  O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			ksft_exit_fail_msg("trace_pipe_raw: %s\n", strerror(errno));
		memset(race_seen, 0, sizeof(race_seen));
		__atomic_store_n(&race_writing, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&race_go, 0, __ATOMIC_RELEASE);
		for (i = 0; i < 2; i++) {
			args[i].fd = fd;
			args[i].cpu = ncpus > 1 ? (i + 1) % ncpus : 0;
			if (pthread_create(&t[i], NULL, race_reader, &args[i]))
				ksft_exit_fail_msg("pthread_create failed\n");
		}
		for (i = 0; i < NR_RACE_MARKS; i++) {
			snprintf(text, sizeof(text), "m%d", i);
			mark(text);
			if (i == NR_RACE_MARKS * 3 / 4)
				__atomic_store_n(&race_go, 1, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&race_writing, 0, __ATOMIC_RELEASE);
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		close(fd);
		for (i = 0; i < NR_RACE_MARKS; i++) {
			missing += !race_seen[i];
			twice += race_seen[i] > 1;
		}
		ksft_print_msg("two readers: %d bad pages, %d markers missing, %d read twice\n",
			       race_bad_pages, missing, twice);
		ksft_test_result(!race_bad_pages,
				 "two threads on one fd read whole, well-formed pages\n");
		ksft_test_result(!missing && !twice,
				 "between them they read each of %d markers once\n",
				 NR_RACE_MARKS);
	}
	ksft_finished();
}
