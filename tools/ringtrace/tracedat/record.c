// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat record.  Sets the buffer size, enables the events (and their
 * filters), clears the buffer and turns tracing on; one reader thread per
 * CPU splices whole pages from per_cpu/cpuN/trace_pipe_raw into an
 * unlinked temporary file while tracing runs, so that nothing is lost for
 * want of draining; then the command runs (or recording goes on until ^C),
 * tracing goes off, the readers drain what is left, and the file is
 * written: the tracing directory's formats, kallsyms, printk formats,
 * saved cmdlines and the pages.
 *
 * Nothing waits by sleeping.  A reader waits in poll() on its
 * trace_pipe_raw (readable once buffer_percent of the CPU buffer is
 * filled) and on the session's stop eventfd, with no timeout; when woken
 * it splices until EAGAIN.  The main thread waits in poll() on a signalfd
 * of SIGINT, SIGTERM and SIGCHLD, which every thread blocks, so that the
 * command's end is seen at once; its only timeout is the progress line's.
 *
 * The end of a session, in this order: tracing_on is set to 0, then the
 * stop is written; a reader that sees the stop splices until EAGAIN and
 * exits, so what it drains is the whole session, its tail included.
 *
 * Before record writes a file of the tracing directory it reads it (not
 * with -k: keep); at the end, once the file is written or the recording
 * has failed, the values read are written back, the last change first,
 * and tracing_on last, once the events are off.  A write to a group's
 * enable or filter (a system's, or events/enable) changes its events'
 * too: theirs are saved before it and so written back after it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "datfile.h"
#include "pages.h"
#include "net.h"
#include "record.h"

/* trace_pipe_raw's pages, as the file's header says they are. */
#define TD_RAW_PAGE	4096
#define SPLICE_BYTES	(64 * 1024)
#define PROGRESS_MS	1000

/* A CPU's per_cpu/cpuN/stats counters; lost is overrun + dropped. */
struct stats {
	unsigned long long written, lost;
};

struct reader {
	int		cpu;
	int		in;		/* trace_pipe_raw, non-blocking */
	int		out;		/* the unlinked temporary file */
	int		pipe[2];	/* splice's way from in to out */
	int		stop_fd;	/* readable: tracing is off; drain, exit */
	/* Bytes in out: the reader adds, the main thread's progress reads. */
	unsigned long long bytes;
	int		error;		/* errno of a failed poll or splice */
	short		revents;	/* POLLERR, POLLHUP or POLLNVAL seen */
	int		running;	/* its thread was started */
	struct stats	base;		/* the CPU's stats as recording starts */
	pthread_t	thread;
};

/* A file record changed, and what it held before. */
struct saved {
	char	*name;		/* under the tracing directory */
	char	*value;		/* what to write back */
};

struct session {
	const struct td_record_opts *o;
	struct saved	*saved;		/* in the order they were saved */
	int		nr_saved;
	struct reader	*r;		/* one per CPU with a trace_pipe_raw */
	int		nr;
	pid_t		child;		/* -F: the command, held before exec */
	int		go_fd;		/* closed: the held command goes on */
	char		*pid_filter;	/* -P and -F: "common_pid == N || ..." */
	int		stop_fd;	/* eventfd, written once at the end */
	int		sig_fd;		/* signalfd of sigs, main thread only */
	sigset_t	sigs;		/* SIGINT, SIGTERM, SIGCHLD */
	sigset_t	old_mask;
	struct sigaction old_chld;
	struct sigaction old_pipe;
	pid_t		command;	/* started and not reaped yet */
	int		tracing;	/* we set tracing_on to 1 */
	int		was_on;		/* it was 1 before */
	long long	start_ms, end_ms;
};

static int write_str(const char *dir, const char *name, const char *val)
{
	char path[4096];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

/* A whole small file; NULL (errno set) if it cannot be read. */
char *td_read_all(const char *path, size_t *len)
{
	size_t cap = 65536;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	*len = 0;
	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + *len, cap - *len)) > 0) {
		*len += (size_t)n;
		if (cap - *len < 4096) {
			char *b = realloc(buf, cap * 2);

			if (!b) {
				n = -1;
				break;
			}
			buf = b;
			cap *= 2;
		}
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Move the @n bytes splice put in the pipe on to the file. */
static int pipe_to_file(struct reader *r, ssize_t n)
{
	while (n > 0) {
		ssize_t m = splice(r->pipe[0], NULL, r->out, NULL, (size_t)n,
				   SPLICE_F_MOVE);

		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0) {
			r->error = m < 0 ? errno : EIO;
			return -1;
		}
		n -= m;
		__atomic_add_fetch(&r->bytes, (unsigned long long)m,
				   __ATOMIC_RELAXED);
	}
	return 0;
}

/*
 * The one partial page there is: while tracing runs, splice() moves only
 * whole pages (as upstream's), so a reader woken for less (buffer_percent
 * 0) reads the partial page instead of polling again at once.  0 if it
 * was written or none was there, -1 on error.
 */
static int read_partial(struct reader *r)
{
	char page[TD_RAW_PAGE];
	ssize_t n, m;

	do {
		n = read(r->in, page, sizeof(page));
	} while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n != (ssize_t)sizeof(page)) {
		r->error = n < 0 ? errno : EIO;
		return -1;
	}
	do {
		m = write(r->out, page, sizeof(page));
	} while (m < 0 && errno == EINTR);
	if (m != (ssize_t)sizeof(page)) {
		r->error = m < 0 ? errno : EIO;
		return -1;
	}
	__atomic_add_fetch(&r->bytes, (unsigned long long)m, __ATOMIC_RELAXED);
	return 0;
}

/*
 * Splice what trace_pipe_raw has now into the file: 0 once it says EAGAIN,
 * -1 on error.  The pipe is empty before each splice into it, so EAGAIN is
 * always trace_pipe_raw's.  If not a page came, read the partial one.
 */
