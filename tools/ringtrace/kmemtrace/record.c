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
 * sched_setaffinity() says EINVAL both for an offline CPU and for an
 * online one the task may not run on (its cpuset leaves it out): sysfs
 * tells them apart.  Such a CPU's file could never be read pinned, so
 * recording fails before it starts, saying which CPU and why.
 *
 * Relay makes a CPU's buffer, and its cpu<n> file, when the CPU comes up
 * for the first time since the buffers were made: a watcher thread gets
 * the new file from inotify (debugfs reports the creation) and starts a
 * reader for it.
 *
 * The kernel makes the cpu<n> files when recording is first enabled: if
 * there are none yet, recording is enabled before they are opened, and
 * all they hold is this session's.
 *
 * Each reader writes what it reads to its file in the session directory
 * at once, through a buffer of its own allocated before recording starts:
 * memory does not grow with the session (growing it would put our own
 * allocations in the trace), and a crash or a kill keeps what was read.
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
#include <sys/inotify.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "stream.h"

#define READ_CHUNK	(256 * 1024)

/* While a reader's CPU is offline: how often it tries to pin itself. */
#define OFFLINE_POLL_MS	100
/*
 * How long an online CPU may refuse a reader before it gives up: a CPU
 * taken down other than through its online file (cpuhp's target, SMT
 * control) leaves the scheduler's active mask (EINVAL) before online says
 * 0, and one coming up may wait for its cpuset to take it back.  Longer
 * than this, the task's cpuset leaves the CPU out.
 */
#define REFUSED_GRACE_MS	5000
/* cpu<n> files beyond this are not ours (and no cpu_set_t is that big). */
#define MAX_CPUS	4096

struct reader {
	struct kt_stream	stream;
	int			fd;
	int			out_fd;		/* its file in the session */
	uint8_t			*buf;		/* READ_CHUNK bytes */
	int			stop_fd;	/* readable: drain and exit */
	const char		*cpu_dir;	/* the CPUs' sysfs directory */
	long long		refused_since;	/* ms; -1: not refused */
	int			error;		/* errno of a failed read or pin */
	int			excluded;	/* gave up: not ours to run on */
	int			closed;		/* the kernel closed the buffer */
	int			running;	/* its thread was started */
	pthread_t		thread;
};

/*
 * The readers of a session.  Until the watcher runs only the main thread
 * adds readers; while it runs only the watcher does (the main thread is
 * in the command), and the main thread joins it before it looks again.
 */
