// SPDX-License-Identifier: GPL-2.0
/*
 * Live collection: the relay rules of the kmemtrace ABI.  Each cpu<n> file
 * gets a reader thread with its affinity set to CPU n that waits in poll()
 * (with no timeout; a pipe tells it to finish) and reads what is there.
 * At the end, recording is switched off, which flushes the buffers, and
 * every reader drains its file before it exits.
 *
 * CPU hotplug.  A reader pins itself again before every read: a CPU that
 * went offline broke its affinity, and one that came back must not be
 * read from elsewhere while it writes.  While its CPU is offline (which
 * writes nothing) a reader does not read but polls with a timeout, to pin
 * itself once the CPU is back; at the end it drains the file from
 * wherever it runs, recording being off or the CPU offline.
 *
 * The kernel makes the cpu<n> files when recording is first enabled: if
 * there are none yet, recording is enabled before they are opened, and
 * all they hold is this session's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "stream.h"

#define READ_CHUNK	(64 * 1024)

struct reader {
	struct kt_stream	*stream;
	int			fd;
	int			stop_fd;	/* readable: drain and exit */
	int			error;		/* errno of a failed read */
	pthread_t		thread;
};

static int read_text(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int write_text(const char *dir, const char *name, const char *val)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -1 : 0;
}

static int read_number(const char *dir, const char *name,
		       unsigned long long *val)
{
	char buf[64], *end;

	if (read_text(dir, name, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* Append what @fd has now; 0 once it has nothing, -1 on error. */
static int drain(struct reader *r)
{
	struct kt_stream *s = r->stream;

	for (;;) {
		ssize_t n;

		if (s->cap - s->len < READ_CHUNK) {
			size_t cap = s->cap ? s->cap * 2 : 4 * READ_CHUNK;
			uint8_t *d = realloc(s->data, cap);

			if (!d) {
				r->error = ENOMEM;
				return -1;
			}
			s->data = d;
			s->cap = cap;
		}
		n = read(r->fd, s->data + s->len, READ_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r->error = errno;
			return -1;
		}
		if (!n)
			return 0;
		s->len += (size_t)n;
	}
}

/* While a reader's CPU is offline: how often it tries to pin itself. */
#define OFFLINE_POLL_MS	100

/* Pin to @cpu: 0, or 1 if the CPU is offline, -1 (errno) on error. */
static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (!sched_setaffinity(0, sizeof(set), &set))
		return 0;
	return errno == EINVAL ? 1 : -1;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	int offline;

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = r->fd, .events = POLLIN },
			{ .fd = r->stop_fd, .events = POLLIN },
		};

		offline = pin(r->stream->cpu);
		if (offline < 0) {
			r->error = errno;
			return NULL;
		}
		/*
		 * Offline, the buffer may well be readable (what the CPU wrote
		 * before it went): polling it would return at once, a busy
		 * loop.  Wait for the stop or the next try instead.
		 */
		if (offline)
			p[0].fd = -1;
		if (poll(p, 2, offline ? OFFLINE_POLL_MS : -1) < 0 &&
		    errno != EINTR) {
			r->error = errno;
			return NULL;
		}
		/* The CPU may have gone offline or come back meanwhile. */
		offline = pin(r->stream->cpu);
		if (offline < 0) {
			r->error = errno;
			return NULL;
		}
		if (p[1].revents) {
			drain(r);
			return NULL;
		}
		if (!offline && drain(r))
			return NULL;
	}
}

static int cpu_of(const char *name)
{
	char *end;
	long cpu;

	if (strncmp(name, "cpu", 3) || !name[3])
		return -1;
	cpu = strtol(name + 3, &end, 10);
	return *end || cpu < 0 || cpu > 4095 ? -1 : (int)cpu;
}

/* Whether @dir has any cpu<n> file. */
static int has_streams(const char *dir)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int found = 0;

	if (!dp)
		return 0;
	while (!found && (d = readdir(dp)))
		found = cpu_of(d->d_name) >= 0;
	closedir(dp);
	return found;
}

static int open_streams(const char *dir, struct kt_recording *rec,
			struct reader **readers)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	struct reader *r = NULL;
	int nr = 0;

	if (!dp) {
		fprintf(stderr, "kmemtrace: %s: %s (%s)\n", dir, strerror(errno),
			"is this a kmemtrace kernel, with debugfs mounted?");
		return -1;
	}
	while ((d = readdir(dp))) {
		int cpu = cpu_of(d->d_name);
		char path[512];
		void *p;

		if (cpu < 0)
			continue;
		p = realloc(r, (nr + 1) * sizeof(*r));
		if (!p)
			goto nomem;
		r = p;
		p = realloc(rec->streams, (nr + 1) * sizeof(*rec->streams));
		if (!p)
			goto nomem;
		rec->streams = p;
		memset(&rec->streams[nr], 0, sizeof(rec->streams[nr]));
		memset(&r[nr], 0, sizeof(r[nr]));
		rec->streams[nr].cpu = cpu;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		r[nr].fd = open(path, O_RDONLY);
		if (r[nr].fd < 0) {
			fprintf(stderr, "kmemtrace: %s: %s\n", path,
				strerror(errno));
			closedir(dp);
			rec->nr = nr;
			*readers = r;
			return -1;
		}
		nr++;
		rec->nr = nr;
	}
	closedir(dp);
	*readers = r;
	if (!nr) {
		fprintf(stderr, "kmemtrace: no cpu<n> files in %s\n", dir);
		return -1;
	}
	return 0;
nomem:
	closedir(dp);
	*readers = r;
	fprintf(stderr, "kmemtrace: out of memory\n");
	return -1;
}