static int drain(struct reader *r)
{
	int moved = 0;

	for (;;) {
		ssize_t n = splice(r->in, NULL, r->pipe[1], NULL, SPLICE_BYTES,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n < 0 && errno == EAGAIN)
			return moved ? 0 : read_partial(r);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r->error = n < 0 ? errno : EIO;
			return -1;
		}
		if (pipe_to_file(r, n))
			return -1;
		moved = 1;
	}
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct pollfd p[2] = {
		{ .fd = r->in, .events = POLLIN },
		{ .fd = r->stop_fd, .events = POLLIN },
	};

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			r->error = errno;
			return NULL;
		}
		/* tracing_on was 0 before the stop: this drain gets the rest. */
		if (p[1].revents) {
			drain(r);
			return NULL;
		}
		/* Such a file would stay "ready" for ever: a busy loop. */
		if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			r->revents = p[0].revents;
			return NULL;
		}
		if (drain(r))
			return NULL;
	}
}

/* Why @r failed, if it did: 0, or -1 with the reason printed. */
static int reader_failed(const struct reader *r)
{
	if (r->revents) {
		fprintf(stderr, "tracedat: reading CPU %d: poll() says %s\n",
			r->cpu, r->revents & POLLNVAL ? "POLLNVAL" :
			r->revents & POLLERR ? "POLLERR" : "POLLHUP");
		return -1;
	}
	if (r->error) {
		fprintf(stderr, "tracedat: reading CPU %d: %s\n", r->cpu,
			strerror(r->error));
		return -1;
	}
	return 0;
}

/* trace_clock's text lists the clocks, the one in use in brackets. */
char *td_clock_in_use(const char *text)
{
	const char *open = strchr(text, '['), *close;

	close = open ? strchr(open, ']') : NULL;
	return close ? strndup(open + 1, (size_t)(close - open - 1)) : NULL;
}

/*
 * What @name holds now, as it is written back: without its newline; a
 * filter's "none" is "0", which clears it; of trace_clock, the clock in
 * use.  NULL (errno set) if it cannot be read.
 */
static char *current_value(const char *tracing, const char *name)
{
	char path[4096], *text;
	const char *base = strrchr(name, '/');
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", tracing, name);
	text = td_read_all(path, &len);
	if (!text)
		return NULL;
	/* td_read_all() leaves room after the text. */
	text[len] = '\0';
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	if (!strcmp(base ? base + 1 : name, "filter") && !strcmp(text, "none"))
		strcpy(text, "0");
	if (!strcmp(name, "trace_clock")) {
		char *clock = td_clock_in_use(text);

		if (clock) {
			free(text);
			text = clock;
		}
	}
	return text;
}

/*
 * Save what @name holds, to write it back at the end (not with -k): 0, or
 * -1 with errno.  A group's "X" (its events differ) is not saved: the
 * events' own values, saved with it, put it back.
 */
static int save(struct session *s, const char *name)
{
	struct saved *a;
	char *value, *n;

	if (s->o->keep)
		return 0;
	value = current_value(s->o->tracing, name);
	if (!value)
		return -1;
	if (!strcmp(value, "X")) {
		free(value);
		return 0;
	}
	a = realloc(s->saved, (s->nr_saved + 1) * sizeof(*a));
	n = strdup(name);
	if (a)
		s->saved = a;
	if (!a || !n) {
		free(value);
		free(n);
		errno = ENOMEM;
		return -1;
	}
	a[s->nr_saved].name = n;
	a[s->nr_saved++].value = value;
	return 0;
}

/* Forget the values saved after the first @nr. */
static void drop_saved(struct session *s, int nr)
{
	while (s->nr_saved > nr) {
		s->nr_saved--;
		free(s->saved[s->nr_saved].name);
		free(s->saved[s->nr_saved].value);
	}
}

static void print_failed(const struct session *s, const char *what,
			 const char *name, const char *doing, int err)
{
	/* An -e's filter or event: the kernel says why in error_log. */
	fprintf(stderr, "tracedat: %s%s/%s: %s%s%s\n", what, s->o->tracing,
		name, doing, strerror(err),
		*what && err == EINVAL ? " (see error_log)" : "");
}

/*
 * Write @value to @name, what it held saved first: 0, or -1 after
 * printing why (@what before the file's name).  A write that failed
 * changed nothing: what was saved for it is dropped.
 */
static int change(struct session *s, const char *what, const char *name,
		  const char *value)
{
	int nr = s->nr_saved, err;

	if (save(s, name)) {
		print_failed(s, what, name, "reading it, to put it back after: ",
			     errno);
		return -1;
	}
	if (!write_str(s->o->tracing, name, value))
		return 0;
	err = errno;
	drop_saved(s, nr);
	print_failed(s, what, name, "", err);
	return -1;
}

/*
 * Save @file of each event directory @below levels under @dir, before a
 * write to @dir/@file changes them all: 0, or -1 after printing why.  An
 * event without the file (ftrace/print has no enable) is left out.
 */
static int save_below(struct session *s, const char *what, const char *dir,
		      int below, const char *file)
{
	char path[4096], name[3072], f[3200];
	struct dirent *e;
	struct stat st;
	int ret = 0;
	DIR *d;

	if (!below || s->o->keep)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", s->o->tracing, dir);
	d = opendir(path);
	if (!d) {
		print_failed(s, what, dir, "", errno);
		return -1;
	}
	while (!ret && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "%s/%s", dir, e->d_name);
		snprintf(path, sizeof(path), "%s/%s", s->o->tracing, name);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (below > 1) {
			ret = save_below(s, what, name, below - 1, file);
			continue;
		}
		snprintf(f, sizeof(f), "%s/%s", name, file);
		if (save(s, f) && errno != ENOENT) {
			print_failed(s, what, f,
				     "reading it, to put it back after: ",
				     errno);
			ret = -1;
		}
	}
	closedir(d);
	return ret;
}

/*
 * What the session changed, written back as it was, the last change first;
 * then tracing_on, once the events are off, so that they record nothing
 * more.  With -k nothing was saved and tracing stays off.  A value that
 * cannot be written back is warned of; the recording's status stays.
 */
static void put_back(struct session *s)
{
	const char *tracing = s->o->tracing;
	int i;

	for (i = s->nr_saved - 1; i >= 0; i--)
		if (write_str(tracing, s->saved[i].name, s->saved[i].value))
			fprintf(stderr, "tracedat: warning: %s/%s: putting back \"%s\": %s\n",
				tracing, s->saved[i].name, s->saved[i].value,
				strerror(errno));
	drop_saved(s, 0);
	free(s->saved);
	s->saved = NULL;
	if (s->was_on && !s->o->keep && write_str(tracing, "tracing_on", "1"))
		fprintf(stderr, "tracedat: warning: %s/tracing_on: putting back \"1\": %s\n",
			tracing, strerror(errno));
}