struct session {
	const char		*dir;		/* kmemtrace's debugfs directory */
	const char		*out_dir;	/* the session's files */
	const char		*cpu_dir;
	struct reader		**readers;
	int			nr;
	int			stop[2];	/* written once, at the end */
	int			watch_fd;	/* inotify on dir, or -1 */
	int			live;		/* new readers start at once */
	int			watching;	/* the watcher thread runs */
	int			error;		/* a new file had no reader */
	pthread_t		watcher;
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

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Write what @fd has now to the session's file (or nowhere, @discard);
 * 0 once it has nothing, -1 on error.
 */
static int drain(struct reader *r, int discard)
{
	for (;;) {
		ssize_t n = read(r->fd, r->buf, READ_CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r->error = errno;
			return -1;
		}
		if (!n)
			return 0;
		if (discard)
			continue;
		if (write_all(r->out_fd, r->buf, (size_t)n)) {
			r->error = errno;
			return -1;
		}
		r->stream.len += (uint64_t)n;
	}
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int kt_cpu_of(const char *name)
{
	char *end;
	long cpu;

	if (strncmp(name, "cpu", 3) || name[3] < '0' || name[3] > '9')
		return -1;
	cpu = strtol(name + 3, &end, 10);
	return *end || cpu >= MAX_CPUS ? -1 : (int)cpu;
}

int kt_cpu_online(const char *cpu_dir, int cpu)
{
	char name[32], path[512], buf[16];

	snprintf(name, sizeof(name), "cpu%d/online", cpu);
	if (!read_text(cpu_dir, name, buf, sizeof(buf)))
		return buf[0] != '0';
	if (errno != ENOENT)
		return 1;	/* unknown: the reader says so, if it fails */
	/* No online file: a CPU that cannot go offline, if it is there. */
	snprintf(path, sizeof(path), "%s/cpu%d", cpu_dir, cpu);
	return !access(path, F_OK);
}

int kt_pin(const char *cpu_dir, int cpu)
{
	size_t size = CPU_ALLOC_SIZE(cpu + 1);
	cpu_set_t *set = CPU_ALLOC(cpu + 1);
	int ret, err;

	if (!set)
		return -1;
	CPU_ZERO_S(size, set);
	CPU_SET_S(cpu, size, set);
	ret = sched_setaffinity(0, size, set);
	err = errno;
	CPU_FREE(set);
	if (!ret)
		return KT_PINNED;
	errno = err;
	if (err != EINVAL)
		return -1;
	return kt_cpu_online(cpu_dir, cpu) ? KT_CPU_REFUSED : KT_CPU_OFFLINE;
}

/*
 * Pin @r to its CPU: 0 pinned; 1 not now (the CPU is offline, or has
 * refused us for less than REFUSED_GRACE_MS), -1 to give up (r->error).
 */
static int pin_reader(struct reader *r)
{
	int ret = kt_pin(r->cpu_dir, r->stream.cpu);

	if (ret < 0) {
		r->error = errno;
		return -1;
	}
	if (ret != KT_CPU_REFUSED) {
		r->refused_since = -1;
		return ret == KT_CPU_OFFLINE;
	}
	if (r->refused_since < 0) {
		r->refused_since = now_ms();
	} else if (now_ms() - r->refused_since >= REFUSED_GRACE_MS) {
		r->error = EINVAL;
		r->excluded = 1;
		return -1;
	}
	return 1;
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

		offline = pin_reader(r);
		if (offline < 0)
			return NULL;
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
		offline = pin_reader(r);
		if (offline < 0)
			return NULL;
		if (p[1].revents) {
			drain(r, 0);
			return NULL;
		}
		/*
		 * relay says POLLERR once the buffer is closed (buffer_size_kb
		 * written during the session; after the stop, above, it lost
		 * nothing): take what is left and stop, rather than poll a
		 * file that stays "ready" for ever.
		 */
		if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			r->closed = 1;
			drain(r, 0);
			return NULL;
		}
		if (!offline && drain(r, 0))
			return NULL;
	}
}

/* Why @r failed, if it did: 0, or -1 with the reason printed. */
static int reader_failed(const struct reader *r)
{
	int cpu = r->stream.cpu;

	if (r->excluded) {
		fprintf(stderr,
			"kmemtrace: cpu%d: online, but this task may not run there (outside its cpuset?); its records can only be read pinned to it: run kmemtrace where that CPU is allowed, or take it offline\n",
			cpu);
		return -1;
	}
	if (r->closed) {
		fprintf(stderr,
			"kmemtrace: cpu%d: the kernel closed this buffer during the session (buffer_size_kb written?): later records are not in it\n",
			cpu);
		return -1;
	}
	if (r->error) {
		fprintf(stderr,
			"kmemtrace: cpu%d: %s (reading its buffer, writing it to the session, or pinning the reader)\n",
			cpu, strerror(r->error));
		return -1;
	}
	return 0;
}

static int start_reader(struct reader *r)
{
	int err = pthread_create(&r->thread, NULL, reader_main, r);

	if (err) {
		fprintf(stderr, "kmemtrace: cpu%d: cannot start a reader thread: %s\n",
			r->stream.cpu, strerror(err));
		return -1;
	}
	r->running = 1;
	return 0;
}

/* How often, and how far apart, a file that cannot be opened yet is tried. */
#define NEW_FILE_TRIES		50
#define NEW_FILE_RETRY_US	20000

/*
 * Open a buffer file, close-on-exec (COMMAND would keep the buffer open
 * after we end).  relay makes a CPU's file, which inotify reports, before
 * the buffer takes its first reference, and until then opening it fails
 * with ENOENT: while the file is there, try again for up to a second.
 */
static int open_new_file(const char *path)
{
	int fd, tries;

	for (tries = 1; ; tries++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 || errno != ENOENT || tries == NEW_FILE_TRIES ||
		    access(path, F_OK))
			break;
		usleep(NEW_FILE_RETRY_US);
	}
	/* Gone again: access() left ENOENT, which the caller skips. */
	return fd;
}

/*
 * A reader for @name if it is a cpu<n> file that has none yet, started at
 * once if the session is live: 1 added, 0 nothing to add (or the file is
 * gone again), -1 on error (printed).
 */
