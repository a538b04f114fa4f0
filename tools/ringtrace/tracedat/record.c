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
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "datfile.h"
#include "pages.h"
#include "record.h"

#define MAX_CPUS	256
#define SPLICE_BYTES	(64 * 1024)

struct reader {
	int		cpu;
	int		in;		/* trace_pipe_raw */
	int		out;		/* the unlinked temporary file */
	int		pipe[2];
	unsigned long long bytes;
	int		error;
	pthread_t	thread;
};

/* Set once (by the main thread or a signal): the readers then drain. */
static int stopping;

static int should_stop(void)
{
	return __atomic_load_n(&stopping, __ATOMIC_ACQUIRE);
}

static void stop_all(void)
{
	__atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
}

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
static char *read_all(const char *path, size_t *len)
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

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	for (;;) {
		ssize_t n = splice(r->in, NULL, r->pipe[1], NULL, SPLICE_BYTES,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n < 0 && errno == EAGAIN) {
			struct timespec nap = { 0, 20 * 1000 * 1000 };

			if (should_stop())
				return NULL;	/* drained */
			nanosleep(&nap, NULL);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r->error = n < 0 ? errno : EIO;
			return NULL;
		}
		while (n > 0) {
			ssize_t m = splice(r->pipe[0], NULL, r->out, NULL,
					   (size_t)n, SPLICE_F_MOVE);

			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0) {
				r->error = m < 0 ? errno : EIO;
				return NULL;
			}
			n -= m;
			r->bytes += (unsigned long long)m;
		}
	}
}

/* Enable (1) or disable (0) @spec: SYSTEM, EVENT or SYSTEM/EVENT. */
static int set_event(const char *tracing, const char *spec, int on,
		     const char *filter, char *path, size_t len)
{
	char dir[3072];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/events/%s", tracing, spec);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		/* EVENT alone: look in every system. */
		DIR *d;
		struct dirent *e;
		int found = 0;

		snprintf(dir, sizeof(dir), "%s/events", tracing);
		d = opendir(dir);
		while (d && (e = readdir(d))) {
			char p[3072];

			snprintf(p, sizeof(p), "%s/events/%s/%s", tracing,
				 e->d_name, spec);
			if (e->d_name[0] != '.' && !strchr(spec, '/') &&
			    !stat(p, &st) && S_ISDIR(st.st_mode)) {
				snprintf(dir, sizeof(dir), "%s", p);
				found = 1;
				break;
			}
		}
		if (d)
			closedir(d);
		if (!found) {
			errno = ENOENT;
			snprintf(path, len, "%s/events/.../%s", tracing, spec);
			return -1;
		}
	}
	snprintf(path, len, "%s/enable", dir);
	/* An event without an enable file is always on (ftrace/print). */
	if (write_str(dir, "enable", on ? "1" : "0") && errno != ENOENT)
		return -1;
	if (on && filter) {
		snprintf(path, len, "%s/filter", dir);
		if (write_str(dir, "filter", filter))
			return -1;
	}
	return 0;
}

struct stats {
	unsigned long long written, lost;
};

static void cpu_stats(const char *tracing, int cpu, struct stats *s)
{
	char path[4096], *text, *p;
	size_t len;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", tracing, cpu);
	text = read_all(path, &len);
	if (!text)
		return;
	text[len ? len - 1 : 0] = '\0';
	p = strstr(text, "written: ");
	if (p)
		s->written += strtoull(p + 9, NULL, 10);
	p = strstr(text, "overrun: ");
	if (p)
		s->lost += strtoull(p + 9, NULL, 10);
	p = strstr(text, "dropped: ");
	if (p)
		s->lost += strtoull(p + 9, NULL, 10);
	free(text);
}

static void progress(const struct td_record_opts *o, struct reader *r,
		     int nr, double secs, unsigned long long written0)
{
	struct stats s = { 0 };
	unsigned long long bytes = 0;
	int i;

	for (i = 0; i < nr; i++) {
		cpu_stats(o->tracing, r[i].cpu, &s);
		bytes += r[i].bytes;
	}
	fprintf(stderr, "\rtracedat: %.0f events/s, %llu bytes, %llu lost   ",
		secs > 0 ? (double)(s.written - written0) / secs : 0.0, bytes,
		s.lost);
}