/*
 * The directory of @spec (SYSTEM, EVENT or SYSTEM/EVENT) under the tracing
 * directory, "events/...", into @rel: 0, or -1 (ENOENT) with what was
 * looked for in @path.  *@below: the levels of event directories in it.
 */
static int find_event(const char *tracing, const char *spec, char *rel,
		      size_t len, int *below, char *path, size_t path_len)
{
	char dir[4096];
	const char *c;
	struct stat st;

	snprintf(rel, len, "events/%s", spec);
	snprintf(dir, sizeof(dir), "%s/%s", tracing, rel);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		/* EVENT alone: look in every system. */
		DIR *d;
		struct dirent *e;
		int found = 0;

		snprintf(dir, sizeof(dir), "%s/events", tracing);
		d = opendir(dir);
		while (d && (e = readdir(d))) {
			char p[4096];

			snprintf(p, sizeof(p), "%s/events/%s/%s", tracing,
				 e->d_name, spec);
			if (e->d_name[0] != '.' && !strchr(spec, '/') &&
			    !stat(p, &st) && S_ISDIR(st.st_mode)) {
				snprintf(rel, len, "events/%s/%s", e->d_name,
					 spec);
				found = 1;
				break;
			}
		}
		if (d)
			closedir(d);
		if (!found) {
			errno = ENOENT;
			snprintf(path, path_len, "%s/events/.../%s", tracing,
				 spec);
			return -1;
		}
	}
	/* events/SYSTEM holds a level of event directories, an event none. */
	*below = 2;
	for (c = rel; *c; c++)
		if (c[0] == '/' && c[1] && c[1] != '/' && *below)
			(*below)--;
	return 0;
}

/* The number after "NAME: " at the start of a line of @text, or 0. */
static unsigned long long stats_field(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *line = text;

	while (line) {
		if (!strncmp(line, name, n) && !strncmp(line + n, ": ", 2))
			return strtoull(line + n + 2, NULL, 10);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return 0;
}

/*
 * CPU @cpu's counters now: 0, or -1 if its stats file cannot be read.
 * Lost are the records overwritten and those dropped ("dropped events",
 * upstream's name, which ringtrace uses too; stats_field() matches whole
 * names, so "overrun" is not "commit overrun").
 */
static int cpu_stats(const char *tracing, int cpu, struct stats *s)
{
	char path[4096], *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", tracing, cpu);
	text = td_read_all(path, &len);
	if (!text)
		return -1;
	text[len ? len - 1 : 0] = '\0';
	memset(s, 0, sizeof(*s));
	s->written = stats_field(text, "written");
	/* "dropped": what ringtrace kernels before upstream's names said. */
	s->lost = stats_field(text, "overrun") +
		  stats_field(text, "dropped events") +
		  stats_field(text, "dropped");
	free(text);
	return 0;
}

/* A counter that went back (the buffer was reset) counts as nothing. */
static unsigned long long since(unsigned long long now,
				unsigned long long base)
{
	return now > base ? now - base : 0;
}

/*
 * Events written and lost since recording started: each CPU's counters
 * now less its own baseline, taken once as the session began.
 */
static void session_stats(const struct session *s, struct stats *d)
{
	int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < s->nr; i++) {
		const struct reader *r = &s->r[i];
		struct stats now;

		if (cpu_stats(s->o->tracing, r->cpu, &now))
			continue;
		d->written += since(now.written, r->base.written);
		d->lost += since(now.lost, r->base.lost);
	}
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* The progress line: rewritten in place, ended by the summary's "\n". */
static void progress(const struct session *s, long long ms)
{
	double secs = (double)(ms - s->start_ms) / 1000.0;
	unsigned long long bytes = 0;
	struct stats d;
	int i;

	session_stats(s, &d);
	for (i = 0; i < s->nr; i++)
		bytes += __atomic_load_n(&s->r[i].bytes, __ATOMIC_RELAXED);
	fprintf(stderr, "\rtracedat: %.0f events/s, %llu bytes, %llu lost   ",
		secs > 0 ? (double)d.written / secs : 0.0, bytes, d.lost);
}

/*
 * The session's signals are blocked in every thread (the readers inherit
 * the mask) and taken from a signalfd by the main thread only: SIGINT and
 * SIGTERM end a session without a command; with one, SIGTERM is passed on
 * to it and SIGINT left to it (^C reaches it from the terminal), and
 * SIGCHLD says it ended.
 */
static int catch_signals(struct session *s)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct sigaction ign = { .sa_handler = SIG_IGN };

	sigemptyset(&s->sigs);
	sigaddset(&s->sigs, SIGINT);
	sigaddset(&s->sigs, SIGTERM);
	sigaddset(&s->sigs, SIGCHLD);
	/*
	 * An inherited SIG_IGN would have the kernel reap the command unseen:
	 * no SIGCHLD, and waitpid() could not tell its exit status.
	 */
	sigaction(SIGCHLD, &dfl, &s->old_chld);
	/*
	 * A write to a pipe whose reader is gone (the held -F command, a
	 * closed stderr) fails with EPIPE instead of killing us before the
	 * tracing state is put back.
	 */
	sigaction(SIGPIPE, &ign, &s->old_pipe);
	pthread_sigmask(SIG_BLOCK, &s->sigs, &s->old_mask);
	s->sig_fd = signalfd(-1, &s->sigs, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->sig_fd >= 0)
		return 0;
	perror("tracedat: signalfd");
	pthread_sigmask(SIG_SETMASK, &s->old_mask, NULL);
	sigaction(SIGCHLD, &s->old_chld, NULL);
	sigaction(SIGPIPE, &s->old_pipe, NULL);
	return -1;
}

static void release_signals(struct session *s)
{
	struct timespec no_wait = { 0, 0 };

	close(s->sig_fd);
	/* A ^C that ended the command was not for us, nor its SIGCHLD. */
	while (sigtimedwait(&s->sigs, NULL, &no_wait) > 0)
		;
	pthread_sigmask(SIG_SETMASK, &s->old_mask, NULL);
	sigaction(SIGCHLD, &s->old_chld, NULL);
	sigaction(SIGPIPE, &s->old_pipe, NULL);
}