static int add_reader(struct session *s, const char *name)
{
	int cpu = kt_cpu_of(name), i;
	struct reader *r, **p;
	char path[512];

	if (cpu < 0)
		return 0;
	for (i = 0; i < s->nr; i++)
		if (s->readers[i]->stream.cpu == cpu)
			return 0;
	p = realloc(s->readers, (s->nr + 1) * sizeof(*p));
	r = calloc(1, sizeof(*r));
	if (p)
		s->readers = p;
	if (!p || !r) {
		free(r);
		fprintf(stderr, "kmemtrace: out of memory\n");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", s->dir, name);
	r->fd = open_new_file(path);
	if (r->fd < 0) {
		free(r);
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cpu%d", s->out_dir, cpu);
	r->buf = malloc(READ_CHUNK);
	r->out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	/* Its pages now, not while recording. */
	if (r->buf)
		memset(r->buf, 0, READ_CHUNK);
	if (!r->buf || r->out_fd < 0) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path,
			r->buf ? strerror(errno) : "out of memory");
		if (r->out_fd >= 0)
			close(r->out_fd);
		close(r->fd);
		free(r->buf);
		free(r);
		return -1;
	}
	r->stream.cpu = cpu;
	r->stop_fd = s->stop[0];
	r->cpu_dir = s->cpu_dir;
	r->refused_since = -1;
	s->readers[s->nr++] = r;
	return s->live && start_reader(r) ? -1 : 1;
}

/* A reader for every cpu<n> of the directory that has none: 0 or -1. */
static int scan(struct session *s)
{
	struct dirent *d;
	DIR *dp = opendir(s->dir);
	int ret = 0;

	if (!dp) {
		fprintf(stderr, "kmemtrace: %s: %s (%s)\n", s->dir,
			strerror(errno),
			"is this a kmemtrace kernel, with debugfs mounted?");
		return -1;
	}
	while ((d = readdir(dp)))
		if (add_reader(s, d->d_name) < 0)
			ret = -1;
	closedir(dp);
	return ret;
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
		found = kt_cpu_of(d->d_name) >= 0;
	closedir(dp);
	return found;
}

/*
 * Watch the directory for new files; set up before it is first listed,
 * so that no file made in between is missed.  Without inotify, files made
 * while recording are only found, and drained, at the end.
 */
static void watch_dir(struct session *s)
{
	s->watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (s->watch_fd >= 0 &&
	    inotify_add_watch(s->watch_fd, s->dir, IN_CREATE) >= 0)
		return;
	fprintf(stderr,
		"kmemtrace: watching %s: %s; a cpu<n> file made while recording will be read only at the end\n",
		s->dir, strerror(errno));
	if (s->watch_fd >= 0)
		close(s->watch_fd);
	s->watch_fd = -1;
}

/* Readers for the new files inotify reports: 0, or -1 if one had none. */
static int watch_events(struct session *s)
{
	union {
		struct inotify_event	ev;	/* for its alignment */
		char			buf[4096];
	} u;
	const struct inotify_event *ev;
	ssize_t n = read(s->watch_fd, u.buf, sizeof(u.buf));
	int ret = 0;
	char *p;

	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		perror("kmemtrace: reading inotify events");
		return -1;
	}
	for (p = u.buf; p < u.buf + n; p += sizeof(*ev) + ev->len) {
		ev = (const struct inotify_event *)p;
		if (ev->mask & IN_Q_OVERFLOW) {
			/* Events were lost: look for ourselves. */
			if (scan(s))
				ret = -1;
		} else if (ev->len && add_reader(s, ev->name) < 0) {
			ret = -1;
		}
	}
	return ret;
}

/*
 * Until the stop: a reader for each new cpu<n>.  Then a last look, for a
 * file made too late to be reported: its reader starts, sees the stop and
 * drains it.
 */
static void *watcher_main(void *arg)
{
	struct session *s = arg;
	struct pollfd p[2] = {
		{ .fd = s->watch_fd, .events = POLLIN },
		{ .fd = s->stop[0], .events = POLLIN },
	};

	for (;;) {
		if (poll(p, 2, -1) < 0 && errno != EINTR) {
			perror("kmemtrace: watching for new cpu<n> files");
			s->error = 1;
			break;
		}
		if (p[1].revents)
			break;
		if (p[0].revents && watch_events(s))
			s->error = 1;
	}
	if (scan(s))
		s->error = 1;
	return NULL;
}