/* SIGINT and SIGTERM stay blocked here: ^C ends the command, not us. */
static sigset_t stop_signals, old_mask;

static int run_command(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("kmemtrace: fork");
		return -1;
	}
	if (!pid) {
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "kmemtrace: %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("kmemtrace: waitpid");
			return -1;
		}
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status);
}

int kt_record(const char *dir, unsigned int buffer_kb, char *const argv[],
	      struct kt_recording *rec)
{
	unsigned long long abi, enabled, overruns0, overruns1;
	struct reader *readers = NULL;
	int stop[2] = { -1, -1 }, i, started = 0, ret = -1, we_enabled = 0;
	struct timespec no_wait = { 0 };
	int sig;

	memset(rec, 0, sizeof(*rec));
	if (read_number(dir, "abi_version", &abi)) {
		fprintf(stderr, "kmemtrace: %s/abi_version: %s (%s)\n", dir,
			strerror(errno), "is this a kmemtrace kernel? root?");
		return -1;
	}
	if (abi != KT_ABI_VERSION) {
		fprintf(stderr, "kmemtrace: kernel ABI version %llu, not %d\n",
			abi, KT_ABI_VERSION);
		return -1;
	}
	if (read_number(dir, "enabled", &enabled)) {
		fprintf(stderr, "kmemtrace: %s/enabled: %s\n", dir,
			strerror(errno));
		return -1;
	}
	if (buffer_kb) {
		char val[32];

		snprintf(val, sizeof(val), "%u", buffer_kb);
		if (enabled || write_text(dir, "buffer_size_kb", val)) {
			fprintf(stderr, "kmemtrace: setting buffer_size_kb to %u: %s\n",
				buffer_kb, enabled ? "recording is on" :
				strerror(errno));
			return -1;
		}
	}
	/* Blocked in the reader threads too, which inherit the mask. */
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop_signals, &old_mask);
	if (!enabled && !has_streams(dir)) {
		/* Never enabled: the first enable makes the buffers. */
		if (write_text(dir, "enabled", "1")) {
			fprintf(stderr, "kmemtrace: %s/enabled: %s\n", dir,
				strerror(errno));
			goto out;
		}
		we_enabled = 1;
		enabled = 1;
	}
	if (open_streams(dir, rec, &readers))
		goto stop_early;
	if (pipe(stop)) {
		perror("kmemtrace: pipe");
		goto stop_early;
	}
	if (!enabled) {
		/* What an earlier session left is not this one's. */
		for (i = 0; i < rec->nr; i++) {
			readers[i].stream = &rec->streams[i];
			if (drain(&readers[i]))
				goto read_error;
			rec->streams[i].len = 0;
		}
	}
	if (read_number(dir, "total_overruns", &overruns0)) {
		fprintf(stderr, "kmemtrace: %s/total_overruns: %s\n", dir,
			strerror(errno));
		goto stop_early;
	}
	for (i = 0; i < rec->nr; i++) {
		readers[i].stream = &rec->streams[i];
		readers[i].stop_fd = stop[0];
		if (pthread_create(&readers[i].thread, NULL, reader_main,
				   &readers[i])) {
			fprintf(stderr, "kmemtrace: cannot start a reader thread\n");
			goto stop;
		}
		started++;
	}
	if (!enabled) {
		if (write_text(dir, "enabled", "1")) {
			fprintf(stderr, "kmemtrace: %s/enabled: %s\n", dir,
				strerror(errno));
			goto stop;
		}
		we_enabled = 1;
	}
	if (argv && argv[0]) {
		ret = run_command(argv);
	} else {
		fprintf(stderr, "kmemtrace: recording, ^C to stop\n");
		ret = sigwait(&stop_signals, &sig) ? -1 : 0;
	}
stop:
	/* Off: flushes the buffers, so the readers' last drain gets all. */
	if (we_enabled && write_text(dir, "enabled", "0")) {
		fprintf(stderr, "kmemtrace: %s/enabled: %s\n", dir,
			strerror(errno));
		ret = -1;
	}
	if (write(stop[1], "", 1) < 0)
		ret = -1;
	for (i = 0; i < started; i++) {
		pthread_join(readers[i].thread, NULL);
		if (readers[i].error) {
			fprintf(stderr, "kmemtrace: reading cpu%d: %s\n",
				readers[i].stream->cpu,
				strerror(readers[i].error));
			ret = -1;
		}
	}
	if (started < rec->nr)
		ret = -1;
	if (ret >= 0 && !read_number(dir, "total_overruns", &overruns1))
		rec->lost_bytes = overruns1 - overruns0;
	goto out;
read_error:
	fprintf(stderr, "kmemtrace: reading %s: %s\n", dir,
		strerror(readers[i].error));
stop_early:
	/* Recording this session turned on, with no reader started. */
	if (we_enabled && write_text(dir, "enabled", "0"))
		fprintf(stderr, "kmemtrace: %s/enabled: %s\n", dir,
			strerror(errno));
	ret = -1;
out:
	for (i = 0; readers && i < rec->nr; i++)
		if (readers[i].fd >= 0)
			close(readers[i].fd);
	free(readers);
	if (stop[0] >= 0) {
		close(stop[0]);
		close(stop[1]);
	}
	/* A ^C that ended the command is not for us. */
	while (sigtimedwait(&stop_signals, NULL, &no_wait) > 0)
		;
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	return ret;
}

void kt_recording_free(struct kt_recording *rec)
{
	int i;

	for (i = 0; i < rec->nr; i++)
		free(rec->streams[i].data);
	free(rec->streams);
	memset(rec, 0, sizeof(*rec));
}