/* The next pending signal of the session's set; 0 if none, -1 on error. */
static int take_signal(int sig_fd)
{
	struct signalfd_siginfo si;
	ssize_t n = read(sig_fd, &si, sizeof(si));

	if (n == (ssize_t)sizeof(si))
		return (int)si.ssi_signo;
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	perror("tracedat: reading the signalfd");
	return -1;
}

/*
 * Fork the command; with @hold, the child waits until *@go_fd (the write
 * end of a pipe) is closed before it execs: -F sets its events' filters
 * to its pid first.  Returns its pid, or -1 after printing why.
 */
static pid_t start_command(const struct session *s, char *const argv[],
			   int hold, int *go_fd)
{
	int go[2] = { -1, -1 };
	pid_t pid;

	if (hold && pipe2(go, O_CLOEXEC)) {
		perror("tracedat: pipe");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		perror("tracedat: fork");
		if (hold) {
			close(go[0]);
			close(go[1]);
		}
		return -1;
	}
	if (!pid) {
		char c;

		if (hold) {
			ssize_t r;

			close(go[1]);
			/*
			 * A byte: go on.  EOF without one: tracedat died
			 * before the filters were set: never run unwatched.
			 */
			do
				r = read(go[0], &c, 1);
			while (r < 0 && errno == EINTR);
			if (r != 1)
				_exit(127);
		}
		/* The command gets the signals as we got them. */
		sigaction(SIGCHLD, &s->old_chld, NULL);
		sigaction(SIGPIPE, &s->old_pipe, NULL);
		sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "tracedat: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (hold) {
		close(go[0]);
		*go_fd = go[1];
	}
	return pid;
}

/* Whether @pid has ended: 1 with its exit status in *@status, 0, -1. */
static int command_ended(pid_t pid, int *status)
{
	int ws;
	pid_t w = waitpid(pid, &ws, WNOHANG);

	if (w == pid) {
		*status = WIFEXITED(ws) ? WEXITSTATUS(ws) :
			  128 + WTERMSIG(ws);
		return 1;
	}
	if (w < 0 && errno != EINTR) {
		perror("tracedat: waitpid");
		return -1;
	}
	return 0;
}

/*
 * Until command @pid ends (none: @pid 0) or, without one, a SIGINT or
 * SIGTERM comes, with the progress line each second.  Returns the
 * command's exit status, 0 without one, or -1 after printing why.
 */
static int wait_session(struct session *s, pid_t pid)
{
	struct pollfd p = { .fd = s->sig_fd, .events = POLLIN };
	long long next = s->start_ms + PROGRESS_MS, left;
	int sig, status, ended;

	for (;;) {
		ended = pid ? command_ended(pid, &status) : 0;
		if (ended > 0)
			s->command = 0;
		if (ended)
			return ended < 0 ? -1 : status;
		left = next - now_ms();
		if (left <= 0) {
			progress(s, now_ms());
			/* Late (stopped for a while?): the next whole second. */
			next += PROGRESS_MS * (1 - left / PROGRESS_MS);
			continue;
		}
		/* A SIGCHLD after the waitpid() above is pending: no race. */
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR) {
			perror("tracedat: poll");
			return -1;
		}
		while ((sig = take_signal(s->sig_fd)) > 0) {
			if (!pid && sig != SIGCHLD)
				return 0;
			if (sig == SIGTERM)
				kill(pid, SIGTERM);
		}
		if (sig < 0)
			return -1;
	}
}

/* A format file without ringtrace's alias lines, which libtraceevent refuses. */
static void add_format(struct td_blob **arr, uint32_t *nr, char *text,
		       size_t len)
{
	struct td_blob *a = realloc(*arr, (*nr + 1) * sizeof(**arr));
	char *in = text, *out = text, *end = text + len;

	if (!a) {
		free(text);
		return;
	}
	*arr = a;
	while (in < end) {
		char *nl = memchr(in, '\n', (size_t)(end - in));
		size_t l = nl ? (size_t)(nl - in) + 1 : (size_t)(end - in);

		if (!(l > 7 && !strncmp(in, "\talias:", 7))) {
			memmove(out, in, l);
			out += l;
		}
		in += l;
	}
	a[*nr].data = (const uint8_t *)text;
	a[*nr].len = (size_t)(out - text);
	(*nr)++;
}

/*
 * Every <system>/<event>/format under @events (an events directory):
 * ftrace's apart, the rest by system.
 */