static int run_command(char *const argv[], const struct td_record_opts *o,
		       struct reader *r, int nr, unsigned long long written0)
{
	struct timespec t0, t;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "tracedat: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
		sleep(1);
		clock_gettime(CLOCK_MONOTONIC, &t);
		progress(o, r, nr, (double)(t.tv_sec - t0.tv_sec) +
			 (double)(t.tv_nsec - t0.tv_nsec) / 1e9, written0);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A format file without ringtrace's alias lines, which libtraceevent refuses. */
static void add_format(struct td_blob **arr, uint32_t *nr, char *text,
		       size_t len)
{
	struct td_blob *a = realloc(*arr, (*nr + 1) * sizeof(**arr));
	char *in = text, *out = text, *end = text + len;

	if (!a)
		return;
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

/* Every events/<system>/<event>/format: ftrace's apart, the rest by system. */
static void read_formats(const char *tracing, struct td_file *tf)
{
	char path[4096];
	struct dirent *s, *e;
	DIR *sd, *ed;

	snprintf(path, sizeof(path), "%s/events", tracing);
	sd = opendir(path);
	while (sd && (s = readdir(sd))) {
		struct td_system *sys = NULL;

		if (s->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", tracing, s->d_name);
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
			text = read_all(fpath, &len);
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

				if (!a)
					break;
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

static struct td_blob blob_of(const char *path)
{
	struct td_blob b = { 0 };
	size_t len;

	b.data = (const uint8_t *)read_all(path, &len);
	b.len = b.data ? len : 0;
	return b;
}

static int write_file(const struct td_record_opts *o, struct reader *r,
		      int nr)
{
	struct td_file tf = { 0 };
	char path[4096], err[256];
	FILE *f;
	int i, ret = 0;

	tf.long_size = sizeof(long);
	tf.page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	snprintf(path, sizeof(path), "%s/events/header_page", o->tracing);
	tf.header_page = blob_of(path);	/* ringtrace has none: empty */
	snprintf(path, sizeof(path), "%s/events/header_event", o->tracing);
	tf.header_event = blob_of(path);
	read_formats(o->tracing, &tf);
	tf.kallsyms = blob_of("/proc/kallsyms");
	snprintf(path, sizeof(path), "%s/printk_formats", o->tracing);
	tf.printk_formats = blob_of(path);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", o->tracing);
	tf.cmdlines = blob_of(path);
	tf.nr_cpus = (uint32_t)nr;
	tf.cpu_data = calloc((size_t)nr, sizeof(*tf.cpu_data));
	for (i = 0; tf.cpu_data && i < nr; i++) {
		tf.cpu_data[i].len = (size_t)r[i].bytes;
		tf.cpu_data[i].data = r[i].bytes ?
			mmap(NULL, r[i].bytes, PROT_READ, MAP_PRIVATE, r[i].out, 0) :
			(const uint8_t *)"";
		if (tf.cpu_data[i].data == MAP_FAILED) {
			fprintf(stderr, "tracedat: mapping CPU %d's pages: %s\n",
				r[i].cpu, strerror(errno));
			return -1;
		}
	}
	f = fopen(o->output, "wb");
	if (!f || !tf.cpu_data || td_write(f, &tf, err, sizeof(err))) {
		fprintf(stderr, "tracedat: %s: %s\n", o->output,
			!f ? strerror(errno) : tf.cpu_data ? err : "out of memory");
		ret = -1;
	}
	if (f && fclose(f) && !ret) {
		fprintf(stderr, "tracedat: %s: %s\n", o->output, strerror(errno));
		ret = -1;
	}
	for (i = 0; tf.cpu_data && i < nr; i++)
		if (r[i].bytes)
			munmap((void *)tf.cpu_data[i].data, r[i].bytes);
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

static void summary(struct reader *r, int nr)
{
	struct td_page_format pf = {
		.page_size = (uint32_t)sysconf(_SC_PAGESIZE),
		.long_size = sizeof(long),
	};
	int i;

	fprintf(stderr, "\n");
	for (i = 0; i < nr; i++) {
		unsigned long long c[2] = { 0, 0 };
		char err[256];
		void *m = r[i].bytes ? mmap(NULL, r[i].bytes, PROT_READ,
					    MAP_PRIVATE, r[i].out, 0) : NULL;

		if (m != MAP_FAILED && m)
			td_walk_pages(m, r[i].bytes, r[i].cpu, &pf,
				      count_page_event, c, err, sizeof(err));
		fprintf(stderr, "  CPU %d: %llu events, %llu bytes, %llu pages after lost events\n",
			r[i].cpu, c[0], r[i].bytes, c[1]);
		if (m && m != MAP_FAILED)
			munmap(m, r[i].bytes);
	}
}

/* An unlinked file in @dir: O_TMPFILE, or (9p has none) mkstemp + unlink. */
static int temp_file(const char *dir)
{
	char path[4096];
	int fd = open(dir, O_TMPFILE | O_RDWR, 0600);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd;
	if (snprintf(path, sizeof(path), "%s/.tracedat-XXXXXX", dir) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

static void on_signal(int sig)
{
	(void)sig;
	stop_all();
}

int td_record(const struct td_record_opts *o)
{
	struct reader r[MAX_CPUS];
	struct stats s0 = { 0 }, s1 = { 0 };
	char path[4096], dir[4096];
	int nr = 0, i, status = 0, ret = -1, enabled = 0;
	char *was_on = NULL;
	size_t len = 0;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct sigaction sa = { .sa_handler = on_signal };

	memset(r, 0, sizeof(r));
	if (o->buffer_kb) {
		char kb[32];

		snprintf(kb, sizeof(kb), "%u", o->buffer_kb);
		if (write_str(o->tracing, "buffer_size_kb", kb)) {
			fprintf(stderr, "tracedat: %s/buffer_size_kb: %s\n",
				o->tracing, strerror(errno));
			return -1;
		}
	}
	for (i = 0; i < o->nr_events; i++, enabled++) {
		if (set_event(o->tracing, o->events[i], 1, o->filters[i], path,
			      sizeof(path))) {
			fprintf(stderr, "tracedat: -e %s: %s: %s%s\n",
				o->events[i], path, strerror(errno),
				errno == EINVAL ? " (see error_log)" : "");
			goto disable;
		}
	}
	if (!o->nr_events && write_str(o->tracing, "events/enable", "1")) {
		fprintf(stderr, "tracedat: %s/events/enable: %s\n", o->tracing,
			strerror(errno));
		return -1;
	}
	if (write_str(o->tracing, "trace", "")) {
		fprintf(stderr, "tracedat: clearing %s/trace: %s\n", o->tracing,
			strerror(errno));
		goto disable;
	}
	snprintf(dir, sizeof(dir), "%s", o->output);
	*(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = '\0';
	for (i = 0; i < cpus && nr < MAX_CPUS; i++) {
		struct reader *rd = &r[nr];

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw",
			 o->tracing, i);
		rd->in = open(path, O_RDONLY | O_NONBLOCK);
		if (rd->in < 0)
			continue;	/* not a possible CPU */
		rd->cpu = i;
		rd->out = temp_file(dir[0] ? dir : ".");
		if (rd->out < 0 || pipe(rd->pipe)) {
			fprintf(stderr, "tracedat: a temporary file in %s: %s\n",
				dir[0] ? dir : ".", strerror(errno));
			close(rd->in);
			goto stop;
		}
		fcntl(rd->pipe[1], F_SETPIPE_SZ, SPLICE_BYTES);
		nr++;
	}
	if (!nr) {
		fprintf(stderr, "tracedat: no %s/per_cpu/cpu*/trace_pipe_raw\n",
			o->tracing);
		goto disable;
	}
	for (i = 0; i < nr; i++)
		cpu_stats(o->tracing, r[i].cpu, &s0);
	for (i = 0; i < nr; i++)
		if (pthread_create(&r[i].thread, NULL, reader_main, &r[i]))
			goto stop;
	snprintf(path, sizeof(path), "%s/tracing_on", o->tracing);
	was_on = read_all(path, &len);
	write_str(o->tracing, "tracing_on", "1");
	if (o->argv && o->argv[0]) {
		status = run_command(o->argv, o, r, nr, s0.written);
	} else {
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		fprintf(stderr, "tracedat: recording, ^C to stop\n");
		while (!should_stop()) {
			sleep(1);
			progress(o, r, nr, 1.0, s0.written);
			cpu_stats(o->tracing, r[0].cpu, &s0);
		}
	}
	/* Off while the readers drain, then as it was before. */
	write_str(o->tracing, "tracing_on", "0");
	ret = 0;
stop:
	stop_all();
	for (i = 0; i < nr; i++) {
		if (r[i].thread)
			pthread_join(r[i].thread, NULL);
		if (r[i].error) {
			fprintf(stderr, "tracedat: reading CPU %d: %s\n", r[i].cpu,
				strerror(r[i].error));
			ret = -1;
		}
	}
	for (i = 0; i < nr; i++)
		cpu_stats(o->tracing, r[i].cpu, &s1);
	if (!ret && status >= 0) {
		summary(r, nr);
		fprintf(stderr, "  lost while recording: %llu events\n",
			s1.lost - s0.lost);
		if (write_file(o, r, nr))
			ret = -1;
		else
			fprintf(stderr, "tracedat: wrote %s\n", o->output);
	}
	for (i = 0; i < nr; i++) {
		close(r[i].in);
		close(r[i].out);
		close(r[i].pipe[0]);
		close(r[i].pipe[1]);
	}
	if (was_on && len && was_on[0] == '1')
		write_str(o->tracing, "tracing_on", "1");
	free(was_on);
disable:
	for (i = 0; i < enabled; i++)
		set_event(o->tracing, o->events[i], 0, NULL, path, sizeof(path));
	if (!o->nr_events)
		write_str(o->tracing, "events/enable", "0");
	return ret ? -1 : status;
}