/* After the stop: no more readers will be added (and all are started). */
static void stop_watching(struct session *s)
{
	if (s->watching)
		pthread_join(s->watcher, NULL);
	else if (s->live && scan(s))
		s->error = 1;
	s->watching = 0;
}

/*
 * A CPU that is online but refuses us could never be read pinned: say so
 * now rather than lose its records.  Tried from this thread, whose
 * affinity is put back after (the command inherits it).
 */
static int check_cpus(struct session *s)
{
	size_t size = CPU_ALLOC_SIZE(MAX_CPUS);
	cpu_set_t *old = CPU_ALLOC(MAX_CPUS);
	struct timespec wait = { 0, OFFLINE_POLL_MS * 1000000L };
	int i, ret = 0;

	if (!old || sched_getaffinity(0, size, old)) {
		perror("kmemtrace: sched_getaffinity");
		CPU_FREE(old);
		return -1;
	}
	for (i = 0; !ret && i < s->nr; i++) {
		struct reader *r = s->readers[i];

		/* Refused while online may be a CPU on its way down. */
		while ((ret = pin_reader(r)) == 1 && r->refused_since >= 0)
			nanosleep(&wait, NULL);
		if (ret >= 0)
			ret = 0;
		else
			reader_failed(r);
	}
	if (sched_setaffinity(0, size, old)) {
		perror("kmemtrace: sched_setaffinity");
		ret = -1;
	}
	CPU_FREE(old);
	return ret;
}

/* Hand the streams read over to @rec. */
static int take_streams(struct session *s, struct kt_recording *rec)
{
	int i;

	rec->streams = calloc(s->nr ? s->nr : 1, sizeof(*rec->streams));
	if (!rec->streams) {
		fprintf(stderr, "kmemtrace: out of memory\n");
		return -1;
	}
	for (i = 0; i < s->nr; i++)
		rec->streams[i] = s->readers[i]->stream;
	rec->nr = s->nr;
	return 0;
}

static void session_free(struct session *s)
{
	int i;

	for (i = 0; i < s->nr; i++) {
		close(s->readers[i]->fd);
		close(s->readers[i]->out_fd);
		free(s->readers[i]->buf);
		free(s->readers[i]);
	}
	free(s->readers);
	if (s->watch_fd >= 0)
		close(s->watch_fd);
	if (s->stop[0] >= 0) {
		close(s->stop[0]);
		close(s->stop[1]);
	}
}

/*
 * SIGINT and SIGTERM stay blocked here: ^C ends the command, not us, and a
 * SIGTERM is passed on to the command.  SIGCHLD too, so that the command's
 * end reaches sigwaitinfo() rather than a reader thread that ignores it.
 */
static sigset_t stop_signals, old_mask;

/* Wait for COMMAND @pid, passing SIGTERM on; its exit status, or -1. */
static int wait_command(pid_t pid)
{
	sigset_t wait_set = stop_signals;
	int status, sig;

	sigaddset(&wait_set, SIGCHLD);
	for (;;) {
		pid_t done = waitpid(pid, &status, WNOHANG);

		if (done == pid)
			break;
		if (done < 0 && errno != EINTR) {
			perror("kmemtrace: waitpid");
			return -1;
		}
		/* A SIGCHLD after the waitpid() above is pending: no race. */
		sig = sigwaitinfo(&wait_set, NULL);
		if (sig == SIGTERM)
			kill(pid, SIGTERM);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status);
}

static int run_command(char *const argv[])
{
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
	return wait_command(pid);
}

/* @name in @dir holding @text: 0, or -1 (printed). */
static int save_text(const char *dir, const char *name, const char *text)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write_all(fd, (const uint8_t *)text, strlen(text)) ||
	    close(fd)) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return 0;
}

int kt_record(const char *dir, const char *cpu_dir, unsigned int buffer_kb,
	      const char *out_dir, char *const argv[],
	      struct kt_recording *rec)
{
	struct session s = {
		.dir = dir, .cpu_dir = cpu_dir, .out_dir = out_dir,
		.stop = { -1, -1 }, .watch_fd = -1,
	};
	unsigned long long abi, enabled, overruns0, overruns1;
	char text[32];
	int i, ret = -1, we_enabled = 0;
	struct timespec no_wait = { 0 };
	struct sigaction chld_default = { .sa_handler = SIG_DFL }, old_chld;
	sigset_t blocked;
	int sig;