void td_read_formats(const char *events, struct td_file *tf)
{
	char path[4096];
	struct dirent *s, *e;
	DIR *sd, *ed;

	sd = opendir(events);
	while (sd && (s = readdir(sd))) {
		struct td_system *sys = NULL;

		if (s->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", events, s->d_name);
		ed = opendir(path);
		if (!ed)
			continue;
		while ((e = readdir(ed))) {
			char fpath[4096 + 512], *text;
			size_t len;

			if (e->d_name[0] == '.')
				continue;
			snprintf(fpath, sizeof(fpath), "%s/%s/format", path,
				 e->d_name);
			text = td_read_all(fpath, &len);
			if (!text)
				continue;
			if (!strcmp(s->d_name, "ftrace")) {
				add_format(&tf->ftrace_formats,
					   &tf->nr_ftrace_formats, text, len);
				continue;
			}
			if (!sys) {
				struct td_system *a = realloc(tf->systems,
					(tf->nr_systems + 1) * sizeof(*a));

				if (!a) {
					free(text);
					break;
				}
				tf->systems = a;
				sys = &a[tf->nr_systems++];
				memset(sys, 0, sizeof(*sys));
				sys->name = strdup(s->d_name);
			}
			add_format(&sys->formats, &sys->nr_formats, text, len);
		}
		closedir(ed);
	}
	if (sd)
		closedir(sd);
}

struct td_blob td_blob_of(const char *path)
{
	struct td_blob b = { 0 };
	size_t len;

	b.data = (const uint8_t *)td_read_all(path, &len);
	b.len = b.data ? len : 0;
	return b;
}

/* The tracing directory's sections of the file. */
static void read_tracing(const char *tracing, struct td_file *tf)
{
	char path[4096];

	tf->long_size = sizeof(long);
	tf->page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	snprintf(path, sizeof(path), "%s/events/header_page", tracing);
	tf->header_page = td_blob_of(path);
	snprintf(path, sizeof(path), "%s/events/header_event", tracing);
	tf->header_event = td_blob_of(path);
	snprintf(path, sizeof(path), "%s/events", tracing);
	td_read_formats(path, tf);
	tf->kallsyms = td_blob_of("/proc/kallsyms");
	snprintf(path, sizeof(path), "%s/printk_formats", tracing);
	tf->printk_formats = td_blob_of(path);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", tracing);
	tf->cmdlines = td_blob_of(path);
}

/* Each CPU's pages, mapped from its temporary file: 0, or -1 (printed). */
static int map_cpus(const struct session *s, struct td_file *tf)
{
	int i;

	tf->cpu_data = calloc((size_t)s->nr, sizeof(*tf->cpu_data));
	if (!tf->cpu_data) {
		fprintf(stderr, "tracedat: %s: out of memory\n", s->o->output);
		return -1;
	}
	tf->nr_cpus = (uint32_t)s->nr;
	for (i = 0; i < s->nr; i++) {
		const struct reader *r = &s->r[i];
		const void *m = "";

		if (r->bytes)
			m = mmap(NULL, r->bytes, PROT_READ, MAP_PRIVATE, r->out,
				 0);
		if (m == MAP_FAILED) {
			fprintf(stderr, "tracedat: mapping CPU %d's pages: %s\n",
				r->cpu, strerror(errno));
			return -1;
		}
		tf->cpu_data[i].data = m;
		tf->cpu_data[i].len = (size_t)r->bytes;
	}
	return 0;
}

/* What read_tracing() took (not the CPU data): the sections' blobs. */
void td_release_sections(struct td_file *tf)
{
	uint32_t i, j;

	free((void *)tf->header_page.data);
	free((void *)tf->header_event.data);
	for (i = 0; i < tf->nr_ftrace_formats; i++)
		free((void *)tf->ftrace_formats[i].data);
	free(tf->ftrace_formats);
	for (i = 0; i < tf->nr_systems; i++) {
		for (j = 0; j < tf->systems[i].nr_formats; j++)
			free((void *)tf->systems[i].formats[j].data);
		free(tf->systems[i].formats);
		free((void *)tf->systems[i].name);
	}
	free(tf->systems);
	free((void *)tf->kallsyms.data);
	free((void *)tf->printk_formats.data);
	free((void *)tf->cmdlines.data);
}

/* What read_tracing() and map_cpus() took. */
static void release_file(struct td_file *tf)
{
	uint32_t i;

	for (i = 0; tf->cpu_data && i < tf->nr_cpus; i++)
		if (tf->cpu_data[i].len)
			munmap((void *)tf->cpu_data[i].data,
			       tf->cpu_data[i].len);
	free(tf->cpu_data);
	td_release_sections(tf);
}

/*
 * The TRACECLOCK option: @path's text (the clocks, the one in use in
 * brackets) with its NUL; that one's name into *@clock.
 */
static void text_option(struct td_file *tf, const char *path, char **clock)
{
	size_t len;
	char *text = td_read_all(path, &len);

	if (!text)
		return;
	/* td_read_all() leaves room after the text. */
	text[len] = '\0';
	*clock = td_clock_in_use(text);
	tf->options[tf->nr_options].type = 4;
	tf->options[tf->nr_options].data.data = (const uint8_t *)text;
	tf->options[tf->nr_options++].data.len = len + 1;
}

/*
 * The options the file gets: each CPU's stats as the session ended
 * (CPUSTAT, 2: "CPU: N" then per_cpu/cpuN/stats, what trace-cmd report
 * --stat prints) and the trace_clock file (TRACECLOCK, 4); the clock
 * in use, the bracketed one, into *@clock for version 7's buffer.
 */
static void add_options(const struct session *s, struct td_file *tf,
			char **clock)
{
	char path[4096];
	size_t len;
	int i;

	tf->options = calloc((size_t)s->nr + 1, sizeof(*tf->options));
	if (!tf->options)
		return;
	for (i = 0; i < s->nr; i++) {
		char *stats, *text;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats",
			 s->o->tracing, s->r[i].cpu);
		stats = td_read_all(path, &len);
		if (!stats)
			continue;
		len = (size_t)asprintf(&text, "CPU: %d\n%.*s", s->r[i].cpu,
				       (int)len, stats);
		free(stats);
		if ((int)len < 0)
			continue;
		tf->options[tf->nr_options].type = 2;
		tf->options[tf->nr_options].data.data = (const uint8_t *)text;
		/* With its NUL, as trace-cmd writes it. */
		tf->options[tf->nr_options++].data.len = len + 1;
	}
	snprintf(path, sizeof(path), "%s/trace_clock", s->o->tracing);
	text_option(tf, path, clock);
}

/* The file's sections and CPU data, ready to be written or sent. */
struct prepared {
	struct td_file	tf;
	char		*clock;
	int		ready;
};

/*
 * Read what the file holds besides the CPU data (the CPU stats now, at
 * the session's end, before put_back() changes them) and map each CPU's
 * pages: 0, or -1 after printing why.
 */
static int prepare_file(const struct session *s, struct prepared *p)
{
	memset(p, 0, sizeof(*p));
	read_tracing(s->o->tracing, &p->tf);
	p->tf.version = s->o->file_version;
	p->tf.codec = s->o->codec;
	add_options(s, &p->tf, &p->clock);
	p->tf.clock = p->clock;
	p->ready = 1;
	return map_cpus(s, &p->tf);
}

static void release_prepared(struct prepared *p)
{
	uint32_t i;

	if (!p->ready)
		return;
	for (i = 0; i < p->tf.nr_options; i++)
		free((void *)p->tf.options[i].data.data);
	free(p->tf.options);
	free(p->clock);
	release_file(&p->tf);
	p->ready = 0;
}

/* @tf into @f, opened as @out, and closed: 0, or -1 after printing why. */
static int write_stream(FILE *f, const char *out, const struct td_file *tf)
{
	char err[256];
	int ret = -1;

	if (td_write(f, tf, err, sizeof(err)))
		fprintf(stderr, "tracedat: %s: %s\n", out, err);
	else
		ret = 0;
	if (fclose(f) && !ret) {
		fprintf(stderr, "tracedat: %s: %s\n", out, strerror(errno));
		ret = -1;
	}
	return ret;
}

/* @tf into the file @out: 0, or -1 after printing why. */
int td_write_to(const char *out, const struct td_file *tf)
{
	FILE *f = fopen(out, "wb");

	if (!f) {
		fprintf(stderr, "tracedat: %s: %s\n", out, strerror(errno));
		return -1;
	}
	return write_stream(f, out, tf);
}

/*
 * -N failed: the session into @name, or NAME.1, NAME.2 ... if that exists
 * (never over an earlier recording).
 */
static void keep_file(const char *name, const struct td_file *tf)
{
	char path[4096];
	int i, fd = -1;
	FILE *f;

	for (i = 0; i < 100 && fd < 0; i++) {
		if (i)
			snprintf(path, sizeof(path), "%s.%d", name, i);
		else
			snprintf(path, sizeof(path), "%s", name);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!f) {
		fprintf(stderr, "tracedat: keeping the session in %s: %s\n",
			path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	if (!write_stream(f, path, tf))
		fprintf(stderr, "tracedat: the session is kept in %s\n", path);
}

/*
 * -N: the file sent to trace-cmd's collector instead: what comes before
 * the CPU data, then each CPU's pages; the collector puts them together.
 * Runs after the tracing state is put back and the signals are the
 * caller's again (a ^C ends it).  If sending fails the session is not
 * lost: it is written to @o->output.  0, or -1 after printing why.
 */
static int send_file(const struct td_record_opts *o, struct td_file *tf)
{
	const char *dest = o->net;
	char err[256], *meta = NULL;
	struct td_net n = { .err = err, .errlen = sizeof(err) };
	size_t len = 0;
	uint32_t i;
	FILE *f;
	int bad;

	tf->meta_only = 1;
	f = open_memstream(&meta, &len);
	if (!f) {
		perror("tracedat: open_memstream");
		goto keep;
	}
	bad = td_write(f, tf, err, sizeof(err));
	if (fclose(f) || bad) {
		fprintf(stderr, "tracedat: %s: %s\n", dest,
			bad ? err : strerror(errno));
		goto keep;
	}
	if (td_net_open(&n, dest, (int)tf->nr_cpus, tf->page_size))
		goto failed;
	if (td_net_send_meta(&n, (const uint8_t *)meta, len))
		goto abort;
	for (i = 0; i < tf->nr_cpus; i++)
		if (td_net_send_cpu(&n, (int)i, tf->cpu_data[i].data,
				    tf->cpu_data[i].len))
			goto abort;
	if (td_net_close(&n))
		goto failed;
	free(meta);
	fprintf(stderr, "tracedat: sent to %s\n", dest);
	return 0;
abort:
	td_net_abort(&n);
failed:
	fprintf(stderr, "tracedat: %s: %s\n", dest, err);
keep:
	free(meta);
	tf->meta_only = 0;
	keep_file(o->output, tf);
	return -1;
}

static int write_file(const struct session *s)
{
	struct prepared p;
	int ret = -1;

	if (!prepare_file(s, &p))
		ret = td_write_to(s->o->output, &p.tf);
	release_prepared(&p);
	return ret;
}

/* Events in each CPU's pages, and pages that said events were lost. */
static int count_page_event(const struct td_event *ev, void *ctx)
{
	unsigned long long *c = ctx;

	c[0]++;
	if (ev->lost_before)
		c[1]++;
	return 0;
}

/*
 * As the file's readers tell them: a non-empty header_page stands for the
 * current record layout (trace_pipe_raw's), an empty one for the 2008 one.
 */
static int current_layout(const char *tracing)
{
	char path[4096];
	struct td_blob b;

	snprintf(path, sizeof(path), "%s/events/header_page", tracing);
	b = td_blob_of(path);
	free((void *)b.data);
	return b.len != 0;
}

/* A CPU's events, counted in the pages the file gets. */
static void cpu_summary(const struct reader *r,
			const struct td_page_format *pf)
{
	unsigned long long c[2] = { 0, 0 };
	char err[256] = "";
	void *m = NULL;

	if (r->bytes)
		m = mmap(NULL, r->bytes, PROT_READ, MAP_PRIVATE, r->out, 0);
	if (m == MAP_FAILED) {
		snprintf(err, sizeof(err), "mapping its pages: %s",
			 strerror(errno));
		m = NULL;
	} else if (m) {
		/* On error, @err says where the count stopped. */
		td_walk_pages(m, r->bytes, r->cpu, pf, count_page_event, c,
			      err, sizeof(err));
	}
	fprintf(stderr, "  CPU %d: %llu events, %llu bytes, %llu pages after lost events\n",
		r->cpu, c[0], r->bytes, c[1]);
	if (err[0])
		fprintf(stderr, "    counted up to: %s\n", err);
	if (m)
		munmap(m, r->bytes);
}

static void summary(const struct session *s)
{
	struct td_page_format pf = {
		.page_size = (uint32_t)sysconf(_SC_PAGESIZE),
		.long_size = sizeof(long),
		.modern = current_layout(s->o->tracing),
	};
	int i;

	fprintf(stderr, "\n");
	for (i = 0; i < s->nr; i++)
		cpu_summary(&s->r[i], &pf);
}

/* An unlinked file in @dir: O_TMPFILE, or (9p has none) mkostemp + unlink. */
static int temp_file(const char *dir)
{
	char path[4096];
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd;
	if (snprintf(path, sizeof(path), "%s/.tracedat-XXXXXX", dir) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* A reader for each CPU with a trace_pipe_raw: 0, or -1 after printing why. */
static int open_readers(struct session *s)
{
	const struct td_record_opts *o = s->o;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	char path[4096], dir[4096];
	int i;

	/* As many readers as the machine has CPUs, whatever that is. */
	s->r = calloc(cpus > 0 ? (size_t)cpus : 1, sizeof(*s->r));
	if (!s->r) {
		fprintf(stderr, "tracedat: out of memory for %ld readers\n", cpus);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", o->output);
	*(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = '\0';
	for (i = 0; i < cpus; i++) {
		struct reader *rd = &s->r[s->nr];

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw",
			 o->tracing, i);
		rd->in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (rd->in < 0)
			continue;	/* not a possible CPU */
		rd->cpu = i;
		rd->stop_fd = s->stop_fd;
		rd->out = temp_file(dir[0] ? dir : ".");
		if (rd->out < 0 || pipe2(rd->pipe, O_CLOEXEC)) {
			fprintf(stderr, "tracedat: a temporary file in %s: %s\n",
				dir[0] ? dir : ".", strerror(errno));
			if (rd->out >= 0)
				close(rd->out);
			close(rd->in);
			return -1;
		}
		fcntl(rd->pipe[1], F_SETPIPE_SZ, SPLICE_BYTES);
		s->nr++;
	}
	if (!s->nr) {
		fprintf(stderr, "tracedat: no %s/per_cpu/cpu*/trace_pipe_raw\n",
			o->tracing);
		return -1;
	}
	return 0;
}

static void close_readers(struct session *s)
{
	int i;

	for (i = 0; i < s->nr; i++) {
		/* Those end_session() closed are -1. */
		if (s->r[i].in >= 0)
			close(s->r[i].in);
		if (s->r[i].pipe[0] >= 0) {
			close(s->r[i].pipe[0]);
			close(s->r[i].pipe[1]);
		}
		close(s->r[i].out);
	}
}

/* Each CPU's baseline, then its reader: 0, or -1 after printing why. */
static int start_readers(struct session *s)
{
	int i, err;

	for (i = 0; i < s->nr; i++)
		cpu_stats(s->o->tracing, s->r[i].cpu, &s->r[i].base);
	for (i = 0; i < s->nr; i++) {
		err = pthread_create(&s->r[i].thread, NULL, reader_main,
				     &s->r[i]);
		if (err) {
			fprintf(stderr, "tracedat: CPU %d: cannot start a reader thread: %s\n",
				s->r[i].cpu, strerror(err));
			return -1;
		}
		s->r[i].running = 1;
	}
	return 0;
}

static int start_tracing(struct session *s)
{
	char path[4096], *was_on;
	size_t len;

	snprintf(path, sizeof(path), "%s/tracing_on", s->o->tracing);
	was_on = td_read_all(path, &len);
	s->was_on = was_on && len && was_on[0] == '1';
	free(was_on);
	if (write_str(s->o->tracing, "tracing_on", "1")) {
		fprintf(stderr, "tracedat: %s: %s\n", path, strerror(errno));
		return -1;
	}
	s->tracing = 1;
	s->start_ms = now_ms();
	return 0;
}

/* The command, or ^C: its exit status, 0, or -1 after printing why. */
static int run(struct session *s)
{
	char *const *argv = s->o->argv;
	sigset_t pending;
	pid_t pid = 0;

	if (argv && argv[0]) {
		/* Came while setting up: never the command's; end at once. */
		sigpending(&pending);
		if (sigismember(&pending, SIGINT) ||
		    sigismember(&pending, SIGTERM)) {
			fprintf(stderr, "tracedat: %s came before %s started\n",
				sigismember(&pending, SIGINT) ? "SIGINT" :
				"SIGTERM", argv[0]);
			return 128 + (sigismember(&pending, SIGINT) ? SIGINT :
				      SIGTERM);
		}
		if (s->child) {
			/* -F: held until now, its filters set. */
			pid = s->child;
			if (write(s->go_fd, "g", 1) != 1)
				perror("tracedat: letting the command go");
			close(s->go_fd);
			s->go_fd = -1;
		} else {
			pid = start_command(s, argv, 0, NULL);
			if (pid < 0)
				return -1;
		}
		s->command = pid;
	} else {
		fprintf(stderr, "tracedat: recording, ^C to stop\n");
	}
	return wait_session(s, pid);
}

/*
 * Tracing off first, then the stop: the last drain of each reader, which
 * it starts on seeing the stop, gets all the session wrote, its tail
 * included.  Returns 0, or -1 after printing why (a reader failed).
 */
static int end_session(struct session *s)
{
	uint64_t one = 1;
	int i, ret = 0;

	if (s->tracing && write_str(s->o->tracing, "tracing_on", "0")) {
		fprintf(stderr, "tracedat: %s/tracing_on: %s\n", s->o->tracing,
			strerror(errno));
		ret = -1;
	}
	s->end_ms = s->tracing ? now_ms() : s->start_ms;
	/* An eventfd's count going from 0 to 1 does not fail. */
	if (write(s->stop_fd, &one, sizeof(one)) != sizeof(one))
		perror("tracedat: writing the stop eventfd");
	for (i = 0; i < s->nr; i++) {
		struct reader *r = &s->r[i];

		if (r->running)
			pthread_join(r->thread, NULL);
		if (reader_failed(r))
			ret = -1;
		/* Only the pages' files are needed now: descriptors back. */
		close(r->in);
		close(r->pipe[0]);
		close(r->pipe[1]);
		r->in = -1;
		r->pipe[0] = -1;
		r->pipe[1] = -1;
	}
	return ret;
}

/*
 * The last progress line, the summary and the file, or with -N what is
 * sent once the state is put back (@p): 0, or -1 (printed).
 */
static int finish(const struct session *s, struct prepared *p)
{
	struct stats d;

	progress(s, s->end_ms);
	summary(s);
	session_stats(s, &d);
	fprintf(stderr, "  lost while recording: %llu events\n", d.lost);
	if (s->o->net)
		return prepare_file(s, p);
	if (write_file(s))
		return -1;
	fprintf(stderr, "tracedat: wrote %s\n", s->o->output);
	return 0;
}

/* -C: the session's trace_clock (put back after, as the rest). */
static int set_clock(struct session *s)
{
	if (!s->o->clock)
		return 0;
	return change(s, "-C: ", "trace_clock", s->o->clock);
}

static int set_buffer_size(struct session *s)
{
	char kb[32];

	if (!s->o->buffer_kb)
		return 0;
	snprintf(kb, sizeof(kb), "%u", s->o->buffer_kb);
	return change(s, "", "buffer_size_kb", kb);
}

/*
 * Event @i of the -e options on, with its filter: 0, or -1 after printing
 * why.  A system's events are saved before its enable and filter.
 */
static int enable_event(struct session *s, int i)
{
	const struct td_record_opts *o = s->o;
	char what[1024], dir[3072], name[3100], path[4096];
	struct stat st;
	int below;

	snprintf(what, sizeof(what), "-e %s: ", o->events[i]);
	if (find_event(o->tracing, o->events[i], dir, sizeof(dir), &below,
		       path, sizeof(path))) {
		fprintf(stderr, "tracedat: %s%s: %s\n", what, path,
			strerror(errno));
		return -1;
	}
	snprintf(name, sizeof(name), "%s/enable", dir);
	snprintf(path, sizeof(path), "%s/%s", o->tracing, name);
	/* An event without an enable file is always on (ftrace/print). */
	if (!stat(path, &st) &&
	    (save_below(s, what, dir, below, "enable") ||
	     change(s, what, name, "1")))
		return -1;
	if (!o->filters[i] && !s->pid_filter)
		return 0;
	snprintf(name, sizeof(name), "%s/filter", dir);
	if (save_below(s, what, dir, below, "filter"))
		return -1;
	if (!s->pid_filter)
		return change(s, what, name, o->filters[i]);
	if (!o->filters[i])
		return change(s, what, name, s->pid_filter);
	{
		/* Both: the -f filter and the tasks'. */
		char *both;
		int ret;

		if (asprintf(&both, "(%s) && (%s)", o->filters[i],
			     s->pid_filter) < 0) {
			fprintf(stderr, "tracedat: out of memory\n");
			return -1;
		}
		ret = change(s, what, name, both);
		free(both);
		return ret;
	}
}

/*
 * -P and -F without -e: every system's filter (which sets its events')
 * to the tasks' pids.  0, or -1 after printing why.
 */
static int filter_all_systems(struct session *s)
{
	char path[4096], name[1024];
	struct dirent *e;
	struct stat st;
	int ret = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events", s->o->tracing);
	d = opendir(path);
	if (!d) {
		print_failed(s, "", "events", "", errno);
		return -1;
	}
	while (!ret && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "events/%s/filter", e->d_name);
		snprintf(path, sizeof(path), "%s/%s", s->o->tracing, name);
		if (stat(path, &st))
			continue;	/* not a system, or one without */
		snprintf(name, sizeof(name), "events/%s", e->d_name);
		ret = save_below(s, "", name, 1, "filter");
		snprintf(name, sizeof(name), "events/%s/filter", e->d_name);
		if (!ret)
			ret = change(s, "", name, s->pid_filter);
	}
	closedir(d);
	return ret;
}

/*
 * The filter of -P's pids and -F's command: the events of those tasks
 * only.  0, or -1 without memory.
 */
static int make_pid_filter(struct session *s)
{
	const struct td_record_opts *o = s->o;
	size_t len = 0;
	int i, n = o->nr_pids + !!s->child;

	if (!n)
		return 0;
	s->pid_filter = malloc((size_t)n * 32);
	if (!s->pid_filter)
		return -1;
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(s->pid_filter + len, "%scommon_pid == %d",
				       i ? " || " : "",
				       i < o->nr_pids ? o->pids[i] :
				       (int)s->child);
	return 0;
}

/* The events on, with their filters, and the buffer cleared: 0, or -1. */
static int enable_events(struct session *s)
{
	const struct td_record_opts *o = s->o;
	int i;

	for (i = 0; i < o->nr_events; i++)
		if (enable_event(s, i))
			return -1;
	if (!o->nr_events && (save_below(s, "", "events", 2, "enable") ||
			      change(s, "", "events/enable", "1")))
		return -1;
	if (!o->nr_events && s->pid_filter && filter_all_systems(s))
		return -1;
	if (write_str(o->tracing, "trace", "")) {
		fprintf(stderr, "tracedat: clearing %s/trace: %s\n", o->tracing,
			strerror(errno));
		return -1;
	}
	return 0;
}

int td_record(const struct td_record_opts *o)
{
	struct session s = { .o = o, .go_fd = -1 };
	struct prepared p = { .ready = 0 };
	int status = -1;

	/* -N: a collector that is not there fails now, not after the session. */
	if (o->net) {
		char err[256];
		struct td_net n = { .err = err, .errlen = sizeof(err) };

		if (td_net_probe(&n, o->net)) {
			fprintf(stderr, "tracedat: -N %s\n", err);
			return -1;
		}
	}
	/* Before anything changes: a ^C or SIGTERM now waits for put_back(). */
	if (catch_signals(&s))
		return -1;
	/* -F: the command's pid is needed for the filters, so fork it now. */
	if (o->follow) {
		s.child = start_command(&s, o->argv, 1, &s.go_fd);
		if (s.child < 0) {
			s.child = 0;
			goto put_back;
		}
	}
	if (make_pid_filter(&s)) {
		fprintf(stderr, "tracedat: out of memory\n");
		goto put_back;
	}
	if (set_buffer_size(&s) || set_clock(&s) || enable_events(&s))
		goto put_back;
	s.stop_fd = eventfd(0, EFD_CLOEXEC);
	if (s.stop_fd < 0) {
		perror("tracedat: eventfd");
		goto put_back;
	}
	if (open_readers(&s))
		goto close;
	if (!start_readers(&s) && !start_tracing(&s))
		status = run(&s);
	if (end_session(&s))
		status = -1;
	/* Before put_back(): a new buffer_size_kb resets the stats read. */
	if (status >= 0 && finish(&s, &p))
		status = -1;
close:
	close_readers(&s);
	close(s.stop_fd);
put_back:
	if (s.go_fd >= 0) {
		/* Held and never let go: it must not run now. */
		kill(s.child, SIGKILL);
		close(s.go_fd);
		while (waitpid(s.child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (s.command > 0) {
		/* The session failed while it ran: it does not run on untraced. */
		kill(s.command, SIGTERM);
		while (waitpid(s.command, NULL, 0) < 0 && errno == EINTR)
			;
	}
	put_back(&s);
	release_signals(&s);
	/* -N: the state is back and ^C is ^C again while this waits. */
	if (status >= 0 && p.ready && send_file(o, &p.tf))
		status = -1;
	release_prepared(&p);
	free(s.pid_filter);
	free(s.r);
	return status;
}