	memset(rec, 0, sizeof(*rec));
	if (read_number(dir, "abi_version", &abi)) {
		fprintf(stderr, "kmemtrace: %s/abi_version: %s (%s)\n", dir,
			strerror(errno), "is this a kmemtrace kernel? root?");
		return -1;
	}
	if (abi < KT_ABI_MIN || abi > KT_ABI_VERSION) {
		fprintf(stderr,
			"kmemtrace: kernel ABI version %llu: this kmemtrace reads versions %d to %d\n",
			abi, KT_ABI_MIN, KT_ABI_VERSION);
		return -1;
	}
	rec->abi = (unsigned int)abi;
	snprintf(text, sizeof(text), "%llu\n", abi);
	if (save_text(out_dir, "abi_version", text) ||
	    save_text(out_dir, "endianness", kt_host_endianness()))
		return -1;
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
	blocked = stop_signals;
	sigaddset(&blocked, SIGCHLD);
	/*
	 * Inherited SIG_IGN for SIGCHLD would reap COMMAND unseen and send no
	 * SIGCHLD: wait_command() would wait for ever.
	 */
	sigaction(SIGCHLD, &chld_default, &old_chld);
	pthread_sigmask(SIG_BLOCK, &blocked, &old_mask);
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
	if (pipe2(s.stop, O_CLOEXEC)) {
		perror("kmemtrace: pipe");
		goto stop_early;
	}
	watch_dir(&s);
	if (scan(&s))
		goto stop_early;
	if (!s.nr) {
		fprintf(stderr, "kmemtrace: no cpu<n> files in %s\n", dir);
		goto stop_early;
	}
	if (check_cpus(&s))
		goto stop_early;
	if (!enabled) {
		/* What an earlier session left is not this one's. */
		for (i = 0; i < s.nr; i++) {
			if (drain(s.readers[i], 1)) {
				fprintf(stderr, "kmemtrace: reading %s: %s\n",
					dir, strerror(s.readers[i]->error));
				goto stop_early;
			}
		}
	}
	if (read_number(dir, "total_overruns", &overruns0)) {
		fprintf(stderr, "kmemtrace: %s/total_overruns: %s\n", dir,
			strerror(errno));
		goto stop_early;
	}
	for (i = 0; i < s.nr; i++)
		if (start_reader(s.readers[i]))
			goto stop;
	s.live = 1;
	if (s.watch_fd >= 0) {
		if (pthread_create(&s.watcher, NULL, watcher_main, &s))
			fprintf(stderr,
				"kmemtrace: cannot start the watcher thread; a cpu<n> file made while recording will be read only at the end\n");
		else
			s.watching = 1;
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
	if (write(s.stop[1], "", 1) < 0)
		ret = -1;
	/* Readers the watcher adds now drain at once: after the flush. */
	stop_watching(&s);
	if (s.error)
		ret = -1;
	for (i = 0; i < s.nr; i++) {
		if (!s.readers[i]->running) {
			ret = -1;
			continue;
		}
		pthread_join(s.readers[i]->thread, NULL);
		if (reader_failed(s.readers[i]))
			ret = -1;
	}
	if (!read_number(dir, "total_overruns", &overruns1)) {
		rec->lost_bytes = overruns1 - overruns0;
		snprintf(text, sizeof(text), "%llu\n", overruns1 - overruns0);
		if (save_text(out_dir, "total_overruns", text))
			ret = -1;
	}
	if (ret >= 0 && take_streams(&s, rec))
		ret = -1;
	goto out;
stop_early:
	/* Recording this session turned on, with no reader started. */
	if (we_enabled && write_text(dir, "enabled", "0"))
		fprintf(stderr, "kmemtrace: %s/enabled: %s\n", dir,
			strerror(errno));
	ret = -1;
out:
	session_free(&s);
	/* A ^C that ended the command is not for us. */
	while (sigtimedwait(&stop_signals, NULL, &no_wait) > 0)
		;
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	return ret;
}

const char *kt_host_endianness(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one ? "little\n" : "big\n";
}

void kt_recording_free(struct kt_recording *rec)
{
	free(rec->streams);
	memset(rec, 0, sizeof(*rec));
}
